#!/usr/bin/env bash
# The premiere rush, replayed on this machine (BENCHMARKS.md, "The rush"): a release `seatkit serve` on a
# fresh embedded store (request lines off: a line a poll would be the benchmark), a show on the 20,000-seat
# arena whose holds last two minutes, its waiting room opening 20 s after the start at 3,000 a minute
# (admissions last two minutes), then `seatkit rush` with 20,000 buyers arriving over 60 s.
# Usage: scripts/rush.sh [BUYERS] [ARRIVE_OVER] [PER_MINUTE]
set -euo pipefail
cd "$(dirname "$0")/.."
BUYERS=${1:-20000} OVER=${2:-60} RATE=${3:-3000}
swift build -c release --product seatkit >/dev/null
BIN=.build/release/seatkit
DIR=$(mktemp -d /tmp/seatkit-rush.XXXX)
PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
KEY=rush-admin-key-$RANDOM$RANDOM$RANDOM
$BIN serve --store "sqlite:$DIR/rush.db" --port "$PORT" --admin-key "$KEY" --holds-per-second 100 --trusted-proxies 127.0.0.1 \
  --log-level notice > "$DIR/server.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null; wait $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 100); do curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.1; done
STARTS=$(date -u -d '+2 days' +%Y-%m-%dT19:00:00+08:00)
curl -sf -X POST "http://127.0.0.1:$PORT/v1/shows" -H "X-Admin-Key: $KEY" -H 'Content-Type: application/json' -d "{
  \"id\":\"rush-premiere\",\"venueId\":\"arena-20000\",\"startsAt\":\"$STARTS\",\"holdSeconds\":120,
  \"prices\":{\"currency\":\"CNY\",\"categories\":{\"lower\":\"580.00\",\"upper\":\"380.00\"}},\"policy\":{\"maxSeats\":4}}" >/dev/null
export SEATKIT_OPERATOR_KEY=$KEY
$BIN queue --server "http://127.0.0.1:$PORT" --show rush-premiere --opens-at "$(date -u -d '+20 seconds' +%Y-%m-%dT%H:%M:%S.000Z)" \
  --admit-per-minute "$RATE" --admission-minutes 2 --max-per-address 4 | head -2
echo "command: seatkit rush --server http://127.0.0.1:$PORT --show rush-premiere --buyers $BUYERS --arrive-over $OVER --poll-every 5"
$BIN rush --server "http://127.0.0.1:$PORT" --show rush-premiere --buyers "$BUYERS" --arrive-over "$OVER" --poll-every 5 --limit 900
