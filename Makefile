# bindguard: build, test and check.

GO ?= go
STATICCHECK ?= $(GO) run honnef.co/go/tools/cmd/staticcheck@v0.8.2

.PHONY: test probe lint fuzz

# test: the whole suite under the race detector, then go vet.
test:
	$(GO) test -race ./...
	$(GO) vet ./...

# probe: run the default value table against encoding/json and the guard.
probe:
	$(GO) run ./cmd/bindprobe

# lint: formatting, vet and staticcheck.
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(STATICCHECK) ./...

# fuzz: each fuzz target for FUZZTIME (default 1m).
FUZZTIME ?= 1m
fuzz:
	$(GO) test ./bind -run '^$$' -fuzz '^FuzzCheckAgreesWithStd$$' -fuzztime $(FUZZTIME)
