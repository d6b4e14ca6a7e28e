#!/usr/bin/env bash
# check-consumer.sh: builds Tests/Consumer (an app's package using SeatMap, CollectionLayout, SeatCanvas and
# SeatSync in Swift 6 mode, complete concurrency checking) with warnings as errors, in a scratch path of its
# own. A public type whose Sendable or actor stance makes ordinary app code warn fails here.
set -euo pipefail
cd "$(dirname "$0")/../Tests/Consumer"
swift build --scratch-path ../../.build/consumer -Xswiftc -warnings-as-errors -Xswiftc -strict-concurrency=complete 2>&1 | tail -30
echo "consumer: SeatKit's products build in an app's Swift 6 package with no warning"
