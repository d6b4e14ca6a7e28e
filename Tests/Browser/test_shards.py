"""#29: the console of a chain whose shows are on two PostgreSQL shards (each a cluster this suite starts with
scripts/pg-cluster.sh), served by `seatkit serve --shards FILE`. Shared set-up and helpers: support.py."""

import datetime
import json
import os

from support import *  # noqa: F401,F403 (the suites' shared names)


class ShardConsoleTests(PickerCase):
    shards = ("east", "west")

    def api(self, method, path, body=None, key=CLERK_KEY):
        return self.server.send(method, path, body, headers={"Authorization": f"Bearer {key}"})

    def test_console_and_reports_read_both_shards(self):
        """The board, today's takings and the period report of a manager's console show the shows and the money of
        both shards, each figure equal to the API's; the shards' shows are really apart (the rule spread the sample
        shows over both)."""
        status, shows = self.server.send("GET", "/v1/shows", None)
        where = {s["id"]: s.get("shard") for s in shows}
        self.assertEqual(status, 200)
        self.assertEqual(set(where.values()), {"east", "west"}, f"the sample shows on both shards: {where}")
        tomorrow = [s for s in shows if s["id"] in ("hall3-1930", "hall3-2145", "imax-2000", "arena-concert")]
        east = next(s["id"] for s in tomorrow if s["shard"] == "east")
        west = next(s["id"] for s in tomorrow if s["shard"] == "west")
        def free(show, n):
            rows = json.loads(self.server.get(f"/v1/shows/{show}/free-seats"))["zones"][0]["rows"]
            return [seat for r in rows for run in r["runs"] for seat in run["seats"]][:n]
        for show, seats, ref in [(east, free(east, 2), "BOX-EAST"), (west, free(west, 1), "BOX-WEST")]:
            status, order = self.api("POST", f"/v1/shows/{show}/sales", {"seats": seats, "orderRef": ref, "payment": "cash"})
            self.assertEqual(status, 201, order)
            self.assertTrue(order["parts"][0]["holdId"].startswith(f"s_{where[show]}."), order)

        m = self.new_browser()
        m.set_window_size(1440, 1000)
        m.get(f"{self.server.url}/console?show={east}&lang=en")
        console_key(m, MANAGER_KEY)
        m.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        self.wait(m, lambda c: c.execute_script("return document.querySelector('seatkit-map')?.ready === true"), message="signed in")
        # The board: this week's shows of both shards.
        for show in (east, west):
            self.wait(m, lambda c: c.find_elements(By.CSS_SELECTOR, f'#board .board-show[data-show="{show}"]'), message=f"{show} on the board")
        # Today's takings: both counter sales, the total the API's.
        today = datetime.date.today().isoformat()
        self.wait(m, lambda c: c.execute_script("return document.getElementById('today').dataset.loaded") == today, message="today's takings")
        m.find_element(By.ID, "today-refresh").click()
        status, takings = self.api("GET", f"/v1/reports/takings?from={today}&to={(datetime.date.today() + datetime.timedelta(days=1)).isoformat()}", key=MANAGER_KEY)
        self.assertEqual(status, 200)
        self.assertEqual({s["showId"] for s in takings["byShow"]}, {east, west})
        self.wait(m, lambda c: c.execute_script("return document.querySelectorAll('#today-tables [data-table=show] tbody tr').length") == 2,
                  message="both shows' takings")
        self.assertEqual(m.execute_script("return document.querySelector('#today-totals .today-total').dataset.net"), takings["totals"][0]["net"])
        # The period report of tomorrow: every sample show, from both shards, as the API says.
        day = (datetime.date.today() + datetime.timedelta(days=1)).isoformat()
        after = (datetime.date.today() + datetime.timedelta(days=2)).isoformat()
        self.wait(m, lambda c: c.find_element(By.CSS_SELECTOR, "#period-form button").is_displayed(), message="the reports")
        for field, value in [("period-from", day), ("period-to", after)]:
            m.execute_script("document.getElementById(arguments[0]).value = arguments[1]", field, value)
        m.find_element(By.CSS_SELECTOR, "#period-form button").click()
        row = self.wait(m, lambda c: c.execute_script(
            "const r = [...document.querySelectorAll('#day-report tbody tr')].find(r => r.cells[0].textContent === arguments[0]); return r && [...r.cells].map(c => c.textContent)", day),
            message="tomorrow's row")
        status, sales = self.api("GET", f"/v1/reports/sales?from={day}&to={after}", key=MANAGER_KEY)
        api_day = sales["days"][0]
        self.assertEqual({s["showId"] for s in sales["shows"]} >= {east, west}, True, sales["shows"])
        self.assertEqual(api_day["sold"], 3)
        self.assertEqual(row[1:4], [str(api_day["shows"]), str(api_day["seats"]), str(api_day["sold"])])
        self.assertEqual(row[-1], f"¥{api_day['net']}")
        self.axe(m, "the console of a deployment with shards")
        m.find_element(By.ID, "today").screenshot(os.path.join(ARTIFACTS, "console-shards-today.png"))
        m.find_element(By.ID, "reports").screenshot(os.path.join(ARTIFACTS, "console-shards-reports.png"))

    def test_a_manager_moves_a_paused_show_to_the_other_shard(self):
        """The desk says which shard the show is kept on; "move" waits until sales are paused (the button says
        why), then offers the other shard with its shows and moves the show there: the API reads it on its new
        shard, with the seat kept before the move."""
        status, shows = self.server.send("GET", "/v1/shows", None)
        show = [s for s in shows if s.get("shard") == "west" and not s.get("cancelledAt")][-1]["id"]
        seat = json.loads(self.server.get(f"/v1/shows/{show}/free-seats"))["zones"][0]["rows"][0]["runs"][0]["seats"][0]
        # Seats kept for guests (not a sale: the other test counts today's takings).
        status, kept = self.api("POST", f"/v1/shows/{show}/reservations", {"kind": "house", "seats": [seat], "reason": "guests"})
        self.assertEqual(status, 201, kept)

        m = self.new_browser()
        m.set_window_size(1440, 1000)
        m.get(f"{self.server.url}/console?show={show}&lang=zh")
        console_key(m, MANAGER_KEY)
        m.find_element(By.CSS_SELECTOR, "#sign-in button").click()
        where = self.wait(m, lambda c: c.find_element(By.ID, "show-shard").is_displayed() and c.find_element(By.ID, "show-shard").text,
                          message="the shard on the desk")
        self.assertEqual(where, "数据分片 west")
        move = m.find_element(By.ID, "move-show")
        self.assertFalse(move.is_enabled(), "a show on sale is not moved")
        self.assertEqual(m.find_element(By.ID, "move-hint").get_attribute("textContent"), "先暂停售票，才能迁移本场。")
        m.find_element(By.ID, "pause-show").click()
        self.wait(m, lambda c: c.find_element(By.ID, "move-show").is_enabled(), message="movable once paused")
        move.click()
        self.wait(m, lambda c: c.find_element(By.ID, "move-dialog").is_displayed(), message="the move dialog")
        options = m.execute_script("return [...document.querySelectorAll('#move-shard option')].map(o => [o.value, o.textContent, o.disabled])")
        status, listed = self.api("GET", "/v1/shards", key=MANAGER_KEY)
        east = next(s for s in listed["shards"] if s["name"] == "east")
        self.assertEqual(options, [["east", f"east · {east['shows']} 个场次", False]], "the other shard, with its shows")
        self.axe(m, "the console's move dialog")
        m.find_element(By.ID, "move-dialog").screenshot(os.path.join(ARTIFACTS, "console-shards-move.png"))
        m.find_element(By.ID, "move-confirm").click()
        self.wait(m, lambda c: c.find_element(By.ID, "desk-message").text == "本场已迁移到分片 east。", message="moved")
        self.assertEqual(m.find_element(By.ID, "show-shard").text, "数据分片 east")
        status, moved = self.server.send("GET", f"/v1/shows/{show}", None)
        self.assertEqual(moved["shard"], "east")
        status, after = self.api("GET", f"/v1/reservations/{kept['id']}")
        self.assertEqual((status, after["seats"]), (200, [seat]), "the kept seat moved with the show")
        m.find_element(By.ID, "desk").screenshot(os.path.join(ARTIFACTS, "console-shards-desk.png"))


if __name__ == "__main__":
    unittest.main()
