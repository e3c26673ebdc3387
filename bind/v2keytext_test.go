package bind_test

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/internal/bindcap"
)

// v2KeyTextVerdicts are calls with keys V2 fails on (invalid UTF-8, a
// lone surrogate escape), whose verdict V2's one pass gives itself, issue
// for issue the trial check's (checkProven).
var v2KeyTextVerdicts = []v2Row{
	{1, `{"\ud800":1}`},
	{1, "{\"n\":{\"\xff\":1}}"},
	{1, `{"n":{"x":1,"\udc00":2}}`},
	{1, `{"m":{"\ud800":1}}`},
	{1, `{"a":{"k\ud800":1}}`},
	{1, `{"a":[{"\ud800":1}]}`},
	{0, `{"zzz":{"\ud800":1}}`},
	{1, `{"i":{"\ud800":1}}`},
	{1, `{"b":{"\ud800":1}}`},
	{1, "{\"\xff\":1,\"i\":\"x\"}"},
	{1, `{"i":1,"\ud800":1,"zz":{"a":"\ud800"}}`},
	{0, `{"count":1,"\ud800":1,"count":2}`},
	{0, "{\"\xff\":1,\"\xef\xbf\xbd\":2}"},
	{0, "{\"\xef\xbf\xbd\":1,\"count\":\"x\",\"\xff\":2}"},
	{0, "{\"\xff\":1,\"\xfe\":2}"},
	{0, "{\"\xff\":1,\"\xff\":2,\"count\":\"x\"}"},
	{0, `{"\ud800":1,"\udc00":2,"\ud800":3}`},
	{1, "{\"\xc3\xa9\":1,\"\xff\":2,\"\xc3\xa9\":3}"},
	{0, `{"\ud800":1,"\ufffd":2}`},
	{0, "{\"\xff\":1,\"\\ufffd\":2,\"\xef\xbf\xbd\":3}"},
	{0, "{\"\xff\":1,\"\\u0041\":2,\"\\ufffd\":3}"},
	{0, "{\"\xff\":1,\"\\u0041\":2,\"\xff\":3,\"A\":4}"},
}

// TestV2KeyText_NoRepeatOfInvalidText: V2 fails on a top-level key of
// invalid text as it reads it, so no such key is a name, nor repeats
// one: the check lists V2's error at the first key's first invalid
// byte, and no repeated name but a real one. (The trial check told
// repeats by the text replaced, and named "\xff" then "\xfe" a repeated
// name, which V2 never reads.)
func TestV2KeyText_NoRepeatOfInvalidText(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(nativeFixed[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args    string
		at      int // V2's error
		repeats int // real repeated names
	}{
		{"{\"\xff\":1,\"\xfe\":2}", 2, 0},
		{"{\"\xff\":1,\"\xef\xbf\xbd\":2}", 2, 0},
		{"{\"\xef\xbf\xbd\":1,\"\xff\":2}", 10, 0},
		{`{"\ud800":1,"\ufffd":2}`, 2, 0},
		{"{\"\xff\":1,\"\\ufffd\":2,\"\xef\xbf\xbd\":3}", 2, 1},
		{"{\"\xff\":1,\"\\u0041\":2,\"\\ufffd\":3}", 2, 0},
		{"{\"\xff\":1,\"\\u0041\":2,\"\xff\":3,\"A\":4}", 2, 1},
		{"{\"\xff\":1,\"\xff\":2}", 2, 0},
		{`{"\ud800":1,"\udc00":2,"\ud800":3}`, 2, 0},
		{"{\"\xc3\xa9\":1,\"\xff\":2,\"\xc3\xa9\":3}", 9, 1},
	} {
		args := []byte(tc.args)
		if err := plan.Binder().Unmarshal(args, reflect.New(plan.Type()).Interface()); err == nil {
			t.Fatalf("%q: V2 reads it", args)
		}
		for _, check := range []func([]byte, []bind.Issue) []bind.Issue{plan.Check, trialCheckOf(plan)} {
			issues := check(args, nil)
			repeats, first := 0, -1
			for _, is := range issues {
				if _, _, dup := bindcap.DuplicateName(plan.Binder(), is.Err); dup {
					repeats++
				} else if is.Kind == bind.InvalidJSON && first < 0 {
					first = is.Start
				}
			}
			if repeats != tc.repeats || first != tc.at {
				t.Errorf("%q: %d repeated names, V2's error at %d; want %d, at %d: %s", args, repeats, first, tc.repeats, tc.at, brief(issues))
			}
		}
	}
}

// TestV2KeyText_Verdicts: V2's one pass gives the verdict of each call,
// the trial check's.
func TestV2KeyText_Verdicts(t *testing.T) {
	checkV2Verdicts(t, v2KeyTextVerdicts)
}

// v2DroppedKeyVerdicts are calls with top-level keys past ASCII or with
// escapes that V2 drops, whose verdict V2's one pass gives itself: V2
// tells a dropped name repeated by its text, which for a key of no escape
// is its bytes as sent, and the pass by its text from the first escaped
// key on.
var v2DroppedKeyVerdicts = []v2Row{
	{0, "{\"qu\xc3\xa9ry\":\"x\"}"},
	{0, "{\"qu\xc3\xa9ry\":\"x\",\"qu\xc3\xa9ry\":1}"},
	{0, "{\"\xc3\xa9\":1,\"\xc3\xa8\":2,\"\xc3\xa9\":3,\"\xc3\xa9\":4,\"count\":\"x\"}"},
	{0, "{\"\xe2\x84\xaa\":1,\"k\":2,\"K\":3}"}, // the Kelvin sign, which folds to K: dropped, no case:ignore field
	{0, "{\"zz\":1,\"zz\":[1,\"\xc3\xa9\"],\"\xc3\xa9\":{\"\xc3\xa9\":1,\"\xc3\xa9\":2}}"},
	{1, "{\"HOURS_B\xc3\xa0CK\":1,\"hours_back\":2}"},
	{1, "{\"i\":1,\"\xc3\xa9\":1,\"\xed\x9f\xbf\":2,\"\xf0\x9f\x98\x80\":{\"a\":\"\xc3\xa9\"}}"},
	{0, `{"a\u0000":1}`},
	{0, `{"a\u0000":1,"a\u0000":2}`},
	{0, `{"a":1,"\u0061":2}`},                   // one name to V2, two spellings
	{0, `{"\u0061":1,"a":2,"a":3,"\u0061":4}`},  // listed once
	{0, `{"a":1,"a":2,"\u0061":3,"count":"x"}`}, // listed once, before the escape too
	{0, "{\"qu\xc3\xa9ry\":1,\"qu\\u00e9ry\":2}"},
	{0, `{"zz":1,"z\u007a":{"a":1,"\u0061":2},"\/":1,"/":2,"\"":3}`},
	{1, `{"HOURS_B\u00e0CK":1,"hours_back":2,"n":{"x":"y"}}`},
	{0, `{` + seq(200, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }) + `,"k\u0035":2}`}, // past the table's first size
}

// TestV2DroppedKeys_Verdicts: V2's one pass gives the verdict of each
// call, the trial check's.
func TestV2DroppedKeys_Verdicts(t *testing.T) {
	checkV2Verdicts(t, v2DroppedKeyVerdicts)
}
