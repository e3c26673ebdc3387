package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segReplacedKeys are calls of fixed shapes 1 (trialArgs) and 6 with keys whose
// text is not valid UTF-8, invalid bytes or lone surrogate escapes, each
// a key segmentio binds by its text with U+FFFD for those: dropped at the
// top level and under a nested struct, in maps of string keys, in any,
// in a dropped value, above a failure, and in a map of integer keys.
var segReplacedKeys = []struct {
	fixed int // index in nativeFixed
	args  string
	want  []bind.Code
}{
	{1, `{"\ud800":1}`, []bind.Code{kUnknown}},
	{1, "{\"n\":{\"\xff\":1}}", []bind.Code{kUnknownField}},
	{1, "{\"\xed\xa0\x80\":1,\"\\udc00\\ud800\":\"x\",\"i\":1}", []bind.Code{kUnknown, kUnknown}},
	{1, "{\"\xff\":1,\"\xfe\":2}", []bind.Code{kUnknown, kUnknown}},
	{1, `{"n":{"\ud800x":[1],"x":2},"ns":[{"\udfff":{}}]}`, []bind.Code{kUnknownField, kUnknownField}},
	{1, "{\"m\":{\"\xff\":1,\"k\\ud83d\":2}}", []bind.Code{kReplaced, kReplaced}},
	{1, "{\"m\":{\"\xff\":1,\"\xfe\":2}}", []bind.Code{kReplaced, kReplaced, kDup}},
	{1, "{\"a\":{\"\xff\":[{\"k\":null}],\"\\ud800\":2}}", []bind.Code{kReplaced, kReplaced, kDup}},
	{1, "{\"zzz\":{\"\xff\":{\"\\ud800\":1}}}", []bind.Code{kUnknown}},
	{1, "{\"i\":{\"\xff\":1}}", []bind.Code{kWrong}},
	{1, "{\"m\":{\"\xff\":\"x\"}}", []bind.Code{kWrong}},
	{1, "{\"a\":{\"\xff\":1e999}}", []bind.Code{kLarge}},
	{1, "{\"n\":{\"\xff\":\"s\",\"x\":\"s\"}}", []bind.Code{kWrong}},
	{1, "{\"\xff\":1,\"i\":\"x\"}", []bind.Code{kUnknown, kWrong}},
	{6, "{\"mi\":{\"\xff\":1}}", []bind.Code{bind.InvalidValue}},
	{6, `{"mi":{"1":"a","1\ud800":"b"}}`, []bind.Code{bind.InvalidValue}},
	{6, `{"s":"x","mi":{"\udc00 ":"b"}}`, []bind.Code{bind.InvalidValue}},
	// A loss under the key: the key's is listed first, then its repeat's,
	// as the trial check lists them.
	{1, "{\"a\":{\"\xff\":[{\"\\ud800\":null}]}}", []bind.Code{kReplaced, kReplaced}},
	{1, "{\"m\":{\"\xff\":9007199254740993}}", []bind.Code{kReplaced, bind.RoundedNumber}},
	{1, "{\"a\":{\"\xff\":1,\"\xfe\":[{\"\\ud800\":1}]}}", []bind.Code{kReplaced, kReplaced, kDup, kReplaced}},
	{1, "{\"m\":{\"\xff\":1,\"\xfe\":9007199254740993}}", []bind.Code{kReplaced, kReplaced, kDup, bind.RoundedNumber}},
	{1, "{\"a\":{\"k\":1,\"\xff\":{\"\xfe\":{\"\\ud800\":[9007199254740993]}}}}", []bind.Code{kReplaced, kReplaced, kReplaced, bind.RoundedNumber}},
}

// TestSegmentIO_ReplacedKeys: a key whose text segmentio replaces is the
// one pass's verdict, the trial check's (and the binder fails exactly when
// the verdict holds a failure: checkProven), where it binds no field, or
// keys a map (string keys or integer) or any, with a loss under it or
// not: two keys of one replaced text are a repeat.
func TestSegmentIO_ReplacedKeys(t *testing.T) {
	for _, tc := range segReplacedKeys {
		plan, err := segmentio.Binder.Compile(nativeFixed[tc.fixed])
		if err != nil {
			t.Fatal(err)
		}
		args := []byte(tc.args)
		issues, ok := decidedProven(t, plan, args)
		if !ok {
			continue
		}
		if kinds := kindsOf(issues); !reflect.DeepEqual(kinds, tc.want) {
			t.Errorf("%q: %v, want %v", tc.args, kinds, tc.want)
		}
	}
}
