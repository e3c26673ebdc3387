package bind

import (
	"testing"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// TestReplaces_OnlyAWholeToken: replaces answers jsonlex.Replaced's
// answer for a whole string token, white space after it or not, and false
// for anything else (a token cut short, text past it, no token), without
// panicking: the checker's modes ask it only of tokens the binder read,
// and a mode asked of a call the binder fails on must not take the host
// down.
func TestReplaces_OnlyAWholeToken(t *testing.T) {
	for _, c := range []struct {
		raw  string
		want bool
	}{
		{`"plain"`, false},
		{`"\u00e9"`, false},
		{"\"\xff\"", true},
		{`"\ud800"`, true},
		{`"\ud83d\ude00"`, false},
		{`"\ud83d\u0041"`, true},
		// A token with white space after it, as a segmentio ,string
		// field's text may have: the token's answer.
		{`"\ud800" `, true},
		{"\"\\ud800\"\t\r\n", true},
		{`"ok" `, false},
		{"\"\xff\" ", true},
		// Not a whole token: none replaces.
		{``, false},
		{`"`, false},
		{`x`, false},
		{`"\`, false},
		{`"\u`, false},
		{`"\u12`, false},
		{`"\u12"`, false},
		{`"\ud800\u`, false},
		{`"\ud800\ud`, false},
		{"\"\xff", false},
		{`"a"b`, false},
		{`"\ud800"x`, false},
	} {
		got := func() (got bool) {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("replaces(%q) panicked: %v", c.raw, r)
				}
			}()
			return replaces([]byte(c.raw))
		}()
		if got != c.want {
			t.Errorf("replaces(%q) = %v, want %v", c.raw, got, c.want)
		}
		if end, f, ok := jsonlex.String([]byte(c.raw), 0); ok && jsonlex.Space([]byte(c.raw), end) == len(c.raw) && got != jsonlex.Replaced([]byte(c.raw[:end]), f) {
			t.Errorf("replaces(%q) = %v, jsonlex.Replaced differs", c.raw, got)
		}
	}
}
