package bindtest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// faults words each way a verdict can differ; the guard-side ones cannot
// be provoked through the real guard while it agrees with encoding/json,
// so they are pinned here on made-up verdicts.
func TestFaults_WordsEachDifference(t *testing.T) {
	res := Result{Argument: "n", BinderError: "json: boom"}
	for _, tc := range []struct {
		name      string
		want, got verdict
		says      string
		faults    []string
	}{
		{"holds", verdict{BinderFails: true, Refused: true}, verdict{BinderFails: true, Refused: true}, "", nil},
		{"guard passes what the binder fails", verdict{BinderFails: true, Refused: true}, verdict{BinderFails: true},
			"", []string{"the guard passed a value the binder cannot read"}},
		{"guard refuses what the binder reads", verdict{}, verdict{Refused: true},
			"", []string{"the guard refused a value the binder reads"}},
		{"binder reads what the row refuses", verdict{BinderFails: true, Refused: true}, verdict{},
			"", []string{"the row says the binder fails on the value, but it reads it", "the guard passed a value the row says the binder cannot read"}},
		{"refusal names no argument, no words, no quote",
			verdict{BinderFails: true, Refused: true, NamesArgument: true, SaysPhrase: true, QuotesValue: true},
			verdict{BinderFails: true, Refused: true}, "too big",
			[]string{`the refusal does not name argument "n" (and no other) in a problem`, `the refusal does not say "too big"`, "the refusal does not quote the value sent, or a part of it"}},
	} {
		got := faults(Row{Says: tc.says}, res, tc.want, tc.got)
		if diff := cmp.Diff(tc.faults, got); diff != "" {
			t.Errorf("%s: faults (-want +got):\n%s", tc.name, diff)
		}
	}
}
