"""The web seat picker in a real headless Chromium (Debian's chromium + chromium-driver, driven by
Selenium through WebDriver), against a `seatkit serve` this file starts on a free loopback port with a
fresh SQLite store. Run by `make test-browser` (part of `make test` and `.ci/run`).

SEATKIT_BIN names the binary (default .build/debug/seatkit); screenshots go to SEATKIT_ARTIFACTS
(default artifacts/browser).

Accessibility is checked with axe-core 4 from PyPI: the copy that axe-playwright-python bundles (installed
without its Playwright dependency), injected through Selenium. axe-selenium-python's own copy is axe-core
3.1 (2018), which reports ARIA 1.1's aria-roledescription as invalid and skips checks 4.x makes."""

import hashlib
import json
import os
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
import unittest
import urllib.request
from urllib.error import HTTPError

from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

import axe_playwright_python

AXE_SOURCE = open(os.path.join(os.path.dirname(axe_playwright_python.__file__), "axe.min.js"), encoding="utf-8").read()
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.environ.get("SEATKIT_BIN", os.path.join(ROOT, ".build/debug/seatkit"))
ARTIFACTS = os.environ.get("SEATKIT_ARTIFACTS", os.path.join(ROOT, "artifacts/browser"))
SHOW = "hall3-1930"
CLERK_KEY = "li-box-office-key-0123456789"


class Server:
    """`seatkit serve` on a free port with its own store; stopped with SIGTERM."""

    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="seatkit-browser-")
        self.db = os.path.join(self.dir, "store.db")
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self):
        self.log = open(os.path.join(self.dir, "server.log"), "a")
        self.process = subprocess.Popen(
            [BIN, "serve", "--store", f"sqlite:{self.db}", "--port", str(self.port), "--admin-key", "browser-test-key",
             "--operators", self.operators()],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if urllib.request.urlopen(self.url + "/healthz", timeout=1).status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("seatkit serve did not start: " + open(self.log.name).read())

    def operators(self):
        """The operators file: li at the box office (the console's clerk), by the SHA-256 of her key."""
        path = os.path.join(self.dir, "operators.txt")
        with open(path, "w") as f:
            f.write(f"li boxoffice sha256:{hashlib.sha256(CLERK_KEY.encode()).hexdigest()}\n")
        return path

    def get(self, path):
        with urllib.request.urlopen(self.url + path, timeout=5) as r:
            return r.read().decode()

    def post(self, path, body, admin=False):
        return self.send("POST", path, body, admin)

    def send(self, method, path, body, admin=False, headers=None):
        headers = {"Content-Type": "application/json", **(headers or {})}
        if admin:
            headers["X-Admin-Key"] = "browser-test-key"
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=5) as r:
                return r.status, json.loads(r.read() or b"null")
        except HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def statuses(self, show=SHOW):
        """The committed availability, seat index → a/h/s/b, decoded from `ska1`."""
        runs = self.get(f"/v1/shows/{show}/availability").strip().split(";")[4]
        out, length = [], ""
        for ch in runs:
            if ch.isdigit():
                length += ch
            else:
                out += [ch] * int(length or 1)
                length = ""
        return out

    def sold_in_store(self, show=SHOW):
        """Seat indices the SQLite store itself records as sold (read beside the running server: WAL)."""
        with sqlite3.connect(f"file:{self.db}?mode=ro", uri=True) as db:
            return {row[0] for row in db.execute("SELECT seat FROM claims WHERE show_id = ? AND status = 'sold'", (show,))}

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=15)
        self.log.close()


def browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                     "--lang=en-GB", "--disable-gpu", "--force-device-scale-factor=1"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.implicitly_wait(0)
    return driver


class PickerTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(ARTIFACTS, exist_ok=True)
        cls.server = Server()
        cls.drivers = []

    @classmethod
    def tearDownClass(cls):
        for d in cls.drivers:
            d.quit()
        cls.server.stop()

    def setUp(self):
        # A fresh show per test, so tests never see each other's seats.
        self.show = f"{SHOW}-{self._testMethodName[5:].replace('_', '-')}"
        body = {"id": self.show, "venueId": "cinema-hall-3", "startsAt": "2099-12-24T19:30:00+08:00", "holdSeconds": 600,
                "prices": {"currency": "CNY", "categories": {"standard": "38.00", "vip": "58.00", "couple": "99.90"},
                           "adjustments": [{"row": "1", "amount": "-5.00"}]},
                "policy": {"maxSeats": 6, "noLoneSeat": True, "couplesTogether": True}}
        request = urllib.request.Request(self.server.url + "/v1/shows", data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Admin-Key": "browser-test-key"})
        self.assertEqual(urllib.request.urlopen(request).status, 201)
        self.first_driver = len(self.drivers)

    def tearDown(self):
        # No script error in any page this test opened (network errors of a restart are expected).
        for d in self.drivers[self.first_driver:]:
            errors = [e["message"] for e in d.get_log("browser") if e["level"] == "SEVERE" and e.get("source") == "javascript"]
            self.assertEqual(errors, [], "JavaScript errors in the page")

    # — helpers —

    def new_browser(self):
        d = browser()
        self.drivers.append(d)
        return d

    def open(self, lang="en"):
        d = self.new_browser()
        d.get(f"{self.server.url}/shows/{self.show}?lang={lang}")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"))
        return d

    def wait(self, d, condition, timeout=5, message=""):
        try:
            return WebDriverWait(d, timeout, poll_frequency=0.05).until(condition)
        except TimeoutException:
            self.fail(f"timed out: {message}\n{self.page_state(d)}")

    def page_state(self, d):
        return d.execute_script("const text = id => document.getElementById(id)?.textContent;"
                                "return {message: text('message') ?? text('desk-message'), total: text('total'), error: text('page-error')}")

    # The map is one canvas: seats are read and found through the `<seatkit-map>` element's API
    # (js/element.js), and clicked and touched with real input events at the squares it reports.

    def seat_info(self, d, seat_id):
        """What the map says of a seat now: status, selected, spoken label, index, its square on the page."""
        return d.execute_script("const s = document.querySelector('seatkit-map').seat(arguments[0]);"
                                "return s && {...s, rect: s.rect && s.rect.toJSON()};", seat_id)

    def status(self, d, seat_id):
        s = self.seat_info(d, seat_id)
        return None if s is None else "selected" if s["selected"] else s["status"]

    def label(self, d, seat_id):
        return self.seat_info(d, seat_id)["label"]

    def index(self, d, seat_id):
        return self.seat_info(d, seat_id)["index"]

    def seat_rect(self, d, seat_id):
        return self.seat_info(d, seat_id)["rect"]

    def seat_point(self, d, seat_id):
        """The centre of a seat's square in the window: the page scrolled to it if need be (the map's view is
        left alone when the seat is on it, else zoomed to it, as a buyer would)."""
        point = d.execute_script("""
            const m = document.querySelector('seatkit-map'), id = arguments[0];
            if (!m.seat(id)) return null;
            if (!m.seat(id).rect) m.zoomToSeats([id]);
            let r = m.seat(id).rect;
            if (r && (r.top < 0 || r.bottom > innerHeight)) { window.scrollBy(0, r.top - innerHeight / 2); r = m.seat(id).rect; }
            return r && [r.x + r.width / 2, r.y + r.height / 2];""", seat_id)
        self.assertIsNotNone(point, f"seat {seat_id} on the map")
        return int(round(point[0])), int(round(point[1]))

    def pointer(self, d):
        actions = ActionChains(d)
        return actions, actions.w3c_actions.pointer_action

    def click_seat(self, d, seat_id):
        x, y = self.seat_point(d, seat_id)
        actions, p = self.pointer(d)
        p.move_to_location(x, y).click()
        actions.perform()

    def settled_total(self, d):
        return d.execute_script("const t = document.getElementById('total'); return t.dataset.settled === 'true' ? t.textContent : null")

    def click_fresh(self, d, css):
        """Clicks what `css` names, finding it again if the page re-rendered it meanwhile (the list is live)."""
        for _ in range(10):
            try:
                d.find_element(By.CSS_SELECTOR, css).click()
                return
            except StaleElementReferenceException:
                time.sleep(0.05)
        self.fail(f"{css} kept changing")

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
        statuses = self.server.statuses(self.show)
        sold = {self.index(d, "7-1"), self.index(d, "7-2")}
        self.assertEqual({i for i, s in enumerate(statuses) if s == "s"}, sold)
        self.assertEqual(self.server.sold_in_store(self.show), sold, "the store itself records both seats sold")
        self.wait(d, lambda d: self.status(d, "7-1") == "sold", message="own seats turn sold from the live stream")

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

    def test_a_big_venue_zoomed_out_shows_its_zones(self):
        # The 20k arena opens zoomed out: below the engine's threshold its zones are drawn, not 20,000 seats.
        arena = self.show + "-arena"
        status, _ = self.server.post("/v1/shows", {"id": arena, "venueId": "arena-20000", "startsAt": "2099-12-24T19:30:00+08:00",
                                                    "prices": {"categories": {"lower": "580", "upper": "380"}}, "policy": {"maxSeats": 4}},
                                     admin=True)
        self.assertEqual(status, 201)
        d = self.new_browser()
        d.get(f"{self.server.url}/shows/{arena}?lang=en")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"), timeout=30,
                  message="the arena's map")
        self.assertEqual(d.find_element(By.ID, "map").get_attribute("data-level"), "zones")
        # One canvas, not an element a seat: the map holds a handful of elements.
        self.assertLess(d.execute_script("return document.getElementById('map').querySelectorAll('*').length"), 40)
        # Each zone says what is left in it: all its seats, then one fewer once another buyer holds one.
        zone = self.seat_info(d, "101-3-5")["zone"]
        in_zone = d.execute_script("const m = document.getElementById('map'); return m.seats.filter(id => m.seat(id).zone === arguments[0]).length", zone)
        free = lambda d: next(z["free"] for z in d.execute_script("return document.getElementById('map').zones") if z["id"] == zone)
        self.assertGreater(in_zone, 100)
        self.assertEqual(free(d), in_zone)
        self.assertEqual(self.server.post(f"/v1/shows/{arena}/holds", {"seats": ["101-2-3", "101-2-4"]})[0], 201)
        self.wait(d, lambda d: free(d) == in_zone - 2, timeout=2, message="the zone's free count follows live")
        # The zone is drawn filled at the seat's place (the canvas is not blank there).
        x, y = self.seat_point(d, "101-3-5")
        self.assertEqual(d.find_element(By.ID, "map").get_attribute("data-level"), "zones", "finding the seat did not zoom")
        pixel = d.execute_script("""
            const c = document.querySelector('#map-surface canvas'), b = c.getBoundingClientRect(), k = c.width / b.width;
            return [...c.getContext('2d').getImageData((arguments[0] - b.left) * k, (arguments[1] - b.top) * k, 1, 1).data];""", x, y)
        self.assertNotEqual(pixel[:3], [255, 255, 255], "the zone is painted under the seat's place")
        # A tap on a zone goes in there: seats are drawn, and the one tapped at is on screen to pick.
        actions, p = self.pointer(d)
        p.move_to_location(x, y).click()
        actions.perform()
        self.wait(d, lambda d: d.find_element(By.ID, "map").get_attribute("data-level") == "seats", message="zoomed in")
        self.click_seat(d, "101-3-5")
        self.wait(d, lambda d: self.server.statuses(arena)[self.index(d, "101-3-5")] == "h", timeout=5, message="held on the server")
        # The keyboard: Tab reaches the map's one seat even zoomed out, and focus zooms in to it.
        k = self.new_browser()
        k.get(f"{self.server.url}/shows/{arena}?lang=en")
        self.wait(k, lambda k: k.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"), timeout=30,
                  message="the arena's map")
        self.assertEqual(k.find_element(By.ID, "map").get_attribute("data-level"), "zones")
        k.find_element(By.TAG_NAME, "body").click()
        for _ in range(60):
            ActionChains(k).send_keys(Keys.TAB).perform()
            if k.switch_to.active_element.get_attribute("class") == "seat-focus":
                break
        self.assertEqual(k.switch_to.active_element.get_attribute("class"), "seat-focus", "Tab reaches a seat")
        self.wait(k, lambda k: k.find_element(By.ID, "map").get_attribute("data-level") == "seats", message="focus zoomed in")

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

    def test_zoom_and_pan_keep_the_gutter_aligned(self):
        d = self.open()
        aligned_at = []
        for step, (wheel, drag) in enumerate([(0, (0, 0)), (-600, (-120, -160))]):
            if wheel:
                # Wheel about a point of the map, then drag empty space (the stage area) to pan.
                d.execute_script("const m = document.getElementById('map-surface'); const r = m.getBoundingClientRect();"
                                 "m.dispatchEvent(new WheelEvent('wheel', {deltaY: arguments[0], clientX: r.x + r.width * 0.4,"
                                 " clientY: r.y + r.height * 0.6, bubbles: true, cancelable: true}));", wheel)
                self.assertGreater(float(d.find_element(By.ID, "map").get_attribute("data-zoom")), zoom_before)
                # A point of the map with no seat under it (a drag that starts on a seat selects instead).
                x, y = d.execute_script("""
                    const m = document.getElementById('map').getBoundingClientRect();
                    const bottom = Math.min(m.bottom, innerHeight) - 10;
                    for (let y = m.y + m.height / 2; y < bottom; y += 5) for (let x = m.x + m.width / 2; x < m.right - 200; x += 5) {
                      const e = document.elementFromPoint(x, y);
                      if (e && e.closest('#map-surface') && document.getElementById('map').seatAt(x, y) === null) return [Math.round(x), Math.round(y)];
                    }
                    return null;""")
                actions = ActionChains(d)
                actions.w3c_actions.pointer_action.move_to_location(x, y).pointer_down() \
                    .move_to_location(x + drag[0], y + drag[1]).pointer_up()
                actions.perform()
            zoom_before = float(d.find_element(By.ID, "map").get_attribute("data-zoom"))
            pairs = d.execute_script("""
                const out = [], m = document.getElementById('map'), seats = m.seats.map(id => m.seat(id)).filter(s => s.rect);
                for (const label of document.querySelectorAll('.gutter-label')) {
                  const row = seats.filter(s => s.row === label.dataset.row);
                  if (!row.length) continue;
                  const l = label.getBoundingClientRect(), s = row[0].rect;
                  out.push([label.dataset.row, l.y + l.height / 2, s.y + s.height / 2]);
                }
                return out;""")
            self.assertGreaterEqual(len(pairs), 3, "several rows labelled")
            for row, label_y, seat_y in pairs:
                self.assertAlmostEqual(label_y, seat_y, delta=1.5, msg=f"row {row} label vs seats at step {step}")
            aligned_at.append(zoom_before)
            d.find_element(By.ID, "map").screenshot(os.path.join(ARTIFACTS, f"map-zoom-{step + 1}.png"))
        self.assertGreater(aligned_at[1], aligned_at[0] * 1.5, "the second check is zoomed well in")
        # The minimap's viewport rectangle follows the view; tapping the minimap jumps there.
        minimap = d.find_element(By.ID, "map-minimap")
        before = d.find_element(By.ID, "map").get_attribute("data-offset")
        ActionChains(d).move_to_element_with_offset(minimap, -60, -30).click().perform()
        after = d.find_element(By.ID, "map").get_attribute("data-offset")
        self.assertNotEqual(before, after)
        rect = [float(v) for v in minimap.get_attribute("data-viewport").split(",")]
        zoom = float(d.find_element(By.ID, "map").get_attribute("data-zoom"))
        ox, oy = (float(v) for v in after.split(","))
        self.assertAlmostEqual(rect[0], ox / zoom, delta=0.5)
        self.assertAlmostEqual(rect[1], oy / zoom, delta=0.5)

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

    def assert_resynced_and_live(self, d, timeout):
        """A second snapshot came, the stream is live, and another buyer's hold turns grey."""
        self.wait(d, lambda d: d.find_element(By.ID, "map").get_attribute("data-snapshots") == "2", timeout=timeout,
                  message="a fresh snapshot")
        self.wait(d, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "live", message="live again")
        status, _ = self.server.post(f"/v1/shows/{self.show}/holds", {"seats": ["4-7", "4-5"]})
        self.assertEqual(status, 201)
        self.wait(d, lambda d: self.status(d, "4-7") == "held", timeout=2, message="live after the resync")

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

    def test_a_hundred_thousand_seat_arena_shows_its_map(self):
        # The page used to stop with "Maximum call stack size exceeded" (200,000 nodes spread into one call).
        path = os.path.join(self.server.dir, "arena-100k.json")
        subprocess.run([BIN, "generate", "arena", "--seats", "100000", "-o", path], check=True, capture_output=True)
        request = urllib.request.Request(self.server.url + "/v1/venues", data=open(path, "rb").read(), method="POST",
                                         headers={"Content-Type": "application/json", "X-Admin-Key": "browser-test-key"})
        self.assertEqual(urllib.request.urlopen(request, timeout=120).status, 201)
        show = self.show + "-100k"
        body = {"id": show, "venueId": "arena-100000", "startsAt": "2099-12-24T19:30:00+08:00",
                "prices": {"categories": {"lower": "580.00", "upper": "380.00"}}}
        self.assertEqual(self.server.post("/v1/shows", body, admin=True)[0], 201)
        d = self.new_browser()
        d.get(f"{self.server.url}/shows/{show}?lang=en")
        self.wait(d, lambda d: d.find_element(By.ID, "map").get_attribute("data-ready") == "true" or d.find_element(By.ID, "page-error").text,
                  timeout=120, message="the 100k map")
        self.assertEqual(d.find_element(By.ID, "page-error").text, "")
        self.assertEqual(d.execute_script("return document.getElementById('map').seats.length"), 100000)
        self.assertLess(d.execute_script("return document.getElementById('map').querySelectorAll('*').length"), 40, "no element a seat")
        self.assertEqual(d.find_element(By.ID, "map").get_attribute("data-level"), "zones")
        self.assertEqual(d.execute_script("return document.querySelectorAll('.gutter-label').length"), 0, "no rows to name at the zones level")

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
        self.assertEqual(day[1:], [str(api_day["shows"]), str(api_day["seats"]), str(api_day["sold"]), api_day["gross"], api_day["refunded"], f"{api_day['net']} CNY"])
        self.axe(clerk, "the console's show desk and reports")
        clerk.save_screenshot(os.path.join(ARTIFACTS, "console-desk.png"))
        clerk.find_element(By.ID, "reports").screenshot(os.path.join(ARTIFACTS, "console-reports.png"))
        # Signing out forgets the key.
        clerk.find_element(By.ID, "sign-out").click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "sign-in").is_displayed(), message="signed out")
        self.assertIsNone(clerk.execute_script("return sessionStorage.getItem('seatkit.operatorKey')"))
        self.axe(clerk, "the console's sign-in")

    def sign_in_console(self, key):
        d = self.new_browser()
        d.get(f"{self.server.url}/console?show={self.show}&lang=en")
        d.find_element(By.ID, "key").send_keys(key)
        d.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(d, lambda c: c.execute_script("return document.querySelector('seatkit-map')?.ready === true"), message="the desk's map")
        return d

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

    def schedule_board(self, server):
        # A 20-hall multiplex for a week: 17 more halls (copies of the cinema) beside the samples, a show a hall a day.
        with open(os.path.join(ROOT, "Samples/cinema-hall.json")) as f:
            layout = json.load(f)
        for n in range(17):
            layout["id"] = f"{self.show}-hall-{n:02d}"
            layout["name"] = f"Hall {n + 10}"
            request = urllib.request.Request(server.url + "/v1/venues", data=json.dumps(layout).encode(), method="POST",
                                             headers={"Content-Type": "application/json", "X-Admin-Key": "browser-test-key"})
            self.assertEqual(urllib.request.urlopen(request).status, 201)
        halls = [v["id"] for v in json.loads(server.get("/v1/venues"))]
        self.assertGreaterEqual(len(halls), 20)
        prices = {"categories": {"standard": "38", "vip": "58", "couple": "99"}}
        for day in range(7):
            for hall in halls:
                if not hall.startswith(self.show):
                    continue
                body = {"id": f"{hall}-d{day}", "venueId": hall, "startsAt": f"2099-11-{10 + day}T19:30:00+08:00", "prices": prices}
                self.assertEqual(server.post("/v1/shows", body, admin=True)[0], 201)
        clerk = self.new_browser()
        clerk.get(f"{server.url}/console?show={self.show}&lang=en&week=2099-11-10")
        clerk.find_element(By.ID, "key").send_keys(CLERK_KEY)
        clerk.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        cells = lambda c: c.execute_script("return document.querySelectorAll('#board .board-cell').length")
        self.wait(clerk, lambda c: c.find_elements(By.CSS_SELECTOR, "#board .board-show"), message="the board's shows")
        self.assertLess(cells(clerk), 80, "only the visible cells of 21 × 8 are elements")

        def aligned():
            """Each header cell against a body cell of its column (x) or row (y), by their positions on the page."""
            return clerk.execute_script("""
                const at = (r, c) => document.querySelector(`#board .board-cell[data-row="${r}"][data-column="${c}"]`)?.getBoundingClientRect();
                const body = [...document.querySelectorAll('#board .board-body .board-cell')].map(e => [+e.dataset.row, +e.dataset.column]);
                const out = [];
                for (const [r, c] of body) {
                  const cell = at(r, c), head = at(0, c), side = at(r, 0);
                  if (head) out.push(['column', c, head.x, cell.x, head.width, cell.width]);
                  if (side) out.push(['row', r, side.y, cell.y, side.height, cell.height]);
                }
                return out;""")

        for step, (dx, dy) in enumerate([(0, 0), (333, 517), (-120, 900), (5000, 5000)]):
            if dx or dy:
                clerk.execute_script("const b = document.getElementById('board'), r = b.getBoundingClientRect();"
                                     "b.dispatchEvent(new WheelEvent('wheel', {deltaX: arguments[0], deltaY: arguments[1], clientX: r.x + 300, clientY: r.y + 200, bubbles: true, cancelable: true}))", dx, dy)
            pairs = aligned()
            self.assertGreater(len(pairs), 10, f"step {step}: header and body cells on screen")
            for kind, index, head, cell, head_size, cell_size in pairs:
                self.assertAlmostEqual(head, cell, delta=0.5, msg=f"step {step}: {kind} {index} header vs body")
                self.assertAlmostEqual(head_size, cell_size, delta=0.5)
        offset = clerk.find_element(By.ID, "board").get_attribute("data-offset")
        self.assertNotEqual(offset, "0,0")
        self.assertLess(cells(clerk), 80)
        clerk.find_element(By.ID, "board").screenshot(os.path.join(ARTIFACTS, "console-board.png"))
        # Live counts: a sale elsewhere shows in its cell within a few seconds; a click opens the show on the desk.
        target = f"{self.show}-hall-15-d6"
        button = f'#board .board-show[data-show="{target}"]'
        # The clerk's focus is on that show while the board refreshes: the refresh changes its words, not the element.
        clerk.execute_script("window.focusedShow = document.querySelector(arguments[0]); window.focusedShow.focus()", button)
        self.assertEqual(server.post(f"/v1/shows/{target}/sales", {"seats": ["5-1", "5-2"], "orderRef": "B-1", "payment": "cash"}, admin=True)[0], 201)
        self.wait(clerk, lambda c: "2 sold" in (c.execute_script(f"return document.querySelector('{button}')?.textContent") or ""), timeout=5,
                  message="the sale on the board")
        self.assertTrue(clerk.execute_script("return window.focusedShow.isConnected && document.activeElement === window.focusedShow"),
                        "the focused show's element stays through the refresh, with the focus")
        clerk.find_element(By.CSS_SELECTOR, button).click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "show").get_attribute("value") == target, message="opened on the desk")
        self.wait(clerk, lambda c: c.execute_script("return document.querySelector('seatkit-map').ready && document.querySelector('seatkit-map').seat('5-1')?.status") == "sold",
                  message="the desk's map of that show")
        self.axe(clerk, "the console with the schedule board")
        self.day_board(server, clerk)

    def day_board(self, server, clerk):
        # The day: one hall's shows with their running times, one starting before the one before it ends.
        hall = f"{self.show}-hall-03"
        prices = {"categories": {"standard": "38", "vip": "58", "couple": "99"}}
        for k, (time_of_day, minutes) in enumerate([("10:00", 166), ("12:30", 90), ("15:05", 100)]):
            body = {"id": f"{hall}-t{k}", "venueId": hall, "startsAt": f"2099-11-10T{time_of_day}:00+08:00", "prices": prices,
                    "details": {"title": {"en": f"Film {k}", "zh": f"影片{k}"}, "duration": minutes}}
            self.assertEqual(server.post("/v1/shows", body, admin=True)[0], 201)
        Select(clerk.find_element(By.ID, "board-view")).select_by_value("day")
        self.wait(clerk, lambda c: c.execute_script(f"return !!document.querySelector('#board .board-show[data-show=\"{hall}-t2\"]')"),
                  message="the day view's shows")
        self.assertEqual(clerk.find_element(By.ID, "board-from-label").text, "Day")

        def placed():
            """Each show block against the header's hour it starts in (x: 10 px a 5-minute slot) and its hall (y)."""
            return clerk.execute_script("""
                const rect = e => e.getBoundingClientRect(), out = [];
                const hours = new Map([...document.querySelectorAll('#board .board-hour')].map(e => [e.textContent, rect(e)]));
                for (const e of document.querySelectorAll('#board .board-body .board-slot:not([data-overlaps])')) {
                  const m = +e.dataset.minute, hour = hours.get(`${String(Math.floor(m / 60)).padStart(2, '0')}:00`);
                  const side = document.querySelector(`#board .board-headerColumn .board-cell[data-row="${e.dataset.row}"]`);
                  if (hour) out.push(['x', m, rect(e).x - hour.x, Math.floor((m % 60) / 5) * 10]);
                  if (side) out.push(['y', m, rect(e).y, rect(side).y]);
                }
                return out;""")

        for step, (dx, dy) in enumerate([(0, 0), (333, 65), (300, 400), (5000, 0)]):
            if dx or dy:
                clerk.execute_script("const b = document.getElementById('board'), r = b.getBoundingClientRect();"
                                     "b.dispatchEvent(new WheelEvent('wheel', {deltaX: arguments[0], deltaY: arguments[1], clientX: r.x + 300, clientY: r.y + 200, bubbles: true, cancelable: true}))", dx, dy)
            pairs = placed()
            self.assertGreaterEqual(len(pairs), 4, f"day step {step}: shows and their hours on screen")
            for kind, minute, got, expected in pairs:
                self.assertAlmostEqual(got, expected, delta=0.5, msg=f"day step {step}: {kind} of the show at minute {minute}")
            self.assertLess(len(clerk.find_elements(By.CSS_SELECTOR, "#board .board-cell")), 120, "merged blocks: a show or a gap one element")
        # A show is as wide as its running time; the one that overlaps is marked and says so.
        clerk.execute_script("const b = document.getElementById('board'), r = b.getBoundingClientRect();"
                             "b.dispatchEvent(new WheelEvent('wheel', {deltaX: -9000, deltaY: -9000, clientX: r.x + 300, clientY: r.y + 200, bubbles: true, cancelable: true}))")
        width = clerk.execute_script(f"return document.querySelector('#board .board-show[data-show=\"{hall}-t2\"]').parentElement.getBoundingClientRect().width")
        self.assertAlmostEqual(width, 200, delta=0.5, msg="100 minutes: 20 slots of 10 px")
        overlap = clerk.find_element(By.CSS_SELECTOR, f'#board .board-show[data-show="{hall}-t1"]')
        self.assertIn("board-overlap", overlap.get_attribute("class"))
        self.assertIn("overlaps the show before", overlap.get_attribute("title"))
        # The hall's row at the top for the picture (docs/images/console-board-day.png).
        clerk.execute_script("const b = document.getElementById('board'), r = b.getBoundingClientRect();"
                             "const cell = document.querySelector(`#board .board-show[data-show='${arguments[0]}']`).parentElement.getBoundingClientRect();"
                             "b.dispatchEvent(new WheelEvent('wheel', {deltaX: 0, deltaY: cell.y - r.y - 2 * cell.height, clientX: r.x + 300, clientY: r.y + 200, bubbles: true, cancelable: true}))", f"{hall}-t0")
        clerk.find_element(By.ID, "board").screenshot(os.path.join(ARTIFACTS, "console-board-day.png"))
        self.axe(clerk, "the console with the day's schedule board")
        clerk.find_element(By.CSS_SELECTOR, f'#board .board-show[data-show="{hall}-t2"]').click()
        self.wait(clerk, lambda c: c.find_element(By.ID, "show").get_attribute("value") == f"{hall}-t2", message="the day's show opened on the desk")

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

    # — the map as an element on another page —

    def test_embedded_map_element(self):
        # /web/embed.html: only the element and its events; a real click holds a seat, the API selects and
        # deselects, and Buy (the element's confirm) sells exactly what is held.
        d = self.new_browser()
        d.get(f"{self.server.url}/web/embed.html?show={self.show}&lang=en")
        self.wait(d, lambda d: d.execute_script("return document.querySelector('seatkit-map').ready"), message="the embedded map")
        events = lambda: d.execute_script("return [...document.querySelectorAll('#events li')].map(li => li.textContent)")
        self.assertEqual(events(), [f"ready: {self.show}"])
        self.click_seat(d, "7-1")
        self.wait(d, lambda _: any(e.startswith("hold: active 7-1") for e in events()), message="a hold event")
        self.assertIn("selection: 7-1", events())
        d.execute_script("document.querySelector('seatkit-map').select(['7-2', '7-3'])")
        self.wait(d, lambda _: any(e.startswith("hold: active") and "7-3" in e for e in events()), message="selected by the API")
        d.execute_script("document.querySelector('seatkit-map').deselect('7-3')")
        self.wait(d, lambda _: d.execute_script("return document.querySelector('seatkit-map').hold?.seats.length") == 2, message="deselected")
        self.assertEqual(self.label(d, "7-2"), "Row 7, seat 2, selected, VIP, ¥58.00")
        # A refusal: the element says it in its own toast (this page does not show it itself).
        self.click_seat(d, "2-13")
        toast = self.wait(d, lambda d: d.find_element(By.CSS_SELECTOR, "seatkit-map .map-toast").text or None, message="toast")
        self.assertIn("single empty seat", toast)
        self.assertTrue(any(e.startswith("refusal: ") for e in events()))
        self.wait(d, lambda d: d.find_element(By.ID, "buy").is_enabled(), message="Buy enabled")
        d.find_element(By.ID, "buy").click()
        self.wait(d, lambda _: any(e.startswith("confirmed: WEB-") for e in events()), message="bought")
        sold = {self.index(d, "7-1"), self.index(d, "7-2")}
        self.assertEqual(self.server.sold_in_store(self.show), sold)
        self.axe(d, "the embedded map")
        d.save_screenshot(os.path.join(ARTIFACTS, "embedded-map.png"))

    # — shows as films and events —

    def test_films_with_posters_loaded_near(self):
        # Twelve more films with posters of their own (distinct URLs, so each load is seen).
        for n in range(12):
            body = {"id": f"{self.show}-film{n}", "venueId": "cinema-hall-3", "startsAt": f"2099-12-2{n % 9}T1{n % 10}:00:00+08:00",
                    "prices": {"categories": {"standard": "38", "vip": "58", "couple": "99"}},
                    "details": {"title": {"en": f"Film {n:02d}", "zh": f"影片{n:02d}"}, "format": "2D", "duration": 90 + n,
                                "poster": f"/web/poster-homeward.svg?n={n}"}}
            self.assertEqual(self.server.post("/v1/shows", body, admin=True)[0], 201)
        d = self.open_phone()
        d.get(f"{self.server.url}/?lang=en")
        cards = self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, ".films .film-card"), message="film strip")
        titles = [c.find_element(By.CSS_SELECTOR, ".film-title").text for c in cards]
        self.assertIn("Homeward Among the Stars", titles)
        self.assertIn("Film 11", titles)
        state = lambda: d.execute_script("return [...document.querySelectorAll('.films img.poster')].map(i => [i.dataset.src, i.dataset.poster])")
        self.wait(d, lambda _: any(s == "loaded" for _, s in state()), message="the first posters loaded")
        # On a phone the strip shows two or three cards: those and a screen ahead load, the rest wait.
        waiting = [src for src, s in state() if s == "waiting"]
        self.assertGreaterEqual(len(waiting), 5, f"far posters are not fetched yet: {state()}")
        fetched = d.execute_script("return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.includes('poster-'))")
        self.assertFalse(any(f.endswith(w) for f in fetched for w in waiting), f"no waiting poster was requested: {fetched}")
        d.execute_script("document.querySelector('.films').scrollLeft = 1e6")
        self.wait(d, lambda _: all(s == "loaded" for _, s in state()[-3:]), message="the last posters load when scrolled to")
        # A film's section gives its format, language and running time; its times lead to the picker.
        meta = d.execute_script("return [...document.querySelectorAll('section.film')].find(s => s.querySelector('h3').textContent === 'Film 05').querySelector('.film-meta').textContent")
        self.assertEqual(meta, "2D · 95 min")
        d.save_screenshot(os.path.join(ARTIFACTS, "phone-films.png"))

    # — phones: a 390 × 844 touch screen (Chromium's device emulation, touches sent as real touch events) —

    def open_phone(self, lang="en"):
        d = self.new_browser()
        d.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        d.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        d.get(f"{self.server.url}/shows/{self.show}?lang={lang}")
        self.wait(d, lambda d: d.execute_script("return document.getElementById('map')?.ready === true && document.getElementById('map').dataset.version !== undefined"))
        return d

    def touch_tap(self, d, x, y):
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        d.execute_cdp_cmd("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def rect(self, d, css):
        return d.execute_script("return document.querySelector(arguments[0])?.getBoundingClientRect().toJSON()", css)

    def on_screen(self, d, css):
        """Whether what `css` names is wholly inside the 390 × 844 window as it is now (no scrolling)."""
        r = self.rect(d, css)
        return r is not None and r["width"] > 0 and r["top"] >= 0 and r["left"] >= 0 and r["bottom"] <= 844 and r["right"] <= 390

    def test_phone_buy_bar_under_the_thumb(self):
        d = self.open_phone()
        before = self.seat_rect(d, "5-8")
        # The first look is for a finger: seats of at least 24 points, none under the row gutter.
        self.assertGreaterEqual(before["width"], 24 - 0.01)
        gutter, surface = self.rect(d, "#map-gutter"), self.rect(d, "#map-surface")
        self.assertAlmostEqual(surface["left"], gutter["right"], delta=0.5, msg="the seats are drawn right of the gutter, never under it")
        # The first tap holds the seat where it is (no zoom, no jump) and the bar says so without scrolling.
        self.touch_tap(d, before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
        total = self.wait(d, self.settled_total, message="total after a tap")
        self.assertEqual(total, "¥38.00")
        self.assertEqual(self.seat_rect(d, "5-8"), before, "the seat stays under the finger")
        self.assertEqual(d.execute_script("return window.scrollY"), 0)
        for css in ["#total", "#confirm", '#selection .chip[data-seat="5-8"]', "#countdown"]:
            self.assertTrue(self.on_screen(d, css), f"{css} visible without scrolling: {self.rect(d, css)}")
        # A refusal (5-4 would leave 5-6 alone between it and the held 5-8) is said where the buyer looks.
        lone = self.seat_rect(d, "5-4")
        self.touch_tap(d, lone["x"] + lone["width"] / 2, lone["y"] + lone["height"] / 2)
        message = self.wait(d, lambda d: d.find_element(By.ID, "message").text or None, message="refusal")
        self.assertIn("single empty seat", message)
        self.assertTrue(self.on_screen(d, "#message"), f"the message is on screen: {self.rect(d, '#message')}")
        # A chip's × lets one seat go, without releasing the others.
        ActionChains(d).move_to_element(d.find_element(By.CSS_SELECTOR, '#selection .chip[data-seat="5-8"] .chip-remove')).click().perform()
        self.wait(d, lambda d: not d.find_elements(By.CSS_SELECTOR, "#selection .chip"), message="chip removed")
        self.wait(d, lambda _: self.server.statuses(self.show)[self.index(d, "5-8")] == "a", message="seat released on the server")
        # The purchase by touch alone: the seat again, then Confirm in the bar.
        self.touch_tap(d, before["x"] + before["width"] / 2, before["y"] + before["height"] / 2)
        self.wait(d, self.settled_total, message="held again")
        d.save_screenshot(os.path.join(ARTIFACTS, "phone-picker.png"))
        confirm = self.rect(d, "#confirm")
        self.touch_tap(d, confirm["x"] + confirm["width"] / 2, confirm["y"] + confirm["height"] / 2)
        receipt = self.wait(d, lambda d: d.find_element(By.ID, "receipt").text or None, message="receipt after a touch on Confirm")
        self.assertIn("Row 5, seat 8", receipt)
        self.assertTrue(self.on_screen(d, "#receipt"), "the receipt is on screen without scrolling")
        self.assertEqual(self.server.sold_in_store(self.show), {self.index(d, "5-8")})

    def test_phone_minimap_folds_and_unfolds(self):
        d = self.open_phone()
        self.assertTrue(d.execute_script("return document.getElementById('map-minimap').hasAttribute('hidden')"))
        toggle = d.find_element(By.ID, "minimap-toggle")
        self.assertEqual(toggle.get_attribute("aria-pressed"), "false", "folded on a phone")
        toggle.click()
        self.assertEqual(toggle.get_attribute("aria-pressed"), "true")
        self.assertTrue(self.on_screen(d, "#map-minimap"))
        toggle.click()
        self.assertTrue(d.execute_script("return document.getElementById('map-minimap').hasAttribute('hidden')"))

    # — accessibility: axe-core on every page, both languages, desktop and phone, and the states a buyer meets —

    def axe(self, d, where):
        """axe-core's violations on the page as it is now: WCAG 2.0–2.2 A and AA, and best practices."""
        d.execute_script(AXE_SOURCE)
        violations = d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v =>"
            " `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(', ')}: ${v.nodes[0].failureSummary}`)))")
        self.assertEqual(violations, [], f"axe-core on {where}")

    def test_axe_finds_no_violation_on_any_page(self):
        checked = 0
        rows = iter(["9", "10", "3", "5"])  # each round its own row (the earlier holds stay); a phone's rows above its buy bar
        for phone in [False, True]:
            for lang in ["en", "zh"]:
                where, row = f"{'phone' if phone else 'desktop'} {lang}", next(rows)
                d = self.open_phone(lang) if phone else self.open(lang)

                def tap(seat_id):
                    if not phone:
                        return self.click_seat(d, seat_id)
                    r = self.seat_rect(d, seat_id)
                    self.touch_tap(d, r["x"] + r["width"] / 2, r["y"] + r["height"] / 2)

                self.axe(d, f"the picker, {where}")
                # A hold (Confirm enabled, a chip), then a refusal message, then the list mode.
                tap(f"{row}-8")
                self.wait(d, self.settled_total, message=f"a hold, {where}")
                self.axe(d, f"the picker with a hold, {where}")
                tap(f"{row}-4")
                self.wait(d, lambda d: d.find_element(By.ID, "message").text or None, message=f"refusal, {where}")
                self.axe(d, f"the picker with a refusal, {where}")
                d.find_element(By.ID, "list-toggle").click()
                self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "#list-mode .run button"), message="list mode")
                self.axe(d, f"the list mode, {where}")
                d.get(f"{self.server.url}/?lang={lang}")
                self.wait(d, lambda d: d.find_elements(By.CSS_SELECTOR, "a.card"), message="show list")
                self.axe(d, f"the show list, {where}")
                checked += 5
        self.assertEqual(checked, 20)

if __name__ == "__main__":
    unittest.main(verbosity=2)
