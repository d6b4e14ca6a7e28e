#!/usr/bin/env python3
"""ARCHITECTURE.md's module table against Package.swift and the sources' imports, and one lock type.

For every target of Package.swift (test targets aside): a row of the table names it, the row's
"depends on" column names exactly the target's dependencies (other targets), and every module a source
file of the target imports is Foundation-level or one of those dependencies. Exits 1 with each
difference named."""
import pathlib, re, sys

root = pathlib.Path(__file__).resolve().parent.parent
package = (root / "Package.swift").read_text()
platform = {"Foundation", "FoundationNetworking", "FoundationEssentials", "Glibc", "Musl", "Dispatch", "UIKit", "SwiftUI", "CoreGraphics", "AVFoundation",
            "Testing", "XCTest", "PackageDescription", "os", "Darwin", "CryptoKit", "Synchronization"}

targets = {}
for m in re.finditer(r'\.(target|executableTarget|systemLibrary|testTarget)\(\s*name:\s*"([A-Za-z]+)"(.*?)\)\s*,\s*(?=\n\s*(?://|\.|\]))', package, re.S):
    kind, name, rest = m.groups()
    deps = re.search(r'dependencies:\s*\[([^\]]*)\]', rest)
    targets[name] = (kind, set(re.findall(r'"([A-Za-z]+)"', deps.group(1))) if deps else set())

# Outside packages' products (`.product(name: "Logging", package: "swift-log")`): named in the table like targets.
products = set(re.findall(r'\.product\(name:\s*"([A-Za-z]+)"', package))

table = {}
for line in (root / "ARCHITECTURE.md").read_text().splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) == 4 and cells[0].startswith("`"):
        for name in re.findall(r"`([A-Za-z]+)`", cells[0]):
            table[name] = set(re.findall(r"\b([A-Z][A-Za-z]+)\b", cells[3])) - platform

problems = []
for name, (kind, deps) in sorted(targets.items()):
    if kind == "testTarget":
        continue
    if name not in table:
        problems.append(f"{name}: no row in ARCHITECTURE.md's module table")
        continue
    if kind != "systemLibrary":
        named = {d for d in table[name] if d in targets or d in products}
        if named != deps:
            problems.append(f"{name}: the table says {sorted(named)}, Package.swift says {sorted(deps)}")
    src = root / "Sources" / name
    for f in src.rglob("*.swift") if src.exists() else []:
        for imp in re.findall(r"^\s*(?:@testable\s+|@_exported\s+)?import\s+([A-Za-z]+)\s*(?://.*)?$", f.read_text(), re.M):
            if imp not in platform and imp != name and imp not in deps:
                problems.append(f"{f.relative_to(root)} imports {imp}, which {name} does not depend on")
# One lock type: Locked<Value> (SharedState; ARCHITECTURE.md says why not the standard library's Mutex).
# A hand-made lock box anywhere else is a difference.
for f in list((root / "Sources").rglob("*.swift")) + list((root / "Tests").rglob("*.swift")):
    if f.parts[-2] == "SharedState":
        continue
    for k, line in enumerate(f.read_text().splitlines(), 1):
        if re.search(r"\b(NSLock|NSCondition|NSRecursiveLock|pthread_mutex_t|os_unfair_lock|Mutex)\s*[(<]", line) and not line.strip().startswith("//"):
            problems.append(f"{f.relative_to(root)}:{k}: a lock that is not Locked<Value> (SharedState)")
# The domain knows no database: no store type, no database error, no SQLite code (the stores adapt to
# SeatDomain's words; `store.sharing` says what a shared store adds).
for f in (root / "Sources" / "SeatInventory").rglob("*.swift"):
    for k, line in enumerate(f.read_text().splitlines(), 1):
        if re.search(r"\b(DatabaseError|PostgresError|SQLITE_[A-Z]+|SQLiteStore|PostgresStore|PostgresConnection|SQLSTATE|assignsVersions)\b", line):
            problems.append(f"{f.relative_to(root)}:{k}: the domain names a database ({line.strip()[:80]})")
        # The API writes every answer through its SeatWire type; the domain hands it values.
        if re.search(r"\bJSONWriter\b", line) and not line.strip().startswith("//"):
            problems.append(f"{f.relative_to(root)}:{k}: the domain writes JSON (answers are SeatWire types, written by the API)")
# `@unchecked Sendable` only where a comment just above says why the compiler cannot see it.
for f in (root / "Sources").rglob("*.swift"):
    lines = f.read_text().splitlines()
    for k, line in enumerate(lines):
        if "@unchecked Sendable" in line and not line.strip().startswith("//"):
            above = " ".join(lines[max(0, k - 6):k])
            if "`@unchecked" not in above:
                problems.append(f"{f.relative_to(root)}:{k + 1}: @unchecked Sendable without a comment above saying why (`@unchecked ...`)")
# The lock table of "Threads and locks" names real locks: each `Type.property` of its first column is a
# Locked or Atomic stored property declared inside that type.
arch = (root / "ARCHITECTURE.md").read_text()
section = arch.split("## Threads and locks", 1)[1] if "## Threads and locks" in arch else ""
sources = {f: f.read_text() for f in (root / "Sources").rglob("*.swift")}
for line in section.splitlines():
    if not line.startswith("| `") or "guards" in line:
        continue
    first = line.split("|")[1]
    for owner, prop in re.findall(r"`([A-Z][A-Za-z]+)\.([a-z][A-Za-z]+)`", first):
        found = False
        for f, text in sources.items():
            m = re.search(r"(class|struct|enum|actor|extension) %s\b" % owner, text)
            if m and re.search(r"\blet %s\s*(=\s*(Locked|Atomic)\b|:\s*(Locked|Atomic)<)" % prop, text[m.start():]):
                found = True
                break
        if not found:
            problems.append(f"ARCHITECTURE.md's lock table names {owner}.{prop}, which is no Locked or Atomic of {owner}")
# The web app (Sources/SeatServer/Web/Site/js): the network only through api.js (its retries, deadlines
# and problem documents in one place); one element lookup `$` (ui.js); the headless modules (the engine's
# rules, the codecs, the after-sale terms: what `node --test` runs without a browser) touch no page and
# import only each other; every import names a module that exists.
web = root / "Sources/SeatServer/Web/Site/js"
HEADLESS = {"engine.js", "availability.js", "geometry.js", "order-terms.js", "queue-place.js", "ticket.js", "api.js"}
for f in sorted(web.glob("*.js")):
    code = "\n".join(line for line in f.read_text().splitlines() if not line.lstrip().startswith("//"))
    where = f.relative_to(root)
    if f.name != "api.js" and re.search(r"\bfetch\(", code):
        problems.append(f"{where}: fetch outside api.js (call the API through api.js)")
    if f.name != "ui.js" and re.search(r"\b(const|let|var|function)\s+\$\s*(=|\()", code):
        problems.append(f"{where}: a $ of its own (import ui.js's)")
    if f.name != "i18n.js" and re.search(r"\[lang\(\)\]|typeof \w+ === 'function' \? \w+\(\.\.\.args\)", code):
        problems.append(f"{where}: a phrase table read by hand (make its lookup with i18n.js's phrasebook)")
    for name in re.findall(r"from\s+'\./([A-Za-z0-9_-]+\.js)'", code):
        if not (web / name).exists():
            problems.append(f"{where}: imports ./{name}, which does not exist")
        elif f.name in HEADLESS and name not in HEADLESS:
            problems.append(f"{where}: a headless module imports ./{name}, which is not one")
    if f.name in HEADLESS and f.name != "api.js" and re.search(r"\b(document|window)\.|\b(localStorage|sessionStorage)\b", code):
        problems.append(f"{where}: a headless module touches the page")
for name in table:
    if name not in targets and name not in products:
        problems.append(f"ARCHITECTURE.md names {name}, which Package.swift does not have")
for p in problems:
    print("check-architecture:", p)
print(f"check-architecture: {len(targets)} targets, {len(problems)} differences")
sys.exit(1 if problems else 0)
