package refuse

import (
	"strings"
	"testing"
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
	} {
		if got := quoteSent([]byte(tc.raw)); got != tc.want {
			t.Errorf("quoteSent(%q) = %q, want %q", tc.raw, got, tc.want)
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
			if r < 0x20 || r == 0x7f || 0x80 <= r && r < 0xa0 || r == 0x202e || r == 0x1b {
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
