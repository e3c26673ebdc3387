#!/usr/bin/env bash
# run.sh: the benchmark suite, side by side, then benchstat's table (each
# guard against bind) and cmd/ratio's ratios to bind, growth and targets,
# ending with issue 11's speed table for each binder (encoding/json, V2,
# SegmentIO): Refuse through it against its own decode and json.Valid.
#
# The test binary is built once and run COUNT times with -test.count=1, so
# the samples of every sub-benchmark are spread over the whole run: a burst
# of load from another process then lands on every guard alike instead of on
# one guard's consecutive samples, and the ratios stay side by side.
#
# Environment: COUNT (default 6, the fewest benchstat gives a confidence
# interval for), BENCHTIME (default 300ms), BENCH (a -bench pattern, default
# "."), OUT (the raw output, default /tmp/bindguard-bench.txt), GO (default
# go), BENCHSTAT (default: go run golang.org/x/perf/cmd/benchstat at a
# pinned version).
set -euo pipefail

COUNT=${COUNT:-6}
BENCHTIME=${BENCHTIME:-300ms}
BENCH=${BENCH:-.}
OUT=${OUT:-/tmp/bindguard-bench.txt}
GO=${GO:-go}
BENCHSTAT=${BENCHSTAT:-"$GO run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da"}

cd "$(dirname "$0")"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
$GO test -c -o "$tmp/bench.test" .
: >"$OUT"
for i in $(seq "$COUNT"); do
	echo "== pass $i of $COUNT; load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
	"$tmp/bench.test" -test.run '^$' -test.bench "$BENCH" -test.benchmem \
		-test.benchtime "$BENCHTIME" -test.count 1 -test.timeout 60m | tee -a "$OUT"
done
echo "== done; load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
$BENCHSTAT -col /guard -filter '.unit:(sec/op OR B/op OR allocs/op)' "$OUT"
$GO run ./cmd/ratio "$OUT"
