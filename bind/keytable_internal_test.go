package bind

import (
	"fmt"
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestKeyTable_AgreesWithAMap holds the pooled key table's answers (a key
// sent before in its object, and byText's copies) to a map's, over checks
// that reuse one table: small checks after wide ones and wide after small
// (a check's slots a prefix of the room, or more than the room), growth
// within a check into the room and past it, byText while adds grow the
// table, and the generation wrapping both as a check starts and as it
// grows.
func TestKeyTable_AgreesWithAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// The keys, each sent plain and escaped ("k12" and "\u006b12": one
	// text, two spellings).
	var b strings.Builder
	var at []int
	const keys = 3000
	for i := range keys {
		at = append(at, b.Len())
		fmt.Fprintf(&b, `"k%d",`, i)
		at = append(at, b.Len())
		fmt.Fprintf(&b, `"\u006b%d",`, i)
	}
	c := &checker{data: []byte(b.String())}
	text := func(j int) string { return fmt.Sprintf("k%d", j/2) }
	add := func(obj uint32, j int) bool {
		raw := c.data[at[j]:strEnd(c.data, at[j])]
		var buf [64]byte
		key := readKey(buf[:0], raw, kString)
		return c.keyTab.add(c, obj, maphash.Bytes(keySeed, key), key, at[j], kString)
	}
	var last *keyTable
	for round := range 400 {
		// size stands for the arguments' length: it sizes the check's first
		// slots, not what it holds.
		size := []int{0, 30, 4000, 1 << 22}[rng.IntN(4)]
		c.keyTab = getKeyTable(size)
		if last != nil && c.keyTab != last {
			t.Fatalf("round %d: the table put back last was not reused", round)
		}
		last = c.keyTab
		switch round % 50 {
		case 10: // wraps as the next check starts
			c.keyTab.gen = ^uint32(0)
		case 30: // wraps as this check grows
			c.keyTab.gen = ^uint32(0) - uint32(rng.IntN(3))
		}
		want := map[uint32]map[string]int{} // per object, each text and where it was first sent
		nkeys := []int{3, 40, 200, 2500}[rng.IntN(4)]
		objs := 1 + rng.IntN(4)
		for range nkeys {
			obj := uint32(rng.IntN(objs))
			j := rng.IntN(2 * min(keys, nkeys))
			if want[obj] == nil {
				want[obj] = map[string]int{}
			}
			_, had := want[obj][text(j)]
			if !had {
				want[obj][text(j)] = at[j]
			}
			if got := add(obj, j); got != had {
				t.Fatalf("round %d: object %d, key %s (%d slots, room %d): sent before %v, want %v", round, obj, c.data[at[j]:strEnd(c.data, at[j])], len(c.keyTab.slots), len(c.keyTab.room), got, had)
			}
			if rng.IntN(nkeys) == 0 {
				// byText: object 0's keys copied to object 9 by their text
				// (but the one at skip), while the copies grow the table.
				skip := want[0][text(j)]
				c.keyTab.byText(c, 0, 9, skip)
				w9 := map[string]int{}
				for k, a := range want[0] {
					if a != skip {
						w9[k] = a
					}
				}
				for k, a := range want[9] {
					if _, ok := w9[k]; !ok {
						w9[k] = a
					}
				}
				want[9] = w9
				for k := range w9 {
					j := 2 * atoiK(k)
					if !add(9, j) {
						t.Fatalf("round %d: byText left out %s", round, k)
					}
				}
			}
		}
		n := 0
		for _, m := range want {
			n += len(m)
		}
		if len(c.keyTab.used) != n {
			t.Fatalf("round %d: %d slots used, want %d", round, len(c.keyTab.used), n)
		}
		for _, i := range c.keyTab.used {
			if c.keyTab.slots[i].gen != c.keyTab.gen {
				t.Fatalf("round %d: used lists slot %d of generation %d, not %d", round, i, c.keyTab.slots[i].gen, c.keyTab.gen)
			}
		}
		c.keysDone()
	}
}

func atoiK(k string) int {
	n := 0
	for _, r := range k[1:] {
		n = 10*n + int(r-'0')
	}
	return n
}
