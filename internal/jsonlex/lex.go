package jsonlex

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"
)

// A Span is the half-open range d[Start:End] of the text.
type Span struct{ Start, End int }

// Len is the span's length in bytes.
func (s Span) Len() int { return s.End - s.Start }

// Space returns the offset of the first byte at or after i that is not
// JSON white space (space, tab, newline, carriage return).
func Space(d []byte, i int) int {
	for i < len(d) && white[d[i]] {
		i++
	}
	return i
}

// white marks JSON's white space.
var white = [256]bool{' ': true, '\t': true, '\n': true, '\r': true}

// StringFlags tell what a string token holds beyond plain ASCII text.
type StringFlags uint8

const (
	// Escaped: the string holds a backslash escape, so its text differs
	// from its bytes and must be unquoted to be read.
	Escaped StringFlags = 1 << iota
	// NonASCII: the string holds a byte past ASCII, so it may hold
	// invalid UTF-8 (which encoding/json reads as U+FFFD).
	NonASCII
)

// plain marks the bytes a string holds as they are: not a quote, not a
// backslash, not a control character; plainASCII, those below 0x80.
var plain, plainASCII = func() (t, a [256]bool) {
	for i := range t {
		t[i] = i >= 0x20 && i != '"' && i != '\\'
		a[i] = t[i] && i < 0x80
	}
	return t, a
}()

// String reads the string token whose opening quote is d[i] and returns
// the offset past its closing quote, with what it holds. It fails (ok
// false, end the offending byte) on a control character, a bad escape or
// text that ends first. Invalid UTF-8 is not an error: encoding/json reads
// it as U+FFFD.
func String(d []byte, i int) (end int, f StringFlags, ok bool) {
	i++ // the opening quote
	// The first word, apart: a string of at most seven plain ASCII bytes
	// (most keys, many values) ends at its first stop, a quote. Any other
	// stop, or none, is where the loop below would be after its first
	// word, and it goes on from there.
	if i+8 <= len(d) {
		if m := asciiStops(binary.LittleEndian.Uint64(d[i:])); m != 0 {
			if i += bits.TrailingZeros64(m) >> 3; d[i] == '"' {
				return i + 1, 0, true
			}
		} else {
			i += 8
		}
	}
	for {
		for {
			// The run of plain bytes, eight at a time while eight remain:
			// the first byte that ends it (a quote, a backslash, a control
			// character, or until the first, a byte past ASCII) is the
			// lowest the word's test marks, exactly; then the last bytes
			// one at a time.
			// (A word's stop is no plain byte: the bytes one at a time
			// only where fewer than eight remain.)
			if f&NonASCII == 0 {
				for {
					if i+8 > len(d) {
						for i < len(d) && plainASCII[d[i]] {
							i++
						}
						break
					}
					if m := asciiStops(binary.LittleEndian.Uint64(d[i:])); m != 0 {
						i += bits.TrailingZeros64(m) >> 3
						break
					}
					i += 8
				}
			} else {
				for {
					if i+8 > len(d) {
						for i < len(d) && plain[d[i]] {
							i++
						}
						break
					}
					if m := stops(binary.LittleEndian.Uint64(d[i:])); m != 0 {
						i += bits.TrailingZeros64(m) >> 3
						break
					}
					i += 8
				}
			}
			if f&NonASCII != 0 || i >= len(d) || d[i] < utf8.RuneSelf {
				break
			}
			f |= NonASCII
		}
		if i >= len(d) {
			return i, f, false
		}
		switch d[i] {
		case '"':
			return i + 1, f, true
		case '\\':
			f |= Escaped
			i++
			if i >= len(d) {
				return i, f, false
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(d) || !isHex(d[i+k]) {
						return i + k, f, false
					}
				}
				i += 5
			default:
				return i, f, false
			}
		default: // a control character
			return i, f, false
		}
	}
}

// stops returns a word whose high bits mark (at least the first of) the
// bytes of x that are a quote, a backslash or a control character, 0 when
// none is: the exact tests for a zero byte and a byte below 0x20 (the high
// bit of each byte below the first such byte is clear).
func stops(x uint64) uint64 {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	q := x ^ (ones * '"')
	b := x ^ (ones * '\\')
	return ((x-ones*0x20)&^x | (q-ones)&^q | (b-ones)&^b) & high
}

// asciiStops is stops that also marks the bytes past ASCII. A byte's high
// bit marks it already, so the tests for a quote and a backslash need not
// clear the marks of bytes past ASCII: three subtractions, no masks. As in
// stops, the lowest byte marked is the first such byte: no byte below it
// borrows, and each of its tests leaves the high bit clear.
func asciiStops(x uint64) uint64 {
	const ones, high = 0x0101010101010101, 0x8080808080808080
	return (x | (x - ones*0x20) | ((x ^ ones*'"') - ones) | ((x ^ ones*'\\') - ones)) & high
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

// A Num is the shape of a number token: its sign, the digits of its
// integer part and their value, and whether a fraction or an exponent
// follows.
type Num struct {
	Neg bool
	// Int spans the digits of the integer part ("0", or a run starting
	// with 1-9).
	Int Span
	// Mag is the value of Int's digits where there are at most 19 of them
	// (every such value fits in a uint64); past that, the value modulo
	// 2^64, which no caller should read.
	Mag       uint64
	Frac, Exp bool
}

// Number reads the number token at d[i] (a '-' or a digit) and returns the
// offset past it with its shape. It fails (ok false, end the offending
// byte) where the grammar does: "-", "01" reads as "0" followed by more
// text, "1.", "1e". It is NumberInt's reading, as a Num.
func Number(d []byte, i int) (end int, n Num, ok bool) {
	end, intEnd, mag, shape, ok := NumberInt(d, i)
	n = Num{Neg: shape&NumNeg != 0, Int: Span{i, intEnd}, Mag: mag, Frac: shape&NumFrac != 0, Exp: shape&NumExp != 0}
	if n.Neg {
		n.Int.Start++
	}
	return end, n, ok
}

// A NumShape is what a number token holds beyond its integer part's
// digits: a sign, a fraction, an exponent.
type NumShape uint8

const (
	NumNeg NumShape = 1 << iota
	NumFrac
	NumExp
)

// NumberInt reads the number token at d[i] (a '-' or a digit), as Number
// does, for a reader of its integer part: it returns the offset past the
// token, where the integer part's digits end (they start at i, or past
// the sign), their value (Num.Mag) and the token's shape. Its results
// travel in registers, with no struct to fill: the checker's walk reads
// every number through it.
func NumberInt(d []byte, i int) (end, intEnd int, mag uint64, shape NumShape, ok bool) {
	if i < len(d) && d[i] == '-' {
		shape = NumNeg
		i++
	}
	if i >= len(d) {
		return i, i, 0, shape, false
	}
	switch {
	case d[i] == '0':
		i++
	case '1' <= d[i] && d[i] <= '9':
		mag = uint64(d[i] - '0')
		for i++; i < len(d) && '0' <= d[i] && d[i] <= '9'; i++ {
			mag = mag*10 + uint64(d[i]-'0')
		}
	default:
		return i, i, 0, shape, false
	}
	intEnd = i
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, intEnd, mag, shape, false
		}
		i = Digits(d, i+1)
		shape |= NumFrac
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return i, intEnd, mag, shape, false
		}
		i = Digits(d, i+1)
		shape |= NumExp
	}
	return i, intEnd, mag, shape, true
}

// Digits returns the offset past the run of ASCII digits at d[i] (i
// itself where there is none).
func Digits(d []byte, i int) int {
	for i < len(d) && '0' <= d[i] && d[i] <= '9' {
		i++
	}
	return i
}

// Literal reads the literal lit ("true", "false" or "null") at d[i] and
// returns the offset past it; it fails (ok false, end the first byte that
// differs) on anything else.
func Literal(d []byte, i int, lit string) (end int, ok bool) {
	for k := 0; k < len(lit); k++ {
		if i+k >= len(d) || d[i+k] != lit[k] {
			return i + k, false
		}
	}
	return i + len(lit), true
}

// Unquote appends the text of the valid string token raw (quotes
// included) to dst, as encoding/json reads it: escapes decoded, each byte
// of invalid UTF-8 and each \u escape of a surrogate not paired with the
// escape after it as U+FFFD. It reports false, leaving dst as it was, when
// raw is not a valid string token.
func Unquote(dst, raw []byte) ([]byte, bool) {
	if len(raw) < 2 || raw[0] != '"' {
		return dst, false
	}
	if end, _, ok := String(raw, 0); !ok || end != len(raw) {
		return dst, false
	}
	s := raw[1 : len(raw)-1]
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i++
			switch s[i] {
			case 'b':
				dst = append(dst, '\b')
			case 'f':
				dst = append(dst, '\f')
			case 'n':
				dst = append(dst, '\n')
			case 'r':
				dst = append(dst, '\r')
			case 't':
				dst = append(dst, '\t')
			case 'u':
				r := hex4(s[i+1:])
				i += 5
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 <= len(s) && s[i] == '\\' && s[i+1] == 'u' {
						r2 = hex4(s[i+2:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						i += 6
						r = dec
					} else {
						r = utf8.RuneError
					}
				}
				dst = utf8.AppendRune(dst, r)
				continue
			default: // '"', '\\', '/'
				dst = append(dst, s[i])
			}
			i++
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:]) // invalid UTF-8: U+FFFD, one byte
			dst = utf8.AppendRune(dst, r)
			i += size
		}
	}
	return dst, true
}

// Replaced reports whether encoding/json, reading the valid string token
// tok (quotes included, f its flags from String) as text, replaces some of
// it with U+FFFD: a byte sequence that is not UTF-8, or a \u escape of a
// surrogate not paired with the escape right after it.
func Replaced(tok []byte, f StringFlags) bool {
	s := tok[1 : len(tok)-1]
	if f&NonASCII != 0 && !utf8.Valid(s) {
		return true
	}
	if f&Escaped == 0 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			continue
		}
		i++
		if s[i] != 'u' {
			continue
		}
		r := hex4(s[i+1:])
		i += 4
		if !utf16.IsSurrogate(r) {
			continue
		}
		if i+6 >= len(s) || s[i+1] != '\\' || s[i+2] != 'u' || utf16.DecodeRune(r, hex4(s[i+3:])) == utf8.RuneError {
			return true
		}
		i += 6 // the pair's second half
	}
	return false
}

// hex4 decodes the four hex digits at the start of s.
func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r<<4 | rune(c)
	}
	return r
}
