package refuse_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// The cost of a refused call's problems: a refusal lists at most
// MaxProblems of them and counts the rest in More, so the problems past
// what it lists must cost nothing, and each listed one a few allocations.
// No clock is read.

type refuseCostArgs struct {
	Counts   map[string]int `json:"counts,omitempty"`
	Name     string         `json:"name,omitempty"`
	Limit    int            `json:"limit,omitempty"`
	K00001   int            `json:"k00001x,omitempty"`
	LongName string         `json:"a_rather_long_parameter_name_for_the_closest_name_search,omitempty"`
}

// unknownKeys returns a call of n top-level keys no parameter takes
// ("k00000":0, ...), the first few a small edit from a parameter's name
// (the closest-name search finds it).
func unknownKeys(n int) json.RawMessage { return keysCall(n, 1, "") }

// keysCall returns a call of n distinct unknown keys, each sent rep times
// in turn, each key's text ending with tail.
func keysCall(n, rep int, tail string) json.RawMessage {
	var b strings.Builder
	b.WriteByte('{')
	for r := range rep {
		for i := range n {
			if r > 0 || i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `"k%05d%s":%d`, i, tail, i%1000)
		}
	}
	b.WriteByte('}')
	return json.RawMessage(b.String())
}

// TestRefuse_UnknownKeysCostBoundedByTheCap: 1x, 10x and 100x unknown
// keys (1x at the refusal's cap, or past it) cost Refuse, under
// encoding/json, as many allocations at 10x as at 100x (the keys past what
// the refusal lists are only counted, exactly, in More), and at 1x at
// most two allocations per problem a refusal holds: distinct keys; each
// key sent twice; keys too long for the text to hold a hundred of them.
func TestRefuse_UnknownKeysCostBoundedByTheCap(t *testing.T) {
	reg := typereg.New(typereg.WithBinder(bind.Std))
	if err := typereg.Register[refuseCostArgs](reg, "keys"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[refuseCostArgs](reg, "exempt", typereg.WithExempt("_meta", "trace")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, tool string
		base       int // 1x: at 10x, past what Check lists (bind.MaxIssues)
		args       func(n int) json.RawMessage
	}{
		{"distinct", "keys", refuse.MaxProblems, unknownKeys},
		{"each twice", "keys", refuse.MaxProblems, func(n int) json.RawMessage { return keysCall(n, 2, "") }},
		{"long", "keys", 2 * refuse.MaxProblems, func(n int) json.RawMessage { return keysCall(n, 1, strings.Repeat("x", 100)) }},
		// Each key judged against the tool's exempt keys, escaped ones
		// unquoted.
		{"escaped, exempt keys", "exempt", 2 * refuse.MaxProblems, func(n int) json.RawMessage { return keysCall(n, 1, `\u00e9\n`+strings.Repeat("y", 40)) }},
	} {
		var allocs []float64
		for _, n := range []int{c.base, 10 * c.base, 100 * c.base} {
			args := c.args(n)
			r := refuse.Refuse(reg, c.tool, args)
			if r == nil || len(r.Problems)+r.More != n {
				t.Fatalf("%s: %d unknown keys: refusal %v, want them all listed or counted", c.name, n, r)
			}
			a := testing.AllocsPerRun(5, func() { refuse.Refuse(reg, c.tool, args) })
			t.Logf("%s: %d unknown keys: %d listed, %d more: %v allocations", c.name, n, len(r.Problems), r.More, a)
			allocs = append(allocs, a)
		}
		if allocs[2] != allocs[1] {
			t.Errorf("%s: 10x the cap: %v allocations, 100x: %v: the keys past the cap cost", c.name, allocs[1], allocs[2])
		}
		if limit := float64(2 * refuse.MaxProblems); allocs[0] > limit {
			t.Errorf("%s: %d unknown keys: %v allocations, want at most %v", c.name, c.base, allocs[0], limit)
		}
	}
}

// TestRefuse_EscapedExemptKeysPass: an exempt key sent escaped is exempt,
// among the keys Check lists and past them (where they are only counted),
// and an escaped key longer than any exempt key is judged without being
// unquoted.
func TestRefuse_EscapedExemptKeysPass(t *testing.T) {
	reg := typereg.New(typereg.WithBinder(bind.Std))
	if err := typereg.Register[refuseCostArgs](reg, "exempt", typereg.WithExempt("_meta", "trace")); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(`{"\u005fmeta":1,"trac\u0065":2,"x":1,"` + strings.Repeat(`\u0061`, 100) + `":1`)
	for i := range 3000 {
		fmt.Fprintf(&b, `,"\u005fmeta":%d,"k%d":1`, i, i)
	}
	b.WriteString(`}`)
	r := refuse.Refuse(reg, "exempt", json.RawMessage(b.String()))
	if r == nil {
		t.Fatal("not refused")
	}
	if got, want := len(r.Problems)+r.More, 2+3000; got != want {
		t.Errorf("%d problems listed or counted, want %d (x, the long key, k0…k2999)", got, want)
	}
	for _, p := range r.Problems {
		if p.Argument == "_meta" || p.Argument == "trace" || strings.Contains(p.Argument, `\u005f`) {
			t.Errorf("exempt key listed: %+v", p)
		}
	}
}

// oneProblemArgs is the typical tool of bench/: eight parameters, one of
// them a struct.
type oneProblemArgs struct {
	Count  int32    `json:"count"`
	Limit  int      `json:"limit"`
	Query  string   `json:"query"`
	Tags   []string `json:"tags"`
	Score  float64  `json:"score"`
	Exact  bool     `json:"exact"`
	Cursor *string  `json:"cursor"`
	Window struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"window"`
}

// typical is bench's typical call (215 bytes), every field set.
const typical = `{"count":12,"limit":50,"query":"quarterly revenue by region and product line",` +
	`"tags":["finance","emea","2024"],"score":0.75,"exact":false,"cursor":"c2VjdGlvbi0xMg==",` +
	`"window":{"from":"2024-01-01","to":"2024-03-31"}}`

// TestRefuse_OneProblemCostsFewAllocations: the typical call refused for
// one problem, through every binder, allocates at most what its refusal
// holds: for a value of the wrong kind, the refusal with its problem, the
// accepted names, the problem's quote of the value, and the pass's list of
// one issue (its pointer is the tool's own: the argument is sent under its
// name); for an unknown key, the refusal, the names
// and the problem's text, and the pass's list. The closest name is found
// among names normalized once per tool, the keys met told apart in place,
// and the arguments with a problem in a word.
func TestRefuse_OneProblemCostsFewAllocations(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder, jsonv2.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[oneProblemArgs](reg, "typical"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name, args string
			code       refuse.Code
			most       float64
		}{
			{"wrong value", strings.Replace(typical, `"count":12`, `"count":"12"`, 1), refuse.WrongType, 2},
			{"unknown key", strings.Replace(typical, `"count":12`, `"count":12,"verbose":true`, 1), refuse.UnknownArgument, 2},
		} {
			args := json.RawMessage(c.args)
			r := refuse.Refuse(reg, "typical", args)
			if r == nil || len(r.Problems) != 1 || r.Problems[0].Code != c.code {
				t.Fatalf("%s, %s: refusal %v, want one %s problem", b.Name(), c.name, r, c.code)
			}
			if n := testing.AllocsPerRun(200, func() { refuse.Refuse(reg, "typical", args) }); n > c.most {
				t.Errorf("%s, %s: %v allocations, want at most %v", b.Name(), c.name, n, c.most)
			}
		}
	}
}

// lossElsewhereArgs has validate tags on one parameter and none on the
// lists beside it.
type lossElsewhereArgs struct {
	Limit  int       `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	Notes  []string  `json:"notes,omitempty"`
	Scores []float32 `json:"scores,omitempty"`
}

// TestDecide_LossWithoutTagsDecodesNothing: a call whose silent losses lie
// only in a parameter without tags (texts of invalid UTF-8, replaced by
// encoding/json and segmentio, where V2 fails on them; numbers a float32
// rounds) is held to the other parameters' compiled tags from its text,
// under Warn, where it goes on: 3,000 and 30,000 such values cost as many
// allocations (the issues past MaxIssues are counted). The whole
// call was decoded and run through the validator (61,057 allocations at
// 30,000, 7,046 at 3,000), as for a loss in a tagged parameter, whose
// value the binder changes.
func TestDecide_LossWithoutTagsDecodesNothing(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder, jsonv2.Binder} {
		reg := typereg.New(typereg.WithBinder(b), typereg.WithMode(typereg.Warn))
		if err := typereg.Register[lossElsewhereArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, list := range []string{"notes", "scores"} {
			if list == "notes" && b == jsonv2.Binder {
				continue
			}
			el, last := "\"\xff\",", `"x"`
			if list == "scores" {
				el, last = "0.123456789123,", "1"
			}
			var allocs []float64
			for _, n := range []int{3000, 30000} {
				args := json.RawMessage(`{"limit":101,"` + list + `":[` + strings.Repeat(el, n) + last + `]}`)
				d := refuse.Decide(reg, "t", args)
				if d.Refusal != nil || d.Warnings == nil || !slices.ContainsFunc(d.Warnings.Problems, func(p refuse.Problem) bool { return p.Argument == "limit" }) {
					t.Fatalf("%s, %s: %.300v, want the call on, warned of limit", b.Name(), list, d)
				}
				allocs = append(allocs, testing.AllocsPerRun(3, func() { refuse.Decide(reg, "t", args) }))
			}
			if allocs[1] > allocs[0]+40 {
				t.Errorf("%s, %s: %v allocations at 3,000 and 30,000 lossy values, want about as many", b.Name(), list, allocs)
			}
		}
	}
}

// breachesArgs holds its list's elements to a range.
type breachesArgs struct {
	Q []int `json:"q,omitempty" validate:"dive,min=0,max=10"`
}

// TestRefuse_ManyBreachesCostAsOne: a list of 100, 1,000 and 10,000
// elements out of their range is refused for its first, at the same cost:
// the walk builds the path of a list's first breach only. It built one for
// each (115 and 1,015 allocations at 100 and 1,000; 16 now).
func TestRefuse_ManyBreachesCostAsOne(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder, jsonv2.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[breachesArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		var allocs []float64
		for _, n := range []int{100, 1000, 10000} {
			args := json.RawMessage(`{"q":[` + strings.Repeat("11,", n) + `1]}`)
			r := refuse.Refuse(reg, "t", args)
			if r == nil || len(r.Problems) != 1 || r.Problems[0].Pointer != "/q/0" {
				t.Fatalf("%s: %v, want q refused at /q/0", b.Name(), r)
			}
			allocs = append(allocs, testing.AllocsPerRun(3, func() { refuse.Refuse(reg, "t", args) }))
		}
		if allocs[2] > allocs[0]+8 {
			t.Errorf("%s: %v allocations at 100, 1,000 and 10,000 breaches, want as many", b.Name(), allocs)
		}
	}
}

// TestRefusal_AcceptedIsTheRefusalsOwn: the accepted names a refusal
// carries are its own list, written in its room for a tool of a few
// parameters: a caller that changes or appends to one refusal's list
// changes no other's, nor the record's; a tool of no parameter lists
// none, as [] in JSON.
func TestRefusal_AcceptedIsTheRefusalsOwn(t *testing.T) {
	type none struct{}
	reg := typereg.New()
	if err := typereg.Register[oneProblemArgs](reg, "typical"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[none](reg, "none"); err != nil {
		t.Fatal(err)
	}
	call := json.RawMessage(`{"count":"12"}`)
	r1 := refuse.Refuse(reg, "typical", call)
	if r1 == nil || len(r1.Accepted) == 0 {
		t.Fatalf("refusal %v, want one listing the accepted names", r1)
	}
	want := slices.Clone(r1.Accepted)
	r1.Accepted[0] = "changed"
	_ = append(r1.Accepted, "appended")
	r2 := refuse.Refuse(reg, "typical", call)
	if !slices.Equal(r2.Accepted, want) {
		t.Errorf("the next refusal lists %q, want %q", r2.Accepted, want)
	}
	tool, _ := reg.Tool("typical")
	if got := tool.Accepted(); !slices.Equal(got, want) {
		t.Errorf("the record lists %q, want %q", got, want)
	}
	r := refuse.Refuse(reg, "none", json.RawMessage(`{"x":1}`))
	out, err := json.Marshal(r)
	if err != nil || !strings.Contains(string(out), `"accepted":[]`) {
		t.Errorf("a tool of no parameter's refusal: %s (%v), want \"accepted\":[]", out, err)
	}
}

// oneBreachArgs is oneProblemArgs with validate tags, the window's fields
// too.
type oneBreachArgs struct {
	Count  int32    `json:"count" validate:"min=1,max=100"`
	Limit  int      `json:"limit" validate:"gte=1,lte=1000"`
	Query  string   `json:"query" validate:"required,max=200"`
	Tags   []string `json:"tags" validate:"max=10,dive,min=1,max=32"`
	Score  float64  `json:"score" validate:"gte=0,lte=1"`
	Exact  bool     `json:"exact"`
	Cursor *string  `json:"cursor" validate:"omitempty,min=4"`
	Window struct {
		From string `json:"from" validate:"len=10"`
		To   string `json:"to" validate:"len=10"`
	} `json:"window"`
}

// TestRefuse_OneBreachCostsFewAllocations: the typical call refused for
// one value out of its tags' range allocates a few times, on every
// binder: the refusal's room, the problem's quote and the walk's record of
// the breach; a breach inside an argument, its readable path and element
// too. The compiled problems were found twice (the call's verdict, then
// its words; 10 allocations for the top-level breach, 17 for the nested
// one), and a readable path allocated at each of its steps.
func TestRefuse_OneBreachCostsFewAllocations(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder, jsonv2.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[oneBreachArgs](reg, "typical"); err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			name, args, path string
			most             float64
		}{
			{"top level", strings.Replace(typical, `"count":12`, `"count":500`, 1), "", 5},
			{"nested", strings.Replace(typical, `"from":"2024-01-01"`, `"from":"2024-1-1"`, 1), ".from", 8},
		} {
			args := json.RawMessage(c.args)
			r := refuse.Refuse(reg, "typical", args)
			if r == nil || len(r.Problems) != 1 || r.Problems[0].Code != refuse.Constraint || r.Problems[0].Path != c.path {
				t.Fatalf("%s, %s: refusal %v, want one constraint problem at %q", b.Name(), c.name, r, c.path)
			}
			if n := testing.AllocsPerRun(200, func() { refuse.Refuse(reg, "typical", args) }); n > c.most {
				t.Errorf("%s, %s: %v allocations, want at most %v", b.Name(), c.name, n, c.most)
			}
		}
	}
}
