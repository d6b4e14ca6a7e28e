#!/usr/bin/env python3
"""A webhook receiver for SeatKit's tests: an operator's system that checks every delivery with PyPI's
`standardwebhooks` (the Standard Webhooks reference library), so SeatKit's signing is checked against
code it does not share.

    python3 Tests/Webhooks/receiver.py --port 8432

    POST /hooks/{name}          a delivery: verified with the secret registered for {name}, recorded,
                                answered by the mode set for {name} (ok: 204, fail: 500, gone: 410,
                                slow: 20 s then 204)
    POST /_receiver/endpoint    {"name", "secret", "mode"}  register or change an endpoint
    GET  /_receiver/events?name=   every delivery received, in order: id, type, verified, body
"""
import argparse
import json
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks import Webhook

lock = threading.Lock()
endpoints = {}  # name -> {"secret", "mode"}
received = []  # {"name", "id", "type", "verified", "error", "body"}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body=b""):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/_receiver/events":
            name = dict(urllib.parse.parse_qsl(url.query)).get("name")
            with lock:
                events = [e for e in received if name is None or e["name"] == name]
            return self.reply(200, json.dumps({"events": events}).encode())
        if url.path == "/_receiver/health":
            return self.reply(200, b'{"ok":true}')
        self.reply(404)

    def do_POST(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        url = urllib.parse.urlsplit(self.path)
        if url.path == "/_receiver/endpoint":
            request = json.loads(body)
            with lock:
                endpoints[request["name"]] = {"secret": request.get("secret") or endpoints.get(request["name"], {}).get("secret"),
                                              "mode": request.get("mode", "ok")}
            return self.reply(200, b'{"ok":true}')
        if url.path.startswith("/hooks/"):
            name = url.path[len("/hooks/"):]
            with lock:
                endpoint = dict(endpoints.get(name, {"secret": None, "mode": "ok"}))
            headers = {k.lower(): v for k, v in self.headers.items()}
            entry = {"name": name, "id": headers.get("webhook-id"), "verified": False, "error": None, "type": None,
                     "body": body.decode("utf-8", "replace")}
            try:
                payload = Webhook(endpoint["secret"]).verify(body, headers)
                entry.update(verified=True, type=payload.get("type"))
            except Exception as error:  # a delivery this receiver cannot trust: recorded as such
                entry["error"] = repr(error)
            mode = endpoint["mode"]
            if mode == "slow":
                time.sleep(20)
            with lock:
                received.append(entry)
            if mode == "fail":
                return self.reply(500, b'{"error":"the CRM is down"}')
            if mode == "gone":
                return self.reply(410, b'{"error":"gone"}')
            return self.reply(204)
        self.reply(404)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8432)
    args = parser.parse_args()
    ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
