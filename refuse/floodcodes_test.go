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
