package refuse

import (
	"fmt"
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
	if body, ok := jsonlex.Quoted(raw); ok {
		cut, n := jsonlex.CutWritten(body, maxSent)
		if cut == len(body) {
			return `"` + escapeText(body) + `"`
		}
		return `"` + escapeText(body[:cut]) + `…" (` + strconv.Itoa(n) + ` characters)`
	}
	var cut, n int
	if jsonlex.KindAt(raw, 0) == jsonlex.KindNumber {
		cut, n = min(len(raw), maxSent), len(raw) // a number is ASCII: a byte a character
	} else {
		cut, n = jsonlex.CutWritten(raw, maxSent)
	}
	if cut == len(raw) {
		return escapeText(raw)
	}
	return escapeText(raw[:cut]) + "… (" + strconv.Itoa(n) + " characters)"
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
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			out = fmt.Appendf(out, `\x%02x`, s[i])
		case r == '\'' || r == '…':
			out = fmt.Appendf(out, `\u%04x`, r)
		case r == ' ' || unicode.IsPrint(r):
			out = append(out, s[i:i+size]...)
		case r <= 0xFFFF:
			out = fmt.Appendf(out, `\u%04x`, r)
		default:
			out = fmt.Appendf(out, `\U%08x`, r)
		}
		i += size
	}
	return string(out)
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
