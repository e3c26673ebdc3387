package jsonlex

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
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
	for _, n := range []string{"0", " 42 ", "-7.25e+3", "9223372036854775808", "-18446744073709551615", "123456789012345678901234"} {
		f.Add([]byte(n))
	}
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
		case '-', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9':
			checkNumber(t, d[i:])
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

// FuzzString_AgreesWithEncodingJSON: on any text after an opening quote,
// String ends the token where encoding/json does (a valid token reads as
// a string, and Unquote reads it as encoding/json does) or finds it
// invalid at the byte encoding/json names; its flags say exactly whether
// the token holds a backslash and a byte past ASCII. The seeds put each
// byte that ends a plain run at every offset of the eight- and
// sixteen-byte steps.
func FuzzString_AgreesWithEncodingJSON(f *testing.F) {
	for _, c := range syntaxCases {
		f.Add([]byte(c))
	}
	for _, b := range []byte{'"', '\\', 0x1f, 0, 0x80, 0xff, 0xc3} {
		for n := range 40 {
			f.Add(append(bytes.Repeat([]byte{'a'}, n), b, 'n', '"', ' '))
		}
	}
	f.Add([]byte(strings.Repeat("\xc3\xa9", 20) + `\u00e9"`))
	f.Fuzz(func(t *testing.T, rest []byte) {
		d := append([]byte{'"'}, rest...)
		end, fl, ok := String(d, 0)
		if !ok {
			if want := stdErrorAt(d); want < 0 || !errorsAgree(end, want, len(d)) {
				t.Fatalf("%q: String fails at %d, encoding/json at %d (-1: valid)", d, end, want)
			}
			return
		}
		tok := d[:end]
		var s string
		if err := json.Unmarshal(tok, &s); err != nil {
			t.Fatalf("%q: String reads the token %q, encoding/json fails: %v", d, tok, err)
		}
		if u, ok := Unquote(nil, tok); !ok || string(u) != s {
			t.Fatalf("%q: Unquote = %q %v, encoding/json reads %q", tok, u, ok, s)
		}
		inside := tok[1 : len(tok)-1]
		var want StringFlags
		if bytes.IndexByte(inside, '\\') >= 0 {
			want |= Escaped
		}
		if slices.ContainsFunc(inside, func(b byte) bool { return b >= 0x80 }) {
			want |= NonASCII
		}
		if fl != want {
			t.Fatalf("%q: flags %b, want %b", tok, fl, want)
		}
	})
}

// checkNumber holds Number's reading of the valid number token at the
// start of d to the token's text: its end, its sign, fraction and
// exponent, and its integer part's digits and their value (strconv's,
// below 20 digits).
func checkNumber(t *testing.T, d []byte) {
	t.Helper()
	end, n, ok := Number(d, 0)
	tok := string(d[:end])
	if !ok || strings.TrimRight(string(d), " \t\r\n") != tok {
		t.Fatalf("%q: Number = %d %+v %v", d, end, n, ok)
	}
	intPart := strings.TrimPrefix(tok, "-")
	if k := strings.IndexAny(intPart, ".eE"); k >= 0 {
		intPart = intPart[:k]
	}
	if n.Neg != strings.HasPrefix(tok, "-") || n.Frac != strings.Contains(tok, ".") || n.Exp != strings.ContainsAny(tok, "eE") ||
		tok[n.Int.Start:n.Int.End] != intPart {
		t.Fatalf("%q: Number = %+v", tok, n)
	}
	if len(intPart) <= 19 {
		if v, err := strconv.ParseUint(intPart, 10, 64); err != nil || n.Mag != v {
			t.Fatalf("%q: Mag = %d, strconv reads %d (%v)", tok, n.Mag, v, err)
		}
	}
}
