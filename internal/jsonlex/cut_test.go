package jsonlex

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// cutAgrees checks CutString on the valid string token tok against
// Unquote: the head holds min(n, all) characters, head and rest unquote
// to the whole text, and more tells whether a rest is left.
func cutAgrees(t *testing.T, tok []byte, n int) {
	t.Helper()
	whole, ok := Unquote(nil, tok)
	if !ok {
		return
	}
	cut, more := CutString(tok, n)
	head, ok1 := Unquote(nil, append(bytes.Clone(tok[:cut]), '"'))
	rest, ok2 := Unquote(nil, append([]byte{'"'}, tok[cut:]...))
	switch {
	case !ok1 || !ok2:
		t.Fatalf("CutString(%q, %d) = %d: cut inside a character", tok, n, cut)
	case utf8.RuneCount(head) != min(n, utf8.RuneCount(whole)):
		t.Fatalf("CutString(%q, %d): head %q holds %d characters", tok, n, head, utf8.RuneCount(head))
	case string(head)+string(rest) != string(whole):
		t.Fatalf("CutString(%q, %d): %q + %q, want %q", tok, n, head, rest, whole)
	case more != (cut < len(tok)-1):
		t.Fatalf("CutString(%q, %d) = %d, more %v", tok, n, cut, more)
	}
}

var cutCases = []string{
	`""`, `"abc"`, `"a\"b\\c"`, `"\u00e9\u00e8"`, `"\ud83d\ude00x"`, `"\ud83dx"`, `"\ud83d\u0041"`, `"\ude00\ud83d"`,
	"\"\xff\xfe\"", "\"a\xe2\x82\xacb\"", "\"\xe2\x82\"", `"` + strings.Repeat("é", 50) + `"`,
}

func TestCutString_AgreesWithUnquote(t *testing.T) {
	for _, c := range cutCases {
		for n := 0; n <= 52; n++ {
			cutAgrees(t, []byte(c), n)
		}
	}
}

// FuzzCutString_AgreesWithUnquote: for any valid string token, CutString
// cuts between characters, keeping the n first.
func FuzzCutString_AgreesWithUnquote(f *testing.F) {
	for _, c := range cutCases {
		f.Add([]byte(c), 3)
	}
	f.Fuzz(func(t *testing.T, tok []byte, n int) {
		if end, _, ok := String(tok, 0); !ok || end != len(tok) || len(tok) < 2 || tok[0] != '"' {
			return
		}
		cutAgrees(t, tok, n&63)
	})
}
