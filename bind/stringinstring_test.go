package bind_test

import (
	"reflect"
	"slices"
	"testing"

	"github.com/bindguard/bindguard/bind"
)

// stringInStringArgs are ,string fields of a string kind: the binder
// unquotes the text inside the string again.
type stringInStringArgs struct {
	S  string        `json:"s,string"`
	T  namedString   `json:"t,string"`
	PS *string       `json:"ps,string"`
	N  stringInInner `json:"n"`
}

type namedString string

type stringInInner struct {
	S string `json:"s,string"`
}

// stringInStringRows are calls of stringInStringArgs and Std's verdict
// where encoding/json reads them (as textKeyRows writes it): the text null
// leaves the field as it was (a pointer it sets nil), and invalid UTF-8 or
// a lone surrogate, in the text sent or in the string inside it, is
// replaced with U+FFFD.
var stringInStringRows = []struct{ args, std string }{
	{`{"s":"\"a\""}`, ""},
	{`{"s":"\"\\u00e9\""}`, ""},
	{`{"s":"\"\\ud800\\udc00\""}`, ""},
	{`{"s":"\"\\ud800\""}`, "replaced_text "},
	{`{"s":"\"\ud800\""}`, "replaced_text "},
	{"{\"s\":\"\\\"\xff\\\"\"}", "replaced_text "},
	{`{"t":"\"\\udfff\""}`, "replaced_text "},
	{`{"ps":"\"\\ud800\""}`, "replaced_text "},
	{`{"n":{"s":"\"\\ud800\""}}`, "replaced_text .s"},
	{`{"s":"null"}`, "null_for_value "},
	{`{"t":"null"}`, "null_for_value "},
	{`{"n":{"s":"null"}}`, "null_for_value .s"},
	{`{"ps":"null"}`, ""},
	{`{"s":null}`, "null_for_value "},
	{`{"s":"\"a\"b"}`, "invalid_value "},
	{`{"s":"\"\\ud800\"","t":"null","ps":"\"ok\""}`, "replaced_text ; null_for_value "},
}

// TestStringInString_Std: Std's verdict on each row is the row's where
// encoding/json reads the call, and a failure where it does not (as under
// GOEXPERIMENT=jsonv2, whose encoding/json fails on a lone surrogate and
// on null inside the string).
func TestStringInString_Std(t *testing.T) {
	plan, err := bind.Std.Compile(reflect.TypeFor[stringInStringArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range stringInStringRows {
		issues := plan.Check([]byte(row.args), nil)
		var v stringInStringArgs
		if err := bind.Std.Unmarshal([]byte(row.args), &v); err != nil {
			if !slices.ContainsFunc(issues, func(is bind.Issue) bool { return is.Kind.Class() == bind.BinderFailure }) {
				t.Errorf("%s: the binder fails (%v); the check says %q", row.args, err, verdictOf(issues))
			}
			continue
		}
		if got := verdictOf(issues); got != row.std {
			t.Errorf("%s: %q, want %q", row.args, got, row.std)
		}
	}
}
