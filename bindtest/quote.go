package bindtest

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// cutQuote matches a quote cut short, as refuse.Problem.Sent writes one:
// the first characters, an ellipsis (inside the closing quote, for a
// string), and the full length.
var cutQuote = regexp.MustCompile(`^(.*)…"? \([0-9]+ characters\)$`)

// quotes reports whether sent is a quote of value or of an element of it
// (an array element, an object key or member value, at any depth): the
// element's text with every unprintable character escaped, or, for an
// element longer than the 40 characters a refusal quotes, the start of that
// text followed by "…" and the full length.
func quotes(value, sent string) bool {
	prefix, cut := sent, false
	if m := cutQuote.FindStringSubmatch(sent); m != nil {
		prefix, cut = m[1], true
	}
	if prefix == "" {
		return false
	}
	for _, el := range elements([]byte(value)) {
		e, whole := escapePrefix(el, len(prefix)+1)
		switch {
		case !cut && whole && e == sent:
			return true
		case cut && len(e) > len(prefix) && strings.HasPrefix(e, prefix) && chars(el) > 40:
			return true
		}
	}
	return false
}

// chars counts the characters of a value's text as a refusal does when it
// decides to cut a quote: a string's are those between its quotes.
func chars(el []byte) int {
	n := utf8.RuneCount(el)
	if len(el) >= 2 && el[0] == '"' {
		n -= 2
	}
	return n
}

// escapePrefix escapes the characters of s that are not printable, as a
// refusal's quote does (\xff for a byte that is not UTF-8, \u202e and
// \U0001f600 for other characters), stopping once it has written n bytes.
// whole reports that it escaped all of s.
func escapePrefix(s []byte, n int) (text string, whole bool) {
	var out []byte
	i := 0
	for i < len(s) && len(out) < n {
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = fmt.Appendf(out, `\x%02x`, s[i])
		case r == ' ' || unicode.IsPrint(r):
			out = append(out, s[i:i+size]...)
		case r <= 0xFFFF:
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = fmt.Appendf(out, `\U%08x`, r)
		}
		i += size
	}
	return string(out), i == len(s)
}

// elements returns the text of the valid JSON value data and of every
// value and key inside it, outermost first, each without surrounding space,
// in one pass over data at any depth (a value the binder refuses as nested
// too deep is still quoted).
func elements(data []byte) [][]byte {
	var out [][]byte
	var value func(i int) int
	value = func(i int) int {
		i = jsonlex.Space(data, i)
		if i >= len(data) {
			return i
		}
		start, at := i, len(out)
		out = append(out, nil) // filled in below, once the end is known
		switch data[i] {
		case '{', '[':
			closer := byte('}')
			if data[i] == '[' {
				closer = ']'
			}
			i = jsonlex.Space(data, i+1)
			for i < len(data) && data[i] != closer {
				if closer == '}' {
					ks := i
					i, _, _ = jsonlex.String(data, i)
					out = append(out, data[ks:i])
					i = jsonlex.Space(data, i) + 1 // past ':'
				}
				i = jsonlex.Space(data, value(i))
				if i < len(data) && data[i] == ',' {
					i = jsonlex.Space(data, i+1)
				}
			}
			i++ // past the closer
		case '"':
			i, _, _ = jsonlex.String(data, i)
		case 't':
			i, _ = jsonlex.Literal(data, i, "true")
		case 'f':
			i, _ = jsonlex.Literal(data, i, "false")
		case 'n':
			i, _ = jsonlex.Literal(data, i, "null")
		default:
			i, _, _ = jsonlex.Number(data, i)
		}
		i = min(i, len(data))
		if i <= start {
			i = start + 1 // text that is not valid JSON: never loop
		}
		out[at] = data[start:min(i, len(data))]
		return i
	}
	value(0)
	return out
}
