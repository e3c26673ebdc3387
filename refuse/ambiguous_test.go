package refuse_test

import (
	"strings"
	"testing"

	"github.com/bindguard/bindguard/refuse"
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
	ambiguous := refuse.Code("ambiguous_argument")
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
		r := refuse.Refuse(reg, "v2_folds", []byte(tc.args))
		if jsonv2Build {
			if r != nil && hasCode(r, ambiguous) {
				t.Errorf("%s: under GOEXPERIMENT=jsonv2 the key binds the first parameter, but: %v", tc.args, r)
			}
			continue
		}
		if r == nil {
			t.Errorf("%s: not refused", tc.args)
			continue
		}
		if diff := cmp.Diff(tc.want, r.Problems); diff != "" {
			t.Errorf("%s: problems (-want +got):\n%s\n%s", tc.args, diff, r)
		}
		for _, p := range r.Problems {
			checkPointer(t, tc.args, tc.args, p)
		}
		if strings.Contains(r.Error(), "not valid JSON") {
			t.Errorf("%s: the refusal calls valid JSON invalid:\n%s", tc.args, r)
		}
		if tc.text != "" && !strings.Contains(r.Error(), tc.text) {
			t.Errorf("%s: the refusal does not say %q:\n%s", tc.args, tc.text, r)
		}
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
