package jsonlex

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// goSDKDepth is go-sdk's checkMaxDepth scan as bind ran it before DeepAt:
// the offset of the first bracket past max, or -1.
func goSDKDepth(data []byte, max int) int {
	depth := 0
	inString, escaped := false, false
	for i, b := range data {
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
			if depth > max {
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

// writtenAgrees checks Quoted, CutWritten, QuotedLen and DeepAt on d
// against encoding/json.
func writtenAgrees(t *testing.T, d []byte, n int) {
	t.Helper()
	// QuotedLen: the length of what encoding/json writes for the text.
	if out, err := json.Marshal(string(d)); err != nil || QuotedLen(string(d)) != len(out) {
		t.Fatalf("QuotedLen(%q) = %d, encoding/json writes %s (%v)", d, QuotedLen(string(d)), out, err)
	}
	// CutWritten, on any text: as a character at a time.
	{
		cut, chars := CutWritten(d, n&63)
		if c, ch := cutWrittenStepwise(d, n&63); cut != c || chars != ch {
			t.Fatalf("CutWritten(%q, %d) = %d, %d; a character at a time, %d, %d", d, n&63, cut, chars, c, ch)
		}
	}
	// DeepAt: on valid text, where Skip fails as nested too deep; on any
	// text, go-sdk's count.
	max := n & 7
	if got, want := DeepAt(d, max), goSDKDepth(d, max); got != want {
		t.Fatalf("DeepAt(%q, %d) = %d, go-sdk's count %d", d, max, got, want)
	}
	if json.Valid(d) {
		i := Space(d, 0)
		want := -1
		if _, err := Skip(d, i, max); err != nil {
			if !err.Deep {
				t.Fatalf("%q: valid, yet Skip fails at %d", d, err.Offset)
			}
			want = err.Offset
		}
		if got := DeepAt(d, max); got != want {
			t.Fatalf("DeepAt(%q, %d) = %d, Skip's too deep at %d", d, max, got, want)
		}
		// Quoted: of a valid value, exactly the strings.
		var v any
		err := json.Unmarshal(d, &v)
		_, isString := v.(string)
		if body, ok := Quoted(bytes.TrimSpace(d)); err == nil && ok != isString {
			t.Fatalf("Quoted(%q) = %q %v, encoding/json reads %T", d, body, ok, v)
		}
	}
	// CutWritten, on a valid string token: the head is a valid token (no
	// escape split), within n characters, and leaves less than the widest
	// character (an escape of six) unused; the count is every character.
	tok := bytes.TrimSpace(d)
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return
	}
	body, ok := Quoted(tok)
	if !ok {
		t.Fatalf("%q: a string, yet not Quoted", tok)
	}
	n &= 63
	cut, chars := CutWritten(body, n)
	head := body[:cut]
	switch {
	case chars != utf8.RuneCount(body):
		t.Fatalf("CutWritten(%q, %d) counts %d characters, %d are written", body, n, chars, utf8.RuneCount(body))
	case !json.Valid([]byte(`"` + string(head) + `"`)):
		t.Fatalf("CutWritten(%q, %d) = %d: cut inside an escape", body, n, cut)
	case utf8.Valid(body) && !utf8.Valid(head):
		t.Fatalf("CutWritten(%q, %d) = %d: cut inside a rune", body, n, cut)
	case utf8.RuneCount(head) > n:
		t.Fatalf("CutWritten(%q, %d) = %d: %d characters kept", body, n, cut, utf8.RuneCount(head))
	case cut < len(body) && utf8.RuneCount(head) <= n-6:
		t.Fatalf("CutWritten(%q, %d) = %d: cut short, %d characters kept", body, n, cut, utf8.RuneCount(head))
	}
}

// cutWrittenStepwise is CutWritten one character at a time, without its
// run of plain ASCII: the reference that run must equal.
func cutWrittenStepwise(s []byte, n int) (cut, chars int) {
	for i := 0; i < len(s); {
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
			return i, chars + utf8.RuneCount(s[i:])
		}
		chars += w
		i += size
	}
	return len(s), chars
}

var writtenCases = []string{
	`""`, `"abc"`, `"a\"b\\c"`, `"\u00e9\u00e8"`, `"\ud83d\ude00x"`, "\"\xff\xfe\"", "\"a\xe2\x82\xacb\"",
	`"` + strings.Repeat(`\n`, 30) + `"`, `"` + strings.Repeat("é", 50) + `"`, "\"<&>\u2028\u2029\x01\b\f\"",
	`[[[["]]]]"]]]]`, `{"a":[{"b":[1]}]}`, `"\"[[["`, `]]][[`, `[1,[2,[3,[4]]]]`, `"\`,
}

func TestWritten_AgreesWithEncodingJSON(t *testing.T) {
	for _, c := range writtenCases {
		for n := 0; n <= 64; n++ {
			writtenAgrees(t, []byte(c), n)
		}
	}
}

// FuzzWritten_AgreesWithEncodingJSON: on any text, QuotedLen is the length
// encoding/json writes, DeepAt counts as go-sdk's scan and as Skip's limit
// on valid text, Quoted tells the strings encoding/json reads, and
// CutWritten cuts a valid string token between characters as written.
func FuzzWritten_AgreesWithEncodingJSON(f *testing.F) {
	for _, c := range writtenCases {
		f.Add([]byte(c), 5)
	}
	f.Fuzz(func(t *testing.T, d []byte, n int) { writtenAgrees(t, d, n) })
}

func TestCutWritten_ReadsCutText(t *testing.T) {
	for _, c := range []struct {
		s          string
		n          int
		cut, chars int
	}{
		{`abc`, 2, 2, 3},
		{`a\u00e9b`, 3, 1, 8},
		{`a\u00e9b`, 7, 7, 8},
		{`\n\n`, 3, 2, 4},
		{"\xffé", 1, 1, 2},
		{`\u00`, 2, 0, 4}, // a cut text: its escape ends it
		{`x\`, 5, 2, 2},
	} {
		if cut, chars := CutWritten([]byte(c.s), c.n); cut != c.cut || chars != c.chars {
			t.Errorf("CutWritten(%q, %d) = %d, %d, want %d, %d", c.s, c.n, cut, chars, c.cut, c.chars)
		}
	}
}
