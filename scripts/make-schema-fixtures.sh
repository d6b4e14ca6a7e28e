#!/usr/bin/env bash
# make-schema-fixtures.sh BINARY NAME: a store of each kind made by BINARY (a `seatkit` of a released
# main) with a little of everything in it (a venue, a show, holds, a sale, a refund, a reservation, a
# counter sale with a buyer's name, a waiting room), kept as Tests/SeatServerTests/Fixtures/NAME.sqlite
# and NAME.postgres.sql (pg_dump's INSERTs): MigrationTests opens both with today's code and expects the
# golden schema and the same data. Run by hand when a release changes the schema; needs PostgreSQL.
set -euo pipefail
binary=$(realpath "$1"); name=$2
cd "$(dirname "$0")/.."
out=Tests/SeatServerTests/Fixtures
work=$(mktemp -d /tmp/seatkit-fixture.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
key=fixture-admin-key-0123456789
fill() {  # fill STORE: runs the binary on STORE and makes the data through the API
    local port pid
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    "$binary" serve --store "$1" --port "$port" --admin-key "$key" --no-samples >"$work/server.log" 2>&1 &
    pid=$!
    python3 - "$port" "$key" <<'PY'
import json, sys, time, urllib.request
port, key = sys.argv[1], sys.argv[2]
base = f"http://127.0.0.1:{port}"
def call(method, path, body=None, admin=True, raw=None):
    data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
    headers = {"Content-Type": "application/json", **({"X-Admin-Key": key} if admin else {})}
    for _ in range(100):
        try:
            with urllib.request.urlopen(urllib.request.Request(base + path, data=data, method=method, headers=headers)) as r:
                return json.loads(r.read() or b"null")
        except urllib.error.URLError as e:
            if isinstance(e, urllib.error.HTTPError): raise SystemExit(f"{method} {path}: {e.code} {e.read()!r}")
            time.sleep(0.1)
call("POST", "/v1/venues", raw=open("Samples/cinema-hall.json", "rb").read())
prices = {"categories": {"standard": "38", "vip": "58", "couple": "99"}}
call("POST", "/v1/shows", {"id": "fixture-show", "venueId": "cinema-hall-3", "startsAt": "2099-12-24T19:30:00+08:00", "prices": prices,
                           "details": {"title": {"zh": "星际归途", "en": "Homeward"}, "duration": 112}})
call("POST", "/v1/shows", {"id": "fixture-queued", "venueId": "cinema-hall-3", "startsAt": "2099-12-25T19:30:00+08:00", "prices": prices})
held = call("POST", "/v1/shows/fixture-show/holds", {"seats": ["7-1", "7-2"]}, admin=False)
call("POST", f"/v1/holds/{held['token']}/confirm", {"orderRef": "FIXTURE-1"}, admin=False)
call("POST", "/v1/shows/fixture-show/holds", {"seats": ["8-1"]}, admin=False)
call("POST", "/v1/shows/fixture-show/sales", {"seats": ["5-1", "5-2"], "orderRef": "COUNTER-1", "payment": "cash",
                                              "buyer": {"name": "王小明", "phone": "138 0013 8000"}})
call("POST", "/v1/shows/fixture-show/reservations", {"kind": "house", "seats": ["9-1"], "reason": "guests"})
call("POST", "/v1/orders/COUNTER-1/refund", {"seats": ["5-2"], "reason": "changed plans"})
call("PUT", "/v1/shows/fixture-queued/queue", {"opensAt": "2099-12-20T10:00:00+08:00", "admitPerMinute": 100})
PY
    kill "$pid"; wait "$pid" || true
}
fill "sqlite:$work/store.db"
cp "$work/store.db" "$out/$name.sqlite"
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
./scripts/with-postgres.sh bash -c '
    set -euo pipefail
    fill_url="$SEATKIT_TEST_POSTGRES?schema=fixture"
    '"$(declare -f fill)"'
    binary='"$binary"' key='"$key"' work='"$work"'
    fill "$fill_url"
    "'"$bin"'/pg_dump" "$SEATKIT_TEST_POSTGRES" --inserts --no-owner --no-privileges -n fixture > "'"$work"'/dump.sql"'
python3 - "$work/dump.sql" "$out/$name.postgres.sql" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
keep = [l for l in text.split("\n") if not (l.startswith("SET ") or l.startswith("SELECT pg_catalog.set_config") or l.startswith("--")
                                          or l.startswith("\\") or l == "CREATE SCHEMA fixture;")]
text = re.sub(r"\bfixture\.(?=[a-z_]+\b)", "", "\n".join(keep))
text = re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"
open(sys.argv[2], "w").write("-- A PostgreSQL store made by a released main (scripts/make-schema-fixtures.sh): its schema and data.\n\n" + text)
PY
ls -la "$out/$name".*
