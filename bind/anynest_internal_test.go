package bind

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindguard/bindguard/internal/bindcap"
)

// nestArgs holds values in every position anyNest reads: an empty
// interface (a), the values of a map of them (m), a struct's unknown
// field's value and a top-level unknown key's (dropped: position nil).
type nestArgs struct {
	A any            `json:"a"`
	M map[string]any `json:"m"`
	S struct {
		B int `json:"b"`
	} `json:"s"`
}

// nestVerdict is everything a check of args tells: Check's issues and
// members (checkConstrained), and the one pass's verdict, members and
// whether it decides (a decline is a verdict too: it must not change).
type nestVerdict struct {
	issues   []Issue
	members  bindcap.Members
	native   []Issue
	nativeMs bindcap.Members
	decides  bool
}

func nestCheck(p *Plan, args []byte) nestVerdict {
	var v nestVerdict
	v.issues, v.members = checkConstrainedV(p, args, nil, nil, bindcap.TopKeys{})
	if p.root != nil && p.check != nil {
		c := new(checker)
		c.record, c.members = true, &v.nativeMs
		v.native, v.decides = p.native(c, args, nil)
	}
	return v
}

// sameBothNests says how plan's verdicts of args differ read by anyNest
// and level by level by object's and array's loops (slowAny), or "".
func sameBothNests(p *Plan, args []byte) string {
	fast := nestCheck(p, args)
	slowAny = true
	slow := nestCheck(p, args)
	slowAny = false
	if !reflect.DeepEqual(fast, slow) {
		return fmt.Sprintf("%s %.300q:\nanyNest  %+v\nby level %+v", p.Binder().Name(), args, fast, slow)
	}
	return ""
}

var nestBinders = []Binder{Std, V2, SegmentIO}

func nestPlans(t testing.TB) []*Plan {
	var plans []*Plan
	for _, b := range nestBinders {
		p, err := b.Compile(reflect.TypeFor[nestArgs]())
		if err != nil {
			t.Fatal(err)
		}
		plans = append(plans, p)
	}
	return plans
}

// Keys and leaves the random trees take theirs from: keys that repeat,
// one by an escape ("\u0061" is "a"), keys a dotted path loses (empty,
// dotted, escaped), keys past ASCII, valid and not (invalid UTF-8, a lone
// surrogate); leaves the binders fail on (1e400), lose (a rounded
// integer, invalid text) or read.
var (
	nestKeys = []string{`"a"`, `"a"`, `"b"`, `""`, `"a.b"`, `"\u0061"`, `"\u00e9"`, "\"\xc3\xa9\"", "\"\xff\"", `"\ud800"`, `"k\"q"`}
	nestLeaf = []string{`0`, `1e400`, `"x"`, "\"\xff\"", `"\ud800"`, `true`, `null`, `-0.5`, `9007199254740993`, `{}`, `[]`, `"\u00e9"`}
)

// nestTree writes a random tree of arrays and objects: a spine of depth
// levels (each level's next value deeper), with siblings before and after.
func nestTree(r *rand.Rand, b *strings.Builder, depth int) {
	if depth <= 0 {
		b.WriteString(nestLeaf[r.Intn(len(nestLeaf))])
		return
	}
	object := r.Intn(3) > 0
	open, close := "[", "]"
	if object {
		open, close = "{", "}"
	}
	b.WriteString(open)
	before, after := r.Intn(3)*r.Intn(2), r.Intn(2)*r.Intn(2)
	for i := range before + 1 + after {
		if i > 0 {
			b.WriteString(",")
		}
		if object {
			b.WriteString(nestKeys[r.Intn(len(nestKeys))] + ":")
		}
		if i == before {
			nestTree(r, b, depth-1)
		} else {
			nestTree(r, b, r.Intn(3))
		}
	}
	b.WriteString(close)
}

// nestCalls wraps a tree in each position.
func nestCalls(tree string) []string {
	return []string{
		`{"a":` + tree + `}`,
		`{"m":{"k":` + tree + `,"j":1}}`,
		`{"zz":` + tree + `,"a":1}`,
		`{"s":{"zz":` + tree + `}}`,
		`{"a":[0,` + tree + `],"zz":` + tree + `}`,
	}
}

// TestCheck_AnyNestSameVerdict: arrays and objects nested in any and in
// dropped values, around a frame's last level (32) and past it, with
// repeated, escaped, dotted and invalid keys and leaves the binders fail
// on or lose, get from anyNest the verdict object's and array's loops
// give them, level by level: issues (paths, types, errors), members, and
// the one pass's verdict or its decline, on every binder; and so do the
// same calls cut short or spoiled at a random byte.
func TestCheck_AnyNestSameVerdict(t *testing.T) {
	plans := nestPlans(t)
	r := rand.New(rand.NewSource(11))
	depths := []int{1, 2, 3, 30, 31, 32, 33, 34, 63, 64, 65, 66, 100}
	n := 6
	if testing.Short() {
		n = 2
	}
	for _, tree := range []string{
		`[{"":1},1e400]`, `[{"a.b":{"c":1}},{"d":1e400}]`, `{"":{"":0},"x":1e400}`, `[{"\u002e":[]},"\ud800"]`,
		`{"x":0,"a.b":[1e400]}`, `{"k.k":{"a":1e400}}`, `{"ab.":0,"c":{".":{"d":1e400}}}`,
		`{"a":{"a":1,"a":2},"b":1e400}`, `{"a":[{"a":1},{"a":1,"\u0061":2}]}`, "{\"\xff\":1,\"\xff\":2}",
	} {
		for _, args := range nestCalls(tree) {
			for _, p := range plans {
				if err := sameBothNests(p, []byte(args)); err != "" {
					t.Fatal(err)
				}
			}
		}
	}
	for _, depth := range depths {
		for range n {
			var b strings.Builder
			nestTree(r, &b, depth)
			for _, args := range nestCalls(b.String()) {
				cut := r.Intn(len(args))
				spoiled := args[:cut] + string("x,]}:\""[r.Intn(6)]) + args[cut:]
				for _, a := range []string{args, args[:cut], spoiled} {
					for _, p := range plans {
						if err := sameBothNests(p, []byte(a)); err != "" {
							t.Fatal(err)
						}
					}
				}
			}
		}
	}
}

// TestCheck_AnyNestSameVerdictAtTheLimits: objects and arrays nested in
// any to each binder's limit and one past it, and MaxIssues of issues deep
// inside (every leaf fails, every key repeats), get the verdict the levels'
// loops give them.
func TestCheck_AnyNestSameVerdictAtTheLimits(t *testing.T) {
	plans := nestPlans(t)
	for _, p := range plans {
		limit := p.rules.depth
		if p.check == nil {
			limit = MaxDepth
		}
		for _, depth := range []int{limit - 2, limit - 1, limit} { // the arguments' object is a level
			for _, tree := range []string{
				strings.Repeat(`{"a":`, depth) + `0` + strings.Repeat(`}`, depth),
				strings.Repeat(`{"a":[`, depth/2) + `0` + strings.Repeat(`]}`, depth/2),
				strings.Repeat(`{"a":0,"a":`, depth) + `0` + strings.Repeat(`}`, depth),
			} {
				for _, args := range nestCalls(tree)[:3] {
					if err := sameBothNests(p, []byte(args)); err != "" {
						t.Fatal(err)
					}
				}
			}
		}
		many := `{` + strings.Repeat(`"x":1e400,`, MaxIssues+5) + `"x":1e400}`
		for _, tree := range []string{
			strings.Repeat(`{"a":`, 40) + many + strings.Repeat(`}`, 40),
			strings.Repeat(`{"a":0,"a":`, MaxIssues+5) + `0` + strings.Repeat(`}`, MaxIssues+5),
			strings.Repeat(`[{"k.k":1e400,"":`, 70) + `"` + "\xff" + `"` + strings.Repeat(`}]`, 70),
		} {
			for _, args := range nestCalls(tree) {
				if err := sameBothNests(p, []byte(args)); err != "" {
					t.Fatal(err)
				}
			}
		}
	}
}

// FuzzCheck_AnyNestSameVerdict: whatever value sits in any, in a map of
// any or in a dropped position, anyNest's verdict is the levels' loops'.
func FuzzCheck_AnyNestSameVerdict(f *testing.F) {
	r := rand.New(rand.NewSource(5))
	for _, depth := range []int{1, 3, 31, 33, 40} {
		var b strings.Builder
		nestTree(r, &b, depth)
		f.Add(b.String())
	}
	f.Add(`{"a":{"a":1,"a":2}}`)
	f.Add(`{"\u0061":{"b":[1,{"a":1e400}]},"a":0}`)
	f.Add("{\"\xff\":{\"\xff\":1}}")
	plans := nestPlans(f)
	f.Fuzz(func(t *testing.T, tree string) {
		for _, args := range nestCalls(tree) {
			for _, p := range plans {
				if err := sameBothNests(p, []byte(args)); err != "" {
					t.Fatal(err)
				}
			}
		}
	})
}

// TestCheck_AnyNestFrames: objects nested in any (and objects and arrays
// in turn) open a frame per anyLevels levels, not one a level: a call
// 9,999 levels deep opens at most ten times the frames of one 999 deep,
// and a frame at most per 31 levels; the work (bytes read) and the
// allocations grow with the call's size.
func TestCheck_AnyNestFrames(t *testing.T) {
	anyFrames = new(atomic.Int64)
	defer func() { anyFrames = nil }()
	for _, p := range nestPlans(t) {
		for _, shape := range []struct {
			name string
			tree func(n int) string
		}{
			{"objects", func(n int) string { return strings.Repeat(`{"a":`, n-1) + `{}` + strings.Repeat(`}`, n-1) }},
			{"objects and arrays", func(n int) string { return strings.Repeat(`{"a":[`, n/2) + strings.Repeat(`]}`, n/2) }},
			{"wide objects", func(n int) string {
				return strings.Repeat(`{"x":1,"y":"z","a":`, n-1) + `{}` + strings.Repeat(`}`, n-1)
			}},
		} {
			var frames, works []int64
			var sizes []int
			for _, n := range []int{999, 9999} {
				n = min(n, p.rules.depth-1)
				if p.check == nil {
					n = min(n, MaxDepth-1)
				}
				args := []byte(`{"a":` + shape.tree(n) + `}`)
				if is := p.Check(args, nil); len(is) != 0 {
					t.Fatalf("%s %s %d deep: %v", p.Binder().Name(), shape.name, n, is)
				}
				anyFrames.Store(0)
				w0 := workDone.Load()
				if p.check != nil {
					p.prove(new(checker), args)
				} else {
					p.Check(args, nil)
				}
				frames, works, sizes = append(frames, anyFrames.Load()), append(works, workDone.Load()-w0), append(sizes, len(args))
				if got := frames[len(frames)-1]; got > int64(n/(anyLevels-1)+2) {
					t.Errorf("%s %s %d deep: %d frames, want at most %d", p.Binder().Name(), shape.name, n, got, n/(anyLevels-1)+2)
				}
				if allocs := testing.AllocsPerRun(5, func() { p.Check(args, nil) }); allocs != 0 {
					t.Errorf("%s %s %d deep: %.0f allocations", p.Binder().Name(), shape.name, n, allocs)
				}
			}
			if works[1]*int64(sizes[0]) > 2*works[0]*int64(sizes[1]) {
				t.Errorf("%s %s: work %v for sizes %v", p.Binder().Name(), shape.name, works, sizes)
			}
		}
	}
}
