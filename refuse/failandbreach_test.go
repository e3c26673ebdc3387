package refuse_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// TestDecide_ABinderFailureHidesNoConstraintBreach pins that one refusal
// names every bad argument: the ones the binder fails on and, beside them,
// the ones it reads that break the tool's own constraints, for every
// binder. It failed before: {"hours_back":"x","limit":0,"color":"red"}
// named only hours_back, and the model needed a second turn for the
// others.
func TestDecide_ABinderFailureHidesNoConstraintBreach(t *testing.T) {
	for _, b := range allBinders {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[stats](reg, "stats"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			args string
			want []refuse.Problem
		}{
			{`{"hours_back":"x","limit":-1,"color":"red"}`, []refuse.Problem{
				{Argument: "hours_back", Code: refuse.WrongType, Takes: "a whole number from 1 to 168", Sent: `"x"`},
				{Argument: "limit", Code: refuse.Constraint, Takes: "a whole number from 1 to 100 (or 0)", Sent: "-1"},
				{Argument: "color", Code: refuse.Constraint, Takes: "one of crimson, teal, amber (or empty text)", Sent: `"red"`},
			}},
			{`{"limit":500,"hours_back":1.5,"ids":[1,0],"name":7}`, []refuse.Problem{
				{Argument: "hours_back", Code: refuse.NotWholeNumber, Takes: "a whole number from 1 to 168", Sent: "1.5"},
				{Argument: "name", Code: refuse.WrongType, Takes: "text of at most 8 characters", Sent: "7"},
				{Argument: "limit", Code: refuse.Constraint, Takes: "a whole number from 1 to 100 (or 0)", Sent: "500"},
				{Argument: "ids", Path: "[1]", Code: refuse.Constraint, Takes: "a list (a JSON array) of whole numbers of at least 1, with 1 to 3 elements", Sent: "[1,0]", Element: "0"},
			}},
			{`{"hours_back":0,"limit":"x"}`, []refuse.Problem{
				{Argument: "limit", Code: refuse.WrongType, Takes: "a whole number from 1 to 100 (or 0)", Sent: `"x"`},
				{Argument: "hours_back", Code: refuse.Constraint, Takes: "a whole number from 1 to 168", Sent: "0"},
			}},
		} {
			r := refuse.Refuse(reg, "stats", json.RawMessage(tc.args))
			if r == nil {
				t.Errorf("%s %s: not refused", b.Name(), tc.args)
				continue
			}
			if diff := cmp.Diff(tc.want, r.Problems, noPointer); diff != "" {
				t.Errorf("%s %s: problems (-want +got):\n%s\n%s", b.Name(), tc.args, diff, r)
			}
		}
	}
}

// TestDecide_ConstraintsBesideAFailure_LinearCost pins the cost of
// checking the constraints of a call the binder fails on: one masked copy
// and one decode, so memory grows with the call, not faster.
func TestDecide_ConstraintsBesideAFailure_LinearCost(t *testing.T) {
	reg := constrainedRegistry(t)
	var sizes []uint64
	for _, n := range []int{1000, 10000, 100000} {
		args := json.RawMessage(fmt.Sprintf(`{"hours_back":"x","weights":{%s},"limit":-1}`,
			members(n, func(i int) string { return fmt.Sprintf(`"w%d":%d`, i, i%11) })))
		if r := refuse.Refuse(reg, "stats", args); r == nil || len(r.Problems) != 2 {
			t.Fatalf("n=%d: %v", n, r)
		}
		sizes = append(sizes, allocatedBytes(func() { refuse.Refuse(reg, "stats", args) }))
	}
	if sizes[2] > 15*sizes[1] || sizes[1] > 15*sizes[0] {
		t.Errorf("bytes allocated for 1x, 10x, 100x: %v; want growth near 10x a step", sizes)
	}
}
