package jsonlex

import (
	"unicode/utf16"
	"unicode/utf8"
)

// CutString returns the offset in the valid string token tok (quotes
// included) just past its first n characters, and whether more follow: a
// character is what Unquote writes one rune for (a byte of text, a
// multi-byte UTF-8 sequence, an escape, a surrogate pair's two escapes, a
// byte of invalid UTF-8), so tok[:cut] with a closing quote is a valid
// token of those n characters. It reads at most the bytes it keeps: a
// long string costs what its first n characters do.
func CutString(tok []byte, n int) (cut int, more bool) {
	body := tok[1 : len(tok)-1]
	i := 0
	for k := 0; i < len(body) && k < n; k++ {
		switch {
		case body[i] == '\\' && i+1 < len(body) && body[i+1] == 'u':
			if i+6 > len(body) {
				i = len(body) // not a token: read no further
				break
			}
			i += 6
			if i+6 <= len(body) && body[i] == '\\' && body[i+1] == 'u' {
				if r := hex4(body[i-4 : i]); utf16.IsSurrogate(r) && utf16.DecodeRune(r, hex4(body[i+2:i+6])) != utf8.RuneError {
					i += 6
				}
			}
		case body[i] == '\\':
			i += 2
		case body[i] < utf8.RuneSelf:
			i++
		default:
			_, size := utf8.DecodeRune(body[i:])
			i += size
		}
	}
	i = min(i, len(body)) // a token cut short, or changed since it was read
	return 1 + i, i < len(body)
}
