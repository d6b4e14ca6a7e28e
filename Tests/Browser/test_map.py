"""The map: zones of a big venue zoomed out, zoom and pan with the gutter, a 100,000-seat arena, the embeddable element.
Shared set-up and helpers: support.py."""

import json
import os
import time
import unittest
import urllib.request

from support import *  # noqa: F401,F403 (the suites' shared names)


class MapTests(PickerCase):

    def test_a_big_venue_zoomed_out_shows_its_zones(self):
        # The 20k arena opens zoomed out: below the engine's threshold its zones are drawn, not 20,000 seats.
        arena = self.show + "-arena"
        status, _ = self.server.post("/v1/shows", {"id": arena, "venueId": "arena-20000", "startsAt": "2099-12-24T19:30:00+08:00",
                                                    "prices": {"categories": {"lower": "580", "upper": "380"}}, "policy": {"maxSeats": 4}},
                                     admin=True)
        self.assertEqual(status, 201)
        d = self.new_browser()
        d.get(f"{self.server.url}/shows/{arena}?lang=en")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"), timeout=30,
                  message="the arena's map")
        self.assertEqual(d.find_element(By.ID, "map").get_attribute("data-level"), "zones")
        # One canvas, not an element a seat: the map holds a handful of elements.
        self.assertLess(d.execute_script("return document.getElementById('map').querySelectorAll('*').length"), 40)
        # Each zone says what is left in it: all its seats, then one fewer once another buyer holds one.
        zone = self.seat_info(d, "101-3-5")["zone"]
        in_zone = d.execute_script("const m = document.getElementById('map'); return m.seats.filter(id => m.seat(id).zone === arguments[0]).length", zone)
        free = lambda d: next(z["free"] for z in d.execute_script("return document.getElementById('map').zones") if z["id"] == zone)
        self.assertGreater(in_zone, 100)
        self.assertEqual(free(d), in_zone)
        self.assertEqual(self.server.post(f"/v1/shows/{arena}/holds", {"seats": ["101-2-3", "101-2-4"]})[0], 201)
        self.wait(d, lambda d: free(d) == in_zone - 2, timeout=2, message="the zone's free count follows live")
        # The zone is drawn filled at the seat's place (the canvas is not blank there).
        x, y = self.seat_point(d, "101-3-5")
        self.assertEqual(d.find_element(By.ID, "map").get_attribute("data-level"), "zones", "finding the seat did not zoom")
        pixel = d.execute_script("""
            const c = document.querySelector('#map-surface canvas'), b = c.getBoundingClientRect(), k = c.width / b.width;
            return [...c.getContext('2d').getImageData((arguments[0] - b.left) * k, (arguments[1] - b.top) * k, 1, 1).data];""", x, y)
        self.assertNotEqual(pixel[:3], [255, 255, 255], "the zone is painted under the seat's place")
        # A tap on a zone goes in there: seats are drawn, and the one tapped at is on screen to pick.
        actions, p = self.pointer(d)
        p.move_to_location(x, y).click()
        actions.perform()
        self.wait(d, lambda d: d.find_element(By.ID, "map").get_attribute("data-level") == "seats", message="zoomed in")
        self.click_seat(d, "101-3-5")
        self.wait(d, lambda d: self.server.statuses(arena)[self.index(d, "101-3-5")] == "h", timeout=5, message="held on the server")
        # The keyboard: Tab reaches the map's one seat even zoomed out, and focus zooms in to it.
        k = self.new_browser()
        k.get(f"{self.server.url}/shows/{arena}?lang=en")
        self.wait(k, lambda k: k.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"), timeout=30,
                  message="the arena's map")
        self.assertEqual(k.find_element(By.ID, "map").get_attribute("data-level"), "zones")
        k.find_element(By.TAG_NAME, "body").click()
        for _ in range(60):
            ActionChains(k).send_keys(Keys.TAB).perform()
            if k.switch_to.active_element.get_attribute("class") == "seat-focus":
                break
        self.assertEqual(k.switch_to.active_element.get_attribute("class"), "seat-focus", "Tab reaches a seat")
        self.wait(k, lambda k: k.find_element(By.ID, "map").get_attribute("data-level") == "seats", message="focus zoomed in")


    def test_zoom_and_pan_keep_the_gutter_aligned(self):
        d = self.open()
        aligned_at = []
        for step, (wheel, drag) in enumerate([(0, (0, 0)), (-600, (-120, -160))]):
            if wheel:
                # Wheel about a point of the map, then drag empty space (the stage area) to pan.
                d.execute_script("const m = document.getElementById('map-surface'); const r = m.getBoundingClientRect();"
                                 "m.dispatchEvent(new WheelEvent('wheel', {deltaY: arguments[0], clientX: r.x + r.width * 0.4,"
                                 " clientY: r.y + r.height * 0.6, bubbles: true, cancelable: true}));", wheel)
                self.assertGreater(float(d.find_element(By.ID, "map").get_attribute("data-zoom")), zoom_before)
                # A point of the map with no seat under it (a drag that starts on a seat selects instead).
                x, y = d.execute_script("""
                    const m = document.getElementById('map').getBoundingClientRect();
                    const bottom = Math.min(m.bottom, innerHeight) - 10;
                    for (let y = m.y + m.height / 2; y < bottom; y += 5) for (let x = m.x + m.width / 2; x < m.right - 200; x += 5) {
                      const e = document.elementFromPoint(x, y);
                      if (e && e.closest('#map-surface') && document.getElementById('map').seatAt(x, y) === null) return [Math.round(x), Math.round(y)];
                    }
                    return null;""")
                actions = ActionChains(d)
                actions.w3c_actions.pointer_action.move_to_location(x, y).pointer_down() \
                    .move_to_location(x + drag[0], y + drag[1]).pointer_up()
                actions.perform()
            zoom_before = float(d.find_element(By.ID, "map").get_attribute("data-zoom"))
            pairs = d.execute_script("""
                const out = [], m = document.getElementById('map'), seats = m.seats.map(id => m.seat(id)).filter(s => s.rect);
                for (const label of document.querySelectorAll('.gutter-label')) {
                  const row = seats.filter(s => s.row === label.dataset.row);
                  if (!row.length) continue;
                  const l = label.getBoundingClientRect(), s = row[0].rect;
                  out.push([label.dataset.row, l.y + l.height / 2, s.y + s.height / 2]);
                }
                return out;""")
            self.assertGreaterEqual(len(pairs), 3, "several rows labelled")
            for row, label_y, seat_y in pairs:
                self.assertAlmostEqual(label_y, seat_y, delta=1.5, msg=f"row {row} label vs seats at step {step}")
            aligned_at.append(zoom_before)
            d.find_element(By.ID, "map").screenshot(os.path.join(ARTIFACTS, f"map-zoom-{step + 1}.png"))
        self.assertGreater(aligned_at[1], aligned_at[0] * 1.5, "the second check is zoomed well in")
        # The minimap's viewport rectangle follows the view; tapping the minimap jumps there.
        minimap = d.find_element(By.ID, "map-minimap")
        before = d.find_element(By.ID, "map").get_attribute("data-offset")
        ActionChains(d).move_to_element_with_offset(minimap, -60, -30).click().perform()
        after = d.find_element(By.ID, "map").get_attribute("data-offset")
        self.assertNotEqual(before, after)
        rect = [float(v) for v in minimap.get_attribute("data-viewport").split(",")]
        zoom = float(d.find_element(By.ID, "map").get_attribute("data-zoom"))
        ox, oy = (float(v) for v in after.split(","))
        self.assertAlmostEqual(rect[0], ox / zoom, delta=0.5)
        self.assertAlmostEqual(rect[1], oy / zoom, delta=0.5)


    def test_a_hundred_thousand_seat_arena_shows_its_map(self):
        # The page used to stop with "Maximum call stack size exceeded" (200,000 nodes spread into one call).
        path = os.path.join(self.server.dir, "arena-100k.json")
        subprocess.run([BIN, "generate", "arena", "--seats", "100000", "-o", path], check=True, capture_output=True)
        request = urllib.request.Request(self.server.url + "/v1/venues", data=open(path, "rb").read(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Admin-Key": "browser-test-key"})
        self.assertEqual(urllib.request.urlopen(request, timeout=120).status, 201)
        show = self.show + "-100k"
        body = {"id": show, "venueId": "arena-100000", "startsAt": "2099-12-24T19:30:00+08:00",
                "prices": {"categories": {"lower": "580.00", "upper": "380.00"}}}
        self.assertEqual(self.server.post("/v1/shows", body, admin=True)[0], 201)
        d = self.new_browser()
        d.get(f"{self.server.url}/shows/{show}?lang=en")
        self.wait(d, lambda d: d.find_element(By.ID, "map").get_attribute("data-ready") == "true" or d.find_element(By.ID, "page-error").text,
                  timeout=120, message="the 100k map")
        self.assertEqual(d.find_element(By.ID, "page-error").text, "")
        self.assertEqual(d.execute_script("return document.getElementById('map').seats.length"), 100000)
        self.assertLess(d.execute_script("return document.getElementById('map').querySelectorAll('*').length"), 40, "no element a seat")
        self.assertEqual(d.find_element(By.ID, "map").get_attribute("data-level"), "zones")
        self.assertEqual(d.execute_script("return document.querySelectorAll('.gutter-label').length"), 0, "no rows to name at the zones level")


    # — the map as an element on another page —

    def test_embedded_map_element(self):
        # /web/embed.html: only the element and its events; a real click holds a seat, the API selects and
        # deselects, and Buy (the element's confirm) sells exactly what is held.
        d = self.new_browser()
        d.get(f"{self.server.url}/web/embed.html?show={self.show}&lang=en")
        self.wait(d, lambda d: d.execute_script("return document.querySelector('seatkit-map').ready"), message="the embedded map")
        events = lambda: d.execute_script("return [...document.querySelectorAll('#events li')].map(li => li.textContent)")
        self.assertEqual(events(), [f"ready: {self.show}"])
        self.click_seat(d, "7-1")
        self.wait(d, lambda _: any(e.startswith("hold: active 7-1") for e in events()), message="a hold event")
        self.assertIn("selection: 7-1", events())
        d.execute_script("document.querySelector('seatkit-map').select(['7-2', '7-3'])")
        self.wait(d, lambda _: any(e.startswith("hold: active") and "7-3" in e for e in events()), message="selected by the API")
        d.execute_script("document.querySelector('seatkit-map').deselect('7-3')")
        self.wait(d, lambda _: d.execute_script("return document.querySelector('seatkit-map').hold?.seats.length") == 2, message="deselected")
        self.assertEqual(self.label(d, "7-2"), "Row 7, seat 2, selected, VIP, ¥58.00")
        # A refusal: the element says it in its own toast (this page does not show it itself).
        self.click_seat(d, "2-13")
        toast = self.wait(d, lambda d: d.find_element(By.CSS_SELECTOR, "seatkit-map .map-toast").text or None, message="toast")
        self.assertIn("single empty seat", toast)
        self.assertTrue(any(e.startswith("refusal: ") for e in events()))
        self.wait(d, lambda d: d.find_element(By.ID, "buy").is_enabled(), message="Buy enabled")
        d.find_element(By.ID, "buy").click()
        self.wait(d, lambda _: any(e.startswith("confirmed: WEB-") for e in events()), message="bought")
        sold = {self.index(d, "7-1"), self.index(d, "7-2")}
        self.assertEqual(self.server.sold_in_store(self.show), sold)
        self.axe(d, "the embedded map")
        d.save_screenshot(os.path.join(ARTIFACTS, "embedded-map.png"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
