#!/usr/bin/env python3
"""Writes the reseller seat-list fixtures in the shapes found in the wild (re-run to regenerate; the
tests read the JSON files). Flat lists of seats: printed seatRow/seatCol, grid graphRow/graphCol with
gaps for aisles and an empty grid row, piece numbers that group couples (or name priced areas)."""
import json

def grid(rows, aisle_after, empty_after=None):
    """(printed row, printed col, graph row, graph col) for each seat; an aisle after the given cols."""
    out, g = [], 0
    for r, count in enumerate(rows, start=1):
        g += 1
        if empty_after is not None and r == empty_after + 1:
            g += 1
        col = 0
        for c in range(1, count + 1):
            col += 1
            out.append((r, c, g, col))
            if c in aisle_after:
                col += 1
    return out

def write(name, doc):
    with open(name, "w") as f:
        json.dump(doc, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")

# 1. A reseller API: camelCase in a data wrapper; couples (L/R) and one triple (L/M/R) share a
#    seatPieceNo; seatState -1 not for sale, 0 for sale; one unknown state code (2).
seats = []
for (r, c, g, col) in grid([10, 12, 12, 12, 9, 8], aisle_after={2, 10}, empty_after=3):
    t, piece = "N", f"{r:02d}{c:02d}"
    if r == 6:
        t, piece = ("L" if c % 2 == 1 else "R"), f"{r:02d}c{(c + 1) // 2}"
    if r == 5 and c >= 7:
        t, piece = {7: "L", 8: "M", 9: "R"}[c], "05t1"
    state = -1 if (r, c) in {(2, 5), (2, 6), (6, 3), (6, 4)} else 0
    if (r, c) == (4, 1):
        state = 2
    seats.append({"seatNo": f"0006{r:02d}{c:02d}", "seatRow": str(r), "seatCol": str(c), "graphRow": g, "graphCol": col,
                  "seatPieceNo": piece, "seatType": t, "seatState": state})
write("reseller-hall-6.json", {"code": "0", "message": "success", "data": {"hallNo": "6", "hallName": "6号厅 激光厅", "seats": seats}})

# 2. A cinema system's hall answer (XML converted to JSON): PascalCase, every value a string, no
#    status; SeatPieceNo is a priced area named by SeatPieceName (the back rows are the VIP area).
sites = []
for (r, c, g, col) in grid([14] * 5 + [16] * 4, aisle_after={3, 11}):
    piece, name = ("02", "VIP区") if r >= 6 else ("01", "普通区")
    sites.append({"SeatNo": f"05{r:02d}{c:02d}", "SeatRow": str(r), "SeatCol": str(c), "GraphRow": str(g), "GraphCol": str(col),
                  "SeatPieceNo": piece, "SeatPieceName": name, "HallNo": "05"})
write("ctms-hall-5.json", {"GetHallSiteResult": {"ResultCode": "0", "HallNo": "05", "HallName": "5号厅", "HallSites": {"HallSite": sites}}})

# 3. A platform's seat map: a top-level array, status words (SELL, UNSELL, MANUAL_LOCK, DELETE) and type
#    words (NORMAL, LOVE1, LOVE2); a deleted seat leaves a hole; one couple's halves disagree.
items = []
for (r, c, g, col) in grid([8, 8, 8, 8, 8], aisle_after={4}):
    t = "NORMAL"
    if r == 5:
        t = "LOVE1" if c % 2 == 1 else "LOVE2"
    status = "SELL"
    if (r, c) in {(1, 1), (1, 2)}:
        status = "UNSELL"
    if (r, c) in {(3, 4), (3, 5)}:
        status = "MANUAL_LOCK"
    if (r, c) == (2, 8):
        status = "DELETE"
    if (r, c) == (5, 1):
        status = "UNSELL"  # its LOVE2 half (5, 2) says SELL
    items.append({"seatNo": f"{r}-{c}", "seatRow": r, "seatCol": c, "graphRow": g, "graphCol": col, "type": t, "status": status})
write("platform-hall-2.json", items)
