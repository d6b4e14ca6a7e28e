"""Live: other buyers' seats turning grey, a manager's changes reaching an open page, reconnecting and resyncing.
Shared set-up and helpers: support.py."""

import json
import os
import time
import unittest
import urllib.request

from support import *  # noqa: F401,F403 (the suites' shared names)


class LiveTests(PickerCase):

    def test_other_buyers_turn_seats_grey_live(self):
        d = self.open()
        status, hold = self.server.post(f"/v1/shows/{self.show}/holds", {"seats": ["9-1", "9-2"]})
        self.assertEqual(status, 201)
        started = time.time()
        self.wait(d, lambda d: self.status(d, "9-1") == "held" and self.status(d, "9-2") == "held", timeout=1, message="grey within a second")
        self.assertLess(time.time() - started, 1.0)
        self.assertEqual(self.label(d, "9-1"), "Row 9, seat 1, held, Standard, ¥38.00")
        urllib.request.urlopen(urllib.request.Request(f"{self.server.url}/v1/holds/{hold['token']}", method="DELETE"))
        self.wait(d, lambda d: self.status(d, "9-1") == "available", timeout=1, message="available again when released")


    def test_seats_turning_grey_while_the_page_still_loads(self):
        """Another buyer's hold arriving while the page still waits for how buyers pay (its answer held
        back two seconds here) turns the seat grey and leaves no script error (it once read the Pay step
        before it existed)."""
        d = self.new_browser()
        d.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": """
            const realFetch = window.fetch;
            window.fetch = (input, init) => String(input.url ?? input).includes('/v1/payments')
                ? new Promise(resolve => setTimeout(resolve, 2000)).then(() => realFetch(input, init))
                : realFetch(input, init);"""})
        d.get(f"{self.server.url}/shows/{self.show}?lang=en")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true"), message="the map drawn")
        status, _ = self.server.post(f"/v1/shows/{self.show}/holds", {"seats": ["9-3"]})
        self.assertEqual(status, 201)
        self.wait(d, lambda d: self.status(d, "9-3") == "held", timeout=2, message="grey while the payment options load")
        time.sleep(2.2)
        self.click_seat(d, "9-5")
        self.assertEqual(self.wait(d, self.settled_total, message="a seat held after loading"), "¥38.00")

    def test_a_managers_price_change_and_pause_reach_the_open_page(self):
        d = self.open()
        self.assertIn("¥38.00", self.label(d, "9-1"))
        prices = {"currency": "CNY", "categories": {"standard": "45.00", "vip": "66.00", "couple": "120.00"}}
        status, show = self.server.send("PUT", f"/v1/shows/{self.show}/prices", prices, admin=True)
        self.assertEqual((status, show["priceRevision"]), (200, 1))
        started = time.time()
        self.wait(d, lambda d: "45.00" in d.find_element(By.ID, "zone-prices").text, timeout=2, message="new prices on the open page")
        self.assertLess(time.time() - started, 2.0)
        self.assertIn("¥45.00", self.label(d, "9-1"))
        self.wait(d, lambda d: "Prices have changed" in d.find_element(By.ID, "map-announcer").get_attribute("textContent"), timeout=2,
                  message="the change is announced")
        status, _ = self.server.send("PATCH", f"/v1/shows/{self.show}", {"onSale": False}, admin=True)
        self.assertEqual(status, 200)
        self.wait(d, lambda d: "paused" in d.find_element(By.ID, "message").text, timeout=2, message="sales paused, said on the page")
        self.assertEqual(d.find_element(By.CSS_SELECTOR, "#best-form button").get_attribute("disabled"), "true")
        self.server.send("PATCH", f"/v1/shows/{self.show}", {"onSale": True}, admin=True)
        self.wait(d, lambda d: d.find_element(By.CSS_SELECTOR, "#best-form button").get_attribute("disabled") is None, timeout=2,
                  message="back on sale")


    def test_offline_said_and_cleared(self):
        d = self.open(lang="zh")
        d.execute_cdp_cmd("Network.enable", {})
        offline = {"offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1}
        d.execute_cdp_cmd("Network.emulateNetworkConditions", offline)
        self.wait(d, lambda d: d.find_element(By.ID, "connection").text == "离线", message="the dot says offline")
        self.assertEqual(d.find_element(By.ID, "connection").get_attribute("data-state"), "offline")
        self.click_seat(d, "5-1")
        said = "网络已断开：现在选座不会被锁定，恢复联网后再选。"
        self.wait(d, lambda d: d.find_element(By.ID, "message").text == said, message="the tap is told why")
        self.wait(d, lambda d: self.status(d, "5-1") == "available", message="nothing held")
        d.save_screenshot(os.path.join(ARTIFACTS, "picker-offline-zh.png"))
        self.axe(d, "the picker offline, zh")
        d.execute_cdp_cmd("Network.emulateNetworkConditions", {**offline, "offline": False})
        self.wait(d, lambda d: d.find_element(By.ID, "connection").text == "实时", timeout=10, message="live again")
        self.assertEqual(d.find_element(By.ID, "message").text, "", "the offline words go")

    def test_page_reconnects_after_the_server_restarts(self):
        d = self.open()
        self.click_seat(d, "5-7")
        self.click_seat(d, "5-5")
        self.wait(d, self.settled_total, message="two seats held")
        self.server.stop()
        self.wait(d, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") != "live", message="notices the drop")
        # A tap while the server is away says so in words, not "Failed to fetch".
        self.click_seat(d, "5-3")
        message = self.wait(d, lambda d: d.find_element(By.ID, "message").text or None, timeout=10, message="offline message")
        self.assertIn("Cannot reach the server", message)
        self.wait(d, lambda d: self.status(d, "5-3") == "available", message="the offline tap rolled back")
        self.server.start()
        # Nobody reloads the page: the stream comes back by itself and delivers what happens next.
        status, _ = self.server.post(f"/v1/shows/{self.show}/holds", {"seats": ["9-9", "9-11"]})
        self.assertEqual(status, 201)
        self.wait(d, lambda d: self.status(d, "9-9") == "held", timeout=10, message="live again after the restart")
        self.assertEqual(d.find_element(By.ID, "connection").get_attribute("data-state"), "live")
        self.assertEqual(self.status(d, "5-7"), "selected", "the page's own hold survived the restart")
        self.assertEqual(self.server.statuses(self.show)[self.index(d, "5-7")], "h")


    def test_page_resyncs_after_the_machine_slept(self):
        d = self.open()
        self.wait(d, lambda d: d.find_element(By.ID, "map").get_attribute("data-snapshots") == "1", message="the stream's first snapshot")
        # A laptop lid closed for a minute: the page's clock jumps, its stream may be dead without an error.
        d.execute_script("const now = Date.now.bind(Date); Date.now = () => now() + 60000;")
        self.assert_resynced_and_live(d, timeout=8)


    def test_page_resyncs_after_the_tab_was_hidden_long(self):
        d = self.open()
        self.wait(d, lambda d: d.find_element(By.ID, "map").get_attribute("data-snapshots") == "1", message="the stream's first snapshot")
        # The tab goes to the background and comes back; the page's clock reads the time away (the same
        # script turn, so the sleep watchdog never sees the shifted clock).
        hide_and_return = """
            Object.defineProperty(document, 'visibilityState', {configurable: true, get: () => window.__visibility || 'visible'});
            window.__visibility = 'hidden'; document.dispatchEvent(new Event('visibilitychange'));
            const now = Date.now.bind(Date); Date.now = () => now() + arguments[0];
            window.__visibility = 'visible'; document.dispatchEvent(new Event('visibilitychange'));
            Date.now = now;
        """
        d.execute_script(hide_and_return, 10_000)
        time.sleep(1)
        self.assertEqual(d.find_element(By.ID, "map").get_attribute("data-snapshots"), "1", "ten seconds away: the stream is trusted")
        d.execute_script(hide_and_return, 31_000)
        self.assert_resynced_and_live(d, timeout=5)


if __name__ == "__main__":
    unittest.main(verbosity=2)
