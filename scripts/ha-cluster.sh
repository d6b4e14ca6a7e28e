#!/usr/bin/env bash
# ha-cluster.sh DIR start|stop|primary|kill-primary|url|status: a highly available PostgreSQL on this
# machine from Debian's packages, as docs/DEPLOY.md describes it: etcd (the consensus store), two
# Patroni nodes each running a PostgreSQL (a primary and a synchronous standby: synchronous_mode on,
# so a commit is acknowledged only once the standby has it), and HAProxy in front, sending
# connections to whichever node Patroni's REST API says is the primary (`GET /primary`).
#   url           a libpq URI through HAProxy (what SeatKit is given)
#   kill-primary  kill -9 of the primary's postmaster and its Patroni (the machine dying); Patroni on the
#                 other node promotes its standby once the leader key expires (ttl 10 s)
#   primary       which node is the primary now (node1 or node2), from the REST APIs
# Ports are chosen free at the first start and kept in DIR. As root, PostgreSQL and Patroni run as
# the `postgres` user (initdb refuses root).
set -euo pipefail
dir=$1; what=$2
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
for tool in patroni etcd haproxy; do
    command -v $tool >/dev/null || { echo "ha-cluster: $tool not found (apt-get install patroni etcd-server haproxy)" >&2; exit 1; }
done
as_owner=()
[ "$(id -u)" = 0 ] && as_owner=(runuser -u postgres --)
free_port() { /usr/bin/python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

if [ ! -f "$dir/ports" ]; then
    mkdir -p "$dir"
    echo "etcd=$(free_port) peer=$(free_port) pg1=$(free_port) pg2=$(free_port) api1=$(free_port) api2=$(free_port) front=$(free_port) stats=$(free_port)" >"$dir/ports"
fi
# shellcheck disable=SC2046
eval $(cat "$dir/ports")
# Run from the cluster's own directory: PostgreSQL runs as `postgres`, which may not enter the caller's
# (a fresh clone made by mktemp -d is 700: Patroni's bootstrap then never finished, in CI).
[ "$(id -u)" = 0 ] && chown postgres:postgres "$dir"
cd "$dir"

node_config() { # name pgport apiport
    cat <<YAML
scope: seatkit
name: $1
restapi:
  listen: 127.0.0.1:$3
  connect_address: 127.0.0.1:$3
etcd3:
  hosts: 127.0.0.1:$etcd
bootstrap:
  dcs:
    ttl: 10
    loop_wait: 1
    retry_timeout: 5
    maximum_lag_on_failover: 0
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      parameters:
        max_connections: 200
        wal_level: replica
        hot_standby: "on"
        max_wal_senders: 10
        max_replication_slots: 10
        wal_log_hints: "on"
  initdb:
    - encoding: UTF8
    - auth: trust
postgresql:
  listen: 127.0.0.1:$2
  connect_address: 127.0.0.1:$2
  data_dir: $dir/$1/data
  bin_dir: $bin
  pgpass: $dir/$1/pgpass
  authentication:
    superuser:
      username: postgres
      password: postgres
    replication:
      username: postgres
      password: postgres
  pg_hba:
    - local all all trust
    - host all all 127.0.0.1/32 trust
    - host replication all 127.0.0.1/32 trust
  parameters:
    unix_socket_directories: $dir/$1
YAML
}

haproxy_config() {
    cat <<CFG
global
    maxconn 1000
defaults
    mode tcp
    timeout connect 2s
    timeout client 30m
    timeout server 30m
    timeout check 1s
listen primary
    bind 127.0.0.1:$front
    option httpchk OPTIONS /primary
    http-check expect status 200
    default-server inter 500ms fall 2 rise 1 on-marked-down shutdown-sessions
    server node1 127.0.0.1:$pg1 maxconn 200 check port $api1
    server node2 127.0.0.1:$pg2 maxconn 200 check port $api2
CFG
}

start_node() { # name pgport apiport
    mkdir -p "$dir/$1"
    [ "$(id -u)" = 0 ] && chown postgres:postgres "$dir" "$dir/$1"
    node_config "$@" >"$dir/$1.yml"
    chmod 644 "$dir/$1.yml"
    "${as_owner[@]}" setsid patroni "$dir/$1.yml" >>"$dir/$1.log" 2>&1 </dev/null &
    echo $! >"$dir/$1.pid"
}

role() { # apiport → primary / replica / down
    if curl -sf -o /dev/null "http://127.0.0.1:$1/primary"; then echo primary
    elif curl -sf -o /dev/null "http://127.0.0.1:$1/replica"; then echo replica
    else echo down; fi
}

case $what in
start)
    if [ ! -d "$dir/etcd" ]; then fresh=1; fi
    setsid etcd --name seatkit --data-dir "$dir/etcd" --listen-client-urls "http://127.0.0.1:$etcd" --advertise-client-urls "http://127.0.0.1:$etcd" \
        --listen-peer-urls "http://127.0.0.1:$peer" --initial-advertise-peer-urls "http://127.0.0.1:$peer" \
        --initial-cluster "seatkit=http://127.0.0.1:$peer" >>"$dir/etcd.log" 2>&1 </dev/null &
    echo $! >"$dir/etcd.pid"
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$etcd/health" >/dev/null && break; sleep 0.1; done
    start_node node1 "$pg1" "$api1"
    # Patroni bootstraps with initdb first: 6 s here, over a minute on a busy CI machine.
    for _ in $(seq 900); do [ "$(role "$api1")" = primary ] && break; sleep 0.2; done
    [ "$(role "$api1")" = primary ] || { echo "ha-cluster: node1 did not become primary" >&2; tail -20 "$dir/node1.log" >&2; exit 1; }
    start_node node2 "$pg2" "$api2"
    # The standby is synchronous once Patroni names it so (the primary's /sync answers 200 for it).
    for _ in $(seq 300); do curl -sf -o /dev/null "http://127.0.0.1:$api2/sync" && break; sleep 0.2; done
    curl -sf -o /dev/null "http://127.0.0.1:$api2/sync" || { echo "ha-cluster: node2 did not become a synchronous standby" >&2; tail -20 "$dir/node2.log" >&2; exit 1; }
    haproxy_config >"$dir/haproxy.cfg"
    haproxy -D -f "$dir/haproxy.cfg" -p "$dir/haproxy.pid"
    # HAProxy counts a server up until its first checks say otherwise: wait until ten connections in a
    # row reach the primary (it spreads them over the servers it thinks up).
    ok=0
    for _ in $(seq 200); do
        if [ "$(psql -h 127.0.0.1 -p "$front" -U postgres -d postgres -Atc 'SELECT NOT pg_is_in_recovery()' 2>/dev/null)" = t ]; then
            ok=$((ok + 1)); [ $ok -ge 10 ] && break
        else ok=0; fi
        sleep 0.1
    done
    if [ -n "${fresh:-}" ]; then "$bin/createdb" -h 127.0.0.1 -p "$front" -U postgres seatkit_test; fi ;;
primary)
    for n in 1 2; do api=api$n; [ "$(role "${!api}")" = primary ] && echo "node$n"; done; true ;;
kill-primary)
    for n in 1 2; do
        api=api$n
        if [ "$(role "${!api}")" = primary ]; then
            pkill -9 -f "patroni $dir/node$n.yml" || true
            kill -9 "$(head -1 "$dir/node$n/data/postmaster.pid")" 2>/dev/null || true
            echo "node$n"
        fi
    done ;;
status)
    echo "node1 $(role "$api1"), node2 $(role "$api2")" ;;
url)
    echo "postgresql://postgres@127.0.0.1:$front/seatkit_test" ;;
stop)
    [ -f "$dir/haproxy.pid" ] && kill "$(cat "$dir/haproxy.pid")" 2>/dev/null || true
    for n in node1 node2; do
        pkill -f "patroni $dir/$n.yml" || true
    done
    sleep 2
    for n in node1 node2; do
        [ -f "$dir/$n/data/postmaster.pid" ] && "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/$n/data" -m immediate stop >/dev/null 2>&1 || true
    done
    [ -f "$dir/etcd.pid" ] && kill "$(cat "$dir/etcd.pid")" 2>/dev/null || true ;;
*) echo "ha-cluster: start, stop, primary, kill-primary, url or status" >&2; exit 2 ;;
esac
