package bind_test

import (
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
)

// v2FoldVerdicts are calls with a key V2 binds by a case:ignore fold whose
// value holds an issue, whose verdict V2's one pass gives itself, issue
// for issue the trial check's (the key's FoldedKey first).
var v2FoldVerdicts = []struct {
	fixed int // index in nativeFixed
	args  string
}{
	{1, `{"HOURS_BACK":null}`},
	{1, `{"n":{"HOURS_BACK":null}}`},
	{1, `{"ns":[{"Hours-Back":null,"x":null}],"HoursBack":null,"zz":1}`},
	{1, `{"n":{"HOURS_BACK":null,"q":1}}`},
}

// TestV2Fold_Verdicts: V2's one pass gives the verdict of each call, the
// trial check's.
func TestV2Fold_Verdicts(t *testing.T) {
	for _, tc := range v2FoldVerdicts {
		plan, err := jsonv2.Binder.Compile(nativeFixed[tc.fixed])
		if err != nil {
			t.Fatal(err)
		}
		args := []byte(tc.args)
		checkProven(t, plan, args)
		if _, _, ok := bind.NativeVerdict(plan, args); !ok {
			trial, _ := bind.TrialVerdict(plan, args)
			t.Errorf("%.80q: the pass declines; the trial check says %s", tc.args, brief(trial))
		}
	}
}
