# The two commands of a fresh machine: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
.DEFAULT_GOAL := help

NODE_MODULES := node_modules/.package-lock.json
HOOKS_SRC := $(shell find pb_hooks_src sidecar common -name '*.ts' ! -name '*.test.ts' 2>/dev/null)
# The agent bundles what the deployables share (common/) too.
AGENT_SRC := $(shell find agent/src common -name '*.ts' ! -name '*.test.ts' 2>/dev/null)
# The console is rebuilt only when one of its sources changes.
CONSOLE_SRC := $(shell find console/src common -type f ! -name '*.test.ts' 2>/dev/null) console/index.html console/boot.css console/vite.config.ts console/svelte.config.js console/package.json

.PHONY: help install binaries types hooks agent console build typecheck deps docs run test test-unit test-e2e bench clean

help:
	@echo "make run    install, build, migrate, bootstrap a demo operator and serve on http://127.0.0.1:8090"
	@echo "make test   everything CI runs: typecheck, unit tests, integration tests against the real binaries"
	@echo "make build  build binaries and hooks, start nothing;  make bench  print benchmark figures"

$(NODE_MODULES): package.json package-lock.json
	npm ci --no-fund --no-audit
	@touch $@

install: $(NODE_MODULES)

binaries:
	@scripts/build-binaries.sh

build/types/types.d.ts build/types/pocketbase-migrations.json &: bin/pocketbase
	scripts/gen-types.sh

bin/pocketbase:
	@scripts/build-binaries.sh

types: binaries build/types/types.d.ts build/types/pocketbase-migrations.json

pb_hooks/main.pb.js: $(NODE_MODULES) $(HOOKS_SRC) scripts/build-hooks.mjs package.json $(wildcard pb_migrations/*.js) build/types/pocketbase-migrations.json
	node scripts/build-hooks.mjs

hooks: pb_hooks/main.pb.js

agent/dist/agent.mjs: $(NODE_MODULES) $(AGENT_SRC) agent/build.mjs agent/package.json
	node agent/build.mjs

agent: agent/dist/agent.mjs

# The console's single-page application, served by the stock binary from pb_public/ (index fallback on).
pb_public/index.html: $(NODE_MODULES) $(CONSOLE_SRC)
	npx vite build console --logLevel warn

console: pb_public/index.html

build: install binaries types hooks agent console

typecheck: install types
	npx tsc -p tsconfig.json
	npx tsc -p tsconfig.node.json
	npx svelte-check --tsconfig console/tsconfig.json --fail-on-warnings --output machine

# The import rules (.dependency-cruiser.cjs): no cycle, and the deployables share code only through common/.
deps: install
	npx depcruise --config .dependency-cruiser.cjs --output-type err common pb_hooks_src pb_migrations sidecar agent/src console/src contract-tests e2e bench scripts

# The generated parts of the docs: the key tables and the capability matrix (unit tests fail when stale).
docs: install
	node scripts/config-table.mjs
	node scripts/capability-table.mjs

run: build
	scripts/run.sh

test-unit: install
	npx vitest run --project unit

test-e2e: build
	@scripts/test-deps.sh
	npx vitest run --project e2e

# The last line is the plain "N passed, N failed" summary that CI reads; the exit status is vitest's.
# The watchdog reporter names a test file that runs long, and cancels the run past TEST_DEADLINE_AT.
# The output stays short (a line per file; the logs of failed tests only): build/vitest.json has every
# test's duration, and `npx vitest run FILE` shows a passing test's own log.
test: build typecheck deps
	@scripts/test-deps.sh
	@mkdir -p build
	node scripts/console-budget.mjs
	npx vitest run --silent=passed-only --slowTestThreshold=120000 --reporter=default --reporter=./e2e/harness/watchdog.ts --reporter=json --outputFile.json=build/vitest.json; \
	  status=$$?; node scripts/test-summary.mjs build/vitest.json; exit $$status

bench: build
	scripts/bench.sh

clean:
	rm -rf build pb_hooks pb_public .run
