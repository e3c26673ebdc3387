package bind_test

import (
	"testing"

	"github.com/bindguard/bindguard/bind/jsonv2"
)

// v2TextVerdicts are calls with text V2 fails on (invalid UTF-8, a lone
// surrogate escape) in a key or in a value it drops, and valid escaped or
// non-ASCII text there, whose verdict V2's one pass gives itself, issue for
// issue the trial check's (checkProven).
var v2TextVerdicts = []v2Row{
	// Dropped values: V2 validates their strings.
	{0, `{"zzz":"\ud800"}`},
	{0, "{\"zzz\":\"\xff\"}"},
	{0, `{"zzz":"\u0041","count":1}`},
	{0, "{\"zzz\":\"caf\u00e9\"}"},
	{0, `{"zzz":["a","\ud800"],"zy":{"a":"\udfff"},"count":"x"}`},
	{0, `{"zzz":{"a":"\ud800","b":"\ud800"}}`},
	{1, `{"n":{"zz":"\ud800"}}`},
	{1, "{\"n\":{\"zz\":[\"\xff\"]},\"i\":\"x\"}"},
	{1, `{"i":{"a":"\ud800"}}`},  // an object for an integer: read whole
	{1, `{"s":["\ud800"]}`},      // an array for a string
	{1, `{"b":["\ud800"]}`},      // an array for a bool: V2 fails at its bracket
	{1, `{"sl":{"a":"\ud800"}}`}, // an object for a list
	{1, `{"i":["\u0041"]}`},      // valid text inside a wrong kind
}

// TestV2Text_Verdicts: V2's one pass gives the verdict of each call, the
// trial check's.
func TestV2Text_Verdicts(t *testing.T) {
	checkV2Verdicts(t, v2TextVerdicts)
}

// TestV2Text_NotAnObject: text V2 fails on in arguments that are no
// object is no issue but NotAnObject, as the trial check says.
func TestV2Text_NotAnObject(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(nativeFixed[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{"\"\xa3\"", `["\ud800"]`, `[{"a":1,"a":2}]`} {
		checkProven(t, plan, []byte(args))
	}
}
