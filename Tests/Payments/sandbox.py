#!/usr/bin/env python3
"""A local WeChat Pay (API v3) and Alipay for SeatKit's tests and `make demo` (test money only).

It keeps orders in memory, checks every request SeatKit signs and signs every answer and notification
it sends, with the providers' own SDKs from PyPI where they have the code (`wechatpayv3`: RSA signing,
AES-256-GCM opening; `python-alipay-sdk`: RSA2 signing and verifying, its parameter ordering), so
SeatKit's Swift is checked against the code merchants run, not only against itself. PKCS#1 v1.5
signatures are deterministic: a request is accepted only when the SDK, given the merchant's key and the
same text, makes the very same signature.

    python3 Tests/Payments/sandbox.py --port 8431 [--keys Tests/Payments/keys]

Routes, as the providers have them:
    POST /v3/pay/transactions/native | /jsapi | /h5  GET  /v3/pay/transactions/out-trade-no/{no}?mchid=
    POST /v3/pay/transactions/out-trade-no/{no}/close POST /v3/refund/domestic/refunds
    POST /gateway.do  (alipay.trade.precreate, .query, .close, .refund)   GET /gateway.do (page and wap pay)
and the sandbox's own (what a buyer or a test does):
    GET  /_sandbox/cashier?provider=&order=  the buyer's test-money cashier (WeChat Pay H5's page, Alipay's
                                             page and wap pay, and `make demo`'s "pay with test money")
    POST /_sandbox/cashier                   its Pay button: pays, notifies, sends the buyer back
    POST /_sandbox/pay           {"provider", "order", "notify": true}  the buyer pays; the notification is sent
    POST /_sandbox/notification  {"provider", "order", ...overrides}   a signed notification, returned, not sent
    POST /_sandbox/refunds       {"fail": 503 | 400 | 0}               refunds refused from now on (0: taken again)
    POST /_sandbox/outage        {"down": true | false}                 the provider down: its API drops every
                                                                        connection unanswered (the cashier and
                                                                        the sandbox's own routes still answer)
    GET  /_sandbox/orders        every order and refund
    GET  /_sandbox/health
"""
import argparse
import base64
import html
import json
import os
import secrets
import threading
import time
import urllib.parse
import urllib.request
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from alipay import AliPay
from cryptography.hazmat.primitives.asymmetric.padding import PKCS1v15
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.x509 import load_pem_x509_certificate
from wechatpayv3.utils import aes_decrypt, load_private_key, rsa_sign, rsa_verify

CHINA = timezone(timedelta(hours=8))


class Sandbox:
    def __init__(self, keys, mchid, appid, apiv3_key, alipay_app_id):
        def read(name):
            with open(os.path.join(keys, name)) as f:
                return f.read()

        self.mchid, self.appid, self.apiv3_key, self.alipay_app_id = mchid, appid, apiv3_key, alipay_app_id
        self.merchant_key = load_private_key(read("merchant-key.pem"))
        self.merchant_cert = load_pem_x509_certificate(read("merchant-cert.pem").encode())
        self.merchant_serial = format(self.merchant_cert.serial_number, "X")
        self.platform_key = load_private_key(read("platform-key.pem"))
        self.platform_cert = load_pem_x509_certificate(read("platform-cert.pem").encode())
        self.platform_serial = format(self.platform_cert.serial_number, "X")
        # Alipay's SDK, turned around: it signs with "the app key" (here Alipay's own) and verifies with
        # "Alipay's public key" (here the app's), so its code checks what SeatKit sends.
        self.alipay = AliPay(appid=alipay_app_id, app_private_key_string=read("alipay-key.pem"),
                             alipay_public_key_string=read("alipay-app-public.pem"))
        # The app's own SDK view, to check that SeatKit verifies what Alipay's SDK signs.
        self.alipay_app = AliPay(appid=alipay_app_id, app_private_key_string=read("alipay-app-key.pem"),
                                 alipay_public_key_string="-----BEGIN PUBLIC KEY-----\n" + read("alipay-public.txt") + "\n-----END PUBLIC KEY-----\n")
        self.lock = threading.Lock()
        self.orders = {}  # (provider, out_trade_no) -> dict
        self.refunds = {}  # (provider, refund key) -> dict
        self.requests = []  # what SeatKit called, for the tests
        self.refund_failure = 0  # a status every refund call answers with (0: none), for the tests
        self.down = False  # the provider's API unreachable (an outage), for the tests

    # --- WeChat Pay -----------------------------------------------------------------------------------

    def wechat_check(self, method, path, headers, body):
        """SeatKit's Authorization: the merchant's fields, fresh, and the very signature the SDK makes."""
        auth = headers.get("Authorization", "")
        scheme = "WECHATPAY2-SHA256-RSA2048 "
        if not auth.startswith(scheme):
            return "SIGN_ERROR", "no WECHATPAY2-SHA256-RSA2048 Authorization"
        fields = dict(part.split("=", 1) for part in auth[len(scheme):].split(","))
        fields = {k.strip(): v.strip().strip('"') for k, v in fields.items()}
        if fields.get("mchid") != self.mchid or fields.get("serial_no", "").upper() != self.merchant_serial:
            return "SIGN_ERROR", "mchid or serial_no is not this merchant's"
        if abs(time.time() - int(fields.get("timestamp", "0"))) > 300:
            return "SIGN_ERROR", "timestamp too far from now"
        sign_str = "%s\n%s\n%s\n%s\n%s\n" % (method, path, fields["timestamp"], fields["nonce_str"], body)
        if rsa_sign(self.merchant_key, sign_str) != fields.get("signature"):
            return "SIGN_ERROR", "the signature is not the one the SDK makes with the merchant key"
        try:
            self.merchant_cert.public_key().verify(base64.b64decode(fields["signature"]), sign_str.encode(), PKCS1v15(), SHA256())
        except Exception:
            return "SIGN_ERROR", "the signature does not verify with the merchant certificate"
        return None

    def wechat_signed(self, body, key=None, timestamp=None, serial=None):
        """Headers signing `body` as WeChat Pay signs answers and notifications (the SDK's rsa_sign)."""
        ts, nonce = str(timestamp or int(time.time())), secrets.token_hex(16).upper()
        signature = rsa_sign(key or self.platform_key, "%s\n%s\n%s\n" % (ts, nonce, body))
        if key is None:
            assert rsa_verify(ts, nonce, body, signature, self.platform_cert.public_key())
        return {"Wechatpay-Timestamp": ts, "Wechatpay-Nonce": nonce, "Wechatpay-Signature": signature,
                "Wechatpay-Serial": serial or self.platform_serial}

    def wechat_transaction(self, order):
        t = {"appid": order["appid"], "mchid": order["mchid"], "out_trade_no": order["out_trade_no"], "trade_state": order["state"],
             "trade_state_desc": order["state"], "amount": {"total": order["amount"], "payer_total": order["amount"], "currency": "CNY",
                                                           "payer_currency": "CNY"}, "attach": order.get("attach", "")}
        if order.get("transaction_id"):
            t.update(transaction_id=order["transaction_id"], trade_type=order["trade_type"], bank_type="OTHERS",
                     success_time=order.get("success_time", ""), payer={"openid": order.get("openid", "oUpF8uMuAJO_M2pxb1Q9zNjWeS6o")})
        return t

    def wechat_notification(self, order, overrides):
        transaction = self.wechat_transaction(order)
        for k in ("mchid", "appid", "trade_state", "out_trade_no"):
            if k in overrides:
                transaction[k] = overrides[k]
        if "amount" in overrides:
            transaction["amount"]["total"] = overrides["amount"]
        plain = json.dumps(transaction, ensure_ascii=False)
        nonce, aad = secrets.token_hex(6), "transaction"
        key = overrides.get("apiV3Key", self.apiv3_key).encode()
        ciphertext = base64.b64encode(AESGCM(key).encrypt(nonce.encode(), plain.encode(), aad.encode())).decode()
        if "apiV3Key" not in overrides:
            assert aes_decrypt(nonce, ciphertext, aad, self.apiv3_key) == plain  # the SDK opens what was sealed
        body = json.dumps({
            "id": "EV-" + secrets.token_hex(8), "create_time": datetime.now(CHINA).isoformat(timespec="seconds"),
            "resource_type": "encrypt-resource", "event_type": "TRANSACTION." + transaction["trade_state"], "summary": "支付成功",
            "resource": {"original_type": "transaction", "algorithm": "AEAD_AES_256_GCM", "ciphertext": ciphertext,
                         "associated_data": aad, "nonce": nonce}}, ensure_ascii=False)
        forged = self.merchant_key if overrides.get("forge") else None
        ts = int(time.time()) + int(overrides.get("timestampOffset", 0))
        return order["notify_url"], self.wechat_signed(body, key=forged, timestamp=ts, serial=overrides.get("serial")), body

    # --- Alipay ---------------------------------------------------------------------------------------

    def alipay_check(self, params):
        """SeatKit's RSA2 over every parameter but `sign`, ordered the SDK's way, verified by the SDK."""
        params = dict(params)
        sign = params.pop("sign", "")
        if params.get("app_id") != self.alipay_app_id or params.get("sign_type") != "RSA2":
            return "isv.invalid-app-id", "app_id or sign_type is not this app's"
        message = "&".join("{}={}".format(k, v) for k, v in self.alipay._ordered_data(params))
        if not self.alipay._verify(message, sign):
            return "isv.invalid-signature", "the signature does not verify with the app's public key"
        return None

    def alipay_answer(self, method, response):
        """An answer as Alipay writes it: the response object's exact text, signed by the SDK."""
        key = method.replace(".", "_") + "_response"
        raw = json.dumps(response, ensure_ascii=False, separators=(",", ":"))
        text = '{"%s":%s,"sign":"%s"}' % (key, raw, self.alipay._sign(raw))
        assert self.alipay_app._verify_and_return_sync_response(text, key) == response  # the app's SDK reads it back
        return text

    def alipay_notification(self, order, overrides):
        now = datetime.now(CHINA).strftime("%Y-%m-%d %H:%M:%S")
        data = {"notify_time": now, "notify_type": "trade_status_sync", "notify_id": secrets.token_hex(16), "app_id": self.alipay_app_id,
                "charset": "utf-8", "version": "1.0", "trade_no": order.get("trade_no", ""), "out_trade_no": order["out_trade_no"],
                "trade_status": order["state"], "total_amount": yuan(order["amount"]), "receipt_amount": yuan(order["amount"]),
                "buyer_pay_amount": yuan(order["amount"]), "subject": order["subject"], "gmt_create": order["created"],
                "gmt_payment": order.get("paid", ""), "seller_id": "2088102177846880", "buyer_logon_id": "159****5620"}
        for k in ("app_id", "trade_status", "total_amount", "out_trade_no"):
            if k in overrides:
                data[k] = overrides[k]
        data = {k: v for k, v in data.items() if v != ""}
        signer = self.alipay_app if overrides.get("forge") else self.alipay
        sign = signer._sign("&".join("{}={}".format(k, v) for k, v in sorted(data.items())))
        if not overrides.get("forge"):
            assert self.alipay_app.verify(dict(data, sign_type="RSA2"), sign)  # the app's SDK accepts it
        body = "&".join("{}={}".format(k, urllib.parse.quote_plus(v)) for k, v in list(data.items()) + [("sign_type", "RSA2"), ("sign", sign)])
        return order["notify_url"], {"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"}, body

    # --- both -----------------------------------------------------------------------------------------

    def pay(self, provider, number):
        with self.lock:
            order = self.orders.get((provider, number))
            if order is None:
                return None, "no such order"
            if order["state"] not in ("NOTPAY", "WAIT_BUYER_PAY"):
                return order, "the order is " + order["state"]
            if order["expires"] and time.time() > order["expires"]:
                return order, "the order expired"
            stamp = datetime.now(CHINA)
            if provider == "wechatpay":
                order.update(state="SUCCESS", transaction_id="4200" + stamp.strftime("%Y%m%d") + secrets.token_hex(10)[:18],
                             success_time=stamp.isoformat(timespec="seconds"))
            else:
                order.update(state="TRADE_SUCCESS", trade_no=stamp.strftime("%Y%m%d") + "22001" + secrets.token_hex(8)[:13],
                             paid=stamp.strftime("%Y-%m-%d %H:%M:%S"))
            return order, None

    def notification(self, provider, order, overrides):
        if provider == "wechatpay":
            return self.wechat_notification(order, overrides)
        return self.alipay_notification(order, overrides)


CASHIER = """<!doctype html><html lang="%(lang)s"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><title>%(title)s</title>
<style>body{font:16px/1.5 system-ui,"Noto Sans CJK SC",sans-serif;margin:0;background:#f4f5f7;color:#1f2329}
main{max-width:26rem;margin:0 auto;padding:1.5rem 1rem;text-align:center}
.banner{background:#ffe8a3;color:#5c3d00;border-radius:.5rem;padding:.5rem;font-weight:600}
.amount{font-size:2.5rem;font-weight:700;margin:.5rem 0}.order,.subject{color:#4e5969;font-size:.9rem;word-break:break-all}
button{font:inherit;font-weight:600;font-size:1.1rem;background:#1a7f37;color:#fff;border:0;border-radius:.5rem;padding:.8rem 1rem;
width:100%%;min-height:3rem}button small{display:block;font-weight:400;font-size:.85rem}.why{color:#b42318}a{color:#0b57d0}</style></head>
<body><main><h1>%(title)s</h1><p class=banner>测试环境，不会扣真实的钱 · Sandbox: no real money moves</p>%(body)s</main></body></html>"""


def yuan(fen):
    return "%d.%02d" % (fen // 100, fen % 100)


def fen(text):
    whole, _, part = text.partition(".")
    return int(whole) * 100 + int((part + "00")[:2])


def send(url, headers, body):
    request = urllib.request.Request(url, data=body.encode(), headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()
    except Exception as error:  # SeatKit down: a provider tries again later
        return 0, str(error)


def handler(sandbox):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def answer(self, status, body="", headers=None, content_type="application/json"):
            data = body.encode() if isinstance(body, str) else body
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(data)

        def wechat(self, status, payload):
            body = "" if payload is None else json.dumps(payload, ensure_ascii=False)
            self.answer(status, body, sandbox.wechat_signed(body))

        def body(self):
            length = int(self.headers.get("Content-Length") or 0)
            return self.rfile.read(length).decode() if length else ""

        def unreachable(self, url):
            """During an outage the provider's API answers nothing: the connection is dropped."""
            if sandbox.down and not url.path.startswith("/_sandbox/"):
                self.close_connection = True
                return True
            return False

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            if self.unreachable(url):
                return
            if url.path == "/_sandbox/health":
                return self.answer(200, '{"ok":true}')
            if url.path == "/_sandbox/orders":
                with sandbox.lock:
                    return self.answer(200, json.dumps({"orders": list(sandbox.orders.values()), "refunds": list(sandbox.refunds.values()),
                                                        "requests": sandbox.requests}, ensure_ascii=False))
            if url.path.startswith("/v3/pay/transactions/out-trade-no/"):
                failure = sandbox.wechat_check("GET", self.path, self.headers, "")
                if failure:
                    return self.wechat(401, {"code": failure[0], "message": failure[1]})
                number = url.path.rsplit("/", 1)[1]
                with sandbox.lock:
                    sandbox.requests.append("wechatpay query " + number)
                    order = sandbox.orders.get(("wechatpay", number))
                    if order is None:
                        return self.wechat(404, {"code": "ORDER_NOT_EXIST", "message": "订单不存在"})
                    return self.wechat(200, sandbox.wechat_transaction(order))
            if url.path == "/gateway.do":  # page or wap pay: the buyer's browser opens the signed link
                params = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
                failure = sandbox.alipay_check(params)
                if failure:
                    return self.answer(400, "<p>%s</p>" % html.escape(failure[1]), content_type="text/html; charset=utf-8")
                number = self.alipay_create(params, "wap" if params.get("method") == "alipay.trade.wap.pay" else "page")
                return self.cashier("alipay", number, params.get("return_url", ""))
            if url.path == "/_sandbox/cashier":
                query = dict(urllib.parse.parse_qsl(url.query))
                return self.cashier(query.get("provider", ""), query.get("order", ""), query.get("redirect_url", query.get("return", "")))
            self.answer(404, '{"code":"NOT_FOUND"}')

        def cashier(self, provider, number, back, note=""):
            """The buyer's test-money cashier: what is paid, for whom, and one button."""
            with sandbox.lock:
                order = dict(sandbox.orders.get((provider, number)) or {})
            if not order:
                return self.answer(404, CASHIER % {"title": "没有这笔订单 · No such order", "body": "", "lang": "zh"}, content_type="text/html; charset=utf-8")
            name = {"wechatpay": "微信支付 WeChat Pay", "alipay": "支付宝 Alipay"}.get(provider, provider)
            state = order["state"]
            if state in ("NOTPAY", "WAIT_BUYER_PAY"):
                action = ('<form method="post" action="/_sandbox/cashier"><input type="hidden" name="provider" value="%s">'
                          '<input type="hidden" name="order" value="%s"><input type="hidden" name="back" value="%s">'
                          '<button type="submit" id="sandbox-pay">确认付款 ¥%s<small>Pay (test money)</small></button></form>'
                          % (html.escape(provider), html.escape(number), html.escape(back), yuan(order["amount"])))
            else:
                action = "<p class=state>%s</p>" % html.escape(state)
            back_link = '<p><a href="%s">返回商家 · Back to the shop</a></p>' % html.escape(back) if back else ""
            body = ('<p class=provider>%s</p><p class=amount>¥%s</p><p class=subject>%s</p><p class=order>%s</p>%s%s%s'
                    % (name, yuan(order["amount"]), html.escape(order.get("subject", "")), html.escape(number), note, action, back_link))
            self.answer(200, CASHIER % {"title": "测试付款 · Test money", "body": body, "lang": "zh"}, content_type="text/html; charset=utf-8")

        def alipay_create(self, params, kind):
            biz = json.loads(params.get("biz_content", "{}"))
            number = biz["out_trade_no"]
            expires = 0
            if biz.get("time_expire"):
                expires = datetime.strptime(biz["time_expire"], "%Y-%m-%d %H:%M:%S").replace(tzinfo=CHINA).timestamp()
            with sandbox.lock:
                sandbox.requests.append("alipay %s %s" % (params["method"], number))
                order = sandbox.orders.get(("alipay", number))
                if order is None:
                    order = {"provider": "alipay", "out_trade_no": number, "amount": fen(biz["total_amount"]), "subject": biz.get("subject", ""),
                             "state": "WAIT_BUYER_PAY", "notify_url": params.get("notify_url", ""), "kind": kind, "expires": expires,
                             "created": datetime.now(CHINA).strftime("%Y-%m-%d %H:%M:%S")}
                    sandbox.orders[("alipay", number)] = order
            return number

        def do_POST(self):
            url = urllib.parse.urlsplit(self.path)
            text = self.body()
            if self.unreachable(url):
                return
            if url.path == "/_sandbox/cashier":  # the cashier's button: paid, notified, and back to the shop
                form = dict(urllib.parse.parse_qsl(text))
                provider, number, back = form.get("provider", ""), form.get("order", ""), form.get("back", "")
                order, why = sandbox.pay(provider, number)
                if order is None or why:
                    return self.cashier(provider, number, back, "<p class=why>%s</p>" % html.escape(why or ""))
                send(*sandbox.notification(provider, order, {}))
                if back:
                    self.send_response(303)
                    self.send_header("Location", back)
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return
                return self.cashier(provider, number, "")
            if url.path.startswith("/_sandbox/"):
                return self.sandbox_route(url.path, json.loads(text or "{}"))
            if url.path == "/gateway.do":
                return self.alipay_route(dict(urllib.parse.parse_qsl(text, keep_blank_values=True)))
            failure = sandbox.wechat_check("POST", self.path, self.headers, text)
            if failure:
                return self.wechat(401, {"code": failure[0], "message": failure[1]})
            request = json.loads(text or "{}")
            if url.path in ("/v3/pay/transactions/native", "/v3/pay/transactions/jsapi", "/v3/pay/transactions/h5"):
                jsapi, h5 = url.path.endswith("jsapi"), url.path.endswith("h5")
                if h5 and not request.get("scene_info", {}).get("payer_client_ip"):
                    return self.wechat(400, {"code": "PARAM_ERROR", "message": "缺少参数 scene_info.payer_client_ip"})
                if request.get("mchid") != sandbox.mchid or request.get("appid") != sandbox.appid:
                    return self.wechat(400, {"code": "PARAM_ERROR", "message": "mchid与appid不匹配"})
                if request.get("amount", {}).get("currency", "CNY") != "CNY" or not request.get("notify_url"):
                    return self.wechat(400, {"code": "PARAM_ERROR", "message": "amount.currency or notify_url"})
                if jsapi and not request.get("payer", {}).get("openid"):
                    return self.wechat(400, {"code": "PARAM_ERROR", "message": "缺少参数 payer.openid"})
                number = request["out_trade_no"]
                expires = datetime.fromisoformat(request["time_expire"]).timestamp() if request.get("time_expire") else 0
                with sandbox.lock:
                    sandbox.requests.append("wechatpay %s %s" % ("jsapi" if jsapi else "h5" if h5 else "native", number))
                    order = sandbox.orders.get(("wechatpay", number))
                    if order is not None and order["amount"] != request["amount"]["total"]:
                        return self.wechat(400, {"code": "INVALID_REQUEST", "message": "201 商户订单号重复"})
                    if order is None:
                        order = {"provider": "wechatpay", "out_trade_no": number, "amount": request["amount"]["total"], "appid": request["appid"],
                                 "mchid": request["mchid"], "state": "NOTPAY", "notify_url": request["notify_url"], "expires": expires,
                                 "attach": request.get("attach", ""), "trade_type": "JSAPI" if jsapi else "MWEB" if h5 else "NATIVE",
                                 "openid": request.get("payer", {}).get("openid"), "prepay_id": "wx" + secrets.token_hex(14)}
                        sandbox.orders[("wechatpay", number)] = order
                if jsapi:
                    return self.wechat(200, {"prepay_id": order["prepay_id"]})
                if h5:  # WeChat's own h5_url is a wx.tenpay.com page; here, the sandbox's cashier
                    host = self.headers.get("Host", "127.0.0.1")
                    return self.wechat(200, {"h5_url": "http://%s/_sandbox/cashier?provider=wechatpay&order=%s" % (host, number)})
                return self.wechat(200, {"code_url": "weixin://wxpay/bizpayurl?pr=" + order["prepay_id"][2:12]})
            if url.path.startswith("/v3/pay/transactions/out-trade-no/") and url.path.endswith("/close"):
                number = url.path.split("/")[-2]
                with sandbox.lock:
                    sandbox.requests.append("wechatpay close " + number)
                    order = sandbox.orders.get(("wechatpay", number))
                    if order is None:
                        return self.wechat(404, {"code": "ORDER_NOT_EXIST", "message": "订单不存在"})
                    if order["state"] == "SUCCESS":
                        return self.wechat(400, {"code": "ORDERPAID", "message": "订单已支付"})
                    order["state"] = "CLOSED"
                return self.wechat(204, None)
            if url.path == "/v3/refund/domestic/refunds":
                number, key = request.get("out_trade_no"), request.get("out_refund_no")
                if sandbox.refund_failure:
                    code = "SYSTEM_ERROR" if sandbox.refund_failure >= 500 else "USER_ACCOUNT_ABNORMAL"
                    return self.wechat(sandbox.refund_failure, {"code": code, "message": "退款失败 (sandbox)"})
                with sandbox.lock:
                    sandbox.requests.append("wechatpay refund %s %s" % (number, key))
                    order = sandbox.orders.get(("wechatpay", number))
                    if order is None or order["state"] not in ("SUCCESS", "REFUND"):
                        return self.wechat(400, {"code": "INVALID_REQUEST", "message": "订单未支付"})
                    amount = request.get("amount", {})
                    if amount.get("total") != order["amount"]:
                        return self.wechat(400, {"code": "PARAM_ERROR", "message": "订单金额不一致"})
                    refund = sandbox.refunds.get(("wechatpay", key))
                    if refund is None:
                        taken = sum(r["amount"] for r in sandbox.refunds.values() if r["order"] == number and r["provider"] == "wechatpay")
                        if taken + amount.get("refund", 0) > order["amount"]:
                            return self.wechat(400, {"code": "NOT_ENOUGH", "message": "退款金额超过订单可退金额"})
                        refund = {"provider": "wechatpay", "order": number, "key": key, "amount": amount["refund"],
                                  "id": "5030" + secrets.token_hex(12)[:24], "reason": request.get("reason", "")}
                        sandbox.refunds[("wechatpay", key)] = refund
                        order["state"] = "REFUND"
                return self.wechat(200, {"refund_id": refund["id"], "out_refund_no": key, "out_trade_no": number, "status": "SUCCESS",
                                         "amount": {"refund": refund["amount"], "total": order["amount"], "currency": "CNY"}})
            self.wechat(404, {"code": "NOT_FOUND", "message": url.path})

        def alipay_route(self, params):
            method = params.get("method", "")
            failure = sandbox.alipay_check(params)
            if failure:
                return self.answer(200, json.dumps({"error_response": {"code": "40002", "msg": "Invalid Arguments", "sub_code": failure[0],
                                                                       "sub_msg": failure[1]}, "sign": ""}))
            biz = json.loads(params.get("biz_content", "{}"))
            number = biz.get("out_trade_no", "")

            def reply(response):
                self.answer(200, sandbox.alipay_answer(method, response), content_type="text/html;charset=utf-8")

            if method == "alipay.trade.precreate":
                self.alipay_create(params, "qr")
                return reply({"code": "10000", "msg": "Success", "out_trade_no": number, "qr_code": "https://qr.alipay.com/bax0" + number[:16]})
            with sandbox.lock:
                sandbox.requests.append("alipay %s %s" % (method, number))
                order = sandbox.orders.get(("alipay", number))
                missing = {"code": "40004", "msg": "Business Failed", "sub_code": "ACQ.TRADE_NOT_EXIST", "sub_msg": "交易不存在"}
                if method == "alipay.trade.query":
                    if order is None:
                        return reply(missing)
                    return reply({"code": "10000", "msg": "Success", "out_trade_no": number, "trade_no": order.get("trade_no", ""),
                                  "trade_status": order["state"], "total_amount": yuan(order["amount"])})
                if method == "alipay.trade.close":
                    if order is None:
                        return reply(missing)
                    if order["state"] != "WAIT_BUYER_PAY":
                        return reply({"code": "40004", "msg": "Business Failed", "sub_code": "ACQ.TRADE_STATUS_ERROR", "sub_msg": "交易状态不合法"})
                    order["state"] = "TRADE_CLOSED"
                    return reply({"code": "10000", "msg": "Success", "out_trade_no": number})
                if method == "alipay.trade.refund":
                    if sandbox.refund_failure >= 500:
                        return self.answer(sandbox.refund_failure, "gateway busy")
                    if sandbox.refund_failure:
                        return reply({"code": "40004", "msg": "Business Failed", "sub_code": "ACQ.SELLER_BALANCE_NOT_ENOUGH",
                                      "sub_msg": "卖家余额不足"})
                    if order is None or order["state"] not in ("TRADE_SUCCESS", "TRADE_FINISHED"):
                        return reply(missing if order is None else {"code": "40004", "msg": "Business Failed", "sub_code": "ACQ.TRADE_STATUS_ERROR",
                                                                   "sub_msg": "交易状态不合法"})
                    key = biz.get("out_request_no") or number
                    refund = sandbox.refunds.get(("alipay", key))
                    change = "N"
                    if refund is None:
                        amount = fen(biz["refund_amount"])
                        taken = sum(r["amount"] for r in sandbox.refunds.values() if r["order"] == number and r["provider"] == "alipay")
                        if taken + amount > order["amount"]:
                            return reply({"code": "40004", "msg": "Business Failed", "sub_code": "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL",
                                          "sub_msg": "退款金额超限"})
                        refund = {"provider": "alipay", "order": number, "key": key, "amount": amount, "id": order["trade_no"],
                                  "reason": biz.get("refund_reason", "")}
                        sandbox.refunds[("alipay", key)] = refund
                        change = "Y"
                    refunded = sum(r["amount"] for r in sandbox.refunds.values() if r["order"] == number and r["provider"] == "alipay")
                    return reply({"code": "10000", "msg": "Success", "trade_no": order["trade_no"], "out_trade_no": number, "fund_change": change,
                                  "refund_fee": yuan(refunded)})
            reply({"code": "40004", "msg": "Business Failed", "sub_code": "ACQ.INVALID_METHOD", "sub_msg": method})

        def sandbox_route(self, path, request):
            provider, number = request.get("provider"), request.get("order", "")
            if path == "/_sandbox/pay":
                order, why = sandbox.pay(provider, number)
                if order is None or why:
                    return self.answer(409, json.dumps({"paid": False, "why": why}))
                result = {"paid": True, "order": order}
                if request.get("notify", True):
                    url, headers, body = sandbox.notification(provider, order, {})
                    result["notified"] = send(url, headers, body)
                return self.answer(200, json.dumps(result, ensure_ascii=False))
            if path == "/_sandbox/outage":
                sandbox.down = bool(request.get("down"))
                return self.answer(200, '{"ok":true}')
            if path == "/_sandbox/refunds":
                sandbox.refund_failure = int(request.get("fail", 0))
                return self.answer(200, '{"ok":true}')
            if path == "/_sandbox/notification":
                with sandbox.lock:
                    order = sandbox.orders.get((provider, number))
                if order is None:
                    return self.answer(404, '{"why":"no such order"}')
                url, headers, body = sandbox.notification(provider, dict(order), request)
                return self.answer(200, json.dumps({"url": url, "headers": headers, "body": body}, ensure_ascii=False))
            self.answer(404, '{"why":"no such sandbox route"}')

    return Handler


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--port", type=int, default=8431)
    parser.add_argument("--keys", default=os.path.join(here, "keys"))
    parser.add_argument("--mchid", default="1900009191")
    parser.add_argument("--appid", default="wxd678efh567hg6787")
    parser.add_argument("--api-v3-key", default="SeatKitSandboxApiV3Key0123456789")
    parser.add_argument("--alipay-app-id", default="2021000117600000")
    args = parser.parse_args()
    sandbox = Sandbox(args.keys, args.mchid, args.appid, args.api_v3_key, args.alipay_app_id)
    server = ThreadingHTTPServer(("127.0.0.1", args.port), handler(sandbox))
    print("payment sandbox (test money) on http://127.0.0.1:%d" % args.port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
