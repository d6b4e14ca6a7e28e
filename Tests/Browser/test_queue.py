"""The waiting room's page: a buyer who opens a show whose sale has a room sees the place live, in both
languages, at phone and desktop sizes (axe-clean), and the map opens by itself when the buyer is let in;
the first seat tapped is held with the admission. Shared set-up and helpers: support.py."""

import os
import time
import unittest
import urllib.request
from datetime import datetime, timedelta, timezone

from support import *  # noqa: F401,F403 (the suites' shared names)


class QueueTests(PickerCase):

    def set_up_room(self, per_minute, opened_seconds_ago):
        opens = (datetime.now(timezone.utc) - timedelta(seconds=opened_seconds_ago)).isoformat(timespec="milliseconds")
        status, room = self.server.send("PUT", f"/v1/shows/{self.show}/queue",
                                        {"opensAt": opens, "admitPerMinute": per_minute, "maxEntriesPerAddress": 50}, admin=True)
        self.assertEqual(status, 200, room)
        return room

    def set_up_early_room(self, opens_in_minutes):
        opens = (datetime.now(timezone.utc) + timedelta(minutes=opens_in_minutes)).isoformat(timespec="milliseconds")
        status, room = self.server.send("PUT", f"/v1/shows/{self.show}/queue", {"opensAt": opens, "admitPerMinute": 100}, admin=True)
        self.assertEqual(status, 200, room)

    def open_queue(self, lang="en", phone=False):
        d = self.new_browser()
        if phone:
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
            d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        d.get(f"{self.server.url}/shows/{self.show}?lang={lang}")
        return d

    def queue_text(self, d, element):
        return d.execute_script("return document.getElementById(arguments[0]).textContent", element)

    def test_the_line_shows_the_place_and_opens_the_map_by_itself(self):
        # Ten a minute, opened 6.5 s ago: someone who joined first takes the first admission; the page's
        # buyer is next, let in some six seconds later.
        self.set_up_room(per_minute=10, opened_seconds_ago=6.5)
        status, first = self.server.post(f"/v1/shows/{self.show}/queue", None)
        self.assertEqual(status, 201, first)
        d = self.open_queue()
        self.wait(d, lambda d: d.find_element(By.ID, "queue-page").is_displayed(), message="the waiting room, not the map")
        self.assertFalse(d.find_element(By.ID, "show-page").is_displayed())
        self.wait(d, lambda d: self.queue_text(d, "queue-position") in ("1", "2"), message="a place in line")
        self.assertIn("You're in line", self.queue_text(d, "queue-title"))
        self.assertRegex(self.queue_text(d, "queue-ahead"), r"^(You.re next|1 person ahead of you)$")
        self.assertIn("to wait", self.queue_text(d, "queue-eta"))
        self.assertIn("Keep this page open", self.queue_text(d, "queue-note"))
        self.assertIn(self.show, self.queue_text(d, "queue-show"))
        # Next in line (or one behind): the bar shows the way to being let in under way, not empty.
        self.assertGreaterEqual(int(d.find_element(By.ID, "queue-progress").get_attribute("value")), 33)
        d.save_screenshot(os.path.join(ARTIFACTS, "queue-desktop-en.png"))
        self.axe(d, "the waiting room, desktop en")
        # Let in: said with the time the admission lasts, then the map by itself; a tap holds with the admission.
        self.wait(d, lambda d: d.find_element(By.ID, "queue-page").get_attribute("data-state") == "admitted", timeout=20, message="let in")
        d.save_screenshot(os.path.join(ARTIFACTS, "queue-admitted-desktop-en.png"))
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"), timeout=20,
                  message="the map opened by itself")
        self.assertFalse(d.find_element(By.ID, "queue-page").is_displayed())
        self.assertIn("your turn", d.find_element(By.ID, "announcer").get_attribute("textContent"))
        # …with how long the admission lasts (it never said how long the buyer had to pick seats).
        self.assertRegex(self.queue_text(d, "queue-note"), r"within (9|10) minutes \(by \d\d:\d\d\)")
        self.wait(d, lambda d: d.find_element(By.ID, "map").get_attribute("data-version") is not None, message="the map's seats")
        self.click_seat(d, "5-7")
        self.click_seat(d, "5-5")
        self.wait(d, self.settled_total, message="held with the admission")
        self.assertEqual(self.server.statuses(self.show).count("h"), 2)
        # A reload keeps the admission (the tab's storage): the map again, no line.
        d.refresh()
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"), message="the map after a reload")
        self.assertFalse(d.find_element(By.ID, "queue-page").is_displayed())

    def test_the_line_in_chinese_on_a_phone_and_before_the_opening(self):
        # Opens in ten minutes: the page says the places are given at random at opening.
        self.set_up_early_room(opens_in_minutes=10)
        d = self.open_queue(lang="zh", phone=True)
        self.wait(d, lambda d: self.queue_text(d, "queue-title") == "即将开售", message="the early room")
        self.assertIn("随机", self.queue_text(d, "queue-ahead"))
        self.assertRegex(self.queue_text(d, "queue-position"), r"^(09|10):[0-5][0-9]$")
        self.assertEqual(self.queue_text(d, "queue-position-label"), "距开售还有")
        self.assertRegex(self.queue_text(d, "queue-eta"), r"预计等待约 1[01] 分钟")
        d.save_screenshot(os.path.join(ARTIFACTS, "queue-phone-zh.png"))
        self.axe(d, "the early room, phone zh")
        # The manager switches the room off: the page lets the buyer in at once.
        status, _ = self.server.send("DELETE", f"/v1/shows/{self.show}/queue", None, admin=True)
        self.assertEqual(status, 200)
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"), timeout=10,
                  message="the map once the room is off")

    def test_the_line_in_chinese_at_desktop_size(self):
        # In line, in Chinese at desktop size: two a minute and two ahead, so the buyer stays in line.
        self.set_up_room(per_minute=2, opened_seconds_ago=1)
        for _ in range(2):
            status, _ = self.server.post(f"/v1/shows/{self.show}/queue", None)
            self.assertEqual(status, 201)
        d = self.open_queue(lang="zh")
        self.wait(d, lambda d: self.queue_text(d, "queue-title") == "排队购票中", message="in line, in Chinese")
        self.wait(d, lambda d: self.queue_text(d, "queue-position") in ("2", "3"), message="a place in line")
        self.assertRegex(self.queue_text(d, "queue-ahead"), r"^(前面还有 [12] 人)$")
        self.assertRegex(self.queue_text(d, "queue-eta"), r"^预计")
        for element in ("queue-title", "queue-ahead", "queue-eta", "queue-note", "queue-position-label"):
            self.assertNotRegex(self.queue_text(d, element), r"[A-Za-z]{3,}", f"no English in #{element} of the Chinese page")
        d.save_screenshot(os.path.join(ARTIFACTS, "queue-desktop-zh.png"))
        self.axe(d, "the line, desktop zh")

    def test_the_early_room_in_english_on_a_phone(self):
        # Before the opening, in English on a phone: the early room (places drawn at opening).
        self.set_up_early_room(opens_in_minutes=3)
        p = self.open_queue(lang="en", phone=True)
        self.wait(p, lambda p: self.queue_text(p, "queue-title") == "The sale opens soon", message="the early room, in English")
        self.assertIn("random", self.queue_text(p, "queue-ahead"))
        self.assertRegex(self.queue_text(p, "queue-position"), r"^0[23]:[0-5][0-9]$")
        self.assertLessEqual(p.execute_script("return document.documentElement.scrollWidth"), 390, "no sideways scrolling on a phone")
        p.save_screenshot(os.path.join(ARTIFACTS, "queue-phone-en.png"))
        self.axe(p, "the early room, phone en")

    def test_the_console_runs_the_room_live(self):
        m = self.sign_in_console("browser-test-key")
        self.wait(m, lambda m: "No waiting room" in m.find_element(By.ID, "queue-live").text, message="no room yet")
        m.execute_script("document.getElementById('queue-rate').value = '120'; document.getElementById('queue-early').value = '90'")
        m.find_element(By.ID, "queue-save").click()
        self.wait(m, lambda m: m.find_element(By.ID, "queue").get_attribute("data-state") == "before", message="the room set up")
        status, room = self.server.send("GET", f"/v1/shows/{self.show}/queue", None, admin=True)
        self.assertEqual((status, room["admitPerMinute"], room["state"]), (200, 120, "before"))
        # A buyer joins: the desk's figure follows within its two-second refresh.
        status, _ = self.server.post(f"/v1/shows/{self.show}/queue", None)
        self.assertEqual(status, 201)
        self.wait(m, lambda m: "Waiting\n1" in m.find_element(By.ID, "queue-live").text, timeout=5, message="one waiting, live")
        self.assertIn("Seats sold", m.find_element(By.ID, "queue-live").text)
        m.save_screenshot(os.path.join(ARTIFACTS, "console-queue.png"))
        self.axe(m, "the console's waiting room")
        m.find_element(By.ID, "queue-off").click()
        self.wait(m, lambda m: m.find_element(By.ID, "queue").get_attribute("data-state") == "off", message="switched off")
        self.assertIn("1 let in", m.find_element(By.ID, "desk-message").text)


if __name__ == "__main__":
    unittest.main(verbosity=2)
