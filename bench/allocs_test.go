package bench

import (
	"runtime"
	"testing"

	"github.com/bindguard/bindguard/refuse"
)

// These tests check the allocation targets for Refuse with
// testing.AllocsPerRun (and the bytes those allocations take): no clock is
// read.

// refuseAllocs returns the allocations and bytes allocated per Refuse call
// of tool with args.
func refuseAllocs(t *testing.T, tool string, args []byte) (allocs float64, bytes uint64) {
	t.Helper()
	reg := Registry()
	call := func() { _ = refuse.Refuse(reg, tool, args) }
	allocs = testing.AllocsPerRun(20, call)
	const runs = 20
	call() // warm up, as AllocsPerRun does
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for range runs {
		call()
	}
	runtime.ReadMemStats(&after)
	return allocs, (after.TotalAlloc - before.TotalAlloc) / runs
}

// TestRefuseTypicalAllocatesNothing: Refuse allocates nothing on the
// typical valid call.
func TestRefuseTypicalAllocatesNothing(t *testing.T) {
	if n, _ := refuseAllocs(t, ToolTypical, []byte(TypicalArgs)); n != 0 {
		t.Errorf("Refuse on the typical call: %v allocations, want 0", n)
	}
}

// TestRefuseAllocationsIndependentOfSize: on the big payloads Refuse
// allocates as often, and as many bytes, as on small versions of the same
// call: it copies no value. (A refused number's refusal quotes at most 40
// characters of it and names its length; strconv.Itoa allocates no string
// below 100, so the small versions are past 100 characters.)
func TestRefuseAllocationsIndependentOfSize(t *testing.T) {
	cases := []struct {
		name        string
		tool        string
		small, big  []byte
		wantNothing bool // the call is valid, so Refuse allocates nothing
	}{
		{"1 MB string", ToolText, TextArgs(1000), TextArgs(1 << 20), true},
		{"1,000,000-digit number", ToolNumber, NumberArgs(1000), NumberArgs(1_000_000), false},
		{"100,000-element []int", ToolInts, IntsArgs(100), IntsArgs(100_000), true},
		{"200-element []string", ToolStrings, StringsArgs(2), StringsArgs(200), true},
		{"9,999 nested arrays", ToolNested, NestedArgs(10), NestedArgs(9999), true},
	}
	for _, c := range cases {
		sn, sb := refuseAllocs(t, c.tool, c.small)
		bn, bb := refuseAllocs(t, c.tool, c.big)
		t.Logf("%s: %v allocations (%d B) for %d bytes of arguments, %v (%d B) for %d", c.name, sn, sb, len(c.small), bn, bb, len(c.big))
		if bn != sn {
			t.Errorf("%s: %v allocations, %v for the small version (%d bytes): allocations grow with the input", c.name, bn, sn, len(c.small))
		}
		if bb > 2*sb+1024 {
			t.Errorf("%s: %d bytes allocated, %d for the small version: allocations grow with the input", c.name, bb, sb)
		}
		if c.wantNothing && bn != 0 {
			t.Errorf("%s: %v allocations on a valid call, want 0", c.name, bn)
		}
	}
}
