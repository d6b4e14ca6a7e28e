"""Buying: picking with the mouse, the keyboard and a drag, the rules' refusals, two buyers racing, best seats and the list.
Shared set-up and helpers: support.py."""

import json
import os
import re
import time
import unittest
import urllib.request

from support import *  # noqa: F401,F403 (the suites' shared names)


class BuyingTests(PickerCase):

    # — the tests the issue lists —

    def test_mouse_pick_two_seats_and_confirm(self):
        d = self.open()
        self.click_seat(d, "7-1")
        self.assertEqual(self.status(d, "7-1"), "selected", "selected at once, before the server answers")
        self.click_seat(d, "7-2")
        total = self.wait(d, self.settled_total, message="total of two VIP seats")
        self.assertEqual(total, "¥116.00")
        self.assertEqual(self.label(d, "7-1"), "Row 7, seat 1, selected, VIP, ¥58.00")
        d.find_element(By.ID, "confirm").click()
        receipt = self.wait(d, lambda d: d.find_element(By.ID, "receipt").text or None, message="receipt")
        self.assertIn("Order WEB-", receipt)
        # The receipt says what was bought: the hall, the day and time, the seats, the total.
        for part in ["Hall 3", "24 Dec", "19:30", "Row 7, seat 1, Row 7, seat 2", "¥116.00"]:
            self.assertIn(part, receipt)
        # Below it, a ticket a seat: its QR code (the door scans it) and the seat, the picture loaded.
        self.wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tickets figure img")) == 2, message="two tickets")
        self.wait(d, lambda d: d.execute_script("return [...document.querySelectorAll('#tickets img')].every(i => i.complete && i.naturalWidth > 0)"),
                  message="the QR codes drawn")
        images = d.find_elements(By.CSS_SELECTOR, "#tickets figure img")
        self.assertTrue(all("/v1/tickets/SK1" in i.get_attribute("src") for i in images))
        self.assertEqual([i.get_attribute("alt") for i in images],
                         ["Ticket QR code for seat 7-1: show it at the door", "Ticket QR code for seat 7-2: show it at the door"])
        self.assertEqual(d.find_element(By.ID, "tickets").text.split("\n"), ["Row 7, seat 1", "Row 7, seat 2"])
        # And the way to the order's own page (its tickets, a change of showing, a refund): the token is its code.
        link, calendar = d.find_elements(By.CSS_SELECTOR, "#receipt a.order-link")
        self.assertTrue(link.is_displayed())
        self.assertRegex(link.get_attribute("href"), r"/orders/WEB-[A-Z0-9]+\?code=[A-Za-z0-9_-]{20,}$")
        self.assertEqual(link.text, "View my order, change or refund")
        self.assertEqual(calendar.text, "Add to calendar")
        self.assertRegex(calendar.get_attribute("href"), r"/v1/orders/WEB-[A-Z0-9]+/calendar\.ics\?code=[A-Za-z0-9_-]{20,}&lang=en$")
        # A stub, and the focus on it (not the page's top).
        self.assertEqual(d.find_element(By.CSS_SELECTOR, "#receipt .stub-done").text, "Purchased!")
        self.assertEqual(d.execute_script("return document.activeElement.id"), "receipt")
        d.save_screenshot(os.path.join(ARTIFACTS, "receipt-tickets-desktop-en.png"))
        self.axe(d, "the receipt with its tickets")
        statuses = self.server.statuses(self.show)
        sold = {self.index(d, "7-1"), self.index(d, "7-2")}
        self.assertEqual({i for i, s in enumerate(statuses) if s == "s"}, sold)
        self.assertEqual(self.server.sold_in_store(self.show), sold, "the store itself records both seats sold")
        self.wait(d, lambda d: self.status(d, "7-1") == "sold", message="own seats turn sold from the live stream")


    def test_a_mouse_resting_on_a_seat_gets_its_card(self):
        # Hover (no click): after a moment a card by the seat says what it is, what it costs and the view from it.
        d = self.open()
        x, y = self.seat_point(d, "5-1")
        actions, p = self.pointer(d)
        p.move_to_location(x, y)
        actions.perform()
        card = self.wait(d, lambda d: d.find_element(By.ID, "seat-card") if d.find_element(By.ID, "seat-card").is_displayed() else None,
                         message="the card shown")
        self.wait(d, lambda d: d.find_element(By.ID, "seat-card-verdict").text, message="the view's words")
        self.assertEqual(d.find_element(By.ID, "seat-card-name").text, "Row 5, seat 1")
        self.assertEqual(d.find_element(By.ID, "seat-card-details").text, "available, Standard, ¥38.00")
        self.assertEqual(d.find_element(By.ID, "seat-card-verdict").text, "The best view: the screen fills your view, straight ahead")
        self.assertEqual(self.status(d, "5-1"), "available", "a hover picks nothing")
        box, seat = card.rect, d.execute_script("return document.querySelector('seatkit-map').seat('5-1').rect.toJSON()")
        self.assertGreaterEqual(box["x"], seat["right"] - 1, "beside the seat, not over it")
        d.save_screenshot(os.path.join(ARTIFACTS, "seat-card-desktop-en.png"))
        self.axe(d, "the picker with a seat card")
        p.move_to_location(5, 5)
        actions.perform()
        self.wait(d, lambda d: not d.find_element(By.ID, "seat-card").is_displayed(), message="gone when the mouse leaves")

    def test_the_view_from_the_seat_chosen_last(self):
        # The engine's "view from your seat": a picture of the screen from the seat chosen last, and its
        # verdict, in the page's language; it follows the choice and leaves with it.
        d = self.open()
        self.click_seat(d, "5-1")
        figure = self.wait(d, lambda d: d.find_element(By.ID, "seat-view") if d.find_element(By.ID, "seat-view").is_displayed() else None,
                           message="the view shown")
        self.wait(d, lambda d: d.execute_script("const i = document.getElementById('seat-view-picture'); return i.complete && i.naturalWidth > 0"),
                  message="the picture drawn")
        words = d.find_element(By.ID, "seat-view-words").text
        self.assertEqual(words, "From Row 5, seat 1: The best view: the screen fills your view, straight ahead (a 52° view)")
        self.assertEqual(figure.get_attribute("data-verdict"), "ideal")
        self.assertIn("/v1/venues/cinema-hall-3/views/5-1.svg?lang=en", d.find_element(By.ID, "seat-view-picture").get_attribute("src"))
        self.click_seat(d, "5-2")
        self.wait(d, lambda d: "Row 5, seat 2" in d.find_element(By.ID, "seat-view-words").text, message="the view follows the last seat")
        d.find_element(By.ID, "seat-view").screenshot(os.path.join(ARTIFACTS, "seat-view-en.png"))
        self.axe(d, "the picker with the view from the seat")
        d.find_element(By.ID, "release").click()
        self.wait(d, lambda d: not d.find_element(By.ID, "seat-view").is_displayed(), message="gone with the seats")

    def test_a_chinese_link_stays_chinese_past_the_next_click(self):
        # Opened from a link that says Chinese, then a page without it (a show card, the console): still Chinese.
        d = self.new_browser()
        d.get(f"{self.server.url}/?lang=zh")
        self.wait(d, lambda d: d.execute_script("return document.documentElement.lang") == "zh-CN", message="the linked page in Chinese")
        d.get(f"{self.server.url}/shows/{self.show}")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"), message="the show's map")
        self.assertEqual(d.execute_script("return document.documentElement.lang"), "zh-CN")
        self.assertEqual(d.find_element(By.ID, "confirm").text, "确认购买")
        d.get(f"{self.server.url}/console")
        self.wait(d, lambda d: d.find_element(By.ID, "sign-in-title").text == "登录", message="the console in Chinese")

    def test_a_chinese_buyer_never_sees_english(self):
        # #31 item 3: from a Chinese link to the receipt and the order page, every word the buyer sees or
        # hears (text, labels, titles, alt texts, placeholders) is Chinese; Latin letters only in names.
        allowed = {"SeatKit", "EN", "VIP", "IMAX", "2D", "3D", "QR", "SK1", "WEB", "ics"}
        d = self.new_browser()

        def english(where):
            words = d.execute_script("""
                const out = [document.body.innerText];
                // The language switch speaks the language it switches to (lang="en"): the one English allowed.
                for (const e of document.querySelectorAll('[aria-label], [title], [alt], [placeholder], [aria-roledescription]'))
                  if (e.getClientRects().length && !e.closest('[lang="en"]')) out.push(e.getAttribute('aria-label') ?? '', e.getAttribute('title') ?? '', e.getAttribute('alt') ?? '',
                                                          e.getAttribute('placeholder') ?? '', e.getAttribute('aria-roledescription') ?? '');
                return out.join(' ');""")
            # Codes in capitals (an order's reference, a ticket's id) are names, not words.
            found = {w for w in re.findall(r"[A-Za-z][A-Za-z'-]+", words) if w not in allowed and not w.isupper()}
            self.assertEqual(found, set(), f"English on the Chinese page, {where}")

        d.get(f"{self.server.url}/?lang=zh")
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f'a.card[data-show="{self.show}"]'), message="the show list")
        english("the show list")
        d.find_element(By.CSS_SELECTOR, f'a.card[data-show="{self.show}"]').click()
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"),
                  message="the picker")
        english("the picker")
        for seat in ["7-1", "7-2"]:
            self.click_seat(d, seat)
        self.assertEqual(self.wait(d, self.settled_total, message="held"), "¥116.00")
        english("the picker with two seats held")
        d.find_element(By.ID, "confirm").click()
        receipt = self.wait(d, lambda d: d.find_element(By.ID, "receipt").text or None, message="the receipt")
        self.assertIn("7排1座", receipt)
        self.wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tickets figure img")) == 2, message="the tickets")
        english("the receipt")
        d.find_element(By.CSS_SELECTOR, "#receipt a.order-link").click()
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".stub, .order-stub, main h2"), message="the order page")
        time.sleep(0.5)
        english("the order page")

    def test_each_status_drawn_with_its_own_shape(self):
        # #31 item 1: every status a buyer meets is drawn with a shape of its own as well as a colour, read
        # through the map's API as drawn (fill, glyph, ink): free (no glyph), chosen (a tick), held by
        # another (dots), sold (a cross), not for sale (a slash).
        other = self.open()
        self.click_seat(other, "3-1")
        self.wait(other, self.settled_total, message="another buyer's hold")
        key = {"Authorization": f"Bearer {CLERK_KEY}"}
        self.assertEqual(self.server.send("POST", f"/v1/shows/{self.show}/sales", {"seats": ["4-1"], "orderRef": "SHAPES", "payment": "cash", "force": True}, headers=key)[0], 201)
        self.assertEqual(self.server.send("POST", f"/v1/shows/{self.show}/reservations", {"kind": "blocked", "seats": ["5-1"], "reason": "broken"}, headers=key)[0], 201)
        d = self.open()
        self.click_seat(d, "7-1")
        self.click_seat(d, "7-2")
        self.wait(d, self.settled_total, message="our hold")
        def drawn(seat, want):
            """The seat as drawn once its status is `want` (ours: chosen, whatever the server's status)."""
            return self.wait(d, lambda d: (lambda x: x if (x["selected"] if want == "selected" else x["status"] == want and not x["selected"]) else None)(
                self.seat_info(d, seat)), message=f"{seat} {want}")
        seats = {s: drawn(s, want) for s, want in [("6-1", "available"), ("7-1", "selected"), ("3-1", "held"), ("4-1", "sold"), ("5-1", "blocked")]}
        glyphs = {s: seats[s]["glyph"] for s in seats}
        self.assertIsNone(glyphs["6-1"], "a free seat shows its number")
        shapes = [glyphs[s] for s in ["7-1", "3-1", "4-1", "5-1"]]
        self.assertEqual(shapes, ["tick", "dots", "cross", "slash"])
        self.assertEqual(len({seats[s]["fill"] for s in seats}), 5, f"and five fills: {seats}")

    def test_two_browsers_race_for_one_seat(self):
        a, b = self.open(), self.open()
        rollbacks = 0
        for seat_id in ["8-1", "8-2", "8-3", "8-4"]:
            barrier = threading.Barrier(2)
            # Both taps in the same instant: pointer events at the seat's square, sent in one script each.
            script = ("const r = document.getElementById('map').seat(arguments[0]).rect, el = document.getElementById('map-surface');"
                      "const o = {bubbles: true, clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, pointerId: 1,"
                      " pointerType: 'mouse', button: 0, isPrimary: true};"
                      "el.dispatchEvent(new PointerEvent('pointerdown', o)); el.dispatchEvent(new PointerEvent('pointerup', o));")

            def tap(d):
                barrier.wait()
                d.execute_script(script, seat_id)

            threads = [threading.Thread(target=tap, args=(d,)) for d in (a, b)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            # Exactly one keeps it; the other's map shows it taken within a second, without reload.
            started = time.time()
            self.wait(a, lambda _: {self.status(a, seat_id), self.status(b, seat_id)} == {"selected", "held"}, timeout=1,
                      message=f"one browser holds {seat_id}, the other sees it held")
            self.assertLess(time.time() - started, 1.0)
            loser = a if self.status(a, seat_id) == "held" else b
            message = loser.find_element(By.ID, "message").text
            if message:
                self.assertIn("someone else was faster", message)
                self.assertIn(f"Row 8, seat {seat_id[2:]}", message)
                rollbacks += 1
            self.assertEqual(self.server.statuses(self.show)[self.index(a, seat_id)], "h")
            self.wait(a, lambda _: self.settled_total(a) is not None or not a.find_element(By.ID, "selection").text, message="settled")
            self.wait(b, lambda _: self.settled_total(b) is not None or not b.find_element(By.ID, "selection").text, message="settled")
        self.assertGreater(rollbacks, 0, "at least one race reached the server from both browsers (an optimistic tap rolled back)")
        held = sum(1 for s in self.server.statuses(self.show) if s == "h")
        self.assertEqual(held, 4, "four seats, each held once")


    def test_lone_seat_refused_with_the_rules_message(self):
        d = self.open()
        # Row 2's left block is 15 13 11 9: taking 13 alone strands 15 at the block's end.
        self.click_seat(d, "2-13")
        message = self.wait(d, lambda d: d.find_element(By.ID, "message").text or None, message="rule message")
        self.assertIn("Please don't leave a single empty seat", message)
        self.assertIn("Row 2, seat 15", message)
        self.wait(d, lambda d: self.status(d, "2-13") == "available", message="rolled back to available")
        self.assertEqual(set(self.server.statuses(self.show)), {"a"}, "nothing held on the server")


    def test_a_started_show_is_marked_and_refuses_seats(self):
        # A show that started an hour ago: its card says sales are closed; a tap is rolled back with the reason.
        started = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(time.time() - 3600))
        gone = self.show + "-gone"
        body = {"id": gone, "venueId": "cinema-hall-3", "startsAt": started, "prices": {"categories": {"standard": "38", "vip": "58", "couple": "99"}}}
        request = urllib.request.Request(self.server.url + "/v1/shows", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Admin-Key": "browser-test-key"})
        self.assertEqual(urllib.request.urlopen(request).status, 201)
        d = self.new_browser()
        d.get(f"{self.server.url}/?lang=en")
        card = self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f'a.card[data-show="{gone}"]'), message="card")[0]
        self.assertIn("started", card.get_attribute("class"))
        self.assertIn("Started: sales closed", card.text)
        upcoming = d.find_element(By.CSS_SELECTOR, f'a.card[data-show="{self.show}"]')
        self.assertNotIn("started", upcoming.get_attribute("class"))
        d.get(f"{self.server.url}/shows/{gone}?lang=en")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"))
        # The page says so before any tap, and offers no best seats.
        self.assertIn("sales are closed", d.find_element(By.ID, "message").text)
        self.assertFalse(d.find_element(By.CSS_SELECTOR, "#best-form button").is_enabled())
        self.click_seat(d, "7-1")
        message = self.wait(d, lambda d: d.find_element(By.ID, "message").text or None, message="refusal")
        self.assertIn("has started and sales are closed", message)
        self.assertNotIn(gone, message, "the server's detail (naming the show id and its start) is not said to a buyer")
        self.assertEqual(d.find_element(By.ID, "map").get_attribute("data-closed"), "true", "the map looks closed")
        self.wait(d, lambda d: self.status(d, "7-1") == "available", message="rolled back to available")
        self.assertEqual(set(self.server.statuses(gone)), {"a"}, "nothing held on the server")


    def test_strip_is_one_films_times_one_stop(self):
        # 换场次 listed every show of the hall, other films too, one Tab stop each (a keyboard purchase grew
        # from about 35 keys to 59): now the film's own times, in any hall, reached by one Tab and the arrows.
        base = "strip-" + self._testMethodName[5:14].replace("_", "-")
        for k, (film, starts) in enumerate([("Deep Sea", "2099-12-20T14:00:00+08:00"), ("Deep Sea", "2099-12-20T19:30:00+08:00"),
                                            ("Homeward", "2099-12-20T17:00:00+08:00"), ("Deep Sea", "2099-12-21T10:00:00+08:00")]):
            status, made = self.server.send("POST", "/v1/shows", {
                "id": f"{base}-{k}", "venueId": "cinema-hall-3" if k != 3 else "imax-1", "startsAt": starts,
                "details": {"title": {"en": film, "zh": "深海" if film == "Deep Sea" else "归途"}},
                "prices": {"categories": {"standard": "38", "vip": "58", "couple": "99", "premium": "88"}}}, admin=True)
            self.assertEqual(status, 201, made)
        d = self.new_browser()
        d.get(f"{self.server.url}/shows/{base}-1?lang=en")
        self.wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#show-strip a")) == 3, message="the film's three times")
        shows = [a.get_attribute("data-show") for a in d.find_elements(By.CSS_SELECTOR, "#show-strip a")]
        self.assertEqual(shows, [f"{base}-0", f"{base}-1", f"{base}-3"], "the film's times in order, another hall's too, not Homeward")
        stops = d.execute_script("return [...document.querySelectorAll('#show-strip a')].map(a => a.tabIndex)")
        self.assertEqual(stops, [-1, 0, -1], "one stop: the current show's card")
        d.execute_script("document.querySelector('#show-strip a[tabindex=\"0\"]').focus()")
        ActionChains(d).send_keys(Keys.ARROW_RIGHT).perform()
        self.assertEqual(d.switch_to.active_element.get_attribute("data-show"), f"{base}-3")
        ActionChains(d).send_keys(Keys.HOME).perform()
        self.assertEqual(d.switch_to.active_element.get_attribute("data-show"), f"{base}-0")
        self.assertEqual(d.execute_script("return [...document.querySelectorAll('#show-strip a')].map(a => a.tabIndex)"), [0, -1, -1])

    def test_two_tabs_are_one_buyer(self):
        # Two tabs of one browser acted as two buyers, each with the show's seat limit: now one hold,
        # taken up by a tab that opens the show, and a change in either tab is the other's too.
        def active_holds():
            metrics = urllib.request.urlopen(f"{self.server.url}/metrics").read().decode()
            return float(next(line for line in metrics.splitlines() if line.startswith("seatkit_active_holds ")).split()[-1])
        before = active_holds()  # the class's server keeps earlier tests' holds
        d = self.open()
        first = d.current_window_handle
        self.click_seat(d, "7-1")
        self.wait(d, self.settled_total, message="held in the first tab")
        d.switch_to.new_window("tab")
        d.get(f"{self.server.url}/shows/{self.show}?lang=en")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"), message="the second tab's map")
        chips = lambda d: sorted(c.get_attribute("data-seat") for c in d.find_elements(By.CSS_SELECTOR, "#selection .chip"))
        self.wait(d, lambda d: chips(d) == ["7-1"], message="the second tab takes up the hold")
        self.click_seat(d, "7-2")
        self.wait(d, lambda d: chips(d) == ["7-1", "7-2"], message="a second seat in the second tab")
        self.wait(d, self.settled_total, message="held from the second tab")
        self.assertEqual(active_holds() - before, 1, "one hold for both tabs")
        self.assertEqual(self.server.statuses(self.show).count("h"), 2)
        d.switch_to.window(first)
        self.wait(d, lambda d: chips(d) == ["7-1", "7-2"], message="the first tab shows the second tab's change")

    def test_whole_purchase_with_the_keyboard(self):
        d = self.new_browser()
        d.get(f"{self.server.url}/?lang=en")
        body = d.find_element(By.TAG_NAME, "body")
        body.click()

        def tab_until(predicate, limit=60):
            for _ in range(limit):
                ActionChains(d).send_keys(Keys.TAB).perform()
                if predicate(d.switch_to.active_element):
                    return d.switch_to.active_element
            self.fail("never reached by Tab")

        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f'a.card[data-show="{self.show}"]'), message="show list")
        tab_until(lambda e: e.get_attribute("data-show") == self.show)
        ActionChains(d).send_keys(Keys.ENTER).perform()
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"))
        seat = tab_until(lambda e: e.get_attribute("class") == "seat-focus")
        start = seat.get_attribute("data-seat-id")
        # To the row's left end (a block's edge, so two seats from there strand no one), up a row and back.
        ActionChains(d).send_keys(Keys.HOME).perform()
        first_of_row = d.switch_to.active_element.get_attribute("data-seat-id")
        self.assertEqual(first_of_row.split("-")[0], start.split("-")[0], "Home stays in the row")
        ActionChains(d).send_keys(Keys.ARROW_UP).perform()
        up = d.switch_to.active_element.get_attribute("data-seat-id")
        self.assertNotEqual(up.split("-")[0], start.split("-")[0], "ArrowUp changes row")
        ActionChains(d).send_keys(Keys.ARROW_DOWN).perform()
        target = d.switch_to.active_element
        first = target.get_attribute("data-seat-id")
        self.assertEqual(first, first_of_row, "ArrowDown comes back to the nearest seat")
        self.assertIn("available", target.get_attribute("aria-label"))
        ActionChains(d).send_keys(Keys.SPACE).perform()
        self.wait(d, lambda d: self.status(d, first) == "selected")
        ActionChains(d).send_keys(Keys.ARROW_RIGHT, Keys.ENTER).perform()
        second = d.switch_to.active_element.get_attribute("data-seat-id")
        self.assertNotEqual(first, second)
        self.wait(d, self.settled_total, message="total for two seats")
        self.wait(d, lambda d: "Holding for you" in d.find_element(By.ID, "map-announcer").get_attribute("textContent"),
                  message="the hold announced in the live region")
        tab_until(lambda e: e.get_attribute("id") == "confirm")
        ActionChains(d).send_keys(Keys.ENTER).perform()
        self.wait(d, lambda d: d.find_element(By.ID, "receipt").text or None, message="receipt")
        sold = {self.index(d, first), self.index(d, second)}
        self.assertEqual(self.server.sold_in_store(self.show), sold)


    def test_drag_across_seats_holds_them_in_one_change(self):
        d = self.open()
        version_before = int(d.find_element(By.ID, "map").get_attribute("data-version"))
        points = [self.seat_point(d, s) for s in ["10-7", "10-5", "10-3", "10-1"]]
        actions, p = self.pointer(d)
        p.move_to_location(*points[0]).pointer_down()
        for point in points[1:]:
            p.move_to_location(*point)
        p.pointer_up()
        actions.perform()
        total = self.wait(d, self.settled_total, message="total after a drag")
        self.assertEqual(total, "¥152.00")
        self.assertEqual([self.status(d, s) for s in ["10-7", "10-5", "10-3", "10-1"]], ["selected"] * 4)
        self.wait(d, lambda d: int(d.find_element(By.ID, "map").get_attribute("data-version")) > version_before)
        self.assertEqual(int(d.find_element(By.ID, "map").get_attribute("data-version")), version_before + 1, "one atomic change, one version")


    def test_best_seats_list_mode_and_language(self):
        d = self.open(lang="zh")
        self.assertIn("可选", self.label(d, "7-1"))
        count = d.find_element(By.ID, "best-count")
        count.clear()
        count.send_keys("3")
        d.find_element(By.CSS_SELECTOR, "#best-form button").click()
        self.wait(d, self.settled_total, message="best three held")
        selected = d.execute_script("return document.getElementById('map').selection")
        self.assertEqual(len(selected), 3)
        self.assertEqual(sum(1 for s in self.server.statuses(self.show) if s == "h"), 3)
        self.assertEqual(self.label(d, selected[0]).split("，")[1], "已选")
        # The list mode offers the same seats as buttons; picking one there adds it to the hold.
        d.find_element(By.ID, "list-toggle").click()
        css = '#list-mode .run button[data-seat="3-1"]'
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, css), message="list mode")
        self.assertIn("3排1座", d.execute_script(f"return document.querySelector('{css}').getAttribute('aria-label')"))
        self.click_fresh(d, css)
        self.wait(d, lambda d: self.settled_total(d) and self.status(d, "3-1") == "selected", message="list pick held")
        # Switch language: labels become English, the selection stays.
        d.find_element(By.ID, "language").click()
        self.wait(d, lambda d: self.label(d, "3-1").startswith("Row 3, seat 1, selected"), message="English labels")
        self.assertEqual(d.find_element(By.TAG_NAME, "html").get_attribute("lang"), "en")


if __name__ == "__main__":
    unittest.main(verbosity=2)
