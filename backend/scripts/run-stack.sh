#!/usr/bin/env bash
# Runs Lightpath in the foreground: starts PostgreSQL and Redis if needed, migrates, and runs
# the web server (gunicorn, which also serves the built UI) and a Celery worker. With --demo it
# also loads the demo fabric and demo users. Ctrl-C stops everything this script started,
# including PostgreSQL and Redis when they were not already running.
# Usage: run-stack.sh [--demo]   (database, port and queue from the environment)
set -euo pipefail
demo=0
[ "${1:-}" = --demo ] && demo=1
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
DEVSTACK="$ROOT/backend/scripts/devstack.sh"
PORT="${LIGHTPATH_PORT:-8000}"
export LIGHTPATH_QUEUE="${LIGHTPATH_QUEUE:-lightpath}"

# Something else on the port would answer the health check in our place.
if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
  echo "lightpath: port $PORT is already in use; set LIGHTPATH_PORT to another port" >&2
  exit 1
fi

started_services=0
if "$DEVSTACK" status | grep -q stopped; then started_services=1; fi
"$DEVSTACK" start
eval "$("$DEVSTACK" env)"
mkdir -p .local/logs

pids=()
cleanup() {
  trap - EXIT INT TERM
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [ "$started_services" = 1 ]; then "$DEVSTACK" stop; fi
  echo "lightpath: stopped" >&2
}
trap cleanup EXIT INT TERM

(cd backend && ../.venv/bin/python manage.py migrate --noinput -v 0)
if [ "$demo" = 1 ]; then
  export LIGHTPATH_DEMO=1
  (cd backend && ../.venv/bin/python manage.py load_demo -v 0)
fi

.venv/bin/gunicorn lightpath.wsgi --chdir backend --bind "127.0.0.1:$PORT" --workers 2 --threads 4 \
  --timeout 120 --access-logfile "$ROOT/.local/logs/web-access.log" --error-logfile "$ROOT/.local/logs/web.log" &
pids+=($!)
.venv/bin/celery --workdir backend -A lightpath_worker worker --queues "$LIGHTPATH_QUEUE" --concurrency 2 \
  --loglevel INFO > "$ROOT/.local/logs/worker.log" 2>&1 &
pids+=($!)
# Beat schedules the periodic tasks (telemetry partitions, roll-ups and retention).
.venv/bin/celery --workdir backend -A lightpath_worker beat --schedule "$ROOT/.local/celerybeat-schedule-$PORT" \
  --loglevel INFO > "$ROOT/.local/logs/beat.log" 2>&1 &
pids+=($!)

"$DEVSTACK" wait-healthy "http://127.0.0.1:$PORT/api/health/" 60 \
  || { echo "lightpath: web did not become healthy; see .local/logs/web.log" >&2; exit 1; }

cat <<MSG
Lightpath is running at http://127.0.0.1:$PORT/   (API docs: http://127.0.0.1:$PORT/api/docs/)
MSG
if [ "${LIGHTPATH_DEMO:-0}" = 1 ]; then
  echo "Demo users, password 'lightpath-demo': viewer, technician, planner, operator, admin"
fi
echo "Logs in .local/logs/. Press Ctrl-C to stop."
# Stop everything as soon as one process exits.
wait -n "${pids[@]}"
