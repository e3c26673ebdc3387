package refuse_test

import (
	"encoding/json"
	"strings"
	"testing"

	bindjsonv2 "github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
	jsonv2 "github.com/go-json-experiment/json"
	"github.com/google/go-cmp/cmp"
)

// v2Args is a tool read by go-json-experiment, which refuses a key sent
// twice in one object (jsontext.ErrDuplicateName) where encoding/json reads
// the last value.
type v2Args struct {
	HoursBack int               `json:"hours_back,case:ignore"`
	Nested    *struct{ A int }  `json:"nested,omitempty"`
	Rest      map[string]any    `json:"rest,omitempty"`
	Counts    map[string]int    `json:"counts,omitempty"`
	Items     []struct{ B int } `json:"items,omitempty"`
}

func v2Registry(t testing.TB, opts ...typereg.Option) *typereg.Registry {
	t.Helper()
	reg := typereg.New(append([]typereg.Option{typereg.WithBinder(bindjsonv2.Binder)}, opts...)...)
	if err := typereg.Register[v2Args](reg, "v2_tool"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[v2Folds](reg, "v2_folds"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[v2FoldsNested](reg, "v2_folds_nested"); err != nil {
		t.Fatal(err)
	}
	return reg
}

// TestRefuse_V2DuplicateName: under jsonv2.Binder a key sent more than once is
// refused as that, naming the key, once per repeated key however often it
// repeats, and with the argument it belongs to; never as text that is "not
// valid JSON". Every row's refusal was InvalidJSON ("byte 16 ... cannot
// stand there", once per repeat) or, inside an argument, InvalidValue
// without a word about the key, before DuplicateName.
func TestRefuse_V2DuplicateName(t *testing.T) {
	accepted := []string{"hours_back", "nested", "rest", "counts", "items"}
	for _, tc := range []struct {
		name, args string
		want       []refuse.Problem
		text       string // a line the refusal says, when not empty
	}{
		{
			name: "a parameter sent twice", args: `{"hours_back":5,"hours_back":6}`,
			want: []refuse.Problem{{Argument: "hours_back", Code: refuse.DuplicateName, Sent: `"hours_back"`}},
			text: `Argument 'hours_back' for tool 'v2_tool' was sent more than once, under the key "hours_back", and the tool refuses a repeated key: send it once.`,
		},
		{
			name: "three times: one problem", args: `{"hours_back":5,"hours_back":6,"hours_back":7}`,
			want: []refuse.Problem{{Argument: "hours_back", Code: refuse.DuplicateName, Sent: `"hours_back"`}},
		},
		{
			name: "under a case variant the binder folds (case:ignore)", args: `{"hours_back":5,"HOURS_BACK":6}`,
			want: []refuse.Problem{{Argument: "hours_back", Code: refuse.DuplicateName, Sent: `"HOURS_BACK"`}},
		},
		{
			name: "a key that is no parameter, three times: one problem, and unknown", args: `{"hours_back":5,"x":1,"x":2,"x":3}`,
			want: []refuse.Problem{
				{Code: refuse.DuplicateName, Sent: `"x"`},
				{Argument: "x", Code: refuse.UnknownArgument, Sent: `"x"`},
			},
			text: `The arguments for tool 'v2_tool' have the key "x" more than once in one object, and the tool refuses a repeated key: send each key once.`,
		},
		{
			name: "two keys repeated: one problem each", args: `{"hours_back":1,"rest":{},"hours_back":2,"rest":{},"rest":{}}`,
			want: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.DuplicateName, Sent: `"hours_back"`},
				{Argument: "rest", Code: refuse.DuplicateName, Sent: `"rest"`},
			},
		},
		{
			name: "inside a struct argument", args: `{"hours_back":5,"nested":{"A":1,"A":2}}`,
			want: []refuse.Problem{{Argument: "nested", Code: refuse.DuplicateName, Takes: "an object with fields A", Sent: `{"A":1,"A":2}`, Element: `"A"`}},
			text: `Argument 'nested' for tool 'v2_tool' takes an object with fields A, and the call sent {"A":1,"A":2}, with the key "A" more than once at nested, which the tool refuses: send each key once.`,
		},
		{
			name: "inside a map inside an argument", args: `{"hours_back":5,"rest":{"a":{"b":1,"b":2}}}`,
			want: []refuse.Problem{{Argument: "rest", Path: ".a", Code: refuse.DuplicateName, Takes: "an object whose values are JSON values", Sent: `{"a":{"b":1,"b":2}}`, Element: `"b"`}},
		},
		{
			name: "inside a list's element", args: `{"hours_back":5,"items":[{"B":1},{"B":1,"B":2}]}`,
			want: []refuse.Problem{{Argument: "items", Path: "[1]", Code: refuse.DuplicateName, Takes: "a list (a JSON array) of objects with fields B", Sent: `[{"B":1},{"B":1,"B":2}]`, Element: `"B"`}},
		},
		{
			// V2 stops at the repeat before the text goes wrong: its error
			// is the name, refused at the first bad byte, naming the key
			// repeated, not the key that stands there.
			name: "text that is not JSON after a repeat, a key at the bad byte", args: `{"hours_back":5,"hours_back":6 "rest":{}}`,
			want: []refuse.Problem{{Code: refuse.DuplicateName, Sent: `"hours_back"`}},
		},
		{
			name: "text cut after a repeat", args: `{"hours_back":5,"rest":{"a":1,"a":`,
			want: []refuse.Problem{{Code: refuse.DuplicateName, Sent: `"a"`}},
		},
		{
			name: "inside a key the binder drops", args: `{"hours_back":5,"x":{"a":1,"a":2}}`,
			want: []refuse.Problem{
				{Code: refuse.DuplicateName, Sent: `"a"`},
				{Argument: "x", Code: refuse.UnknownArgument, Sent: `"x"`},
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if jsonv2.Unmarshal([]byte(tc.args), new(v2Args)) == nil {
				t.Fatalf("go-json-experiment reads %s; the row wants a call it refuses", tc.args)
			}
			for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
				r := refuse.Refuse(v2Registry(t, typereg.WithMode(mode)), "v2_tool", json.RawMessage(tc.args))
				if r == nil {
					t.Fatalf("%v: not refused", mode)
				}
				got := r.Problems
				if mode == typereg.Warn {
					// Under Warn the unknown key is not refused: only the
					// binder's failures are listed.
					want := slicesDeleteFunc(tc.want, func(p refuse.Problem) bool { return p.Code.Policy() })
					if diff := cmp.Diff(want, got, noPointer); diff != "" {
						t.Errorf("Warn: problems (-want +got):\n%s\n%s", diff, r)
					}
					continue
				}
				if diff := cmp.Diff(&refuse.Refusal{Tool: "v2_tool", Accepted: accepted, Problems: tc.want}, r, noPointer); diff != "" {
					t.Errorf("problems (-want +got):\n%s\n%s", diff, r)
				}
				if tc.text != "" && !strings.Contains(r.Error(), tc.text+"\n") {
					t.Errorf("the refusal does not say\n%s\nit says\n%s", tc.text, r)
				}
				if strings.Contains(r.Error(), "not valid JSON") {
					t.Errorf("the refusal says the call is not valid JSON:\n%s", r)
				}
			}
		})
	}
	if refuse.DuplicateName.Policy() {
		t.Error("DuplicateName.Policy() = true: the binder fails on it, in every mode but Off")
	}
}

func slicesDeleteFunc(ps []refuse.Problem, del func(refuse.Problem) bool) []refuse.Problem {
	var out []refuse.Problem
	for _, p := range ps {
		if !del(p) {
			out = append(out, p)
		}
	}
	return out
}
