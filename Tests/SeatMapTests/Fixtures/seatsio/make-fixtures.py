"""Writes the seats.io chart-report fixtures: one small livehouse (two rows of six, two tables, a standing
floor, a booth) as the API's byLabel report, and again as a byObjectType report with the renderer's
spellings of the object types (Seat, Table, GeneralAdmissionArea, Booth). Run: python3 make-fixtures.py"""
import json, random

objects = []
for row in "AB":
    for n in range(1, 7):
        label = f"{row}-{n}"
        objects.append({
            "label": label, "labels": {"own": {"label": str(n), "type": "seat"}, "parent": {"label": row, "type": "row"}, "section": "Stalls"},
            "ids": {"own": label, "parent": row, "section": "Stalls"}, "categoryLabel": "Stalls", "categoryKey": 1, "objectType": "seat",
            "section": "Stalls", "entrance": "Main", "leftNeighbour": f"{row}-{n - 1}" if n > 1 else None,
            "rightNeighbour": f"{row}-{n + 1}" if n < 6 else None, "isAccessible": label == "A-6", "distanceToFocalPoint": round(10 + n * 0.7, 2)})
for table, seats, whole in (("T1", 4, True), ("T2", 6, False)):
    objects.append({"label": table, "labels": {"own": {"label": table, "type": "table"}}, "ids": {"own": table},
                    "categoryLabel": "Tables", "categoryKey": 3, "objectType": "table", "bookAsAWhole": whole, "numSeats": seats})
    for n in range(1, seats + 1):
        label = f"{table}-{n}"
        objects.append({"label": label, "labels": {"own": {"label": str(n), "type": "seat"}, "parent": {"label": table, "type": "table"}},
                        "ids": {"own": label, "parent": table}, "categoryLabel": "Tables", "categoryKey": 3, "objectType": "seat"})
objects.append({"label": "Floor", "labels": {"own": {"label": "Floor", "type": "generalAdmission"}}, "ids": {"own": "Floor"},
                "categoryLabel": "Standing", "categoryKey": 2, "objectType": "generalAdmissionArea", "capacity": 100})
objects.append({"label": "B1", "labels": {"own": {"label": "B1", "type": "booth"}}, "ids": {"own": "B1"},
                "categoryLabel": "Booths", "categoryKey": 4, "objectType": "booth"})

# byLabel: a map label → [object], in no particular order (the API's map is unordered).
random.seed(53)
shuffled = objects[:]
random.shuffle(shuffled)
with open("by-label.json", "w") as f:
    json.dump({o["label"]: [o] for o in shuffled}, f, ensure_ascii=False, indent=1)

# byObjectType, with the renderer's spellings of the types.
spelling = {"seat": "Seat", "table": "Table", "generalAdmissionArea": "GeneralAdmissionArea", "booth": "Booth"}
by_type = {}
for o in objects:
    by_type.setdefault(o["objectType"], []).append({**o, "objectType": spelling[o["objectType"]]})
with open("by-object-type.json", "w") as f:
    json.dump(by_type, f, ensure_ascii=False, indent=1)
