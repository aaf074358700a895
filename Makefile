# Every target sets up its own virtual environment first, so each works on a fresh machine.
#   make serve   install what serving needs and start the server (gRPC on localhost:50051,
#                Connect and gRPC-Web on localhost:8080)
#   make test    install the development tools on top and run every check CI runs
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
SERVE_STAMP := $(VENV)/.serve-stamp
STAMP  := $(VENV)/.installed-stamp
# Extra flags for the server, e.g. `make serve ARGS="--address 0.0.0.0:50051"`.
ARGS   ?=
# A long pip install says what it is doing at least every 10 s (scripts/progress.py): silent for minutes
# with --quiet, hundreds of lines without.
PROGRESS = $(BIN)/python scripts/progress.py
PIP      = $(BIN)/python -m pip install --disable-pip-version-check

.PHONY: install install-serve serve test test-timing fleet lint format typecheck proto-lint proto-breaking generate generate-check prometheus-rules ts-test ts-generate web-build web-test go-packages go-generate go-test conformance conformance-generate bench bench-service bench-affinity fuzz compiler compiled test-compiled dist clean

# Serving needs the engine and the contract's stubs (splendor-proto), not the client, and mypy (mypyc) to compile
# the rules core. The install is editable, so it runs the checkout's sources: pure Python (see `compiled` below).
$(SERVE_STAMP): pyproject.toml clients/python-proto/pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PROGRESS) "make: pip" -- $(PIP) --upgrade pip
	$(PROGRESS) "make: the engine and its stubs" -- \
		$(PIP) -c constraints.txt -e clients/python-proto -e . mypy setuptools
	touch $(SERVE_STAMP)

# Development (and every check): the client with all its optional extras and the dev tools, in the same venv.
$(STAMP): $(SERVE_STAMP) clients/python/pyproject.toml
	$(PROGRESS) "make install: the client and the dev tools" -- \
		$(PIP) -c constraints.txt -e clients/python-proto -e 'clients/python[engine,tournament,rl,openspiel,train]' -e '.[dev]'
	touch $(STAMP)

install-serve: $(SERVE_STAMP)

install: $(STAMP)

# The server runs the compiled core when it could be built (its start-up log says which: rules_core). Its
# output is for people (console lines and a banner with the addresses) even when piped, unless
# SPLENDOR_LOG_FORMAT or ARGS="--log-format json" says otherwise.
serve: install-serve compiled
	$(RUN_COMPILED_PATH) SPLENDOR_LOG_FORMAT=$${SPLENDOR_LOG_FORMAT:-console} $(BIN)/splendor-engine serve $(ARGS)

# Hypothesis in CI: the same examples every run (the ci profile of tests/conftest.py, which CI=true selects too: a
# fixed seed, named by a failure's report). `make test HYPOTHESIS_SEED=7` draws others.
PYTEST_CI = --hypothesis-profile=ci

test: install lint typecheck proto-lint proto-breaking generate-check prometheus-rules ts-test web-test go-test test-compiled
	$(BIN)/python -m pytest $(PYTEST_CI) $(PURE_TESTS)
	$(MAKE) --no-print-directory test-timing

# The tests that assert a wall-clock bound (marker timing, see tests/conftest.py: tests/edge, tests/fleet and a few
# more), which the default runs leave out: a step of their own, after the others, so that nothing else loads the
# machine meanwhile, against the compiled core that `make serve` runs. Retry budget: the
# tests that failed run once more (--last-failed); failing twice fails the build. tests/fleet runs the shipped nginx
# configuration in front of the replicas: Debian's nginx, installed here when missing and running as root.
test-timing: install
	scripts/ensure-debian-packages nginx:nginx
	SPLENDOR_CORE=compiled $(MAKE) --no-print-directory compiled
	$(RUN_COMPILED) -m pytest -o pythonpath="$(COMPILED) ." -m timing $(PYTEST_CI) \
		|| $(RUN_COMPILED) -m pytest -o pythonpath="$(COMPILED) ." -m timing --last-failed $(PYTEST_CI)

# The long fleet run: 3 replicas behind nginx, 216 sealed games in play at once over gRPC and Connect
# (the TypeScript client's players need its dependencies), through a rolling restart, a kill and a key
# rotation; prints its figures (calls, retries, failures seen by players, lost games, time per phase).
# `make test` runs the short version (tests/fleet/test_fleet.py).
fleet: install
	scripts/ensure-debian-packages nginx:nginx
	cd $(TS_DIR) && npm ci --no-audit --no-fund --loglevel=error
	$(BIN)/python -m tests.fleet.scenario --long

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

typecheck: install
	$(BIN)/mypy

# buf runs on proto/ staged with the googleapis protos it imports (scripts/proto_imports.py).
proto-lint: install
	$(BIN)/python scripts/proto_imports.py lint

# Breaking-change check (FILE level) of the working tree against the main branch.
proto-breaking: install
	@if git rev-parse --verify --quiet main >/dev/null && git cat-file -e main:proto/buf.yaml 2>/dev/null; then \
		$(BIN)/python scripts/proto_imports.py breaking --against '$(CURDIR)/.git#branch=main,subdir=proto' && echo "proto-breaking: no breaking change against main"; \
	else \
		echo "proto-breaking: main has no protos yet, nothing to compare against"; \
	fi

# Regenerate the Python stubs in clients/python-proto and the TypeScript code in clients/typescript from proto/,
# then the Go stubs and the conformance vectors (written from the engine, so after the Python stubs).
generate: install ts-generate
	$(BIN)/python clients/python-proto/codegen.py
	$(MAKE) --no-print-directory go-generate conformance-generate

# Fail if the committed stubs (Python, Go) or the conformance vectors differ from what the protos and the engine produce.
generate-check: install go-packages
	$(BIN)/python clients/python-proto/codegen.py --check
	$(BIN)/python $(GO_DIR)/codegen.py --check
	$(BIN)/python -m conformance.generator --check

# Check and unit-test the SLO recording and alerting rules with promtool (from Debian's
# prometheus package, installed here when missing and running as root).
prometheus-rules:
	scripts/ensure-debian-packages promtool:prometheus
	promtool check rules deploy/prometheus/splendor-engine-rules.yaml
	promtool test rules deploy/prometheus/splendor-engine-rules.test.yaml

# The TypeScript client: dependencies from its lock file, stale-codegen check, prettier check, strict type check,
# then its tests (node --test), which start the engine from .venv on a loopback port.
TS_DIR := clients/typescript

ts-test: install
	cd $(TS_DIR) && npm ci --no-audit --no-fund --loglevel=error
	cd $(TS_DIR) && npm run --silent codegen:check
	cd $(TS_DIR) && npm run --silent format:check
	cd $(TS_DIR) && npm run --silent typecheck
	cd $(TS_DIR) && npm test --silent
	cd $(TS_DIR) && npm run --silent test:pack

# Regenerate clients/typescript/src/gen from proto/ (commit the result; `make ts-test` fails when it is stale).
ts-generate: install
	cd $(TS_DIR) && npm ci --no-audit --no-fund --loglevel=error
	cd $(TS_DIR) && npm run --silent codegen

# The web front end (clients/web): its bundle is committed as the server's package data
# (engine_service/web/static), so `make serve` needs no npm. `make web-build` rebuilds it (commit the
# result); `make web-test` fails on a stale bundle, checks format and types, runs its unit tests, then plays whole games in
# headless Chromium (Debian's chromium, installed here when missing and running as root) against the
# real engine. Screenshots land in tests/web/artefacts/.
WEB_DIR := clients/web

web-build: install
	cd $(TS_DIR) && npm ci --no-audit --no-fund --loglevel=error
	cd $(WEB_DIR) && npm ci --no-audit --no-fund --loglevel=error
	cd $(WEB_DIR) && npm run --silent build

web-test: install
	scripts/ensure-debian-packages chromium:chromium
	cd $(TS_DIR) && npm ci --no-audit --no-fund --loglevel=error
	cd $(WEB_DIR) && npm ci --no-audit --no-fund --loglevel=error
	cd $(WEB_DIR) && npm run --silent build:check
	cd $(WEB_DIR) && npm run --silent format:check
	cd $(WEB_DIR) && npm run --silent typecheck
	cd $(WEB_DIR) && npm test --silent
	cd $(WEB_DIR) && npm run --silent test:browser

# The Go client (clients/go), built offline from Debian's packages (installed here when missing and running as
# root): the Go toolchain, protoc with the Go plugins, and the Go libraries as source (grpc-go, protobuf-go,
# genproto; golang/protobuf 1.5, without which Debian's grpc-go decodes with the old API). `make go-test` checks
# the stubs are current, links a vendor/ of Debian's sources (checking their versions are go.mod's), runs go vet,
# then the Go tests, which start the engine from .venv on loopback ports: sealed games of every module played
# to their end by the Go bot with seat keys, refusals read from ErrorInfo, and every conformance vector.
GO_DIR    := clients/go
GOCODE    := /usr/share/gocode/src
GO_DEBIAN := go:golang-go protoc:protobuf-compiler protoc-gen-go:protoc-gen-go protoc-gen-go-grpc:protoc-gen-go-grpc \
	$(GOCODE)/google.golang.org/grpc:golang-google-grpc-dev \
	$(GOCODE)/google.golang.org/protobuf:golang-google-protobuf-dev \
	$(GOCODE)/google.golang.org/genproto:golang-google-genproto-dev \
	$(GOCODE)/github.com/golang/protobuf/internal/gengogrpc:golang-github-golang-protobuf-1-5-dev
GO_ENV    := GO111MODULE=on GOFLAGS=-mod=vendor GOPROXY=off

go-packages:
	scripts/ensure-debian-packages $(GO_DEBIAN)

# Regenerate clients/go/splendorv1 from proto/ (commit the result; `make generate-check` fails when it is stale).
go-generate: install go-packages
	$(BIN)/python $(GO_DIR)/codegen.py

go-test: install go-packages
	$(BIN)/python $(GO_DIR)/codegen.py --check
	$(BIN)/python $(GO_DIR)/debian_vendor.py
	cd $(GO_DIR) && $(GO_ENV) go vet ./...
	cd $(GO_DIR) && $(GO_ENV) go test -count=1 ./...

# Rewrite the conformance vectors (conformance/) from this engine (commit the result; `make generate-check`
# fails when they are stale).
conformance-generate: install
	$(BIN)/python -m conformance.generator

# Run the conformance vectors against a server: `make conformance ADDRESS=host:port` (gRPC), or with
# PROTOCOL=connect and the HTTP address. Default: the gRPC port of `make serve`.
ADDRESS  ?= localhost:50051
PROTOCOL ?= grpc
conformance: install
	$(BIN)/splendor-conformance --address $(ADDRESS) --protocol $(PROTOCOL)

# The benchmarks measure the core the server runs: the compiled one when it could be built.
bench: install compiled
	$(RUN_COMPILED) benchmarks/engine_bench.py

bench-service: install compiled
	$(RUN_COMPILED) benchmarks/service_bench.py

# Round robin against affinity (the game id as nginx's hash key): 3 replicas behind the shipped nginx
# configuration, phases interleaved; server CPU per call, the memo's hit rate, p99 (docs/performance.md).
bench-affinity: install compiled
	scripts/ensure-debian-packages nginx:nginx
	$(RUN_COMPILED) benchmarks/fleet_affinity.py

# The long fuzzing campaign: a million mutated requests of every RPC (plain and sealed, forged tokens
# included) against `serve --processes 2` from 3 gRPC and 1 HTTP client processes, at most 40 minutes
# (`make test` runs a few thousand); then the non-interference suite on 20 times as many positions
# (~42,000 sealed position pairs; `make test` compares ~2,100).
fuzz: install
	$(BIN)/python benchmarks/fuzz_campaign.py --requests 1000000 --minutes 40 --clients 3 --http-clients 1 --processes 2
	SPLENDOR_NONINTERFERENCE_SCALE=20 $(BIN)/python -m pytest -q -p no:cacheprovider tests/noninterference

# The rules core and the per-call modules of the codec and the API compiled with mypyc into $(COMPILED),
# beside a copy of engine_service/, by the same build hook as a wheel (build_support/compiled_core.py, which
# lists them): compiled when a C compiler and the Python headers work, the pure core otherwise (one line says
# which). `make serve` and `make test-compiled` put it first on PYTHONPATH; the checkout stays pure Python. The
# copy is refreshed when any file of the package changes; the C build only when the sources it compiles (or the
# packages they import) do, and unchanged ones come from the build cache.
COMPILED       := build/compiled-core
COMPILED_STAMP := $(COMPILED)/.built-stamp
RUN_COMPILED_PATH := PYTHONPATH=$(COMPILED)
RUN_COMPILED   := $(RUN_COMPILED_PATH) $(BIN)/python -P

# gcc and the headers of the running Python (Debian packages, installed when missing and running as root).
compiler: $(SERVE_STAMP)
	scripts/ensure-debian-packages gcc:gcc \
		"$$($(BIN)/python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h:python3-dev"

# Without a compiler (and not root) the build falls back to the pure core, so `make serve` still serves.
$(COMPILED_STAMP): $(shell find engine_service build_support -type f -not -path '*/__pycache__/*' -not -name '*.so') \
		scripts/build_compiled_core.py $(SERVE_STAMP)
	-$(MAKE) --no-print-directory compiler
	$(BIN)/python scripts/build_compiled_core.py --out $(COMPILED)
	if [ -d $(COMPILED)/engine_service ]; then touch $(COMPILED_STAMP); fi

compiled: $(COMPILED_STAMP)

# Part of `make test`: the whole test suite but the timing suite (test-timing) against the compiled core, the one
# `make serve` and the wheels run (SPLENDOR_CORE=compiled: no fallback), after checking that it is the compiled core that runs; then `make test`
# runs PURE_TESTS in pure Python: the rules core's own tests (every rule, the bots, the sealed views' secrecy)
# again, since the pure core is what a machine without a compiler runs and what mypyc compiles, and
# tests/packaging once (it builds and installs wheels in subprocesses, whatever core this process runs).
PURE_TESTS := tests/rules tests/bots tests/noninterference tests/architecture tests/packaging

test-compiled: install
	SPLENDOR_CORE=compiled $(MAKE) --no-print-directory compiled
	$(RUN_COMPILED) -c 'from engine_service.core_info import core_kind; import sys; sys.exit(core_kind() != "compiled")'
	$(RUN_COMPILED) -m pytest -o pythonpath="$(COMPILED) ." --ignore=tests/packaging $(PYTEST_CI)

# The sdists and wheels of the contract's stubs, the engine (its rules core compiled when it can be, see above)
# and the client, in dist/; tests/packaging installs such wheels into fresh venvs, together and apart.
dist: install
	$(BIN)/python -m build --outdir dist clients/python-proto
	$(BIN)/python -m build --outdir dist .
	$(BIN)/python -m build --outdir dist clients/python

clean:
	rm -rf $(VENV) $(COMPILED) build dist .mypy_cache .ruff_cache .pytest_cache .hypothesis $(TS_DIR)/node_modules $(TS_DIR)/dist \
		$(WEB_DIR)/node_modules tests/web/artefacts $(GO_DIR)/vendor
