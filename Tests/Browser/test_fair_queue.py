"""A fair chance in the waiting room (#54 item 4), in Chromium: a real-name show's room asks the buyer's ID card (a
mistyped one said as typed, before the server) and a proof of work the page solves by itself; the same ID from a second
page is told it already has a place; a registration's draw says registered, then drawn with the buying slot, or not
drawn. Phone (390 x 844) and desktop, Chinese and English, axe-checked, screenshots. Shared set-up: support.py."""

import os
import time
import unittest
from datetime import datetime, timedelta, timezone

from support import *  # noqa: F401,F403 (the suites' shared names)
from test_realname import id_card


def iso(seconds_from_now):
    return (datetime.now(timezone.utc) + timedelta(seconds=seconds_from_now)).isoformat(timespec="milliseconds")


class FairQueueTests(PickerCase):

    def setUp(self):
        super().setUp()
        # A real-name twin of the picker's show, for the tests that need one.
        self.real_show = f"fq-{self._testMethodName[5:24].replace('_', '-')}"
        body = {"id": self.real_show, "venueId": "cinema-hall-3", "startsAt": "2099-12-24T19:30:00+08:00", "holdSeconds": 600,
                "details": {"title": {"zh": "星海巡回演唱会", "en": "Star Sea tour"}, "realName": "perTicket"},
                "prices": {"currency": "CNY", "categories": {"standard": "380.00", "vip": "580.00", "couple": "999.00"}},
                "policy": {"maxSeats": 6, "noLoneSeat": False}}
        status, made = self.server.send("POST", "/v1/shows", body, admin=True)
        self.assertEqual(status, 201, made)

    def phone(self, show, lang):
        d = self.new_browser()
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        d.get(f"{self.server.url}/shows/{show}?lang={lang}")
        return d

    def text(self, d, element):
        return d.execute_script("return document.getElementById(arguments[0]).textContent", element)

    def test_id_and_proof_on_a_phone(self):
        status, room = self.server.send("PUT", f"/v1/shows/{self.real_show}/queue",
                                        {"opensAt": iso(-1), "admitPerMinute": 600, "proofOfWorkBits": 14}, admin=True)
        self.assertEqual(status, 200, room)
        d = self.phone(self.real_show, "zh")
        self.wait(d, lambda d: d.find_element(By.ID, "queue-identity").is_displayed(), message="the ID form")
        self.assertEqual(self.text(d, "queue-title"), "实名排队")
        self.assertIn("每个证件只能排队一次", self.text(d, "queue-identity-why"))
        mine = id_card(41)
        wrong = mine[:17] + ("1" if mine[17] != "1" else "2")
        d.find_element(By.ID, "queue-id-number").send_keys(wrong)
        d.find_element(By.ID, "queue-id-join").click()
        self.assertIn("校验位应为", self.text(d, "queue-id-problem"), "a mistyped number is said before the server")
        self.assertEqual(d.find_element(By.ID, "queue-id-number").get_attribute("aria-invalid"), "true")
        d.save_screenshot(os.path.join(ARTIFACTS, "queue-id-phone-zh.png"))
        self.axe(d, "the real-name room's ID form, phone zh")
        field = d.find_element(By.ID, "queue-id-number")
        field.clear()
        field.send_keys(mine)
        d.find_element(By.ID, "queue-id-join").click()
        # The page finds the proof of work itself, joins, is let in, and the map opens.
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"), timeout=30,
                  message="let in after the proof of work, the map open")
        status, room = self.server.send("GET", f"/v1/shows/{self.real_show}/queue", None, admin=True)
        self.assertEqual(room["admitted"], 1, room)
        # The same ID from another phone: one place a document, said in words.
        other = self.phone(self.real_show, "zh")
        self.wait(other, lambda d: d.find_element(By.ID, "queue-identity").is_displayed(), message="the ID form again")
        other.find_element(By.ID, "queue-id-number").send_keys(mine)
        other.find_element(By.ID, "queue-id-join").click()
        self.wait(other, lambda d: "每个证件只能排队一次" in self.text(d, "queue-note"), timeout=30, message="one place an ID")
        other.save_screenshot(os.path.join(ARTIFACTS, "queue-id-in-line-phone-zh.png"))
        self.axe(other, "one place an ID, phone zh")

    def test_draw_registered_then_drawn(self):
        # Registration until the draw in 4 s, the sale 3 s later; one winner and a page that registered.
        status, room = self.server.send("PUT", f"/v1/shows/{self.show}/queue",
                                        {"opensAt": iso(7), "admitPerMinute": 60, "earlyMinutes": 60, "drawAt": iso(4), "drawWinners": 1},
                                        admin=True)
        self.assertEqual(status, 200, room)
        d = self.new_browser()
        d.get(f"{self.server.url}/shows/{self.show}?lang=en")
        self.wait(d, lambda d: self.text(d, "queue-title") == "You're registered for the draw", message="registered")
        self.assertIn("You can close this page", self.text(d, "queue-note"))
        self.assertEqual(self.text(d, "queue-position-label"), "The draw is in")
        d.save_screenshot(os.path.join(ARTIFACTS, "queue-registered-desktop-en.png"))
        self.axe(d, "registered for the draw, desktop en")
        self.wait(d, lambda d: self.text(d, "queue-title") == "You were drawn!", timeout=10, message="drawn")
        self.assertRegex(self.text(d, "queue-note"), r"Your buying slot starts at \d\d:\d\d")
        self.assertEqual(self.text(d, "queue-position-label"), "Your buying slot starts in")
        d.save_screenshot(os.path.join(ARTIFACTS, "queue-drawn-desktop-en.png"))
        self.axe(d, "drawn, desktop en")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"), timeout=15,
                  message="the map at the slot")
        # The draw anyone can check: the seed revealed, one winner of one registrant.
        status, draw = self.server.send("GET", f"/v1/shows/{self.show}/queue/draw", None)
        self.assertEqual((status, draw["winners"], len(draw["order"])), (200, 1, 1), draw)

    def test_not_drawn_on_a_phone(self):
        status, room = self.server.send("PUT", f"/v1/shows/{self.show}/queue",
                                        {"opensAt": iso(60), "admitPerMinute": 60, "earlyMinutes": 60, "drawAt": iso(10), "drawWinners": 1},
                                        admin=True)
        self.assertEqual(status, 200, room)
        # Someone else registers first; whichever the seed draws, one of the two pages is told it was not drawn.
        pages = [self.phone(self.show, "zh") for _ in range(2)]
        for d in pages:
            self.wait(d, lambda d: self.text(d, "queue-title") == "已登记抽签", message="registered")
        self.wait(pages[0], lambda d: all(self.text(p, "queue-title") in ("恭喜中签！", "未中签") for p in pages), timeout=20,
                  message="the draw made")
        titles = sorted(self.text(p, "queue-title") for p in pages)
        self.assertEqual(titles, sorted(["未中签", "恭喜中签！"]))
        loser = next(p for p in pages if self.text(p, "queue-title") == "未中签")
        self.assertIn("很遗憾未中签", self.text(loser, "queue-note"))
        self.assertTrue(loser.find_element(By.ID, "queue-others").is_displayed())
        loser.save_screenshot(os.path.join(ARTIFACTS, "queue-not-drawn-phone-zh.png"))
        self.axe(loser, "not drawn, phone zh")

    def test_lane_pass_link_desktop_zh(self):
        # A fan club lane with every admission while it has anyone; two a minute, so the page stays in line.
        status, room = self.server.send("PUT", f"/v1/shows/{self.show}/queue",
                                        {"opensAt": iso(-1), "admitPerMinute": 2, "lanes": [{"name": "fanclub", "share": 100}]}, admin=True)
        self.assertEqual(status, 200, room)
        status, issued = self.server.send("POST", f"/v1/shows/{self.show}/queue/lanes/fanclub/passes", {"count": 3}, admin=True)
        self.assertEqual(status, 201, issued)
        for _ in range(3):
            status, _ = self.server.post(f"/v1/shows/{self.show}/queue", None)
            self.assertEqual(status, 201)
        status, fan = self.server.post(f"/v1/shows/{self.show}/queue", {"lanePass": issued["passes"][0]})
        self.assertEqual((status, fan.get("lane")), (201, "fanclub"), fan)
        d = self.new_browser()
        d.get(f"{self.server.url}/shows/{self.show}?lang=zh&pass={issued['passes'][1]}")
        self.wait(d, lambda d: self.text(d, "queue-lane") == "优先通道：fanclub", message="the fan club's lane")
        # Behind the one fan before it, ahead of the three who joined the public line first.
        self.wait(d, lambda d: self.text(d, "queue-position") in ("1", "2"), message="a place in the lane")
        d.save_screenshot(os.path.join(ARTIFACTS, "queue-lane-desktop-zh.png"))
        self.axe(d, "the fan club lane, desktop zh")
        # The same pass again, in another page: it has joined already.
        other = self.new_browser()
        other.get(f"{self.server.url}/shows/{self.show}?lang=zh&pass={issued['passes'][1]}")
        self.wait(other, lambda d: "已被使用" in self.text(d, "queue-note"), message="a pass joins once")

    def test_console_sets_fair_room(self):
        # A manager sets the proof of work and a fan club lane in the console, then issues passes to hand out.
        m = self.sign_in_console("browser-test-key")
        self.wait(m, lambda m: "No waiting room" in m.find_element(By.ID, "queue-live").text, message="no room yet")
        m.execute_script("document.getElementById('queue-pow').value = '16'; document.getElementById('queue-lanes').value = 'fanclub:70'")
        m.find_element(By.ID, "queue-save").click()
        self.wait(m, lambda m: m.find_element(By.ID, "queue-passes").is_displayed(), message="the lane's passes offered")
        status, room = self.server.send("GET", f"/v1/shows/{self.show}/queue", None, admin=True)
        self.assertEqual((room["proofOfWorkBits"], room["lanes"][0]["name"], room["lanes"][0]["share"]), (16, "fanclub", 70), room)
        self.assertIn("fanclub (70 %): 0 waiting", m.find_element(By.ID, "queue-live").text)
        m.execute_script("document.getElementById('queue-pass-count').value = '3'")
        m.find_element(By.ID, "queue-pass-issue").click()
        self.wait(m, lambda m: m.find_element(By.ID, "queue-pass-links").is_displayed(), message="the links")
        links = m.find_element(By.ID, "queue-pass-links").get_attribute("value").split("\n")
        self.assertEqual(len(links), 3)
        self.assertRegex(links[0], rf"/shows/{self.show}\?pass=lp1\.")
        # Updating the rate keeps the proof of work and the lane (the PUT carries every setting back).
        m.execute_script("document.getElementById('queue-rate').value = '300'")
        m.find_element(By.ID, "queue-save").click()
        self.wait(m, lambda m: self.server.send("GET", f"/v1/shows/{self.show}/queue", None, admin=True)[1]["admitPerMinute"] == 300,
                  message="updated")
        status, room = self.server.send("GET", f"/v1/shows/{self.show}/queue", None, admin=True)
        self.assertEqual((room["proofOfWorkBits"], len(room["lanes"])), (16, 1), room)
        # A bad lane is refused naming it, and nothing changes.
        # (Set and sent in one step: the form is filled again from the room just after an update.)
        self.wait(m, lambda m: m.find_element(By.ID, "queue-rate").get_attribute("value") == "300", message="the form filled again")
        time.sleep(0.5)
        m.execute_script("document.getElementById('queue-lanes').value = 'fanclub:170'; document.getElementById('queue-form').requestSubmit()")
        self.wait(m, lambda m: "lanes[0].share" in m.find_element(By.ID, "desk-message").text, message="the bad lane refused")
        self.assertEqual(self.server.send("GET", f"/v1/shows/{self.show}/queue", None, admin=True)[1]["lanes"][0]["share"], 70)
        m.save_screenshot(os.path.join(ARTIFACTS, "console-queue-fair.png"))
        self.axe(m, "the console's fair waiting room")


if __name__ == "__main__":
    unittest.main()
