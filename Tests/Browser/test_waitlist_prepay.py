"""A prepaid waitlist (候补 with prepayment, #54): the buyer pays the most their seats can cost when joining,
with WeChat Pay (a QR code on a desktop) or Alipay (its page on a phone), against the payment sandbox; the
card says when the provider has it, a returned seat is then bought for them at once (the card links the
e-tickets), and leaving gives the money back. Chinese at desktop size, English at phone size, each
axe-checked. Shared set-up: support.py."""

import json
import os
import urllib.request

from support import *  # noqa: F401,F403 (the suites' shared names)


class WaitlistPrepayTests(PickerCase):
    payments = True

    def setUp(self):
        super().setUp()
        status, made = self.server.send("PATCH", f"/v1/shows/{self.show}", {"details": {"waitlist": {"offerMinutes": 5, "prepay": True}}},
                                        admin=True)
        self.assertEqual(status, 200, made)
        self.ref = f"SOLD-{self.show[-12:]}"
        status, sold = self.server.send("POST", f"/v1/shows/{self.show}/sales",
                                        {"seats": ["7-1"], "orderRef": self.ref, "payment": "cash"}, admin=True)
        self.assertEqual(status, 201, sold)

    def sandbox(self, path, body):
        request = urllib.request.Request(self.server.sandbox_url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as r:
            return json.loads(r.read())

    def join(self, d, provider):
        Select(d.find_element(By.ID, "waitlist-price")).select_by_value("vip")
        Select(d.find_element(By.ID, "waitlist-provider")).select_by_value(provider)
        d.find_element(By.CSS_SELECTOR, "#waitlist-form button").click()
        return self.wait(d, lambda d: d.find_element(By.ID, "waitlist-pay").is_displayed() and d.find_element(By.ID, "waitlist-pay-what").text,
                         message="the prepayment to make")

    def kept_payment(self, d):
        return json.loads(d.execute_script(f"return localStorage.getItem('seatkit.waitlist.{self.show}.payment')"))

    def message(self, d, text):
        return self.wait(d, lambda d: text in d.find_element(By.ID, "message").text and d.find_element(By.ID, "message").text,
                         timeout=10, message=text)

    def test_prepaid_zh_desktop(self):
        d = self.open(lang="zh")
        self.assertEqual([o.text for o in Select(d.find_element(By.ID, "waitlist-provider")).options], ["微信支付", "支付宝"])
        self.assertIn("无票全额退款", d.find_element(By.ID, "waitlist-prepay-note").text.replace("未成功全额退款", "无票全额退款"))
        self.assertEqual(self.join(d, "wechatpay"), "请预付 ¥58.00，支付后即开始候补")
        self.wait(d, lambda d: d.execute_script("const i = document.getElementById('waitlist-qr'); return i.complete && i.naturalWidth > 0"),
                  message="WeChat Pay's QR code drawn")
        d.save_screenshot(os.path.join(ARTIFACTS, "waitlist-prepay-qr-desktop-zh.png"))
        self.axe(d, "the waitlist prepayment's QR code, desktop zh")
        # The buyer scans and pays: the card says they are in line, paid.
        payment = self.kept_payment(d)
        self.assertTrue(self.sandbox("/_sandbox/pay", {"provider": "wechatpay", "order": payment["id"][4:]})["paid"])
        self.assertEqual(self.message(d, "预付成功"), "预付成功，您排在第 1 位，有票将自动为您出票。")
        self.assertFalse(d.find_element(By.ID, "waitlist-pay").is_displayed())
        self.assertEqual(d.find_element(By.ID, "waitlist-money").text, "已预付 ¥58.00，无票全额退款")
        # 7-1 comes back: bought for them at once, the e-tickets a link away.
        status, _ = self.server.send("POST", f"/v1/orders/{self.ref}/refund", {"seats": ["7-1"], "reason": "guest ill"}, admin=True)
        self.assertEqual(status, 200)
        self.assertEqual(self.message(d, "候补成功"), "候补成功！已为您购得 7排1座。")
        link = d.find_element(By.ID, "waitlist-order")
        self.assertTrue(link.is_displayed())
        self.assertEqual(link.text, "查看电子票")
        self.assertIn(self.index(d, "7-1"), self.server.sold_in_store(self.show))
        d.save_screenshot(os.path.join(ARTIFACTS, "waitlist-prepay-bought-desktop-zh.png"))
        self.axe(d, "the prepaid waitlist, bought, desktop zh")
        link.click()
        self.wait(d, lambda d: "7排1座" in d.find_element(By.TAG_NAME, "body").text, message="the order's page")

    def test_prepaid_en_phone(self):
        d = self.open_phone(lang="en")
        self.assertEqual(self.join(d, "alipay"), "Prepay ¥58.00 to start waiting")
        link = d.find_element(By.ID, "waitlist-pay-link")
        self.assertTrue(link.is_displayed())
        self.assertFalse(d.find_element(By.ID, "waitlist-qr").is_displayed(), "a phone cannot scan its own screen")
        self.assertEqual(link.text, "Pay now · Alipay")
        self.assertLessEqual(d.execute_script("return document.documentElement.scrollWidth"), 390, "no sideways scrolling on a phone")
        d.save_screenshot(os.path.join(ARTIFACTS, "waitlist-prepay-phone-en.png"))
        self.axe(d, "the waitlist prepayment, phone en")
        # Alipay's phone page (the sandbox's cashier), then back on the show's page, in line.
        link.click()
        self.wait(d, lambda d: "/gateway.do" in d.current_url, message="sent to Alipay's page")
        d.find_element(By.ID, "sandbox-pay").click()
        self.wait(d, lambda d: d.current_url.startswith(f"{self.server.url}/shows/{self.show}"), message="back from Alipay")
        self.wait(d, lambda d: d.find_element(By.ID, "waitlist-money").text == "¥58.00 prepaid, all back if no seats come", timeout=10,
                  message="prepaid")
        self.assertEqual(d.find_element(By.ID, "waitlist-place").text, "On the waitlist: number 1 · 1 ticket · VIP ¥58.00")
        # They leave: the money goes back the way it came, and the card says so.
        leave = d.find_element(By.ID, "waitlist-leave")
        d.execute_script("arguments[0].scrollIntoView({block: 'center'})", leave)
        leave.click()
        self.wait(d, lambda d: d.find_element(By.ID, "waitlist-money").text == "¥58.00 refunded the way you paid", message="refunded")
        self.assertTrue(d.find_element(By.ID, "waitlist-form").is_displayed())
        d.save_screenshot(os.path.join(ARTIFACTS, "waitlist-prepay-refunded-phone-en.png"))
        self.axe(d, "the waitlist refunded, phone en")
