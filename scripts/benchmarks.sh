#!/usr/bin/env bash
# Runs SeatKitBench (release) and writes its tables into BENCHMARKS.md with the command and the date.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product SeatKitBench >/dev/null
swift build -c release --product seatkit >/dev/null
tables=$(.build/release/SeatKitBench)
# The web picker's section is written by scripts/bench-web.py (make bench-web): kept as it is.
web=$(sed -n '/<!-- bench-web -->/,/<!-- \/bench-web -->/p' BENCHMARKS.md 2>/dev/null || true)
# The premiere rush is written by scripts/rush.sh's run (15 minutes; not part of make bench): kept as it is.
rush=$(sed -n '/<!-- rush -->/,/<!-- \/rush -->/p' BENCHMARKS.md 2>/dev/null || true)
# The server rows include the shared store: a throwaway PostgreSQL cluster for the run.
server=$(./scripts/with-postgres.sh .build/release/SeatKitBench server)

# The crowd: seatkit simulate against a release server with the samples, on a fresh store.
crowd_dir=$(mktemp -d)
.build/release/seatkit serve --port 18765 --store "sqlite:$crowd_dir/crowd.db" --admin-key bench-admin-key-0123456789 --holds-per-second 0 --trusted-proxies 127.0.0.1 >/dev/null 2>&1 &
serve_pid=$!
trap 'kill $serve_pid 2>/dev/null || true; rm -rf "$crowd_dir"' EXIT
for _ in $(seq 1 100); do curl -sf http://127.0.0.1:18765/healthz >/dev/null && break; sleep 0.1; done
crowd_imax=$(.build/release/seatkit simulate --server http://127.0.0.1:18765 --show imax-2000 --buyers 500 --quiet)
crowd_arena=$(.build/release/seatkit simulate --server http://127.0.0.1:18765 --show arena-concert --buyers 500 --quiet)
kill $serve_pid 2>/dev/null; wait $serve_pid 2>/dev/null || true
{
cat <<HEAD
# Benchmarks

Every figure is measured beside its baseline in the same run, on this project's machine (2 cores, Debian 12,
Swift $(swift --version 2>/dev/null | grep -Eo 'Swift version [0-9.]+' | grep -Eo '[0-9.]+$'), release build), $(date -u +%Y-%m-%d). Produced by:

\`\`\`sh
make bench        # = scripts/benchmarks.sh: swift run -c release SeatKitBench, written into this file
\`\`\`

HEAD
echo "$tables"
echo
echo "$server"
echo
echo "### SeatSync: a crowd of buyers (\`seatkit simulate\`)"
echo
echo "500 buyers, each a real \`SeatSession\` (best available, taps near the centre, drags, abandoned holds; 60% of"
echo "holders buy), all starting at once against a release \`seatkit serve\` on this machine:"
echo
echo "IMAX hall, 520 seats (\`seatkit simulate --server … --show imax-2000 --buyers 500\`):"
echo '```'
echo "$crowd_imax"
echo '```'
echo "Arena, 20,000 seats (\`--show arena-concert\`, at most 4 seats a buyer):"
echo '```'
echo "$crowd_arena"
echo '```'
if [ -n "$rush" ]; then echo; echo "$rush"; fi
if [ -n "$web" ]; then echo; echo "$web"; fi
cat <<'TAIL'

## How to read the tables

- Each row is a figure of ours beside its baseline **measured in the same run** (the naive algorithm, the
  reference server, the other store, the same page with its level of detail off), the ratio, and its goal
  (`✓`/`✗`) or `report` when it has none. The command of a table is in its heading or above it.
- This machine is shared and has 2 cores: a single server figure moves by ±25 % from minute to minute.
  Two builds are compared with `scripts/compare-holds.sh OLD NEW [ROUNDS]` (the binaries taking turns,
  medians, the server's CPU time a hold beside the rate), never across runs of this file.
- The server rows run the load in the benchmark's own process on the same cores, so they understate a
  server on its own machine; the shared-store rows run a throwaway PostgreSQL cluster on them too.
- Every run's figures are appended to `benchmarks/history.jsonl` (one line a row: date, commit, section,
  row, ours, baseline, ratio, goal); `scripts/bench-history.py plot "ROW"` draws a row over time as SVG.
  What each row compares in detail, and what changed or failed to change its figure, is in
  [docs/BENCHMARK-NOTES.md](docs/BENCHMARK-NOTES.md).
TAIL
} > BENCHMARKS.md
echo "wrote BENCHMARKS.md"
