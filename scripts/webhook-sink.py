#!/usr/bin/env python3
"""Webhook endpoints for `make bench` (SeatKitBench's hold path beside 100 endpoints): answers every POST
204 at once and counts it (no signature check: the receiver's cost is not SeatKit's), and a black hole
that takes connections and never answers (a dead endpoint the sender waits on until its timeout).

    python3 scripts/webhook-sink.py --port P --blackhole-port Q
    GET /count   deliveries taken so far
"""
import argparse
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

taken = 0
lock = threading.Lock()


class Sink(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        global taken
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with lock:
            taken += 1
        self.send_response(204)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_GET(self):
        with lock:
            body = str(taken).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--blackhole-port", type=int, required=True)
    args = parser.parse_args()
    hole = socket.socket()
    hole.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    hole.bind(("127.0.0.1", args.blackhole_port))
    hole.listen(1024)  # connections queue in the kernel; nobody ever accepts or answers them
    server = ThreadingHTTPServer(("127.0.0.1", args.port), Sink)
    server.daemon_threads = True
    server.serve_forever()


if __name__ == "__main__":
    main()
