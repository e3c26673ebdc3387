package refuse_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// mgArgs reads a key sent twice every way encoding/json and segmentio
// merge one value into another: a struct (w), a pointer to one (p, pl),
// a list of structs (l) and of pointers (lp), a fixed array (a), a map
// (m, whose elements are each new). Every field of mgLeaf and mgNest is
// required (no omitempty); every parameter is optional.
type mgArgs struct {
	W  mgLeaf            `json:"w,omitempty"`
	P  *mgNest           `json:"p,omitempty"`
	L  []mgLeaf          `json:"l,omitempty"`
	A  [2]mgLeaf         `json:"a,omitempty"`
	M  map[string]mgLeaf `json:"m,omitempty"`
	LP []*mgNest         `json:"lp,omitempty"`
}

type mgLeaf struct {
	A int `json:"a"`
	B int `json:"b"`
}

type mgNest struct {
	X  mgLeaf  `json:"x"`
	PL *mgLeaf `json:"pl,omitempty"`
}

// mgSeen is mgArgs with every struct behind a pointer and every field of
// mgLeaf a json.RawMessage: decoded by the binder, it shows which keys
// the value the binder reads holds (a RawMessage is set by any value,
// null too) and which objects are in it (a pointer that is not nil),
// for calls that send no null where mgArgs holds a struct.
type mgSeen struct {
	W  *mgSeenLeaf            `json:"w,omitempty"`
	P  *mgSeenNest            `json:"p,omitempty"`
	L  []*mgSeenLeaf          `json:"l,omitempty"`
	A  [2]*mgSeenLeaf         `json:"a,omitempty"`
	M  map[string]*mgSeenLeaf `json:"m,omitempty"`
	LP []*mgSeenNest          `json:"lp,omitempty"`
}

type mgSeenLeaf struct {
	A json.RawMessage `json:"a"`
	B json.RawMessage `json:"b"`
}

type mgSeenNest struct {
	X  *mgSeenLeaf `json:"x"`
	PL *mgSeenLeaf `json:"pl,omitempty"`
}

// leaves reports whether a value the binder read leaves out a required
// field of an object in it, and names the first.
func (s *mgSeen) leaves() string {
	leaf := func(at string, l *mgSeenLeaf) string {
		switch {
		case l == nil:
		case l.A == nil:
			return at + ".a"
		case l.B == nil:
			return at + ".b"
		}
		return ""
	}
	nest := func(at string, n *mgSeenNest) string {
		switch {
		case n == nil:
			return ""
		case n.X == nil:
			return at + ".x"
		}
		if m := leaf(at+".x", n.X); m != "" {
			return m
		}
		return leaf(at+".pl", n.PL)
	}
	found := []string{leaf("w", s.W), nest("p", s.P)}
	for i, l := range s.L {
		found = append(found, leaf(fmt.Sprintf("l[%d]", i), l))
	}
	for i, l := range s.A {
		found = append(found, leaf(fmt.Sprintf("a[%d]", i), l))
	}
	for k, l := range s.M {
		found = append(found, leaf("m."+k, l))
	}
	for i, n := range s.LP {
		found = append(found, nest(fmt.Sprintf("lp[%d]", i), n))
	}
	for _, f := range found {
		if f != "" {
			return f
		}
	}
	return ""
}

var mgBinders = []struct {
	name string
	b    bind.Binder
}{{"std", bind.Std}, {"segmentio", segmentio.Binder}}

func mgRegistry(t testing.TB, b bind.Binder) *typereg.Registry {
	t.Helper()
	reg := typereg.New(typereg.WithBinder(b))
	if err := typereg.Register[mgArgs](reg, "mg"); err != nil {
		t.Fatal(err)
	}
	return reg
}

// missingIn returns the paths of d's missing_field problems.
func missingIn(d refuse.Decision) []string {
	var out []string
	if d.Refusal != nil {
		for _, p := range d.Refusal.Problems {
			if p.Code == refuse.MissingField {
				out = append(out, p.Argument+p.Path)
			}
		}
	}
	return out
}

// checkMerged fails unless Decide refuses args for a missing field
// exactly when the value b reads from args leaves a required field out.
func checkMerged(t *testing.T, reg *typereg.Registry, b bind.Binder, args string) {
	t.Helper()
	var real mgArgs
	var seen mgSeen
	if err := b.Unmarshal([]byte(args), &real); err != nil {
		t.Fatalf("%s: the binder fails on the call: %v", args, err)
	}
	if err := b.Unmarshal([]byte(args), &seen); err != nil {
		t.Fatalf("%s: the binder fails on the call into mgSeen: %v", args, err)
	}
	want := seen.leaves()
	d := refuse.Decide(reg, "mg", []byte(args))
	got := missingIn(d)
	switch {
	case want == "" && len(got) > 0:
		t.Errorf("%s: refused for a missing field at %v; the binder reads every one (%+v)", args, got, real)
	case want != "" && len(got) == 0:
		t.Errorf("%s: not refused (%v); the binder reads no %s", args, d.Refusal, want)
	}
}

// TestDecide_MergedObjectsFillMissingFields: a key sent twice whose
// objects the binder merges is judged by the value it reads. Before,
// each object was judged alone: {"w":{"a":1},"w":{"b":2}} was refused for
// a missing "b" and then "a" the binder reads both of (and so for
// objects in a pointer, a list, a fixed array, a key inside an object).
func TestDecide_MergedObjectsFillMissingFields(t *testing.T) {
	both := []string{
		`{"w":{"a":1},"w":{"b":2}}`,
		`{"w":{"b":2},"w":{"a":1}}`,
		`{"w":{"a":1,"b":1},"w":{"b":2}}`,
		`{"w":{"b":2},"w":{"b":3}}`,                            // a is in neither
		`{"p":{"x":{"a":1}},"p":{"x":{"b":2}}}`,                // a pointer set merges
		`{"p":{"x":{"a":1,"b":1}},"p":null,"p":{"x":{"b":2}}}`, // null makes it new
		`{"p":{"x":{"a":1},"x":{"b":2}}}`,                      // a key repeated inside
		`{"p":{"x":{"a":1,"b":1}},"p":{"pl":{"a":1}}}`,
		`{"p":{"x":{"a":1,"b":1},"pl":{"a":1}},"p":{"pl":{"b":1}}}`,
		`{"p":{"x":{"a":1,"b":1},"pl":{"a":1}},"p":{"pl":null},"p":{"pl":{"b":1}}}`,
		`{"l":[{"a":1}],"l":[{"b":2}]}`,                               // a list's elements merge
		`{"l":[{"a":1},{"b":1}],"l":[{"b":2}]}`,                       // the list is as long as the last
		`{"l":[{"a":1},{"a":1}],"l":[{"b":2}],"l":[{"a":1},{"b":2}]}`, // the element past it stays
		`{"l":[{"a":1}],"l":null,"l":[{"b":2}]}`,
		`{"l":[{"a":1}],"l":[],"l":[{"b":2}]}`,  // std: a new list; segmentio: the same one
		`{"a":[{"a":1},{"a":1}],"a":[{"b":1}]}`, // std zeroes a[1]; segmentio keeps it
		`{"a":[{"a":1}],"a":[{"b":1},{"a":1,"b":1}]}`,
		`{"a":[{"a":1,"b":1},{"a":1,"b":1}],"a":[{"b":1}]}`,
		`{"m":{"k":{"a":1}},"m":{"k":{"b":1}}}`, // a map's element is new each time
		`{"m":{"k":{"a":1}},"m":{"j":{"a":1,"b":1}}}`,
		`{"m":{"k":{"a":1},"k":{"a":1,"b":1}}}`,
		`{"lp":[{"x":{"a":1}}],"lp":[{"x":{"b":1}}]}`,
		`{"lp":[{"x":{"a":1}}],"lp":[null],"lp":[{"x":{"a":1,"b":1}}]}`,
	}
	for _, bb := range mgBinders {
		reg := mgRegistry(t, bb.b)
		t.Run(bb.name, func(t *testing.T) {
			for _, args := range both {
				checkMerged(t, reg, bb.b, args)
			}
		})
	}
	// Where mgSeen cannot show what the binder reads: null for a struct
	// (which leaves it as it is, where mgSeen's pointer is set to nil),
	// a key encoding/json folds (mgSeen's field is no struct's).
	std := mgRegistry(t, bind.Std)
	for _, tc := range []struct{ args, missing string }{
		{`{"w":{"a":1},"w":null,"w":{"b":3}}`, ""},
		{`{"w":{"b":2},"w":null,"w":{"b":3}}`, "w.a"},
		{`{"w":{"A":1},"w":{"b":1}}`, ""},
		{`{"w":{"B":1},"w":{"b":1}}`, "w.a"},
		{`{"p":{"x":{"a":1}},"p":{"x":null},"p":{"x":{"b":2}}}`, ""},
	} {
		got := missingIn(refuse.Decide(std, "mg", []byte(tc.args)))
		if want := tc.missing; want == "" && len(got) > 0 || want != "" && (len(got) != 1 || got[0] != want) {
			t.Errorf("%s: missing fields %v, want %q", tc.args, got, want)
		}
	}
}

// TestDecide_MergedObjectsWords: the refusal that remains names the
// field the value read leaves out, at the object the binder reads it in.
func TestDecide_MergedObjectsWords(t *testing.T) {
	reg := mgRegistry(t, bind.Std)
	d := refuse.Decide(reg, "mg", []byte(`{"w":{"b":2},"w":{"b":3}}`))
	if got := missingIn(d); len(got) != 1 || got[0] != "w.a" {
		t.Fatalf("missing fields %v, want [w.a]: %v", got, d.Refusal)
	}
	if !strings.Contains(d.Refusal.Error(), `without the required field "a"`) {
		t.Errorf("the refusal does not name the field: %v", d.Refusal)
	}
	d = refuse.Decide(reg, "mg", []byte(`{"w":{"a":1},"w":{"b":2}}`))
	if d.Refusal != nil {
		t.Fatalf("refused a call the binder reads whole: %v", d.Refusal)
	}
	if d.Warnings == nil || !strings.Contains(d.Warnings.String(), "more than once") {
		t.Errorf("the repeated key is not warned of: %v", d.Warnings)
	}
}

// mgGen writes a call of mgArgs from fuzzed bytes: keys repeated at
// every level, objects for every struct, null only where mgArgs holds a
// pointer, a list or a map (so that mgSeen reads as mgArgs does).
type mgGen struct {
	in  []byte
	out strings.Builder
}

func (g *mgGen) next(n int) int {
	if len(g.in) == 0 {
		return 0
	}
	c := g.in[0]
	g.in = g.in[1:]
	return int(c) % n
}

func (g *mgGen) members(keys []string, value func(key string)) {
	g.out.WriteByte('{')
	for i := range g.next(4) {
		if i > 0 {
			g.out.WriteByte(',')
		}
		k := keys[g.next(len(keys))]
		fmt.Fprintf(&g.out, "%q:", k)
		value(k)
	}
	g.out.WriteByte('}')
}

func (g *mgGen) list(least int, elem func()) {
	g.out.WriteByte('[')
	for i := range least + g.next(4) {
		if i > 0 {
			g.out.WriteByte(',')
		}
		elem()
	}
	g.out.WriteByte(']')
}

func (g *mgGen) orNull(v func()) {
	if g.next(4) == 0 {
		g.out.WriteString("null")
		return
	}
	v()
}

func (g *mgGen) leaf() {
	g.members([]string{"a", "b"}, func(string) { fmt.Fprint(&g.out, g.next(3)) })
}

func (g *mgGen) nest() {
	g.members([]string{"x", "pl"}, func(k string) {
		if k == "x" {
			g.leaf()
			return
		}
		g.orNull(g.leaf)
	})
}

func (g *mgGen) call() string {
	g.out.WriteByte('{')
	for i := range 1 + g.next(6) {
		if i > 0 {
			g.out.WriteByte(',')
		}
		k := []string{"w", "p", "l", "a", "m", "lp"}[g.next(6)]
		fmt.Fprintf(&g.out, "%q:", k)
		switch k {
		case "w":
			g.leaf()
		case "p":
			g.orNull(g.nest)
		case "l":
			g.orNull(func() { g.list(0, g.leaf) })
		case "a":
			g.list(1, g.leaf) // segmentio fails on [] for an array
		case "m":
			g.orNull(func() { g.members([]string{"k", "j"}, func(string) { g.leaf() }) })
		case "lp":
			g.orNull(func() { g.list(0, func() { g.orNull(g.nest) }) })
		}
	}
	g.out.WriteByte('}')
	return g.out.String()
}

// FuzzDecide_MergedObjects: for calls that send keys again at every
// level, Decide refuses for a missing field exactly when the value the
// binder reads (encoding/json's, segmentio's) leaves a required field of
// an object in it out.
func FuzzDecide_MergedObjects(f *testing.F) {
	f.Add([]byte{5, 0, 2, 0, 1, 0, 2, 1, 1, 1})
	f.Add([]byte{3, 2, 3, 2, 0, 1, 1, 2, 2, 3, 2, 1, 0, 0})
	f.Add([]byte{4, 3, 2, 2, 1, 1, 0, 3, 3, 2, 2, 1, 1, 1, 0})
	f.Add([]byte{5, 1, 3, 3, 2, 0, 1, 3, 1, 1, 3, 0, 3, 1, 1, 1, 3, 2, 1, 1, 1})
	regs := make([]*typereg.Registry, len(mgBinders))
	for i, bb := range mgBinders {
		regs[i] = mgRegistry(f, bb.b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		g := mgGen{in: in}
		args := g.call()
		for i, bb := range mgBinders {
			checkMerged(t, regs[i], bb.b, args)
		}
	})
}

// TestDecide_NestedRepeatWords: a key repeated inside an argument is
// warned of in words true of what the binder keeps. They said "the tool
// reads only the last value", false for a null after a number (the
// number stays) and for objects (they merge).
func TestDecide_NestedRepeatWords(t *testing.T) {
	for _, bb := range mgBinders {
		reg := mgRegistry(t, bb.b)
		for _, args := range []string{
			`{"w":{"a":1,"a":null,"b":1}}`,
			`{"p":{"x":{"a":1},"x":{"b":2}}}`,
			`{"w":{"a":1,"a":2,"b":1}}`,
		} {
			d := refuse.Decide(reg, "mg", []byte(args))
			if d.Refusal != nil || d.Warnings == nil {
				t.Fatalf("%s %s: want a warning alone, got %v / %v", bb.name, args, d.Refusal, d.Warnings)
			}
			if got := d.Warnings.String(); strings.Contains(got, "only the last") || !strings.Contains(got, "the tool reads each value over the one before: send it once.") {
				t.Errorf("%s %s: %s", bb.name, args, got)
			}
		}
	}
}

// mgText is a map key a type reads by UnmarshalText.
type mgText string

func (k *mgText) UnmarshalText(b []byte) error { *k = mgText(b); return nil }

type mgChain struct {
	A    int      `json:"a"`
	B    int      `json:"b"`
	Next *mgChain `json:"next,omitempty"`
}

type mgLong struct {
	A int `json:"a"`
	B int `json:"the_start_of_the_reporting_window_in_utc_seconds"`
}

// mgEdges holds what the first reading of merged objects gave up on.
type mgEdges struct {
	L    []mgLeaf            `json:"l,omitempty"`
	A    [64]mgLeaf          `json:"a,omitempty"`
	T    map[mgText]mgLeaf   `json:"t,omitempty"`
	IM   mgIntMap            `json:"im,omitempty"`
	Long mgLong              `json:"long,omitempty"`
	C    *mgChain            `json:"c,omitempty"`
	K    map[string]*mgChain `json:"k,omitempty"`
}

type mgIntMap struct {
	M map[int]mgLeaf `json:"m,omitempty"`
	X mgLeaf         `json:"x"`
}

// TestDecide_MergedObjectsAtTheEdges: objects a repeated key merges are
// judged by the value the binder reads past MaxIssues, past any depth,
// through maps of every key type, for long field names and for a fixed
// array sent again and again. A review and a hunt found each refused (a
// good call) or let through (a field left out): the places were bounded
// (a chain of 130 levels, an array sent 520 times was refused), a map
// with integer keys under segmentio or keys its type reads by
// UnmarshalText stopped the reading, a cut name matched no field, and
// MaxIssues' listed issues were dropped while the one that stands was
// only counted.
func TestDecide_MergedObjectsAtTheEdges(t *testing.T) {
	chain := func(n int, field string) string {
		return strings.Repeat(`{"`+field+`":1,"next":`, n) + `{"a":1,"b":1}` + strings.Repeat("}", n)
	}
	leaves := func(n int, leaf string) string { return strings.TrimSuffix(strings.Repeat(leaf+",", n), ",") }
	const segmentio = "segmentio"
	cases := []struct {
		args    string
		refused any // a bool, or the binder that refuses
	}{
		{`{"l":[` + leaves(bind.MaxIssues, `{"a":1}`) + `],"l":[` + leaves(bind.MaxIssues, `{"b":1}`) + `,{"a":1}]}`, true},
		{`{"l":[` + leaves(bind.MaxIssues, `{"a":1}`) + `],"l":[` + leaves(bind.MaxIssues, `{"b":1}`) + `]}`, false},
		{`{"c":` + chain(200, "a") + `,"c":` + chain(200, "b") + `}`, false},
		{`{"c":` + chain(200, "a") + `,"c":` + chain(199, "b") + `}`, false},
		{`{"c":` + chain(200, "a") + `,"c":` + chain(199, "a") + `}`, true},
		{`{"k":{"x":` + chain(200, "a") + `},"k":{"x":` + chain(200, "b") + `}}`, true}, // a map's element is new
		// encoding/json zeroes a fixed array's elements past those sent,
		// segmentio keeps them.
		{`{"a":[` + leaves(64, `{"a":1}`) + `]` + strings.Repeat(`,"a":[{"b":1}]`, 600) + `}`, segmentio},
		{`{"a":[` + leaves(64, `{"a":1}`) + `]` + strings.Repeat(`,"a":[{"b":1},{"b":1}]`, 600) + `}`, segmentio},
		{`{"a":[{"a":1}]` + strings.Repeat(`,"a":[{"a":1},{"b":1}]`, 600) + `}`, true},
		{`{"t":{"k":{"a":1},"k":{"a":1,"b":1}}}`, false},
		{`{"t":{"k":{"a":1}},"t":{"k":{"a":1,"b":1}}}`, false},
		{`{"t":{"k":{"a":1,"b":1}},"t":{"k":{"a":1}}}`, true},
		{`{"im":{"m":{"1":{"a":1,"b":1}},"x":{"a":1}},"im":{"x":{"b":1}}}`, false},
		{`{"long":{"a":1},"long":{"the_start_of_the_reporting_window_in_utc_seconds":2}}`, false},
		{`{"long":{"a":1},"long":{"a":2}}`, true},
	}
	for _, bb := range mgBinders {
		reg := typereg.New(typereg.WithBinder(bb.b))
		if err := typereg.Register[mgEdges](reg, "mg"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range cases {
			if err := bb.b.Unmarshal([]byte(tc.args), new(mgEdges)); err != nil {
				t.Fatalf("%s: the binder fails on %.80s: %v", bb.name, tc.args, err)
			}
			want := tc.refused == true || tc.refused == bb.name
			got := missingIn(refuse.Decide(reg, "mg", []byte(tc.args)))
			if (len(got) > 0) != want {
				t.Errorf("%s %.100s…: missing %v, want refused %v", bb.name, tc.args, got, want)
			}
		}
	}
}

type mwWide struct {
	F00, F01, F02, F03, F04, F05, F06, F07, F08, F09 int
	F10, F11, F12, F13, F14, F15, F16, F17, F18, F19 int
	F20, F21, F22, F23, F24, F25, F26, F27, F28, F29 int
	F30, F31, F32, F33, F34, F35, F36, F37, F38, F39 int
	F40, F41, F42, F43, F44, F45, F46, F47, F48, F49 int
	F50, F51, F52, F53, F54, F55, F56, F57, F58, F59 int
}

type mwNode struct {
	A  int            `json:"a"`
	B  int            `json:"b"`
	N  *mwNode        `json:"n,omitempty"`
	MI map[int]mgLeaf `json:"mi,omitempty"`
}

type mwArgs struct {
	F []mwWide `json:"f,omitempty"`
	R mwNode   `json:"r,omitempty"`
}

// TestDecide_MergedMissingPlacedAsSent: past MaxIssues (the argument
// placed whole), the missing field that stands is named by the keys as
// sent, as it is below MaxIssues. It was named by the field's name and an
// integer key's value ("/r/n/b" where the call sent "N", "/r/mi/7/b" where
// it sent "07"), places not in the call (found by a review).
func TestDecide_MergedMissingPlacedAsSent(t *testing.T) {
	filler := `"f":[` + strings.TrimSuffix(strings.Repeat(`{},`, 17), ",") + `]` // 1,020 missing fields
	reg := typereg.New(typereg.WithBinder(bind.Std))
	if err := typereg.Register[mwArgs](reg, "t"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ second, ptr string }{
		{`{"b":1,"N":{"a":1}}`, "/r/N/b"},
		{`{"b":1,"mi":{"07":{"a":1}}}`, "/r/mi/07/b"},
	} {
		for _, args := range []string{`{"r":{"a":1},"r":` + tc.second + `}`, `{` + filler + `,"r":{"a":1},"r":` + tc.second + `}`} {
			var got []string
			for _, p := range problemsOf(refuse.Decide(reg, "t", []byte(args))) {
				if p.Argument == "r" && p.Code == refuse.MissingField {
					got = append(got, p.Pointer)
				}
			}
			if len(got) != 1 || got[0] != tc.ptr {
				t.Errorf("%.40s…: missing_field pointers %q, want [%s]", args, got, tc.ptr)
			}
		}
	}
}

// mgFold is a map key its UnmarshalText reads in lower case: "K" and "k"
// are one key.
type mgFold string

func (k *mgFold) UnmarshalText(b []byte) error {
	*k = mgFold(strings.ToLower(string(b)))
	return nil
}

// TestDecide_MergedMapKeysReadAlike: two texts a map's key type reads
// alike are one element, the one read last: a good call was refused for
// a field the element read holds (a review found {"t":{"K":{"a":1}},
// "t":{"k":{"a":1,"b":1}}} refused for t.K.b).
func TestDecide_MergedMapKeysReadAlike(t *testing.T) {
	type args struct {
		T map[mgFold]mgLeaf `json:"t,omitempty"`
	}
	for _, bb := range mgBinders {
		reg := typereg.New(typereg.WithBinder(bb.b))
		if err := typereg.Register[args](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			args    string
			refused bool
		}{
			{`{"t":{"K":{"a":1}},"t":{"k":{"a":1,"b":1}}}`, false},
			{`{"t":{"K":{"a":1},"k":{"a":1,"b":1}}}`, false},
			{`{"t":{"k":{"a":1,"b":1}},"t":{"K":{"a":1}}}`, true},
		} {
			if got := missingIn(refuse.Decide(reg, "t", []byte(tc.args))); (len(got) > 0) != tc.refused {
				t.Errorf("%s %s: missing %v, want refused %v", bb.name, tc.args, got, tc.refused)
			}
		}
	}
}

// TestDecide_MergedObjectsWideValues: objects a repeated key merges are
// judged by the value the binder reads where the places below one value
// are many (a map of a score of keys sent again in another order,
// escaped or not, some twice in one object; lists longer or shorter than
// the one before; a list of hundreds of objects, past MaxIssues), which
// the reading finds by a table rather than by a look at the few below
// it, and where a value is read again in another order than first. The
// later values mostly fill what the earlier leave out.
func TestDecide_MergedObjectsWideValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	leaves := []string{`{}`, `{"a":1}`, `{"b":1}`, `{"a":1,"b":1}`} // by the fields held, a bit each
	// fill is what a later object sends: mostly what an earlier one left out.
	fill := func(held int) int {
		if rng.IntN(8) == 0 {
			return rng.IntN(4)
		}
		return 3&^held | rng.IntN(4)&held
	}
	key := func(i int) string {
		if rng.IntN(4) == 0 {
			return `"\u006b` + strconv.Itoa(i) + `":` // "k" escaped: the same key
		}
		return `"k` + strconv.Itoa(i) + `":`
	}
	list := func(n int, elem func(i int) string) string {
		var b strings.Builder
		b.WriteByte('[')
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(elem(i))
		}
		b.WriteByte(']')
		return b.String()
	}
	regs := make([]*typereg.Registry, len(mgBinders))
	for i, bb := range mgBinders {
		regs[i] = mgRegistry(t, bb.b)
	}
	for range 400 {
		var members []string
		for range 1 + rng.IntN(3) {
			switch rng.IntN(4) {
			case 0: // a map sent twice: each key's element is new, the last object's
				keys := rng.Perm(20)[:rng.IntN(20)]
				for range 2 {
					var b strings.Builder
					for i, k := range keys {
						if i > 0 {
							b.WriteByte(',')
						}
						if rng.IntN(10) == 0 {
							b.WriteString(key(k) + leaves[rng.IntN(4)] + ",") // the key twice in one object
						}
						b.WriteString(key(k) + leaves[fill(0)])
					}
					members = append(members, `"m":{`+b.String()+`}`)
					rng.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
				}
			case 1, 2: // a list sent twice, or a list of nested objects, the second as long or not
				n := rng.IntN(20)
				if rng.IntN(3) == 0 {
					n = 500 + rng.IntN(200) // past MaxIssues: every object placed
				}
				held := make([]int, n+1)
				for i := range held {
					held[i] = rng.IntN(3)
				}
				second := n + rng.IntN(3) - 1
				if second < 0 || rng.IntN(2) == 0 {
					second = n
				}
				if rng.IntN(2) == 0 {
					members = append(members, `"l":`+list(n, func(i int) string { return leaves[held[i]] }),
						`"l":`+list(second, func(i int) string { return leaves[fill(held[i])] }))
					continue
				}
				nest := func(h func(int) int) func(i int) string {
					return func(i int) string { return `{"x":` + leaves[h(held[i])] + `,"pl":` + leaves[h(held[i])] + `}` }
				}
				members = append(members, `"lp":`+list(n, nest(func(h int) int { return h })),
					`"lp":`+list(second, nest(fill)))
			case 3: // a struct's key sent again and again
				held := rng.IntN(4)
				for range 1 + rng.IntN(4) {
					members = append(members, `"w":`+leaves[held])
					held = fill(held)
				}
			}
		}
		args := `{` + strings.Join(members, ",") + `}`
		for i, bb := range mgBinders {
			checkMerged(t, regs[i], bb.b, args)
		}
	}
}
