"""Partners' channels and seasons at the console's desk (#53): a manager gives a partner the marked seats and
standing places (a colour of their own on the map and in the legend, the key shown once), sees the partner's
holds live, ends the channel; makes a season of two of the hall's shows, sells marked seats as the season and
reads its report. Shared set-up and helpers: support.py."""

import os

from support import *  # noqa: F401,F403 (the suites' shared names)


class PartnersTests(PickerCase):
    venues = ("Samples/livehouse.json",)

    def setUp(self):
        super().setUp()
        # The server lives as long as the class: each test its own two shows of the hall.
        name = self._testMethodName[5:15].replace("_", "-")
        self.show, self.other = f"gig-{name}", f"gig2-{name}"
        for show, day in ((self.show, "24"), (self.other, "31")):
            status, body = self.server.send("POST", "/v1/shows", {
                "id": show, "venueId": "livehouse", "startsAt": f"2099-12-{day}T20:00:00+08:00",
                "prices": {"currency": "CNY", "categories": {"standard": "280.00", "standing": "180.00", "box": "300.00"}}}, admin=True)
            self.assertEqual(status, 201, body)

    def manager_desk(self, lang):
        m = self.new_browser()
        m.get(f"{self.server.url}/console?show={self.show}&lang={lang}")
        console_key(m, MANAGER_KEY)
        m.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(m, lambda c: c.find_element(By.ID, "desk").get_attribute("data-show") == self.show, timeout=10, message="the desk's show")
        m.set_window_size(1280, 1000)
        return m

    def mark(self, m, seats):
        m.execute_script("document.querySelector('seatkit-map').zoomToSeats(arguments[0])", seats)
        for seat in seats:
            self.click_seat(m, seat)
        self.wait(m, lambda c: c.execute_script("return document.querySelector('seatkit-map').selection.length") == len(seats), message="marked")

    def pixel(self, m, seat):
        # A pixel of the seat's square beside its number, as drawn.
        return m.execute_script("""
            const c = document.querySelector('#desk-map-surface canvas'), b = c.getBoundingClientRect(), k = c.width / b.width;
            const r = document.querySelector('seatkit-map').seat(arguments[0]).rect;
            return [...c.getContext('2d').getImageData((r.x + r.width * 0.15 - b.left) * k, (r.y + r.height * 0.5 - b.top) * k, 1, 1).data].slice(0, 3);""", seat)

    def test_manager_makes_a_channel_and_a_season_zh(self):
        m = self.manager_desk("zh")
        # A channel: four marked seats of row A and ten floor places, for Damai, its key shown once.
        self.mark(m, ["A-1", "A-2", "A-3", "A-4"])
        m.find_element(By.ID, "channel-name").send_keys("大麦 Damai")
        places = m.find_element(By.ID, "channel-area-floor")
        places.clear()
        places.send_keys("10")
        # The partner's net rate for the stalls; standing left empty: the show's price.
        self.assertEqual(m.find_element(By.ID, "channel-price-standard").get_attribute("placeholder"), "280.00")
        m.find_element(By.ID, "channel-price-standard").send_keys("250.00")
        m.find_element(By.ID, "channel-make").click()
        key = self.wait(m, lambda c: c.find_element(By.CSS_SELECTOR, "#channel-key code").text or None, message="the key shown")
        self.assertRegex(key, r"^[0-9a-f]{44}$")
        self.assertIn("只显示这一次", m.find_element(By.ID, "channel-key").text)
        status, channels = self.server.send("GET", f"/v1/shows/{self.show}/channels", None, admin=True)
        self.assertEqual((status, len(channels), len(channels[0]["seats"])), (200, 1, 14), channels)
        self.assertEqual(channels[0]["prices"], {"standard": "250.00"})
        item = self.wait(m, lambda c: c.find_element(By.CSS_SELECTOR, "#channels li[data-channel]").text or None, message="the channel listed")
        self.assertIn("余 14 位", item)
        self.assertIn("渠道价", item)
        self.assertEqual("大麦（渠道）", m.find_element(By.CSS_SELECTOR, "#desk-legend li[data-channel]").text)
        # Its seats drawn in its colour (the first channel's teal), a seat outside it not.
        teal = [0x0B, 0x7A, 0x75]
        self.wait(m, lambda c: all(abs(a - b) <= 3 for a, b in zip(self.pixel(c, "A-2"), teal)), message="the channel's colour on the map")
        self.assertFalse(all(abs(a - b) <= 3 for a, b in zip(self.pixel(m, "A-6"), teal)))
        # The partner holds two of them with its key: the desk says so live.
        status, body = self.server.send("POST", f"/v1/shows/{self.show}/holds", {"seats": ["A-1", "A-2"]}, headers={"Seat-Channel": key})
        self.assertEqual(status, 201, body)
        self.wait(m, lambda c: "合作方锁定 2 位" in c.find_element(By.CSS_SELECTOR, "#channels li[data-channel]").text, message="the partner's hold live")
        m.execute_script("document.getElementById('desk-legend').scrollIntoView()")
        m.save_screenshot(os.path.join(ARTIFACTS, "partners-channel-map-zh.png"))
        m.execute_script("document.getElementById('partners').scrollIntoView()")
        m.save_screenshot(os.path.join(ARTIFACTS, "partners-channel-desk-zh.png"))
        overflow = m.execute_script("""return [...document.querySelectorAll('#desk *')].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
            .map(e => (e.id || e.className || e.tagName) + ' in ' + (e.parentElement.id || e.parentElement.className) + ' ' + e.textContent.slice(0, 30)).slice(0, 5)""")
        self.assertEqual(overflow, [], "nothing wider than the window")
        self.axe(m, "the desk with a partner's channel")
        # A season of both shows of the hall (this one is ticked already), sold for two marked seats.
        m.find_element(By.ID, "season-name").send_keys("冬季演出季 Winter season")
        m.find_element(By.ID, f"season-show-{self.other}").click()
        m.find_element(By.ID, "season-make").click()
        self.wait(m, lambda c: len(c.find_elements(By.CSS_SELECTOR, "#seasons li[data-season]")) == 1, message="the season listed")
        status, seasons = self.server.send("GET", "/v1/seasons", None, admin=True)
        self.assertEqual([s["shows"] for s in seasons], [[self.show, self.other]])
        self.mark(m, ["B-1", "B-2"])
        season = m.find_element(By.CSS_SELECTOR, "#seasons li[data-season]")
        season.find_element(By.XPATH, ".//button[contains(., '按套票出售')]").click()
        said = self.wait(m, lambda c: c.find_element(By.ID, "season-message").text or None, message="the season sold")
        self.assertIn("已售出套票", said)
        self.assertIn("¥1120.00", said)
        # Row A is seats 0–7, row B 8–15 (the document's order).
        self.assertEqual(self.server.statuses(self.other)[8:10], ["s", "s"])
        # Its report: a row a show, the season's seats in each.
        season.find_element(By.XPATH, ".//button[contains(., '套票报表')]").click()
        rows = self.wait(m, lambda c: c.find_elements(By.CSS_SELECTOR, "table[data-table='season-report'] tbody tr") or None, message="the report")
        self.assertEqual([r.find_elements(By.TAG_NAME, "td")[0].text for r in rows], ["2", "2"])
        m.save_screenshot(os.path.join(ARTIFACTS, "partners-season-desk-zh.png"))
        self.axe(m, "the desk with a season sold and its report")
        # The channel ended: its unsold seats on sale again, its colour gone.
        m.execute_script("window.confirm = () => true")
        m.find_element(By.XPATH, "//li[@data-channel]//button[contains(., '结束渠道')]").click()
        self.wait(m, lambda c: not c.find_elements(By.CSS_SELECTOR, "#channels li[data-channel]"), message="the channel ended")
        self.assertEqual(self.server.statuses(self.show)[2], "a")
        self.wait(m, lambda c: not all(abs(a - b) <= 3 for a, b in zip(self.pixel(c, "A-3"), teal)), message="its colour gone")

    def test_partner_page_is_the_channels_map_phone_zh(self):
        # A partner's buyer opens the page with the channel's key: the channel's seats free, every other
        # seat not for sale; a tap holds from the channel, a second seat joins the hold, confirmed.
        status, made = self.server.send("POST", f"/v1/shows/{self.show}/channels",
                                        {"name": "猫眼 Maoyan", "seats": ["A-5", "A-6", "A-7", "A-8"], "areas": {"floor": 10}}, admin=True)
        self.assertEqual(status, 201, made)
        d = self.new_browser()
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        d.get(f"{self.server.url}/shows/{self.show}?lang=zh&channel={made['key']}")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"))
        self.wait(d, lambda d: self.status(d, "A-5") == "available", message="the channel's seat free to its partner")
        self.assertEqual([self.status(d, s) for s in ("A-1", "B-1")], ["blocked", "blocked"])
        self.assertIn("合作渠道专属座位", d.find_element(By.ID, "show-meta").get_attribute("textContent"))
        self.assertIn("余10位", d.find_element(By.CSS_SELECTOR, "#areas li[data-area='floor']").text)
        self.assertFalse(d.find_element(By.ID, "list-toggle").is_displayed())
        d.execute_script("document.querySelector('seatkit-map').zoomToSeats(['A-5', 'A-6'])")
        self.touch_tap(d, *self.seat_point(d, "A-5"))
        self.wait(d, lambda d: self.settled_total(d) == "¥280.00", message="held from the channel")
        self.touch_tap(d, *self.seat_point(d, "A-6"))
        self.wait(d, lambda d: self.settled_total(d) == "¥560.00", message="a second seat added from the channel")
        status, channels = self.server.send("GET", f"/v1/shows/{self.show}/channels", None, admin=True)
        self.assertEqual((channels[0]["held"], len(channels[0]["seats"])), (2, 12), channels)
        # The public still cannot have A-7; the partner's buyer sees the public's A-1 taken as not for sale.
        self.assertEqual(self.server.send("POST", f"/v1/shows/{self.show}/holds", {"seats": ["A-7"]})[0], 409)
        d.save_screenshot(os.path.join(ARTIFACTS, "partners-page-phone-zh.png"))
        self.axe(d, "a partner's page on a phone")
        d.find_element(By.ID, "confirm").click()
        receipt = self.wait(d, lambda d: d.find_element(By.ID, "receipt").text or None, message="receipt")
        self.assertIn("¥560.00", receipt)
        status, report = self.server.send("GET", f"/v1/shows/{self.show}/report", None, admin=True)
        self.assertEqual(report["revenue"]["byChannel"].get("partner:猫眼 Maoyan"), "560.00", report["revenue"])
