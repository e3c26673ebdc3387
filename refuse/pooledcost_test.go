package refuse_test

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// The room a check takes is pooled and reused by the next (the key
// tables, the issue lists, the members): a call's cost is in its own
// size, never in the room a wider call before it left in the pool. Each
// small call costs, after calls wide enough to grow every pooled room, what
// it costs before them, within eight times in one process: a ratio, no
// bound in seconds. (Under the race detector, with other packages' tests
// on the same cores, a small call's least time wanders by up to 2.5x; the
// pooled room read whole cost 28x and more.)

type pooledArgs struct {
	N int            `json:"n"`
	M map[string]int `json:"m"`
	A any            `json:"a"`
}

func TestDecide_SmallCallCostsTheSameAfterAWideOne(t *testing.T) {
	// Wide, but not past the room a process keeps (bind's maxHeldKeys):
	// 100,000 keys in the key table.
	var wide strings.Builder
	wide.WriteString(`{"m":{`)
	for i := range 20_000 {
		fmt.Fprintf(&wide, `"k%d":1,`, i)
	}
	wide.WriteString(`"z":1},"a":{`)
	for i := range 20_000 {
		fmt.Fprintf(&wide, `"k%d":1,`, i)
	}
	wide.WriteString(`"z":1},`)
	for i := range 15_000 {
		fmt.Fprintf(&wide, `"u%d":1,"\u0076%d":2,`, i, i)
	}
	wide.WriteString(`"n":1}`)
	small := []struct{ name, args string }{
		{"an escaped unknown key sent twice", `{"n":1,"u":1,"\u0075":2,"u":3}`},
		{"unknown keys", `{"n":1,"u":1,"v":2,"w":3}`},
		{"a map of 40 keys", `{"n":1,"m":{` + seq(40, func(i int) string { return fmt.Sprintf(`"k%d":%d`, i, i) }) + `}}`},
		{"an object of 40 keys, one repeated", `{"n":1,"a":{` + seq(40, func(i int) string { return fmt.Sprintf(`"k%d":%d`, i%39, i) }) + `}}`},
	}
	// Every small call is timed before any wide call: the pools are the
	// process's, and a wide call in one subtest would be in the next's
	// time before as well as after.
	type timed struct {
		name string
		reg  *typereg.Registry
		args []byte
		time time.Duration
	}
	var calls []timed
	var regs []*typereg.Registry
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[pooledArgs](reg, "pooled", typereg.WithMode(typereg.Warn)); err != nil {
			t.Fatal(err)
		}
		regs = append(regs, reg)
		for _, sc := range small {
			calls = append(calls, timed{b.Name() + "/" + sc.name, reg, []byte(sc.args), leastBatch(reg, "pooled", []byte(sc.args))})
		}
	}
	for _, reg := range regs {
		refuse.Decide(reg, "pooled", []byte(wide.String()))
	}
	runtime.GC() // the wide calls' garbage, collected now: not in the small calls' time
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			after := leastBatch(c.reg, "pooled", c.args)
			t.Logf("before the wide calls %v, after %v", c.time, after)
			if after > 8*c.time {
				t.Errorf("the call costs %v after wide calls, %v before them", after, c.time)
			}
		})
	}
}

// leastBatch returns the least time, of 20 batches of 50, a Decide of
// args takes: small calls are timed many at once, so that the clock's
// grain and a stray pause do not make the ratio.
func leastBatch(reg *typereg.Registry, tool string, args []byte) time.Duration {
	best := time.Duration(1 << 62)
	for range 20 {
		start := time.Now()
		for range 50 {
			refuse.Decide(reg, tool, args)
		}
		best = min(best, time.Since(start)/50)
	}
	return best
}
