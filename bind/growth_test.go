package bind_test

import (
	"errors"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// The growth tests: every shape of call, at 1x, 10x and 100x of a payload,
// costs each binder's Check work and memory in proportion to its size. No
// clock is read: work is bind.WorkDone (the bytes the checkers scan, read
// again, hand the binder and write as paths), memory the bytes and the
// allocations of a call.

// growthNode is a recursive struct: it is read at any depth.
type growthNode struct {
	Next *growthNode  `json:"next"`
	Kids []growthNode `json:"kids"`
	V    int          `json:"v"`
}

type growthArgs struct {
	Any  any               `json:"any"`
	Meta map[string]any    `json:"meta"`
	Node *growthNode       `json:"node"`
	Grid [][][][]int       `json:"grid"`
	Ints []int             `json:"ints"`
	Name string            `json:"name"`
	Tags map[string]string `json:"tags"`
	Lows map[lowKey]any    `json:"lows"`
	// Keys "null" segmentio reads as 0 (NullForValue at the key), and
	// byte lists whose null elements are left 0.
	IntKeys map[int]int `json:"int_keys"`
	Bytes   [][]byte    `json:"bytes"`
	// Two case:ignore fields V2 folds alike: a key "USERID" fits both, and
	// go-json-experiment fails on it (AmbiguousArgument).
	UserID  int `json:"user_id,case:ignore"`
	UserId2 int `json:"userId,case:ignore"`
}

// lowKey is a map key its UnmarshalText folds to lower case: "a" and "A"
// are one key.
type lowKey string

func (k *lowKey) UnmarshalText(b []byte) error {
	*k = lowKey(strings.ToLower(string(b)))
	return nil
}

// A growthShape builds a call of scale k (1, 10, 100).
type growthShape struct {
	name string
	args func(k int) string
	// required: the shape is checked with gNode's "v" required at every
	// depth (Plan.WithRequired), so each level of it is Missing.
	required bool
}

const rounds = "9007199254740993" // an integer past 2^53: a float64 rounds it

func rep(s string, n int, sep string) string {
	return strings.TrimSuffix(strings.Repeat(s+sep, n), sep)
}

func arrays(depth int, inner string) string {
	return strings.Repeat("[", depth) + inner + strings.Repeat("]", depth)
}

// objects nests inner in depth objects, each under key.
func objects(depth int, key, inner string) string {
	return strings.Repeat(`{"`+key+`":`, depth) + inner + strings.Repeat("}", depth)
}

func seq(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f(i))
	}
	return b.String()
}

var growthShapes = []growthShape{
	{name: "deep, one failure", args: func(k int) string { return `{"any":` + arrays(30*k, "1e400") + `}` }},
	{name: "deep, many losses", args: func(k int) string { return `{"any":` + arrays(13*k, rep(rounds, 10*k, ",")) + `}` }},
	{name: "deep, many failures", args: func(k int) string { return `{"any":` + arrays(13*k, rep("1e400", 10*k, ",")) + `}` }},
	{name: "wide, many losses", args: func(k int) string {
		return `{"meta":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":` + rounds }) + `}}`
	}},
	{name: "wide, many failures", args: func(k int) string {
		return `{"tags":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }) + `}}`
	}},
	{name: "repeated keys, deep", args: func(k int) string {
		return `{"meta":` + objects(13*k, "a", `{`+rep(`"x":1`, 10*k, ",")+`}`) + `}`
	}},
	{name: "repeated keys on a failure's path, deep", args: func(k int) string {
		return `{"meta":` + strings.Repeat(`{"k":[1],"k":`, 13*k) + "1e400" + strings.Repeat("}", 13*k) + `}`
	}},
	{name: "repeated keys after a failure's path, deep", args: func(k int) string {
		return `{"meta":` + strings.Repeat(`{"k":`, 13*k) + "1e400" + strings.Repeat(`,"k":[1]}`, 13*k) + `}`
	}},
	{name: "empty keys below a failure's path, deep", args: func(k int) string {
		return `{"meta":{"a":` + objects(13*k, "", `[1e400]`) + `}}`
	}},
	{name: "keys a key type reads alike, many losses", args: func(k int) string {
		return `{"lows":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":[` + rounds + `],"K` + strconv.Itoa(i) + `":1` }) + `}}`
	}},
	{name: "integer keys \"null\", many losses", args: func(k int) string {
		return `{"int_keys":{` + rep(`"null":1,"1":null`, 100*k, ",") + `}}`
	}},
	{name: "byte lists of nulls, many losses", args: func(k int) string {
		return `{"bytes":[` + rep(`[1,null],"AQ=="`, 100*k, ",") + `]}`
	}},
	{name: "repeated top-level key", args: func(k int) string { return `{` + rep(`"name":"x"`, 100*k, ",") + `}` }},
	{name: "repeated top-level key, distinct values", args: func(k int) string {
		return `{` + seq(100*k, func(i int) string { return `"name":"x` + strconv.Itoa(i) + `"` }) + `}`
	}},
	{name: "repeated top-level key, each value bad", args: func(k int) string {
		return `{` + seq(100*k, func(i int) string { return `"ints":[` + strconv.Itoa(i) + `,"x"]` }) + `}`
	}},
	{name: "long keys, deep, many losses", args: func(k int) string {
		return `{"any":` + objects(13*k, strings.Repeat("k", 100), arrays(1, rep(rounds, 10*k, ","))) + `}`
	}},
	{name: "long escaped keys, deep, many losses", args: func(k int) string {
		return `{"any":` + objects(13*k, strings.Repeat(`\u00e9`, 50), arrays(1, rep(rounds, 10*k, ","))) + `}`
	}},
	{name: "unprintable keys, deep, many losses", args: func(k int) string {
		return `{"any":` + objects(13*k, strings.Repeat(`\udb40\udc01`, 50), arrays(1, rep(rounds, 10*k, ","))) + `}`
	}},
	{name: "one long key, many losses", args: func(k int) string {
		return `{"any":` + objects(1, strings.Repeat("k", 100*k), arrays(1, rep(rounds, 10*k, ","))) + `}`
	}},
	{name: "one long escaped key, many losses", args: func(k int) string {
		return `{"any":` + objects(1, strings.Repeat(`\u00e9`, 82*k), arrays(1, rep(rounds, 10*k, ","))) + `}`
	}},
	{name: "recursive struct, deep, wrong-typed elements", args: func(k int) string {
		return `{"node":` + objects(13*k, "next", `{"kids":[`+rep(`{"v":"x"}`, 10*k, ",")+`]}`) + `}`
	}},
	{name: "recursive struct, deep, one failure", args: func(k int) string {
		return `{"node":` + objects(30*k, "next", `{"v":"x"}`) + `}`
	}},
	{name: "recursive struct, deep, missing fields", required: true, args: func(k int) string {
		return `{"node":` + objects(30*k, "next", `{}`) + `}`
	}},
	{name: "nested slices, wrong-typed elements", args: func(k int) string {
		return `{"grid":` + arrays(4, rep(`"x"`, 100*k, ",")) + `}`
	}},
	{name: "ambiguous keys, each text once", args: func(k int) string {
		// "user" and "id" around i's bits as '-' and '_': V2 folds each to
		// "userid", and no two are alike as sent.
		return `{` + seq(100*k, func(i int) string {
			return `"user` + strings.NewReplacer("0", "-", "1", "_").Replace(strconv.FormatInt(int64(i), 2)) + `ID":1`
		}) + `}`
	}},
	{name: "one ambiguous key, sent again", args: func(k int) string { return `{` + rep(`"USERID":{"a":1,"a":2}`, 100*k, ",") + `}` }},
	{name: "deep x wide x many", args: func(k int) string {
		level := seq(2*k, func(i int) string { return `"a` + strconv.Itoa(i) + `":` + rounds })
		return `{"any":` + strings.Repeat(`{`+level+`,"z":`, 12+k) + arrays(1, rep(rounds, 10*k, ",")) + strings.Repeat("}", 12+k) + `}`
	}},
	{name: "deep x wide x many failures", args: func(k int) string {
		level := seq(2*k, func(i int) string { return `"a` + strconv.Itoa(i) + `":1e400` })
		return `{"node":{"kids":[` + rep(`{"v":1.5}`, 10*k, ",") + `]},"any":` + strings.Repeat(`{`+level+`,"z":`, 12+k) +
			arrays(1, rep("1e400", 10*k, ",")) + strings.Repeat("}", 12+k) + `}`
	}},
}

// growthCost is what one call cost, beyond two of the binder's own
// decodes of it: the guard decodes the call once with the binder, and, when
// it fails, each argument alone; what the binder allocates is the server's
// own cost (segmentio's error for a deep value allocates in proportion to
// the square of its depth, up to its limit of 1,000).
type growthCost struct {
	size   int
	work   int64
	allocs float64
	bytes  uint64
	issues int
}

func measureCheck(plan *bind.Plan, args []byte) growthCost {
	w0 := bind.WorkDone()
	issues := plan.Check(args, nil)
	c := growthCost{size: len(args), work: bind.WorkDone() - w0, issues: len(issues)}
	allocs, bytes := memCost(func() { plan.Check(args, nil) }) // warmed up by the call above
	if plan.Binder() != bind.Std {
		decode := func() { _ = plan.Binder().Unmarshal(args, reflect.New(plan.Type()).Interface()) }
		decode()
		bAllocs, bBytes := memCost(decode)
		allocs -= min(allocs, 2*bAllocs)
		bytes -= min(bytes, 2*bBytes)
	}
	c.allocs, c.bytes = float64(allocs), bytes
	return c
}

// memCost returns the allocations and the bytes allocated by one run of f.
func memCost(f func()) (allocs, bytes uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}

// assertLinear fails unless each cost of a larger call is, per byte of
// input, at most twice the 1x call's (plus a little, for the fixed costs
// of a small call).
func assertLinear(t *testing.T, costs []growthCost, scales []int) {
	t.Helper()
	base := costs[0]
	per := func(v float64, c growthCost) float64 { return v / float64(c.size) }
	for i, c := range costs[1:] {
		k := scales[i+1]
		for _, m := range []struct {
			what      string
			got, base float64
			slack     float64
		}{
			{"work", float64(c.work), float64(base.work), 1},
			{"allocated bytes", float64(c.bytes), float64(base.bytes), 64},
			{"allocations", c.allocs, base.allocs, 1},
		} {
			if per(m.got, c) > 2*per(m.base, base)+m.slack {
				t.Errorf("%dx (%d bytes, %d issues): %s %.0f, %.2f per byte of input; at 1x (%d bytes) %.0f, %.2f per byte",
					k, c.size, c.issues, m.what, m.got, per(m.got, c), base.size, m.base, per(m.base, base))
			}
		}
	}
}

var growthScales = []int{1, 10, 100}

func growthPlan(t testing.TB, b bind.Binder, required bool) *bind.Plan {
	plan, err := b.Compile(reflect.TypeFor[growthArgs]())
	if err != nil {
		t.Fatal(err)
	}
	if required {
		plan = plan.WithRequired(nil, func(t reflect.Type) []string {
			if t == reflect.TypeFor[growthNode]() {
				return []string{"v"}
			}
			return nil
		})
	}
	return plan
}

// TestCheck_CostGrowsLinearly: for every shape and every binder, Check's
// work, allocated bytes and allocations per byte of input stay flat from
// 1x to 100x of the payload: a problem deep inside an argument, many
// problems, long keys, repeated keys, each alone and all at once.
func TestCheck_CostGrowsLinearly(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder, bind.Reader("remarshal", remarshal), bind.Reader("remarshal-requiring", remarshalRequiring)} {
		for _, sh := range growthShapes {
			t.Run(b.Name()+"/"+sh.name, func(t *testing.T) {
				plan := growthPlan(t, b, sh.required)
				scales := growthScales
				if testing.Short() {
					scales = scales[:2]
				}
				var costs []growthCost
				for _, k := range scales {
					costs = append(costs, measureCheck(plan, []byte(sh.args(k))))
				}
				for i, c := range costs {
					t.Logf("%dx: %d bytes, %d issues: work %d (%.2f/byte), %v allocations, %d bytes allocated",
						scales[i], c.size, c.issues, c.work, float64(c.work)/float64(c.size), c.allocs, c.bytes)
				}
				assertLinear(t, costs, scales)
			})
		}
	}
}

// TestCheck_PathsAreBounded: however deep the offending value, and however
// long the keys on the way, an issue's path holds at most 12 steps (the
// first 4 and the last 8, with "[…]" between), each key cut at 40
// characters. -short: each shape under one binder, in turn (every binder
// and every shape still seen); make test-long runs every pair.
func TestCheck_PathsAreBounded(t *testing.T) {
	for bi, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		for si, sh := range growthShapes {
			if testing.Short() && si%3 != bi {
				continue
			}
			plan := growthPlan(t, b, sh.required)
			args := []byte(sh.args(100))
			for _, is := range plan.Check(args, nil) {
				if len(is.Path.String()) > 12*(len(`[""]`)+40*len(`\U0001f600`)+len("…"))+len("[…]") {
					t.Errorf("%s/%s: a path of %d bytes: %.200s…", b.Name(), sh.name, len(is.Path.String()), is.Path.String())
				}
			}
		}
	}
}

// countedValue counts the runs of its decoding method.
type countedValue struct{}

var countedRuns int

func (*countedValue) UnmarshalJSON(b []byte) error {
	countedRuns++
	return nil
}

type countedArgs struct {
	C    countedValue `json:"c"`
	Ints []int        `json:"ints"`
}

// TestTrial_AValueIsDecodedAloneOnce: to name the arguments a failing call
// fails on, the trial binders decode alone only what the binder may have
// failed on, and each distinct value once: a type's own method runs at most
// once more than in the binder itself, however often its key is repeated.
func TestTrial_AValueIsDecodedAloneOnce(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[countedArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			name  string
			args  string
			extra int // runs past the binder's own
		}{
			{"a good value before the failure", `{"c":1,"ints":"x"}`, 0},
			{"one key a thousand times, then a failure", `{` + rep(`"c":1`, 1000, ",") + `,"ints":"x"}`, 1},
		} {
			countedRuns = 0
			_ = b.Unmarshal([]byte(tc.args), new(countedArgs))
			binder := countedRuns
			countedRuns = 0
			if issues := plan.Check([]byte(tc.args), nil); len(issues) == 0 {
				t.Fatalf("%s: %s: no issue", b.Name(), tc.name)
			}
			switch b {
			case bind.Std:
				tc.extra = 0 // Check runs the method on each value, as the binder does
			case segmentio.Binder:
				// Its errors give no offset: every value is tried; and the
				// one pass decodes a distinct value once before it
				// declines a repeated key in a call that fails.
				tc.extra = 2
			}
			if countedRuns > binder+tc.extra {
				t.Errorf("%s: %s: the method ran %d times in Check, %d in the binder", b.Name(), tc.name, countedRuns, binder)
			}
		}
	}
}

type nestedArrays struct {
	Cubes [][1][1][1][1][1][1][1][1]int `json:"cubes"`
}

// TestTrial_NestedArraysAreReadOnce: a binder whose fixed-size arrays take
// any length (segmentio) has each array's elements counted as they are
// read, not by reading the array again first, which cost one more pass per
// level of nesting.
func TestTrial_NestedArraysAreReadOnce(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[nestedArrays]())
	if err != nil {
		t.Fatal(err)
	}
	args := []byte(`{"cubes":[` + rep(arrays(8, "1"), 1000, ",") + `,` + arrays(8, "1,2") + `]}`)
	w0 := bind.WorkDone()
	issues := plan.Check(args, nil)
	work := bind.WorkDone() - w0
	if len(issues) != 1 || issues[0].Kind != bind.ArrayLength || issues[0].N != 2 {
		t.Fatalf("%+v, want one ArrayLength of 2", issues)
	}
	if per := float64(work) / float64(len(args)); per > 4 {
		t.Errorf("work %d for %d bytes: %.1f per byte, want at most 4", work, len(args), per)
	}
}

// TestCheck_BoundedPathAfterADeeperBranch: the steps a bounded path shows
// are those of the value's own arrays and objects, even after a deeper
// sibling branch has come and gone (its steps displaced theirs for a
// while).
func TestCheck_BoundedPathAfterADeeperBranch(t *testing.T) {
	var open, closing strings.Builder
	for i := range 20 {
		open.WriteString(`{"k` + strconv.Itoa(i) + `":`)
		closing.WriteString("}")
	}
	deeper := objects(15, "d", "0")
	args := []byte(`{"any":` + open.String() + `[` + deeper + `,` + rounds + `]` + closing.String() + `}`)
	want := ".k0.k1.k2.k3[…].k13.k14.k15.k16.k17.k18.k19[1]"
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		issues := growthPlan(t, b, false).Check(args, nil)
		if len(issues) != 1 || issues[0].Kind != bind.RoundedNumber || issues[0].Path.String() != want {
			t.Errorf("%s: %+v, want one Rounded at %s", b.Name(), issues, want)
		}
	}
}

// remarshalRequiring is remarshal, failing unless the arguments name
// "name": a reader whose failures are named in the zero-value base.
func remarshalRequiring(data []byte, v any) error {
	if err := remarshal(data, v); err != nil {
		return err
	}
	if !strings.Contains(string(data), `"name"`) {
		return errors.New("name is required")
	}
	return nil
}
