"""The operator console: a clerk beside a buyer, price changes, the heat map, the schedule board, the lasso.
Shared set-up and helpers: support.py."""

import json
import os
import time
import unittest
import urllib.request

from support import *  # noqa: F401,F403 (the suites' shared names)


class ConsoleTests(PickerCase):

    # — the operator console —

    def test_console_clerk_and_buyer_side_by_side(self):
        buyer = self.open()
        clerk = self.new_browser()
        clerk.get(f"{self.server.url}/console?show={self.show}&lang=en")
        clerk.find_element(By.ID, "key").send_keys("not-a-key-of-anyone")
        clerk.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.assertIn("not an operator key", self.wait(clerk, lambda c: c.find_element(By.ID, "sign-in-message").text or None, message="wrong key"))
        clerk.find_element(By.ID, "key").send_keys(CLERK_KEY)
        clerk.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "who").text == "li (box office)", message="signed in")
        self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map')?.ready === true"), message="the desk's map")
        self.assertFalse(clerk.find_element(By.ID, "sign-in").is_displayed())
        # The key is the tab's only: not in the URL, not in local storage.
        self.assertNotIn(CLERK_KEY, clerk.current_url)
        self.assertEqual(clerk.execute_script("return Object.values(localStorage).filter(v => v.includes(arguments[0])).length", CLERK_KEY), 0)

        def do(seats, form_button, fill=None):
            for seat in seats:
                self.click_seat(clerk, seat)
            self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map').selection.length") == len(seats), message="marked")
            for field, value in (fill or {}).items():
                clerk.find_element(By.ID, field).clear()
                clerk.find_element(By.ID, field).send_keys(value)
            clerk.find_element(By.CSS_SELECTOR, form_button).click()
            return time.time()

        # Block a seat: the buyer's map shows it unavailable within a second.
        started = do(["6-7"], "#block-form button[type=submit]", {"block-reason": "broken seat"})
        self.wait(buyer, lambda b: self.status(b, "6-7") == "blocked", timeout=1, message="blocked on the buyer's map within 1 s")
        self.assertLess(time.time() - started, 1.0)
        self.assertIn("1 seat blocked", clerk.find_element(By.ID, "desk-message").text)
        self.wait(clerk, lambda c: "broken seat (li)" in c.find_element(By.ID, "reservations").text, message="the block listed")
        # Sell two at the counter, refund one (its order found by clicking it): the buyer's map follows.
        do(["5-1", "5-2"], "#sell-form button[type=submit]")
        self.wait(buyer, lambda b: self.status(b, "5-1") == "sold" and self.status(b, "5-2") == "sold", timeout=1, message="sold on the buyer's map")
        order = clerk.find_element(By.ID, "refund-ref").get_attribute("value")
        self.assertTrue(order.startswith("BOX-"))
        # The counter's receipt, as the buyer's: sold, when, the seats, the total, the order, printing a click away.
        receipt = self.wait(clerk, lambda c: c.find_element(By.ID, "sale-receipt").text or None, message="the sale's receipt")
        for part in ["Sold", "24 Dec 19:30", "Row 5, seat 1, Row 5, seat 2", "Total 76.00 CNY", f"Order {order}", "Print the order's tickets"]:
            self.assertIn(part, receipt)
        clerk.find_element(By.ID, "refund-ref").clear()
        self.click_seat(clerk, "5-2")
        clerk.find_element(By.ID, "find-order").click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "refund-ref").get_attribute("value") == order, message="the order of a clicked sold seat")
        clerk.find_element(By.CSS_SELECTOR, "#refund-form button[type=submit]").click()
        self.wait(buyer, lambda b: self.status(b, "5-2") == "available", timeout=1, message="refunded seat on sale again")
        self.wait(clerk, lambda c: "refund" in c.find_element(By.ID, "recent").text, message="the refund in the recent changes")
        # The report and the buyer's map agree.
        request = urllib.request.Request(f"{self.server.url}/v1/shows/{self.show}/report", headers={"Authorization": f"Bearer {CLERK_KEY}"})
        report = json.loads(urllib.request.urlopen(request).read())
        self.assertEqual((report["byStatus"]["sold"], report["byStatus"]["blocked"]), (1, 1))
        self.assertEqual((report["revenue"]["gross"], report["revenue"]["refunded"], report["revenue"]["net"]), ("76.00", "38.00", "38.00"))
        shown = {s: self.status(buyer, s) for s in ["6-7", "5-1", "5-2"]}
        self.assertEqual(shown, {"6-7": "blocked", "5-1": "sold", "5-2": "available"})
        # The console's own report says the same as the API's, and its CSV has a line a seat.
        clerk.find_element(By.ID, "report-refresh").click()
        rows = lambda c: {r[0]: r[1:] for r in c.execute_script(
            "return [...document.querySelectorAll('#show-report table')].flatMap(t => [...t.tBodies[0].rows].map(r => [t.caption.textContent + ':' + r.cells[0].textContent, ...[...r.cells].slice(1).map(c => c.textContent)]))")}
        self.wait(clerk, lambda c: rows(c).get("Revenue:refunded") == ["38.00 CNY"], message="the show's report")
        table = rows(clerk)
        self.assertEqual((table["Seats:sold"][0], table["Seats:blocked"][0], table["Seats:available"][0]), ("1", "1", str(report["byStatus"]["available"])))
        self.assertEqual((table["Revenue:gross"], table["Revenue:net"]), (["76.00 CNY"], ["38.00 CNY"]))
        self.assertEqual(table["By payment:cash"], ["38.00 CNY"])
        # Categories by their zone's name, channels in words (not the API's keys).
        self.assertEqual((table["By category:Standard"], table["By channel:counter"]), (["38.00 CNY"], ["38.00 CNY"]))
        self.assertEqual((table["Door:Came (tickets scanned in)"], table["Door:Inside now"], table["Door:sold"]), (["0"], ["0"], ["1"]))
        self.assertGreaterEqual(len(clerk.find_elements(By.CSS_SELECTOR, "#show-report svg.chart rect")), 4, "the seats chart drawn")
        clerk.find_element(By.ID, "report-csv").click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "report-csv").get_attribute("data-lines") == "173", message="the CSV, a line a seat")
        # By day: the page's table for the show's day equals the API's sales report for the same period.
        for field, value in [("period-from", "2099-12-24"), ("period-to", "2099-12-25")]:
            clerk.execute_script("document.getElementById(arguments[0]).value = arguments[1]", field, value)
        clerk.find_element(By.CSS_SELECTOR, "#period-form button").click()
        day = self.wait(clerk, lambda c: c.execute_script(
            "const r = [...document.querySelectorAll('#day-report tbody tr')].find(r => r.cells[0].textContent === '2099-12-24'); return r && [...r.cells].map(c => c.textContent)"),
            message="the day's row")
        request = urllib.request.Request(f"{self.server.url}/v1/reports/sales?from=2099-12-24&to=2099-12-25", headers={"Authorization": f"Bearer {CLERK_KEY}"})
        api_day = json.loads(urllib.request.urlopen(request).read())["days"][0]
        self.assertEqual(day[1:], [str(api_day["shows"]), str(api_day["seats"]), str(api_day["sold"]), str(api_day["came"]), api_day["gross"], api_day["refunded"],
                                   f"{api_day['net']} CNY"])
        self.axe(clerk, "the console's show desk and reports")
        clerk.save_screenshot(os.path.join(ARTIFACTS, "console-desk.png"))
        clerk.find_element(By.ID, "reports").screenshot(os.path.join(ARTIFACTS, "console-reports.png"))
        # Signing out forgets the key.
        clerk.find_element(By.ID, "sign-out").click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "sign-in").is_displayed(), message="signed out")
        self.assertIsNone(clerk.execute_script("return sessionStorage.getItem('seatkit.operatorKey')"))
        self.axe(clerk, "the console's sign-in")


    def test_console_prints_an_orders_tickets_at_80_mm(self):
        # Sold at the counter, then printed: a stub a seat (the film, hall and time, the seat, the price and
        # order, the QR code), only the stubs in print, each 72 mm wide.
        status, _ = self.server.send("POST", f"/v1/shows/{self.show}/sales", {"seats": ["9-1", "9-2"], "orderRef": "BOX-PRINT", "payment": "cash"},
                                     headers={"Authorization": f"Bearer {CLERK_KEY}"})
        self.assertEqual(status, 201)
        clerk = self.sign_in_console(CLERK_KEY)
        clerk.execute_script("window.print = () => { window.printed = (window.printed || 0) + 1; }")
        clerk.find_element(By.ID, "refund-ref").send_keys("BOX-PRINT")
        clerk.find_element(By.ID, "print-tickets").click()
        self.wait(clerk, lambda c: c.execute_script("return window.printed") == 1, message="sent to the printer")
        stubs = clerk.find_elements(By.CSS_SELECTOR, "#print-area .stub")
        self.assertEqual([s.get_attribute("textContent").count("Seat 9-") for s in stubs], [1, 1])
        self.assertIn("Order BOX-PRINT", stubs[0].get_attribute("textContent"))
        self.assertTrue(clerk.execute_script("return [...document.querySelectorAll('#print-area img')].every(i => i.complete && i.naturalWidth > 0)"))
        self.assertIn("Sent to the printer: 2 tickets", clerk.find_element(By.ID, "desk-message").text)
        clerk.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": "print"})
        self.assertFalse(clerk.find_element(By.ID, "main").is_displayed(), "in print, only the stubs")
        width_mm = clerk.execute_script("return document.querySelector('#print-area .stub').getBoundingClientRect().width") * 25.4 / 96
        self.assertAlmostEqual(width_mm, 72, delta=0.5)
        clerk.save_screenshot(os.path.join(ARTIFACTS, "console-ticket-print.png"))
        clerk.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": ""})

    def test_console_moves_an_order_with_the_lasso(self):
        # A counter order moved: its seat clicked ("Order of the marked seat"), the new seats marked, one click;
        # the buyer's map shows the old seats free and the new sold, the old tickets are revoked.
        clerk_key = {"Authorization": f"Bearer {CLERK_KEY}"}
        status, _ = self.server.send("POST", f"/v1/shows/{self.show}/sales", {"seats": ["9-1", "9-2"], "orderRef": "BOX-MOVE", "payment": "cash"},
                                     headers=clerk_key)
        self.assertEqual(status, 201)
        status, before = self.server.send("GET", "/v1/orders/BOX-MOVE/tickets", None, headers=clerk_key)
        buyer = self.open()
        clerk = self.sign_in_console(CLERK_KEY)
        self.click_seat(clerk, "9-1")
        clerk.find_element(By.ID, "find-order").click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "refund-ref").get_attribute("value") == "BOX-MOVE", message="the order found")
        self.click_seat(clerk, "9-1")  # unmark it
        for seat in ["4-1", "4-2"]:
            self.click_seat(clerk, seat)
        self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map').selection.length") == 2, message="marked")
        # The desk's legend: the statuses as its map draws them.
        self.assertEqual([li.text for li in clerk.find_elements(By.CSS_SELECTOR, "#desk-legend li")], ["available", "selected", "held", "sold", "not for sale", "best view"])
        clerk.find_element(By.ID, "move-order").click()
        message = self.wait(clerk, lambda c: "moved" in c.find_element(By.ID, "desk-message").text and c.find_element(By.ID, "desk-message").text,
                            message="moved")
        self.assertIn("Order BOX-MOVE moved to", message)
        self.assertIn("print the new ones", message)
        self.wait(buyer, lambda b: [self.status(b, s) for s in ["9-1", "9-2", "4-1", "4-2"]] == ["available", "available", "sold", "sold"],
                  timeout=2, message="the buyer's map follows the move")
        status, after = self.server.send("GET", "/v1/orders/BOX-MOVE/tickets", None, headers=clerk_key)
        self.assertEqual(sorted(t["seat"] for t in after["tickets"] if t["status"] == "valid"), ["4-1", "4-2"])
        self.assertEqual(sorted(t["ticketId"] for t in after["tickets"] if t["status"] == "revoked"), sorted(t["ticketId"] for t in before["tickets"]))
        self.wait(clerk, lambda c: "exchange" in c.find_element(By.ID, "recent").text, message="the move in the recent changes")
        # A move to a seat sold to someone else is told, and changes nothing.
        status, _ = self.server.send("POST", f"/v1/shows/{self.show}/sales", {"seats": ["3-1"], "orderRef": "BOX-OTHER", "payment": "cash"},
                                     headers=clerk_key)
        self.assertEqual(status, 201)
        for seat in ["3-1", "3-2"]:
            self.click_seat(clerk, seat)
        self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map').selection.length") == 2, message="marked again")
        clerk.find_element(By.ID, "move-order").click()
        self.wait(clerk, lambda c: "moved" not in c.find_element(By.ID, "desk-message").text, message="answered")
        self.assertEqual(clerk.find_element(By.ID, "desk-message").text, "That did not work: 3-1: sold")
        self.assertEqual([self.status(buyer, s) for s in ["4-1", "4-2", "3-2"]], ["sold", "sold", "available"])
        clerk.save_screenshot(os.path.join(ARTIFACTS, "console-move-desktop-en.png"))
        self.axe(clerk, "the desk after a move")

    def test_console_managers_price_change(self):
        buyer = self.open()
        self.click_seat(buyer, "9-1")
        self.assertEqual(self.wait(buyer, self.settled_total, message="a held seat"), "¥38.00")
        # A box-office key does not reach the manager's tools: no price editor, and the API says no.
        clerk = self.sign_in_console(CLERK_KEY)
        self.assertFalse(clerk.find_element(By.ID, "prices-form").is_displayed())
        status, _ = self.server.send("PUT", f"/v1/shows/{self.show}/prices", {"categories": {"standard": "1.00"}},
                                     headers={"Authorization": f"Bearer {CLERK_KEY}"})
        self.assertEqual(status, 403)
        manager = self.sign_in_console("browser-test-key")
        self.wait(manager, lambda m: m.find_element(By.ID, "prices-form").is_displayed(), message="the price editor")
        field = manager.find_element(By.ID, "price-standard")
        self.assertEqual(field.get_attribute("value"), "38.00")
        field.clear()
        field.send_keys("45.00")
        manager.find_element(By.ID, "price-preview-button").click()
        preview = self.wait(manager, lambda m: m.find_element(By.ID, "price-preview").text or None, message="the preview")
        self.assertIn("standard 38.00 → 45.00", preview)
        self.assertIn("the 1 seats held now keep the prices they were held at", preview)
        self.assertIn("¥38.00", self.label(buyer, "9-3"), "nothing changes before Apply")
        manager.find_element(By.CSS_SELECTOR, "#prices-form button[type=submit]").click()
        started = time.time()
        self.wait(buyer, lambda b: "¥45.00" in self.label(b, "9-3"), timeout=1, message="the new price on the open picker within 1 s")
        self.assertLess(time.time() - started, 1.0)
        self.assertIn("revision 1", self.wait(manager, lambda m: m.find_element(By.ID, "desk-message").text or None, message="applied"))
        # The buyer's hold keeps its own price.
        self.assertEqual(self.settled_total(buyer), "¥38.00")
        status, show = self.server.send("GET", "/v1/shows/" + self.show, None)
        self.assertEqual((status, show["prices"]["categories"]["standard"]), (200, "45.00"))
        self.axe(manager, "the console with the price editor")


    def test_console_heat_map_over_the_desk(self):
        # A show of the same hall that starts in four seconds sells 7-1 and 7-2 at the counter; once it has
        # started it is a past show, and the heat map over the desk's map says so.
        past = self.show + "-past"
        starts = time.time() + 4
        body = {"id": past, "venueId": "cinema-hall-3", "startsAt": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime(starts)),
                "prices": {"categories": {"standard": "38", "vip": "58", "couple": "99"}}}
        self.assertEqual(self.server.post("/v1/shows", body, admin=True)[0], 201)
        status, _ = self.server.post(f"/v1/shows/{past}/sales", {"seats": ["7-1", "7-2"], "orderRef": "HEAT-1", "payment": "cash"}, admin=True)
        self.assertEqual(status, 201)
        time.sleep(max(0, starts - time.time()) + 1.2)
        clerk = self.sign_in_console(CLERK_KEY)
        clerk.find_element(By.ID, "heat-on").click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "heat-legend").is_displayed(), message="the legend")
        self.assertIn("shows of the last 30 days", clerk.find_element(By.ID, "heat-caption").text)
        levels = clerk.execute_script("""
            const m = document.querySelector('seatkit-map'), o = m.picker.view.overlay;
            return ['7-1', '7-3'].map(id => o.levels[m.seat(id).index]);""")
        self.assertGreater(levels[0], 0)
        self.assertEqual(levels[1], 0)
        # The seat is drawn in the engine's colour for its level (a pixel of its square, beside its number).
        x, y = self.seat_point(clerk, "7-1")
        drawn = clerk.execute_script("""
            const c = document.querySelector('#desk-map-surface canvas'), b = c.getBoundingClientRect(), k = c.width / b.width;
            const r = document.querySelector('seatkit-map').seat('7-1').rect;
            return [...c.getContext('2d').getImageData((r.x + r.width * 0.18 - b.left) * k, (arguments[1] - b.top) * k, 1, 1).data].slice(0, 3);""", x, y)
        want = clerk.execute_script("const o = document.querySelector('seatkit-map').picker.view.overlay; return o.palette[arguments[0]]", levels[0])
        rgb = [int(want[i:i + 2], 16) for i in (1, 3, 5)]
        self.assertTrue(all(abs(a - b) <= 3 for a, b in zip(drawn, rgb)), f"drawn {drawn}, the engine's {want}")
        zones = clerk.find_element(By.ID, "heat-zones").text.splitlines()
        self.assertTrue(zones[0].startswith("VIP: "), f"the VIP zone sold best: {zones}")
        self.axe(clerk, "the console with the heat map")
        clerk.save_screenshot(os.path.join(ARTIFACTS, "console-heat.png"))
        clerk.find_element(By.ID, "heat-on").click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "desk-map").get_attribute("data-overlay") == "", message="the overlay taken away")
        self.assertFalse(clerk.find_element(By.ID, "heat-legend").is_displayed())


    def test_console_schedule_board_scrolls_in_sync(self):
        # On a server of its own (its 119 shows would crowd the other tests' show list).
        server = Server()
        try:
            self.schedule_board(server)
        finally:
            server.stop()


    def test_console_lasso_keys_and_tablet(self):
        # A tablet in landscape (1024 × 768): the desk fits without sideways scrolling.
        clerk = self.new_browser()
        clerk.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1024, "height": 768, "deviceScaleFactor": 1, "mobile": False})
        clerk.get(f"{self.server.url}/console?show={self.show}&lang=en")
        clerk.find_element(By.ID, "key").send_keys(CLERK_KEY)
        clerk.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map')?.ready === true"), message="the desk's map")
        clerk.execute_script("document.getElementById('desk').scrollIntoView()")
        self.assertLessEqual(clerk.execute_script("return document.scrollingElement.scrollWidth"), 1024, "no sideways scrolling")
        self.assertGreater(clerk.find_element(By.ID, "desk-map").size["width"], 500)
        # Shift and drag: a box around rows 9 and 10 of the left block marks those eight seats.
        a, b = self.seat_rect(clerk, "9-15"), self.seat_rect(clerk, "10-9")
        # (Real mouse events with Shift held, through the DevTools protocol: WebDriver's key and pointer
        # sources do not share the modifier in chromedriver.)
        x0, y0, x1, y1 = a["x"] - 4, a["y"] - 4, b["x"] + b["width"] + 4, b["y"] + b["height"] + 4
        mouse = lambda kind, x, y, **extra: clerk.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": kind, "x": x, "y": y, "modifiers": 8, **extra})
        mouse("mouseMoved", x0, y0)
        mouse("mousePressed", x0, y0, button="left", buttons=1, clickCount=1)
        for k in range(1, 6):
            mouse("mouseMoved", x0 + (x1 - x0) * k / 5, y0 + (y1 - y0) * k / 5, button="left", buttons=1)
        mouse("mouseReleased", x1, y1, button="left", clickCount=1)
        lassoed = {f"{r}-{n}" for r in (9, 10) for n in (15, 13, 11, 9)}
        selection = "return document.querySelector('seatkit-map').selection"
        self.wait(clerk, lambda c: set(c.execute_script(selection)) == lassoed, message="the lasso's seats")
        # The keys: B takes the block's reason, Enter blocks; Esc clears marks.
        clerk.execute_script("document.activeElement.blur()")
        ActionChains(clerk).send_keys("b").perform()
        self.assertEqual(clerk.switch_to.active_element.get_attribute("id"), "block-reason")
        ActionChains(clerk).send_keys("lassoed", Keys.ENTER).perform()
        self.wait(clerk, lambda c: "8 seats blocked" in c.find_element(By.ID, "desk-message").text, message="blocked by the keys")
        statuses = self.server.statuses(self.show)
        self.assertEqual({s for s in lassoed if statuses[self.index(clerk, s)] == "b"}, lassoed)
        self.click_seat(clerk, "3-1")
        self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map').selection.length") == 1, message="marked")
        ActionChains(clerk).send_keys(Keys.ESCAPE).perform()
        self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map').selection.length") == 0, message="Esc clears")
        self.axe(clerk, "the console on a tablet")
        clerk.save_screenshot(os.path.join(ARTIFACTS, "console-tablet.png"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
