package refuse_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type span struct {
	From string `json:"from" validate:"len=10"`
	To   string `json:"to,omitempty" validate:"omitempty,len=10"`
	Days int    `json:"days,omitempty" validate:"omitempty,min=1,max=90"`
}

type stop struct {
	Name string `json:"name" validate:"required,max=8"`
	Wait *int   `json:"wait,omitempty" validate:"omitempty,gte=0"`
}

type trip struct {
	Window span   `json:"window"`
	Stops  []stop `json:"stops,omitempty" validate:"max=3,dive"`
	Back   *span  `json:"back,omitempty"`
}

// What the parameters of trip take: each nested field's own constraint is
// worded beside its name, so that a refusal of a value inside the argument
// says which rule the value broke.
const (
	spanTakes  = "an object with fields from (text of exactly 10 characters), to (text of exactly 10 characters, or empty text), days (a whole number from 1 to 90, or 0)"
	stopsTakes = "a list (a JSON array) of objects with fields name (text of 1 to 8 characters), wait (a whole number of at least 0), with at most 3 elements"
)

// TestConstraint_NestedFields: the tags on a nested struct's fields, which
// the validator checks and registration refused, are published in the
// nested struct's schema and checked, with Path pointing inside the
// argument, on all three binders; Takes words each field's tag.
func TestConstraint_NestedFields(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[trip](reg, "trip"); err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
		bindtest.Constraints(t, reg) // the schema, the validator and the guard agree
		tool, _ := reg.Tool("trip")
		schema, _ := json.Marshal(tool.Schema())
		for _, want := range []string{`"from":{"type":"string","maxLength":10,"minLength":10}`, `"name":{"type":"string","maxLength":8,"minLength":1}`} {
			if !strings.Contains(string(schema), want) {
				t.Errorf("%s: the schema does not publish %s: %s", b.Name(), want, schema)
			}
		}
		for _, tc := range []struct {
			args string
			want []refuse.Problem
		}{
			{args: `{"window":{"from":"2024-01-01","days":30},"stops":[{"name":"a"},{"name":"b","wait":0}],"back":null}`},
			{args: `{"window":{"from":"2024-01-01","to":"2024-02-01"},"back":{"from":"2024-03-01"}}`},
			{
				args: `{"window":{"from":"2024-1-1"}}`,
				want: []refuse.Problem{{Argument: "window", Code: refuse.Constraint, Path: ".from", Pointer: "/window/from", Takes: spanTakes, Sent: `{"from":"2024-1-1"}`, Element: `"2024-1-1"`}},
			},
			{
				args: `{"window":{"from":"2024-01-01","days":91},"stops":[{"name":"a"},{"name":"too long a name"}]}`,
				want: []refuse.Problem{
					{Argument: "window", Code: refuse.Constraint, Path: ".days", Pointer: "/window/days", Takes: spanTakes, Sent: `{"from":"2024-01-01","days":91}`, Element: "91"},
					{Argument: "stops", Code: refuse.Constraint, Path: "[1].name", Pointer: "/stops/1/name", Takes: stopsTakes, Sent: `[{"name":"a"},{"name":"too long a name"}… (41 characters)`, Element: `"too long a name"`},
				},
			},
			{
				args: `{"window":{"from":"2024-01-01"},"back":{"from":"x","to":"2024-01-01"}}`,
				want: []refuse.Problem{{Argument: "back", Code: refuse.Constraint, Path: ".from", Pointer: "/back/from", Takes: spanTakes, Sent: `{"from":"x","to":"2024-01-01"}`, Element: `"x"`}},
			},
		} {
			r := refuse.Refuse(reg, "trip", []byte(tc.args))
			var got []refuse.Problem
			if r != nil {
				got = r.Problems
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("%s %s: problems (-want +got):\n%s", b.Name(), tc.args, diff)
			}
		}
	}
}
