package refuse_test

import (
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// TestDecide_BadIntKeysAllocateAsFew: a map of integer keys sent again
// and again with a key its key type does not read (text, a number past
// its range, one beside keys it reads) costs Decide as many allocations
// at 6,000 repeats as at 1,500, under every binder: the checker reads an
// integer key as strconv.ParseInt and ParseUint do (decimal), without the
// error they allocate for a key they fail on. Before, std's check took
// two allocations for each such key: 4,009 at 1,500 repeats and 13,009
// at 6,000 (now 1,009 at both).
func TestDecide_BadIntKeysAllocateAsFew(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[probe.Args](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, body := range []string{`"names":{"x":"y"}`, `"names":{"99999999999999999999":"y"}`, `"names":{"1":"a","01":"b","x":"c"}`} {
			var allocs [2]float64
			for i, n := range []int{1500, 6000} {
				args := []byte("{" + strings.Repeat(body+",", n-1) + body + "}")
				if refuse.Refuse(reg, "t", args) == nil {
					t.Fatalf("%s %s x%d: not refused", b.Name(), body, n)
				}
				allocs[i] = testing.AllocsPerRun(1, func() { refuse.Decide(reg, "t", args) })
			}
			if allocs[1] > allocs[0]+64 {
				t.Errorf("%s %s: %v allocations at 1,500 repeats, %v at 6,000", b.Name(), body, allocs[0], allocs[1])
			}
		}
	}
}
