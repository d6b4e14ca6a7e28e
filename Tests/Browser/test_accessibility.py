"""Accessibility: axe-core finds no violation on any page, in both languages, at phone and desktop sizes.
Shared set-up and helpers: support.py."""

import json
import os
import time
import unittest
import urllib.request

from support import *  # noqa: F401,F403 (the suites' shared names)


class AccessibilityTests(PickerCase):

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
                # A phone folds the times, film and tools into one line over the map: unfolded here.
                if d.find_element(By.ID, "show-summary").is_displayed():
                    d.find_element(By.ID, "show-summary").click()
                    self.axe(d, f"the picker's unfolded header, {where}")
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
