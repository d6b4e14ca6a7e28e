#!/usr/bin/env python3
"""Every run's benchmark figures as data (#51 item 7): BENCHMARKS.md keeps the current tables only; each
run's rows are appended to benchmarks/history.jsonl, one JSON object a row:
{"date", "commit", "section", "row", and each column of its table ("ours", "baseline", "ours vs baseline", "goal", …)}.

    bench-history.py append [BENCHMARKS.md] [--commit REV] [--date YYYY-MM-DD] [--section TEXT]   (make bench and bench-web run it)
    bench-history.py plot "ROW TEXT" [--column "ours vs baseline"] [-o row.svg]  (an SVG line chart of the row over runs)
    bench-history.py self-test"""

import argparse
import html
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
HISTORY = os.path.join(HERE, "..", "benchmarks", "history.jsonl")
# Times are plotted in microseconds whatever unit a run printed them in.
UNITS = {"ns": 0.001, "µs": 1.0, "us": 1.0, "ms": 1000.0, "s": 1_000_000.0}


def rows(markdown):
    """(section, {column: cell}) for every row of every table, the section the nearest heading above it."""
    section, header, out = "", None, []
    for line in markdown.split("\n"):
        if line.startswith("#"):
            section, header = line.lstrip("#").strip(), None
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if header is None:
                header = cells
            elif not all(re.fullmatch(r":?-+:?", c) for c in cells if c):
                out.append((section, dict(zip(header, cells))))
        else:
            header = None
    return out


def run_date(markdown):
    found = re.search(r"release build\), (\d{4}-\d{2}-\d{2})", markdown)
    return found.group(1) if found else None


def append(path, commit, date, history=HISTORY, section=None):
    text = open(path, encoding="utf-8").read()
    date = date or run_date(text)
    known = set()
    if os.path.exists(history):
        for line in open(history, encoding="utf-8"):
            e = json.loads(line)
            known.add((e["date"], e["commit"], e["section"], e["row"]))
    added = 0
    with open(history, "a", encoding="utf-8") as f:
        for where, cells in rows(text):
            if section and not where.startswith(section):
                continue
            first = next(iter(cells))
            entry = {"date": date, "commit": commit, "section": where, "row": cells[first], **{k: v for k, v in cells.items() if k != first}}
            if (date, commit, where, entry["row"]) in known:
                continue
            f.write(json.dumps(entry, ensure_ascii=False) + "\n")
            added += 1
    return added


def number(cell):
    """The figure in a cell ("822 ns", "1537.4×", "5,737 holds/s"), times in µs; None when there is none."""
    m = re.match(r"\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(ns|µs|us|ms|s)?\b", cell or "")
    if not m:
        return None
    value = float(m.group(1).replace(",", ""))
    return value * UNITS[m.group(2)] if m.group(2) else value


def plot(match, column, history=HISTORY):
    points = []
    for line in open(history, encoding="utf-8"):
        e = json.loads(line)
        if match.lower() in e["row"].lower() and number(e.get(column)) is not None:
            points.append((e["date"], e["commit"], number(e[column]), e["row"]))
    if not points:
        raise SystemExit(f"no run has a row matching {match!r} with a figure in {column!r}")
    w, h, pad = 640, 240, 40
    lo, hi = min(p[2] for p in points), max(p[2] for p in points)
    span = (hi - lo) or 1
    xy = [(pad + (w - 2 * pad) * (k / max(1, len(points) - 1)), h - pad - (h - 2 * pad) * ((p[2] - lo) / span)) for k, p in enumerate(points)]
    dots = "".join(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3"><title>{html.escape(p[0])} {p[1]}: {p[2]:g}</title></circle>'
                   for (x, y), p in zip(xy, points))
    labels = "".join(f'<text x="{x:.1f}" y="{h - 12}" font-size="10" text-anchor="middle">{html.escape(p[0])}</text>' for (x, _), p in zip(xy, points))
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif">'
            f'<text x="{pad}" y="18" font-size="12">{html.escape(points[-1][3])}: {html.escape(column)}</text>'
            f'<text x="4" y="{pad}" font-size="10">{hi:g}</text><text x="4" y="{h - pad}" font-size="10">{lo:g}</text>'
            f'<polyline fill="none" stroke="#1a73e8" stroke-width="2" points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in xy)}"/>'
            f'{dots}{labels}</svg>\n')


def self_test():
    table = """# Benchmarks\n\nEvery figure … (2 cores, release build), 2026-12-04. Produced by:\n\n### SeatMap\n\n| benchmark | ours | baseline | ours vs baseline | goal |\n|---|---:|---:|---:|---|\n| single-seat change | 822 ns | 1.26 ms | 1537.4× | ≥ 1000× ✓ |\n| bytes per seat | 56.5 B |  |  | ≤ 64 ✓ |\n"""
    with tempfile.TemporaryDirectory() as d:
        md, history = os.path.join(d, "B.md"), os.path.join(d, "h.jsonl")
        open(md, "w").write(table)
        assert append(md, "abc", None, history) == 2
        assert append(md, "abc", None, history) == 0, "a run is appended once"
        open(md, "w").write(table.replace("822 ns", "1.1 µs").replace("2026-12-04", "2026-12-05"))
        assert append(md, "def", None, history) == 2
        assert append(md, "ghi", "2026-12-06", history, section="Seat") == 2 and append(md, "jkl", None, history, section="Web") == 0
        entries = [json.loads(l) for l in open(history)]
        assert entries[0] == {"date": "2026-12-04", "commit": "abc", "section": "SeatMap", "row": "single-seat change", "ours": "822 ns",
                              "baseline": "1.26 ms", "ours vs baseline": "1537.4×", "goal": "≥ 1000× ✓"}, entries[0]
        assert abs(number("822 ns") - 0.822) < 1e-12 and number("5,737 holds/s") == 5737 and number("") is None
        svg = plot("single-seat", "ours", history)
        assert svg.count("<circle") == 3 and "2026-12-05" in svg and 'points="40.0,' in svg, svg
    print("bench-history: tables read, a run appended once, units read, a row plotted")


if __name__ == "__main__":
    a = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    a.add_argument("command", choices=["append", "plot", "self-test"])
    a.add_argument("what", nargs="?")
    a.add_argument("--commit")
    a.add_argument("--date")
    a.add_argument("--section", help="only the tables under headings that start so (bench-web's own)")
    a.add_argument("--column", default="ours vs baseline")
    a.add_argument("-o", "--output")
    args = a.parse_args()
    if args.command == "self-test":
        self_test()
    elif args.command == "append":
        commit = args.commit or subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True).stdout.strip()
        n = append(args.what or os.path.join(HERE, "..", "BENCHMARKS.md"), commit, args.date, section=args.section)
        print(f"bench-history: {n} rows appended to benchmarks/history.jsonl")
    else:
        svg = plot(args.what or sys.exit("plot needs a row's text"), args.column)
        (open(args.output, "w").write(svg) if args.output else sys.stdout.write(svg))
