package bindtest

import (
	"strings"
	"testing"
)

func TestQuotes(t *testing.T) {
	long := `"` + strings.Repeat("a", 50) + `"`
	for _, tc := range []struct {
		value, sent string
		want        bool
		why         string
	}{
		{`5`, `5`, true, "the value itself"},
		{`"5"`, `"5"`, true, "a string, with its quotes"},
		{`[1,2.5]`, `2.5`, true, "an element"},
		{`[1, [2, {"k": 2.5}]]`, `2.5`, true, "an element at depth"},
		{`{"x":"y"}`, `"x"`, true, "a key"},
		{`{"a":1}`, `{"a":1}`, true, "an object"},
		{` [ 1 , 2 ] `, `[ 1 , 2 ]`, true, "the value without the space around it"},
		{`[1,2.5]`, `2`, false, "part of an element is not an element"},
		{`[1,2.5]`, `6`, false, "not in the value at all"},
		{`[1,2.5]`, ``, false, "an empty quote quotes nothing"},
		{`"a` + "\u202e" + `b"`, `"a\u202eb"`, true, "an unprintable character, escaped"},
		{`"a` + "\xff" + `b"`, `"a\xffb"`, true, "a byte that is not UTF-8, escaped"},
		{`"a` + "\u202e" + `b"`, `"a` + "\u202e" + `b"`, false, "an unprintable character left raw"},
		{long, `"` + strings.Repeat("a", 40) + `…" (50 characters)`, true, "a long string, cut"},
		{`[` + long + `]`, `"` + strings.Repeat("a", 40) + `…" (50 characters)`, true, "a long string element, cut"},
		{`[` + strings.Repeat("1,", 30) + `1]`, `[1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1… (61 characters)`, true, "a long array, cut"},
		{`"` + strings.Repeat("a", 30) + `"`, `"` + strings.Repeat("a", 20) + `…" (30 characters)`, false, "a value of at most 40 characters is never cut"},
		{long, `"` + strings.Repeat("b", 40) + `…" (50 characters)`, false, "a cut quote of something else"},
	} {
		if got := quotes(tc.value, tc.sent); got != tc.want {
			t.Errorf("quotes(%q, %q) = %v, want %v (%s)", tc.value, tc.sent, got, tc.want, tc.why)
		}
	}
}

func TestElements_DeepNesting(t *testing.T) {
	const depth = 10001
	v := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	if got := len(elements([]byte(v))); got != depth {
		t.Errorf("got %d elements, want %d", got, depth)
	}
}
