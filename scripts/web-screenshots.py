#!/usr/bin/env python3
"""The picker's pictures in docs/images, taken from a running server (`make demo`, or any `seatkit serve`
with the sample venues): the desktop page with two seats held, a phone with its buy bar, the 20k arena
at the zones level and zoomed into seats, and the embedded element. Look at them after.

Usage: scripts/web-screenshots.py [--url http://127.0.0.1:8080] [--out docs/images]"""

import argparse
import os
import time

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", default="http://127.0.0.1:8080")
    parser.add_argument("--out", default=os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs/images"))
    args = parser.parse_args()
    shots = [
        ("web-picker.png", 1280, 900, False, "/shows/hall3-2145?lang=en", ["8-1", "8-2"]),
        ("web-picker-phone.png", 390, 844, True, "/shows/hall3-2145?lang=zh", ["6-8"]),
        ("web-arena-zones.png", 1280, 900, False, "/shows/arena-concert?lang=en", []),
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
            d.save_screenshot(os.path.join(args.out, name))
            if name == "web-arena-zones.png":
                d.execute_script("const m = document.querySelector('seatkit-map'); m.zoomToSeats(['101-5-5'])")
                time.sleep(0.6)
                d.save_screenshot(os.path.join(args.out, "web-arena-seats.png"))
            # Let the holds go again, so the pictures can be taken again on the same server.
            d.execute_script("return document.querySelector('seatkit-map').release()")
            time.sleep(0.3)
        finally:
            d.quit()
        print("wrote", name)


if __name__ == "__main__":
    main()
