#!/usr/bin/env bash
# with-postgres.sh COMMAND...: runs COMMAND with a throwaway PostgreSQL cluster (Debian's `postgresql`
# package) on a free loopback port, then stops it and deletes it. COMMAND sees:
#   SEATKIT_TEST_POSTGRES     a libpq URI to the cluster's `seatkit_test` database
#   SEATKIT_TEST_PG_RESTART   a script that restarts the cluster (for the "database restarted" tests)
# initdb refuses to run as root, so as root the cluster belongs to the `postgres` user.
# If SEATKIT_TEST_POSTGRES is already set, COMMAND runs against that server instead.
set -euo pipefail
if [ -n "${SEATKIT_TEST_POSTGRES:-}" ]; then exec "$@"; fi
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "with-postgres: PostgreSQL server binaries not found (apt-get install postgresql)" >&2; exit 1; }
dir=$(mktemp -d /tmp/seatkit-pg.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
as_owner=()
if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$dir"
    as_owner=(runuser -u postgres --)
fi
"${as_owner[@]}" mkdir -p "$dir/data" "$dir/sock"
"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 --no-instructions >"$dir/initdb.log"
pgctl=("${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w)
options="-p $port -k $dir/sock -c listen_addresses=127.0.0.1 -c fsync=on -c max_connections=200"
"${pgctl[@]}" -o "$options" start >/dev/null
stop() { "${pgctl[@]}" -m immediate stop >/dev/null 2>&1 || true; rm -rf "$dir"; }
trap stop EXIT
"$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres seatkit_test
cat >"$dir/restart" <<SCRIPT
#!/usr/bin/env bash
# Stops the test cluster at once (like a crash of the database) and starts it again.
${pgctl[*]} -m immediate stop >/dev/null
sleep \${1:-0}
${pgctl[*]} -o "$options" start >/dev/null
SCRIPT
chmod +x "$dir/restart"
export SEATKIT_TEST_POSTGRES="postgresql://postgres@127.0.0.1:$port/seatkit_test"
export SEATKIT_TEST_PG_RESTART="$dir/restart"
echo "with-postgres: PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port" >&2
"$@"
