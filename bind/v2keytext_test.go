package bind_test

import (
	"strconv"
	"testing"
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
