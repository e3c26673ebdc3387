package refuse_test

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
)

// floodSizes are the sizes of a flood the boundary tests send: below
// bind.MaxIssues, at it, past it and well past it. A verdict, its
// problems' codes and words, and the count of its problems must not
// depend on which side of the bound a flood is.
var floodSizes = []int{10, bind.MaxIssues - 1, bind.MaxIssues, bind.MaxIssues + 1, 5 * bind.MaxIssues}

// floodKeys returns n members of distinct keys no tool takes: "z0":1,
// "z1":1...
func floodKeys(n int) string {
	return seq(n, func(i int) string { return `"z` + strconv.Itoa(i) + `":1` })
}

// floodVerdict is what a decision says, but for what grows with a flood:
// refused, warned or passed; each problem listed but the unknown keys
// and those of the codes flood, all its fields but Sent (which quotes a
// value the flood may lie in); and how many problems it counts in all
// (listed, and More).
func floodVerdict(d refuse.Decision, flood ...refuse.Code) (verdict string, problems int) {
	var b strings.Builder
	more := 0
	switch {
	case d.Refusal != nil:
		b.WriteString("refused")
		more = d.Refusal.More
	case d.Warnings != nil:
		b.WriteString("warned")
		more = d.Warnings.More
	default:
		b.WriteString("passed")
	}
	ps := problemsOf(d)
	for _, p := range ps {
		if p.Code == refuse.UnknownArgument || slices.Contains(flood, p.Code) {
			continue
		}
		p.Sent = ""
		fmt.Fprintf(&b, "\n  %+v", p)
	}
	return b.String(), len(ps) + more
}

// checkFloodSizes decides the call call(n) for each flood size n, and
// fails unless the verdict (floodVerdict, the flood's codes left out) is
// the same at every size and the problems number exactly problems(n).
func checkFloodSizes(t *testing.T, name string, decide func(args []byte) refuse.Decision, call func(n int) string, problems func(n int) int, flood ...refuse.Code) {
	t.Helper()
	var first string
	for i, n := range floodSizes {
		v, count := floodVerdict(decide([]byte(call(n))), flood...)
		if i == 0 {
			first = v
			if !strings.HasPrefix(v, "refused") && !strings.HasPrefix(v, "warned") {
				t.Errorf("%s, %d: %s", name, n, v)
			}
		} else if v != first {
			t.Errorf("%s, %d: %s\nwant, as at %d: %s", name, n, v, floodSizes[0], first)
		}
		if want := problems(n); count != want {
			t.Errorf("%s, %d: %d problems (listed and More), want %d", name, n, count, want)
		}
	}
}
