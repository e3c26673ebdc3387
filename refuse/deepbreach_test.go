package refuse_test

import (
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// deepNode is a recursive type with a tag at every level: a call nests it
// thousands of levels deep. Its tags are compiled (a cycle of nodes) and
// the walk holds every level; before, the call was decoded and the
// validator judged it, and a breach was then looked for in the text,
// level by level.
type deepNode struct {
	A    int        `json:"a,omitempty" validate:"max=10"`
	Next *deepNode  `json:"next,omitempty"`
	Kids []deepNode `json:"kids,omitempty" validate:"dive"`
}

type deepArgs struct {
	R deepNode `json:"r"`
}

// TestDecide_DeepBreachCostsAsItsTwin: a breach at the bottom of a chain
// of n objects costs Decide about what the same chain without it costs,
// at any depth (2-4 times, for the decode and the validator the breach
// takes; the bound leaves room for a loaded machine). The breach was looked for by reading every level's members
// (each value skipped) before entering one, so the chain was read n times
// over: 350 ms for 36 KB, 3 s for 108 KB (82 and 136 times its twin at
// 3,000 levels).
func TestDecide_DeepBreachCostsAsItsTwin(t *testing.T) {
	n := 9000
	if testing.Short() {
		n = 3000
	}
	chains := map[string]func(bottom string) string{
		"pointers": func(bottom string) string {
			return strings.Repeat(`{"a":1,"next":`, n) + bottom + strings.Repeat("}", n)
		},
		"lists": func(bottom string) string {
			return strings.Repeat(`{"a":1,"kids":[`, n) + bottom + strings.Repeat("]}", n)
		},
	}
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[deepArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for name, chain := range chains {
			bad, good := []byte(`{"r":`+chain(`{"a":50}`)+`}`), []byte(`{"r":`+chain(`{"a":5}`)+`}`)
			if refuse.Refuse(reg, "t", bad) == nil {
				t.Fatalf("%s, %s: the breach is not refused", b.Name(), name)
			}
			x, y := leastTime(reg, "t", bad), leastTime(reg, "t", good)
			t.Logf("%s, %s: %v against %v", b.Name(), name, x, y)
			if r := float64(x) / float64(y); r > 20 {
				t.Errorf("%s, %s: the breach costs %.1f times its twin's (%v against %v, %d levels)", b.Name(), name, r, x, y, n)
			}
		}
	}
}
