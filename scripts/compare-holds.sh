#!/usr/bin/env bash
# compare-holds.sh SEATKIT_A SEATKIT_B [SEATKIT_C ...] [ROUNDS]: hold + release under wrk (64 connections,
# 5 s, the same Lua script as `SeatKitBench server`) against two or more `seatkit serve` binaries, taking
# turns for ROUNDS rounds (default 3) on fresh stores, then each one's median beside the first's. On a shared 2-core machine one
# run's figure moves by ±25 % from minute to minute; alternating and taking medians is what makes two
# builds comparable; the server's CPU time a hold + release (user + system over the run) is steadier still.
# A binary may be given as BINARY@postgres://… to run it on that PostgreSQL database (a fresh schema a
# run) instead of a fresh SQLite file: the same binary on both stores compares the stores. The database's
# CPU time over the run (every postgres process of the machine) is printed beside the server's.
# Prints one line per run and a summary.
set -euo pipefail
rounds=3
bins=("$@")
if [[ ${bins[-1]} =~ ^[0-9]+$ ]]; then rounds=${bins[-1]}; unset 'bins[-1]'; fi
dir=$(mktemp -d /tmp/seatkit-compare.XXXXXX)
trap 'rm -rf "$dir"' EXIT
python3 - "$dir/hold-release.lua" <<'PY'
import re, sys
src = open("Sources/SeatKitBench/WrkScripts.swift").read()
script = re.search(r'static let holdRelease = #"""\n(.*?)\n\s*"""#', src, re.S).group(1)
open(sys.argv[1], "w").write("\n".join(l[8:] if l.startswith("        ") else l for l in script.split("\n")) + "\n")
PY
key=compare-admin-key-0123456789
run() {  # run BINARY[@POSTGRES-URL] LABEL
    local port store pid binary=${1%%@*}
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    store="sqlite:$dir/$2-$RANDOM.db"
    if [[ $1 == *@* ]]; then
        store=${1#*@}
        store="$store$([[ $store == *\?* ]] && echo '&' || echo '?')schema=compare_${RANDOM}_$RANDOM"
    fi
    set -- "$binary" "$2"
    # An older binary may not know --trusted-proxies (it had no per-address limits to lift).
    local extra=()
    "$1" --help 2>&1 | grep -q -- --trusted-proxies && extra=(--trusted-proxies 127.0.0.1)
    "$1" serve --port "$port" --store "$store" --admin-key "$key" --holds-per-second 0 "${extra[@]}" >/dev/null 2>&1 &
    pid=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
    curl -sf -X POST "http://127.0.0.1:$port/v1/shows" -H "X-Admin-Key: $key" -H 'Content-Type: application/json' \
        -d '{"id":"bench","venueId":"arena-20000","startsAt":"2099-12-01T19:00:00+08:00","prices":{"categories":{"lower":"580","upper":"380"}},"policy":{"maxSeats":6,"noLoneSeat":false}}' >/dev/null
    local out holds p99 before after
    # The server's own CPU time (user + system, in clock ticks) over the run: CPU per hold is far
    # steadier than holds a second on a shared machine (it does not count time the server waited).
    cpu() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
    dbcpu() { cat /proc/[0-9]*/stat 2>/dev/null | awk '$2 == "(postgres)" {t += $14 + $15} END {print t + 0}'; }
    local dbbefore dbafter
    dbbefore=$(dbcpu)
    before=$(cpu)
    out=$(wrk -t2 -c64 -d5s --latency --timeout 5s -s "$dir/hold-release.lua" "http://127.0.0.1:$port/" -- 20)
    after=$(cpu)
    dbafter=$(dbcpu)
    kill "$pid"; wait "$pid" 2>/dev/null || true
    holds=$(echo "$out" | awk '/^HOLDS/ {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    echo "$2 $((holds / 5)) holds/s p99 $p99 cpu $(( (after - before) * 1000000 / $(getconf CLK_TCK) / holds )) us/hold db $(( (dbafter - dbbefore) * 1000000 / $(getconf CLK_TCK) / holds )) us/hold"
}
results=()
labels=(A B C D E F G H)
for r in $(seq "$rounds"); do
    for k in "${!bins[@]}"; do results+=("$(run "${bins[$k]}" "${labels[$k]}")"); echo "${results[-1]}"; done
done
printf '%s\n' "${results[@]}" | python3 -c '
import sys, statistics
rows = [l.split() for l in sys.stdin if l.strip()]
labels = sorted({r[0] for r in rows})
median = {k: statistics.median(int(r[1]) for r in rows if r[0] == k) for k in labels}
cpu = {k: statistics.median(int(r[6]) for r in rows if r[0] == k) for k in labels}
ms = lambda t: float(t[:-2]) if t.endswith("ms") else float(t[:-2]) / 1000 if t.endswith("us") else float(t[:-1]) * 1000
p99 = {k: statistics.median(ms(r[4]) for r in rows if r[0] == k) for k in labels}
print(", ".join(f"median {k} {median[k]:.0f} holds/s" + ("" if k == "A" else f" ({median[k] / median[labels[0]]:.3f}x A)") for k in labels))
print(", ".join(f"median {k} {cpu[k]:.0f} us CPU a hold + release" + ("" if k == "A" else f" ({cpu[k] / cpu[labels[0]]:.3f}x A)") for k in labels))
db = {k: statistics.median(int(r[9]) for r in rows if r[0] == k) for k in labels}
if any(db.values()): print(", ".join(f"median {k} {db[k]:.0f} us database CPU a hold + release" for k in labels))
print(", ".join(f"median {k} p99 {p99[k]:.1f} ms" + ("" if k == "A" else f" ({p99[k] / p99[labels[0]]:.3f}x A)") for k in labels))
'
