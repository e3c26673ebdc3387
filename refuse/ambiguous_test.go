package refuse_test

import (
	"strings"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
	"github.com/google/go-cmp/cmp"
)

// v2Folds has two case:ignore parameters whose names V2 folds alike
// ("userid"): a key that names neither exactly but folds to both is
// ambiguous, and go-json-experiment fails on it (errAmbiguousName).
type v2Folds struct {
	UserID  int    `json:"user_id,case:ignore,omitempty"`
	UserId2 int    `json:"userId,case:ignore,omitempty"`
	Name    string `json:"name,omitempty"`
}

// TestRefuse_V2AmbiguousArgument: a key V2 matches to two parameters by
// case:ignore is refused as that, naming the key as sent, once per text
// however often it is sent, beside the call's other problems; never as
// text that is "not valid JSON" (each row's refusal said "byte 1 ... cannot
// stand there" before the code). Under GOEXPERIMENT=jsonv2 the standard
// library's v2 binds the first such parameter, and the call goes on.
func TestRefuse_V2AmbiguousArgument(t *testing.T) {
	reg := v2Registry(t)
	ambiguous := refuse.AmbiguousArgument
	for _, tc := range []struct {
		args string
		want []refuse.Problem
		text string
	}{
		{
			args: `{"USERID":7}`,
			want: []refuse.Problem{{Argument: "USERID", Pointer: "/USERID", Code: ambiguous, Sent: `"USERID"`}},
			text: "Argument 'USERID' for tool 'v2_folds' names no parameter exactly, and matches more than one when case is ignored, which the tool refuses: send one parameter's name exactly.",
		},
		{
			args: `{"userid":7,"user-id":8,"userid":9}`, // two texts, one sent twice
			want: []refuse.Problem{
				{Argument: "userid", Pointer: "/userid", Code: ambiguous, Sent: `"userid"`},
				{Argument: "user-id", Pointer: "/user-id", Code: ambiguous, Sent: `"user-id"`},
			},
		},
		{
			args: `{"user_id":1,"name":5,"USER_ID2":2,"USERID":3}`,
			want: []refuse.Problem{
				{Argument: "name", Pointer: "/name", Code: refuse.WrongType, Takes: "text", Sent: "5"},
				{Argument: "USERID", Pointer: "/USERID", Code: ambiguous, Sent: `"USERID"`},
				{Argument: "USER_ID2", Pointer: "/USER_ID2", Code: refuse.UnknownArgument, Sent: `"USER_ID2"`, DidYouMean: "user_id"},
			},
		},
	} {
		checkAmbiguousRow(t, reg, "v2_folds", ambiguous, tc.args, tc.want, tc.text)
	}
}

// v2FoldsNested holds v2FoldsInner, whose two case:ignore fields V2
// folds alike ("ab"), in an object, a list and a map's values: a key
// inside them that names neither exactly but folds to both is ambiguous.
type v2FoldsNested struct {
	In   v2FoldsInner            `json:"in,omitempty"`
	List []v2FoldsInner          `json:"list,omitempty"`
	Map  map[string]v2FoldsInner `json:"map,omitempty"`
	N    int                     `json:"n,omitempty"`
}

type v2FoldsInner struct {
	A int    `json:"a_b,case:ignore,omitempty"`
	B int    `json:"A-B,case:ignore,omitempty"`
	C string `json:"c,omitempty"`
}

// TestRefuse_V2AmbiguousField: inside an argument, a key V2 matches to two
// fields by case:ignore is refused as that, naming the key as an unknown
// field is named, at its path, once per argument (V2 stops at the first),
// never as a value the argument's type does not read. Before the code,
// every row was an invalid_value quoting the key's value ("with 2 at
// in.ab"), which does not say the key is the fault.
func TestRefuse_V2AmbiguousField(t *testing.T) {
	reg := v2Registry(t)
	ambiguous := refuse.AmbiguousField
	in := "an object with fields a_b, A-B, c"
	for _, tc := range []struct {
		args string
		want []refuse.Problem
		text string
	}{
		{
			args: `{"in":{"ab":2}}`,
			want: []refuse.Problem{{Argument: "in", Path: ".ab", Pointer: "/in/ab", Code: ambiguous, Takes: in, Sent: `{"ab":2}`, Element: `"ab"`}},
			text: `Argument 'in' for tool 'v2_folds_nested' takes an object with fields a_b, A-B, c, and the call sent {"ab":2}, with the key "ab" at in.ab, which names no field there exactly, and matches more than one when case is ignored, which the tool refuses: send one field's name exactly.`,
		},
		{
			args: `{"in":{"c":"x","AB":{"deep":[1,2]},"ab":3},"n":1}`, // the first; V2 reads no further
			want: []refuse.Problem{{Argument: "in", Path: ".AB", Pointer: "/in/AB", Code: ambiguous, Takes: in, Sent: `{"c":"x","AB":{"deep":[1,2]},"ab":3}`, Element: `"AB"`}},
		},
		{
			args: `{"list":[{"a_b":1},{"c":"","a-b":1}],"map":{"k":{"A_B":1}},"n":"x"}`,
			want: []refuse.Problem{
				{Argument: "list", Path: `[1]["a-b"]`, Pointer: "/list/1/a-b", Code: ambiguous, Takes: "a list (a JSON array) of objects with fields a_b, A-B, c", Sent: `[{"a_b":1},{"c":"","a-b":1}]`, Element: `"a-b"`},
				{Argument: "map", Path: ".k.A_B", Pointer: "/map/k/A_B", Code: ambiguous, Takes: "an object whose values are objects with fields a_b, A-B, c", Sent: `{"k":{"A_B":1}}`, Element: `"A_B"`},
				{Argument: "n", Pointer: "/n", Code: refuse.WrongType, Takes: "a whole number", Sent: `"x"`},
			},
		},
		{
			args: `{"in":{"c":1,"ab":2}}`, // a failure before it is the one V2 reports
			want: []refuse.Problem{{Argument: "in", Path: ".c", Pointer: "/in/c", Code: refuse.WrongType, Takes: in, Sent: `{"c":1,"ab":2}`, Element: "1"}},
		},
		{
			args: `{"in":{"a\u005fb":1,"A-B":2}}`, // escaped, and exact: bound
		},
	} {
		checkAmbiguousRow(t, reg, "v2_folds_nested", ambiguous, tc.args, tc.want, tc.text)
	}
}

// checkAmbiguousRow checks tool's refusal of args under jsonv2.Binder:
// want's problems (none: the call goes on), their pointers, text in its
// words, never "not valid JSON"; under GOEXPERIMENT=jsonv2, whose v2
// binds an ambiguous key to the first field, no problem of code
// ambiguous.
func checkAmbiguousRow(t *testing.T, reg *typereg.Registry, tool string, ambiguous refuse.Code, args string, want []refuse.Problem, text string) {
	t.Helper()
	r := refuse.Refuse(reg, tool, []byte(args))
	switch {
	case jsonv2Build:
		if r != nil && hasCode(r, ambiguous) {
			t.Errorf("%s: under GOEXPERIMENT=jsonv2 the key binds the first field, but: %v", args, r)
		}
		return
	case want == nil:
		if r != nil {
			t.Errorf("%s: refused:\n%s", args, r)
		}
		return
	case r == nil:
		t.Errorf("%s: not refused", args)
		return
	}
	if diff := cmp.Diff(want, r.Problems); diff != "" {
		t.Errorf("%s: problems (-want +got):\n%s\n%s", args, diff, r)
	}
	for _, p := range r.Problems {
		checkPointer(t, args, args, p)
	}
	if strings.Contains(r.Error(), "not valid JSON") {
		t.Errorf("%s: the refusal calls valid JSON invalid:\n%s", args, r)
	}
	if text != "" && !strings.Contains(r.Error(), text) {
		t.Errorf("%s: the refusal does not say %q:\n%s", args, text, r)
	}
}

func hasCode(r *refuse.Refusal, c refuse.Code) bool {
	for _, p := range r.Problems {
		if p.Code == c {
			return true
		}
	}
	return false
}
