# One command starts the referee (`make run`), one runs the tests (`make test`), on a fresh
# machine with python3: everything else is installed into .venv on the way.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
PROTOS := $(shell find proto -name '*.proto')
# generated from $(PROTOS) by proto/generate.py; not committed (referee/api/.gitignore)
# (one file stands for all the generated modules: they are always written together)
API    := referee/api/v1/referee_pb2.py

HOST   ?= 127.0.0.1
PORT   ?= 50051
DB     ?= var/referee.db
# `make run` is for trying the referee out: the tour in the README stacks decks and chooses seeds,
# a test mode; `make run STACKED=` deals every table fair, as a live referee should
STACKED ?= --allow-stacked
PYTEST_ARGS ?=
# bytecode caches kept even where PYTHONDONTWRITEBYTECODE is set: each pytest worker, and each of
# the referee processes the tests start, would compile the referee again (0.3 s of CPU a start)
PYTEST := PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest
FUZZ_SCALE  ?= 20  # make fuzz: examples per property, times those of the make test pass

.DEFAULT_GOAL := help
# the TypeScript client: its node_modules are installed by `npm ci` from package-lock.json
TS     := clients/typescript
TS_DEPS := $(TS)/node_modules/.installed

.PHONY: help install proto run lint test test-fast ts-test wheel bench bench-engine bench-transport bench-cluster cluster soak fuzz harden mutants chromium haproxy screenshots

help: ## list the targets
	@awk 'BEGIN {FS = ":.*## "} /^[a-z-]+:.*## / {printf "  %-14s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

install: $(STAMP) ## create .venv and install the referee with its dev tools (again when pyproject.toml changes)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

proto: $(API) ## generate the gRPC code in referee/api from proto/

$(API): $(PROTOS) proto/generate.py $(STAMP)
	$(BIN)/python proto/generate.py

run: $(STAMP) $(API) ## start the referee on 127.0.0.1:50051, tables in var/referee.db (HOST, PORT, DB, STACKED)
	$(BIN)/referee serve --host $(HOST) --port $(PORT) --db $(DB) $(STACKED)

# ruff and mypy take their files and rules from pyproject.toml ([tool.ruff], [tool.mypy])
LINTED := referee clients/python tests proto
lint: $(STAMP) $(API) ## ruff, mypy --strict, and the folders as layers (import-linter)
	$(BIN)/ruff check $(LINTED)
	$(BIN)/ruff format --check $(LINTED)
	$(BIN)/python -m mypy
	$(BIN)/lint-imports --no-cache --no-logo

# pytest exits 5 when it collects no test: not a failure of the code
# one pytest worker a core (pytest-xdist): every test stands alone (port 0, its own files)
$(TS_DEPS): $(TS)/package-lock.json
	cd $(TS) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

# its build generates the gRPC code (ts-proto, with the protoc of .venv), the typed games
# (docs/schemas/) and fixes (referee/spec/fixes.py); its tests start a referee of .venv on a free
# port and play against it, and `npm pack` the client into an empty folder that installs it with
# node alone (npm offline: from the cache that `npm ci` fills)
ts-test: $(STAMP) $(API) $(TS_DEPS) ## the TypeScript client: build it and run its tests (node, npm)
	cd $(TS) && npm test --silent

test: lint ts-test chromium haproxy ## lint, the TypeScript client's tests, then the whole test suite, one worker a core
	$(PYTEST) -n auto $(PYTEST_ARGS) || [ $$? -eq 5 ]

test-fast: lint chromium ## the whole test suite but the long runs (`@pytest.mark.slow`), one worker a core
	$(PYTEST) -n auto -m "not slow" $(PYTEST_ARGS) || [ $$? -eq 5 ]

wheel: $(STAMP) ## build dist/referee-*.whl: gRPC code and specs inside, `pip install` it anywhere
	$(BIN)/python -m pip wheel --quiet --no-deps --wheel-dir dist .
	@ls dist/referee-*.whl

mutants: $(STAMP) $(API) ## disable each spec rule in turn: which do the scenarios pin? (about a minute)
	$(BIN)/referee mutants

bench: $(STAMP) $(API) ## measure proposals per second and verdict latency
	$(BIN)/python -m referee.bench

bench-engine: $(STAMP) $(API) ## verdicts/s in process of each recorded workload, best of seven (run on two checkouts to compare)
	$(BIN)/python -m referee.bench.engine

bench-transport: $(STAMP) $(API) ## Propose over the asyncio gRPC server against a sync one, same handler and store (1 min)
	$(BIN)/python -m tests.bench_transport

# in tests/, not in the wheel: it starts PostgreSQL with pgserver, a dev tool
bench-cluster: $(STAMP) $(API) haproxy ## Propose/s, p50/p99 of 1, 2, 4 referees on one PostgreSQL, round robin and behind HAProxy, beside SQLite; cores used (4 min)
	$(BIN)/python -m tests.bench_cluster

# make test runs the liveness games at half the soak's size per scale unit (2 random games and 2
# small-deck deals a game; here 40 each), and a third of the symbolic z3 agreement examples (here
# all, and a little more)
soak: $(STAMP) $(API) ## the liveness checks at 20 times their size, the long property runs and z3 agreement at 3 (several minutes)
	LIVENESS_SCALE=20 LIVENESS_REPORT=1 SOAK_SCALE=3 $(BIN)/python -m pytest -s -q -n 2 tests/liveness \
	  tests/mechanics/rummy/test_stateful.py tests/mechanics/banking/test_pontoon_chips.py \
	  tests/engine/test_fair_deal_rederived.py \
	  tests/expr/test_agreement.py tests/spec/test_agreement.py

cluster: $(STAMP) $(API) haproxy ## several referees at full size: on one PostgreSQL (races, kill -9, restarts), behind HAProxy, across two databases; make bench-cluster's code (3 min)
	CLUSTER_SCALE=1 $(BIN)/python -m pytest -s -q -n 2 tests/cluster tests/bench_cluster

# scale 7: the smallest at which the kill -9 attack plays 1,000 acknowledged moves; the fuzz and
# the redaction property run 5 and 3 times their make test size beside the attacks
harden: $(STAMP) $(API) ## the scripted attacks at full size, each printing its figures (under 10 minutes)
	HARDEN_SCALE=7 HARDEN_REPORT=1 FUZZ_SCALE=5 REDACTION_SCALE=3 \
	  $(BIN)/python -m pytest -s -q tests/harden tests/fuzz tests/redaction

fuzz: $(STAMP) $(API) ## hostile requests to every RPC, 20 times the make test pass (FUZZ_SCALE): no INTERNAL, RSS bounded
	FUZZ_SCALE=$(FUZZ_SCALE) $(BIN)/python -m pytest -s -q tests/fuzz

# tests/web drives Debian's Chromium with Playwright (never Playwright's own browser download);
# CI runs as root on a fresh Debian machine: apt-get installs it there
chromium: ## install Debian's Chromium for the browser tests (tests/web), when missing (root)
	@test -x /usr/bin/chromium || { apt-get update -qq && apt-get install -y -qq chromium; }

# tests/cluster/test_proxy.py and make bench-cluster run Debian's HAProxy from deploy/haproxy.cfg
# in front of referee processes (as chromium above: apt-get, root)
haproxy: ## install Debian's HAProxy for the proxy tests and bench-cluster, when missing (root)
	@test -x /usr/sbin/haproxy || { apt-get update -qq && apt-get install -y -qq haproxy; }

screenshots: $(STAMP) $(API) chromium ## a picture of each game's table in docs/screenshots/ (the page of serve --http)
	$(BIN)/python -m tests.web.screenshots
