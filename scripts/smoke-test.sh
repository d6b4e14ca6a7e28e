#!/usr/bin/env bash
# Runs the built seatkit binary as a user would and checks exit codes and key output.
set -uo pipefail
seatkit=${1:-.build/debug/seatkit}
cd "$(dirname "$0")/.."
passed=0; failed=0
expect() {  # expect CODE PATTERN -- command...
    local code=$1 pattern=$2; shift 3
    local out; out=$("$@" 2>&1); local got=$?
    if [ "$got" = "$code" ] && grep -q -- "$pattern" <<<"$out"; then passed=$((passed + 1))
    else failed=$((failed + 1)); echo "FAILED: $* (exit $got, wanted $code and /$pattern/)"; echo "$out" | head -5; fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

for f in Samples/cinema-hall.json Samples/imax-hall.json Samples/arena-20k.json Samples/imports/*.json; do
    expect 0 "problems: none" -- "$seatkit" validate "$f"
done
expect 0 "best 4:" -- "$seatkit" best Samples/cinema-hall.json --availability Samples/cinema-hall.availability --count 4
expect 0 "1排15座 1排13座" -- "$seatkit" best Samples/cinema-hall.json --count 2 --wheelchair
expect 1 "couplePair" -- "$seatkit" check Samples/cinema-hall.json --select 11-1
expect 1 "loneSeat" -- "$seatkit" check Samples/cinema-hall.json --select 5-3,5-5
expect 2 "Unknown option" -- "$seatkit" best Samples/cinema-hall.json --count 2 --bogus
expect 3 "no such file" -- "$seatkit" validate /nonexistent.json
printf '{"screeningId":"x","seats":[{"id":"A1","row":"A","col":"1a"}]}' > "$tmp/bad.json"
expect 1 'seats\[0\].col: expected integer, got "1a"' -- "$seatkit" validate "$tmp/bad.json"
expect 0 "wrote" -- "$seatkit" import --from pretix Samples/imports/pretix-plan.json -o "$tmp/p.json"
expect 0 "problems: none" -- "$seatkit" validate "$tmp/p.json"
expect 0 "100000 seats" -- "$seatkit" generate arena --seats 100000 -o "$tmp/a100k.json"
expect 0 "seats 100000" -- "$seatkit" validate "$tmp/a100k.json"
expect 0 "USAGE: seatkit" -- "$seatkit" --help
echo "smoke: $passed passed, $failed failed"
[ "$failed" = 0 ]
