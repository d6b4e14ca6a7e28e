"""Tables (#53) on the buyer's page: the livehouse (Samples/livehouse.json) has a round table sold whole
(at its own price), a round table sold by seat and a long table of six sold two at least. The map draws
each table's top with its name and its seats round it; one tap takes what the show says (the engine's
`tapChoice`). Shared set-up and helpers: support.py."""

import os

from support import *  # noqa: F401,F403 (the suites' shared names)


class TableTests(PickerCase):
    venues = ("Samples/livehouse.json",)

    def setUp(self):
        super().setUp()
        self.show = "supper-" + self._testMethodName[5:].replace("_", "-")
        status, body = self.server.send("POST", "/v1/shows", {
            "id": self.show, "venueId": "livehouse", "startsAt": "2099-12-24T20:00:00+08:00", "holdSeconds": 600,
            "prices": {"currency": "CNY", "categories": {"standard": "280.00", "standing": "180.00", "box": "300.00"},
                       "tables": {"T1": "880.00"}},
            "policy": {"maxSeats": 6, "tables": {"T2": "byTable"}}}, admin=True)
        self.assertEqual(status, 201, body)

    def held(self):
        status, body = self.server.send("GET", f"/v1/shows/{self.show}/areas", None)
        self.assertEqual(status, 200, body)
        return {a["id"]: a for a in body["areas"]}

    def chips(self, d):
        return [c.get_attribute("data-seat") for c in d.find_elements(By.CSS_SELECTOR, "#selection .chip")]

    def test_phone_table_and_two_places_zh(self):
        d = self.open_phone(lang="zh")
        # One tap on a seat of table 1 (sold whole): all four seats, at the table's own price.
        d.execute_script("document.querySelector('seatkit-map').zoomToSeats(['T1-1', 'T1-3'])")
        self.touch_tap(d, *self.seat_point(d, "T1-2"))
        self.assertEqual(self.wait(d, lambda d: self.settled_total(d) if len(self.chips(d)) == 4 else None,
                                   message="the whole table held"), "¥880.00")
        self.assertEqual(sorted(self.chips(d)), ["T1-1", "T1-2", "T1-3", "T1-4"])
        chip = d.find_element(By.CSS_SELECTOR, "#selection .chip[data-seat='T1-1']")
        self.assertIn("1号桌1座", chip.text + (chip.get_attribute("aria-label") or ""))
        # Two standing places by the floor's stepper, beside the table.
        # One step at a time: the steppers are drawn again as the statuses come (a held element goes stale).
        def count(d):
            return d.find_element(By.CSS_SELECTOR, "#areas li[data-area='floor'] .step-count").text
        for n in ("1", "2"):
            d.find_element(By.CSS_SELECTOR, "#areas li[data-area='floor'] [data-step='up']").click()
            self.wait(d, lambda d: count(d) == n and self.settled_total(d), message=f"{n} places held")
        self.assertEqual(self.wait(d, lambda d: self.settled_total(d) if d.find_element(
            By.CSS_SELECTOR, "#areas li[data-area='floor'] .step-count").text == "2" else None, message="two places"), "¥1240.00")
        self.assertEqual(self.held()["floor"]["held"], 2)
        d.save_screenshot(os.path.join(ARTIFACTS, "tables-phone-zh.png"))
        self.axe(d, "a table and standing places on a phone")
        # The long table takes two together: one tap, two seats.
        d.execute_script("document.querySelector('seatkit-map').zoomToSeats(['L1-1', 'L1-6'])")
        self.touch_tap(d, *self.seat_point(d, "L1-4"))
        self.wait(d, lambda d: len(self.chips(d)) == 6 and self.settled_total(d) == "¥1800.00", message="two at the long table")
        self.assertIn("L1-4", self.chips(d))
        # Tapping the whole table again lets it go, places and long table kept.
        d.execute_script("document.querySelector('seatkit-map').zoomToSeats(['T1-1', 'T1-3'])")
        self.touch_tap(d, *self.seat_point(d, "T1-4"))
        self.wait(d, lambda d: len(self.chips(d)) == 2 and self.settled_total(d) == "¥920.00", message="table 1 let go")

    def test_a_table_sold_whole_with_a_seat_taken_is_said(self):
        # The box office blocked one seat of table 2, which this show sells whole: the page says so and
        # holds nothing.
        key = {"Authorization": f"Bearer {CLERK_KEY}"}
        status, body = self.server.send("POST", f"/v1/shows/{self.show}/reservations",
                                        {"kind": "blocked", "seats": ["T2-1"], "reason": "wobbly chair"}, headers=key)
        self.assertEqual(status, 201, body)
        d = self.open(lang="en")
        d.set_window_size(1280, 900)
        d.execute_script("document.querySelector('seatkit-map').zoomToSeats(['T2-1', 'T2-3'])")
        self.click_seat(d, "T2-3")
        self.wait(d, lambda d: "Table 2 is sold as a whole and some of its seats are taken" in d.find_element(By.ID, "message").text,
                  message="the table is said taken")
        self.assertEqual(self.chips(d), [])
        d.save_screenshot(os.path.join(ARTIFACTS, "tables-desktop-en.png"))
        self.axe(d, "tables on a desktop")

    def test_desk_sells_a_table_and_places_zh(self):
        # The counter: one click on a seat of table 1 marks the whole table; two standing places by number;
        # one sale, at the table's own price beside the places'.
        clerk = self.new_browser()
        clerk.get(f"{self.server.url}/console?show={self.show}&lang=zh")
        console_key(clerk, CLERK_KEY)
        clerk.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map')?.ready === true"), message="the desk's map")
        self.wait(clerk, lambda c: c.find_element(By.ID, "desk").get_attribute("data-show") == self.show, message="the desk's show")
        clerk.set_window_size(1280, 900)
        clerk.execute_script("document.querySelector('seatkit-map').zoomToSeats(['T1-1', 'T1-3'])")
        self.click_seat(clerk, "T1-2")
        self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map').selection.length") == 4, message="the table marked")
        self.assertIn("1号桌1座", clerk.find_element(By.ID, "marked").text)
        floor = clerk.find_element(By.ID, "desk-area-floor")
        self.assertIn("余100位", clerk.find_element(By.CSS_SELECTOR, "label[for='desk-area-floor']").text)
        floor.clear()
        floor.send_keys("2")
        clerk.find_element(By.CSS_SELECTOR, "#sell-form button[type=submit]").click()
        receipt = self.wait(clerk, lambda c: c.find_element(By.ID, "sale-receipt").text or None, message="the sale's receipt")
        self.assertIn("¥1240.00", receipt)
        self.assertIn("内场站席 × 2", receipt)
        self.wait(clerk, lambda c: "余98位" in c.find_element(By.CSS_SELECTOR, "label[for='desk-area-floor']").text, message="the count follows")
        self.assertEqual(self.held()["floor"]["sold"], 2)
        clerk.save_screenshot(os.path.join(ARTIFACTS, "tables-desk-zh.png"))
        self.axe(clerk, "the desk selling a table and places")
