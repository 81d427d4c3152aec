# Lightpath: `make demo` runs the product, `make test` runs every test suite.
# Both bootstrap a fresh Debian machine: system packages, a virtualenv, the Rust engine,
# the frontend, and a project-local PostgreSQL and Redis under .local/ (own ports).
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.lightpath
DEVSTACK := backend/scripts/devstack.sh
WITH_ENV := eval "$$($(DEVSTACK) env)";
ENGINE_SOURCES := $(shell find workers/engine -path workers/engine/target -prune -o -type f \( -name '*.rs' -o -name 'Cargo.*' -o -name '*.toml' -o -name '*.pyi' -o -name 'py.typed' -o -name '*.py' \) -print)
FRONTEND_SOURCES := $(shell find frontend -path frontend/node_modules -prune -o -path frontend/dist -prune -o -type f -print)
export LIGHTPATH_PORT ?= 8000

.PHONY: help bootstrap system-deps python engine frontend services stop-services migrate demo test test-rust test-python test-frontend test-e2e lint api-types api-types-check bench clean

help:
	@echo "make demo   - bootstrap, start PostgreSQL, Redis, web and a worker, load demo data (Ctrl-C stops)"
	@echo "make test   - bootstrap, then cargo test, pytest (real PostgreSQL, Redis, worker), vitest, Playwright"
	@echo "make lint   - ruff, mypy, cargo fmt --check, clippy -D warnings, eslint, tsc, API types up to date"
	@echo "make api-types - regenerate the OpenAPI document and the UI's types generated from it"
	@echo "make bench  - engine and API benchmarks (see BENCHMARKS.md)"
	@echo "make fuzz   - the engine's cargo-fuzz targets, FUZZ_SECONDS (60) each (nightly; workers/engine/README.md)"

bootstrap: system-deps python engine frontend

system-deps:
	@$(DEVSTACK) deps

# Stamps live inside the virtualenv: deleting .venv redoes every install step.
$(STAMP)/python: requirements.txt cli/pyproject.toml fixtures/pyproject.toml workers/pyproject.toml
	@test -x $(PY) || python3 -m venv $(VENV)
	@mkdir -p $(STAMP)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -r requirements.txt
	$(PY) -m pip install -q --no-deps -e fixtures -e cli -e workers
	@touch $@

python: $(STAMP)/python

$(STAMP)/engine: $(STAMP)/python $(ENGINE_SOURCES)
	$(PY) -m pip install -q --no-deps ./workers/engine/lightpath-py
	@touch $@

engine: $(STAMP)/engine

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error

# WhiteNoise serves a file's .gz/.br sibling to clients that accept it; the built UI has none
# unless made here (about 5x smaller JS and CSS).
frontend/dist/index.html: frontend/node_modules/.package-lock.json $(FRONTEND_SOURCES) $(STAMP)/python
	cd frontend && npm run build --silent
	$(PY) -m whitenoise.compress -q frontend/dist

frontend: frontend/dist/index.html

services: system-deps
	@$(DEVSTACK) start

stop-services:
	@$(DEVSTACK) stop

migrate: services python engine
	@$(WITH_ENV) cd backend && ../$(PY) manage.py migrate --noinput -v 0

# The stack script starts the services itself, so that Ctrl-C stops exactly what it started.
demo: bootstrap
	@backend/scripts/run-stack.sh --demo

test: export LIGHTPATH_NEED_BROWSER := 1
test: export LIGHTPATH_NEED_PROMETHEUS := 1
test: bootstrap services test-rust test-python test-frontend test-e2e

test-rust:
	cd workers/engine && cargo test --workspace --quiet

# The engine's fuzz targets in turn under libFuzzer (nightly), from the committed seeds; new inputs
# go to workers/engine/fuzz/corpus/, crashes to fuzz/artifacts/. test-rust replays the seeds on stable.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz:
	@command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz --locked
	cd workers/engine && for target in document telemetry matching; do \
	  mkdir -p fuzz/corpus/$$target && \
	  cargo +nightly fuzz run $$target fuzz/corpus/$$target fuzz/seeds/$$target -- -max_total_time=$(FUZZ_SECONDS) || exit 1; \
	done

# The suite runs on its own Celery queue so that a running demo worker never takes its tasks.
test-python: services python engine
	@$(WITH_ENV) export LIGHTPATH_QUEUE=lightpath-test; $(PY) -m pytest -q

test-frontend: frontend/node_modules/.package-lock.json
	cd frontend && npm test --silent

e2e/node_modules/.package-lock.json: e2e/package-lock.json
	cd e2e && npm ci --no-audit --no-fund --loglevel=error

test-e2e: bootstrap services e2e/node_modules/.package-lock.json
	@backend/scripts/e2e.sh

# One contract per answer: the OpenAPI document drf-spectacular writes from the serializers (no
# database needed), and the UI's TypeScript types openapi-typescript generates from it. Both are
# committed; `make lint` fails when either differs from what the code declares.
API_SCHEMA := frontend/src/lib/api/openapi.yaml
API_TYPES := frontend/src/lib/api/schema.ts
api-types: python frontend/node_modules/.package-lock.json
	@$(WITH_ENV) cd backend && ../$(PY) manage.py spectacular --validate --fail-on-warn --file $(abspath $(API_SCHEMA))
	@cd frontend && npx --no-install openapi-typescript $(abspath $(API_SCHEMA)) -o $(abspath $(API_TYPES)) --array-length --silent

api-types-check: python frontend/node_modules/.package-lock.json
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	$(MAKE) --no-print-directory api-types API_SCHEMA=$$tmp/openapi.yaml API_TYPES=$$tmp/schema.ts >/dev/null; \
	diff -u $(API_SCHEMA) $$tmp/openapi.yaml >/dev/null && diff -u $(API_TYPES) $$tmp/schema.ts >/dev/null \
	  || { echo "$(API_SCHEMA) or $(API_TYPES) is stale: run make api-types"; exit 1; }

lint: python frontend/node_modules/.package-lock.json
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	@$(WITH_ENV) $(VENV)/bin/mypy backend cli/lightpath_cli fixtures/lightpath_fixtures workers/lightpath_worker
	cd workers/engine && cargo fmt --all --check && cargo clippy --workspace --all-targets --quiet -- -D warnings
	cd frontend && npm run lint --silent && npm run typecheck --silent
	@$(MAKE) --no-print-directory api-types-check

bench: bootstrap services
	cd workers/engine && cargo bench -p lightpath-core --bench path_counting && cargo bench -p lightpath-core --bench corropt && cargo bench -p lightpath-core --bench corropt_sim && cargo bench -p lightpath-core --bench rail && cargo bench -p lightpath-core --bench matching && cargo bench -p lightpath-core --bench reconfig
	cd workers/engine && cargo bench -p lightpath-core --bench corropt_restore && cargo bench -p lightpath-core --bench maintenance && cargo bench -p lightpath-core --bench telemetry_trend
	$(PY) workers/engine/scripts/bench_tor_capacity.py
	$(PY) workers/engine/scripts/bench_matching.py
	$(PY) -m lightpath_fixtures.benchmark
	@$(WITH_ENV) $(PY) backend/scripts/bench_api.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_links_list.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_decisions.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_guard.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_liveness.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_telemetry_formats.py 10000
	@$(WITH_ENV) $(PY) backend/scripts/bench_remote_write.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_telemetry.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_webhooks.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_circuits.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_reconfig.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_rail.py
	@$(WITH_ENV) $(PY) backend/scripts/bench_large_results.py
	$(PY) backend/scripts/bench_trend.py
	$(PY) backend/scripts/eval_forecast.py --seeds 1001 1002 1003

clean: stop-services
	rm -rf .local frontend/dist workers/engine/target
