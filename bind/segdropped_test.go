package bind_test

import (
	"reflect"
	"testing"

	segjson "github.com/segmentio/encoding/json"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segDroppedStrings are calls of fixed shape 1 (trialArgs) whose dropped
// strings, top-level and under a nested struct's unknown key, hold
// escapes, lone surrogates, invalid UTF-8 or bytes past ASCII; without is
// the same call with those members left out.
var segDroppedStrings = []struct {
	args, without string
	want          []bind.Code
}{
	{`{"zzz":"\ud800"}`, `{}`, []bind.Code{kUnknown}},
	{"{\"zzz\":\"\xff\"}", `{}`, []bind.Code{kUnknown}},
	{"{\"zzz\":\"a\xed\xa0\x80\\udc00\\u0000\\\"\\n\xc3\xa9\",\"i\":1}", `{"i":1}`, []bind.Code{kUnknown}},
	{`{"s":"x","zz":"\uD83D\uDE00","zy":"\uDE00\uD83D","i":2}`, `{"s":"x","i":2}`, []bind.Code{kUnknown, kUnknown}},
	{`{"n":{"x":1,"zz":"\ud800"},"ns":[{"q":"\u00e9\t"}]}`, `{"n":{"x":1},"ns":[{}]}`, []bind.Code{kUnknownField, kUnknownField}},
	{"{\"np\":{\"w\":\"\x80\x80\"}}", `{"np":{}}`, []bind.Code{kUnknownField}},
	{`{"zzz":"\ud800","i":"x"}`, `{"i":"x"}`, []bind.Code{kUnknown, kWrong}},
	{`{"n":{"zz":"\ud800","x":"y"}}`, `{"n":{"x":"y"}}`, []bind.Code{kWrong}},
}

// TestSegmentIO_DroppedStrings: a dropped string is the one pass's
// verdict, the trial check's, whatever its text: segmentio's parseValue
// skips it checking its syntax only (the lexer's), no UTF-8 and no
// surrogate, and replaces nothing, so the call decodes as it does with
// the member left out, held to segmentio's own decode.
func TestSegmentIO_DroppedStrings(t *testing.T) {
	plan, err := segmentio.Binder.Compile(nativeFixed[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range segDroppedStrings {
		args := []byte(tc.args)
		issues, ok := decidedProven(t, plan, args)
		if !ok {
			continue
		}
		if kinds := kindsOf(issues); !reflect.DeepEqual(kinds, tc.want) {
			t.Errorf("%q: %v, want %v", tc.args, kinds, tc.want)
		}
		var got, want trialArgs
		err := segmentio.Binder.Unmarshal(args, &got)
		werr := segjson.Unmarshal([]byte(tc.without), &want)
		if (err != nil) != (werr != nil) || !reflect.DeepEqual(got, want) {
			t.Errorf("%q: segmentio reads %+v (%v), without the dropped members %+v (%v)", tc.args, got, err, want, werr)
		}
	}
}
