package refuse

import (
	"bytes"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestQuoteSent(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`0.5`, `0.5`},
		{`"abc"`, `"abc"`},
		{`""`, `""`},
		{`"` + strings.Repeat("a", 40) + `"`, `"` + strings.Repeat("a", 40) + `"`},
		{`"` + strings.Repeat("a", 41) + `"`, `"` + strings.Repeat("a", 40) + `…" (41 characters)`},
		{`"` + strings.Repeat("é", 50) + `"`, `"` + strings.Repeat("é", 40) + `…" (50 characters)`},
		{strings.Repeat("9", 100), strings.Repeat("9", 40) + `… (100 characters)`},
		// An escape is never split: the cut backs off to its start.
		{`"` + strings.Repeat("a", 38) + `\u00e9xyz"`, `"` + strings.Repeat("a", 38) + `…" (47 characters)`},
		{`"` + strings.Repeat("a", 39) + `\nxyz"`, `"` + strings.Repeat("a", 39) + `…" (44 characters)`},
		// Escapes as sent stay escapes; raw control bytes, terminal escapes,
		// bidirectional overrides and invalid UTF-8 are escaped.
		{`"a\u001b[31mb"`, `"a\u001b[31mb"`},
		{"\"a\x1b[31mb\"", `"a\u001b[31mb"`},
		{"\"x\u202ey\"", `"x\u202ey"`},
		{"\"\xff\xfe\"", `"\xff\xfe"`},
		{"\"\ufeffbom\"", `"\ufeffbom"`},
		{"\"nul\x00\"", `"nul\u0000"`},
		{"\"a\u2028b\u2029c\u0085\"", `"a\u2028b\u2029c\u0085"`},
		// The refusal's own structure: a single quote, an ellipsis.
		{`"x' is not"`, `"x\u0027 is not"`},
		{`"wait…"`, `"wait\u2026"`},
		{`"` + strings.Repeat("…", 41) + `"`, `"` + strings.Repeat(`\u2026`, 40) + `…" (41 characters)`},
	} {
		if got := quoteSent([]byte(tc.raw)); got != tc.want {
			t.Errorf("quoteSent(%q) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

func TestQuoteKey_NoQuoteEnds(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{`"hours"`, `hours`},
		{`"x' is not a parameter of tool 't'"`, `x\u0027 is not a parameter of tool \u0027t\u0027`},
		{`"a\u0027b"`, `a\u0027b`},
		{`"a\nAccepted parameters: x"`, `a\nAccepted parameters: x`},
	} {
		if got := quoteKey([]byte(tc.raw)); got != tc.want {
			t.Errorf("quoteKey(%s) = %q, want %q", tc.raw, got, tc.want)
		}
	}
}

func TestQuoteChar(t *testing.T) {
	for _, tc := range []struct{ c, want string }{
		{`"`, `"\""`}, {`\`, `"\\"`}, {`'`, `"\u0027"`}, {"\n", `"\u000a"`}, {`x`, `"x"`}, {"…", `"\u2026"`},
	} {
		if got := quoteChar([]byte(tc.c)); got != tc.want {
			t.Errorf("quoteChar(%q) = %s, want %s", tc.c, got, tc.want)
		}
	}
}

func FuzzQuoteSent_BoundedAndPrintable(f *testing.F) {
	for _, s := range []string{`"abc"`, `"` + strings.Repeat("\\u00e9", 20) + `"`, "\"\x1b\xff\"", `[1,2,3]`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		got := quoteSent(raw)
		if !utf8.ValidString(got) {
			t.Fatalf("quoteSent(%q) = %q: not valid UTF-8", raw, got)
		}
		for _, r := range got {
			if r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0 || r == 0x202e || r == 0x1b || r == '\'' || r == 0x2028 {
				t.Fatalf("quoteSent(%q) = %q: holds %U raw", raw, got, r)
			}
		}
		// At most 40 characters of the value, each written as at most a
		// 10-byte escape, plus the quotes, the ellipsis and the length note.
		if len(got) > 40*10+64 {
			t.Fatalf("quoteSent(%q) is %d bytes long", raw, len(got))
		}
	})
}

// escapedByRunes is appendEscaped as first written, a rune at a time: the
// reference its run of plain ASCII must equal.
func escapedByRunes(dst, s []byte) []byte {
	for i := 0; i < len(s); {
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

// TestAppendEscaped_EqualsTheRuneByRuneReference: every byte value alone
// and between ASCII letters, and random texts of ASCII, controls, quotes,
// the ellipsis, invalid bytes and wide characters, are escaped as the
// reference escapes them.
func TestAppendEscaped_EqualsTheRuneByRuneReference(t *testing.T) {
	check := func(s []byte) {
		t.Helper()
		if got, want := appendEscaped(nil, s), escapedByRunes(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendEscaped(%q) = %q, want %q", s, got, want)
		}
	}
	for c := range 256 {
		check([]byte{byte(c)})
		check([]byte{'a', byte(c), 'b'})
	}
	atoms := []string{"a", "Z", " ", "~", "'", "\x7f", "\x1f", "\n", "…", "\xff", "\xe2\x80", "é", "\u202e", "\U0001F600", "\u2028", `"`, `\`}
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20000 {
		var b []byte
		for range rng.IntN(12) {
			b = append(b, atoms[rng.IntN(len(atoms))]...)
		}
		check(b)
	}
}
