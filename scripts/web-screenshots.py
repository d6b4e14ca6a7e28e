#!/usr/bin/env python3
"""The pictures in docs/images (shown side by side in docs/PICTURES.md), taken from a running server
(`make demo`, or any `seatkit serve` with the sample venues and an admin key): the picker on a desktop and
a phone in Chinese and English with seats held, sold out, offline, the 20k arena at the zones level and
zoomed into a section, a 100,000-seat arena, the embedded element; and the console's views: the week's
board, the day's board, the show form, the desk, today's takings with a cash-up. Look at them after.

Usage: scripts/web-screenshots.py [--url http://127.0.0.1:8080] [--out docs/images] [--admin-key KEY] [--bin .build/debug/seatkit]"""

import argparse
import json
import os
import subprocess
import tempfile
import time
import urllib.request
from urllib.error import HTTPError

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains


def browser(width, height, phone=False):
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", f"--window-size={width},{height}", "--lang=en-GB",
                     "--force-device-scale-factor=1", "--hide-scrollbars"]:
        options.add_argument(argument)
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    d = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    if phone:
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height, "deviceScaleFactor": 2, "mobile": True})
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    return d


def ready(d, url):
    d.get(url)
    for _ in range(300):
        if d.execute_script("return document.querySelector('seatkit-map')?.ready === true"):
            break
        time.sleep(0.05)
    time.sleep(0.5)


def click(d, seat):
    r = d.execute_script("return document.querySelector('seatkit-map').seat(arguments[0]).rect.toJSON()", seat)
    actions = ActionChains(d)
    actions.w3c_actions.pointer_action.move_to_location(int(r["x"] + r["width"] / 2), int(r["y"] + r["height"] / 2)).click()
    actions.perform()
    time.sleep(0.6)


def send(url, method, path, body, key):
    """A v1 call with the admin key; the status and the answer."""
    request = urllib.request.Request(url + path, data=None if body is None else json.dumps(body).encode(), method=method,
                                     headers={"Content-Type": "application/json", "X-Admin-Key": key})
    try:
        with urllib.request.urlopen(request, timeout=60) as r:
            return r.status, json.loads(r.read() or b"null")
    except HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def prepare(url, key, binary):
    """A sold-out showing, sales at the counter for today's takings, and a 100,000-seat arena: each made
    once (a second run finds them)."""
    prices = {"categories": {"standard": "38.00", "vip": "58.00", "couple": "99.90"}}
    details = {"title": {"zh": "星际归途", "en": "Homeward Among the Stars"}, "hall": {"zh": "3号厅", "en": "Hall 3"}, "format": "2D",
               "poster": "/web/poster-homeward.svg"}
    if send(url, "POST", "/v1/shows", {"id": "hall3-sold-out", "venueId": "cinema-hall-3", "startsAt": "2099-12-31T10:00:00+08:00",
                                       "prices": prices, "details": details}, key)[0] == 201:
        layout = send(url, "GET", "/v1/venues/cinema-hall-3", None, key)[1]
        seats = [s["id"] for row in layout["rows"] for s in row["seats"]]
        status, answer = send(url, "POST", "/v1/shows/hall3-sold-out/sales", {"seats": seats, "orderRef": "GROUP-1", "payment": "card", "force": True}, key)
        assert status == 201, answer
    for k, (seats, payment, buyer) in enumerate([(["6-5", "6-6"], "cash", {"name": "王小明", "phone": "138 0013 8000"}), (["9-1"], "wechat", None),
                                                  (["10-3", "10-4", "10-5"], "card", None)]):
        body = {"seats": seats, "orderRef": f"COUNTER-{k + 1}", "payment": payment, "force": True, **({"buyer": buyer} if buyer else {})}
        send(url, "POST", "/v1/shows/hall3-1930/sales", body, key)
    if send(url, "GET", "/v1/shows/arena-100k", None, key)[0] != 200:
        with tempfile.TemporaryDirectory() as tmp:
            arena = os.path.join(tmp, "arena.json")
            subprocess.run([binary, "generate", "arena", "--seats", "100000", "-o", arena], check=True, capture_output=True)
            request = urllib.request.Request(url + "/v1/venues", data=open(arena, "rb").read(), method="POST",
                                             headers={"Content-Type": "application/json", "X-Admin-Key": key})
            urllib.request.urlopen(request, timeout=120).read()
        send(url, "POST", "/v1/shows", {"id": "arena-100k", "venueId": "arena-100000", "startsAt": "2099-12-24T19:30:00+08:00",
                                        "prices": {"categories": {"lower": "880", "upper": "480"}},
                                        "details": {"title": {"zh": "跨年演唱会", "en": "New Year's Eve Concert"}}}, key)


def console(url, key, out):
    """The console's views as a manager sees them, in Chinese and English."""
    for lang in ["zh", "en"]:
        d = browser(1440, 1000)
        try:
            d.get(f"{url}/console?show=hall3-1930&lang={lang}")
            d.find_element("id", "key").send_keys(key)
            d.find_element("css selector", "#sign-in button").click()
            for _ in range(200):
                if d.execute_script("return document.getElementById('desk').dataset.show === 'hall3-1930'"):
                    break
                time.sleep(0.05)
            time.sleep(1)
            d.find_element("id", "schedule").screenshot(os.path.join(out, f"console-board-{lang}.png"))
            d.execute_script("document.getElementById('cashup-from').value = '00:00'")
            d.execute_script("window.print = () => {}; document.querySelector('#cashup-form button[type=submit]').click()")
            time.sleep(1)
            d.set_window_size(1440, 1600)
            d.execute_script("document.getElementById('today').scrollIntoView()")
            time.sleep(0.3)
            d.find_element("id", "today").screenshot(os.path.join(out, f"console-today-{lang}.png"))
            d.set_window_size(1440, 1000)
            d.execute_script("document.getElementById('desk').scrollIntoView()")
            time.sleep(0.5)
            d.save_screenshot(os.path.join(out, f"console-desk-{lang}.png"))
            d.execute_script("document.getElementById('new-show').click()")
            time.sleep(1)
            d.save_screenshot(os.path.join(out, f"console-new-show-{lang}.png"))
        finally:
            d.quit()
        print("wrote the console's pictures,", lang)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser.add_argument("--out", default=os.path.join(root, "docs/images"))
    parser.add_argument("--admin-key", default=os.environ.get("SEATKIT_ADMIN_KEY", "demo-admin-key-change-me"))
    parser.add_argument("--bin", default=os.path.join(root, ".build/debug/seatkit"))
    args = parser.parse_args()
    prepare(args.url, args.admin_key, args.bin)
    shots = [
        ("web-picker.png", 1280, 900, False, "/shows/hall3-2145?lang=en", ["8-1", "8-2"]),
        ("web-picker-zh.png", 1280, 900, False, "/shows/hall3-2145?lang=zh", ["7-3", "7-4"]),
        ("web-picker-phone.png", 390, 844, True, "/shows/hall3-2145?lang=zh", []),
        ("web-picker-phone-held.png", 390, 844, True, "/shows/hall3-2145?lang=zh", ["6-8"]),
        ("web-picker-phone-en.png", 390, 844, True, "/shows/imax-2000?lang=en", []),
        ("web-sold-out.png", 1280, 900, False, "/shows/hall3-sold-out?lang=zh", []),
        ("web-offline-phone.png", 390, 844, True, "/shows/hall3-2145?lang=zh", []),
        ("web-arena-zones.png", 1280, 900, False, "/shows/arena-concert?lang=en", []),
        ("web-arena-100k.png", 1280, 900, False, "/shows/arena-100k?lang=zh", []),
        ("web-embedded.png", 1100, 800, False, "/web/embed.html?show=imax-2000&lang=en", []),
    ]
    for name, width, height, phone, path, seats in shots:
        d = browser(width, height, phone)
        try:
            ready(d, args.url + path)
            for seat in seats:
                click(d, seat)
            if name == "web-embedded.png":
                d.execute_script("document.querySelector('seatkit-map').select(['10-9', '10-10'])")
                time.sleep(0.8)
            if name == "web-offline-phone.png":
                # The network cut: the page says so at once, and a tapped seat is told why nothing happened.
                d.execute_cdp_cmd("Network.enable", {})
                d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
                d.execute_script("window.dispatchEvent(new Event('offline'))")
                time.sleep(0.5)
                click(d, "5-8")
            d.save_screenshot(os.path.join(args.out, name))
            if name == "web-arena-zones.png":
                d.execute_script("const m = document.querySelector('seatkit-map'); m.zoomToSeats(['101-5-5'])")
                time.sleep(0.6)
                d.save_screenshot(os.path.join(args.out, "web-arena-seats.png"))
            if name == "web-picker-phone.png":
                # A section of the arena tapped on a phone: 24-point seats, that section's rows in the gutter.
                ready(d, args.url + "/shows/arena-concert?lang=zh")
                r = d.execute_script("const s = document.getElementById('map-surface').getBoundingClientRect(); return [s.x + s.width * 0.56, s.y + s.height * 0.75]")
                d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": r[0], "y": r[1]}]})
                d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
                time.sleep(0.8)
                d.save_screenshot(os.path.join(args.out, "web-arena-section-phone.png"))
            # Let the holds go again, so the pictures can be taken again on the same server.
            if name != "web-offline-phone.png":
                d.execute_script("return document.querySelector('seatkit-map').release()")
                time.sleep(0.3)
        finally:
            d.quit()
        print("wrote", name)
    console(args.url, args.admin_key, args.out)


if __name__ == "__main__":
    main()
