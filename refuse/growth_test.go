package refuse_test

import (
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// The growth tests through Decide: every shape of call, at 1x, 10x and
// 100x of a payload, costs each binder's Decide memory in proportion to
// its size (bind's own growth tests pin the work too), under Reject with
// silent losses refused (Strict) and under Warn, and every problem's path
// stays bounded. No clock is read.

type growthNode struct {
	Next *growthNode  `json:"next"`
	Kids []growthNode `json:"kids"`
	V    int          `json:"v"`
}

type growthArgs struct {
	Any   any               `json:"any"`
	Meta  map[string]any    `json:"meta"`
	Node  *growthNode       `json:"node"`
	Grid  [][][][]int       `json:"grid"`
	Ints  []int             `json:"ints"`
	Name  string            `json:"name"`
	Tags  map[string]string `json:"tags"`
	Limit int               `json:"limit" validate:"max=10"`
}

const rounds = "9007199254740993" // an integer past 2^53: a float64 rounds it

func rep(s string, n int, sep string) string {
	return strings.TrimSuffix(strings.Repeat(s+sep, n), sep)
}

func arrays(depth int, inner string) string {
	return strings.Repeat("[", depth) + inner + strings.Repeat("]", depth)
}

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

// growthShapes build calls of scale k (1, 10, 100): each grows with k in
// every part (depth, width, issues, key length), and is already past the
// path's bound of 12 steps and 40-character keys at 1x, so that what each
// problem costs (bounded) is the same at every scale.
var growthShapes = []struct {
	name string
	args func(k int) string
}{
	{"deep, one failure", func(k int) string { return `{"any":` + arrays(30*k, "1e400") + `}` }},
	{"deep, many losses", func(k int) string { return `{"any":` + arrays(13*k, rep(rounds, 10*k, ",")) + `}` }},
	{"deep, many failures", func(k int) string { return `{"any":` + arrays(13*k, rep("1e400", 10*k, ",")) + `}` }},
	{"wide, many losses", func(k int) string {
		return `{"meta":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":` + rounds }) + `}}`
	}},
	{"wide, many failures", func(k int) string {
		return `{"tags":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }) + `}}`
	}},
	// The quotes of a refusal (jsonlex.Quoted, CutWritten; QuotedLen
	// for the problem's size) read a long value or key once, whatever its
	// escapes.
	{"one long escaped string, wrong type", func(k int) string {
		return `{"ints":"` + strings.Repeat(`\u00e9\n\"é\ud83d\ude00`, 100*k) + `"}`
	}},
	{"one long array of escaped strings, wrong type", func(k int) string {
		return `{"name":[` + rep(`"\u00e9\t"`, 100*k, ",") + `]}`
	}},
	{"one long escaped unknown key", func(k int) string {
		return `{"` + strings.Repeat(`\u00e9\t\u0007`, 100*k) + `":1}`
	}},
	{"many unknown keys", func(k int) string {
		return `{` + seq(100*k, func(i int) string { return `"u` + strconv.Itoa(i) + `":1` }) + `}`
	}},
	{"repeated keys, deep", func(k int) string {
		return `{"meta":` + objects(13*k, "a", `{`+rep(`"x":1`, 10*k, ",")+`}`) + `}`
	}},
	{"repeated top-level key", func(k int) string { return `{` + rep(`"name":"x"`, 100*k, ",") + `}` }},
	{"repeated top-level key, distinct values", func(k int) string {
		return `{` + seq(100*k, func(i int) string { return `"name":"x` + strconv.Itoa(i) + `"` }) + `}`
	}},
	{"repeated top-level key, each value bad", func(k int) string {
		return `{` + seq(100*k, func(i int) string { return `"ints":[` + strconv.Itoa(i) + `,"x"]` }) + `}`
	}},
	{"repeated constrained key", func(k int) string { return `{` + rep(`"limit":11`, 100*k, ",") + `}` }},
	// Numbers strconv fails on, each held to the compiled checks
	// (constraint.Node.Number reads them without strconv's error: its
	// own test holds that to no allocation at all).
	{"repeated constrained key, a fraction and a number past int's range", func(k int) string {
		return `{` + rep(`"limit":0.5,"limit":99999999999999999999`, 50*k, ",") + `}`
	}},
	{"long keys, deep, many losses", func(k int) string {
		return `{"any":` + objects(13*k, strings.Repeat("k", 100), arrays(1, rep(rounds, 10*k, ","))) + `}`
	}},
	{"one long escaped key, many losses", func(k int) string {
		return `{"any":` + objects(1, strings.Repeat(`\u00e9`, 82*k), arrays(1, rep(rounds, 10*k, ","))) + `}`
	}},
	{"recursive struct, deep, wrong-typed elements", func(k int) string {
		return `{"node":` + objects(13*k, "next", `{"kids":[`+rep(`{"v":"x"}`, 10*k, ",")+`]}`) + `}`
	}},
	{"recursive struct, deep, unknown fields", func(k int) string {
		return `{"node":` + objects(13*k, "next", `{`+seq(10*k, func(i int) string { return `"z` + strconv.Itoa(i) + `":1` })+`}`) + `}`
	}},
	// 8198552921648689607 is a fixed point of segmentio's wrapping parse
	// (10v+1 = v modulo 2^64): followed by any number of ones it is read
	// into an int as itself (WrappedNumber); Std and V2 fail (TooLarge).
	{"one long number segmentio wraps", func(k int) string {
		return `{"ints":[8198552921648689607` + strings.Repeat("1", 1000*k) + `]}`
	}},
	{"many numbers segmentio wraps", func(k int) string {
		return `{"ints":[` + rep("81985529216486896071", 100*k, ",") + `]}`
	}},
	{"nested slices, wrong-typed elements", func(k int) string {
		return `{"grid":` + arrays(4, rep(`"x"`, 100*k, ",")) + `}`
	}},
	// "m" and "t" are aliases of meta and tags: bound in the pass where
	// sent plain, read as sent then renamed where the pass finds anything.
	{"wide under an alias", func(k int) string {
		return `{"t":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":"v"` }) + `},"limit":1}`
	}},
	{"wide under an alias, many losses", func(k int) string {
		return `{"m":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":` + rounds }) + `}}`
	}},
	{"wide under an escaped alias, many failures", func(k int) string {
		return `{"\u0074":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }) + `}}`
	}},
	{"many aliases and their parameter", func(k int) string {
		return `{` + rep(`"m":{"a":[1]},"t":{"b":"c"},"meta":{}`, 30*k, ",") + `}`
	}},
	// An alias beside its parameter, and names sent twice (V2 fails on
	// each, in no argument: past bind.MaxIssues they are counted, and the
	// member the renaming leaves out is checked alone, droppedFail).
	{"an alias beside its parameter, many names sent twice", func(k int) string {
		return `{"meta":{},"m":{"a":1},` + seq(100*k, func(i int) string { return `"r` + strconv.Itoa(i) + `":1,"r` + strconv.Itoa(i) + `":2` }) + `}`
	}},
	// Objects a repeated key merges, each leaving out fields the other
	// sends (bind's filledMissing reads the argument again).
	{"repeated key, merged objects leaving fields out", func(k int) string {
		return `{` + rep(`"node":{"v":1,"kids":[{"v":1},{"next":null}]},"node":{"next":null,"kids":[{"kids":[]}]}`, 30*k, ",") + `}`
	}},
	{"repeated key, deep merged objects, many fields left out", func(k int) string {
		return `{` + rep(`"node":`+objects(13*k, "next", `{"kids":[`+rep(`{"v":1}`, 10*k, ",")+`]}`), 10*k, ",") + `}`
	}},
	{"deep x wide x many, with every kind of problem", func(k int) string {
		level := seq(2*k, func(i int) string { return `"a` + strconv.Itoa(i) + `":` + rounds })
		return `{"limit":11,"u":1,"node":{"kids":[` + rep(`{"v":1.5}`, 10*k, ",") + `]},"any":` +
			strings.Repeat(`{`+level+`,"z":`, 13+k) + arrays(1, rep(rounds, 10*k, ",")) + strings.Repeat("}", 13+k) +
			`,` + seq(10*k, func(i int) string { return `"u` + strconv.Itoa(i) + `":1` }) + `}`
	}},
}

type decideCost struct {
	size     int
	allocs   float64
	bytes    uint64
	problems int
}

// measureDecide returns what Decide costs on args, beyond three of the
// binder's own decodes (the guard's of the whole call, of each argument
// alone when it fails, and the constraints' decode of the call): what the
// binder allocates is the server's own cost.
func measureDecide(t *testing.T, reg *typereg.Registry, b bind.Binder, args json.RawMessage) decideCost {
	t.Helper()
	d := refuse.Decide(reg, "growth", args)
	c := decideCost{size: len(args)}
	for _, ps := range [][]refuse.Problem{problemsOf(d)} {
		c.problems += len(ps)
		for _, p := range ps {
			if len(p.Path) > 12*(len(`[""]`)+40*len(`\U0001f600`)+len("…"))+len("[…]") || strings.Count(p.Path, "[")+strings.Count(p.Path, ".") > 2*13 {
				t.Errorf("%d bytes: a path of %d bytes: %.200q…", len(args), len(p.Path), p.Path)
			}
		}
	}
	allocs, bytes := memCost(func() { refuse.Decide(reg, "growth", args) }) // warmed up by the call above
	decode := func() { _ = b.Unmarshal(args, new(growthArgs)) }
	decode()
	bAllocs, bBytes := memCost(decode)
	c.allocs = float64(allocs - min(allocs, 3*bAllocs))
	c.bytes = bytes - min(bytes, 3*bBytes)
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

func problemsOf(d refuse.Decision) []refuse.Problem {
	var ps []refuse.Problem
	if d.Refusal != nil {
		ps = append(ps, d.Refusal.Problems...)
	}
	if d.Warnings != nil {
		ps = append(ps, d.Warnings.Problems...)
	}
	return ps
}

// TestDecide_CostGrowsLinearly: for every shape, binder and mode, what
// Decide allocates per byte of input at 10x and 100x stays within twice
// what it allocates at 1x, in bytes and in allocations. -short: 1x and 10x,
// each shape under one mode in turn (make test-long runs every pair at
// 100x too).
func TestDecide_CostGrowsLinearly(t *testing.T) {
	scales := []int{1, 10, 100}
	if testing.Short() {
		scales = scales[:2]
	}
	modes := []struct {
		name string
		opts []typereg.Option
	}{
		{"reject-strict", []typereg.Option{typereg.WithMode(typereg.Reject), typereg.WithStrict(true)}},
		{"warn", []typereg.Option{typereg.WithMode(typereg.Warn)}},
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		for mi, mode := range modes {
			reg := typereg.New(typereg.WithBinder(b))
			opts := append([]typereg.Option{typereg.WithAlias("m", "meta"), typereg.WithAlias("t", "tags")}, mode.opts...)
			if err := typereg.Register[growthArgs](reg, "growth", opts...); err != nil {
				t.Fatal(err)
			}
			for si, sh := range growthShapes {
				if testing.Short() && si%len(modes) != mi {
					continue // -short: each shape under one mode, in turn
				}
				t.Run(b.Name()+"/"+mode.name+"/"+sh.name, func(t *testing.T) {
					var costs []decideCost
					for _, k := range scales {
						c := measureDecide(t, reg, b, json.RawMessage(sh.args(k)))
						t.Logf("%dx: %d bytes, %d problems: %v allocations, %d bytes allocated", k, c.size, c.problems, c.allocs, c.bytes)
						costs = append(costs, c)
					}
					base := costs[0]
					per := func(v float64, size int) float64 { return v / float64(size) }
					for i, c := range costs[1:] {
						if per(float64(c.bytes), c.size) > 2*per(float64(base.bytes), base.size)+64 {
							t.Errorf("%dx: %d bytes allocated for %d bytes of input (%.1f a byte); at 1x %d for %d (%.1f)",
								scales[i+1], c.bytes, c.size, per(float64(c.bytes), c.size), base.bytes, base.size, per(float64(base.bytes), base.size))
						}
						if per(c.allocs, c.size) > 2*per(base.allocs, base.size)+1 {
							t.Errorf("%dx: %v allocations for %d bytes of input; at 1x %v for %d", scales[i+1], c.allocs, c.size, base.allocs, base.size)
						}
					}
				})
			}
		}
	}
}
