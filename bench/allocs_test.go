package bench

import (
	"math"
	"runtime"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// These tests check the allocation targets for Refuse with
// testing.AllocsPerRun (and the bytes those allocations take), with every
// binder: no clock is read.

// refuseAllocs returns the allocations and bytes allocated per Refuse call
// of tool with args on reg.
func refuseAllocs(t *testing.T, reg *typereg.Registry, tool string, args []byte) (allocs float64, bytes uint64) {
	t.Helper()
	call := func() { _ = refuse.Refuse(reg, tool, args) }
	const runs = 5
	allocs = testing.AllocsPerRun(runs, call)
	call() // warm up, as AllocsPerRun does
	// The bytes are the process's: an allocation of the runtime's or of
	// another goroutine's between the two readings counts too (a few KB,
	// in about one run in five), and only ever adds. The least of three
	// measurements is the call's own.
	bytes = math.MaxUint64
	for range 3 {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range runs {
			call()
		}
		runtime.ReadMemStats(&after)
		bytes = min(bytes, (after.TotalAlloc-before.TotalAlloc)/runs)
	}
	return allocs, bytes
}

// TestRefuseTypicalAllocatesNothing: Refuse allocates nothing on the
// typical valid call, with every binder.
func TestRefuseTypicalAllocatesNothing(t *testing.T) {
	for _, b := range Binders {
		if n, _ := refuseAllocs(t, RegistryFor(b), ToolTypical, []byte(TypicalArgs)); n != 0 {
			t.Errorf("%s: Refuse on the typical call: %v allocations, want 0", b.Name(), n)
		}
	}
}

// sizeCase is a call at a small size and at a payload's big one.
type sizeCase struct {
	name       string
	tool       string
	small, big []byte
	valid      bool // every binder reads the call and Refuse lets it through: it allocates nothing
}

// sizeCases are the big payloads, each with a small version of the same
// call. (A refused number's refusal quotes at most 40 characters of it and
// names its length; strconv.Itoa allocates no string below 100, so the
// small versions are past 100 characters.)
var sizeCases = []sizeCase{
	{"1 MB string", ToolText, TextArgs(1000), TextArgs(1 << 20), true},
	{"1,000,000-digit number", ToolNumber, NumberArgs(1000), NumberArgs(1_000_000), false},
	{"100,000-element []int", ToolInts, IntsArgs(100), IntsArgs(100_000), true},
	{"200-element []string", ToolStrings, StringsArgs(2), StringsArgs(200), true},
	{"999 nested arrays", ToolNested, NestedArgs(10), NestedArgs(999), false},
	{"9,999 nested arrays", ToolNested, NestedArgs(10), NestedArgs(9999), false},
	{"999 nested objects", ToolNested, NestedObjectsArgs(10), NestedObjectsArgs(999), false},
	{"10,000-key map", ToolKeys, KeysArgs(100), KeysArgs(10_000), false},
	{"10,000 unknown keys", ToolKeys, UnknownKeysArgs(1000), UnknownKeysArgs(10_000), false},
}

// knownGrowth are today's misses of the target: the binder (by
// Binder.Name) and case where Refuse's allocations grow with the input,
// and why. The test asserts each still grows, so the entry goes when the
// miss is fixed; every other case must not grow. As measured on
// 2026-12-01 (allocations and bytes per call, small → big):
var knownGrowth = map[[2]string]string{
	// segmentio refuses 10,000 levels (its cap is 1,000) and reads the
	// small version (10): 0 → 13 allocations (3.7 KB), the refusal's own,
	// from the one pass's TooDeep.
	{"segmentio", "9,999 nested arrays"}: "the big call is refused and the small one read: the refusal's own allocations",
}

// TestRefuseAllocationsIndependentOfSize: on the big payloads Refuse
// allocates as often, and as many bytes, as on small versions of the same
// call, with every binder: it copies no value. The known misses
// (knownGrowth) are asserted as they are today: they grow.
func TestRefuseAllocationsIndependentOfSize(t *testing.T) {
	for _, b := range Binders {
		reg := RegistryFor(b)
		for _, c := range sizeCases {
			sn, sb := refuseAllocs(t, reg, c.tool, c.small)
			bn, bb := refuseAllocs(t, reg, c.tool, c.big)
			grows := bn != sn || bb > 2*sb+1024
			why, known := knownGrowth[[2]string{b.Name(), c.name}]
			t.Logf("%s: %s: %v allocations (%d B) for %d bytes of arguments, %v (%d B) for %d", b.Name(), c.name, sn, sb, len(c.small), bn, bb, len(c.big))
			switch {
			case known && grows:
				t.Logf("%s: %s: known miss, allocations grow with the input: %s", b.Name(), c.name, why)
			case known:
				t.Errorf("%s: %s: allocations no longer grow with the input (%v → %v, %d → %d B): remove it from knownGrowth", b.Name(), c.name, sn, bn, sb, bb)
			case grows:
				t.Errorf("%s: %s: %v allocations (%d B), %v (%d B) for the small version (%d bytes): allocations grow with the input", b.Name(), c.name, bn, bb, sn, sb, len(c.small))
			}
			if c.valid && bn != 0 {
				t.Errorf("%s: %s: %v allocations on a valid call, want 0", b.Name(), c.name, bn)
			}
		}
	}
}

// TestKnownGrowthNamesCases: every known miss names a binder and a case
// the test runs, so none is stale by a typo.
func TestKnownGrowthNamesCases(t *testing.T) {
	names := map[string]bool{}
	for _, c := range sizeCases {
		names[c.name] = true
	}
	binders := map[string]bool{}
	for _, b := range Binders {
		binders[b.Name()] = true
	}
	for k := range knownGrowth {
		if !binders[k[0]] || !names[k[1]] {
			t.Errorf("knownGrowth names %q, %q: no such binder or case", k[0], k[1])
		}
	}
}
