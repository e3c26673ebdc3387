package refuse

import (
	"strconv"
	"unicode"
	"unicode/utf8"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// maxSent is how many characters of an offending value a refusal quotes.
const maxSent = 40

// quoteSent renders raw, the JSON text of a value as sent, for a refusal:
// at most maxSent characters of it (cut on a character boundary, and never
// inside an escape), every character that is not printable escaped, and
// the full length named when cut, as in "aaaa…" (5000000 characters). A
// string's length counts the characters between its quotes, as written
// (jsonlex.CutWritten: an escape counts the characters it is written with).
func quoteSent(raw []byte) string {
	var buf [4*maxSent + 32]byte // the quote of most values: one allocation, the string
	return string(appendSent(buf[:0], raw))
}

// appendSent appends quoteSent's text of raw to dst.
func appendSent(dst, raw []byte) []byte {
	dst, _ = appendSentWhole(dst, raw)
	return dst
}

// appendSentWhole is appendSent, and reports whether raw is a string
// quoted whole (not cut).
func appendSentWhole(dst, raw []byte) ([]byte, bool) {
	if body, ok := jsonlex.Quoted(raw); ok {
		cut, n := jsonlex.CutWritten(body, maxSent)
		dst = appendEscaped(append(dst, '"'), body[:cut])
		if cut == len(body) {
			return append(dst, '"'), true
		}
		return append(strconv.AppendInt(append(dst, `…" (`...), int64(n), 10), ` characters)`...), false
	}
	return appendSentValue(dst, raw), false
}

// appendSentValue is appendSent of raw, not a string.
func appendSentValue(dst, raw []byte) []byte {
	var cut, n int
	if jsonlex.KindAt(raw, 0) == jsonlex.KindNumber {
		cut, n = min(len(raw), maxSent), len(raw) // a number is ASCII: a byte a character
	} else {
		cut, n = jsonlex.CutWritten(raw, maxSent)
	}
	dst = appendEscaped(dst, raw[:cut])
	if cut == len(raw) {
		return dst
	}
	return append(strconv.AppendInt(append(dst, "… ("...), int64(n), 10), " characters)"...)
}

// quoteKey renders the raw JSON text of a key as a name for a sentence:
// its unquoted text, cut and escaped as quoteSent does (a key cut short
// keeps its quotes, before the count).
func quoteKey(raw []byte) string {
	if body, ok := jsonlex.Quoted(raw); ok {
		if cut, _ := jsonlex.CutWritten(body, maxSent); cut == len(body) {
			return escapeText(body)
		}
	}
	return quoteSent(raw)
}

// escapeText writes s with every character that is not printable (control
// characters, line and paragraph separators, terminal escapes,
// bidirectional overrides, invalid UTF-8) escaped, so a refusal can be
// shown raw on any terminal or page, and with the two characters a
// refusal's text is built with escaped too: the single quote around a name
// and the ellipsis that marks a cut (as \u0027 and \u2026, JSON's own
// escapes for them). Text the caller sent then cannot end the quotes
// around it, break a line, or fake a cut: every ' and … in a refusal is
// the refusal's own.
func escapeText(s []byte) string {
	return string(appendEscaped(make([]byte, 0, len(s)), s))
}

// appendEscaped appends escapeText's text of s to dst.
func appendEscaped(dst, s []byte) []byte {
	for i := 0; i < len(s); {
		j := i // a run of printable ASCII but the single quote, written as it is
		for j < len(s) && ' ' <= s[j] && s[j] < utf8.RuneSelf-1 && s[j] != '\'' {
			j++
		}
		dst = append(dst, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = appendHex(append(dst, `\x`...), uint32(s[i]), 2)
		case r == '\'' || r == '…':
			dst = appendHex(append(dst, `\u`...), uint32(r), 4)
		case r == ' ' || unicode.IsPrint(r):
			dst = append(dst, s[i:i+size]...)
		case r <= 0xFFFF:
			dst = appendHex(append(dst, `\u`...), uint32(r), 4)
		default:
			dst = appendHex(append(dst, `\U`...), uint32(r), 8)
		}
		i += size
	}
	return dst
}

// appendHex appends v in n lower-case hexadecimal digits, as %0nx does.
func appendHex(dst []byte, v uint32, n int) []byte {
	const digits = "0123456789abcdef"
	for i := n - 1; i >= 0; i-- {
		dst = append(dst, digits[v>>(4*i)&0xf])
	}
	return dst
}

// quoteChar quotes the one character c of the arguments, as sent, for a
// syntax error: between double quotes, escaped as escapeText does, with a
// quote or a backslash escaped as JSON escapes them.
func quoteChar(c []byte) string {
	switch string(c) {
	case `"`:
		return `"\""`
	case `\`:
		return `"\\"`
	}
	return `"` + escapeText(c) + `"`
}
