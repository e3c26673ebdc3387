package refuse

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
)

// TestWithoutFailures_KeepsOffsetsAndValidJSON: blanking the members
// failures lie in leaves valid JSON, with every other member where it was.
func TestWithoutFailures_KeepsOffsetsAndValidJSON(t *testing.T) {
	for _, tc := range []struct {
		args string
		at   []int // where failures start
		want string
	}{
		{`{"a":1,"b":2,"c":3}`, []int{5}, `{      "b":2,"c":3}`},
		{`{"a":1,"b":2,"c":3}`, []int{11}, `{"a":1      ,"c":3}`},
		{`{"a":1,"b":2,"c":3}`, []int{17}, `{"a":1,"b":2      }`},
		{`{"a":1,"b":2,"c":3}`, []int{5, 11}, `{            "c":3}`},
		{`{"a":1,"b":2,"c":3}`, []int{5, 17}, `{      "b":2      }`},
		{`{"a":1,"b":2,"c":3}`, []int{1, 7, 13}, `{                 }`},
		{` { "a" : [1,"x"] , "b" : 2 } `, []int{13}, ` {                 "b" : 2 } `},
	} {
		var issues []bind.Issue
		for _, at := range tc.at {
			issues = append(issues, bind.Issue{Kind: bind.WrongType, Param: -1, Start: at, End: at + 1}) // placed by offset alone
		}
		plan := abcPlan(t)
		_, ms := checkMembers(plan, []byte(tc.args), nil)
		got, _ := withoutFailures([]byte(tc.args), &ms, plan, issues)
		if string(got) != tc.want || !json.Valid(got) {
			t.Errorf("%s without %v: %q, want %q", tc.args, tc.at, got, tc.want)
		}
	}
	// A parameter with a failure is blanked in every member that binds
	// it: past bind.MaxIssues the failures of its other members are only
	// counted (its first is always listed).
	plan := abcPlan(t)
	args := `{"a":1,"b":2,"a":3,"c":4}`
	_, ms := checkMembers(plan, []byte(args), nil)
	if got, _ := withoutFailures([]byte(args), &ms, plan, []bind.Issue{{Kind: bind.WrongType, Param: 0, Start: 5, End: 6}}); string(got) != `{      "b":2      ,"c":4}` {
		t.Errorf("%s without a's failure: %q", args, got)
	}
	_, ms = checkMembers(plan, []byte(`{"a":1}`), nil)
	if got, _ := withoutFailures([]byte(`{"a":1}`), &ms, plan, []bind.Issue{{Kind: bind.InvalidJSON, Start: 0}}); got != nil {
		t.Errorf("a failure in no member: %q, want nil", got)
	}
}

// abcPlan is Std's plan of an object of a, b and c.
func abcPlan(t *testing.T) *bind.Plan {
	t.Helper()
	p, err := bind.Std.Compile(reflect.TypeFor[struct {
		A, B, C int `json:",omitempty"`
	}]())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestJSONSize_IsEncodingJSONs: the size the refusal's bound counts is the
// size encoding/json writes.
func TestJSONSize_IsEncodingJSONs(t *testing.T) {
	for _, p := range []Problem{
		{Code: UnknownArgument},
		{Argument: "a", Path: `["x"]`, Code: Constraint, Takes: "a <b> & c", Sent: "\"\\u0001\" \b\f\n\r\t", Element: "\u2028\u2029é", DidYouMean: "x\xffy", Becomes: "\x00\x7f"},
		{Code: UnknownArgument, Argument: "\xe2\x82x\xed\xa0\x80\xf0\x9f\x98", Sent: "\xc3\xa9\xc3"},
	} {
		b, _ := json.Marshal(p)
		if got := jsonSize(p); got != len(b)+1 {
			t.Errorf("jsonSize(%+v) = %d, want %d (%s)", p, got, len(b)+1, b)
		}
	}
}
