package refuse_test

import (
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type mbLeaf struct {
	A int    `json:"a,omitempty" validate:"max=10"`
	B string `json:"b,omitempty"`
	R string `json:"r" validate:"required"`
}

type mbArgs struct {
	W mbLeaf   `json:"w"`
	L []mbLeaf `json:"l,omitempty" validate:"dive"`
}

// TestDecide_BreachQuotesTheValueRead: a value inside an argument that
// breaks its tags is quoted as the binder reads it, and where: past a
// null after it that leaves it as it was, and in an object a later one
// merges into. A hunt found the null quoted ("with null at w.a") and the
// last object quoted alone, with no place ("the call sent {"b":"yy"}"),
// where the binder reads 50 from the one before.
func TestDecide_BreachQuotesTheValueRead(t *testing.T) {
	cases := []struct{ args, path, sent string }{
		{`{"w":{"r":"x","a":50,"a":null}}`, ".a", `{"r":"x","a":50,"a":null}`},
		{`{"w":{"r":"x","a":50},"w":{"a":null}}`, ".a", `{"r":"x","a":50}`},
		{`{"w":{"a":50,"r":"x"},"w":{"b":"yy"}}`, ".a", `{"a":50,"r":"x"}`},
		{`{"w":{"a":50,"r":"x"},"w":{"b":"yy"},"w":null}`, ".a", `{"a":50,"r":"x"}`},
		{`{"w":{"r":"x"},"l":[{"a":50,"r":"x"}],"l":[{"b":"yy"}]}`, "[0].a", `[{"a":50,"r":"x"}]`},
		{`{"w":{"r":"x","a":50}}`, ".a", `{"r":"x","a":50}`},
	}
	for _, bb := range mgBinders {
		reg := typereg.New(typereg.WithBinder(bb.b))
		if err := typereg.Register[mbArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range cases {
			var v mbArgs
			if err := bb.b.Unmarshal([]byte(tc.args), &v); err != nil {
				t.Fatalf("%s %s: the binder fails: %v", bb.name, tc.args, err)
			}
			d := refuse.Decide(reg, "t", []byte(tc.args))
			var got *refuse.Problem
			for _, p := range problemsOf(d) {
				if p.Code == refuse.Constraint {
					got = &p
				}
			}
			switch {
			case got == nil:
				t.Errorf("%s %s: no constraint problem: %v", bb.name, tc.args, d.Refusal)
			case got.Path != tc.path || got.Element != "50" || got.Sent != tc.sent:
				t.Errorf("%s %s: Path %q, Element %q, Sent %s; want %q, 50, %s", bb.name, tc.args, got.Path, got.Element, got.Sent, tc.path, tc.sent)
			}
		}
	}
}

type mbNest struct {
	In mbLeaf `json:"in"`
}

type mbNested struct {
	D mbNest `json:"d"`
}

// TestDecide_NullStructBreachIsPlaced: a null for a nested struct, which
// leaves it zero where its fields' tags refuse zero, is the breach, at
// its place. The refusal named no place ("the call sent {"in":null}").
func TestDecide_NullStructBreachIsPlaced(t *testing.T) {
	for _, bb := range mgBinders {
		reg := typereg.New(typereg.WithBinder(bb.b))
		if err := typereg.Register[mbNested](reg, "t"); err != nil {
			t.Fatal(err)
		}
		d := refuse.Decide(reg, "t", []byte(`{"d":{"in":null}}`))
		var got *refuse.Problem
		for _, p := range problemsOf(d) {
			if p.Code == refuse.Constraint {
				got = &p
			}
		}
		if got == nil || got.Path != ".in" || got.Element != "null" {
			t.Errorf("%s: %+v, want a constraint at .in, null: %v", bb.name, got, d.Refusal)
		}
	}
}

type mqX struct {
	X int `json:"x,omitempty" validate:"min=1"`
	Y int `json:"y,omitempty"`
}

type mqArgs struct {
	M map[string]mqX `json:"m,omitempty" validate:"dive"`
	L []mqX          `json:"l,omitempty" validate:"dive"`
	P *mqX           `json:"p,omitempty"`
}

// TestDecide_BreachNotQuotedFromAValueMadeNew: a value sent before a
// null is quoted as the breach only where the binder still reads it
// there: a map's element is new for each value, and a null for a pointer
// or a list, or (encoding/json) an empty list, drops what was read
// before. A review found the 50 sent before quoted ("with 50 at m.k.x")
// where the binder reads 0.
func TestDecide_BreachNotQuotedFromAValueMadeNew(t *testing.T) {
	cases := []struct{ args, binder string }{
		{`{"m":{"k":{"x":50}},"m":{"k":{"x":null}}}`, ""},
		{`{"p":{"x":50},"p":null,"p":{"x":null}}`, ""},
		{`{"l":[{"x":50}],"l":null,"l":[{"x":null}]}`, ""},
		{`{"l":[{"x":50}],"l":[],"l":[{"x":null}]}`, "std"}, // segmentio keeps the list's element
	}
	for _, bb := range mgBinders {
		reg := typereg.New(typereg.WithBinder(bb.b))
		if err := typereg.Register[mqArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range cases {
			if tc.binder != "" && tc.binder != bb.name {
				continue
			}
			d := refuse.Decide(reg, "t", []byte(tc.args))
			for _, p := range problemsOf(d) {
				if p.Code == refuse.Constraint && p.Element == "50" {
					t.Errorf("%s %s: quotes 50 at %s; the binder reads 0 there (%s)", bb.name, tc.args, p.Path, p.Sent)
				}
			}
			if d.Refusal == nil {
				t.Errorf("%s %s: went on; x is 0, which min=1 refuses", bb.name, tc.args)
			}
		}
	}
}

// TestDecide_RepeatedBreachesAllocateAsFew: a key sent again and again,
// its nested value breaking its tags each time (at the top level and in a
// list), costs Decide as many allocations at 10x as at 1x under every
// binder: a breach past the members recorded (bindcap.MaxMembers) builds
// no path, as none is read. Before, each built one: 3,064 allocations for
// 2,000 repeats, 21,064 for 20,000.
func TestDecide_RepeatedBreachesAllocateAsFew(t *testing.T) {
	for _, bb := range append(mgBinders, struct {
		name string
		b    bind.Binder
	}{"v2", jsonv2.Binder}) {
		reg := typereg.New(typereg.WithBinder(bb.b))
		if err := typereg.Register[mbArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		sizes := []int{2000, 20000}
		if testing.Short() {
			sizes = []int{1000, 5000} // under the race detector, a tenth of the time
		}
		for _, body := range []string{`"w":{"r":"x","a":50}`, `"l":[{"r":"x","a":50}]`, `"b":1,"w":{"a":50,"r":"x"}`} {
			var allocs [2]float64
			for i, n := range sizes {
				args := []byte("{" + strings.Repeat(body+",", n-1) + body + "}")
				if refuse.Refuse(reg, "t", args) == nil {
					t.Fatalf("%s %s x%d: not refused", bb.name, body, n)
				}
				allocs[i] = testing.AllocsPerRun(1, func() { refuse.Decide(reg, "t", args) })
			}
			if allocs[1] > allocs[0]+64 {
				t.Errorf("%s %s: %v allocations at %d repeats, %v at %d", bb.name, body, allocs[0], sizes[0], allocs[1], sizes[1])
			}
		}
	}
}
