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
	if jsonlex.KindAt(el, 0) == jsonlex.KindString {
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
// too deep is still quoted). On text that is not valid JSON it stops at the
// first byte that does not fit, with what it read up to there.
func elements(data []byte) [][]byte {
	var out [][]byte
	// value reads the value at data[i] and returns the offset past it, or
	// false where the text does not fit.
	var value func(i int) (int, bool)
	value = func(i int) (int, bool) {
		start, at := i, len(out)
		out = append(out, nil) // filled in below, once the end is known
		ok := true
		switch k := jsonlex.KindAt(data, i); k {
		case jsonlex.KindObject, jsonlex.KindArray:
			next, more, opened := jsonlex.Open(data, i)
			ok = opened
			for i = next; ok && more; {
				if k == jsonlex.KindObject {
					var key jsonlex.Span
					if key, _, i, ok = jsonlex.Key(data, i); !ok {
						break
					}
					out = append(out, data[key.Start:key.End])
				}
				if i, ok = value(i); !ok {
					break
				}
				i, more, ok = jsonlex.Next(data, i, k)
			}
		default:
			end, err := jsonlex.Skip(data, i, jsonlex.MaxDepth)
			ok = err == nil
			i = end
		}
		out[at] = data[start:max(i, min(start+1, len(data)))]
		return i, ok
	}
	value(jsonlex.Space(data, 0))
	return out
}
