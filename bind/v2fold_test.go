package bind_test

import "testing"

// v2FoldVerdicts are calls with a key V2 binds by a case:ignore fold whose
// value holds an issue, whose verdict V2's one pass gives itself, issue
// for issue the trial check's (the key's FoldedKey first).
var v2FoldVerdicts = []v2Row{
	{1, `{"HOURS_BACK":null}`},
	{1, `{"n":{"HOURS_BACK":null}}`},
	{1, `{"ns":[{"Hours-Back":null,"x":null}],"HoursBack":null,"zz":1}`},
	{1, `{"n":{"HOURS_BACK":null,"q":1}}`},
}

// TestV2Fold_Verdicts: V2's one pass gives the verdict of each call, the
// trial check's.
func TestV2Fold_Verdicts(t *testing.T) {
	checkV2Verdicts(t, v2FoldVerdicts)
}
