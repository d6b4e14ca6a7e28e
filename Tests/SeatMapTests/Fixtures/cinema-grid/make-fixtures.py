#!/usr/bin/env python3
"""Writes the cinema-grid capture fixtures in the shapes found in the wild (re-run to regenerate;
the tests read the JSON files). Each hall: printed row labels, aisle cells (E), an empty grid row,
couple halves (L/R), sold cells (LK)."""
import json, random

def hall(rows, aisle_after, couple_rows=(), empty_row=None, sold=(), seat_no=lambda r, c: None, seed=1):
    """rows: seats per printed row; aisle_after: grid columns that are aisles; sold: (row, printed number)."""
    rnd = random.Random(seed)
    out, grid_row = [], 0
    for r, count in enumerate(rows, start=1):
        grid_row += 1
        if empty_row is not None and grid_row == empty_row:
            out.append({"row": "", "num": grid_row, "cells": [None] * (count + len(aisle_after))})
            grid_row += 1
        cells, printed = [], 0
        for k in range(count):
            printed += 1
            st = "N"
            if r in couple_rows:
                st = "L" if k % 2 == 0 else "R"
            if (r, printed) in sold:
                st = "LK"
            cells.append({"number": str(printed), "st": st, "no": seat_no(r, printed)})
            if k + 1 in aisle_after:
                cells.append(None)
        out.append({"row": str(r), "num": grid_row, "cells": cells})
    return out

def maoyan(h):
    """The widely copied app capture: top-level seats, camelCase, st only, no hall id."""
    seats = []
    for row in h:
        cols = []
        for c in row["cells"]:
            if c is None:
                cols.append({"columnId": "", "seatNo": "", "st": "E"})
            else:
                cols.append({"columnId": c["number"], "seatNo": c["no"] or f'{row["row"]},{c["number"]}', "st": c["st"]})
        seats.append({"rowId": row["row"], "rowNum": row["num"], "columns": cols})
    return {"seats": seats}

def vendor(h, hall_id, name, available_code, locked_code, locked=()):
    """A cinema system's answer: data wrapper, snake_case, a numeric seat_status with the vendor's meaning."""
    seats = []
    for row in h:
        cols = []
        for c in row["cells"]:
            if c is None:
                cols.append({"column_id": "", "seat_no": "", "seat_status": available_code, "st": "E"})
            else:
                code = locked_code if (row["row"], c["number"]) in locked else available_code
                cols.append({"column_id": c["number"].zfill(2), "seat_no": f'{hall_id}-{row["row"]}-{c["number"]}', "seat_status": code, "st": c["st"]})
        seats.append({"row_id": row["row"], "row_num": row["num"], "columns": cols})
    return {"code": 0, "msg": "ok", "data": {"hall_id": hall_id, "hall_name": name, "seats": seats}}

def camel_wrapped(h, hall_id, name):
    """The same answer camelCased by a gateway, statuses as strings, keeping the data wrapper."""
    seats = []
    for row in h:
        cols = []
        for c in row["cells"]:
            if c is None:
                cols.append({"columnId": "", "seatNo": "", "seatStatus": "0", "st": "E"})
            else:
                cols.append({"columnId": c["number"], "seatNo": f'{row["row"]}_{c["number"]}', "seatStatus": "1" if c["st"] == "LK" else "0", "st": c["st"]})
        seats.append({"rowId": row["row"], "rowNum": row["num"], "columns": cols})
    return {"data": {"hallId": hall_id, "hallName": name, "seats": seats}}

def write(name, doc):
    with open(name, "w") as f:
        json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")

# Maoyan-style captures: a small hall with a couple row at the back, a mid-size hall with two aisles.
small = hall([10, 12, 12, 12, 12, 10, 8], aisle_after={2, 10}, couple_rows=(7,), empty_row=4, sold={(2, 5), (2, 6), (5, 7)})
write("maoyan-hall-3.json", maoyan(small))
mid = hall([14] * 4 + [18] * 8, aisle_after={4, 14}, empty_row=6, sold={(9, k) for k in range(3, 9)} | {(1, 1)})
write("maoyan-hall-8.json", maoyan(mid))
# A vendor whose seat_status 1 means available and 4 locked: every st says N or LK.
vendor_hall = hall([12] * 6 + [16] * 6, aisle_after={4, 12}, couple_rows=(12,), sold={(3, 4)})
write("vendor-status-codes-hall-2.json", vendor(vendor_hall, "hall-2", "2号厅 Hall 2", 1, 4, locked={("6", "1"), ("6", "2"), ("6", "3"), ("3", "4")}))
# A gateway's camelCase with the wrapper kept.
write("camel-wrapped-hall-5.json", camel_wrapped(small, "hall-5", "5号厅 IMAX"))
