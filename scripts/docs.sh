#!/usr/bin/env bash
# docs.sh [OUT]: the DocC documentation of every public module as one static site in OUT (default
# .build/docs-site): symbol graphs from `swift build` (a build of its own, .build/docs), then the
# toolchain's `docc convert` per module with --warnings-as-errors, so a broken ``Symbol`` link in a
# catalog or a doc comment fails the run (and `make test`, which runs this). SeatKitUI is UIKit and
# SwiftUI only: its symbol graph comes from scripts/check-uikit.sh, which type-checks it on Linux
# against stand-ins for the two (Tests/UIKitStub, Tests/SwiftUIStub). The engine's graphs also check
# every public type's Sendable stance (scripts/check-sendable.py).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-.build/docs-site}
graphs=$PWD/.build/docs-symbols
# The graphs are written when a module compiles: a build with nothing to do writes none, so they are
# kept beside that build (only the per-module copies are made afresh).
rm -rf "$out" "$graphs"/[A-Z]*
mkdir -p "$graphs/all" "$out"
for target in SeatCanvas SeatSync; do  # with their dependencies: SeatMap, CollectionLayout
    swift build --scratch-path .build/docs --target "$target" -Xswiftc -warnings-as-errors \
        -Xswiftc -emit-symbol-graph -Xswiftc -emit-symbol-graph-dir -Xswiftc "$graphs/all" >/dev/null
done
python3 scripts/check-sendable.py "$graphs/all"
SEATKITUI_SYMBOL_GRAPHS="$graphs/all" ./scripts/check-uikit.sh >/dev/null
for module in SeatMap CollectionLayout SeatCanvas SeatSync SeatKitUI; do
    mkdir -p "$graphs/$module"
    cp "$graphs/all/$module".symbols.json "$graphs/all/$module"@*.symbols.json "$graphs/$module/" 2>/dev/null || true
    if ! docc convert "Sources/$module/$module.docc" --additional-symbol-graph-dir "$graphs/$module" --output-dir "$out/$module" \
        --fallback-display-name "$module" --fallback-bundle-identifier "org.seatkit.$module" \
        --transform-for-static-hosting --hosting-base-path "$module" --warnings-as-errors >"$graphs/$module.log" 2>&1; then
        cat "$graphs/$module.log" >&2
        echo "docs: $module failed (a broken link or a warning above)" >&2
        exit 1
    fi
    echo "docs: $module ($(find "$out/$module/data" -name '*.json' | wc -l) pages)"
done
cat >"$out/index.html" <<'HTML'
<!doctype html>
<html lang="en"><meta charset="utf-8"><title>SeatKit documentation</title>
<h1>SeatKit documentation</h1>
<ul>
<li><a href="SeatMap/documentation/seatmap/">SeatMap</a>: venues, availability, rules, prices, importers</li>
<li><a href="CollectionLayout/documentation/collectionlayout/">CollectionLayout</a>: headless virtualization</li>
<li><a href="SeatCanvas/documentation/seatcanvas/">SeatCanvas</a>: the seat map as a picture</li>
<li><a href="SeatSync/documentation/seatsync/">SeatSync</a>: the client and the buyer's session</li>
<li><a href="SeatKitUI/documentation/seatkitui/">SeatKitUI</a>: the UIKit and SwiftUI views</li>
</ul>
</html>
HTML
echo "docs: $out/index.html"
