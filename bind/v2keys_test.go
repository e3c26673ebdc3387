package bind_test

import (
	"strconv"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/internal/bindcap"
)

// v2KeyVerdicts are calls whose verdict V2's one pass gives itself, issue
// for issue the trial check's (checkProven): names repeated inside a value,
// of every kind of object V2 reads for them, and past the top level's
// first names.
var v2KeyVerdicts = []struct {
	fixed int // index in nativeFixed
	args  string
}{
	// A name repeated inside an argument: V2 fails on it as it reads it,
	// InvalidValue at the object holding it, the path to that object.
	{1, `{"n":{"x":1,"x":2}}`},
	{1, `{"n":{"zz":1,"zz":2}}`},
	{1, `{"m":{"k":1,"k":2}}`},
	{1, `{"a":{"k":1,"k":2}}`},
	{1, `{"a":[1,{"b":{"k":1,"k":{}}}]}`},
	{1, `{"ns":[{"x":1},{"in":{"y":"a","y":"b"}}]}`},
	{1, `{"np":{"x":1,"x":"wrong"}}`},
	{1, `{"n":{"x":"wrong","x":1}}`},             // the failure before the repeat is V2's
	{1, `{"n":{"x":1,"x":2},"i":"wrong","s":1}`}, // and each argument's first failure after it
	{1, `{"n":{"hours_back":1,"HOURS_BACK":2}}`}, // a field bound by a fold, then exactly
	{1, `{"n":{"z":[1],"zz":{"q":1,"q":2}}}`},    // inside an unknown field's value
	{1, `{"i":{"a":1,"a":2}}`},                   // an object for an integer: V2 reads it whole
	{1, `{"s":[{"a":1,"a":2}]}`},                 // an array for a string: read whole too
	{1, `{"b":{"a":1,"a":2}}`},                   // an object for a bool: V2 fails at its brace
	{1, `{"sl":{"a":1,"a":2}}`},                  // an object for a list: at its brace
	{1, `{"n":[{"a":1,"a":2}]}`},                 // an array for a struct: at its bracket
	{1, `{"m":{"k":1,"k":2},"m":{}}`},            // a repeat inside, then one at the top level
	{1, `{"zz":{"k":1,"k":2}}`},                  // inside a dropped value: InvalidJSON at the name
	{0, `{"zzz":{"a":1,"a":2}}`},
	{0, `{"zzz":[{"a":{"b":1,"b":2}}],"zy":{"c":1,"c":2},"count":"x"}`},
	{0, `{"zzz":{"a":1,"a":2,"a":3},"zzz":1}`},
	{0, `{"window":{"from":"a","to":"b","from":"c"}}`},
}

// A v2Row is a call to a tool of nativeFixed whose verdict V2's one pass
// gives itself.
type v2Row struct {
	fixed int // index in nativeFixed
	args  string
}

// checkV2Verdicts holds V2's one pass to the trial check on each row
// (checkProven), and fails a row the pass declines.
func checkV2Verdicts(t *testing.T, rows []v2Row) {
	t.Helper()
	checkV2Rows(t, rows, true)
}

// checkV2Declines holds V2's one pass to the trial check on each row
// (checkProven), and fails a row the pass decides.
func checkV2Declines(t *testing.T, rows []v2Row) {
	t.Helper()
	checkV2Rows(t, rows, false)
}

// checkV2Rows holds V2's one pass to the trial check on each row, and
// fails a row the pass declines (decides, with decides false).
func checkV2Rows(t *testing.T, rows []v2Row, decides bool) {
	t.Helper()
	for _, tc := range rows {
		plan, err := jsonv2.Binder.Compile(nativeFixed[tc.fixed])
		if err != nil {
			t.Fatal(err)
		}
		args := []byte(tc.args)
		checkProven(t, plan, args)
		is, _, ok := bind.NativeVerdict(plan, args)
		switch {
		case decides && !ok:
			trial, _ := bind.TrialVerdict(plan, args)
			t.Errorf("%.80q: the pass declines; the trial check says %s", tc.args, brief(trial))
		case !decides && ok:
			t.Errorf("%.80q: the pass gives the verdict %s", tc.args, brief(is))
		}
	}
}

// TestV2Keys_Verdicts: V2's one pass gives the verdict of each call, the
// trial check's.
func TestV2Keys_Verdicts(t *testing.T) {
	for _, tc := range v2KeyVerdicts {
		plan, err := jsonv2.Binder.Compile(nativeFixed[tc.fixed])
		if err != nil {
			t.Fatal(err)
		}
		args := []byte(tc.args)
		checkProven(t, plan, args)
		if is, _, ok := bind.NativeVerdict(plan, args); !ok {
			trial, _ := bind.TrialVerdict(plan, args)
			t.Errorf("%.80q: the pass declines; the trial check says %s", tc.args, brief(trial))
		} else {
			for _, x := range is {
				if _, _, dup := bindcap.DuplicateName(plan.Binder(), x.Err); dup && x.Param >= 0 && x.Start < len(args) && args[x.Start] == '{' {
					if name, _, _ := bindcap.DuplicateName(plan.Binder(), x.Err); name == "" {
						t.Errorf("%.80q: the repeat inside an argument names no key: %v", tc.args, x.Err)
					}
				}
			}
		}
	}
}

// TestV2Keys_ManyRepeats: past 16 repeated top-level names (the bound the
// pass once declined past), and
// with a thousand, the pass gives the verdict itself, the trial check's;
// its allocations do not grow with the names repeated.
func TestV2Keys_ManyRepeats(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(nativeFixed[0])
	if err != nil {
		t.Fatal(err)
	}
	call := func(n int) []byte {
		return []byte(`{"count":1,"count":2,` + seq(n, func(i int) string {
			return `"k` + strconv.Itoa(i) + `":1,"k` + strconv.Itoa(i) + `":2,"k` + strconv.Itoa(i) + `":3`
		}) + `}`)
	}
	for _, n := range []int{17, 100, 1500} {
		args := call(n)
		checkProven(t, plan, args)
		if _, _, ok := bind.NativeVerdict(plan, args); !ok {
			t.Errorf("%d names repeated: the pass declines", n)
		}
	}
	var allocs []float64
	for _, n := range []int{100, 1000, 10000} {
		args := call(n)
		var is []bind.Issue
		allocs = append(allocs, testing.AllocsPerRun(5, func() { is = plan.Check(args, is[:0]) }))
		w0 := bind.WorkDone()
		plan.Check(args, is[:0])
		if w := bind.WorkDone() - w0; w > 3*int64(len(args)) {
			t.Errorf("%d names repeated: work %d for %d bytes, want one pass", n, w, len(args))
		}
	}
	if allocs[2] > allocs[0] || allocs[0] > 2 {
		t.Errorf("allocations for 100, 1,000, 10,000 repeated names: %v, want flat", allocs)
	}
}
