package refuse

import (
	"encoding/json"
	"testing"
)

// FuzzUnquoteKey: unquoteKey reads a JSON string exactly as encoding/json
// does, escapes, surrogates and invalid UTF-8 included.
func FuzzUnquoteKey(f *testing.F) {
	for _, s := range []string{`"plain"`, `"a\u0061"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00\ud800x"`, `"\ud800\u0041"`,
		"\"\xff\xfe\"", `"\"\\\/\b\f\n\r\t"`, `"é😀"`, `"\uD83D\uDE00"`, `""`, `"\ud800\ud800"`, `"\ud83d\ude00\ud83d"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		var want string
		if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || json.Unmarshal(raw, &want) != nil {
			return // not a JSON string, as a key's span is: outside the contract
		}
		if got := unquoteKey(raw); got != want {
			t.Errorf("unquoteKey(%q) = %q, encoding/json reads %q", raw, got, want)
		}
	})
}
