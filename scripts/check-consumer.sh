#!/usr/bin/env bash
# check-consumer.sh: builds Tests/Consumer (an app's package using SeatMap, CollectionLayout, SeatCanvas and
# SeatSync in Swift 6 mode, complete concurrency checking) with warnings as errors, in a scratch path of its
# own. A public type whose Sendable or actor stance makes ordinary app code warn fails here. Then, against
# the modules that build made, what apps must not call (`package` or internal: the naive reference
# algorithms, the fingerprint hash, the event-stream plumbing, the client's cache reads and writes) must
# not compile from an app, while the public API beside it must.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Consumer"
consumer=$(pwd)
# SeatKit's own packages resolve as SeatKit's do: from GitHub, or from the mirrors use-mirrors.sh set up for
# the root package on a machine without internet access (the same file, so the two agree).
# The copy is taken away after the build (make test fails on a file a run leaves: check-tree.py).
if [ -f ../../.swiftpm/configuration/mirrors.json ] && [ ! -e .swiftpm ]; then
    mkdir -p .swiftpm/configuration && cp ../../.swiftpm/configuration/mirrors.json .swiftpm/configuration/
    made_mirrors=1
fi
made_mirrors=${made_mirrors:-0}
swift build --scratch-path ../../.build/consumer -Xswiftc -warnings-as-errors -Xswiftc -strict-concurrency=complete 2>&1 | tail -30
echo "consumer: SeatKit's products build in an app's Swift 6 package with no warning"

modules=../../.build/consumer/debug/Modules
work=$(mktemp -d); trap 'rm -rf "$work"; if [ "$made_mirrors" = 1 ]; then rm -rf "$consumer/.swiftpm"; fi' EXIT
cat >"$work/public.swift" <<'SWIFT'
import SeatMap
import SeatSync
func probe(_ api: SeatAPIClient, _ layout: VenueLayout) async throws {
    _ = try await SeatSession(api: api, show: "s")
    _ = layout.fingerprint
    _ = SelectionPolicy.self
}
SWIFT
swiftc -typecheck -swift-version 6 -I "$modules" "$work/public.swift"
hidden=(ReferenceAlgorithms FNV1a EventSource ServerEvent EventStreamParser keptAvailability keptShow keep)
cat >"$work/hidden.swift" <<'SWIFT'
import SeatMap
import SeatSync
func probe(_ api: SeatAPIClient, _ layout: VenueLayout, _ a: SeatAvailability) {
    _ = ReferenceAlgorithms.self
    _ = FNV1a.self
    _ = EventSource.self
    _ = ServerEvent.self
    _ = EventStreamParser.self
    _ = api.keptAvailability(show: "s", layout: layout)
    _ = api.keptShow("s")
    api.keep(a, show: "s")
}
SWIFT
if out=$(swiftc -typecheck -swift-version 6 -I "$modules" "$work/hidden.swift" 2>&1); then
    echo "consumer: an app reached package-only API" >&2; exit 1
fi
for name in "${hidden[@]}"; do
    if ! grep -q "error: .*'$name" <<<"$out"; then echo "consumer: an app can call $name" >&2; echo "$out" >&2; exit 1; fi
done
echo "consumer: ${#hidden[@]} package-only names are out of an app's reach"
