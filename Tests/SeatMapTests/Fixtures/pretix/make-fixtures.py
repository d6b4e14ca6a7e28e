#!/usr/bin/env python3
"""Writes a pretix plan as pretix's seating editor saves it (re-run to regenerate; the tests read the
JSON): areas with a shape, `rectangle`/`ellipse` sizes and `text` as an object, uuids on rows and seats
(the published schema is older: `text` a string, `width`/`height` on the area)."""
import json

def plan():
    rows = []
    for r in range(8):
        seats = [{"seat_guid": f"m-{r + 1}-{s + 1}", "seat_number": str(s + 1), "position": {"x": s * 32 + (40 if s >= 10 else 0), "y": 0},
                  "category": "Premium" if 2 <= r <= 4 else "Standard", "uuid": f"s{r}-{s}"} for s in range(20)]
        rows.append({"row_number": chr(ord("A") + r), "position": {"x": 0, "y": r * 36}, "seats": seats, "uuid": f"r{r}"})
    stage = {"shape": "rectangle", "color": "#cccccc", "border_color": "#000000", "rotation": 0, "uuid": "a1",
             "position": {"x": 60, "y": -110}, "rectangle": {"width": 560, "height": 50},
             "text": {"text": "Stage", "color": "#333333", "position": {"x": 280, "y": 25}}}
    bar = {"shape": "ellipse", "color": "#eeeeee", "border_color": "#000000", "rotation": 0, "uuid": "a2",
           "position": {"x": 700, "y": 150}, "ellipse": {"radius": {"x": 30, "y": 20}}, "text": {"text": "Bar"}}
    return {"name": "Editor Hall", "categories": [{"name": "Standard", "color": "#4a90d9"}, {"name": "Premium", "color": "#e5a000"}],
            "zones": [{"name": "Main", "position": {"x": 100, "y": 200}, "rows": rows, "areas": [stage, bar]}],
            "size": {"width": 900, "height": 600}}

with open("editor-plan.json", "w") as f:
    json.dump(plan(), f, separators=(",", ":"))
    f.write("\n")
