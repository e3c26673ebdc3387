package bind_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// wrongTexts are strings with an escape or a byte past ASCII, sent where
// a string is the wrong kind: valid text (an escaped letter, a pair, an
// escaped quote, NUL, é as sent and escaped) and text each binder
// replaces or fails on (a lone surrogate, invalid UTF-8).
var wrongTexts = []string{
	`"\u0041"`, `"é"`, `"\u00e9"`, `"a\nb"`, `"\ud83d\ude00"`, `"\u0000"`, `"\/"`, `"\"x\""`, `"\\"`, `"1\u0030"`,
	`"\ud800"`, "\"\xff\"", "\"\xed\xa0\x80\"", "\"a\xffb\\n\"", `"\udc00\ud800"`,
}

// TestNative_WrongKindText: a string with an escape or a byte past ASCII
// where the position reads no string is the binder's failure on the
// string's kind (WrongType, at the value), whatever its text, or, under
// V2, where the text is not valid UTF-8, V2's on the text (InvalidValue):
// the pass gives the verdict, at the top level, inside an argument, after
// another failure and before one, on both binders, as the trial check
// does and the binder fails (checkProven).
func TestNative_WrongKindText(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[trialArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range wrongTexts {
			for _, form := range []string{
				`{"i":V}`, `{"u8":V}`, `{"f":V}`, `{"f32":V}`, `{"b":V}`, `{"p":V}`, `{"arr":V}`, `{"arr":[1,V]}`, `{"m":V}`, `{"m":{"k":V}}`,
				`{"n":V}`, `{"np":V}`, `{"ns":V}`, `{"ns":[{"x":1},{"x":V}]}`, `{"n":{"x":V}}`, `{"n":{"z":[V]}}`, `{"n":{"in":{"x":V}}}`,
				`{"deep":[[{"x":V}]]}`, `{"hours_back":V}`, `{"i":V,"f":"x"}`, `{"f":"x","i":V}`, `{"n":{"x":V,"z":1}}`, `{"n":{"z":1,"x":V}}`,
				`{"i":V,"zz":1,"s":"x"}`, `{"i":V,"i":1}`,
			} {
				args := []byte(strings.ReplaceAll(form, "V", v))
				checkProven(t, plan, args)
				if _, _, ok := bind.NativeVerdict(plan, args); !ok && !(b == segmentio.Binder && form == `{"i":V,"i":1}`) { // segmentio's repeated key in a call that fails: declined (nativeDeclines)
					trial, _ := bind.TrialVerdict(plan, args)
					t.Errorf("%s %.80q: the pass declines; the trial check says %s", b.Name(), args, brief(trial))
				}
			}
		}
	}
}
