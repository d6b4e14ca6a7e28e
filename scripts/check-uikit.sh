#!/usr/bin/env bash
# SeatKitUI cannot be built on Linux (UIKit is Apple's), so it is checked as far as Linux allows:
#   1. every file of the module and of the example app parses (swiftc -parse);
#   2. the module and the example type-check (Swift 6 mode, strict concurrency) against the real engine
#      modules and a stand-in for the UIKit API they use (Tests/UIKitStub: Apple's names and signatures,
#      empty bodies), so a wrong engine call, a wrong type or an isolation error fails here, not in Xcode.
#      Linux has no Objective-C runtime, so for this check `@objc` is dropped and `#selector(m)` becomes
#      `Selector(String(describing: m as Any))`: the method must still exist.
# Run by `make test`; needs the engine built (`swift build`). With SEATKITUI_SYMBOL_GRAPHS=DIR it also
# writes SeatKitUI's symbol graph there (scripts/docs.sh: the module's DocC pages and their links).
set -euo pipefail
cd "$(dirname "$0")/.."
ui=$(find Sources/SeatKitUI -name '*.swift' | sort)
example=$(find Examples/SeatPickerApp -name '*.swift' | sort)
for f in $ui $example; do swiftc -parse "$f"; done
echo "parse: $(echo $ui $example | wc -w) files ok"

modules=$(swift build --show-bin-path)/Modules
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
rewrite() {  # rewrite DEST FILES...: copies with @objc dropped and #selector spelled out
    local dest=$1; shift; mkdir -p "$dest"
    python3 - "$dest" "$@" <<'PY'
import os, re, sys
dest = sys.argv[1]
for path in sys.argv[2:]:
    text = open(path).read().replace("@objc ", "")
    text = re.sub(r"#selector\(([A-Za-z_][A-Za-z0-9_]*(?:\([A-Za-z_:]*\))?)\)", r"Selector(String(describing: \1 as Any))", text)
    open(os.path.join(dest, path.replace("/", "_")), "w").write(text)
PY
}
rewrite "$work/ui" $ui
rewrite "$work/example" $example
swiftc -emit-module -parse-as-library -module-name UIKit -swift-version 5 Tests/UIKitStub/UIKit.swift -emit-module-path "$work/UIKit.swiftmodule"
swiftc -emit-module -parse-as-library -module-name AVFoundation -swift-version 5 -I "$work" Tests/UIKitStub/AVFoundation.swift -emit-module-path "$work/AVFoundation.swiftmodule"
swiftc -emit-module -parse-as-library -module-name SwiftUI -swift-version 5 -I "$work" Tests/SwiftUIStub/SwiftUI.swift -emit-module-path "$work/SwiftUI.swiftmodule"
symbols=()
if [ -n "${SEATKITUI_SYMBOL_GRAPHS:-}" ]; then
    mkdir -p "$SEATKITUI_SYMBOL_GRAPHS"
    symbols=(-emit-symbol-graph -emit-symbol-graph-dir "$SEATKITUI_SYMBOL_GRAPHS")
fi
swiftc -emit-module -parse-as-library -module-name SeatKitUI -swift-version 6 -warnings-as-errors -I "$work" -I "$modules" "$work"/ui/*.swift \
    -emit-module-path "$work/SeatKitUI.swiftmodule" "${symbols[@]}"
echo "type-check: SeatKitUI ok ($(cat $ui | wc -l) lines)"
swiftc -typecheck -parse-as-library -module-name SeatPickerApp -swift-version 6 -warnings-as-errors -I "$work" -I "$modules" "$work"/example/*.swift
echo "type-check: Examples/SeatPickerApp ok"

#   3. the same against the SwiftUI stand-in as an app whose target is iOS 17 or later sees it (what the SDK
#      deprecates by iOS 17 deprecated outright): a deprecated call outside an `if #available` fallback is
#      a warning, so an error here (the real SDK once gave three, for `onChange(of:perform:)`).
ios17="$work/ios17"; mkdir -p "$ios17"
cp "$work/UIKit.swiftmodule" "$work/AVFoundation.swiftmodule" "$ios17/"
swiftc -emit-module -parse-as-library -module-name SwiftUI -swift-version 5 -D SWIFTUI_STUB_IOS17_TARGET -I "$ios17" Tests/SwiftUIStub/SwiftUI.swift \
    -emit-module-path "$ios17/SwiftUI.swiftmodule"
swiftc -emit-module -parse-as-library -module-name SeatKitUI -swift-version 6 -warnings-as-errors -I "$ios17" -I "$modules" "$work"/ui/*.swift \
    -emit-module-path "$ios17/SeatKitUI.swiftmodule"
swiftc -typecheck -parse-as-library -module-name SeatPickerApp -swift-version 6 -warnings-as-errors -I "$ios17" -I "$modules" "$work"/example/*.swift
echo "type-check as built for iOS 17 or later: SeatKitUI and Examples/SeatPickerApp ok"

#   4. with SEATKIT_IOS_SDK=PATH/iPhoneOS18.6.sdk (an SDK fetched for the purpose; none ships with SeatKit),
#      the stand-ins' Sendable facts against that SDK's headers and overlays (scripts/check-stub-sendable.py).
if [ -n "${SEATKIT_IOS_SDK:-}" ]; then python3 scripts/check-stub-sendable.py "$SEATKIT_IOS_SDK" | tail -1; fi
