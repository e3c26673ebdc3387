package refuse

import (
	"encoding/json"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/typereg"
)

// The cost of counting unknown keys: a call of very many keys no
// parameter takes (distinct or repeated, short or long, among exempt keys
// and beside an alias, or inside a nested struct) is refused, or warned of,
// with every unknown key listed or counted once in More, and refuse reads
// none of its members again for it: the pass counts them. No clock is
// read: the measure is the members refuse reads again with the lexer
// (membersRead), and the allocations.

type countArgs struct {
	Counts map[string]int `json:"counts,omitempty"`
	Name   string         `json:"name,omitempty"`
	Inner  struct {
		A int `json:"a,omitempty"`
	} `json:"inner,omitempty"`
}

// countShape is a call of n unknown keys (scaled by n), and how many of
// them the refusal counts: the distinct unknown keys, as sent, that are
// not exempt.
type countShape struct {
	name   string
	args   func(n int) string
	unique func(n int) int
	// trial: the binders whose one pass declines the call (V2 fails on a
	// repeated dropped key, and its pass declines an escaped one): their
	// trial check reads it, which is not counted here. segmentio's pass
	// reads escaped keys (s7-native), so it is held to the count too.
	trial []bind.Binder
	reads bool // the call uses an alias: renamed, it is read again (once)
}

func keysOf(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f(i))
	}
	return b.String()
}

var countShapes = []countShape{
	{name: "distinct", args: func(n int) string {
		return "{" + keysOf(n, func(i int) string { return fmt.Sprintf(`"k%05d":%d`, i, i%1000) }) + "}"
	}, unique: func(n int) int { return n }},
	{name: "one key repeated", trial: []bind.Binder{jsonv2.Binder}, args: func(n int) string {
		return "{" + keysOf(n, func(i int) string { return `"k":1` }) + "}"
	}, unique: func(int) int { return 1 }},
	{name: "a few keys repeated, escaped", trial: []bind.Binder{jsonv2.Binder}, args: func(n int) string {
		return "{" + keysOf(n, func(i int) string { return fmt.Sprintf(`"k%d\u00e9":1`, i%7) }) + "}"
	}, unique: func(int) int { return 7 }},
	{name: "long", args: func(n int) string {
		return "{" + keysOf(n, func(i int) string { return fmt.Sprintf(`"k%05d%s":1`, i, strings.Repeat("x", 100)) }) + "}"
	}, unique: func(n int) int { return n }},
	{name: "among exempt keys, an alias declared", trial: []bind.Binder{jsonv2.Binder}, args: func(n int) string {
		return "{" + keysOf(n, func(i int) string {
			switch i % 3 {
			case 0:
				return `"fmt":1`
			case 1:
				return `"f\u006dt":1` // exempt, escaped
			}
			return fmt.Sprintf(`"k%05d":1`, i)
		}) + "}"
	}, unique: func(n int) int { return n / 3 }},
	{name: "beside exempt keys sent once", args: func(n int) string {
		return `{"fmt":1,"trace":2,` + keysOf(n, func(i int) string { return fmt.Sprintf(`"k%05d":1`, i) }) + "}"
	}, unique: func(n int) int { return n }},
	{name: "an alias used", reads: true, args: func(n int) string {
		return `{"nm":"x",` + keysOf(n, func(i int) string { return fmt.Sprintf(`"k%05d":1`, i) }) + "}"
	}, unique: func(n int) int { return n }},
	{name: "nested unknown fields", args: func(n int) string {
		return `{"inner":{` + keysOf(n, func(i int) string { return fmt.Sprintf(`"k%05d":1`, i) }) + "}}"
	}},
}

// TestDecide_UnknownKeysCountedInThePass: for every shape, binder and
// mode, 1x, 10x and 100x the unknown keys (1x past bind.MaxIssues and
// bindcap.MaxMembers) are listed or counted exactly, refuse reads no
// member again (one read of a call whose alias it renames), and Decide
// allocates as much at 100x as at 1x. -short: 1x and 10x.
func TestDecide_UnknownKeysCountedInThePass(t *testing.T) {
	scales := []int{1200, 12000, 120000}
	if testing.Short() {
		scales = scales[:2]
	}
	membersRead = new(atomic.Int64)
	defer func() { membersRead = nil }()
	// No collection mid-test: one would empty the key tables' pool and
	// count a table more at one size than at another (seen under GOGC=1).
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
			reg := typereg.New(typereg.WithBinder(b), typereg.WithMode(mode), typereg.WithExempt("fmt", "trace"))
			if err := typereg.Register[countArgs](reg, "count", typereg.WithAlias("nm", "name")); err != nil {
				t.Fatal(err)
			}
			for _, sh := range countShapes {
				if slices.Contains(sh.trial, b) {
					continue
				}
				t.Run(b.Name()+"/"+mode.String()+"/"+sh.name, func(t *testing.T) {
					var allocs []float64
					for _, n := range scales {
						args := json.RawMessage(sh.args(n))
						before := membersRead.Load()
						d := Decide(reg, "count", args)
						read := membersRead.Load() - before
						var ps []Problem
						more := 0
						switch {
						case d.Refusal != nil:
							ps, more = d.Refusal.Problems, d.Refusal.More
						case d.Warnings != nil:
							ps, more = d.Warnings.Problems, d.Warnings.More
						}
						if sh.unique != nil {
							if got := len(ps) + more; got != sh.unique(n) {
								t.Errorf("%d keys: %d problems listed, %d more; want %d in all", n, len(ps), more, sh.unique(n))
							}
						}
						if d.Refusal == nil && mode == typereg.Reject {
							t.Errorf("%d keys: not refused", n)
						}
						members := int64(strings.Count(string(args), ":")) // a member or more each
						if sh.reads && read > members || !sh.reads && read != 0 {
							t.Errorf("%d keys: refuse read %d members again (the call has %d)", n, read, members)
						}
						allocs = append(allocs, testing.AllocsPerRun(3, func() { Decide(reg, "count", args) }))
					}
					t.Logf("allocations at %v keys: %v", scales, allocs)
					for i, a := range allocs[1:] {
						if a != allocs[0] && !raceOn { // (the race detector drops pooled tables at random)
							t.Errorf("%d keys: %v allocations; %d keys: %v", scales[i+1], a, scales[0], allocs[0])
						}
					}
				})
			}
		}
	}
}
