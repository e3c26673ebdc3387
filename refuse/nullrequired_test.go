package refuse_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type nullArgs struct {
	N    int      `json:"n"`
	Name string   `json:"name"`
	Opt  int      `json:"opt,omitempty"`
	P    *int     `json:"p,omitempty"`
	L    []string `json:"l,omitempty"`
}

// TestDecide_NullForARequiredParameterIsMissing pins that null for a
// required parameter whose type cannot hold null counts as not sending it:
// under Reject a missing argument (the published schema refuses null
// there too), under Warn a warning; null for an optional one stays a
// silent loss. It failed before: {"n":null} was only a null_for_value
// warning under Reject, and the handler ran on 0.
func TestDecide_NullForARequiredParameterIsMissing(t *testing.T) {
	for _, b := range allBinders {
		for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
			reg := typereg.New(typereg.WithBinder(b), typereg.WithMode(mode))
			if err := typereg.Register[nullArgs](reg, "t"); err != nil {
				t.Fatal(err)
			}
			d := refuse.Decide(reg, "t", json.RawMessage(`{"n":null,"name":"x","opt":null}`))
			want := []refuse.Problem{
				{Argument: "n", Code: refuse.MissingArgument, Takes: "a whole number", Sent: "null"},
				{Argument: "opt", Code: refuse.NullForValue, Takes: "a whole number", Sent: "null", Becomes: "0"},
			}
			var got []refuse.Problem
			var text string
			switch {
			case mode == typereg.Reject && d.Refusal != nil:
				got, text = d.Refusal.Problems, d.Refusal.Error()
			case mode == typereg.Warn && d.Refusal == nil && d.Warnings != nil:
				got, text = d.Warnings.Problems, d.Warnings.String()
			default:
				t.Errorf("%s, mode %v: refusal %v, warnings %v", b.Name(), mode, d.Refusal, d.Warnings)
				continue
			}
			if diff := cmp.Diff(want, got, noPointer); diff != "" {
				t.Errorf("%s, mode %v: problems (-want +got):\n%s", b.Name(), mode, diff)
			}
			if !strings.Contains(text, "Argument 'n' for tool 't' is required, and the call sent null, which does not count as sending it: it takes a whole number.") {
				t.Errorf("%s, mode %v: text %s", b.Name(), mode, text)
			}
		}
	}
}

// TestDecide_NullThenAValue_IsSent pins that only the null the binder
// keeps counts as not sending a required parameter: {"n":null,"n":5}
// sends 5 (a repeated key, a silent loss, under the binders that keep the
// last value). It failed with the first version of the rule, which took
// any null for n.
func TestDecide_NullThenAValue_IsSent(t *testing.T) {
	for _, b := range allBinders {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[nullArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, args := range []string{`{"n":null,"n":5,"name":"x"}`, `{"n":null,"N":5,"name":"x"}`, `{"name":null,"n":1,"name":"x"}`} {
			d := refuse.Decide(reg, "t", json.RawMessage(args))
			if b.Name() == "v2" || b.Name() == "segmentio" && strings.Contains(args, `"N"`) {
				continue // V2 fails on a repeated name; segmentio does not fold N
			}
			if strings.Contains(args, `"N"`) {
				// The name and a case variant of it: a conflict (the
				// struct and a map view would read different values),
				// never a missing parameter.
				if d.Refusal == nil || d.Refusal.Problems[0].Code != refuse.AliasConflict {
					t.Errorf("%s %s: %v, want an alias_conflict", b.Name(), args, d.Refusal)
				}
				continue
			}
			if d.Refusal != nil {
				t.Errorf("%s %s: refused: %v", b.Name(), args, d.Refusal)
			}
		}
	}
}
