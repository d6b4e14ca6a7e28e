#!/usr/bin/env bash
# pg-cluster.sh DIR start|stop|kill|url|watch PID: a throwaway PostgreSQL cluster (Debian's `postgresql`) in DIR,
# on a free loopback port chosen at its first start and kept. `stop` is a fast shutdown (the database
# going away), `kill` is kill -9 of the postmaster (the machine dying). As root the cluster belongs to
# the `postgres` user (initdb refuses root). `watch PID` leaves a watcher that stops the cluster and
# removes DIR once process PID is gone (a test suite's cluster kept in a static is never released: each
# `make test` left one running). The shard tests and scripts/with-postgres.sh use it.
set -euo pipefail
dir=$1; what=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "pg-cluster: PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
as_owner=()
[ "$(id -u)" = 0 ] && as_owner=(runuser -u postgres --)
if [ ! -f "$dir/port" ]; then
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
    "${as_owner[@]}" mkdir -p "$dir/data" "$dir/sock"
    "${as_owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-instructions >"$dir/initdb.log"
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' >"$dir/port"
    fresh=1
fi
port=$(cat "$dir/port")
pgctl=("${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w)
options="-p $port -k $dir/sock -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200"
case $what in
start)
    "${pgctl[@]}" -o "$options" start >/dev/null
    if [ -n "${fresh:-}" ]; then "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres seatkit_test; fi ;;
stop) "${pgctl[@]}" -m fast stop >/dev/null ;;
kill) kill -9 "$(head -1 "$dir/data/postmaster.pid")" ;;
url) ;;
watch)
    watched=${3:?pg-cluster: watch needs the PID to outlive}
    setsid bash -c "while kill -0 $watched 2>/dev/null; do sleep 2; done; ${pgctl[*]} -m immediate stop >/dev/null 2>&1; rm -rf '$dir'" \
        </dev/null >/dev/null 2>&1 & ;;
*) echo "pg-cluster: start, stop, kill, url or watch" >&2; exit 2 ;;
esac
[ "$what" = url ] && echo "postgresql://postgres@127.0.0.1:$port/seatkit_test"
exit 0
