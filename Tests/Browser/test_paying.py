"""Paying (#52): with WeChat Pay and Alipay online (the payment sandbox, test money, whose signatures are the
providers' own SDKs'), the buyer's Confirm becomes Pay, and the seats are sold only when the provider says
paid: the receipt comes over the show's event stream. Shared set-up and helpers: support.py."""

import json
import os
import re
import time
import urllib.parse
import urllib.request

from support import *  # noqa: F401,F403 (the suites' shared names)


class PayingTests(PickerCase):
    payments = True

    def pick(self, d, seats, phone=False):
        for seat in seats:
            if phone:
                self.touch_tap(d, *self.seat_point(d, seat))
            else:
                self.click_seat(d, seat)
        return self.wait(d, self.settled_total, message="the seats held")

    def sandbox(self, path, body):
        request = urllib.request.Request(self.server.sandbox_url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            return json.loads(r.read())

    def statuses_of(self, indices):
        statuses = self.server.statuses(self.show)
        return [statuses[i] for i in indices]

    def test_a_phone_buyer_pays_with_alipay_in_chinese(self):
        d = self.open_phone(lang="zh")
        self.assertEqual(self.pick(d, ["7-1", "7-2"], phone=True), "¥116.00")
        chosen = {self.index(d, "7-1"), self.index(d, "7-2")}
        pay = d.find_element(By.ID, "confirm")
        self.assertEqual(pay.text, "去支付")
        pay.click()
        self.wait(d, lambda d: d.find_element(By.ID, "pay-page").is_displayed(), message="the Pay step")
        self.assertFalse(d.find_element(By.ID, "show-page").is_displayed())
        card = d.find_element(By.CSS_SELECTOR, ".pay-card")
        # What is bought and for how long the seats are kept, in Chinese; a test server says test money.
        self.assertEqual(d.find_element(By.ID, "pay-title").text, "支付订单")
        self.assertIn("7排1座", d.find_element(By.CSS_SELECTOR, ".pay-seats").text)
        self.assertEqual(d.find_element(By.CSS_SELECTOR, ".pay-total strong").text, "¥116.00")
        self.assertRegex(d.find_element(By.ID, "pay-countdown").text, r"^请在 \d\d:\d\d 内完成支付，超时座位将自动释放$")
        self.assertIn("测试金额", d.find_element(By.ID, "pay-test").text)
        names = [e.text.split("\n")[0] for e in d.find_elements(By.CSS_SELECTOR, ".pay-option .pay-name")]
        self.assertEqual(names, ["微信支付", "支付宝", "银行卡"])
        self.assertIsNone(re.search(r"[A-Za-z]{4,}", re.sub(r"VIP|Visa|Mastercard", "", card.text)), f"no English on the Chinese Pay step: {card.text}")
        d.find_element(By.CSS_SELECTOR, ".pay-option[data-provider='alipay']").click()
        self.assertEqual(d.find_element(By.ID, "pay-go").text, "确认支付 ¥116.00")
        # The whole card fits the phone's screen: nothing to scroll to reach the button.
        bottom = d.execute_script("return document.getElementById('pay-go').getBoundingClientRect().bottom")
        self.assertLessEqual(bottom, 844)
        d.save_screenshot(os.path.join(ARTIFACTS, "pay-phone-zh.png"))
        self.axe(d, "the Pay step on a phone")
        d.find_element(By.ID, "pay-go").click()
        # Alipay's phone page (wap pay), played by the sandbox's cashier: the seats are held, not sold.
        self.wait(d, lambda d: "/gateway.do" in d.current_url, message="sent to Alipay's page")
        self.assertIn("alipay.trade.wap.pay", urllib.parse.unquote(d.current_url))
        self.assertIn("¥116.00", d.find_element(By.TAG_NAME, "body").text)
        self.assertEqual(self.statuses_of(sorted(chosen)), ["h", "h"], "held while paying, not sold")
        d.save_screenshot(os.path.join(ARTIFACTS, "pay-phone-alipay-cashier.png"))
        d.find_element(By.ID, "sandbox-pay").click()
        # Back on the show's page: the receipt once the server says sold.
        self.wait(d, lambda d: d.current_url.startswith(f"{self.server.url}/shows/{self.show}"), message="back from Alipay")
        receipt = self.wait(d, lambda d: d.find_element(By.ID, "receipt").text or None, timeout=10, message="the receipt")
        self.assertIn("购买成功！", receipt)
        self.assertRegex(receipt, r"订单号 WEB-[A-Z0-9]+")
        self.assertIn("¥116.00", receipt)
        self.assertTrue(d.find_element(By.ID, "receipt-page").is_displayed())
        self.assertFalse(d.find_element(By.ID, "pay-page").is_displayed())
        self.assertEqual(self.server.sold_in_store(self.show), chosen)
        self.wait(d, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#tickets figure img")) == 2, message="two tickets")
        d.save_screenshot(os.path.join(ARTIFACTS, "pay-phone-receipt-zh.png"))
        # The payments report matches the sale: nothing paid but not sold, nothing sold but not paid.
        day = lambda offset: time.strftime("%Y-%m-%dT00:00:00Z", time.gmtime(time.time() + offset * 86400))
        status, report = self.server.send("GET", f"/v1/reports/payments?from={day(-1)}&to={day(2)}", None, admin=True)
        self.assertEqual(status, 200, report)
        mine = [p for p in report["payments"] if p["showId"] == self.show]
        self.assertEqual([(p["provider"], p["state"], p["amount"]) for p in mine], [("alipay", "succeeded", "116.00")])
        self.assertEqual(report["mismatches"], [])

    def test_a_desktop_buyer_scans_the_wechat_pay_code(self):
        d = self.open(lang="en")
        d.set_window_size(1440, 900)
        self.assertEqual(self.pick(d, ["5-1"]), "¥38.00")
        self.assertEqual(d.find_element(By.ID, "confirm").text, "Pay")
        d.find_element(By.ID, "confirm").click()
        self.wait(d, lambda d: d.find_element(By.ID, "pay-page").is_displayed(), message="the Pay step")
        self.assertEqual([e.get_attribute("value") for e in d.find_elements(By.CSS_SELECTOR, "#pay-options input")], ["wechatpay", "alipay", "stripe"])
        self.assertTrue(d.find_element(By.CSS_SELECTOR, "#pay-options input[value='wechatpay']").is_selected(), "WeChat Pay first")
        d.save_screenshot(os.path.join(ARTIFACTS, "pay-desktop-en.png"))
        d.find_element(By.ID, "pay-go").click()
        # WeChat Pay Native: the weixin:// link as a QR code, drawn by the server, and the words to scan it.
        self.wait(d, lambda d: d.execute_script("const i = document.getElementById('pay-qr'); return !i.hidden && i.complete && i.naturalWidth > 0"),
                  message="the QR code drawn")
        self.assertIn("/v1/payments/qr.svg?text=weixin%3A%2F%2Fwxpay%2F", d.find_element(By.ID, "pay-qr").get_attribute("src"))
        self.assertEqual(d.find_element(By.ID, "pay-qr").get_attribute("alt"), "WeChat Pay payment QR code")
        self.assertEqual(d.find_element(By.ID, "pay-scan").text, "Open WeChat and scan to pay")
        self.assertRegex(d.find_element(By.ID, "pay-countdown").text, r"^Pay within (14|15):\d\d; after that the seats are let go$")
        test_link = d.find_element(By.ID, "pay-test-link")
        self.assertTrue(test_link.is_displayed())
        order = urllib.parse.parse_qs(urllib.parse.urlsplit(test_link.get_attribute("href")).query)["order"][0]
        self.assertEqual(self.statuses_of([self.index(d, "5-1")]), ["h"], "held while paying, not sold")
        d.save_screenshot(os.path.join(ARTIFACTS, "pay-desktop-wechat-qr-en.png"))
        self.axe(d, "the WeChat Pay QR code")
        # The buyer's phone scans and pays: the receipt follows over the show's event stream (the
        # 5-second check is the fallback; this is well inside it).
        paid_at = time.time()
        self.assertTrue(self.sandbox("/_sandbox/pay", {"provider": "wechatpay", "order": order})["paid"])
        receipt = self.wait(d, lambda d: d.find_element(By.ID, "receipt").text or None, timeout=10, message="the receipt")
        waited = time.time() - paid_at
        self.assertLess(waited, 4.0, f"the receipt came {waited:.1f} s after the payment")
        print(f"\n  receipt {waited * 1000:.0f} ms after WeChat Pay's notification", end=" ")
        self.assertIn("Purchased!", receipt)
        self.assertIn("Row 5, seat 1", receipt)
        self.assertEqual(self.server.sold_in_store(self.show), {self.index(d, "5-1")})
        d.save_screenshot(os.path.join(ARTIFACTS, "pay-desktop-receipt-en.png"))

    def test_a_buyer_pays_by_card_on_the_page(self):
        d = self.open(lang="en")
        d.set_window_size(1280, 900)
        self.assertEqual(self.pick(d, ["4-1", "4-2"]), "¥76.00")
        chosen = {self.index(d, "4-1"), self.index(d, "4-2")}
        d.find_element(By.ID, "confirm").click()
        self.wait(d, lambda d: d.find_element(By.ID, "pay-page").is_displayed(), message="the Pay step")
        d.find_element(By.CSS_SELECTOR, ".pay-option[data-provider='stripe']").click()
        d.find_element(By.ID, "pay-go").click()
        # The card form: Stripe.js's fields (localstripe's copy here; Stripe's own frames in production).
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#pay-card-field input"), message="the card fields")
        self.assertEqual(d.find_element(By.ID, "pay-status").text, "Enter your card, then pay.")
        self.assertFalse(d.find_element(By.ID, "pay-qr").is_displayed())
        self.assertEqual(self.statuses_of(sorted(chosen)), ["h", "h"], "held while paying, not sold")

        def card(number):
            for name, value in [("number", number), ("exp_month", "12"), ("exp_year", "34"), ("cvc", "123")]:
                field = d.find_element(By.CSS_SELECTOR, f"#pay-card-field input[placeholder='{name}']")
                field.clear()
                field.send_keys(value)
        # A card the bank declines when charged: said in words, nothing sold, the form still there.
        card("4000000000000341")
        d.save_screenshot(os.path.join(ARTIFACTS, "pay-card-desktop-en.png"))
        self.axe(d, "the card form")
        d.find_element(By.ID, "pay-card-go").click()
        message = self.wait(d, lambda d: d.find_element(By.ID, "pay-message").text or None, timeout=10, message="the decline")
        self.assertEqual(message, "The card was not charged: Your card was declined. Try another card.")
        self.assertEqual(self.server.sold_in_store(self.show), set())
        self.assertTrue(d.find_element(By.ID, "pay-card").is_displayed())
        self.assertIsNone(d.execute_script("return document.getElementById('receipt').textContent || null"))
        d.save_screenshot(os.path.join(ARTIFACTS, "pay-card-declined-en.png"))

    def test_a_card_payment_sells_only_when_stripe_says_paid(self):
        d = self.open(lang="zh")
        d.set_window_size(1280, 900)
        total = self.pick(d, ["3-1"])
        d.find_element(By.ID, "confirm").click()
        self.wait(d, lambda d: d.find_element(By.ID, "pay-page").is_displayed(), message="the Pay step")
        d.find_element(By.CSS_SELECTOR, ".pay-option[data-provider='stripe']").click()
        d.find_element(By.ID, "pay-go").click()
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#pay-card-field input"), message="the card fields")
        self.assertEqual(d.find_element(By.ID, "pay-card-go").text, f"用银行卡支付 {total}")
        for name, value in [("number", "4242424242424242"), ("exp_month", "12"), ("exp_year", "34"), ("cvc", "123")]:
            d.find_element(By.CSS_SELECTOR, f"#pay-card-field input[placeholder='{name}']").send_keys(value)
        paid_at = time.time()
        d.find_element(By.ID, "pay-card-go").click()
        # Stripe's signed webhook sells; the receipt follows the server.
        receipt = self.wait(d, lambda d: d.find_element(By.ID, "receipt").text or None, timeout=15, message="the receipt")
        print(f"\n  card receipt {(time.time() - paid_at) * 1000:.0f} ms after Pay", end=" ")
        self.assertIn("购买成功！", receipt)
        self.assertIn(total, receipt)
        self.assertEqual(self.server.sold_in_store(self.show), {self.index(d, "3-1")})
        day = lambda offset: time.strftime("%Y-%m-%dT00:00:00Z", time.gmtime(time.time() + offset * 86400))
        status, report = self.server.send("GET", f"/v1/reports/payments?from={day(-1)}&to={day(2)}", None, admin=True)
        mine = [(p["provider"], p["state"], p["amount"]) for p in report["payments"] if p["provider"] == "stripe" and p["state"] == "succeeded"]
        self.assertEqual(mine, [("stripe", "succeeded", total.lstrip("¥"))])
        self.assertEqual(report["mismatches"], [])
        d.save_screenshot(os.path.join(ARTIFACTS, "pay-card-receipt-zh.png"))

    def test_the_pay_step_cannot_be_skipped(self):
        d = self.open(lang="en")
        self.pick(d, ["6-1"])
        token = d.execute_script("return document.getElementById('map').picker.session.token")
        # The page never confirms for free: the server refuses a buyer's confirm while money is taken online.
        status, problem = self.server.send("POST", f"/v1/holds/{token}/confirm", {"orderRef": "FREE-1"})
        self.assertEqual((status, problem["type"]), (402, "/problems/payment-required"))
        # Back from the Pay step to the seats: the hold is untouched and can still change.
        d.find_element(By.ID, "confirm").click()
        self.wait(d, lambda d: d.find_element(By.ID, "pay-page").is_displayed(), message="the Pay step")
        d.find_element(By.ID, "pay-back").click()
        self.assertTrue(d.find_element(By.ID, "show-page").is_displayed())
        self.click_seat(d, "6-2")
        self.assertEqual(self.wait(d, self.settled_total, message="two seats"), "¥116.00")
        self.assertEqual(self.server.sold_in_store(self.show), set())

    def test_the_console_shows_the_money(self):
        # A buyer pays with WeChat Pay (through the API, as the page does); then a manager reads it all.
        status, hold = self.server.post(f"/v1/shows/{self.show}/holds", {"seats": ["8-1", "8-2"]})
        self.assertEqual(status, 201, hold)
        status, checkout = self.server.post(f"/v1/holds/{hold['token']}/checkout", {"provider": "wechatpay", "orderRef": "WX-CONSOLE-1"})
        self.assertEqual(status, 201, checkout)
        self.assertTrue(self.sandbox("/_sandbox/pay", {"provider": "wechatpay", "order": checkout["payment"]["id"][4:]})["paid"])
        d = self.sign_in_console(MANAGER_KEY)
        d.set_window_size(1440, 1000)
        # The reconciliation: the payment matched to its sale, and the verdict says so.
        verdict = self.wait(d, lambda d: d.find_element(By.CSS_SELECTOR, "#money-report .money-verdict").text or None, message="the verdict")
        self.assertRegex(verdict, r"^All matched: \d+ payments, no mismatch\.$")
        rows = d.find_elements(By.CSS_SELECTOR, "[data-table='payments'] tbody tr")
        line = next(r.text for r in rows if "WX-CONSOLE-1" in r.text)
        self.assertIn("WeChat Pay", line)
        self.assertRegex(line, r"4200\d{8}")
        self.assertIn("¥116.00", line)
        # The order found at the desk: its payment with WeChat Pay's transaction id; refunded, the money
        # goes back through WeChat Pay and the desk says it succeeded, with WeChat Pay's refund id.
        d.find_element(By.ID, "search-q").send_keys("WX-CONSOLE-1")
        d.find_element(By.CSS_SELECTOR, "#search-form button").click()
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#search-results .search-result"), message="the order found")[0].click()
        payments = self.wait(d, lambda d: d.find_element(By.CSS_SELECTOR, "[data-table='order-payments']").text or None, message="the order's payments")
        self.assertIn("WeChat Pay", payments)
        self.assertRegex(payments, r"4200\d{8}")
        status, refunded = self.server.send("POST", "/v1/orders/WX-CONSOLE-1/refund", {"seats": ["8-1"], "reason": "cannot come"}, admin=True)
        self.assertEqual(status, 200, refunded)
        d.find_element(By.CSS_SELECTOR, "#search-results .search-result").click()
        back = self.wait(d, lambda d: (t := d.find_element(By.CSS_SELECTOR, "[data-table='order-money-back']").text) and "¥58.00" in t and t,
                         message="the refund through WeChat Pay")
        self.assertIn("Succeeded", back)
        self.assertRegex(back, r"50\d{6,}|WXR|[0-9A-Za-z]{10,}")
        # A webhook endpoint added by the manager: listed, its secret shown once.
        d.find_element(By.ID, "webhook-url").send_keys("https://crm.example.cn/seatkit")
        d.find_element(By.CSS_SELECTOR, "#webhook-form button[type='submit']").click()
        said = self.wait(d, lambda d: d.find_element(By.ID, "money-message").text or None, message="the endpoint added")
        self.assertRegex(said, r"whsec_[A-Za-z0-9+/=]{20,}")
        self.wait(d, lambda d: "https://crm.example.cn/seatkit" in d.find_element(By.CSS_SELECTOR, "[data-table='endpoints']").text, message="listed")
        d.find_element(By.CSS_SELECTOR, "[data-table='endpoints'] tbody tr button").click()
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-table='deliveries']"), message="its deliveries")
        d.execute_script("document.getElementById('money').scrollIntoView()")
        d.save_screenshot(os.path.join(ARTIFACTS, "console-money-en.png"))
        self.axe(d, "the console's money")
