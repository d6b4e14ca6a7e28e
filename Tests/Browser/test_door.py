"""The door's scanner at /door: a door operator signs in, chooses the show and the gate, and scans 100 typed codes,
each answered green or red within 100 ms (p99); a second scan of a ticket is red with where it went in; with the network
cut the page checks codes itself and uploads them when the network is back, listing the one another gate let in
meanwhile. Screenshots at desktop and phone sizes in both languages, each axe-checked. Shared set-up: support.py."""

import os
import statistics
import time
import unittest
import urllib.request
from datetime import datetime, timedelta, timezone

from support import *  # noqa: F401,F403 (the suites' shared names)


class DoorTests(PickerCase):

    def setUp(self):
        # No picker show: each test makes a show starting soon (the doors open two hours before).
        self.first_driver = len(self.drivers)

    def make_show(self, show, minutes, title=("深海", "Deep Sea")):
        """A show of hall 3 starting in `minutes`, of the film `title` (Chinese, English)."""
        starts = (datetime.now(timezone.utc) + timedelta(minutes=minutes)).isoformat(timespec="seconds")
        status, made = self.server.send("POST", "/v1/shows", {"id": show, "venueId": "cinema-hall-3", "startsAt": starts,
                                                              "details": {"title": {"zh": title[0], "en": title[1]}},
                                                              "prices": {"categories": {"standard": "38", "vip": "58", "couple": "99"}}}, admin=True)
        self.assertEqual(status, 201, made)

    def tonight(self, seats):
        """A show of hall 3 starting in 30 minutes with `seats` of its seats sold at the counter: their codes, in order."""
        show = f"door-{self._testMethodName[5:20].replace('_', '-')}"
        self.make_show(show, 30)
        free = json.loads(self.server.get(f"/v1/shows/{show}/free-seats"))
        ids = [seat for zone in free["zones"] for row in zone["rows"] for run in row["runs"] for seat in run["seats"]]
        clerk = {"Authorization": f"Bearer {CLERK_KEY}"}
        status, sale = self.server.send("POST", f"/v1/shows/{show}/sales",
                                        {"seats": ids[:seats], "orderRef": f"{show}-order", "payment": "cash"}, headers=clerk)
        self.assertEqual(status, 201, sale)
        status, tickets = self.server.send("GET", f"/v1/orders/{show}-order/tickets", None, headers=clerk)
        self.assertEqual(status, 200, tickets)
        return show, [t["code"] for t in tickets["tickets"]], [t["seat"] for t in tickets["tickets"]]

    def open_door(self, show, lang="en", phone=False):
        d = self.new_browser()
        if phone:
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        d.get(f"{self.server.url}/door?lang={lang}")
        d.find_element(By.ID, "key").send_keys(DOOR_KEY + Keys.ENTER)
        self.wait(d, lambda d: d.find_element(By.ID, "setup").is_displayed(), message="the gate's set-up")
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f"#show-list input[value='{show}']"), message="the show listed")
        d.find_element(By.CSS_SELECTOR, f"#show-list input[value='{show}']").click()
        d.find_element(By.ID, "gate").send_keys("Hall 3 left" + Keys.ENTER)
        self.wait(d, lambda d: d.find_element(By.ID, "scanner").is_displayed(), message="the scanner")
        self.wait(d, lambda d: d.execute_script("return document.activeElement.id") == "code", message="the code field focused")
        return d

    def scan(self, d, code, typed=False):
        """One scan; the page's own time from Enter to the answer shown (ms) and the answer's result."""
        before = int(d.find_element(By.ID, "answer").get_attribute("data-scans") or 0)
        if typed:
            d.switch_to.active_element.send_keys(code + Keys.ENTER)
        else:
            d.execute_script("const i = document.getElementById('code'); i.value = arguments[0]; document.getElementById('scan').requestSubmit()", code)
        self.wait(d, lambda d: int(d.find_element(By.ID, "answer").get_attribute("data-scans") or 0) > before, message="an answer")
        panel = d.find_element(By.ID, "answer")
        return float(panel.get_attribute("data-ms")), panel.get_attribute("data-result")

    def test_a_hundred_codes_each_answered_within_100_ms_and_a_second_scan_is_red(self):
        show, codes, seats = self.tonight(104)
        d = self.open_door(show)
        # A keyboard-wedge scanner types the code and Enter: the first five as keystrokes.
        timings = []
        for k, code in enumerate(codes[:100]):
            ms, result = self.scan(d, code, typed=k < 5)
            self.assertEqual(result, "ok", f"ticket {k}")
            timings.append(ms)
        p99 = sorted(timings)[98]
        print(f"\n  door: 100 scans, p50 {statistics.median(timings):.1f} ms, p99 {p99:.1f} ms, max {max(timings):.1f} ms")
        self.assertLessEqual(p99, 100, timings)
        self.assertEqual(d.find_element(By.ID, "answer-word").text, "Welcome")
        row, number = seats[99].split("-")
        self.assertEqual(d.find_element(By.ID, "answer-seat").text, f"Row {row} Seat {number}")
        d.save_screenshot(os.path.join(ARTIFACTS, "door-green-desktop-en.png"))
        self.axe(d, "the door, green, desktop en")
        _, result = self.scan(d, codes[3])
        self.assertEqual(result, "already_in")
        self.assertIn("through Hall 3 left (zhao)", d.find_element(By.ID, "answer-detail").text)
        d.save_screenshot(os.path.join(ARTIFACTS, "door-red-desktop-en.png"))
        self.axe(d, "the door, red, desktop en")
        status, counts = self.server.send("GET", f"/v1/shows/{show}/checkin", None, headers={"Authorization": f"Bearer {DOOR_KEY}"})
        self.assertEqual((status, counts["inside"], counts["gates"]), (200, 100, [{"gate": "Hall 3 left", "in": 100, "out": 0}]))
        self.wait(d, lambda d: d.find_element(By.ID, "counts").text == "100 inside", message="the count")

    def test_with_the_network_cut_it_checks_codes_itself_and_uploads_them_later(self):
        show, codes, seats = self.tonight(4)
        d = self.open_door(show, lang="zh", phone=True)
        _, result = self.scan(d, codes[0])
        self.assertEqual(result, "ok")
        d.execute_cdp_cmd("Network.enable", {})
        d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        # Offline: a real ticket green, the one already in red, a forged one red, all decided in the page.
        _, result = self.scan(d, codes[1])
        self.assertEqual(result, "ok")
        self.assertIn("离线验票", d.find_element(By.ID, "answer-detail").text)
        self.assertEqual(d.find_element(By.ID, "answer-seat").text, f"座位 {seats[1]}")
        self.assertEqual(self.scan(d, codes[0])[1], "already_in")
        forged = codes[2][:-10] + ("A" if codes[2][-10] != "A" else "B") + codes[2][-9:]
        self.assertEqual(self.scan(d, forged)[1], "invalid")
        self.assertIn("签名不符", d.find_element(By.ID, "answer-detail").text)
        _, result = self.scan(d, codes[3])
        self.assertEqual(result, "ok")
        self.assertEqual(d.find_element(By.ID, "network").get_attribute("data-state"), "offline")
        self.assertIn("待上传 2 条", d.find_element(By.ID, "network").text)
        d.save_screenshot(os.path.join(ARTIFACTS, "door-offline-phone-zh.png"))
        self.axe(d, "the door offline, phone zh")
        # Meanwhile another gate, online, lets codes[3] in: when the network is back the page uploads both
        # scans, and lists codes[3] as a conflict.
        status, other = self.server.send("POST", "/v1/checkin", {"code": codes[3], "gate": "Hall 3 right", "nonce": "other-gate-0001"},
                                         headers={"Authorization": f"Bearer {DOOR_KEY}"})
        self.assertEqual((status, other["result"]), (200, "ok"))
        d.execute_cdp_cmd("Network.emulateNetworkConditions", {"offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        self.wait(d, lambda d: d.find_element(By.ID, "network").get_attribute("data-state") == "online", timeout=15, message="back online")
        self.wait(d, lambda d: d.find_element(By.ID, "conflicts-box").is_displayed(), message="the conflict listed")
        self.assertIn(seats[3], d.find_element(By.ID, "conflicts").text)
        self.assertIn("Hall 3 right", d.find_element(By.ID, "conflicts").text)
        status, counts = self.server.send("GET", f"/v1/shows/{show}/checkin", None, headers={"Authorization": f"Bearer {DOOR_KEY}"})
        self.assertEqual(counts["inside"], 3, counts)
        d.save_screenshot(os.path.join(ARTIFACTS, "door-conflict-phone-zh.png"))
        self.axe(d, "the door with a conflict, phone zh")

    def test_a_red_scan_says_why_and_the_seat_as_printed_in_chinese_and_english(self):
        # A refunded ticket, a ticket of another showing, and a cancelled show's ticket: each red with its
        # reason in the door's language (the Chinese door said nothing, the English one raw show ids), the
        # seat as printed on it (3排10座, Row 3 Seat 10; it read "3-10").
        show, codes, seats = self.tonight(3)
        clerk = {"Authorization": f"Bearer {CLERK_KEY}"}
        status, refund = self.server.send("POST", f"/v1/orders/{show}-order/refund", {"seats": [seats[0]], "reason": "changed plans"}, headers=clerk)
        self.assertEqual(status, 200, refund)
        other = f"{show}-late"
        self.make_show(other, 50, ("归途", "Homeward"))
        status, sale = self.server.send("POST", f"/v1/shows/{other}/sales", {"seats": ["4-1"], "orderRef": f"{other}-o", "payment": "cash"}, headers=clerk)
        self.assertEqual(status, 201, sale)
        status, late = self.server.send("GET", f"/v1/orders/{other}-o/tickets", None, headers=clerk)
        late_code = late["tickets"][0]["code"]
        row, number = seats[0].split("-")
        for lang, refunded, wrong, seat in [("zh", "此票已退票", "不是本检票口的场次", f"{row}排{number}座"),
                                            ("en", "This ticket was refunded", "not for this gate", f"Row {row} Seat {number}")]:
            d = self.open_door(show, lang=lang, phone=lang == "zh")
            self.assertEqual(self.scan(d, codes[0])[1], "revoked")
            self.assertEqual(d.find_element(By.ID, "answer-detail").text, refunded)
            self.assertEqual(d.find_element(By.ID, "answer-seat").text, seat)
            d.save_screenshot(os.path.join(ARTIFACTS, f"door-refunded-{'phone' if lang == 'zh' else 'desktop'}-{lang}.png"))
            self.axe(d, f"the door, a refunded ticket, {lang}")
            self.assertEqual(self.scan(d, late_code)[1], "wrong_show")
            detail = d.find_element(By.ID, "answer-detail").text
            self.assertIn(wrong, detail)
            self.assertIn("归途" if lang == "zh" else "Homeward", detail, "the other showing by its film, not its id")
            self.assertNotIn(other, detail)
        status, _ = self.server.send("POST", f"/v1/shows/{show}/cancel", {"reason": "projector"}, admin=True)
        self.assertEqual(status, 200)
        self.assertEqual(self.scan(d, codes[1])[1], "revoked")
        self.assertIn("cancelled", d.find_element(By.ID, "answer-detail").text)

    def test_a_tickets_qr_code_reads_back_as_its_code(self):
        # The picture a phone or the counter's printer shows, rendered (librsvg) and read by a QR decoder
        # (ZXing, from PyPI) as a scanner at the gate would: exactly the ticket's code.
        import subprocess
        import zxingcpp
        from PIL import Image
        show, codes, _ = self.tonight(1)
        svg = os.path.join(self.server.dir, "ticket.svg")
        with open(svg, "w") as f:
            f.write(self.server.get(f"/v1/tickets/{codes[0]}.svg"))
        png = os.path.join(ARTIFACTS, "ticket-qr.png")
        subprocess.run(["rsvg-convert", "-w", "300", "-o", png, svg], check=True)
        found = zxingcpp.read_barcodes(Image.open(png).convert("L"))
        self.assertEqual([(str(b.format), b.text) for b in found], [("QR Code", codes[0])])
        # The PNG the counter's printer takes, as the server makes it (zlib and CRCs checked by the reader).
        served = os.path.join(ARTIFACTS, "ticket-qr-served.png")
        with urllib.request.urlopen(f"{self.server.url}/v1/tickets/{codes[0]}.png") as r, open(served, "wb") as f:
            self.assertEqual(r.headers["Content-Type"], "image/png")
            f.write(r.read())
        image = Image.open(served)
        image.load()
        self.assertEqual(image.mode, "1")
        found = zxingcpp.read_barcodes(image.convert("L"))
        self.assertEqual([(str(b.format), b.text) for b in found], [("QR Code", codes[0])])

    def test_a_box_office_key_scans_a_console_key_for_the_door_is_refused_there(self):
        d = self.new_browser()
        d.get(f"{self.server.url}/console?lang=en")
        console_key(d, DOOR_KEY + Keys.ENTER)
        self.wait(d, lambda d: "door key" in d.find_element(By.ID, "sign-in-message").text, message="the console says the key is the door's")
        self.assertFalse(d.find_element(By.ID, "schedule").is_displayed())


if __name__ == "__main__":
    unittest.main()
