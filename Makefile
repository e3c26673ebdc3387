# bindguard: build, test and check.

GO ?= go
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test test-long probe lint fuzz bench

# test: the command to run before every commit (a few minutes on 2 cores
# with an empty build cache): the whole suite under the race detector with
# -short, which keeps each test's inputs small, then go vet; then the
# benchmark module's own tests (verdicts and allocation counts, no clocks).
test:
	$(GO) test -race -short ./...
	$(GO) vet ./...
	cd bench && $(GO) test -short ./... && $(GO) vet ./...

# test-long: the same tests at full size, without -short (megabyte
# payloads, hostile calls against every binder, growth at 100x), without
# the race detector, which would multiply their time; CI runs it after
# make test.
test-long:
	$(GO) test -count=1 ./...
	cd bench && $(GO) test -count=1 ./...

# probe: run the default value table against encoding/json and the guard.
probe:
	$(GO) run ./cmd/bindprobe

# lint: formatting, vet and staticcheck.
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...
	$(GO) mod tidy -diff
	cd bench && $(GO) mod tidy -diff

# fuzz: every fuzz target in the module, FUZZTIME each (default 1m). A
# failing input is printed and kept under the package's testdata/fuzz. A run
# that ends in "context deadline exceeded" with no failing input is the Go
# fuzzing coordinator's own race at the time limit (golang/go#75804), not a
# finding: it is run once more, then reported and passed over.
FUZZTIME ?= 1m
fuzz:
	@set -e; for pkg in $$($(GO) list ./...); do \
		for target in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz' || true); do \
			for try in 1 2; do \
				echo "== $$pkg $$target ($(FUZZTIME))"; \
				if $(GO) test $$pkg -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) > fuzz.out 2>&1; then \
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

# bench: the speed suite (bench/, its own module): every payload against
# every rival side by side, then benchstat (each rival against bind) and
# the ratios to bind, the growth and the targets (docs/performance.md).
BENCHCOUNT ?= 6
BENCHTIME ?= 300ms
bench:
	cd bench && COUNT=$(BENCHCOUNT) BENCHTIME=$(BENCHTIME) GO=$(GO) bash run.sh
