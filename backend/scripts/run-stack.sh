#!/usr/bin/env bash
# Runs Lightpath in the foreground: starts PostgreSQL and Redis if needed, migrates, and runs
# the web server (gunicorn, which also serves the built UI), Celery beat and one Celery worker
# per queue set (decisions, jobs: settings.LIGHTPATH_WORKERS). A worker or beat that dies is
# started again (the web keeps answering; its log says why). With --demo it also loads the demo
# fabric and demo users. Ctrl-C stops everything this script started, including PostgreSQL and
# Redis when they were not already running. Logs append to .local/logs/ (LIGHTPATH_LOG_DIR).
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
LOGS="${LIGHTPATH_LOG_DIR:-$ROOT/.local/logs}"
mkdir -p "$LOGS"

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

.venv/bin/gunicorn lightpath.wsgi --config backend/gunicorn.conf.py --chdir backend --bind "127.0.0.1:$PORT" --workers 2 --threads 4 \
  --timeout 120 --access-logfile "$LOGS/web-access.log" --error-logfile "$LOGS/web.log" &
web=$!
pids+=("$web")
# supervise NAME LOG COMMAND...: run COMMAND in the background, appending to LOG, and start it
# again 2 s after it exits, saying so on stderr and in LOG, until this script stops.
supervise() {
  local name="$1" log="$2" child="" status
  shift 2
  (
    trap '[ -n "$child" ] && kill "$child" 2>/dev/null; wait 2>/dev/null; exit 0' TERM INT
    while true; do
      "$@" >>"$log" 2>&1 &
      child=$!
      status=0
      wait "$child" || status=$?
      echo "lightpath: $name exited (status $status) at $(date -u +%FT%TZ); starting it again in 2 s (see $log)" \
        | tee -a "$log" >&2
      sleep 2
    done
  ) &
  pids+=($!)
}
for set in decisions jobs; do
  supervise "worker $set" "$LOGS/worker-$set.log" .venv/bin/python backend/manage.py worker "$set"
done
# Beat schedules the periodic tasks (the liveness net, telemetry partitions, roll-ups, retention).
supervise beat "$LOGS/beat.log" .venv/bin/celery --workdir backend -A lightpath_worker beat \
  --schedule "$ROOT/.local/celerybeat-schedule-$PORT" --loglevel INFO

"$DEVSTACK" wait-healthy "http://127.0.0.1:$PORT/api/health/" 60 \
  || { echo "lightpath: web did not become healthy; see $LOGS/web.log" >&2; exit 1; }

cat <<MSG
Lightpath is running at http://127.0.0.1:$PORT/   (API docs: http://127.0.0.1:$PORT/api/docs/)
MSG
if [ "${LIGHTPATH_DEMO:-0}" = 1 ]; then
  echo "Demo users, password 'lightpath-demo': viewer, technician, planner, operator, admin"
fi
echo "Logs in $LOGS/. Press Ctrl-C to stop."
# Workers and beat come back by themselves; the stack stops when the web server does.
wait "$web"
