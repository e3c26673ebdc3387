package refuse_test

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// stats is a tool with its own constraints.
type stats struct {
	HoursBack int            `json:"hours_back" validate:"min=1,max=168"`
	Limit     int32          `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	Name      string         `json:"name,omitempty" validate:"omitempty,max=8"`
	Color     string         `json:"color,omitempty" validate:"omitempty,oneof=crimson teal amber"`
	IDs       []int          `json:"ids,omitempty" validate:"omitempty,min=1,max=3,dive,min=1"`
	Weights   map[string]int `json:"weights,omitempty" validate:"dive,gte=0,lte=10"`
	Ratio     *float64       `json:"ratio,omitempty" validate:"omitempty,gt=0,lt=1"`
	Code      string         `json:"code,omitempty" validate:"omitempty,required"`
	Grid      [][]int        `json:"grid,omitempty" validate:"dive,max=2,dive,ne=0"`
	ByID      map[int]string `json:"by_id,omitempty" validate:"dive,min=1"`
	Free      int            `json:"free,omitempty"`
}

func constrainedRegistry(t *testing.T, opts ...typereg.Option) *typereg.Registry {
	t.Helper()
	reg := typereg.New()
	if err := typereg.Register[stats](reg, "stats", opts...); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestConstraint_Refusals: the refusal of each constraint, its words, code
// and path. Every row but the passing ones and the binder's own refusal
// passed unrefused before constraintProblems (its stub returned nothing).
func TestConstraint_Refusals(t *testing.T) {
	reg := constrainedRegistry(t)
	for _, tc := range []struct {
		name, args string
		want       []refuse.Problem // nil: the call goes on
		text       string           // a line the refusal says, when not empty
	}{
		{name: "within every constraint", args: `{"hours_back":168,"limit":100,"name":"éééééééé","color":"teal","ids":[1,2,3],"weights":{"a":0,"b":10},"ratio":0.5,"grid":[[1,2],[3]]}`},
		{name: "the zero omitempty lets past", args: `{"hours_back":1,"limit":0,"name":"","color":""}`},
		{
			name: "below the minimum", args: `{"hours_back":0}`,
			want: []refuse.Problem{{Argument: "hours_back", Code: refuse.Constraint, Takes: "a whole number from 1 to 168", Sent: "0"}},
			text: "Argument 'hours_back' for tool 'stats' takes a whole number from 1 to 168, and the call sent 0.",
		},
		{
			name: "above the maximum, beside a good argument", args: `{"hours_back":169,"limit":5}`,
			want: []refuse.Problem{{Argument: "hours_back", Code: refuse.Constraint, Takes: "a whole number from 1 to 168", Sent: "169"}},
		},
		{
			name: "omitempty's zero is named", args: `{"hours_back":1,"limit":101}`,
			want: []refuse.Problem{{Argument: "limit", Code: refuse.Constraint, Takes: "a whole number from 1 to 100 (or 0)", Sent: "101"}},
		},
		{
			name: "text counted in characters", args: `{"hours_back":1,"name":"ééééééééé"}`,
			want: []refuse.Problem{{Argument: "name", Code: refuse.Constraint, Takes: "text of at most 8 characters", Sent: `"ééééééééé"`}},
		},
		{
			name: "not one of the values", args: `{"hours_back":1,"color":"red"}`,
			want: []refuse.Problem{{Argument: "color", Code: refuse.Constraint, Takes: "one of crimson, teal, amber (or empty text)", Sent: `"red"`}},
			text: "Argument 'color' for tool 'stats' takes one of crimson, teal, amber (or empty text), and the call sent \"red\".",
		},
		{
			name: "an empty list", args: `{"hours_back":1,"ids":[]}`,
			want: []refuse.Problem{{Argument: "ids", Code: refuse.Constraint, Takes: "a list (a JSON array) of whole numbers of at least 1, with 1 to 3 elements", Sent: "[]"}},
		},
		{
			name: "a bad element, by dive", args: `{"hours_back":1,"ids":[1,0,-4]}`,
			want: []refuse.Problem{{Argument: "ids", Path: "[1]", Code: refuse.Constraint, Takes: "a list (a JSON array) of whole numbers of at least 1, with 1 to 3 elements", Sent: "[1,0,-4]", Element: "0"}},
			text: "Argument 'ids' for tool 'stats' takes a list (a JSON array) of whole numbers of at least 1, with 1 to 3 elements, and the call sent [1,0,-4], with 0 at ids[1].",
		},
		{
			name: "a bad map value, its key quoted", args: `{"hours_back":1,"weights":{"a":1,"b c":11,"d":12}}`,
			want: []refuse.Problem{{Argument: "weights", Path: `["b c"]`, Code: refuse.Constraint, Takes: "an object whose values are whole numbers from 0 to 10", Sent: `{"a":1,"b c":11,"d":12}`, Element: "11"}},
		},
		{
			name: "a repeated map key: the value the binder keeps", args: `{"hours_back":1,"weights":{"a":11,"b":1,"a":2,"c":-1}}`,
			want: []refuse.Problem{{Argument: "weights", Path: ".c", Code: refuse.Constraint, Takes: "an object whose values are whole numbers from 0 to 10", Sent: `{"a":11,"b":1,"a":2,"c":-1}`, Element: "-1"}},
		},
		{
			name: "a map keyed by numbers", args: `{"hours_back":1,"by_id":{"1":"a","2":""}}`,
			want: []refuse.Problem{{Argument: "by_id", Path: ".2", Code: refuse.Constraint, Takes: "an object whose values are texts of at least 1 character, keyed by whole numbers", Sent: `{"1":"a","2":""}`, Element: `""`}},
		},
		{
			name: "dive twice", args: `{"hours_back":1,"grid":[[1],[2,0]]}`,
			want: []refuse.Problem{{Argument: "grid", Path: "[1][1]", Code: refuse.Constraint, Takes: "a list (a JSON array) of lists (JSON arrays) of whole numbers other than 0, with at most 2 elements", Sent: "[[1],[2,0]]", Element: "0"}},
		},
		{
			name: "exclusive bounds on a pointer", args: `{"hours_back":1,"ratio":1}`,
			want: []refuse.Problem{{Argument: "ratio", Code: refuse.Constraint, Takes: "a number greater than 0 and less than 1", Sent: "1"}},
		},
		{
			name: "a pointer's zero is checked: omitempty skips only nil", args: `{"hours_back":1,"ratio":0}`,
			want: []refuse.Problem{{Argument: "ratio", Code: refuse.Constraint, Takes: "a number greater than 0 and less than 1", Sent: "0"}},
		},
		{
			name: "every argument that breaks its constraint, in parameter order", args: `{"color":"red","hours_back":0}`,
			want: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.Constraint, Takes: "a whole number from 1 to 168", Sent: "0"},
				{Argument: "color", Code: refuse.Constraint, Takes: "one of crimson, teal, amber (or empty text)", Sent: `"red"`},
			},
		},
		{
			name: "left out, and its zero breaks the constraint: missing, with the tool's range", args: `{}`,
			want: []refuse.Problem{{Argument: "hours_back", Code: refuse.MissingArgument, Takes: "a whole number from 1 to 168"}},
			text: "Argument 'hours_back' for tool 'stats' is required, and the call did not send it: it takes a whole number from 1 to 168.",
		},
		{
			name: "past the type: too large, with the tool's range, not the type's", args: `{"hours_back":1,"limit":3000000000}`,
			want: []refuse.Problem{{Argument: "limit", Code: refuse.TooLarge, Takes: "a whole number from 1 to 100 (or 0)", Sent: "3000000000"}},
			text: "Argument 'limit' for tool 'stats' takes a whole number from 1 to 100 (or 0), and the call sent 3000000000, which is too large.",
		},
		{
			name: "past the type: too small, with the tool's range", args: `{"hours_back":-99999999999999999999}`,
			want: []refuse.Problem{{Argument: "hours_back", Code: refuse.TooSmall, Takes: "a whole number from 1 to 168", Sent: "-99999999999999999999"}},
			text: "Argument 'hours_back' for tool 'stats' takes a whole number from 1 to 168, and the call sent -99999999999999999999, which is too small.",
		},
		{
			name: "an element past the type, under dive", args: `{"hours_back":1,"ids":[1,99999999999999999999]}`,
			want: []refuse.Problem{{Argument: "ids", Path: "[1]", Code: refuse.TooLarge, Takes: "a list (a JSON array) of whole numbers of at least 1, with 1 to 3 elements", Sent: "[1,99999999999999999999]", Element: "99999999999999999999"}},
		},
		{
			name: "null for a required number: not sending it", args: `{"hours_back":null}`,
			want: []refuse.Problem{{Argument: "hours_back", Code: refuse.MissingArgument, Takes: "a whole number from 1 to 168", Sent: "null"}},
		},
		{
			name: "a key the binder folds is read", args: `{"HOURS_BACK":500}`,
			want: []refuse.Problem{{Argument: "hours_back", Code: refuse.Constraint, Takes: "a whole number from 1 to 168", Sent: "500"}},
		},
		{
			name: "what the binder fails on is refused with the tool's range, beside a breach", args: `{"hours_back":"x","color":"red"}`,
			want: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.WrongType, Takes: "a whole number from 1 to 168", Sent: `"x"`},
				{Argument: "color", Code: refuse.Constraint, Takes: "one of crimson, teal, amber (or empty text)", Sent: `"red"`},
			},
		},
		{
			name: "an unknown argument and a constraint, both", args: `{"hours_back":0,"colour":"red"}`,
			want: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.Constraint, Takes: "a whole number from 1 to 168", Sent: "0"},
				{Argument: "colour", Code: refuse.UnknownArgument, Sent: `"colour"`, DidYouMean: "color"},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := refuse.Refuse(reg, "stats", json.RawMessage(tc.args))
			if tc.want == nil {
				if r != nil {
					t.Fatalf("refused: %v", r)
				}
				return
			}
			if r == nil {
				t.Fatal("not refused")
			}
			if diff := cmp.Diff(tc.want, r.Problems, noPointer); diff != "" {
				t.Errorf("problems (-want +got):\n%s\n%s", diff, r)
			}
			if tc.text != "" && !strings.Contains(r.Error(), tc.text+"\n") {
				t.Errorf("the refusal does not say\n%s\nit says\n%s", tc.text, r)
			}
		})
	}
}

// TestConstraint_Warn: under Warn, a broken constraint is a warning and
// the handler runs. It failed, with no warnings, before constraintProblems.
func TestConstraint_Warn(t *testing.T) {
	reg := constrainedRegistry(t, typereg.WithMode(typereg.Warn))
	d := refuse.Decide(reg, "stats", json.RawMessage(`{"hours_back":0}`))
	if d.Refusal != nil {
		t.Fatalf("refused under Warn: %v", d.Refusal)
	}
	if d.Warnings == nil || len(d.Warnings.Problems) != 1 || d.Warnings.Problems[0].Code != refuse.Constraint {
		t.Fatalf("warnings = %v, want one constraint", d.Warnings)
	}
	if string(d.Args) != `{"hours_back":0}` {
		t.Errorf("Args = %s", d.Args)
	}
}

// TestConstraint_OnePerArgument: an argument sent under its name and an
// alias is refused for that; its constraint is not a second problem for
// it. It failed, with both problems, before constraints claimed their
// argument.
func TestConstraint_OnePerArgument(t *testing.T) {
	reg := constrainedRegistry(t, typereg.WithAlias("hours", "hours_back"))
	r := refuse.Refuse(reg, "stats", json.RawMessage(`{"hours_back":0,"hours":0}`))
	if r == nil || len(r.Problems) != 1 || r.Problems[0].Code != refuse.AliasConflict {
		t.Fatalf("refusal = %v, want one alias_conflict problem", r)
	}
	r = refuse.Refuse(reg, "stats", json.RawMessage(`{"hours":0}`))
	if r == nil || len(r.Problems) != 1 || r.Problems[0].Code != refuse.Constraint || r.Problems[0].Argument != "hours_back" {
		t.Fatalf("refusal = %v, want one constraint problem for hours_back, sent as its alias", r)
	}
}

// TestConstraint_TakesStatesTheToolsRangeNeverTheTypes: whatever the
// problem in a constrained argument (a fraction, text, a number past the
// type, a bad element, a missing argument), Takes states the tool's own
// range, as a Constraint does, so that one refusal is enough to correct
// the call; an argument without a constraint states no range at all, not
// even its Go type's (3000000000 past an int32 says only "too large").
func TestConstraint_TakesStatesTheToolsRangeNeverTheTypes(t *testing.T) {
	reg := constrainedRegistry(t)
	for _, tc := range []struct{ args, takes string }{
		{`{"hours_back":0.5}`, "a whole number from 1 to 168"},
		{`{"hours_back":"1"}`, "a whole number from 1 to 168"},
		{`{"hours_back":1e400}`, "a whole number from 1 to 168"},
		{`{"hours_back":1,"limit":3000000000}`, "a whole number from 1 to 100 (or 0)"},
		{`{"hours_back":1,"limit":-3000000000}`, "a whole number from 1 to 100 (or 0)"},
		{`{"hours_back":1,"ids":[1,"x"]}`, "a list (a JSON array) of whole numbers of at least 1, with 1 to 3 elements"},
		{`{"hours_back":1,"weights":{"a":true}}`, "an object whose values are whole numbers from 0 to 10"},
		{`{"hours_back":1,"name":5}`, "text of at most 8 characters"},
		{`{"hours_back":1,"ratio":"0.5"}`, "a number greater than 0 and less than 1"},
		{`{}`, "a whole number from 1 to 168"},
	} {
		r := refuse.Refuse(reg, "stats", json.RawMessage(tc.args))
		if r == nil || len(r.Problems) != 1 {
			t.Errorf("%s: refusal %v, want one problem", tc.args, r)
			continue
		}
		if p := r.Problems[0]; p.Takes != tc.takes {
			t.Errorf("%s: %s takes %q, want %q", tc.args, p.Code, p.Takes, tc.takes)
		}
	}
	plain := newRegistry(t)
	for _, args := range []string{`{"hours_back":24,"limit":3000000000}`, `{"hours_back":24,"limit":-3000000000}`, `{"hours_back":1e400}`, `{"int8":300}`, `{"uint":-1}`} {
		tool := "get_wait_stats"
		if !strings.Contains(args, "hours_back") {
			tool = "probe_argument_types"
		}
		r := refuse.Refuse(plain, tool, json.RawMessage(args))
		if r == nil {
			t.Errorf("%s: not refused", args)
			continue
		}
		for _, p := range r.Problems {
			for _, bound := range []string{"2147483647", "127", "from", "at most", "at least", "greater", "less"} {
				if strings.Contains(p.Takes, bound) {
					t.Errorf("%s: %s says %q: %s", args, p.Code, bound, p.Takes)
				}
			}
		}
	}
}

// TestConstraint_Census: the stats tool's schema, validator and guard
// agree on every bound (see bindtest.Constraints).
func TestConstraint_Census(t *testing.T) {
	bindtest.Constraints(t, constrainedRegistry(t))
}

// TestConstraint_Hostile: a constrained tool's call with a hundred
// thousand map members under dive, one of them bad, and five hundred
// unknown keys is refused with a bounded list; the constraint problems
// come before the unknown keys, which reach MaxProblems. It failed, with no
// constraint problem listed, while decide added constraints after every
// unknown key.
func TestConstraint_Hostile(t *testing.T) {
	reg := constrainedRegistry(t)
	var b strings.Builder
	b.WriteString(`{"hours_back":0,"x":1,"weights":{`)
	for i := range 100000 {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString(`,"k7":11}`)
	for i := range 500 { // past MaxProblems, within bind.MaxIssues
		b.WriteString(`,"x` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString(`}`)
	r := refuse.Refuse(reg, "stats", json.RawMessage(b.String()))
	if r == nil {
		t.Fatal("not refused")
	}
	if len(r.Problems) > refuse.MaxProblems {
		t.Errorf("%d problems", len(r.Problems))
	}
	var got []string
	for _, p := range r.Problems {
		if p.Code == refuse.Constraint {
			got = append(got, p.Argument+p.Path+"="+p.Element)
		}
	}
	if want := []string{"hours_back=", "weights.k7=11"}; !slices.Equal(got, want) {
		t.Errorf("constraint problems %v, want %v", got, want)
	}
}

// TestConstraint_Concurrent: one validator serves concurrent calls (run
// with -race).
func TestConstraint_Concurrent(t *testing.T) {
	reg := constrainedRegistry(t)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				n := (g*200+i)%200 + 1 // 1..200: past 168 is refused
				r := refuse.Refuse(reg, "stats", json.RawMessage(`{"hours_back":`+strconv.Itoa(n)+`,"ids":[1,2]}`))
				if (r != nil) != (n > 168) {
					t.Errorf("hours_back %d: refusal %v", n, r)
					return
				}
			}
		})
	}
	wg.Wait()
}
