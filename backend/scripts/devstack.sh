#!/usr/bin/env bash
# Project-local services for development, tests and the demo: a PostgreSQL cluster and a
# Redis server under .local/, on their own loopback ports, never the system services.
# Usage: devstack.sh deps|secrets|start|stop|restart [postgresql|redis]|status|env|wait-healthy URL [SECONDS]
# (start, stop and restart act on both services unless one is named: the fault tests restart one)
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
LOCAL="$ROOT/.local"
PG_BIN="${PG_BIN:-/usr/lib/postgresql/15/bin}"
PG_PORT="${LIGHTPATH_DB_PORT:-55432}"
REDIS_PORT="${LIGHTPATH_REDIS_PORT:-56379}"
PGDATA="$LOCAL/pgdata"
PGRUN="$LOCAL/pgrun"
SECRETS="$LOCAL/secrets.env"

log() { printf 'devstack: %s\n' "$*" >&2; }

# PostgreSQL refuses to run as root: as root, run it as the postgres system user.
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

deps() {
  local missing=()
  [ -x "$PG_BIN/pg_ctl" ] || missing+=(postgresql)
  command -v redis-server >/dev/null || missing+=(redis-server)
  if [ "${LIGHTPATH_NEED_BROWSER:-0}" = 1 ] && [ ! -x /usr/bin/chromium ]; then missing+=(chromium); fi
  # The remote-write test's real sender (backend/telemetry/tests/test_remote_write_prometheus.py).
  if [ "${LIGHTPATH_NEED_PROMETHEUS:-0}" = 1 ] && ! command -v prometheus >/dev/null; then missing+=(prometheus); fi
  if [ ${#missing[@]} -gt 0 ]; then
    log "installing ${missing[*]} with apt-get"
    local sudo=""; [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
  fi
}

# Random secrets made once per checkout; the settings read them from the environment.
secrets() {
  mkdir -p "$LOCAL"
  if [ ! -f "$SECRETS" ]; then
    umask 077
    {
      echo "DJANGO_SECRET_KEY=$(head -c 48 /dev/urandom | base64 | tr -d '\n/+=')"
      echo "LIGHTPATH_DB_PASSWORD=$(head -c 24 /dev/urandom | base64 | tr -d '\n/+=')"
      echo "LIGHTPATH_REDIS_PASSWORD=$(head -c 24 /dev/urandom | base64 | tr -d '\n/+=')"
    } > "$SECRETS"
  fi
}

env_lines() {
  secrets
  # shellcheck disable=SC1090
  . "$SECRETS"
  # Values already in the environment win (e2e.sh points the stack at its own database).
  cat <<EOV
export DJANGO_SECRET_KEY="\${DJANGO_SECRET_KEY:-$DJANGO_SECRET_KEY}"
export LIGHTPATH_DB_HOST="\${LIGHTPATH_DB_HOST:-127.0.0.1}"
export LIGHTPATH_DB_PORT="\${LIGHTPATH_DB_PORT:-$PG_PORT}"
export LIGHTPATH_DB_NAME="\${LIGHTPATH_DB_NAME:-lightpath}"
export LIGHTPATH_DB_USER="\${LIGHTPATH_DB_USER:-lightpath}"
export LIGHTPATH_DB_PASSWORD="\${LIGHTPATH_DB_PASSWORD:-$LIGHTPATH_DB_PASSWORD}"
export CELERY_BROKER_URL="\${CELERY_BROKER_URL:-redis://:$LIGHTPATH_REDIS_PASSWORD@127.0.0.1:$REDIS_PORT/0}"
export CELERY_RESULT_BACKEND="\${CELERY_RESULT_BACKEND:-redis://:$LIGHTPATH_REDIS_PASSWORD@127.0.0.1:$REDIS_PORT/1}"
EOV
}

start_pg() {
  secrets
  # shellcheck disable=SC1090
  . "$SECRETS"
  mkdir -p "$PGDATA" "$PGRUN"
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$PGDATA" "$PGRUN" && chmod 700 "$PGDATA"
  if [ ! -f "$PGDATA/PG_VERSION" ]; then
    log "initialising PostgreSQL cluster in $PGDATA"
    local pwfile; pwfile="$(mktemp)"; printf '%s\n' "$LIGHTPATH_DB_PASSWORD" > "$pwfile"
    [ "$(id -u)" = 0 ] && chown postgres "$pwfile"
    as_pg "$PG_BIN/initdb" -D "$PGDATA" -U lightpath --auth=scram-sha-256 --pwfile="$pwfile" -E UTF8 --locale=C.UTF-8 >/dev/null
    rm -f "$pwfile"
  fi
  if as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
    log "PostgreSQL already running on $PG_PORT"
  else
    # fsync off: this cluster holds only development and test data. shared_buffers: the default
    # 128 MB holds less than a 100K-link fabric's derivation working set (BENCHMARKS.md, telemetry).
    as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -l "$PGDATA/server.log" -w -t 60 start \
      -o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT -c unix_socket_directories=$PGRUN -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200 -c shared_buffers=${LIGHTPATH_PG_SHARED_BUFFERS:-1GB}" >/dev/null
    log "PostgreSQL started on 127.0.0.1:$PG_PORT"
  fi
  if ! PGPASSWORD="$LIGHTPATH_DB_PASSWORD" psql -h 127.0.0.1 -p "$PG_PORT" -U lightpath -d postgres -tAc "select 1 from pg_database where datname='lightpath'" | grep -q 1; then
    PGPASSWORD="$LIGHTPATH_DB_PASSWORD" psql -h 127.0.0.1 -p "$PG_PORT" -U lightpath -d postgres -qc "create database lightpath" >/dev/null
  fi
}

start_redis() {
  secrets
  # shellcheck disable=SC1090
  . "$SECRETS"
  mkdir -p "$LOCAL/redis"
  if redis-cli -p "$REDIS_PORT" -a "$LIGHTPATH_REDIS_PASSWORD" --no-auth-warning ping 2>/dev/null | grep -q PONG; then
    log "Redis already running on $REDIS_PORT"
    return
  fi
  # Append-only persistence: tasks queued before a Redis restart are still queued after it.
  redis-server --bind 127.0.0.1 --port "$REDIS_PORT" --requirepass "$LIGHTPATH_REDIS_PASSWORD" \
    --dir "$LOCAL/redis" --save "" --appendonly yes --appendfsync everysec --daemonize yes \
    --pidfile "$LOCAL/redis/redis.pid" --logfile "$LOCAL/redis/redis.log"
  for _ in $(seq 50); do
    redis-cli -p "$REDIS_PORT" -a "$LIGHTPATH_REDIS_PASSWORD" --no-auth-warning ping 2>/dev/null | grep -q PONG && break
    sleep 0.1
  done
  log "Redis started on 127.0.0.1:$REDIS_PORT"
}

stop_pg() {
  if [ -f "$PGDATA/PG_VERSION" ] && as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1; then
    as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" -m fast -w stop >/dev/null && log "PostgreSQL stopped"
  fi
}

stop_redis() {
  if [ -f "$LOCAL/redis/redis.pid" ]; then
    local pid; pid="$(cat "$LOCAL/redis/redis.pid")"
    if kill "$pid" 2>/dev/null; then
      # SIGTERM: Redis writes its append-only file and exits; wait so that a start can follow.
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      log "Redis stopped"
    fi
    rm -f "$LOCAL/redis/redis.pid"
  fi
}

status() {
  as_pg "$PG_BIN/pg_ctl" -D "$PGDATA" status >/dev/null 2>&1 && echo "postgresql: running on $PG_PORT" || echo "postgresql: stopped"
  [ -f "$LOCAL/redis/redis.pid" ] && kill -0 "$(cat "$LOCAL/redis/redis.pid")" 2>/dev/null && echo "redis: running on $REDIS_PORT" || echo "redis: stopped"
}

# Wait until URL answers 200 (Python's urllib, so curl need not be installed).
wait_healthy() {
  local url="$1" seconds="${2:-60}"
  "$ROOT/.venv/bin/python" - "$url" "$seconds" <<'PY'
import sys, time, urllib.request
url, deadline = sys.argv[1], time.monotonic() + float(sys.argv[2])
while True:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            if response.status == 200:
                sys.exit(0)
    except OSError:
        pass
    if time.monotonic() > deadline:
        sys.exit(f"devstack: {url} did not answer in time")
    time.sleep(0.5)
PY
}

service="${2:-both}"
case "${1:-}" in
  deps) deps ;;
  secrets) secrets ;;
  start) deps; [ "$service" = redis ] || start_pg; [ "$service" = postgresql ] || start_redis ;;
  stop) [ "$service" = redis ] || stop_pg; [ "$service" = postgresql ] || stop_redis ;;
  restart) "$0" stop "$service"; "$0" start "$service" ;;
  status) status ;;
  env) env_lines ;;
  wait-healthy) shift; wait_healthy "$@" ;;
  *) echo "usage: $0 deps|secrets|start|stop|restart [postgresql|redis]|status|env|wait-healthy URL [SECONDS]" >&2; exit 2 ;;
esac
