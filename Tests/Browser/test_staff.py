"""A chain's staff in the console (#56), in Chinese: head office makes a cinema and a clerk of it; the
clerk signs in with a name and password and sees that cinema's shows and takings only. Its own server
(cinemas are the server's). Shared set-up: support.py."""

import base64
import hashlib
import hmac
import os
import struct
import time

from support import *  # noqa: F401,F403 (the suites' shared names)


def one_time_code(secret):
    """RFC 6238's code of a base32 secret now (what the person's authenticator app shows)."""
    key = base64.b32decode(secret + "=" * (-len(secret) % 8))
    mac = hmac.new(key, struct.pack(">Q", int(time.time()) // 30), hashlib.sha1).digest()
    offset = mac[19] & 15
    return "%06d" % ((struct.unpack(">I", mac[offset:offset + 4])[0] & 0x7FFFFFFF) % 1_000_000)


class StaffTests(PickerCase):

    def test_staff_head_office_makes_a_clerk(self):
        # Money in both cinemas-to-be: a sale of this hall's show and one of the IMAX hall's.
        for show, seat, ref in [(self.show, "5-1", "BOX-N1"), ("imax-2000", "5-1", "BOX-S1")]:
            status, made = self.server.post(f"/v1/shows/{show}/sales", {"seats": [seat], "orderRef": ref, "payment": "cash"}, admin=True)
            self.assertEqual(status, 201, made)
        m = self.new_browser()
        m.set_window_size(1400, 1000)
        m.get(f"{self.server.url}/console?lang=zh")
        console_key(m, MANAGER_KEY)
        m.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(m, lambda d: d.find_element(By.ID, "staff").is_displayed(), message="the staff part for a manager")
        # A cinema of hall 3.
        self.wait(m, lambda d: d.find_elements(By.CSS_SELECTOR, "input[name='cinema-venue'][value='cinema-hall-3']"), message="the halls")
        m.find_element(By.ID, "cinema-name").send_keys("北城影城")
        m.find_element(By.CSS_SELECTOR, "input[name='cinema-venue'][value='cinema-hall-3']").click()
        m.find_element(By.CSS_SELECTOR, "#cinema-add button[type=submit]").click()
        self.wait(m, lambda d: "已建立影城 北城影城" in d.find_element(By.ID, "staff-message").text, message="the cinema made")
        # A clerk of it, with a password.
        self.wait(m, lambda d: any(o.text == "北城影城" for o in d.find_elements(By.CSS_SELECTOR, "#staff-cinemas option")), message="the cinema offered")
        m.find_element(By.ID, "staff-name").send_keys("xiao.li")
        Select(m.find_element(By.ID, "staff-role")).select_by_value("boxoffice")
        Select(m.find_element(By.ID, "staff-cinemas")).select_by_visible_text("北城影城")
        m.find_element(By.ID, "staff-password").send_keys("北城影城的夜班收银员")
        m.find_element(By.CSS_SELECTOR, "#staff-add button[type=submit]").click()
        self.wait(m, lambda d: "已添加 xiao.li（北城影城）" in d.find_element(By.ID, "staff-message").text, message="the clerk added")
        row = self.wait(m, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-table=staff] tr[data-name='xiao.li']"), message="the clerk listed")[0]
        self.assertIn("售票员", row.text)
        self.assertIn("北城影城", row.text)
        self.assertTrue(m.find_element(By.ID, "staff-key").is_displayed())
        m.execute_script("window.scrollTo(0, document.getElementById('staff').offsetTop - 20)")
        m.save_screenshot(os.path.join(ARTIFACTS, "staff-desktop-zh.png"))
        self.axe(m, "the console's staff part")
        # The manager gives the clerk a new password (the first one stops working).
        row.find_element(By.CSS_SELECTOR, "button[data-action=edit]").click()
        form = self.wait(m, lambda d: d.find_elements(By.CSS_SELECTOR, "form.staff-edit[data-name='xiao.li']"), message="the editor")[0]
        form.find_element(By.CSS_SELECTOR, "input[name=password]").send_keys("北城影城夜班的新口令")
        self.axe(m, "the staff editor")
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        self.wait(m, lambda d: "已更新 xiao.li" in d.find_element(By.ID, "staff-message").text, message="the password changed")
        # And one-time codes: the QR code for the clerk's app, shown once, and the secret in text.
        m.execute_script("document.getElementById('staff-message').textContent = ''")
        row = self.wait(m, lambda d: d.find_elements(By.CSS_SELECTOR, "[data-table=staff] tr[data-name='xiao.li']"), message="the row again")[0]
        row.find_element(By.CSS_SELECTOR, "button[data-action=totp]").click()
        secret = self.wait(m, lambda d: d.find_element(By.ID, "staff-key").is_displayed() and d.find_elements(By.CSS_SELECTOR, "#staff-key img")
                           and d.find_element(By.CSS_SELECTOR, "#staff-key code").text, message="the one-time-code QR code")
        self.assertTrue(m.execute_script("const i = document.querySelector('#staff-key img'); return i.complete && i.naturalWidth > 0"))
        m.execute_script("document.getElementById('staff-key').scrollIntoView({block: 'center'})")
        m.save_screenshot(os.path.join(ARTIFACTS, "staff-code-desktop-zh.png"))
        self.axe(m, "the one-time code shown")

        # The clerk signs in with name and password: the board and takings are 北城's only.
        c = self.new_browser()
        c.set_window_size(1280, 900)
        c.get(f"{self.server.url}/console?lang=zh")
        c.find_element(By.ID, "sign-name").send_keys("xiao.li")
        c.find_element(By.ID, "sign-password").send_keys("北城影城的夜班收银员")
        c.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(c, lambda d: "不正确" in d.find_element(By.ID, "sign-in-message").text, message="the old password refused")
        c.find_element(By.ID, "sign-password").send_keys("北城影城夜班的新口令")
        c.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        # The right password asks for the app's code.
        self.wait(c, lambda d: d.find_element(By.ID, "sign-code").is_displayed(), message="the code asked for")
        self.assertIn("动态验证码", c.find_element(By.ID, "sign-in-message").text)
        c.find_element(By.ID, "sign-code").send_keys(one_time_code(secret))
        c.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(c, lambda d: d.find_element(By.ID, "who").text == "xiao.li（售票员）", message="signed in")
        self.assertFalse(c.find_element(By.ID, "staff").is_displayed())
        # The session is a cookie no script reads; the page keeps no key.
        self.assertNotIn("sk_session", c.execute_script("return document.cookie"))
        shows = c.execute_async_script("const done = arguments[0]; fetch('/v1/shows').then(r => r.json()).then(l => done(l.map(s => s.venueId)))")
        self.assertTrue(shows and set(shows) == {"cinema-hall-3"}, shows)
        self.wait(c, lambda d: "BOX-N1" in d.find_element(By.ID, "today").text or self.show in d.find_element(By.ID, "today").text,
                  message="北城's takings")
        self.assertNotIn("imax-2000", c.find_element(By.ID, "today").text)
        # Another cinema's show is refused, naming the cinema (its data never shown).
        refused = c.execute_async_script(
            "const done = arguments[0]; fetch('/v1/shows/imax-2000/report').then(r => r.json()).then(p => done([p.status, p.detail]))")
        self.assertEqual(refused[0], 403)
        self.assertIn("does not act for a venue of no cinema", refused[1])
        c.save_screenshot(os.path.join(ARTIFACTS, "staff-clerk-desktop-zh.png"))
        self.axe(c, "the console signed in by name and password")

    def cinema(self, name, venue):
        """The cinema of `venue` (made once for the suite's server)."""
        status, made = self.server.post("/v1/cinemas", {"name": name, "venues": [venue]}, admin=True)
        if status == 201:
            return made["id"]
        status, listed = self.server.send("GET", "/v1/cinemas", None, admin=True)
        return next(c["id"] for c in listed if c["name"] == name)

    def test_staff_door_signs_in_by_password_on_a_phone(self):
        """Door staff of the arena sign into /door with their name and password; the gate offers the arena's show only."""
        # The arena's own cinema (the other test makes 北城影城 of hall 3 through the console).
        arena = self.cinema("体育馆", "arena-20000")
        status, made = self.server.post("/v1/operators", {"name": "zhou.door", "role": "door", "cinemas": [arena],
                                                          "password": "体育馆东门的检票员口令"}, admin=True)
        self.assertEqual(status, 201, made)
        d = self.new_browser()
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        d.get(f"{self.server.url}/door?lang=zh")
        d.find_element(By.ID, "sign-name").send_keys("zhou.door")
        d.find_element(By.ID, "sign-password").send_keys("体育馆东门的检票员口令" + Keys.ENTER)
        self.wait(d, lambda d: d.find_element(By.ID, "setup").is_displayed(), message="the gate's set-up")
        self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#show-list input[value='arena-concert']"), message="the arena's show listed")
        listed = [i.get_attribute("value") for i in d.find_elements(By.CSS_SELECTOR, "#show-list input")]
        self.assertEqual(listed, ["arena-concert"])
        d.save_screenshot(os.path.join(ARTIFACTS, "staff-door-phone-zh.png"))
        self.axe(d, "the door signed in by name and password")


if __name__ == "__main__":
    unittest.main()
