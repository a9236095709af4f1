# draindesign: `make run` builds and starts the product on the embedded store;
# `make test` runs every test. Both install what is missing first.

GO       ?= go
BIN      := bin/draindesign
ADDR     ?= 127.0.0.1:8080
DATA_DIR ?= ./data
WEB_SRC  := $(shell find web/src web/public web/index.html web/apidocs web/vite.config.ts web/tsconfig*.json web/locales -type f 2>/dev/null)

# Linter pinned here; bin/ keeps one build per version, so it is built once.
GOLANGCI_LINT_VERSION := v2.15.0
GOLANGCI_LINT         := bin/golangci-lint-$(GOLANGCI_LINT_VERSION)

.PHONY: run build test lint test-go test-web test-e2e deps clean load help-videos

run: build
	$(BIN) serve --addr $(ADDR) --data-dir $(DATA_DIR)

build: $(BIN)

deps: web/node_modules/.installed

web/node_modules/.installed: web/package.json web/package-lock.json
	@command -v npm >/dev/null || { echo "Node.js and npm are needed: https://nodejs.org/"; exit 1; }
	cd web && npm ci --no-audit --no-fund
	touch $@

web/dist/index.html: web/node_modules/.installed $(WEB_SRC)
	cd web && npm run build

$(BIN): web/dist/index.html $(shell find . -name '*.go' -not -path './web/node_modules/*') go.mod go.sum migrations
	$(GO) build -o $(BIN) ./cmd/draindesign

test: lint test-go test-web test-e2e

lint: $(GOLANGCI_LINT) web/node_modules/.installed
	$(GOLANGCI_LINT) run ./...
	cd web && npm run lint

$(GOLANGCI_LINT):
	GOBIN=$(CURDIR)/bin $(GO) install github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$(GOLANGCI_LINT_VERSION)
	mv bin/golangci-lint $@

test-go: web/dist/index.html
	bash web/scripts/install-poppler.sh
	bash web/scripts/install-libreoffice.sh
	bash web/scripts/install-haproxy.sh
	$(GO) vet ./...
	@# testsummary prints the packages as go test does, then every skipped
	@# test with its reason (a run without PostgreSQL or NATS says so).
	bash -c 'set -o pipefail; $(GO) test -p 2 -count=1 -timeout 20m -json ./... | $(GO) run ./cmd/testsummary'

test-web: web/node_modules/.installed
	cd web && npm test

# The load test (docs/performance.md, "Load test (issue 15)"): two instances
# on PostgreSQL and NATS JetStream behind haproxy, LOAD_FLAGS passed on
# (e.g. LOAD_FLAGS='-users 50 -duration 60s'; `bin/loadtest -h` lists them).
load: $(BIN)
	bash web/scripts/install-haproxy.sh
	$(GO) build -o bin/loadtest ./cmd/loadtest
	bin/loadtest -bin $(BIN) -doc docs/performance.md -chart docs/load-test.png $(LOAD_FLAGS)

test-e2e: $(BIN)
	bash web/scripts/install-chromium.sh
	bash web/scripts/e2e.sh $(BIN)

# Re-records the help page's video tutorials from the built product
# (web/scripts/record-help-videos.mjs) into web/public/static/help/videos,
# then rebuilds so the binary serves them.
help-videos: $(BIN)
	bash web/scripts/install-chromium.sh
	cd web && node scripts/record-help-videos.mjs ../$(BIN)
	$(MAKE) build

clean:
	rm -rf $(BIN) web/dist/assets web/dist/index.html
