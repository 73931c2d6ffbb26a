#!/usr/bin/env bash
# tests/pg.sh -- a private PostgreSQL cluster for the tests: in a temporary
# folder, on a free port, reached through its own Unix socket, gone at stop.
#
#   eval "$(bash tests/pg.sh start)"   sets CITADEL_TEST_PG (a libpq URI)
#                                      and CITADEL_TEST_PG_DIR
#   bash tests/pg.sh stop DIR          stops the cluster and removes DIR
#
# PostgreSQL refuses to run as root; as root the cluster runs as the
# `postgres` user of Debian's package (tools/setup installs it). Its data
# need not survive a crash, so fsync is off, unless PG_DURABLE=1 (for
# measurements: tools/measure-cluster).
set -euo pipefail

bindir() {
    local d
    d=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$d" ] || { echo "tests/pg.sh: PostgreSQL is not installed (tools/setup test)" >&2; exit 1; }
    echo "$d"
}

as_owner() {  # runs "$@" as the cluster's owner
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

case "${1:-}" in
start)
    bin=$(bindir)
    dir=$(mktemp -d /tmp/citadel-pg.XXXXXX)
    chmod 755 "$dir"
    [ "$(id -u)" = 0 ] && chown postgres: "$dir"
    port=$(free_port)
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U citadel -E UTF8 --locale=C >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    fast="-c fsync=off -c full_page_writes=off"
    [ "${PG_DURABLE:-0}" = 1 ] && fast=""
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
        -o "-p $port -k $dir -c listen_addresses='' $fast -c max_connections=200" \
        >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h "$dir" -p "$port" -U citadel citadel_test
    echo "export CITADEL_TEST_PG='postgresql:///citadel_test?host=$dir&port=$port&user=citadel'"
    echo "export CITADEL_TEST_PG_DIR='$dir'"
    ;;
stop)
    dir=${2:?usage: tests/pg.sh stop DIR}
    case "$dir" in /tmp/citadel-pg.*) ;; *) echo "tests/pg.sh: not a test cluster: $dir" >&2; exit 1 ;; esac
    if [ -d "$dir/data" ]; then
        as_owner "$(bindir)/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
*)
    echo "usage: tests/pg.sh start | stop DIR" >&2
    exit 2
    ;;
esac
