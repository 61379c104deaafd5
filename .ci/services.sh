#!/usr/bin/env bash
# Real servers for the server-mode tests: PostgreSQL and a Chroma server, both on 127.0.0.1.
#
#   eval "$(.ci/services.sh start)"   # starts both, prints the exports the tests read
#   .ci/services.sh stop              # stops both, removes their data
#
# PostgreSQL comes from the Debian package (installed if absent), runs as a non-root user from a
# temporary directory; Chroma is the venv's `chroma run`. Set TARL_SERVICES_DIR to choose the directory,
# CHROMA to choose the chroma CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
DIR="${TARL_SERVICES_DIR:-/tmp/tarl-ci-services}"
PG_PORT="${TARL_PG_PORT:-55432}"
CHROMA_PORT="${TARL_CHROMA_PORT:-58000}"
CHROMA="${CHROMA:-$PWD/.venv/bin/chroma}"
PG_USER=postgres

pg_bin() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    if [ -z "$found" ]; then
        if [ "$(id -u)" = 0 ]; then
            apt-get update -qq >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
        else
            sudo apt-get update -qq >&2 && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
        fi
        found=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
    fi
    echo "$found"
}

as_pg() {   # PostgreSQL refuses to run as root
    if [ "$(id -u)" = 0 ]; then runuser -u "$PG_USER" -- "$@"; else "$@"; fi
}

wait_port() {
    for _ in $(seq 1 120); do
        (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
        sleep 0.5
    done
    echo "nothing listens on 127.0.0.1:$1" >&2
    return 1
}

start() {
    local bin
    bin=$(pg_bin)
    [ "$(id -u)" = 0 ] || PG_USER=$(id -un)
    mkdir -p "$DIR"
    if [ ! -f "$DIR/pg/PG_VERSION" ]; then
        mkdir -p "$DIR/pg"
        [ "$(id -u)" = 0 ] && chown -R "$PG_USER" "$DIR/pg"
        as_pg "$bin/initdb" -D "$DIR/pg" -U tarl --auth=trust >&2
    fi
    as_pg "$bin/pg_ctl" -D "$DIR/pg" -l "$DIR/pg/server.log" -w \
        -o "-c listen_addresses=127.0.0.1 -p $PG_PORT -k $DIR/pg -c max_connections=200 -c fsync=off" start >&2
    if [ ! -f "$DIR/chroma.pid" ] || ! kill -0 "$(cat "$DIR/chroma.pid")" 2>/dev/null; then
        nohup "$CHROMA" run --path "$DIR/chroma" --host 127.0.0.1 --port "$CHROMA_PORT" >"$DIR/chroma.log" 2>&1 &
        echo $! >"$DIR/chroma.pid"
    fi
    wait_port "$PG_PORT"
    wait_port "$CHROMA_PORT"
    echo "export TARL_TEST_PG_URL=postgresql://tarl@127.0.0.1:$PG_PORT/postgres"
    echo "export TARL_TEST_CHROMA_URL=http://127.0.0.1:$CHROMA_PORT"
}

stop() {
    if [ -f "$DIR/chroma.pid" ]; then
        kill "$(cat "$DIR/chroma.pid")" 2>/dev/null || true
        rm -f "$DIR/chroma.pid"
    fi
    if [ -f "$DIR/pg/PG_VERSION" ]; then
        [ "$(id -u)" = 0 ] || PG_USER=$(id -un)
        as_pg "$(pg_bin)/pg_ctl" -D "$DIR/pg" -m fast -w stop >&2 || true
    fi
    rm -rf "$DIR"
}

case "${1:-}" in
    start) start ;;
    stop) stop ;;
    *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
