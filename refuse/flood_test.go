package refuse_test

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// A flood (thousands of unknown keys, of keys sent again, of bad
// elements) lists bind.MaxIssues issues and records bindcap.MaxMembers
// members: Decide takes that room whole from a pool and hands it back
// once its decision is made, so that a flood costs its refusal's words,
// not the lists the refusal is read from (540 KB a call of 10,000 unknown
// keys allocated before).

// floods are calls that fill the issue list or the members' record,
// tagged by what they flood; words, that their refusal's words are most
// of what a call costs (past the list's room, each issue of a flood whose
// issues lie inside an argument carries its path).
var floods = []struct {
	name  string
	words bool
	args  func(n int) json.RawMessage
}{
	{"unknown keys", true, unknownKeys},
	{"unknown keys, each twice", false, func(n int) json.RawMessage { return keysCall(n, 2, "") }},
	{"bad elements", false, func(n int) json.RawMessage {
		return json.RawMessage(`{"counts":{` + strings.TrimSuffix(strings.Repeat(`"k":"x",`, n), ",") + `}}`)
	}},
	{"unknown keys, then text that is not JSON", true, func(n int) json.RawMessage {
		return json.RawMessage(strings.TrimSuffix(string(unknownKeys(n)), "}") + `,"x":`)
	}},
	{"a key sent again, each value bad", false, func(n int) json.RawMessage {
		return json.RawMessage(`{` + strings.TrimSuffix(strings.Repeat(`"counts":{"a":1,"b":"x"},`, n), ",") + `}`)
	}},
	{"a key sent again, each value of the wrong kind", false, func(n int) json.RawMessage {
		return json.RawMessage(`{` + strings.TrimSuffix(strings.Repeat(`"limit":"x",`, n), ",") + `}`)
	}},
}

// TestDecide_FloodCostsItsWords: a flood of 10x and 100x bind.MaxIssues
// costs Decide, on every binder, once the pooled room has served one, a
// flood of unknown keys at most 128 KB a call (540 KB before the room was
// pooled), and any flood no more at 100x than at 10x, within a tenth:
// nothing grows with it. (Following the binder's error to the value it
// failed on held every member its key names: 27 MB at 100x. Under
// segmentio the pass declined a call that fails with a key sent again,
// and the trial check decoded each value alone, in a copy of it: 6.8 MB
// a call of a key sent 10,000 times, each value bad.)
func TestDecide_FloodCostsItsWords(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[refuseCostArgs](reg, "keys"); err != nil {
			t.Fatal(err)
		}
		for _, f := range floods {
			var bytes []uint64
			var size int
			for _, n := range []int{10 * bind.MaxIssues, 100 * bind.MaxIssues} {
				args := f.args(n)
				d := refuse.Decide(reg, "keys", args)
				if d.Refusal == nil {
					t.Fatalf("%s %s, %d: not refused", b.Name(), f.name, n)
				}
				got := decideBytes(func() { refuse.Decide(reg, "keys", args) })
				t.Logf("%s %s, %d: %d bytes allocated a call", b.Name(), f.name, n, got)
				if f.words && got > 128<<10 {
					t.Errorf("%s %s, %d: %d bytes allocated a call, want at most 128 KB", b.Name(), f.name, n, got)
				}
				bytes = append(bytes, got)
				size = len(args)
			}
			if bytes[1] > bytes[0]+bytes[0]/10 {
				t.Errorf("%s %s: %d bytes allocated at 10x, %d at 100x (%d bytes): the flood's size costs", b.Name(), f.name, bytes[0], bytes[1], size)
			}
		}
	}
}

// decideBytes returns what f allocates, in bytes, the least of three runs
// (a garbage collection between runs may empty the pool's spare room), or
// of six when the three took a megabyte or more: under the race
// detector a sync.Pool drops a quarter of what is put back, and V2's key
// table for 100,000 keys sent twice (24 MB, past what lastKeyTable holds)
// was dropped three times in a row in one make test run of a few dozen.
func decideBytes(f func()) uint64 {
	least := ^uint64(0)
	for i := range 6 {
		if i == 3 && least < 1<<20 {
			break
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}

// TestDecide_FloodsShareNoRoom: floods decided at once, and one after
// another, each get the decision they get alone: no decision reads the
// room another handed back, or holds it.
func TestDecide_FloodsShareNoRoom(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[refuseCostArgs](reg, "keys"); err != nil {
			t.Fatal(err)
		}
		var calls []json.RawMessage
		var want []string
		for _, f := range floods {
			for _, n := range []int{bind.MaxIssues / 2, 3 * bind.MaxIssues} {
				args := f.args(n)
				calls = append(calls, args)
				want = append(want, decisionText(refuse.Decide(reg, "keys", args)))
			}
		}
		// A decision made, then others: it reads the same.
		held := make([]refuse.Decision, len(calls))
		for i, args := range calls {
			held[i] = refuse.Decide(reg, "keys", args)
		}
		for i := range calls {
			if got := decisionText(held[i]); got != want[i] {
				t.Errorf("%s call %d, after the others: %.300s\nwant %.300s", b.Name(), i, got, want[i])
			}
		}
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for r := range 3 {
					i := (g + r) % len(calls)
					if got := decisionText(refuse.Decide(reg, "keys", calls[i])); got != want[i] {
						t.Errorf("%s call %d, at once with others: %.300s\nwant %.300s", b.Name(), i, got, want[i])
					}
				}
			}()
		}
		wg.Wait()
	}
}

func decisionText(d refuse.Decision) string {
	j, err := json.Marshal(d.Refusal)
	if err != nil {
		return err.Error()
	}
	w, err := json.Marshal(d.Warnings)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("%s %s %s", j, w, d.Args)
}

type breachArgs struct {
	Limit int `json:"limit" validate:"max=10"`
}

// TestDecide_RepeatedBreachesCostNoMore: a key sent 10,000 and 100,000
// times, each value breaking its tags, costs Decide at 100,000 at most
// one copy of the call more than at 10,000, on every binder: the walk
// records the breaches of the members it records (bindcap.MaxMembers),
// not of every one (17 bytes a byte of input before, 1.9 MB a call at
// 10,000). The copy is V2's: it fails on the repeated name, and the
// constraints are held to the call with its failures blanked out
// (withoutFailures).
func TestDecide_RepeatedBreachesCostNoMore(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[breachArgs](reg, "limit"); err != nil {
			t.Fatal(err)
		}
		var bytes []uint64
		var size int
		for _, n := range []int{10_000, 100_000} {
			args := json.RawMessage(`{` + strings.TrimSuffix(strings.Repeat(`"limit":11,`, n), ",") + `}`)
			size = len(args)
			if d := refuse.Decide(reg, "limit", args); d.Refusal == nil {
				t.Fatalf("%s, %d: not refused", b.Name(), n)
			}
			got := decideBytes(func() { refuse.Decide(reg, "limit", args) })
			t.Logf("%s, %d: %d bytes allocated a call", b.Name(), n, got)
			bytes = append(bytes, got)
		}
		if bytes[1] > bytes[0]+bytes[0]/10+uint64(size) {
			t.Errorf("%s: %d bytes allocated at 10,000, %d at 100,000 (%d bytes): the repeats cost", b.Name(), bytes[0], bytes[1], size)
		}
	}
}
