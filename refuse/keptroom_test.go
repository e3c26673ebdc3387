package refuse_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// TestDecide_FailingConstrainedCallHandsBackItsRoom: a call the binder
// fails on, of a tool with validate tags, is checked still without the
// member the failure lies in; past 16 members, the members kept take
// pooled room (40 KB), which Decide hands back. It did not: each such
// call allocated the room anew (41 KB a call, where it now allocates its
// refusal's words).
func TestDecide_FailingConstrainedCallHandsBackItsRoom(t *testing.T) {
	reg := typereg.New(typereg.WithExempt(func() []string {
		keys := make([]string, 20)
		for i := range keys {
			keys[i] = "x" + strconv.Itoa(i)
		}
		return keys
	}()...))
	if err := typereg.Register[stats](reg, "stats"); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"hours_back":"x"`)
	for i := range 20 {
		b.WriteString(`,"x` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString(`,"limit":500}`)
	args := []byte(b.String())
	d := refuse.Decide(reg, "stats", args)
	if d.Refusal == nil || len(d.Refusal.Problems) != 2 {
		t.Fatalf("want a refusal of hours_back and limit: %v", d.Refusal)
	}
	if bytes := decideBytes(func() { refuse.Decide(reg, "stats", args) }); bytes > 16<<10 {
		t.Errorf("a refused call of 22 members allocates %d bytes; want its words, not the members' room (40 KB)", bytes)
	}
}
