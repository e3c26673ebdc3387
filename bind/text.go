package bind

import (
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// foldName appends to dst the case-folded form of name, as encoding/json's
// foldName computes it (fold.go): two names fold alike exactly when
// bytes.EqualFold says they are equal.
func foldName(dst, name []byte) []byte {
	for i := 0; i < len(name); {
		if c := name[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			dst = append(dst, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(name[i:])
		dst = utf8.AppendRune(dst, foldRune(r))
		i += n
	}
	return dst
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

// unquote appends to dst the text of the JSON string s (quotes included),
// as encoding/json's unquoteBytes reads it: escapes resolved, invalid UTF-8
// and unpaired surrogates replaced by U+FFFD. It reports false where
// unquoteBytes would fail. The scanner has already checked s, so outside a
// ,string value it never fails.
func unquote(dst, s []byte) ([]byte, bool) {
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return dst, false
	}
	s = s[1 : len(s)-1]
	for r := 0; r < len(s); {
		switch c := s[r]; {
		case c == '\\':
			r++
			if r >= len(s) {
				return dst, false
			}
			switch s[r] {
			default:
				return dst, false
			case '"', '\\', '/', '\'':
				dst = append(dst, s[r])
				r++
			case 'b':
				dst = append(dst, '\b')
				r++
			case 'f':
				dst = append(dst, '\f')
				r++
			case 'n':
				dst = append(dst, '\n')
				r++
			case 'r':
				dst = append(dst, '\r')
				r++
			case 't':
				dst = append(dst, '\t')
				r++
			case 'u':
				r--
				rr := getu4(s[r:])
				if rr < 0 {
					return dst, false
				}
				r += 6
				if utf16.IsSurrogate(rr) {
					rr1 := getu4(s[r:])
					if dec := utf16.DecodeRune(rr, rr1); dec != unicode.ReplacementChar {
						r += 6
						dst = utf8.AppendRune(dst, dec)
						break
					}
					rr = unicode.ReplacementChar
				}
				dst = utf8.AppendRune(dst, rr)
			}
		case c == '"', c < ' ':
			return dst, false
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			r++
		default:
			rr, size := utf8.DecodeRune(s[r:])
			r += size
			dst = utf8.AppendRune(dst, rr)
		}
	}
	return dst, true
}

func getu4(s []byte) rune {
	if len(s) < 6 || s[0] != '\\' || s[1] != 'u' {
		return -1
	}
	var r rune
	for _, c := range s[2:6] {
		switch {
		case '0' <= c && c <= '9':
			c = c - '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return -1
		}
		r = r*16 + rune(c)
	}
	return r
}

// isValidNumber reports whether s is a JSON number: encoding/json's rule for
// the text of a json.Number.
func isValidNumber(s []byte) bool {
	if len(s) == 0 {
		return false
	}
	if s[0] == '-' {
		s = s[1:]
		if len(s) == 0 {
			return false
		}
	}
	switch {
	default:
		return false
	case s[0] == '0':
		s = s[1:]
	case '1' <= s[0] && s[0] <= '9':
		s = s[1:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && s[0] == '.' && '0' <= s[1] && s[1] <= '9' {
		s = s[2:]
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	if len(s) >= 2 && (s[0] == 'e' || s[0] == 'E') {
		s = s[1:]
		if s[0] == '+' || s[0] == '-' {
			s = s[1:]
			if len(s) == 0 {
				return false
			}
		}
		for len(s) > 0 && '0' <= s[0] && s[0] <= '9' {
			s = s[1:]
		}
	}
	return len(s) == 0
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
