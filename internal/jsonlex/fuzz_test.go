package jsonlex

import (
	"bytes"
	"encoding/json"
	"testing"
)

// FuzzLexer_AgreesWithEncodingJSON: on any text, the lexer finds it
// invalid exactly where encoding/json does; a valid string token unquotes
// to what encoding/json reads; a valid object or array rebuilds from its
// members or elements.
func FuzzLexer_AgreesWithEncodingJSON(f *testing.F) {
	for _, c := range syntaxCases {
		f.Add([]byte(c))
	}
	f.Add([]byte(`{"a":[1,2,{"b":"\ud83d\ude00"}],"c":"\u00e9"}`))
	f.Fuzz(func(t *testing.T, d []byte) {
		got, want := errorAt(d), stdErrorAt(d)
		if want == -2 {
			// encoding/json's verdict is not about syntax (a number past
			// float64 into any): the text is valid.
			if !json.Valid(d) {
				t.Fatalf("%q: not a syntax error, yet not valid", d)
			}
			want = -1
		}
		if !errorsAgree(got, want, len(d)) {
			t.Fatalf("%q: lexer's error at %d, encoding/json's at %d (-1: valid)", d, got, want)
		}
		if got != -1 {
			return
		}
		i := Space(d, 0)
		switch d[i] {
		case '"':
			var s string
			if err := json.Unmarshal(d, &s); err != nil {
				t.Fatal(err)
			}
			end := Space(d, 0)
			end, _, _ = String(d, end)
			u, ok := Unquote(nil, d[i:end])
			if !ok || string(u) != s {
				t.Fatalf("%q: Unquote = %q %v, encoding/json reads %q", d, u, ok, s)
			}
		case '{', '[':
			var want bytes.Buffer
			if err := json.Compact(&want, d); err != nil {
				t.Fatal(err)
			}
			if got := rebuild(t, d, i); !bytes.Equal(got, want.Bytes()) {
				t.Fatalf("%q: rebuilt %s, want %s", d, got, want.Bytes())
			}
		}
	})
}
