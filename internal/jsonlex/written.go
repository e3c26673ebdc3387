package jsonlex

import "unicode/utf8"

// Text as written: a refusal quotes what a caller sent, a few characters
// of it, counted as they are written (an escape is the characters it is
// written with), and sizes the JSON it writes itself.

// Quoted returns the text between the quotes of raw when raw starts and
// ends with a double quote (at least two bytes), as a string token does,
// and whether it does. It reads the two ends only: text that is no valid
// token (cut short, or quoted by another language's rules) is read all
// the same.
func Quoted(raw []byte) (body []byte, ok bool) {
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return nil, false
	}
	return raw[1 : len(raw)-1], true
}

// CutWritten returns the byte length of the first n characters of the
// JSON text s as written, and how many characters s holds. A character as
// written is a rune of the text, a byte of invalid UTF-8, or a character
// of an escape; a cut never splits an escape (a backslash with the byte
// after it, \u with its four digits) nor a multi-byte rune. The count is
// of the same characters, so of a valid string token's inside it is
// utf8.RuneCount. It reads s whole (the count), a step a byte.
func CutWritten(s []byte, n int) (cut, chars int) {
	// A run of ASCII but the backslash: a byte a character.
	i := 0
	for i < len(s) && i < n && s[i] < utf8.RuneSelf && s[i] != '\\' {
		i++
	}
	if i == len(s) {
		return i, i
	}
	chars = i
	for i < len(s) {
		size, w := 1, 1
		switch {
		case s[i] == '\\' && i+1 < len(s) && s[i+1] == 'u':
			size = min(6, len(s)-i)
			w = size
		case s[i] == '\\' && i+1 < len(s):
			size, w = 2, 2
		default:
			_, size = utf8.DecodeRune(s[i:])
		}
		if chars+w > n {
			// Past the cut, an escape is written with as many characters
			// as bytes, so counting runes counts the rest.
			return i, chars + utf8.RuneCount(s[i:])
		}
		chars += w
		i += size
	}
	return len(s), chars
}

// QuotedLen is the length of s written as a JSON string by encoding/json:
// quotes, the two-character escapes, HTML characters and the other
// control characters as \u escapes, U+2028 and U+2029 escaped, and a byte
// of invalid UTF-8 as encoding/json writes U+FFFD for it (`\ufffd`, or
// the rune itself under GOEXPERIMENT=jsonv2).
func QuotedLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			n += int(asciiWritten[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			n += invalidByteSize
		case r == '\u2028' || r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// asciiWritten is the length of each ASCII byte as encoding/json writes it
// in a string: the two-character escapes, \u00XX for the other control
// characters and the HTML ones, the byte itself for the rest.
var asciiWritten = func() (w [utf8.RuneSelf]uint8) {
	for c := range w {
		switch {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f':
			w[c] = 2
		case c < 0x20 || c == '<' || c == '>' || c == '&':
			w[c] = 6
		default:
			w[c] = 1
		}
	}
	return w
}()

// DeepAt returns the offset of the first '[' or '{' in d that opens more
// than maxDepth arrays and objects, or -1. It counts as a pre-scan over
// any text does (go-sdk's checkMaxDepth, run before segmentio decodes):
// brackets count outside strings, a backslash in a string takes the byte
// after it, a closing bracket never takes the count below zero, and d
// need not be valid JSON. On valid text it is where Skip fails as nested
// too deep.
func DeepAt(d []byte, maxDepth int) int {
	depth := 0
	inString, escaped := false, false
	for i, b := range d {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxDepth {
				return i
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return -1
}
