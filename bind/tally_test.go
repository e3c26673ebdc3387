package bind_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

type capArgs struct {
	N     int      `json:"n"`
	Names []string `json:"names,omitempty"`
	Any   any      `json:"any,omitempty"`
}

var capBinders = []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder}

func capPlan(t *testing.T, b bind.Binder) *bind.Plan {
	t.Helper()
	plan, err := b.Compile(reflect.TypeFor[capArgs]())
	if err != nil {
		t.Fatal(err)
	}
	return plan.WithRequired([]string{"n"}, nil)
}

// repeat writes n members (or elements) made by f, comma-separated.
func repeat(n int, f func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = f(i)
	}
	return strings.Join(parts, ",")
}

func manyUnknown(n int) string {
	return repeat(n, func(i int) string { return fmt.Sprintf(`"k%d":1`, i) })
}

func nulls(n int) string { return repeat(n, func(int) string { return "null" }) }

// has reports whether issues list one of kind in argument param.
func has(issues []bind.Issue, kind bind.Code, param int) bool {
	for _, is := range issues {
		if is.Kind == kind && is.Param == param {
			return true
		}
	}
	return false
}

// omitted returns the count of the Omitted issue for kind in param.
func omitted(issues []bind.Issue, kind bind.Code, param int) int {
	n := 0
	for _, is := range issues {
		if is.Kind == bind.Omitted && is.Of == kind && is.Param == param {
			n += is.N
		}
	}
	return n
}

// TestCheck_AFloodOfOneClassHidesNoOtherIssue pins that MaxIssues bounds
// each class of issue apart, and that past it each argument's first issue
// of each class is still listed. It failed, before the classes were
// bounded apart, on every row: the one failure, missing parameter or
// unknown key after a thousand others was only counted.
func TestCheck_AFloodOfOneClassHidesNoOtherIssue(t *testing.T) {
	over := bind.MaxIssues + 500
	cases := []struct {
		name     string
		args     string
		binders  []bind.Binder
		kind     bind.Code
		param    int
		omitKind bind.Code
		omitIn   int
		omitN    int
	}{
		{"wrong type after unknown keys", `{` + manyUnknown(over) + `,"n":"x"}`, capBinders, bind.WrongType, 0, bind.UnknownArgument, -1, 500},
		{"missing after unknown keys", `{` + manyUnknown(over) + `}`, capBinders, bind.MissingArgument, 0, bind.UnknownArgument, -1, 500},
		{"v2 duplicate name after unknown keys", `{` + manyUnknown(over) + `,"n":1,"n":2}`, []bind.Binder{jsonv2.Binder}, bind.InvalidValue, 0, bind.UnknownArgument, -1, 500},
		{"unknown key after nulls", `{"n":1,"names":[` + nulls(over) + `],"zz":1}`, capBinders, bind.UnknownArgument, -1, bind.NullForValue, 1, 500},
		{"wrong type after nulls", `{"names":[` + nulls(over) + `],"n":"x"}`, []bind.Binder{bind.Std}, // the trial binders look for losses only in a call the binder reads
			bind.WrongType, 0, bind.NullForValue, 1, 500},
		{"missing after nulls", `{"names":[` + nulls(over) + `]}`, capBinders, bind.MissingArgument, 0, bind.NullForValue, 1, 500},
		{"rounded after nulls", `{"n":1,"names":[` + nulls(over) + `],"any":9007199254740993}`, capBinders, bind.RoundedNumber, 2, bind.NullForValue, 1, 500},
	}
	for _, tc := range cases {
		for _, b := range tc.binders {
			plan := capPlan(t, b)
			is := checkAgainst(t, plan, []byte(tc.args))
			if !has(is, tc.kind, tc.param) {
				t.Errorf("%s, %s: no %v issue in argument %d", tc.name, b.Name(), tc.kind, tc.param)
			}
			if n := omitted(is, tc.omitKind, tc.omitIn); n != tc.omitN {
				t.Errorf("%s, %s: %d %v issues omitted in argument %d, want %d", tc.name, b.Name(), n, tc.omitKind, tc.omitIn, tc.omitN)
			}
		}
	}
}

// TestCheck_IssuesStayBoundedPastMaxIssues pins the bound on what Check
// lists when every class floods at once: MaxIssues a class, plus one per
// argument and class, plus one Omitted issue per argument and kind.
func TestCheck_IssuesStayBoundedPastMaxIssues(t *testing.T) {
	n := 3 * bind.MaxIssues
	big := repeat(n, func(int) string { return "9007199254740993" })
	args := `{"names":[` + nulls(n) + `],"any":[` + big + `],` + manyUnknown(n) + `}`
	for _, b := range capBinders {
		plan := capPlan(t, b)
		is := plan.Check([]byte(args), nil)
		params := len(plan.Params())
		if bound := 4*bind.MaxIssues + 4*(params+1) + 20*(params+1); len(is) > bound {
			t.Errorf("%s: %d issues, want at most %d", b.Name(), len(is), bound)
		}
		total := 0
		for _, x := range is {
			if x.Kind == bind.Omitted {
				total += x.N
			} else {
				total++
			}
		}
		if want := 3*n + 1; total != want { // the nulls, the numbers, the keys, and n missing
			t.Errorf("%s: %d issues listed and counted, want %d", b.Name(), total, want)
		}
	}
}

// TestPlan_MatchAgreesWithCheck pins Match to Check's own UnknownKey, key
// by key, for every binder, and to the parameter each key binds.
func TestPlan_MatchAgreesWithCheck(t *testing.T) {
	keys := []string{`"n"`, `"N"`, `"\u006e"`, `"names"`, `"NAMES"`, `"zz"`, `""`, `"an\u0079"`, `"Any"`, "\"n\xff\""}
	for _, b := range capBinders {
		plan := capPlan(t, b)
		for _, k := range keys {
			is := plan.Check([]byte(`{`+k+`:1}`), nil)
			if unknown := has(is, bind.UnknownArgument, -1); (plan.Match([]byte(k)) == -1) != unknown {
				t.Errorf("%s: Match(%s) = %d, and Check reports it unknown: %v", b.Name(), k, plan.Match([]byte(k)), unknown)
			}
			// The parameter it binds: the one a wrong-typed value is in.
			is = plan.Check([]byte(`{`+k+`:{}}`), nil)
			for _, x := range is {
				if x.Kind.Class() == bind.BinderFailure && x.Param >= 0 && x.Param != plan.Match([]byte(k)) {
					t.Errorf("%s: Match(%s) = %d, and Check finds its value in %d", b.Name(), k, plan.Match([]byte(k)), x.Param)
				}
			}
		}
	}
}
