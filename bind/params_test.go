package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
)

type paramsArgs struct {
	Hours int    `json:"hours"`
	Name  string `json:"name"`
	Inner struct {
		X int `json:"x"`
	}
}

// TestPlan_ParamsIsACopy: what Plan.Params hands out does not reach the
// plan: a caller that renames a parameter, changes its field index or
// type, or appends to the slice, changes neither the next call's Params
// nor the verdicts of Check.
func TestPlan_ParamsIsACopy(t *testing.T) {
	plan, err := bind.Std.Compile(reflect.TypeFor[paramsArgs]())
	if err != nil {
		t.Fatal(err)
	}
	want := plan.Params()
	calls := []string{`{"hours":1,"name":"a"}`, `{"hours":"x"}`, `{"evil":1}`, `{"Inner":{"x":1}}`}
	var verdicts [][]bind.Issue
	for _, c := range calls {
		verdicts = append(verdicts, plan.Check([]byte(c), nil))
	}
	ps := plan.Params()
	for i := range ps {
		ps[i].Name = "evil"
		ps[i].Type = reflect.TypeFor[string]()
		ps[i].Index[0] = 99
		ps[i].Index = append(ps[i].Index, 7)
	}
	_ = append(ps, bind.Param{Name: "more"})
	if got := plan.Params(); !reflect.DeepEqual(got, want) {
		t.Errorf("Params after a caller changed its copy: %+v, was %+v", got, want)
	}
	for i, c := range calls {
		if got := plan.Check([]byte(c), nil); !reflect.DeepEqual(got, verdicts[i]) {
			t.Errorf("%s: verdict changed: %v, was %v", c, got, verdicts[i])
		}
	}
}
