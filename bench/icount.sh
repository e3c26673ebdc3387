#!/usr/bin/env bash
# icount.sh: the instructions one operation of a benchmark executes inside
# one function, counted by valgrind's callgrind: the same count on every
# run, where this machine's clock moves by 20-40% between runs. A change
# to the guard's hot path can be measured with it before a timed run.
#
# Usage: bench/icount.sh BENCH [FUNC]
#   BENCH  a -bench pattern matching one sub-benchmark, e.g.
#          '^BenchmarkTypical$/^guard=refuse-v2$'
#   FUNC   the function whose calls are counted, with its callees
#          (default github.com/bindguard/bindguard/refuse.Decide; refuse.Refuse
#          is inlined, so it counts nothing). For json.Valid:
#          encoding/json.Valid.
#
# Environment: N (operations, default 1000), BIN (a test binary built with
# `go test -c`; default: built here from the working tree), CG (where
# callgrind's profile goes, default /tmp/icount.callgrind; read it with
# callgrind_annotate, e.g. --inclusive=no for each function's own share).
#
# Needs valgrind (Debian: apt-get install valgrind). Go's asynchronous
# preemption signals crash callgrind, so it is turned off for the run.
set -euo pipefail

BENCH=${1:?usage: icount.sh BENCH [FUNC]}
FUNC=${2:-github.com/bindguard/bindguard/refuse.Decide}
N=${N:-1000}
CG=${CG:-/tmp/icount.callgrind}

cd "$(dirname "$0")"
if [ -z "${BIN:-}" ]; then
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	go test -c -o "$tmp/bench.test" .
	BIN=$tmp/bench.test
fi
# The benchmark runs the operation once before its N (b.Loop's first
# round): N+1 calls are counted.
out=$(GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$CG" \
	--toggle-collect="$FUNC" "$BIN" -test.run '^$' -test.bench "$BENCH" \
	-test.benchtime "${N}x" -test.cpu 1 2>&1)
total=$(grep -o 'Collected : [0-9]*' <<<"$out" | awk '{print $3}')
if [ -z "$total" ] || [ "$total" = 0 ]; then
	echo "icount: nothing counted in $FUNC (is BENCH right, and FUNC not inlined?)" >&2
	exit 1
fi
echo "$BENCH in $FUNC: $((total / (N + 1))) instructions per operation"
