#!/usr/bin/env bash
# A tour of seatkit on the sample venues: what `make demo` runs.
set -euo pipefail
seatkit=${1:-.build/debug/seatkit}
cd "$(dirname "$0")/.."
step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@" || true; }

step "$seatkit" validate Samples/cinema-hall.json
step "$seatkit" best Samples/cinema-hall.json --availability Samples/cinema-hall.availability --count 4
step "$seatkit" best Samples/cinema-hall.json --count 2 --zone couple
step "$seatkit" best Samples/cinema-hall.json --count 2 --wheelchair
step "$seatkit" check Samples/cinema-hall.json --availability Samples/cinema-hall.availability --select 7排3座,7排1座
step "$seatkit" check Samples/cinema-hall.json --select 5-3,5-2
step "$seatkit" check Samples/cinema-hall.json --select 11-1
tmp=$(mktemp -d)
step "$seatkit" import --from cinema-grid Samples/imports/cinema-grid.json -o "$tmp/hall-7.json" --availability-out "$tmp/hall-7.availability"
step "$seatkit" best "$tmp/hall-7.json" --availability "$tmp/hall-7.availability" --count 3
step "$seatkit" validate Samples/arena-20k.json
rm -rf "$tmp"
