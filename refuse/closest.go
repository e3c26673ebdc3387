package refuse

import (
	"unicode"
	"unicode/utf8"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// maxClosest is the longest key, in bytes, that closest looks for a name
// for.
const maxClosest = 64

// closest returns the name in names that key most likely meant: one equal
// to it but for case, underscores, hyphens and spaces; else one a small
// edit away; else one it is a prefix of (or that is a prefix of it).
// It returns "" when none is close.
//
// It allocates nothing, and its work is bounded for each name whatever
// the key: a key past maxClosest bytes is not looked up, a name is read
// up to maxClosest+4 characters (normalized), and the edit distance, at
// most 3, is computed only for a name within 3 characters of the key's
// length, over at most 64 × 67 cells.
func closest(key string, names []string) string {
	if key == "" || len(key) > maxClosest || !utf8.ValidString(key) {
		return ""
	}
	var kb [maxClosest]byte
	return closestText(append(kb[:0], key...), names)
}

// closestKey is closest for the key token raw (quotes included), read as
// encoding/json reads it (unquoteKey), with no allocation.
func closestKey(raw []byte, names []string) string {
	if end, f, ok := jsonlex.String(raw, 0); ok && end == len(raw) && f&jsonlex.Escaped == 0 && (f&jsonlex.NonASCII == 0 || utf8.Valid(raw)) {
		return closestText(raw[1:len(raw)-1], names) // its text is its bytes
	}
	if len(raw) > 2+6*maxClosest {
		return "" // its text is longer than maxClosest: an escape is at most 6 bytes for one
	}
	var tb [3 * (2 + 6*maxClosest)]byte // each byte of raw at most 3 of text (U+FFFD)
	if text, ok := jsonlex.Unquote(tb[:0], raw); ok {
		return closestText(text, names)
	}
	return closestText(raw, names)
}

// nameRunes is how much of a name closest reads: past maxClosest+3
// characters no distance is small enough, and the prefixes need no more.
const nameRunes = maxClosest + 4

// A normalized is a text lowered, without '_', '-', ' ' and '.': its
// first characters (up to nameRunes), its length in bytes (as UTF-8,
// counted up to where it is cut), and whether it is cut.
type normalized struct {
	r     [nameRunes]rune
	n     int // characters in r
	bytes int
	cut   bool
}

func (z *normalized) put(r rune) bool {
	switch r = unicode.ToLower(r); r {
	case '_', '-', ' ', '.':
		return true
	}
	if z.n == len(z.r) {
		z.cut = true
		return false
	}
	z.r[z.n] = r
	z.n++
	z.bytes += utf8.RuneLen(r)
	return true
}

func (z *normalized) runes() []rune { return z.r[:z.n] }

func normalizeBytes(z *normalized, s []byte) {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		if !z.put(r) {
			return
		}
		i += size
	}
}

func normalizeString(z *normalized, s string) {
	for _, r := range s {
		if !z.put(r) {
			return
		}
	}
}

func closestText(key []byte, names []string) string {
	if len(key) == 0 || len(key) > maxClosest || !utf8.Valid(key) {
		return ""
	}
	var k, n normalized
	normalizeBytes(&k, key)
	nk := k.runes()
	for _, name := range names {
		n = normalized{}
		normalizeString(&n, name)
		if !n.cut && equalRunes(n.runes(), nk) {
			return name
		}
	}
	best, bestD := "", 0
	for _, name := range names {
		n = normalized{}
		normalizeString(&n, name)
		limit := 1
		l := k.bytes
		if !n.cut {
			l = min(l, n.bytes)
		}
		switch {
		case l > 8:
			limit = 3
		case l > 4:
			limit = 2
		}
		if n.cut || abs(n.n-len(nk)) > limit {
			continue // the distance is at least the difference in length
		}
		if d := distance(nk, n.runes()); d <= limit && (best == "" || d < bestD) {
			best, bestD = name, d
		}
	}
	if best != "" {
		return best
	}
	if k.bytes >= 3 {
		for _, name := range names {
			n = normalized{}
			normalizeString(&n, name)
			nn := n.runes()
			if len(nn) >= len(nk) && equalRunes(nn[:len(nk)], nk) ||
				!n.cut && n.bytes >= 3 && len(nn) <= len(nk) && equalRunes(nk[:len(nn)], nn) {
				return name
			}
		}
	}
	return ""
}

func equalRunes(a, b []rune) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// distance is the Levenshtein distance between a and b, in runes; b is at
// most nameRunes long.
func distance(a, b []rune) int {
	var prev, cur [nameRunes + 1]int
	for j := range len(b) + 1 {
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
