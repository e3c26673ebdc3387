package refuse_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// TestDecide_FloodHidesNoPolicyCode: past bind.MaxIssues, a policy that
// lets one policy code through (an open nested struct's unknown fields; a
// missing field a merged object holds) leaves the argument's other codes
// listed, so that the call is refused as it is without the flood. The
// first policy issue of an argument was listed, the rest only counted and
// never refusing: an unknown field in a merged object, or missing fields
// behind a thousand unknown ones under OpenNested, went on (found by a
// review).
func TestDecide_FloodHidesNoPolicyCode(t *testing.T) {
	leaves := func(n int, leaf string) string { return strings.TrimSuffix(strings.Repeat(leaf+",", n), ",") }
	filler := `"l":[` + leaves(bind.MaxIssues, `{"a":1}`) + `],"l":[` + leaves(bind.MaxIssues, `{"b":1}`) + `]`
	var unknown []string
	for i := range bind.MaxIssues + 1 {
		unknown = append(unknown, `"z`+strconv.Itoa(i)+`":1`)
	}
	for _, bb := range mgBinders {
		closed := mgRegistry(t, bb.b)
		open := typereg.New(typereg.WithBinder(bb.b), typereg.WithReflector(&jsonschema.Reflector{AllowAdditionalProperties: true}))
		if err := typereg.Register[mgArgs](open, "mg"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			reg  *typereg.Registry
			args string
		}{
			{closed, `{` + filler + `,"w":{"a":1},"w":{"b":1,"zz":1}}`},
			{closed, `{"w":{"a":1},"w":{"b":1,"zz":1},` + filler + `}`},
			{open, `{"l":[{` + strings.Join(unknown, ",") + `,"a":1},{"a":1}]}`},
		} {
			if err := bb.b.Unmarshal([]byte(tc.args), new(mgArgs)); err != nil {
				t.Fatalf("%s: the binder fails: %v", bb.name, err)
			}
			if d := refuse.Decide(tc.reg, "mg", []byte(tc.args)); d.Refusal == nil {
				t.Errorf("%s %.80s…: went on (%v)", bb.name, tc.args, d.Warnings)
			}
		}
	}
}

// TestDecide_FloodHidesNoLossThatDecides: past bind.MaxIssues of silent
// losses, an argument's first repeated key and first folded key are
// listed, whatever loss came first in it: a fold conflict (refused under
// Reject) went on with a duplicate_key warning once the argument held a
// thousand other losses, and a value the binder drops was warned of as
// rounded, not as dropped (found by a hunt).
func TestDecide_FloodHidesNoLossThatDecides(t *testing.T) {
	type args struct {
		N int       `json:"n"`
		F []float64 `json:"f,omitempty"`
		X any       `json:"x,omitempty"`
	}
	reg := typereg.New(typereg.WithBinder(bind.Std))
	if err := typereg.Register[args](reg, "t"); err != nil {
		t.Fatal(err)
	}
	rounded := strings.TrimSuffix(strings.Repeat(rounds+",", bind.MaxIssues+1), ",")
	for _, call := range []string{
		`{` + strings.Repeat(`"n":1,`, bind.MaxIssues+1) + `"N":2}`,
		`{"f":[` + rounded + `],"n":null,"N":2}`,
		`{"f":[` + rounded + `],"n":3,"n":1,"N":2}`,
	} {
		d := refuse.Decide(reg, "t", []byte(call))
		if d.Refusal == nil || d.Refusal.Problems[0].Code != refuse.AliasConflict {
			t.Errorf("%.60s…: %v / %v, want an alias_conflict refusal", call, d.Refusal, d.Warnings)
		}
	}
	warn := typereg.New(typereg.WithBinder(bind.Std), typereg.WithMode(typereg.Warn))
	if err := typereg.Register[args](warn, "t"); err != nil {
		t.Fatal(err)
	}
	d := refuse.Decide(warn, "t", []byte(`{"n":1,"f":[`+rounded+`],"x":[`+rounds+`],"x":1}`))
	for _, p := range problemsOf(d) {
		if p.Argument == "x" && p.Code != refuse.DuplicateKey {
			t.Errorf("x: %s (%s), want duplicate_key: the binder drops [%s]", p.Code, p.Becomes, rounds)
		}
	}
}
