package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segReplacedKeys are calls of fixed shape 1 (trialArgs) with keys whose
// text is not valid UTF-8, invalid bytes or lone surrogate escapes, each
// a key segmentio binds by its text with U+FFFD for those: dropped at the
// top level and under a nested struct, in maps of string keys, in any,
// in a dropped value, and above a failure.
var segReplacedKeys = []struct {
	args string
	want []bind.Code
}{
	{`{"\ud800":1}`, []bind.Code{kUnknown}},
	{"{\"n\":{\"\xff\":1}}", []bind.Code{kUnknownField}},
	{"{\"\xed\xa0\x80\":1,\"\\udc00\\ud800\":\"x\",\"i\":1}", []bind.Code{kUnknown, kUnknown}},
	{"{\"\xff\":1,\"\xfe\":2}", []bind.Code{kUnknown, kUnknown}},
	{`{"n":{"\ud800x":[1],"x":2},"ns":[{"\udfff":{}}]}`, []bind.Code{kUnknownField, kUnknownField}},
	{"{\"m\":{\"\xff\":1,\"k\\ud83d\":2}}", []bind.Code{kReplaced, kReplaced}},
	{"{\"m\":{\"\xff\":1,\"\xfe\":2}}", []bind.Code{kReplaced, kReplaced, kDup}},
	{"{\"a\":{\"\xff\":[{\"k\":null}],\"\\ud800\":2}}", []bind.Code{kReplaced, kReplaced, kDup}},
	{"{\"zzz\":{\"\xff\":{\"\\ud800\":1}}}", []bind.Code{kUnknown}},
	{"{\"i\":{\"\xff\":1}}", []bind.Code{kWrong}},
	{"{\"m\":{\"\xff\":\"x\"}}", []bind.Code{kWrong}},
	{"{\"a\":{\"\xff\":1e999}}", []bind.Code{kLarge}},
	{"{\"n\":{\"\xff\":\"s\",\"x\":\"s\"}}", []bind.Code{kWrong}},
	{"{\"\xff\":1,\"i\":\"x\"}", []bind.Code{kUnknown, kWrong}},
}

// TestSegmentIO_ReplacedKeys: a key whose text segmentio replaces is the
// one pass's verdict, the trial check's (and the binder fails exactly when
// the verdict holds a failure: checkProven), where it binds no field, or
// keys a map of string keys or any with no loss under it (nativeDeclines
// holds those the pass declines): two keys of one replaced text are a
// repeat.
func TestSegmentIO_ReplacedKeys(t *testing.T) {
	plan, err := segmentio.Binder.Compile(nativeFixed[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range segReplacedKeys {
		args := []byte(tc.args)
		checkProven(t, plan, args)
		issues, _, ok := bind.NativeVerdict(plan, args)
		if !ok {
			t.Errorf("%q: the pass declines", tc.args)
			continue
		}
		if kinds := kindsOf(issues); !reflect.DeepEqual(kinds, tc.want) {
			t.Errorf("%q: %v, want %v", tc.args, kinds, tc.want)
		}
	}
}
