package bind

import (
	"math"
	"unicode"
	"unicode/utf8"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// foldName appends to dst the case-folded form of name, as encoding/json's
// foldName computes it (fold.go): two names fold alike exactly when
// bytes.EqualFold says they are equal.
func foldName(dst, name []byte) []byte {
	dst, _ = foldNameMax(dst, name, math.MaxInt)
	return dst
}

// foldNameMax is foldName, but reports false, with no more appended,
// once the folded name is longer than limit bytes: a key of a megabyte
// costs what one of limit+1 bytes does.
func foldNameMax(dst, name []byte, limit int) ([]byte, bool) {
	n := len(dst)
	for i := 0; i < len(name); {
		if len(dst)-n > limit {
			return dst, false
		}
		if c := name[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, size := utf8.DecodeRune(name[i:])
		dst = utf8.AppendRune(dst, foldRune(r))
		i += size
	}
	return dst, len(dst)-n <= limit
}

// foldRune returns the smallest rune of r's fold set.
func foldRune(r rune) rune {
	for {
		r2 := unicode.SimpleFold(r)
		if r2 <= r {
			return r2
		}
		r = r2
	}
}

// isValidNumber reports whether s is a JSON number: encoding/json's rule for
// the text of a json.Number, which is the grammar's (see
// TestIsValidNumber_Std).
func isValidNumber(s []byte) bool {
	end, _, ok := jsonlex.Number(s, 0)
	return ok && end == len(s)
}

// base64Valid reports whether base64.StdEncoding.Decode accepts s without
// error: the decoder encoding/json reads a []byte's string with. Carriage
// returns and newlines are ignored anywhere; the rest must be whole
// quanta of four, the last of which may end in "=" or "==".
func base64Valid(s []byte) bool {
	n := 0   // alphabet characters seen
	pad := 0 // '=' seen
	for _, c := range s {
		switch {
		case c == '\r' || c == '\n':
		case c == '=':
			if n%4 < 2 || pad >= 2 || pad == 1 && n%4 == 3 {
				return false
			}
			pad++
		case base64Alphabet[c]:
			if pad > 0 {
				return false
			}
			n++
		default:
			return false
		}
	}
	switch pad {
	case 0:
		return n%4 == 0
	case 1:
		return n%4 == 3
	default:
		return n%4 == 2
	}
}

var base64Alphabet = func() (a [256]bool) {
	for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/") {
		a[c] = true
	}
	return a
}()
