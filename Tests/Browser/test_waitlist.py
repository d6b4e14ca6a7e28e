"""The waitlist (候补, #54): a buyer joins the line on the show's page, sees their place, and when a seat is
given back the offer arrives while the page is open: the seat turns theirs on the map, the buy bar counts down,
and they buy it. Chinese at phone size, English at desktop size, each axe-checked. Shared set-up: support.py."""

import os
import time

from support import *  # noqa: F401,F403 (the suites' shared names)


class WaitlistTests(PickerCase):

    def setUp(self):
        super().setUp()
        status, made = self.server.send("PATCH", f"/v1/shows/{self.show}", {"details": {"waitlist": {"offerMinutes": 5}}}, admin=True)
        self.assertEqual(status, 200, made)
        status, sold = self.server.send("POST", f"/v1/shows/{self.show}/sales",
                                        {"seats": ["7-1", "7-2"], "orderRef": f"SOLD-{self.show[-12:]}", "payment": "cash"}, admin=True)
        self.assertEqual(status, 201, sold)
        self.ref = f"SOLD-{self.show[-12:]}"

    def join(self, d, category, count):
        Select(d.find_element(By.ID, "waitlist-price")).select_by_value(category)
        field = d.find_element(By.ID, "waitlist-count")
        field.clear()
        field.send_keys(str(count))
        d.find_element(By.CSS_SELECTOR, "#waitlist-form button").click()
        return self.wait(d, lambda d: d.find_element(By.ID, "waitlist-place").is_displayed() and d.find_element(By.ID, "waitlist-place").text,
                         message="the place in line")

    def test_zh_phone_an_offer_arrives_while_the_page_is_open(self):
        d = self.open_phone(lang="zh")
        self.assertEqual(d.find_element(By.ID, "waitlist-title").text, "候补购票")
        place = self.join(d, "vip", 1)
        self.assertEqual(place, "候补中：第 1 位 · 1 张 · VIP ¥58.00")
        d.save_screenshot(os.path.join(ARTIFACTS, "waitlist-waiting-phone-zh.png"))
        self.axe(d, "the waitlist, waiting, phone zh")
        # The box office refunds 7-1: the seat goes to the line, and the offer shows on the open page.
        status, _ = self.server.send("POST", f"/v1/orders/{self.ref}/refund", {"seats": ["7-1"], "reason": "guest ill"}, admin=True)
        self.assertEqual(status, 200)
        started = time.time()
        message = self.wait(d, lambda d: "候补成功" in d.find_element(By.ID, "message").text and d.find_element(By.ID, "message").text,
                            timeout=5, message="the offer on the page")
        print(f"waitlist offer on the page {time.time() - started:.2f} s after the refund")
        self.assertRegex(message, r"^候补成功！7排1座 已为您保留至 \d\d:\d\d，请尽快支付。$")
        self.wait(d, lambda d: self.status(d, "7-1") == "selected" and self.settled_total(d) == "¥58.00", message="the seat is the buyer's")
        self.assertFalse(d.find_element(By.ID, "waitlist-place").is_displayed())
        self.assertEqual(self.server.statuses(self.show)[self.index(d, "7-1")], "h", "held for the buyer, not on sale")
        d.save_screenshot(os.path.join(ARTIFACTS, "waitlist-offered-phone-zh.png"))
        self.axe(d, "the waitlist offer, phone zh")
        # They buy it (no provider on this server: the confirm sells it).
        self.click_fresh(d, "#confirm")
        self.wait(d, lambda d: self.status(d, "7-1") == "sold", message="bought")

    def test_en_desktop_place_in_line_and_leaving(self):
        status, first = self.server.send("POST", f"/v1/shows/{self.show}/waitlist", {"price": "vip", "count": 2})
        self.assertEqual(status, 201, first)
        d = self.open(lang="en")
        place = self.join(d, "vip", 2)
        self.assertEqual(place, "On the waitlist: number 2 · 2 tickets · VIP ¥58.00")
        # A seat back is not enough for the first in line (two together): nobody's offer, not on sale either.
        status, _ = self.server.send("POST", f"/v1/orders/{self.ref}/refund", {"seats": ["7-1"], "reason": "moved"}, admin=True)
        self.assertEqual(status, 200)
        time.sleep(1.0)
        self.assertEqual(self.status(d, "7-1"), "blocked")
        d.save_screenshot(os.path.join(ARTIFACTS, "waitlist-waiting-desktop-en.png"))
        self.axe(d, "the waitlist, desktop en")
        d.find_element(By.ID, "waitlist-leave").click()
        self.wait(d, lambda d: d.find_element(By.ID, "message").text == "You have left the waitlist.", message="left")
        self.assertTrue(d.find_element(By.ID, "waitlist-form").is_displayed())

    def test_en_phone_and_zh_desktop_waitlist_cards(self):
        # The card in the other two pairings: English at phone size, Chinese at desktop size, each with a place.
        p = self.open_phone(lang="en")
        self.assertEqual(p.find_element(By.ID, "waitlist-title").text, "Waitlist for returned seats")
        self.assertEqual(self.join(p, "vip", 1), "On the waitlist: number 1 · 1 ticket · VIP ¥58.00")
        self.assertLessEqual(p.execute_script("return document.documentElement.scrollWidth"), 390, "no sideways scrolling on a phone")
        p.save_screenshot(os.path.join(ARTIFACTS, "waitlist-waiting-phone-en.png"))
        self.axe(p, "the waitlist, phone en")
        d = self.open(lang="zh")
        self.assertEqual(self.join(d, "standard", 2), "候补中：第 2 位 · 2 张 · 普通 ¥33.00–¥38.00")
        d.save_screenshot(os.path.join(ARTIFACTS, "waitlist-waiting-desktop-zh.png"))
        self.axe(d, "the waitlist, desktop zh")
