"""What the browser suites share: the web seat picker in a real headless Chromium (Debian's chromium + chromium-driver, driven by
Selenium through WebDriver), against a `seatkit serve` this file starts on a free loopback port with a
fresh SQLite store. Run by `make test-browser` (part of `make test` and `.ci/run`): one suite a file, by area
(test_buying, test_map, test_live, test_console, test_phone, test_accessibility, test_queue, test_door), each with a server of its own.

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
import urllib.parse
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
DOOR_KEY = "zhao-door-key-0123456789"
MANAGER_KEY = "wang-manager-key-0123456789"
STRIPE_WEBHOOK_SECRET = "whsec_seatkit_browser_0123456789"


def console_key(d, key):
    """Types an operator's key into the console's sign-in (under its disclosure: people sign in with a name and password)."""
    d.execute_script("document.querySelector('.key-sign-in')?.setAttribute('open', '')")
    d.find_element(By.ID, "key").send_keys(key)


class Server:
    """`seatkit serve` on a free port with its own store; stopped with SIGTERM."""

    def __init__(self, shards=(), payments=False):
        """`shards`: names of shards, each a PostgreSQL cluster of its own started here (scripts/pg-cluster.sh),
        served with `--shards FILE` instead of the SQLite store. `payments`: WeChat Pay and Alipay online,
        played by the payment sandbox (Tests/Payments/sandbox.py, test money) this starts on a port of its own,
        and cards with Stripe, played by localstripe (whose own Stripe.js the page loads)."""
        self.dir = tempfile.mkdtemp(prefix="seatkit-browser-")
        self.sandbox = None
        self.localstripe = None
        if payments:
            python = os.environ.get("PYTHON", "python3")
            self.sandbox_port = free_port()
            self.sandbox = subprocess.Popen([python, os.path.join(ROOT, "Tests/Payments/sandbox.py"),
                                             "--port", str(self.sandbox_port)], stdout=subprocess.DEVNULL)
            self.sandbox_url = f"http://127.0.0.1:{self.sandbox_port}"
            self.stripe_port = free_port()
            self.localstripe = subprocess.Popen([python, "-m", "localstripe", "--port", str(self.stripe_port), "--from-scratch"],
                                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.stripe_url = f"http://127.0.0.1:{self.stripe_port}"
            wait_until_up(self.sandbox_url + "/_sandbox/health", "the payment sandbox (make payment-deps)")
            wait_until_up(self.stripe_url + "/js.stripe.com/v3/", "localstripe (make payment-deps)")
        self.db = os.path.join(self.dir, "store.db")
        self.clusters = []
        for name in shards:
            cluster = tempfile.mkdtemp(prefix=f"seatkit-shard-{name}-")
            os.rmdir(cluster)
            subprocess.run([os.path.join(ROOT, "scripts/pg-cluster.sh"), cluster, "start"], check=True, stdout=subprocess.DEVNULL)
            url = subprocess.run([os.path.join(ROOT, "scripts/pg-cluster.sh"), cluster, "url"], check=True, capture_output=True, text=True).stdout.strip()
            self.clusters.append((name, cluster, url))
        self.store = ["--store", f"sqlite:{self.db}"]
        if self.clusters:
            path = os.path.join(self.dir, "shards.txt")
            with open(path, "w") as f:
                f.writelines(f"{name} {url}\n" for name, _, url in self.clusters)
            self.store = ["--shards", path]
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.start()

    def start(self):
        self.log = open(os.path.join(self.dir, "server.log"), "a")
        self.process = subprocess.Popen(
            [BIN, "serve", *self.store, "--port", str(self.port), "--admin-key", "browser-test-key",
             "--operators", self.operators(), *self.payments()],
            stdout=self.log, stderr=subprocess.STDOUT)
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                if urllib.request.urlopen(self.url + "/healthz", timeout=1).status == 200:
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("seatkit serve did not start: " + open(self.log.name).read())

    def payments(self):
        """`--payments FILE` for the sandbox's WeChat Pay and Alipay (the test keys), notifying this server; none without it."""
        if not self.sandbox:
            return []
        keys, path = os.path.join(ROOT, "Tests/Payments/keys"), os.path.join(self.dir, "payments.txt")
        notify = f"http://127.0.0.1:{self.port}/v1/payments"
        with open(path, "w") as f:
            f.write(f"wechatpay mchid=1900009191 appid=wxd678efh567hg6787 serial=3775B6A45ACD588826FF8B79F5DCBE6B1F8C8B4E "
                    f"privateKey={keys}/merchant-key.pem apiV3Key=SeatKitSandboxApiV3Key0123456789 platformCert={keys}/platform-cert.pem "
                    f"notifyUrl={notify}/wechatpay/notify api={self.sandbox_url}\n")
            f.write(f"alipay appId=2021000117600000 privateKey={keys}/alipay-app-key.pem alipayPublicKey={keys}/alipay-public.txt "
                    f"notifyUrl={notify}/alipay/notify gateway={self.sandbox_url}/gateway.do\n")
            f.write(f"stripe secretKey=sk_test_seatkit webhookSecret={STRIPE_WEBHOOK_SECRET} publishableKey=pk_test_seatkit api={self.stripe_url}\n")
        # localstripe signs its webhooks with the endpoint's secret, as Stripe does.
        form = urllib.parse.urlencode([("url", f"{notify}/stripe/notify"), ("secret", STRIPE_WEBHOOK_SECRET),
                                       ("events[]", "payment_intent.succeeded"), ("events[]", "payment_intent.payment_failed")]).encode()
        urllib.request.urlopen(urllib.request.Request(self.stripe_url + "/_config/webhooks/seatkit", data=form, method="POST"), timeout=5).close()
        return ["--payments", path]

    def operators(self):
        """The operators file: li at the box office (the console's clerk), zhao at the door and wang the manager, by the SHA-256 of their keys."""
        path = os.path.join(self.dir, "operators.txt")
        with open(path, "w") as f:
            f.write(f"li boxoffice sha256:{hashlib.sha256(CLERK_KEY.encode()).hexdigest()}\n")
            f.write(f"zhao door sha256:{hashlib.sha256(DOOR_KEY.encode()).hexdigest()}\n")
            f.write(f"wang manager sha256:{hashlib.sha256(MANAGER_KEY.encode()).hexdigest()}\n")
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
        for helper in (self.sandbox, self.localstripe):
            if helper:
                helper.terminate()
                helper.wait(timeout=15)
        for _, cluster, _ in self.clusters:
            subprocess.run([os.path.join(ROOT, "scripts/pg-cluster.sh"), cluster, "stop"], check=False, stdout=subprocess.DEVNULL)
            subprocess.run(["rm", "-rf", cluster], check=False)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(url, what):
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            if urllib.request.urlopen(url, timeout=1).status == 200:
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{what} did not start at {url}")


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



class PickerCase(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        os.makedirs(ARTIFACTS, exist_ok=True)
        cls.server = Server(getattr(cls, "shards", ()), payments=getattr(cls, "payments", False))
        cls.drivers = []
        # A suite's own venue files (Samples/…), made through the API as an operator would.
        for path in getattr(cls, "venues", ()):
            with open(os.path.join(ROOT, path), "rb") as f:
                request = urllib.request.Request(cls.server.url + "/v1/venues", data=f.read(), method="POST",
                                                 headers={"Content-Type": "application/json", "X-Admin-Key": "browser-test-key"})
            assert urllib.request.urlopen(request).status == 201, path

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
        # A list re-rendered between finding an element and reading it (the selection chips redraw on
        # every event from the other tab) is read again at the next poll, not a failure: CI stop 57.
        try:
            return WebDriverWait(d, timeout, poll_frequency=0.05,
                                 ignored_exceptions=(StaleElementReferenceException,)).until(condition)
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
        """The centre of a seat's square in the window, once it is where it stays: read again after the next
        two frames until two reads agree (a window just resized lays the map out again a frame later, and a
        click at the old point took the seat above: CI stop 68)."""
        point = self.seat_point_now(d, seat_id)
        for _ in range(20):
            d.execute_async_script("const done = arguments[0]; requestAnimationFrame(() => requestAnimationFrame(() => done()));")
            again = self.seat_point_now(d, seat_id)
            if again == point:
                return point
            point = again
        return point

    def seat_point_now(self, d, seat_id):
        """The centre of a seat's square in the window now: the page scrolled to it if need be (the map's view
        is left alone when the seat is on it, else zoomed to it, as a buyer would)."""
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

    def assert_resynced_and_live(self, d, timeout):
        """A second snapshot came, the stream is live, and another buyer's hold turns grey."""
        self.wait(d, lambda d: d.find_element(By.ID, "map").get_attribute("data-snapshots") == "2", timeout=timeout,
                  message="a fresh snapshot")
        self.wait(d, lambda d: d.find_element(By.ID, "connection").get_attribute("data-state") == "live", message="live again")
        status, _ = self.server.post(f"/v1/shows/{self.show}/holds", {"seats": ["4-7", "4-5"]})
        self.assertEqual(status, 201)
        self.wait(d, lambda d: self.status(d, "4-7") == "held", timeout=2, message="live after the resync")

    def sign_in_console(self, key):
        d = self.new_browser()
        d.get(f"{self.server.url}/console?show={self.show}&lang=en")
        console_key(d, key)
        d.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(d, lambda c: c.execute_script("return document.querySelector('seatkit-map')?.ready === true"), message="the desk's map")
        return d

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
        console_key(clerk, CLERK_KEY)
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
        # The server refuses a show that runs into another (schedule-clash), so the overlapping one has no
        # running time (drawn two hours long): as a show made before it was given one.
        for k, (time_of_day, minutes) in enumerate([("10:00", 166), ("12:30", None), ("15:05", 100)]):
            body = {"id": f"{hall}-t{k}", "venueId": hall, "startsAt": f"2099-11-10T{time_of_day}:00+08:00", "prices": prices,
                    "details": {"title": {"en": f"Film {k}", "zh": f"影片{k}"}, **({"duration": minutes} if minutes else {})}}
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

    # — accessibility: axe-core on every page, both languages, desktop and phone, and the states a buyer meets —

    def axe(self, d, where):
        """axe-core's violations on the page as it is now: WCAG 2.0–2.2 A and AA, and best practices."""
        d.execute_script(AXE_SOURCE)
        violations = d.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v =>"
            " `${v.id} (${v.impact}): ${v.nodes.map(n => n.target.join(' ')).slice(0, 5).join(', ')}: ${v.nodes[0].failureSummary}`)))")
        self.assertEqual(violations, [], f"axe-core on {where}")
