package refuse_test

import (
	"strconv"
	"testing"

	"github.com/bindguard/bindguard/refuse"
)

// mgGrowthShapes are good calls of mgArgs (see mergedmissing_test.go) of
// scale k, past bind.MaxIssues at 1x: every object of the first value
// leaves both fields out, and the value the binder reads holds them all.
var mgGrowthShapes = []struct {
	name string
	args func(k int) string
}{
	{"a struct's key sent again and again", func(k int) string {
		return `{"p":{` + rep(`"x":{},"x":{"a":1},"x":{"b":1}`, 600*k, ",") + `}}`
	}},
	{"a list of structs sent twice", func(k int) string {
		return `{"l":[` + rep(`{}`, 600*k, ",") + `],"l":[` + rep(`{"a":1,"b":1}`, 600*k, ",") + `]}`
	}},
	{"a map of structs sent twice", func(k int) string {
		return `{"m":{` + seq(600*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":{}` }) +
			`},"m":{` + seq(600*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":{"a":1,"b":1}` }) + `}}`
	}},
	{"a list of pointers to nested structs sent twice", func(k int) string {
		return `{"lp":[` + rep(`{"x":{},"pl":{}}`, 300*k, ",") + `],"lp":[` + rep(`{"x":{"a":1,"b":1},"pl":{"a":1,"b":1}}`, 300*k, ",") + `]}`
	}},
}

// TestDecide_MergedObjectsAllocationsStayFlat: a good call whose objects
// a repeated key merges, past MaxIssues (every object placed), costs
// Decide as many allocations at 10x and 100x as at 1x, under each binder
// that merges. Reading the merged objects allocated for each (a list of
// 60,000 objects sent twice: 21,047 allocations more than one of 600).
func TestDecide_MergedObjectsAllocationsStayFlat(t *testing.T) {
	scales := []int{1, 10, 100}
	if testing.Short() {
		scales = scales[:2]
	}
	for _, bb := range mgBinders {
		reg := mgRegistry(t, bb.b)
		for _, sh := range mgGrowthShapes {
			t.Run(bb.name+"/"+sh.name, func(t *testing.T) {
				var base float64
				for _, k := range scales {
					args := []byte(sh.args(k))
					if d := refuse.Decide(reg, "mg", args); d.Refusal != nil {
						t.Fatalf("%dx: a good call refused: %v", k, d.Refusal)
					}
					allocs := testing.AllocsPerRun(5, func() { refuse.Decide(reg, "mg", args) })
					t.Logf("%dx: %d bytes: %v allocations", k, len(args), allocs)
					if k == 1 {
						base = allocs
					} else if allocs > base+2 {
						t.Errorf("%dx: %v allocations for %d bytes; at 1x %v", k, allocs, len(args), base)
					}
				}
			})
		}
	}
}
