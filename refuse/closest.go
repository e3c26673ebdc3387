package refuse

import (
	"math/bits"
	"slices"
	"unicode"
	"unicode/utf8"

	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/toolrec"
)

// maxClosest is the longest key, in bytes, that closest looks for a name
// for.
const maxClosest = 64

// closest returns the name in names that key most likely meant: one equal
// to it but for case, underscores, hyphens and spaces; else one a small
// edit away; else one it is a prefix of (or that is a prefix of it).
// It returns "" when none is close.
//
// The names are normalized first (nearNames): a tool's once, in its
// record (closestKey). Past that it allocates nothing, and its work is
// bounded for each name whatever the key: a key past maxClosest bytes is not looked up, a name is read
// up to maxClosest+4 characters (normalized), and the edit distance, at
// most 3, is computed only for a name within 3 characters of the key's
// length whose runes (the classes of runes either lacks, then
// boundedDistance's bag bound) allow it, over the
// cells within 3 of the diagonal: at most 64 × 7.
func closest(key string, names []string) string {
	if key == "" || len(key) > maxClosest || !utf8.ValidString(key) {
		return ""
	}
	var kb [maxClosest]byte
	return closestText(append(kb[:0], key...), nearNames(names))
}

// closestKey is closest for the key token raw (quotes included), read as
// encoding/json reads it (unquoteKey), among names normalized once
// (nearNames), with no allocation.
func closestKey(raw []byte, names []toolrec.NearName) string {
	if end, f, ok := jsonlex.String(raw, 0); ok && end == len(raw) && f&jsonlex.Escaped == 0 && (f&jsonlex.NonASCII == 0 || utf8.Valid(raw)) {
		if key := raw[1 : len(raw)-1]; len(key) > 0 && len(key) <= maxClosest {
			return closestValid(key, names) // its text is its bytes, valid UTF-8
		}
		return ""
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

// asciiNormal is what put keeps of each ASCII character: its lowered
// rune, -1 for the ones it drops.
var asciiNormal = func() (t [utf8.RuneSelf]rune) {
	for b := range t {
		var z normalized
		t[b] = -1
		if z.put(rune(b)); z.n == 1 {
			t[b] = z.r[0]
		}
	}
	return t
}()

// nearNames returns names as closest compares a key to them, normalized.
func nearNames(names []string) []toolrec.NearName {
	near := make([]toolrec.NearName, len(names))
	var z normalized
	for i, name := range names {
		z.n, z.bytes, z.cut = 0, 0, false // r past n is never read
		normalizeString(&z, name)
		near[i] = toolrec.NearName{Name: name, Runes: slices.Clone(z.runes()), Bytes: z.bytes, Cut: z.cut, Classes: classes(z.runes())}
	}
	return near
}

// classes is the set of the classes of rs, a rune's class its last six
// bits (bit r&63 for rune r), as bagDistance tells runes apart.
func classes(rs []rune) uint64 {
	var c uint64
	for _, r := range rs {
		c |= 1 << (r & 63)
	}
	return c
}

func normalizeBytes(z *normalized, s []byte) {
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf { // ASCII: put's, by table, a byte a character
			switch r := asciiNormal[b]; {
			case r < 0: // dropped
			case z.n == len(z.r):
				z.cut = true
				return
			default:
				z.r[z.n] = r
				z.n++
				z.bytes++
			}
			i++
			continue
		}
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

// closestText is closest for key's text, in one pass over names that
// finds the first name equal to the key (the answer), the closest a small
// edit away, and the first that is a prefix of the key or has it as one.
func closestText(key []byte, names []toolrec.NearName) string {
	if len(key) == 0 || len(key) > maxClosest || !utf8.Valid(key) {
		return ""
	}
	return closestValid(key, names)
}

// closestValid is closestText for a key of valid UTF-8, of 1 to
// maxClosest bytes.
func closestValid(key []byte, names []toolrec.NearName) string {
	var k normalized
	normalizeBytes(&k, key)
	nk := k.runes()
	kc := classes(nk)
	best, bestD, prefix := "", 0, ""
	for i := range names {
		n := &names[i]
		nn := n.Runes
		// The classes of runes one has and the other lacks: none of the
		// key's for a name equal to it or that it is a prefix of, none of
		// the name's for one that is a prefix of the key; each is one
		// edit's of a distance.
		kOnly, nOnly := kc&^n.Classes, n.Classes&^kc
		if kOnly|nOnly == 0 && !n.Cut && equalRunes(nn, nk) {
			return n.Name
		}
		limit := 1
		l := k.bytes
		if !n.Cut {
			l = min(l, n.Bytes)
		}
		switch {
		case l > 8:
			limit = 3
		case l > 4:
			limit = 2
		}
		// The distance is at least the difference in length, and at least
		// either count of classes.
		if !n.Cut && abs(len(nn)-len(nk)) <= limit &&
			bits.OnesCount64(kOnly) <= limit && bits.OnesCount64(nOnly) <= limit {
			if d := boundedDistance(nk, nn, limit); d <= limit && (best == "" || d < bestD) {
				best, bestD = n.Name, d
			}
		}
		if prefix == "" && (kOnly == 0 && len(nn) >= len(nk) && equalRunes(nn[:len(nk)], nk) ||
			nOnly == 0 && !n.Cut && n.Bytes >= 3 && len(nn) <= len(nk) && equalRunes(nk[:len(nn)], nn)) {
			prefix = n.Name
		}
	}
	if best != "" {
		return best
	}
	if k.bytes >= 3 {
		return prefix
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

// boundedDistance is the Levenshtein distance between a and b, in runes,
// where it is at most k, and k+1 where it is more: only the cells within k
// of the diagonal are computed, and a row all past k ends it. b is at most
// nameRunes long, and k below it.
func boundedDistance(a, b []rune, k int) int {
	over := uint8(k + 1)
	if abs(len(a)-len(b)) > k || bagDistance(a, b) > k {
		return int(over) // the distance is at least either
	}
	var prev, cur [nameRunes + 2]uint8 // each cell at most over, 4
	for j := 0; j <= len(b) && j <= int(over); j++ {
		prev[j] = uint8(j)
	}
	for i := 1; i <= len(a); i++ {
		lo, hi := max(1, i-k), min(len(b), i+k)
		cur[lo-1] = over
		if lo == 1 {
			cur[0] = uint8(min(i, int(over)))
		}
		least := cur[lo-1]
		for j := lo; j <= hi; j++ {
			cost := uint8(1)
			if a[i-1] == b[j-1] {
				cost = 0
			}
			c := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost, over)
			cur[j] = c
			least = min(least, c)
		}
		if hi < len(b) {
			cur[hi+1] = over // past the band: the next row reads it
		}
		if least >= over {
			return int(over)
		}
		prev, cur = cur, prev
	}
	return int(min(prev[len(b)], over))
}

// bagDistance is a bound below the Levenshtein distance between a and b,
// cheap to take: the runes of the longer that the other lacks, telling
// runes apart by their last six bits only (which can only make it
// smaller). An edit changes at most one rune of each.
func bagDistance(a, b []rune) int {
	var count [64]int8 // each at most len(a), 64
	for _, r := range a {
		count[r&63]++
	}
	matched := 0
	for _, r := range b {
		if count[r&63] > 0 {
			matched++
		}
		count[r&63]--
	}
	return max(len(a), len(b)) - matched
}
