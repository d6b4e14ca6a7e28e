#!/usr/bin/env python3
"""check-sendable.py GRAPHS_DIR: every public type of the engine and client modules is Sendable (or an
actor), unless ARCHITECTURE.md's "Not Sendable, on purpose" list names it with its reason. Caseless enums
are namespaces and need no stance. Reads the symbol graphs scripts/docs.sh has just written, so a new
public type whose stance nobody decided fails `make test`."""
import json, os, re, sys

graphs = sys.argv[1]
doc = open(os.path.join(os.path.dirname(__file__), "..", "ARCHITECTURE.md")).read()
section = doc.split("Not Sendable, on purpose", 1)[1].split("\n## ", 1)[0] if "Not Sendable, on purpose" in doc else ""
allowed = set(re.findall(r"^- `([A-Za-z0-9_.]+)`", section, re.M))
missing, checked = [], 0
for module in ["SeatMap", "CollectionLayout", "SeatCanvas", "SeatWire", "SeatSync"]:
    path = os.path.join(graphs, f"{module}.symbols.json")
    data = json.load(open(path))
    sendable = {r["source"] for r in data["relationships"]
                if r["kind"] == "conformsTo" and (r["target"].endswith("s8SendableP") or "Sendable" in r.get("targetFallback", ""))}
    members = {}
    for s in data["symbols"]:
        if len(s["pathComponents"]) > 1:
            members.setdefault(tuple(s["pathComponents"][:-1]), set()).add(s["kind"]["identifier"])
    for s in data["symbols"]:
        kind = s["kind"]["identifier"]
        if kind not in ("swift.struct", "swift.class", "swift.enum", "swift.actor", "swift.protocol"):
            continue
        name = ".".join(s["pathComponents"])
        if kind == "swift.enum" and "swift.enum.case" not in members.get(tuple(s["pathComponents"]), set()):
            continue  # a namespace
        checked += 1
        if kind == "swift.actor" or s["identifier"]["precise"] in sendable or name in allowed:
            continue
        missing.append(f"{module}.{name}")
if missing:
    print("check-sendable: public types with no Sendable stance (make them Sendable, or list them with a reason under "
          "'Not Sendable, on purpose' in ARCHITECTURE.md):\n  " + "\n  ".join(missing))
    sys.exit(1)
print(f"check-sendable: {checked} public types, every one Sendable, an actor or listed with its reason")
