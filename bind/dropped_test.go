package bind

import (
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindguard/bindguard/internal/bindcap"
)

// droppedPrefix is n members of unknown keys, each value of another kind
// droppedRun reads, and a comma after the last.
func droppedPrefix(n int) string {
	var b strings.Builder
	vals := []string{`0`, `-1.5e3`, `"v"`, `true`, `false`, `null`, ` 7 `}
	for i := range n {
		fmt.Fprintf(&b, `"u%04d":%s,`, i, vals[i%len(vals)])
	}
	return b.String()
}

// droppedTails follow a few unknown keys, or MaxIssues of them: members droppedRun reads and
// members it leaves to object's loop, in either order, and text that is
// not JSON where each of its reads would fail.
var droppedTails = []string{
	`"hours":1}`, `"zz":1}`, `"zz":1 , "hours" : 2 }`, `"u0001":1}`, `"u0001":1,"u0001":2}`,
	`"hours":1,"hours":2}`, `"Hours":1,"zz":2}`, `"FOLD":"x","zz":1}`, `"fold":"x","FOLD":"y","zz":1}`,
	`"z\u007a":1,"zz":2}`, "\"z\xc3\xa9\":1,\"zz\":2}", "\"z\xff\":1}", `"zz":"\u00e9","zy":1}`, "\"zz\":\"\xff\"}",
	"\"zz\":\"a\tb\"}", `"zz":{"a":1,"a":2},"zy":1}`, `"zz":[1,2],"zy":1}`, `"zz":01}`, `"zz":1.}`, `"zz":-}`,
	`"zz":tru}`, `"zz":nul}`, `"zz":1,}`, `"zz":1 "zy":2}`, `"zz" 1}`, `"zz":}`, `"zz":1`, `"zz":1]`, `"zz`,
	`"zz":"x`, `}`, `"h":1}`, `"h":1,"zz":2}`, `"x1":1,"x2":2}`, `"zz":1}x`, `"zz":1} `, `"":1}`, `"a.b":1}`,
	`"tags":{"a":1},"zz":1}`, `"any":[1,{"b":2}],"zz":null}`, `"name":"n","zz":1,"name":"m"}`,
}

// droppedPolicies are the top-level key policies droppedRun reads with.
var droppedPolicies = []bindcap.TopKeys{
	{},
	bindcap.NewTopKeys([]string{"x1", "u0003"}, nil),
	bindcap.NewTopKeys(nil, map[string]string{"h": "hours"}),
	func() bindcap.TopKeys {
		k := bindcap.NewTopKeys([]string{"x2"}, map[string]string{"h": "hours", "zy": "name"})
		k.BindAliases = true
		return k
	}(),
}

// checkBothWays is checkConstrained on args with droppedRun and without.
func checkBothWays(p *Plan, args []byte, top bindcap.TopKeys) (fast, slow []Issue, fastMs, slowMs bindcap.Members) {
	fast, fastMs = checkConstrainedV(p, args, nil, nil, top)
	slowDrops = true
	defer func() { slowDrops = false }()
	slow, slowMs = checkConstrainedV(p, args, nil, nil, top)
	return fast, slow, fastMs, slowMs
}

// sameBothWays says how the verdicts of plan's check on args differ with
// droppedRun and without, or "".
func sameBothWays(p *Plan, args []byte, top bindcap.TopKeys) string {
	fast, slow, fastMs, slowMs := checkBothWays(p, args, top)
	if !reflect.DeepEqual(fast, slow) {
		return fmt.Sprintf("%s %q: issues\n%v\nwithout droppedRun\n%v", p.Binder().Name(), tail(args), fast, slow)
	}
	if !reflect.DeepEqual(fastMs, slowMs) {
		return fmt.Sprintf("%s %q: members\n%+v\nwithout droppedRun\n%+v", p.Binder().Name(), tail(args), fastMs, slowMs)
	}
	return ""
}

func tail(args []byte) []byte { return args[max(0, len(args)-60):] }

// TestCheck_DroppedRunSameVerdict: the members droppedRun reads (unknown
// keys, before and past MaxIssues of them) get, on every binder and under
// every top-level policy, the verdict object's loop gives them: issues,
// counts and members, whatever follows them, JSON or not.
func TestCheck_DroppedRunSameVerdict(t *testing.T) {
	prefix := "{" + droppedPrefix(MaxIssues+3)
	for _, b := range membersBinders {
		p, err := b.Compile(reflect.TypeFor[membersArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, top := range droppedPolicies {
			for _, tl := range droppedTails {
				for _, args := range []string{prefix + tl, prefix + `"u0002":1,` + droppedPrefix(5) + tl, "{" + tl, "{" + droppedPrefix(3) + tl, `{"hours":1,` + droppedPrefix(2) + `"name":"n",` + droppedPrefix(2) + tl} {
					if err := sameBothWays(p, []byte(args), top); err != "" {
						t.Error(err)
					}
				}
			}
		}
	}
}

// TestCheck_DroppedRunReadsThePastUnknowns: droppedRun, not object's
// loop, reads the unknown keys of a call after the first, on every binder,
// before and past MaxIssues of them.
func TestCheck_DroppedRunReadsThePastUnknowns(t *testing.T) {
	droppedRead = new(atomic.Int64)
	defer func() { droppedRead = nil }()
	const n = 3 * MaxIssues
	for _, b := range []Binder{Std, V2, SegmentIO} { // a Reader's verdict is its decode's
		p, err := b.Compile(reflect.TypeFor[membersArgs]())
		if err != nil {
			t.Fatal(err)
		}
		droppedRead.Store(0)
		p.Check([]byte("{"+droppedPrefix(n)+`"hours":1}`), nil)
		// The loop reads the first, and droppedRun the others.
		if got := droppedRead.Load(); got != n-1 {
			t.Errorf("%s: droppedRun read %d of the %d unknown keys after the first", b.Name(), got, n-1)
		}
	}
}

// FuzzCheck_DroppedRunSameVerdict: whatever follows a few unknown keys,
// droppedRun's verdict is the loop's (past MaxIssues of them, the table
// above: a call that long makes a slow fuzz target).
func FuzzCheck_DroppedRunSameVerdict(f *testing.F) {
	for _, tl := range droppedTails {
		f.Add(tl)
	}
	prefix := "{" + droppedPrefix(8)
	var plans []*Plan
	for _, b := range []Binder{Std, V2, SegmentIO} { // a Reader's verdict is its decode's
		p, err := b.Compile(reflect.TypeFor[membersArgs]())
		if err != nil {
			f.Fatal(err)
		}
		plans = append(plans, p)
	}
	f.Fuzz(func(t *testing.T, tl string) {
		for _, p := range plans {
			for _, top := range droppedPolicies {
				if err := sameBothWays(p, []byte(prefix+tl), top); err != "" {
					t.Fatal(err)
				}
			}
		}
	})
}
