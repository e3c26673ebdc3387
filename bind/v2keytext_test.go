package bind_test

import "testing"

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
