package refuse_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/constraint"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// One verdict: Decide reads the call once, in the plan's Check, and every
// later step (the compiled constraints, aliases, the words) reads the
// members that pass recorded, never the bytes again.

type onePassArgs struct {
	Any   any    `json:"any,omitempty"`
	Limit int    `json:"limit" validate:"min=1,max=10"`
	Name  string `json:"name,omitempty" validate:"omitempty,max=8"`
	Hours int    `json:"hours,omitempty" bindguard:"alias=hrs"`
}

// TestDecide_TaggedCleanCallIsOnePass: a clean call of a tool with
// validate tags allocates nothing under Std, even when a value nested
// past the lexer's stack (1024 levels, where reading it again would
// allocate) lies before the constrained arguments: the constraints are
// checked at the members Check recorded, and the top level is not read
// again.
func TestDecide_TaggedCleanCallIsOnePass(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[onePassArgs](reg, "t"); err != nil {
		t.Fatal(err)
	}
	deep := strings.Repeat("[", 2000) + "1" + strings.Repeat("]", 2000)
	for _, args := range []string{
		`{"limit":5,"name":"ab"}`,
		`{"any":` + deep + `,"limit":5,"name":"ab"}`,
		`{"any":` + deep + `,"limit":5,"hours":3}`,
	} {
		raw := json.RawMessage(args)
		if d := refuse.Decide(reg, "t", raw); d.Refusal != nil || d.Warnings != nil {
			t.Fatalf("%.40s: %+v", args, d)
		}
		if n := testing.AllocsPerRun(20, func() { refuse.Decide(reg, "t", raw) }); n != 0 {
			t.Errorf("%.40s…: Decide allocated %v times on a clean call, want 0", args, n)
		}
	}
}

// TestDecide_TaggedCleanCall_EveryBinder: under V2 and SegmentIO too, a
// clean call of a tool with validate tags is one pass with no allocation:
// the binder's proving pass reads it, records the members, and holds each
// value to its compiled constraints as it reads it (no trial decode, no
// second read; see also TestDecide_TaggedValuesReadOnce).
func TestDecide_TaggedCleanCall_EveryBinder(t *testing.T) {
	deep := strings.Repeat("[", 500) + "1" + strings.Repeat("]", 500)
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[onePassArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, args := range []string{
			`{"limit":5,"name":"ab"}`,
			`{"any":` + deep + `,"limit":5,"name":"ab","hours":3}`,
		} {
			raw := json.RawMessage(args)
			if d := refuse.Decide(reg, "t", raw); d.Refusal != nil || d.Warnings != nil {
				t.Fatalf("%s %.40s: %+v", b.Name(), args, d)
			}
			if n := testing.AllocsPerRun(20, func() { refuse.Decide(reg, "t", raw) }); n != 0 {
				t.Errorf("%s %.40s…: Decide allocated %v times on a clean call, want 0", b.Name(), args, n)
			}
		}
	}
}

// TestDecide_AliasAndDeepValue_RenamedOnce: a call that uses an alias, on
// every binder, is renamed once and its verdict is the renamed text's,
// with a deep value before it (as deep as segmentio reads).
func TestDecide_AliasAndDeepValue_RenamedOnce(t *testing.T) {
	deep := strings.Repeat("[", 500) + "1" + strings.Repeat("]", 500)
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[onePassArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		args := `{"any":` + deep + `,"hrs":3,"limit":5}`
		d := refuse.Decide(reg, "t", json.RawMessage(args))
		want := `{"any":` + deep + `,"hours":3,"limit":5}`
		if d.Refusal != nil || d.Warnings != nil || string(d.Args) != want {
			t.Errorf("%s: %+v, args %.60s…", b.Name(), d.Refusal, d.Args)
		}
		d = refuse.Decide(reg, "t", json.RawMessage(`{"hrs":3,"limit":50,"hours":4}`))
		if d.Refusal == nil || len(d.Refusal.Problems) != 2 {
			t.Fatalf("%s: %+v", b.Name(), d)
		}
		if p := d.Refusal.Problems; p[0].Code != refuse.AliasConflict || p[0].Becomes != "4" || p[1].Code != refuse.Constraint || p[1].Argument != "limit" {
			t.Errorf("%s: %+v", b.Name(), p)
		}
	}
}

// TestDecide_PastTheMembersRecorded: Check records the first 1,024
// members; an alias, a constraint, a folded key beside its name and a
// failure past them are judged as in a short call, on every binder, by an
// open tool (whose unknown keys pass).
func TestDecide_PastTheMembersRecorded(t *testing.T) {
	var pad strings.Builder
	for i := range 2000 {
		pad.WriteString(`"u` + strconv.Itoa(i) + `":1,`)
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[onePassArgs](reg, "t", typereg.WithOpen()); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ tail, want string }{
			{`"hrs":3,"limit":5`, ""},
			{`"hrs":3,"limit":50`, "constraint"},
			{`"hrs":3,"hours":4,"limit":5`, "alias_conflict"},
			{`"limit":"x"`, "wrong_type"},
		} {
			short := refuse.Decide(reg, "t", json.RawMessage(`{`+tc.tail+`}`))
			long := refuse.Decide(reg, "t", json.RawMessage(`{`+pad.String()+tc.tail+`}`))
			if codes(short) != tc.want || codes(long) != tc.want {
				t.Errorf("%s %s: %q short, %q past the members recorded; want %q", b.Name(), tc.tail, codes(short), codes(long), tc.want)
			}
			if tc.want == "" && !strings.HasSuffix(string(long.Args), `"hours":3,"limit":5}`) {
				t.Errorf("%s %s: args …%s", b.Name(), tc.tail, long.Args[len(long.Args)-40:])
			}
		}
	}
}

func codes(d refuse.Decision) string {
	var cs []string
	for _, p := range problemsOf(d) {
		cs = append(cs, string(p.Code))
	}
	return strings.Join(cs, ",")
}

// TestDecide_TooDeep_TheOtherArgumentsAreChecked: a value nested past the
// binder's limit stops Check there, but the text is JSON: the arguments
// before and after it are held to their constraints all the same, as when
// the binder fails on a value, on every binder.
func TestDecide_TooDeep_TheOtherArgumentsAreChecked(t *testing.T) {
	deep := strings.Repeat("[", 10001) + strings.Repeat("]", 10001)
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[onePassArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, args := range []string{`{"limit":50,"any":` + deep + `}`, `{"any":` + deep + `,"limit":50}`} {
			if got := codes(refuse.Decide(reg, "t", json.RawMessage(args))); got != "too_deep,constraint" {
				t.Errorf("%s %.20s…: %s, want too_deep,constraint", b.Name(), args, got)
			}
		}
	}
}

type readOnceItem struct {
	Name string `json:"name" validate:"min=1,max=16"`
	Qty  int    `json:"qty" validate:"gte=1,lte=9"`
}

type readOnceArgs struct {
	Tags   []string       `json:"tags" validate:"max=1000,dive,min=1,max=32"`
	Counts map[string]int `json:"counts,omitempty" validate:"omitempty,dive,gte=0"`
	Items  []readOnceItem `json:"items,omitempty" validate:"dive"`
	Mode   string         `json:"mode" validate:"oneof=fast slow"`
	Ratio  float64        `json:"ratio" validate:"gte=0,lte=1"`
}

// readOnceCall is a clean call of readOnceArgs whose lists hold n
// elements each (its map three: a map's keys past the checker's stack
// are tracked on the heap, tags or not).
func readOnceCall(n int) string {
	var tags, counts, items []string
	for i := range n {
		tags = append(tags, `"tag`+strconv.Itoa(i%100)+`"`)
		if i < 3 {
			counts = append(counts, `"k`+strconv.Itoa(i)+`":`+strconv.Itoa(i))
		}
		items = append(items, `{"name":"item`+strconv.Itoa(i%100)+`","qty":`+strconv.Itoa(1+i%9)+`}`)
	}
	return `{"tags":[` + strings.Join(tags, ",") + `],"counts":{` + strings.Join(counts, ",") + `},"items":[` +
		strings.Join(items, ",") + `],"mode":"fast","ratio":0.5}`
}

// TestDecide_TaggedValuesReadOnce: a clean call of a tool with validate
// tags on lists, a map and a list of nested structs is one pass on every
// binder: the checker holds each value to its tags as it reads it, so
// the compiled checks read no value again (constraint.Read stays 0) at
// 1x, 10x and 100x the lists' length, and the call allocates nothing. A
// call whose last element breaks its tags is refused with the path the
// walk found, still without a second read.
func TestDecide_TaggedValuesReadOnce(t *testing.T) {
	read := new(atomic.Int64)
	constraint.Read = read
	defer func() { constraint.Read = nil }()
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[readOnceArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{5, 50, 500} {
			raw := json.RawMessage(readOnceCall(n))
			read.Store(0)
			if d := refuse.Decide(reg, "t", raw); d.Refusal != nil || d.Warnings != nil {
				t.Fatalf("%s n=%d: %+v", b.Name(), n, d)
			}
			if r := read.Load(); r != 0 {
				t.Errorf("%s n=%d: the compiled checks read %d bytes of the %d-byte call again, want 0", b.Name(), n, r, len(raw))
			}
			if a := testing.AllocsPerRun(10, func() { refuse.Decide(reg, "t", raw) }); a != 0 {
				t.Errorf("%s n=%d: Decide allocated %v times on a clean call, want 0", b.Name(), n, a)
			}
			bad := json.RawMessage(strings.Replace(string(raw), `"qty":`+strconv.Itoa(1+(n-1)%9)+`}]`, `"qty":10}]`, 1))
			read.Store(0)
			d := refuse.Decide(reg, "t", bad)
			if d.Refusal == nil || len(d.Refusal.Problems) != 1 {
				t.Fatalf("%s n=%d: %+v", b.Name(), n, d)
			}
			want := "/items/" + strconv.Itoa(n-1) + "/qty"
			if p := d.Refusal.Problems[0]; p.Code != refuse.Constraint || p.Pointer != want || p.Element != "10" {
				t.Errorf("%s n=%d: %+v, want a constraint at %s", b.Name(), n, p, want)
			}
			if r := read.Load(); r != 0 {
				t.Errorf("%s n=%d: the refused call's values were read again (%d bytes)", b.Name(), n, r)
			}
		}
	}
}

type pastWalkArgs struct {
	Deep [][][][][][][][][]int `json:"deep" validate:"dive,dive,dive,dive,dive,dive,dive,dive,dive,min=1"`
}

// TestDecide_TaggedPastTheWalksDepth: lists nested deeper than the walk
// holds constraints in (nine, past its eight) are judged by the validator
// on the decoded value, on every binder: a clean call passes, and one
// whose innermost element breaks its tag is refused at that element.
func TestDecide_TaggedPastTheWalksDepth(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[pastWalkArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		if d := refuse.Decide(reg, "t", json.RawMessage(`{"deep":[[[[[[[[[1,2]]]]]]]]]}`)); d.Refusal != nil {
			t.Errorf("%s: clean call refused: %+v", b.Name(), d.Refusal)
		}
		d := refuse.Decide(reg, "t", json.RawMessage(`{"deep":[[[[[[[[[1,0]]]]]]]]]}`))
		if d.Refusal == nil || len(d.Refusal.Problems) != 1 {
			t.Fatalf("%s: %+v", b.Name(), d)
		}
		if p := d.Refusal.Problems[0]; p.Code != refuse.Constraint || p.Element != "0" || p.Pointer != "/deep/0/0/0/0/0/0/0/0/1" {
			t.Errorf("%s: %+v", b.Name(), p)
		}
	}
}
