package refuse

import (
	"strings"
	"unicode/utf8"
)

// closest returns the name in names that key most likely meant: one equal
// to it but for case, underscores, hyphens and spaces; else one a small
// edit away; else one it is a prefix of (or that is a prefix of it).
// It returns "" when none is close.
func closest(key string, names []string) string {
	if key == "" || len(key) > 64 || !utf8.ValidString(key) {
		return ""
	}
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

func normalize(s string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '_', '-', ' ', '.':
			return -1
		}
		return r
	}, strings.ToLower(s))
}

// distance is the Levenshtein distance between a and b, in runes.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
