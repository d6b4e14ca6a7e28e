"""A real-name show (#54) in Chinese at phone size: a buyer picks two seats, adds two attendees to their attendee book (a
mistyped ID card number said as typed, before the server), ticks them and buys; buying again with one of them is refused
as one ID once a show, in words. At the door, the same ticket asks for its attendee's ID, refuses another's and lets the
right one in. Screenshots of each step at 390 x 844, axe-checked. Shared set-up: support.py."""

import json
import unittest
import urllib.request
from datetime import datetime, timedelta, timezone

from support import *  # noqa: F401,F403 (the suites' shared names)


def id_card(n, day=1):
    """A valid mainland ID card number (GB 11643's check character), born on `day` January 1990."""
    body = f"110105199001{day:02d}{n % 1000:03d}"
    weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
    return body + "10X98765432"[sum(int(c) * w for c, w in zip(body, weights)) % 11]


class RealNameTests(PickerCase):

    def setUp(self):
        # A real-name show of hall 3 starting in 90 minutes (the doors open two hours before), per test.
        self.show = f"rn-{self._testMethodName[5:24].replace('_', '-')}"
        starts = (datetime.now(timezone.utc) + timedelta(minutes=90)).isoformat(timespec="seconds")
        body = {"id": self.show, "venueId": "cinema-hall-3", "startsAt": starts, "holdSeconds": 600,
                "details": {"title": {"zh": "星海巡回演唱会", "en": "Star Sea tour"}, "realName": "perTicket"},
                "prices": {"currency": "CNY", "categories": {"standard": "380.00", "vip": "580.00", "couple": "999.00"}},
                "policy": {"maxSeats": 6, "noLoneSeat": False}}
        status, made = self.server.send("POST", "/v1/shows", body, admin=True)
        self.assertEqual(status, 201, made)
        self.first_driver = len(self.drivers)

    def tap_seats(self, d, seats):
        for seat in seats:
            x, y = self.seat_point(d, seat)
            self.touch_tap(d, x, y)
            self.wait(d, lambda d: self.status(d, seat) == "selected", message=f"{seat} held")
        self.wait(d, lambda d: self.settled_total(d) is not None, message="the hold settled")

    def add_person(self, d, name, number):
        if not d.find_element(By.ID, "who-form").is_displayed():
            d.find_element(By.ID, "who-add").click()
        d.find_element(By.ID, "who-name").send_keys(name)
        d.find_element(By.ID, "who-number").send_keys(number)
        d.find_element(By.ID, "who-save").click()

    def test_a_phone_buyer_names_attendees_from_the_book_and_an_id_buys_once(self):
        d = self.open_phone("zh")
        self.tap_seats(d, ["7-1", "7-2"])
        d.execute_script("document.getElementById('confirm').scrollIntoView({block: 'center'})")
        d.find_element(By.ID, "confirm").click()
        self.wait(d, lambda d: d.find_element(By.ID, "who-page").is_displayed(), message="the attendees step")
        self.assertIn("实名制", d.find_element(By.ID, "who-rule").text)
        self.assertIn("请选择 2 位观演人", d.find_element(By.ID, "who-count").text)
        # A mistyped ID card number: said under the field as it is typed, nothing saved.
        first = id_card(601)
        wrong = first[:17] + ("1" if first[17] != "1" else "2")
        d.find_element(By.ID, "who-name").send_keys("王小明")
        d.find_element(By.ID, "who-number").send_keys(wrong)
        self.wait(d, lambda d: "校验位" in d.find_element(By.ID, "who-number-problem").text, message="the check character said")
        self.assertEqual(d.find_element(By.ID, "who-number").get_attribute("aria-invalid"), "true")
        d.find_element(By.ID, "who-save").click()
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, "#who-list input[type=checkbox]"), [])
        d.find_element(By.ID, "who-number").clear()
        d.find_element(By.ID, "who-number").send_keys(first)
        d.find_element(By.ID, "who-save").click()
        self.wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#who-list input:checked")) == 1, message="王小明 saved and ticked")
        self.add_person(d, "李雷", id_card(602))
        self.wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#who-list input:checked")) == 2, message="李雷 saved and ticked")
        listed = d.find_element(By.ID, "who-list").text
        self.assertIn("王*明", listed)
        self.assertIn("110***********", listed)
        self.assertNotIn(first, listed, "never in the clear on the page")
        d.save_screenshot(os.path.join(ARTIFACTS, "realname-attendees-phone-zh.png"))
        self.axe(d, "the attendees step on a phone, in Chinese")
        d.find_element(By.ID, "who-next").click()
        self.wait(d, lambda d: d.find_element(By.ID, "receipt-page").is_displayed(), timeout=10, message="bought")
        seven = d.execute_script("return document.querySelector('seatkit-map').seat('7-1').index")
        self.assertEqual(self.server.statuses(self.show)[seven], "s")
        d.save_screenshot(os.path.join(ARTIFACTS, "realname-receipt-phone-zh.png"))

        # Again, with 王小明 from the book: one ID once a show, said in words; nothing bought.
        d.get(f"{self.server.url}/shows/{self.show}?lang=zh")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"))
        self.tap_seats(d, ["9-1"])
        d.execute_script("document.getElementById('confirm').scrollIntoView({block: 'center'})")
        d.find_element(By.ID, "confirm").click()
        self.wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#who-list input[type=checkbox]")) == 2, message="the book's two people")
        boxes = d.find_elements(By.CSS_SELECTOR, "#who-list .who-person")
        next(b for b in boxes if "王*明" in b.text).click()
        d.find_element(By.ID, "who-next").click()
        self.wait(d, lambda d: "一人一票" in d.find_element(By.ID, "who-message").text, message="refused in words")
        said = d.find_element(By.ID, "who-message").text
        self.assertIn("9排1座", said)
        self.assertIn("7排1座", said, "the seat the ID has, never the other buyer")
        self.assertNotIn("document", said, "in the page's language")
        self.assertEqual(self.server.statuses(self.show)[self.index(d, "9-1")], "h", "held still, not sold")
        d.save_screenshot(os.path.join(ARTIFACTS, "realname-refused-phone-zh.png"))

    def desktop_step(self, lang, seat):
        """A desktop page in `lang` at the attendees step, with `seat` held."""
        d = self.open(lang)
        d.set_window_size(1440, 900)
        self.click_seat(d, seat)
        self.wait(d, lambda d: self.settled_total(d) is not None, message="the hold settled")
        d.find_element(By.ID, "confirm").click()
        self.wait(d, lambda d: d.find_element(By.ID, "who-page").is_displayed(), message="the attendees step")
        return d

    def test_the_attendees_step_at_desktop_in_english(self):
        d = self.desktop_step("en", "6-4")
        self.assertIn("one ticket per ID", d.find_element(By.ID, "who-rule").text)
        self.assertIn("Choose 1 person", d.find_element(By.ID, "who-count").text)
        d.find_element(By.ID, "who-name").send_keys("Anna Schmidt")
        Select(d.find_element(By.ID, "who-type")).select_by_value("passport")
        d.find_element(By.ID, "who-number").send_keys("C01234567")
        d.find_element(By.ID, "who-save").click()
        self.wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#who-list input:checked")) == 1, message="saved and ticked")
        self.assertIn("A*** ******t", d.find_element(By.ID, "who-list").text)
        self.assertIn("Passport C0*****67", d.find_element(By.ID, "who-list").text)
        d.save_screenshot(os.path.join(ARTIFACTS, "realname-attendees-desktop-en.png"))
        self.axe(d, "the attendees step at desktop size, in English")

    def test_phone_in_english_and_desktop_in_chinese_attendees(self):
        # The step's other two corners: an English phone, a Chinese desktop (no English word but the ID types' letters).
        d = self.open_phone("en")
        self.tap_seats(d, ["6-4"])
        d.find_element(By.ID, "confirm").click()
        self.wait(d, lambda d: d.find_element(By.ID, "who-page").is_displayed(), message="the attendees step, phone")
        self.assertIn("Choose 1 person", d.find_element(By.ID, "who-count").text)
        bottom = d.execute_script("return document.getElementById('who-page').getBoundingClientRect().right")
        self.assertLessEqual(bottom, 390, "nothing wider than the phone")
        d.save_screenshot(os.path.join(ARTIFACTS, "realname-attendees-phone-en.png"))
        self.axe(d, "the attendees step at phone size, in English")
        z = self.desktop_step("zh", "6-6")
        self.assertIn("请选择 1 位观演人", z.find_element(By.ID, "who-count").text)
        z.save_screenshot(os.path.join(ARTIFACTS, "realname-attendees-desktop-zh.png"))
        self.axe(z, "the attendees step at desktop size, in Chinese")

    def test_the_door_asks_for_the_id_and_lets_the_right_person_in(self):
        number = id_card(611)
        status, held = self.server.send("POST", f"/v1/shows/{self.show}/holds",
                                        {"seats": ["5-1"], "attendees": [{"seat": "5-1", "name": "王小明", "idType": "idCard", "idNumber": number}]})
        self.assertEqual(status, 201, held)
        status, done = self.server.send("POST", f"/v1/holds/{held['token']}/confirm", {"orderRef": f"{self.show}-1"})
        self.assertEqual(status, 200, done)
        status, tickets = self.server.send("GET", f"/v1/holds/{held['token']}/tickets", None)
        code = tickets["tickets"][0]["code"]
        d = self.new_browser()
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        d.get(f"{self.server.url}/door?lang=zh")
        d.find_element(By.ID, "key").send_keys(DOOR_KEY + Keys.ENTER)
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f"#show-list input[value='{self.show}']"), message="the show listed")
        d.find_element(By.CSS_SELECTOR, f"#show-list input[value='{self.show}']").click()
        d.find_element(By.ID, "gate").send_keys("1号入口" + Keys.ENTER)
        self.wait(d, lambda d: d.execute_script("return document.activeElement.id") == "code", message="the code field focused")

        def answer(before):
            self.wait(d, lambda d: int(d.find_element(By.ID, "answer").get_attribute("data-scans") or 0) > before, message="an answer")
            return d.find_element(By.ID, "answer").get_attribute("data-result")

        d.switch_to.active_element.send_keys(code + Keys.ENTER)
        self.assertEqual(answer(0), "id_required")
        self.assertIn("王*明", d.find_element(By.ID, "answer-attendee").text)
        self.wait(d, lambda d: d.execute_script("return document.activeElement.id") == "id-number", message="the ID field takes the reader")
        d.save_screenshot(os.path.join(ARTIFACTS, "realname-door-id-phone-zh.png"))
        self.axe(d, "the door asking for an ID, in Chinese")
        # Another person's card read: refused, the field still waiting.
        d.switch_to.active_element.send_keys(id_card(612) + Keys.ENTER)
        self.assertEqual(answer(1), "wrong_person")
        self.assertIn("不符", d.find_element(By.ID, "answer-detail").text)
        # The attendee's own, as a reader types it (a lower-case x, its Enter).
        d.switch_to.active_element.send_keys(number.lower() + Keys.ENTER)
        self.assertEqual(answer(2), "ok")
        self.assertFalse(d.find_element(By.ID, "document").is_displayed(), "the ID field goes once let in")
        d.save_screenshot(os.path.join(ARTIFACTS, "realname-door-ok-phone-zh.png"))


if __name__ == "__main__":
    unittest.main()
