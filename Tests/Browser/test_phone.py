"""On a phone: the show strip with posters, the buy bar under the thumb, the folding minimap.
Shared set-up and helpers: support.py."""

import json
import os
import time
import unittest
import urllib.request

from support import *  # noqa: F401,F403 (the suites' shared names)


class PhoneTests(PickerCase):

    # — shows as films and events —

    def test_films_with_posters_loaded_near(self):
        # Twelve more films with posters of their own (distinct URLs, so each load is seen).
        for n in range(12):
            body = {"id": f"{self.show}-film{n}", "venueId": "cinema-hall-3", "startsAt": f"2099-12-{10 + n}T1{n % 10}:00:00+08:00",
                    "prices": {"categories": {"standard": "38", "vip": "58", "couple": "99"}},
                    "details": {"title": {"en": f"Film {n:02d}", "zh": f"影片{n:02d}"}, "format": "2D", "duration": 90 + n,
                                "poster": f"/web/poster-homeward.svg?n={n}"}}
            self.assertEqual(self.server.post("/v1/shows", body, admin=True)[0], 201)
        d = self.open_phone()
        d.get(f"{self.server.url}/?lang=en")
        cards = self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".films .film-card"), message="film strip")
        titles = [c.find_element(By.CSS_SELECTOR, ".film-title").text for c in cards]
        self.assertIn("Homeward Among the Stars", titles)
        self.assertIn("Film 11", titles)
        state = lambda: d.execute_script("return [...document.querySelectorAll('.films img.poster')].map(i => [i.dataset.src, i.dataset.poster])")
        self.wait(d, lambda _: any(s == "loaded" for _, s in state()), message="the first posters loaded")
        # On a phone the strip shows two or three cards: those and a screen ahead load, the rest wait.
        waiting = [src for src, s in state() if s == "waiting"]
        self.assertGreaterEqual(len(waiting), 5, f"far posters are not fetched yet: {state()}")
        fetched = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('poster-'))")
        self.assertFalse(any(f.endswith(w) for f in fetched for w in waiting), f"no waiting poster was requested: {fetched}")
        d.execute_script("document.querySelector('.films').scrollLeft = 1e6")
        self.wait(d, lambda _: all(s == "loaded" for _, s in state()[-3:]), message="the last posters load when scrolled to")
        # A film's section gives its format, language and running time; its times lead to the picker.
        meta = d.execute_script("return [...document.querySelectorAll('section.film')].find(s => s.querySelector('h3').textContent === 'Film 05').querySelector('.film-meta').textContent")
        self.assertEqual(meta, "2D · 95 min")
        d.save_screenshot(os.path.join(ARTIFACTS, "phone-films.png"))


    def test_phone_buy_bar_under_the_thumb(self):
        d = self.open_phone()
        before = self.seat_rect(d, "5-8")
        # The first look is the whole hall (#31 item 2), as a ticketing app opens it: the screen and every
        # row on screen at once, at seats of at least 12 points, none under the row gutter nor the buy bar.
        self.assertGreaterEqual(before["width"], 12 - 0.01)
        gutter, surface, bar = self.rect(d, "#map-gutter"), self.rect(d, "#map-surface"), self.rect(d, "#buybar")
        self.assertAlmostEqual(surface["left"], gutter["right"], delta=0.5, msg="the seats are drawn right of the gutter, never under it")
        corners = [self.seat_rect(d, s) for s in ["1-15", "1-16", "10-15", "10-16", "11-1", "11-12"]]
        self.assertTrue(all(r and r["x"] >= surface["left"] and r["x"] + r["width"] <= surface["right"] and r["y"] >= surface["top"]
                            and r["y"] + r["height"] <= min(surface["bottom"], bar["top"]) for r in corners), f"the whole hall in view: {corners}")
        # #50 item 9: the map is as tall as the hall opened whole needs (SeatCanvas.touchViewHeight): it took
        # the page's 636 points with the hall in a third of them and a white band under the last row.
        bottom = max(r["y"] + r["height"] for r in corners)
        self.assertLess(surface["bottom"] - bottom, 60, f"only the inset under the last row: {surface} {bottom}")
        self.assertGreater((bottom - corners[0]["y"]) / surface["height"], 0.45, f"the rows fill the map: {surface}")
        # The first tap holds the seat and grows it to a finger's 24 points where it is (zoomed about the
        # finger: the seat stays under it); the bar says so without scrolling.
        finger = (before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
        self.touch_tap(d, *finger)
        total = self.wait(d, self.settled_total, message="total after a tap")
        self.assertEqual(total, "¥38.00")
        grown = self.seat_rect(d, "5-8")
        self.assertGreaterEqual(grown["width"], 24 - 0.01)
        # Under the finger still (a hall narrower than the view is kept centred, so it may shift a little).
        self.assertTrue(grown["x"] <= finger[0] <= grown["x"] + grown["width"] and grown["y"] <= finger[1] <= grown["y"] + grown["height"],
                        f"the seat stays under the finger: {grown} {finger}")
        before = grown
        self.assertEqual(d.execute_script("return window.scrollY"), 0)
        for css in ["#total", "#confirm", '#selection .chip[data-seat="5-8"]', "#countdown"]:
            self.assertTrue(self.on_screen(d, css), f"{css} visible without scrolling: {self.rect(d, css)}")
        # A refusal (5-4 would leave 5-6 alone between it and the held 5-8) is said where the buyer looks.
        lone = self.seat_rect(d, "5-4")
        self.touch_tap(d, lone["x"] + lone["width"] / 2, lone["y"] + lone["height"] / 2)
        message = self.wait(d, lambda d: d.find_element(By.ID, "message").text or None, message="refusal")
        self.assertIn("single empty seat", message)
        self.assertTrue(self.on_screen(d, "#message"), f"the message is on screen: {self.rect(d, '#message')}")
        # A chip's × lets one seat go, without releasing the others.
        ActionChains(d).move_to_element(d.find_element(By.CSS_SELECTOR, '#selection .chip[data-seat="5-8"] .chip-remove')).click().perform()
        self.wait(d, lambda d: not d.find_elements(By.CSS_SELECTOR, "#selection .chip"), message="chip removed")
        self.wait(d, lambda _: self.server.statuses(self.show)[self.index(d, "5-8")] == "a", message="seat released on the server")
        # The purchase by touch alone: the seat again, then Confirm in the bar.
        self.touch_tap(d, before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
        self.wait(d, self.settled_total, message="held again")
        # The line above the map says the prices and what the corner dots mean (both were missing on a phone).
        legend = d.find_element(By.ID, "map-legend")
        self.assertTrue(legend.is_displayed())
        self.assertIn("¥38.00", legend.text)
        self.assertIn("restricted view", legend.text)
        d.save_screenshot(os.path.join(ARTIFACTS, "phone-picker.png"))
        confirm = self.rect(d, "#confirm")
        self.touch_tap(d, confirm["x"] + confirm["width"] / 2, confirm["y"] + confirm["height"] / 2)
        receipt = self.wait(d, lambda d: d.find_element(By.ID, "receipt").text or None, message="receipt after a touch on Confirm")
        self.assertIn("Row 5, seat 8", receipt)
        self.assertTrue(self.on_screen(d, "#receipt"), "the receipt is on screen without scrolling")
        self.assertEqual(self.server.sold_in_store(self.show), {self.index(d, "5-8")})
        # The receipt is the page: no map, no greyed buy bar above it; its QR code whole on the screen.
        self.assertFalse(d.find_element(By.ID, "show-page").is_displayed())
        self.assertFalse(d.find_element(By.ID, "buybar").is_displayed())
        self.wait(d, lambda d: d.execute_script("return [...document.querySelectorAll('#tickets img')].every(i => i.complete && i.naturalWidth > 0)")
                  and len(d.find_elements(By.CSS_SELECTOR, "#tickets img")) == 1, message="the ticket's QR code")
        qr = self.rect(d, "#tickets img")
        self.assertTrue(qr["x"] >= 0 and qr["x"] + qr["width"] <= 390, f"the QR code whole across the screen: {qr}")
        d.save_screenshot(os.path.join(ARTIFACTS, "phone-receipt.png"))
        self.axe(d, "the receipt page, phone")


    def test_phone_long_press_card(self):
        # #31 item 1: a finger held on a seat shows its card (name, zone and price, the view from it), as a
        # mouse resting on one does; it stays a moment after the finger lifts, then goes.
        d = self.open_phone()
        r = self.seat_rect(d, "7-3")
        x, y = r["x"] + r["width"] / 2, r["y"] + r["height"] / 2
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        card = self.wait(d, lambda d: d.find_element(By.ID, "seat-card").is_displayed() and d.find_element(By.ID, "seat-card"), message="the card on a long press")
        self.assertIn("Row 7", card.text)
        self.assertIn("¥58.00", card.text)
        self.wait(d, lambda d: d.find_element(By.ID, "seat-card-verdict").text, message="the view from the seat on the card")
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        self.assertTrue(d.find_element(By.ID, "seat-card").is_displayed(), "still shown right after the finger lifts")
        self.wait(d, lambda d: not d.find_element(By.ID, "seat-card").is_displayed(), timeout=5, message="gone a moment later")
        # A peek picks nothing (a long press once selected the seat too).
        time.sleep(0.3)
        self.assertEqual(d.find_elements(By.CSS_SELECTOR, "#selection .chip"), [], "nothing chosen by a long press")
        self.assertNotIn("h", self.server.statuses(self.show))

    def test_phone_sold_out_said(self):
        # A show sold out when it opens says so at once, with the way on (#31 item 7's sold-out picture).
        status, _ = self.server.send("POST", f"/v1/shows/{self.show}/sales", {"seats": [s for s in self.all_seats()], "orderRef": "ALL", "payment": "card", "force": True},
                                     headers={"Authorization": f"Bearer {CLERK_KEY}"})
        self.assertEqual(status, 201)
        d = self.open_phone(lang="zh")
        message = self.wait(d, lambda d: d.find_element(By.ID, "message").text or None, message="sold out said")
        self.assertIn("本场已售完", message)
        self.assertTrue(self.on_screen(d, "#message"))

    def all_seats(self):
        layout = json.loads(urllib.request.urlopen(f"{self.server.url}/v1/venues/cinema-hall-3").read())
        return [s["id"] for row in layout["rows"] for s in row["seats"]]

    def open_arena_phone(self, lang):
        """The 20,000-seat arena on a 390 × 844 touch phone, its map ready."""
        d = self.new_browser()
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        d.get(f"{self.server.url}/shows/arena-concert?lang={lang}")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"), timeout=20, message="the arena")
        return d

    def test_phone_arena_section_tap(self):
        # #31 item 2: the 20,000-seat arena opens at its sections; a tap on one (the bottom's upper tier)
        # brings it to the middle at seats of a finger's 24 points, and the gutter names that section's
        # rows alone, in order (two sections' numbers once interleaved).
        d = self.open_arena_phone("zh")
        self.assertEqual(d.execute_script("return document.getElementById('map').picker.view.level()"), "zones")
        surface = self.rect(d, "#map-surface")
        self.touch_tap(d, surface["x"] + surface["width"] * 0.56, surface["y"] + surface["height"] * 0.75)
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map').picker.view.level()") == "seats", message="zoomed into the section")
        size = d.execute_script("const v = document.getElementById('map').picker.view; return v.zoom * v.rules.seatSize")
        self.assertGreaterEqual(size, 24 - 0.01)
        labels = self.wait(d, lambda d: d.execute_script("return [...document.querySelectorAll('#map-gutter .gutter-label')].map(e => e.textContent)") or None,
                           message="the gutter")
        numbers = [int(x) for x in labels]
        self.assertGreater(len(numbers), 5, labels)
        self.assertEqual(numbers, sorted(set(numbers)), f"one section's rows, in order: {labels}")
        d.save_screenshot(os.path.join(ARTIFACTS, "phone-arena-section-zh.png"))

    def test_phone_arena_side_section_names_its_rows_along_the_top(self):
        # #50 item 9: beside the arena's stage a section's rows run up and down the screen; after a tap on
        # one the left gutter was empty. They are named along the top, at their x, in their order.
        d = self.open_arena_phone("en")
        surface = self.rect(d, "#map-surface")
        self.touch_tap(d, surface["x"] + surface["width"] * 0.93, surface["y"] + surface["height"] * 0.42)
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map').picker.view.level()") == "seats", message="zoomed into the section")
        read = ("return [...document.querySelectorAll('#map-gutter-top .gutter-label')]"
                ".map(e => [e.textContent, e.getBoundingClientRect().left + e.getBoundingClientRect().width / 2])")
        labels = self.wait(d, lambda d: d.execute_script(read) or None, message="the top gutter")
        numbers, xs = [int(text) for text, _ in labels], [x for _, x in labels]
        self.assertGreater(len(numbers), 5, labels)
        self.assertTrue(numbers == sorted(numbers) or numbers == sorted(numbers, reverse=True), f"one section's rows in order: {labels}")
        self.assertEqual(len(set(numbers)), len(numbers), labels)
        self.assertTrue(all(a < b for a, b in zip(xs, xs[1:])) and surface["left"] <= xs[0] and xs[-1] <= surface["right"], labels)
        self.assertFalse(d.find_element(By.ID, "map-gutter-top").get_attribute("hidden"))
        d.save_screenshot(os.path.join(ARTIFACTS, "phone-arena-side-section-en.png"))

    def test_phone_minimap_folds_and_unfolds(self):
        d = self.open_phone()
        # The legend is right above the map, on screen with it: each status with its glyph, one line.
        legend = d.find_elements(By.CSS_SELECTOR, "#map-legend li[data-status]")
        self.assertEqual([li.get_attribute("data-status") for li in legend],
                         ["available", "selected", "held", "sold", "blocked", "best-view", "restricted-view"])
        # …then each zone's price (three in the sample hall).
        self.assertEqual(len(d.find_elements(By.CSS_SELECTOR, "#map-legend li.legend-price")), 3)
        self.assertEqual(len(d.find_elements(By.CSS_SELECTOR, "#map-legend li svg.swatch")), 4, "a glyph for each status but free")
        self.assertTrue(self.on_screen(d, "#map-legend"))
        self.assertFalse(d.find_element(By.ID, "legend").is_displayed(), "the panel's copy is not read twice")
        self.assertTrue(d.execute_script("return document.getElementById('map-minimap').hasAttribute('hidden')"))
        # The show's times, film and tools are folded into one line over the map; it unfolds them.
        summary = d.find_element(By.ID, "show-summary")
        self.assertEqual(summary.get_attribute("aria-expanded"), "false")
        self.assertFalse(d.find_element(By.ID, "map-tools").is_displayed() or d.find_element(By.ID, "show-strip").is_displayed())
        self.assertEqual(summary.text.split("\n")[:2], ["Hall 3", "Thu 24 Dec 19:30"], "the show's film (here its hall) and time")
        summary.click()
        self.assertEqual(summary.get_attribute("aria-expanded"), "true")
        self.assertTrue(d.find_element(By.ID, "map-tools").is_displayed() and d.find_element(By.ID, "show-strip").is_displayed())
        toggle = d.find_element(By.ID, "minimap-toggle")
        self.assertEqual(toggle.get_attribute("aria-pressed"), "false", "folded on a phone")
        toggle.click()
        self.assertEqual(toggle.get_attribute("aria-pressed"), "true")
        self.assertTrue(self.on_screen(d, "#map-minimap"))
        toggle.click()
        self.assertTrue(d.execute_script("return document.getElementById('map-minimap').hasAttribute('hidden')"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
