package jsonlex

import "testing"

// ReplacedAt finds text exactly where Replaced says there is some, at the
// first invalid sequence.
func TestReplacedAt(t *testing.T) {
	for _, tc := range []struct {
		tok string
		at  int
	}{
		{`"abc"`, -1},
		{`"\u00e9\n\ud83d\ude00"`, -1},
		{"\"caf\u00e9\"", -1},
		{`"\ud800"`, 1},
		{`"a\udfff"`, 2},
		{`"\ud800\u0041"`, 1},
		{`"\ud800\ud800\udc00"`, 1},
		{`"\ud83d\ude00\ud800"`, 13},
		{"\"ab\xff\"", 3},
		{"\"\xed\xa0\x80\"", 1},
		{"\"\xe9\"", 1},
		{"\"\u00e9\\ud800\xff\"", 3},
		{"\"\xff\\ud800\"", 1},
		{`"\\ud800"`, -1},
	} {
		tok := []byte(tc.tok)
		end, f, ok := String(tok, 0)
		if !ok || end != len(tok) {
			t.Fatalf("%q: not a string token", tc.tok)
		}
		if got := ReplacedAt(tok, f); got != tc.at {
			t.Errorf("%q: ReplacedAt %d, want %d", tc.tok, got, tc.at)
		}
		if (tc.at >= 0) != Replaced(tok, f) {
			t.Errorf("%q: Replaced %v", tc.tok, Replaced(tok, f))
		}
	}
}

// FuzzReplacedAt: on any string token, ReplacedAt finds text where and
// only where Replaced does.
func FuzzReplacedAt(f *testing.F) {
	f.Add([]byte(`"\ud800\u0041"`))
	f.Add([]byte("\"a\xffb\""))
	f.Fuzz(func(t *testing.T, tok []byte) {
		end, fl, ok := String(tok, 0)
		if len(tok) == 0 || tok[0] != '"' || !ok {
			return
		}
		tok = tok[:end]
		at := ReplacedAt(tok, fl)
		if (at >= 0) != Replaced(tok, fl) {
			t.Fatalf("%q: ReplacedAt %d, Replaced %v", tok, at, Replaced(tok, fl))
		}
		if at >= 0 && Replaced(append(append([]byte{'"'}, tok[1:at]...), '"'), fl) {
			t.Fatalf("%q: text before %d is replaced too", tok, at)
		}
	})
}
