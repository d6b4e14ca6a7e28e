"""The buyer's order at /orders/{ref}?code=… (the receipt's link): a ticket stub with the film, hall, time, seats and
total; a QR code a seat; the show's terms; a change of showing (the best seats of another showing of the same film, in
one step) and a refund, each answered on the page, the map of both shows changed accordingly. Chinese from the link on,
with no English word; screenshots at phone and desktop sizes in both languages, each axe-checked. Shared set-up: support.py."""

import os
from datetime import datetime, timedelta, timezone
import re
import urllib.request

from support import *  # noqa: F401,F403 (the suites' shared names)


class OrderPageTests(PickerCase):

    def make_show(self, show, starts, after_sale=None):
        details = {"title": {"zh": "深海", "en": "Deep Sea"}, "hall": {"zh": "3号厅", "en": "Hall 3"}, "format": "IMAX 2D",
                   "poster": "/web/poster-deep-sea.svg", "duration": 112}
        if after_sale:
            details["afterSale"] = after_sale
        status, made = self.server.send("POST", "/v1/shows", {"id": show, "venueId": "cinema-hall-3", "startsAt": starts, "details": details,
                                                              "prices": {"categories": {"standard": "38", "vip": "58", "couple": "99"}}}, admin=True)
        self.assertEqual(status, 201, made)

    def bought(self, show, seats, ref):
        """A buyer's hold on `seats`, confirmed as order `ref`: its token (the order's code)."""
        status, hold = self.server.send("POST", f"/v1/shows/{show}/holds", {"seats": seats})
        self.assertEqual(status, 201, hold)
        status, done = self.server.send("POST", f"/v1/holds/{hold['token']}/confirm", {"orderRef": ref})
        self.assertEqual(status, 200, done)
        return hold["token"]

    def open_order(self, ref, code, lang, phone=False):
        d = self.new_browser()
        if phone:
            d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        d.get(f"{self.server.url}/orders/{ref}?code={code}&lang={lang}")
        self.wait(d, lambda d: d.find_element(By.ID, "order").is_displayed(), message="the order shown")
        self.wait(d, lambda d: d.execute_script("return [...document.querySelectorAll('#tickets img')].every(i => i.complete && i.naturalWidth > 0)"),
                  message="the QR codes drawn")
        return d

    def test_zh_stub_change_refund(self):
        base = "o-" + self._testMethodName[5:].replace("_", "-")
        first, later = f"{base}-a", f"{base}-b"
        self.make_show(first, "2099-12-24T19:30:00+08:00", {"exchanges": 1, "exchangeFee": "5"})
        self.make_show(later, "2099-12-25T21:00:00+08:00")
        # A showing 59 minutes away: its refunds (60 minutes before) have closed already.
        soon = f"{base}-c"
        self.make_show(soon, (datetime.now(timezone.utc) + timedelta(minutes=59)).isoformat(timespec="seconds"))
        code = self.bought(first, ["7-1", "7-2"], "WEB-ORDER1")
        d = self.open_order("WEB-ORDER1", code, "zh", phone=True)
        stub = d.find_element(By.CSS_SELECTOR, ".stub").text
        for part in ["深海", "IMAX 2D", "3号厅", "12月24日 周四 19:30", "7排1座", "7排2座", "¥116.00", "WEB-ORDER1", "已出票"]:
            self.assertIn(part, stub)
        self.assertEqual(len(d.find_elements(By.CSS_SELECTOR, "#tickets figure img")), 2)
        terms = d.find_element(By.ID, "terms").text
        self.assertIn("可改签 1 次", terms)
        self.assertIn("手续费 ¥5.00/张", terms)
        self.assertIn("前可退票", terms)
        self.no_english(d, "the order in Chinese")
        d.save_screenshot(os.path.join(ARTIFACTS, "order-phone-zh.png"))
        self.axe(d, "the order page, phone zh")
        # Change the showing: another showing of the same film, the best seats chosen by the server.
        d.find_element(By.ID, "exchange-open").click()
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, f"#exchange-shows input[value='{later}']"), message="the other showing")
        self.assertIn("12月25日", d.find_element(By.ID, "exchange-shows").text)
        self.assertIn("¥5.00 × 2", d.find_element(By.ID, "exchange-fee").text)
        # Nothing chosen for the buyer, and nothing sent until a showing is chosen; each choice says what it gives up.
        self.assertEqual(d.execute_script("return document.querySelectorAll('#exchange-shows input:checked').length"), 0)
        self.assertTrue(d.find_element(By.CSS_SELECTOR, "#exchange-form [type=submit]").get_attribute("disabled"))
        self.assertEqual(d.find_element(By.ID, "exchange-lost").text, "请选择要改签的场次。")
        d.find_element(By.CSS_SELECTOR, f"#exchange-shows input[value='{soon}']").click()
        lost = d.find_element(By.ID, "exchange-lost").text
        self.assertIn("已过退票截止时间，改签后本订单将不可退", lost)
        self.assertIn("最后一次改签机会", lost)
        d.save_screenshot(os.path.join(ARTIFACTS, "order-exchange-phone-zh.png"))
        self.axe(d, "the change of showing, phone zh")
        d.find_element(By.CSS_SELECTOR, f"#exchange-shows input[value='{later}']").click()
        self.assertNotIn("不可退", d.find_element(By.ID, "exchange-lost").text)
        d.find_element(By.CSS_SELECTOR, "#exchange-form [type=submit]").click()
        message = self.wait(d, lambda d: d.find_element(By.ID, "message").text or None, message="the exchange answered")
        self.assertRegex(message, r"^改签成功！新座位：\d+排\d+座 \d+排\d+座。需补差价 ¥10\.00。$")
        self.assertEqual(d.execute_script("return document.activeElement.id"), "message", "focus on the answer")
        new_seats = re.findall(r"(\d+)排(\d+)座", message)
        self.assertIn("12月25日 周五 21:00", d.find_element(By.CSS_SELECTOR, ".stub").text)
        self.assertTrue(d.find_element(By.ID, "exchange-open").get_attribute("disabled"), "once only")
        self.assertIn("改签", d.find_element(By.ID, "history").text)
        sold = [i for i, s in enumerate(self.server.statuses(later)) if s == "s"]
        self.assertEqual(len(sold), 2)
        self.assertEqual([s for s in self.server.statuses(first) if s == "s"], [], "the first showing's seats back on sale")
        self.assertEqual(len(new_seats), 2)
        self.no_english(d, "the order after the change, in Chinese")
        d.save_screenshot(os.path.join(ARTIFACTS, "order-exchanged-phone-zh.png"))
        # Refund the rest: the seats go back on sale, the page says so.
        d.find_element(By.ID, "refund-open").click()
        self.assertIn("退款 ¥116.00", d.find_element(By.ID, "refund-what").text)
        d.find_element(By.CSS_SELECTOR, "#refund-form [type=submit]").click()
        message = self.wait(d, lambda d: "退票成功" in d.find_element(By.ID, "message").text and d.find_element(By.ID, "message").text, message="refunded")
        self.assertEqual(message, "退票成功，¥116.00 将原路退回。")
        self.assertEqual([s for s in self.server.statuses(later) if s == "s"], [])
        self.assertEqual(d.find_element(By.ID, "stubs").text, "本订单的座位已全部退票。")
        self.assertFalse(d.find_element(By.ID, "tickets-box").is_displayed())
        self.axe(d, "the order after the refund, phone zh")

    # A big show's published refund fees (#54): free a week out, 20 % up to a day before, ¥10 a ticket up to two hours before.
    TIERS = [{"until": 10080, "fee": "0%"}, {"until": 1440, "fee": "20%"}, {"until": 120, "fee": "¥10.00"}]

    def test_zh_phone_refund_fee_shown_before_confirming(self):
        show = "o-" + self._testMethodName[5:].replace("_", "-")
        starts = (datetime.now(timezone(timedelta(hours=8))) + timedelta(days=3)).isoformat(timespec="seconds")
        self.make_show(show, starts, {"refundTiers": self.TIERS, "oneRefundPerBuyer": True})
        code = self.bought(show, ["7-1", "7-2"], "WEB-FEE1")
        d = self.open_order("WEB-FEE1", code, "zh", phone=True)
        terms = [li.text for li in d.find_elements(By.CSS_SELECTOR, "#terms li")]
        self.assertFalse(any("免手续费" in t for t in terms if "退票" in t), f"the free tier has passed: {terms}")
        self.assertTrue(any(t.endswith("前退票：收取票价 20% 手续费（当前）") for t in terms), terms)
        self.assertTrue(any(t.endswith("前退票：手续费 ¥10.00/张") for t in terms), terms)
        self.assertIn("每位购票人本场仅可退票一次", terms)
        # The fee is said, in money, before the buyer confirms; nothing is refunded yet.
        d.find_element(By.ID, "refund-open").click()
        what = d.find_element(By.ID, "refund-what").text
        self.assertIn("票价 ¥116.00，退票手续费 ¥23.20，实退 ¥92.80，原路退回。", what)
        self.assertEqual([s for s in self.server.statuses(show) if s == "s"], ["s", "s"])
        d.save_screenshot(os.path.join(ARTIFACTS, "order-refund-fee-phone-zh.png"))
        self.axe(d, "the refund with its fee, phone zh")
        d.find_element(By.CSS_SELECTOR, "#refund-form [type=submit]").click()
        message = self.wait(d, lambda d: "退票成功" in d.find_element(By.ID, "message").text and d.find_element(By.ID, "message").text, message="refunded")
        self.assertEqual(message, "退票成功，¥92.80 将原路退回。")
        self.no_english(d, "the order after a refund with a fee, in Chinese")

    def test_en_desktop_one_refund_used_and_batch_release(self):
        show = "o-" + self._testMethodName[5:].replace("_", "-")
        starts = (datetime.now(timezone(timedelta(hours=8))) + timedelta(days=4)).isoformat(timespec="seconds")
        release = (datetime.now(timezone(timedelta(hours=8))) + timedelta(days=1)).replace(minute=0, second=0, microsecond=0)
        self.make_show(show, starts, {"refundTiers": self.TIERS, "oneRefundPerBuyer": True, "refundRelease": release.isoformat()})
        code = self.bought(show, ["7-1", "7-2", "7-3"], "WEB-FEE2")
        status, _ = self.server.send("POST", "/v1/orders/WEB-FEE2/refund", {"seats": ["7-3"], "code": code})
        self.assertEqual(status, 200)
        d = self.open_order("WEB-FEE2", code, "en")
        terms = d.find_element(By.ID, "terms").text
        self.assertIn("This showing's one refund has been used", terms)
        self.assertRegex(terms, f"Refunded seats go back on sale together at \\w+ {release.day} {release.strftime('%b %H:%M')}")
        self.assertTrue(d.find_element(By.ID, "refund-open").get_attribute("disabled"))
        # The refunded seat waits for the announced time, off sale.
        statuses = self.server.statuses(show)
        self.assertEqual((statuses.count("s"), statuses.count("b")), (2, 1))
        d.save_screenshot(os.path.join(ARTIFACTS, "order-one-refund-desktop-en.png"))
        self.axe(d, "the order with its refund used, desktop en")

    def test_a_start_written_in_utc_reads_on_the_halls_clock(self):
        # #50 item 9: a start written in UTC showed 06:33 beside deadlines at 13:33. Kept on the venues'
        # clock (+08:00), the stub, the terms and the picker all read 19:30, the refund deadline 18:30.
        base = "o-" + self._testMethodName[5:].replace("_", "-")
        show = f"{base}-a"
        self.make_show(show, "2099-12-28T11:30:00Z")
        code = self.bought(show, ["9-1"], "WEB-ORDER-UTC")
        for lang, when, deadline in [("zh", "12月28日 周一 19:30", "18:30"), ("en", "Mon 28 Dec 19:30", "18:30")]:
            d = self.open_order("WEB-ORDER-UTC", code, lang)
            stub, terms = d.find_element(By.CSS_SELECTOR, ".stub").text, d.find_element(By.ID, "terms").text
            self.assertIn(when, stub)
            self.assertNotIn("11:30", stub + terms)
            self.assertIn(deadline, terms)
            p = self.new_browser()
            p.get(f"{self.server.url}/shows/{show}?lang={lang}")
            self.wait(p, lambda p: "19:30" in p.find_element(By.TAG_NAME, "body").text, message=f"the picker's start in {lang}")
            self.assertNotIn("11:30", p.find_element(By.TAG_NAME, "body").text)

    def test_en_desktop_wrong_code(self):
        base = "o-" + self._testMethodName[5:].replace("_", "-")
        show = f"{base}-a"
        self.make_show(show, "2099-12-26T19:30:00+08:00", {"refunds": False})
        code = self.bought(show, ["8-1", "8-2", "8-3"], "WEB-ORDER2")
        d = self.open_order("WEB-ORDER2", code, "en")
        stub = d.find_element(By.CSS_SELECTOR, ".stub").text
        for part in ["Deep Sea", "Hall 3", "Sat 26 Dec 19:30", "Row 8 Seat 1", "Row 8 Seat 3", "WEB-ORDER2", "Issued"]:
            self.assertIn(part, stub)
        self.assertIn("takes no refunds online", d.find_element(By.ID, "terms").text)
        self.assertTrue(d.find_element(By.ID, "refund-open").get_attribute("disabled"))
        # Add to calendar: an .ics of the show, in the page's language.
        href = d.find_element(By.ID, "calendar").get_attribute("href")
        self.assertTrue(href.endswith("&lang=en"), href)
        ics = urllib.request.urlopen(href).read().decode()
        self.assertIn("SUMMARY:Deep Sea\r\n", ics)
        self.assertIn("DTSTART:20991226T113000Z\r\n", ics)
        d.save_screenshot(os.path.join(ARTIFACTS, "order-desktop-en.png"))
        self.axe(d, "the order page, desktop en")
        d.set_window_size(1440, 900)
        d.find_element(By.ID, "language").click()
        self.wait(d, lambda d: "深海" in d.find_element(By.CSS_SELECTOR, ".stub").text, message="in Chinese")
        d.save_screenshot(os.path.join(ARTIFACTS, "order-desktop-zh.png"))
        self.no_english(d, "the order switched to Chinese")
        # A link with another code: not found, and nothing of the order shown.
        e = self.new_browser()
        e.get(f"{self.server.url}/orders/WEB-ORDER2?code=not-the-code-0123456789&lang=en")
        failed = self.wait(e, lambda e: e.find_element(By.ID, "failed").text or None, message="refused")
        self.assertIn("cannot be found", failed)
        self.assertFalse(e.find_element(By.ID, "order").is_displayed())
        self.axe(e, "the order page, a wrong code")

    def no_english(self, d, where):
        """No English word on the page (the film's format "IMAX 2D", the order reference and the EN of the language switch aside)."""
        text = d.find_element(By.TAG_NAME, "body").text
        words = [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in ("IMAX", "WEB", "ORDER", "EN")]
        self.assertEqual(words, [], f"{where}: {text}")


if __name__ == "__main__":
    unittest.main()
