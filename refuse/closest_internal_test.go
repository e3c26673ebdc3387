package refuse

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// closestByStrings is closest as it was written before it stopped
// allocating (strings.ToLower, strings.Map, []rune): the reference the
// allocation-free one must equal.
func closestByStrings(key string, names []string) string {
	if key == "" || len(key) > 64 || !utf8.ValidString(key) {
		return ""
	}
	normalize := func(s string) string {
		return strings.Map(func(r rune) rune {
			switch r {
			case '_', '-', ' ', '.':
				return -1
			}
			return r
		}, strings.ToLower(s))
	}
	distance := func(a, b string) int { return levenshtein([]rune(a), []rune(b)) }
	nk := normalize(key)
	for _, n := range names {
		if normalize(n) == nk {
			return n
		}
	}
	best, bestD := "", 0
	for _, n := range names {
		limit := 1
		switch l := min(len(nk), len(normalize(n))); {
		case l > 8:
			limit = 3
		case l > 4:
			limit = 2
		}
		if d := distance(nk, normalize(n)); d <= limit && (best == "" || d < bestD) {
			best, bestD = n, d
		}
	}
	if best != "" {
		return best
	}
	if len(nk) >= 3 {
		for _, n := range names {
			nn := normalize(n)
			if strings.HasPrefix(nn, nk) || len(nn) >= 3 && strings.HasPrefix(nk, nn) {
				return n
			}
		}
	}
	return ""
}

// TestClosest_EqualsTheReference: closest, and closestKey on the key's
// JSON token, answer as the reference does, on keys and names built from
// letters, the bytes either side of 'A'-'Z' and 'a'-'z' (ASCII's lowering
// is its own path), separators, case-folding runes (the Kelvin sign, 'ſ'), invalid
// UTF-8 and lengths around every bound (64 bytes, 68 characters); and
// closestKey, on names normalized once, allocates nothing.
func TestClosest_EqualsTheReference(t *testing.T) {
	atoms := []string{"a", "b", "K", "k", "Z", "@", "[", "`", "{", "_", "-", " ", ".", "\u212a", "ſ", "é", "É", "\xff", "ab", "cd", "x", "日本"}
	rng := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		var b strings.Builder
		for range n {
			b.WriteString(atoms[rng.IntN(len(atoms))])
		}
		return b.String()
	}
	mutate := func(s string) string {
		r := []rune(s)
		for range rng.IntN(4) {
			if len(r) == 0 {
				break
			}
			i := rng.IntN(len(r))
			switch rng.IntN(3) {
			case 0:
				r = append(r[:i], r[i+1:]...)
			case 1:
				r[i] = []rune(atoms[rng.IntN(len(atoms))])[0]
			default:
				r = append(r[:i], append([]rune{'z'}, r[i:]...)...)
			}
		}
		return string(r)
	}
	for i := range 20000 {
		var names []string
		for range 1 + rng.IntN(6) {
			names = append(names, word(rng.IntN(40)))
		}
		if i%7 == 0 {
			names = append(names, strings.Repeat("k", 60+rng.IntN(12))) // around the bounds
		}
		var key string
		switch rng.IntN(4) {
		case 0:
			key = word(rng.IntN(40))
		case 1:
			key = strings.Repeat("k", 58+rng.IntN(10))
		default:
			key = mutate(names[rng.IntN(len(names))])
			if rng.IntN(3) == 0 && len(key) > 2 {
				key = key[:len(key)-rng.IntN(3)] // a prefix, maybe cut inside a rune
			}
		}
		closestAgrees(t, key, names)
	}
	names := []string{"wait_type", "limit", strings.Repeat("n", 200)}
	near := nearNames(names)
	if n := testing.AllocsPerRun(100, func() { closestKey([]byte(`"Wait-Typ"`), near) }); n != 0 {
		t.Errorf("closestKey: %v allocations, want 0", n)
	}
}

// TestBoundedDistance_EqualsLevenshtein: boundedDistance is the whole
// Levenshtein distance where that is at most k, and k+1 past it, on
// random texts of a few runes (so that every distance is met) up to the
// longest a name is read.
func TestBoundedDistance_EqualsLevenshtein(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	text := func(n int) []rune {
		r := make([]rune, n)
		for i := range r {
			r[i] = rune('a' + rng.IntN(3))
		}
		return r
	}
	for range 200_000 {
		a, b := text(rng.IntN(12)), text(rng.IntN(12))
		if rng.IntN(20) == 0 {
			a, b = text(maxClosest), text(nameRunes-rng.IntN(6))
		}
		for k := range 4 {
			want := min(levenshtein(a, b), k+1)
			if got := boundedDistance(a, b, k); got != want {
				t.Fatalf("boundedDistance(%q, %q, %d) = %d, want %d", string(a), string(b), k, got, want)
			}
		}
	}
}

// levenshtein is the whole Levenshtein distance between a and b, in runes,
// as written first: the references' (closestByStrings, boundedDistance's).
func levenshtein(a, b []rune) int {
	prev, cur := make([]int, len(b)+1), make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// FuzzClosest_EqualsTheReference: closest, and closestKey on the key's JSON
// token among names normalized once, answer as the reference does, for any
// key and names (a comma parts them).
func FuzzClosest_EqualsTheReference(f *testing.F) {
	f.Add("Wait-Typ", "wait_type,limit")
	f.Add("verbose", "count,limit,query,tags,score,exact,cursor,window")
	f.Add("LIMT", "limit,\u212aelvin,ſort")
	f.Add("x\xffy", "xy,x\xff")
	f.Fuzz(func(t *testing.T, key, list string) {
		closestAgrees(t, key, strings.Split(list, ","))
	})
}

// closestAgrees fails t where closest, or closestKey on the key's JSON
// token among names normalized once, answers otherwise than the reference.
func closestAgrees(t *testing.T, key string, names []string) {
	t.Helper()
	want := closestByStrings(key, names)
	if got := closest(key, names); got != want {
		t.Fatalf("closest(%q, %q) = %q, want %q", key, names, got, want)
	}
	if utf8.ValidString(key) {
		raw := []byte(strconv.Quote(key))
		if got, want := closestKey(raw, nearNames(names)), closestByStrings(unquoteKey(raw), names); got != want {
			t.Fatalf("closestKey(%s, %q) = %q, want %q", raw, names, got, want)
		}
	}
}
