package jsonlex

import (
	"unicode/utf16"
	"unicode/utf8"
)

// ReplacedAt returns the offset in the string token tok (valid, quotes
// included, its flags f) of the first text encoding/json replaces with
// U+FFFD (see Replaced): the first byte of invalid UTF-8, or the
// backslash of a surrogate escape no other half follows; -1 for none.
// It is where go-json-experiment, which fails on such text, reports it.
func ReplacedAt(tok []byte, f StringFlags) int {
	if f&(NonASCII|Escaped) == 0 {
		return -1
	}
	for i := 1; i < len(tok)-1; {
		switch c := tok[i]; {
		case c == '\\':
			if tok[i+1] != 'u' {
				i += 2
				continue
			}
			r := hex4(tok[i+2:])
			if !utf16.IsSurrogate(r) {
				i += 6
				continue
			}
			if i+12 > len(tok)-1 || tok[i+6] != '\\' || tok[i+7] != 'u' || utf16.DecodeRune(r, hex4(tok[i+8:])) == utf8.RuneError {
				return i
			}
			i += 12 // the pair
		case c >= utf8.RuneSelf:
			r, n := utf8.DecodeRune(tok[i : len(tok)-1])
			if r == utf8.RuneError && n == 1 {
				return i
			}
			i += n
		default:
			i++
		}
	}
	return -1
}
