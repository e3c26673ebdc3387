package refuse

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestKeySet_AgreesWithAMap: a keySet holds the keys a map of their text
// holds, added in any order and any number of times, across its moves
// from keys in place to a table and the table's growth, presized or not;
// each yields every key once; and a set of at most fewKeys keys
// allocates nothing.
func TestKeySet_AgreesWithAMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for round := range 2000 {
		distinct := 1 + rng.IntN(40)
		if round%3 == 0 {
			distinct = 1 + rng.IntN(fewKeys+1) // around the move
		}
		var b strings.Builder
		b.WriteString("{")
		var spans []keySpan
		for range 1 + rng.IntN(3*distinct) {
			key := fmt.Sprintf(`"k%d"`, rng.IntN(distinct))
			start := b.Len()
			b.WriteString(key)
			spans = append(spans, keySpan{start, b.Len()})
			b.WriteString(":0,")
		}
		d := []byte(b.String())
		var s keySet
		if round%5 == 0 {
			s.presize(rng.IntN(8))
		}
		want := map[string]bool{}
		for _, k := range spans {
			text := string(d[k.start:k.end])
			if got := s.add(d, k.start, k.end); got != !want[text] {
				t.Fatalf("round %d: add(%s) = %v with %d keys held", round, text, got, len(want))
			}
			want[text] = true
		}
		if s.n != len(want) {
			t.Fatalf("round %d: n = %d, want %d", round, s.n, len(want))
		}
		var got []string
		s.each(func(start, end int) { got = append(got, string(d[start:end])) })
		slices.Sort(got)
		var keys []string
		for k := range want {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(got, keys) {
			t.Fatalf("round %d: each yields %q, want %q", round, got, keys)
		}
	}
	d := []byte(`{"a":1,"b":2,"c":3,"d":4,"a":5}`)
	if n := testing.AllocsPerRun(100, func() {
		var s keySet
		for _, at := range []int{1, 7, 13, 19, 25} {
			s.add(d, at, at+3)
		}
	}); n != 0 {
		t.Errorf("a set of %d keys: %v allocations, want 0", fewKeys, n)
	}
}

// TestParamSet_ClaimsEachParameterOnce: every parameter of a tool of 130
// is claimed once, before 64 and past it; an index outside the tool never.
func TestParamSet_ClaimsEachParameterOnce(t *testing.T) {
	s := paramSet{n: 130}
	for _, i := range []int{0, 63, 64, 129, 5, 100} {
		if !s.add(i) {
			t.Errorf("add(%d) the first time = false", i)
		}
		if s.add(i) {
			t.Errorf("add(%d) again = true", i)
		}
	}
	for _, i := range []int{-1, 130, 1 << 20} {
		if s.add(i) {
			t.Errorf("add(%d) = true for a tool of 130 parameters", i)
		}
	}
}
