"""General-admission areas (#53) on the buyer's page: a livehouse (Samples/livehouse.json) with two rows of
seats, a standing floor, a box sold whole and a lounge for one party. The map draws each area with what is
free; a stepper each beside the seats asks for places by count (the server picks which), all or nothing
with the seats. Shared set-up and helpers: support.py."""

import os

from support import *  # noqa: F401,F403 (the suites' shared names)


class AreaTests(PickerCase):
    venues = ("Samples/livehouse.json",)

    def setUp(self):
        super().setUp()
        self.show = "gig-" + self._testMethodName[5:].replace("_", "-")
        status, body = self.server.send("POST", "/v1/shows", {
            "id": self.show, "venueId": "livehouse", "startsAt": "2099-12-24T20:00:00+08:00", "holdSeconds": 600,
            "prices": {"currency": "CNY", "categories": {"standard": "280.00", "standing": "180.00", "box": "300.00"}}}, admin=True)
        self.assertEqual(status, 201, body)

    def areas(self):
        status, body = self.server.send("GET", f"/v1/shows/{self.show}/areas", None)
        self.assertEqual(status, 200, body)
        return {a["id"]: a for a in body["areas"]}

    def stepper(self, d, area, step):
        # The steppers are drawn again as statuses come: a button found a moment before may be gone.
        for attempt in range(3):
            try:
                d.find_element(By.CSS_SELECTOR, f"#areas li[data-area='{area}'] [data-step='{step}']").click()
                return
            except StaleElementReferenceException:
                if attempt == 2:
                    raise

    def count(self, d, area):
        return d.find_element(By.CSS_SELECTOR, f"#areas li[data-area='{area}'] .step-count").text

    def test_phone_places_and_seat_zh(self):
        d = self.open_phone(lang="zh")
        rows = d.find_elements(By.CSS_SELECTOR, "#areas li")
        self.assertEqual([r.get_attribute("data-area") for r in rows], ["floor", "box-a", "lounge"])
        floor = d.find_element(By.CSS_SELECTOR, "#areas li[data-area='floor']")
        self.assertIn("内场站席", floor.text)
        self.assertIn("余100位", floor.text)
        self.assertNotIn("Standing", floor.text)
        # Two places by the stepper: held by count, the total from the server, the floor's count down.
        self.stepper(d, "floor", "up")
        self.wait(d, lambda d: self.count(d, "floor") == "1" and self.settled_total(d), message="one place held")
        self.stepper(d, "floor", "up")
        self.assertEqual(self.wait(d, lambda d: self.count(d, "floor") == "2" and self.settled_total(d), message="two places held"), "¥360.00")
        self.assertEqual(self.areas()["floor"]["held"], 2)
        self.wait(d, lambda d: "余98位" in d.find_element(By.CSS_SELECTOR, "#areas li[data-area='floor']").text, message="the count follows")
        # And a seat, tapped on the map: the seat's chip; the places are the stepper's, not chips.
        d.execute_script("document.querySelector('seatkit-map').zoomToSeats(['A-4'])")
        self.touch_tap(d, *self.seat_point(d, "A-4"))
        self.assertEqual(self.wait(d, lambda d: self.settled_total(d) if len(d.find_elements(By.CSS_SELECTOR, "#selection .chip")) == 1 else None,
                                   message="a seat beside the places"), "¥640.00")
        self.assertEqual([c.get_attribute("data-seat") for c in d.find_elements(By.CSS_SELECTOR, "#selection .chip")], ["A-4"])
        # A box is one unit: its + takes all of it, and a second + is not offered.
        self.stepper(d, "box-a", "up")
        self.wait(d, lambda d: self.count(d, "box-a") == "1" and self.settled_total(d) == "¥2440.00", message="the box whole")
        self.assertFalse(d.find_element(By.CSS_SELECTOR, "#areas li[data-area='box-a'] [data-step='up']").is_enabled())
        d.save_screenshot(os.path.join(ARTIFACTS, "areas-phone-zh.png"))
        self.axe(d, "the areas' steppers on a phone")
        # Back to none of the floor: the seat and the box kept.
        self.stepper(d, "floor", "down")
        self.stepper(d, "floor", "down")
        self.wait(d, lambda d: self.count(d, "floor") == "0" and self.settled_total(d) == "¥2080.00", message="no places")
        self.assertEqual(self.areas()["floor"]["free"], 100)

    def test_floor_tap_and_live_count(self):
        d = self.open(lang="en")
        d.set_window_size(1280, 900)
        other = self.open(lang="en")
        # The floor on the map: tapped in its middle, one place is asked for and the stepper focused.
        point = d.execute_script("""
            const m = document.querySelector('seatkit-map'), v = m.picker.venue, view = m.picker.view;
            const a = v.areas.find(x => x.id === 'floor'), p = view.viewport.viewPoint(a.box.x + a.box.w / 2, a.box.y + a.box.h / 2);
            const b = view.surface.getBoundingClientRect();
            return [b.left + p.x, b.top + p.y];""")
        actions, p = self.pointer(d)
        p.move_to_location(int(point[0]), int(point[1])).click()
        actions.perform()
        self.wait(d, lambda d: self.count(d, "floor") == "1" and self.settled_total(d) == "¥180.00", message="one place from the map")
        self.assertEqual(d.switch_to.active_element.get_attribute("data-step"), "up")
        # The other buyer's map and stepper say one fewer is free, live.
        self.wait(other, lambda o: "99 left" in o.find_element(By.CSS_SELECTOR, "#areas li[data-area='floor']").text, message="live count")
        d.save_screenshot(os.path.join(ARTIFACTS, "areas-desktop-en.png"))
        self.axe(d, "a livehouse's map with areas")
