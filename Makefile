# bindguard: build, test and check.
#
# The repository holds several modules (docs/releasing.md): the core at the
# root, each MCP adapter, bindprobe, the examples, the README snippets'
# tests, and the benchmark suite; go.work at the root joins them for
# development. In workspace mode `./...` at the root matches only the core
# module's packages (a directory holding its own go.mod is another module),
# so every target names each module's packages: PKGS. bench/ keeps its own
# lines (its tests run without the race detector).

GO ?= go
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

# MODULES: every module of go.work but bench, as directories (.ci/tidy
# checks that this list, BENCH, go.work and the tree's go.mod files agree).
MODULES := . mcpguard/gosdk mcpguard/mcpgo cmd/bindprobe examples internal/snippets
BENCH := bench
PKGS := ./... $(patsubst %,./%/...,$(filter-out .,$(MODULES)))
# ADAPTERS: the modules tested against each end of their SDK's range.
ADAPTERS := mcpguard/gosdk mcpguard/mcpgo

.PHONY: test test-long test-jsonv2 test-sdks probe lint tidy fuzz fuzz-jsonv2 bench print-modules

# test: the command to run before every commit (under 3 minutes on 2 cores
# with an empty build cache): every module's suite under the race detector
# with -short, which keeps each test's inputs small. go test runs go vet's
# high-confidence checks itself; the whole of go vet and staticcheck are
# make lint's, and the benchmark module's tests (verdicts and allocation
# counts, which the race detector would change) are make test-long's and
# make test-jsonv2's: CI runs all three.
test:
	$(GO) test -race -short $(PKGS)

# test-long: the same tests at full size, without -short (megabyte
# payloads, hostile calls against every binder, growth at 100x), without
# the race detector, which would multiply their time; CI runs it after
# make test.
test-long:
	$(GO) test -count=1 $(PKGS)
	cd $(BENCH) && $(GO) test -count=1 ./...

# test-jsonv2: the suite (-short, no race detector) and the benchmark
# module's tests once more under GOEXPERIMENT=jsonv2, where Go builds
# encoding/json on encoding/json/v2 and github.com/go-json-experiment/json
# becomes an alias of encoding/json/v2: the mirror must stay exact there too
# (docs/how-it-works.md, "Under GOEXPERIMENT=jsonv2").
test-jsonv2:
	GOEXPERIMENT=jsonv2 $(GO) test -short $(PKGS)
	GOEXPERIMENT=jsonv2 $(GO) vet $(PKGS)
	cd $(BENCH) && GOEXPERIMENT=jsonv2 $(GO) test -short ./...

# test-sdks: each adapter alone (GOWORK=off), against the oldest SDK
# release it supports (its go.mod requires that floor) and the newest
# (go.newest.mod); in the workspace, make test sees only the version the
# workspace selects, the newest. The ranges are in each adapter's doc.go.
test-sdks:
	@set -e; for m in $(ADAPTERS); do \
		for f in go.mod go.newest.mod; do \
			echo "== $$m against $$(cd $$m && GOWORK=off $(GO) list -modfile=$$f -m -f '{{.Path}} {{.Version}}' all | grep -E 'modelcontextprotocol/go-sdk |mark3labs/mcp-go ') ($$f)"; \
			(cd $$m && GOWORK=off $(GO) test -short -modfile=$$f ./... && GOWORK=off $(GO) vet -modfile=$$f ./...); \
		done; \
	done

# test-floor: the core's tests (-short, no race detector) under the oldest
# toolchain its go directive allows, fetched from the module proxy (the
# module golang.org/toolchain), with the versions go.mod requires, which
# are the floors (docs/compatibility.md): the core alone (GOWORK=off), as
# its users build it, not the workspace, whose other modules lift them.
# test-latest: the same tests under this toolchain with every dependency at
# its newest release (go get -u on a copy of go.mod; go.mod is untouched).
FLOORGO ?= go1.26.0
.PHONY: test-floor test-latest no-prerelease
test-floor:
	GOWORK=off GOTOOLCHAIN=$(FLOORGO) $(GO) version
	GOWORK=off GOTOOLCHAIN=$(FLOORGO) $(GO) test -short ./...

test-latest:
	@set -e; export GOWORK=off; tmp=$$(mktemp -d); trap 'rm -rf $$tmp' EXIT; cp go.mod go.sum $$tmp/; \
	$(GO) get -modfile=$$tmp/go.mod -u ./...; \
	$(GO) list -modfile=$$tmp/go.mod -m all | grep -E 'json-experiment|validator|invopop|ordered-map|segmentio|jsonschema-go'; \
	$(GO) test -modfile=$$tmp/go.mod -short ./...

# probe: run the default value table against encoding/json and the guard.
probe:
	$(GO) run ./cmd/bindprobe

# lint: formatting, vet and staticcheck over every module, and every
# module's go.mod (and each adapter's go.newest.mod) tidy as its users see
# it, alone, outside the core and bench with no requirement above the
# least its graph needs (.ci/tidy, which also checks that go.work, MODULES
# and the tree's go.mod files agree, and that the core's graph has no SDK).
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	$(STATICCHECK) $(PKGS)
	cd $(BENCH) && $(GO) vet ./... && $(STATICCHECK) ./...
	bash .ci/tidy
	@$(MAKE) --no-print-directory no-prerelease

# no-prerelease: fails when the module graph of the core or of an adapter,
# each alone as its users get it (GOWORK=off), holds a pre-release version
# (v4.0.0-rc.2); a pseudo-version of an untagged commit
# (v0.0.0-20201130134442-10cb98267c6c) is no pre-release of a release.
no-prerelease:
	@set -e; for m in . $(ADAPTERS); do \
		pre=$$(cd $$m && GOWORK=off $(GO) list -m all | awk 'NF > 1 {print $$1, $$2}' | grep -E ' v[^ ]*-' | grep -Ev -- '-(0\.)?[0-9]{14}-[0-9a-f]{12}$$' || true); \
		if [ -n "$$pre" ]; then echo "pre-release versions in the module graph of $$m (docs/compatibility.md):"; echo "$$pre"; exit 1; fi; \
	done

# tidy: go mod tidy for every module, alone, as lint checks it.
tidy:
	bash .ci/tidy -fix

print-modules:
	@echo $(MODULES) $(BENCH)

# fuzz: every fuzz target in every module, FUZZTIME each (default 1m). A
# failing input is printed and kept under the package's testdata/fuzz. A run
# that ends in "context deadline exceeded" with no failing input is the Go
# fuzzing coordinator's own race at the time limit (golang/go#75804), not a
# finding: it is run once more, then reported and passed over.
# FUZZPKGS narrows the packages; FUZZENV sets the environment of each run.
FUZZTIME ?= 1m
FUZZPKGS ?= $(PKGS) ./$(BENCH)/...
FUZZENV ?=
fuzz:
	@set -e; for pkg in $$($(GO) list $(FUZZPKGS)); do \
		for target in $$($(FUZZENV) $(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			for try in 1 2; do \
				echo "== $(FUZZENV) $$pkg $$target ($(FUZZTIME))"; \
				if $(FUZZENV) $(GO) test $$pkg -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) > fuzz.out 2>&1; then \
					tail -1 fuzz.out; break; \
				fi; \
				if ! grep -q 'Failing input written' fuzz.out && grep -q 'context deadline exceeded' fuzz.out; then \
					echo "(the fuzzing coordinator timed out at the limit, with no failing input; try $$try of 2)"; continue; \
				fi; \
				tail -40 fuzz.out; \
				dir=$$($(GO) list -f '{{.Dir}}' $$pkg)/testdata/fuzz/$$target; \
				for f in $$(git -C $$dir ls-files --others --exclude-standard . 2>/dev/null); do echo "-- failing input $$dir/$$f:"; cat "$$dir/$$f"; done; \
				rm -f fuzz.out; exit 1; \
			done; \
		done; \
	done; rm -f fuzz.out

# fuzz-jsonv2: the fuzz targets of bind and refuse under GOEXPERIMENT=jsonv2,
# FUZZTIME each.
fuzz-jsonv2:
	$(MAKE) fuzz FUZZENV=GOEXPERIMENT=jsonv2 FUZZPKGS="./bind ./refuse" FUZZTIME=$(FUZZTIME)

# bench: the speed suite (bench/, its own module): every payload against
# every rival side by side, then benchstat (each rival against bind) and
# the ratios to bind, the growth and the targets, and issue 11's speed
# table for each of the three binders (docs/performance.md). BENCHPATTERN
# selects a subset (run.sh's BENCH, a -bench pattern; BENCH itself is this
# Makefile's name of the module's directory), taken as written, $ and all,
# on the command line or from the environment:
#   make bench BENCHPATTERN='Benchmark(Typical|Ints10k)$/guard=(bind|refuse)' BENCHCOUNT=1
BENCHCOUNT ?= 6
BENCHTIME ?= 300ms
BENCHPATTERN ?= .
bench:
	cd bench && BENCH='$(value BENCHPATTERN)' COUNT=$(BENCHCOUNT) BENCHTIME=$(BENCHTIME) GO=$(GO) bash run.sh
