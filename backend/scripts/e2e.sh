#!/usr/bin/env bash
# Arguments go to Playwright, e.g. `backend/scripts/e2e.sh tests/planning.spec.ts` runs one spec.
# Playwright suite against a real stack (gunicorn + Celery worker) on a fresh database with
# the demo data, on its own port and queue so a running `make demo` is left alone.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
DEVSTACK="$ROOT/backend/scripts/devstack.sh"
eval "$("$DEVSTACK" env)"
# Own database and queue names may be given, for two runs side by side on one machine.
export LIGHTPATH_DB_NAME="${LIGHTPATH_E2E_DB_NAME:-lightpath_e2e}" LIGHTPATH_QUEUE="${LIGHTPATH_E2E_QUEUE:-lightpath-e2e}"
export LIGHTPATH_PORT="${LIGHTPATH_E2E_PORT:-8765}"
export LIGHTPATH_URL="http://127.0.0.1:$LIGHTPATH_PORT"

PGPASSWORD="$LIGHTPATH_DB_PASSWORD" psql -h 127.0.0.1 -p "$LIGHTPATH_DB_PORT" -U lightpath -d postgres -q \
  -c "drop database if exists $LIGHTPATH_DB_NAME with (force)" -c "create database $LIGHTPATH_DB_NAME"

mkdir -p .local/logs
backend/scripts/run-stack.sh --demo > .local/logs/e2e-stack.log 2>&1 &
stack=$!
trap 'kill -TERM $stack 2>/dev/null; wait $stack 2>/dev/null || true' EXIT
# The stack starts in ~20 s alone; on a machine shared with builds it took over 90 s (session 28).
"$DEVSTACK" wait-healthy "$LIGHTPATH_URL/api/health/" 300 || { cat .local/logs/e2e-stack.log >&2; exit 1; }
cd e2e && npx playwright test "$@"
