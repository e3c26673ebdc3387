package jsonlex

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
)

// errorAt is where the lexer finds d invalid, as one JSON text: the
// offending byte's offset, len(d) when d ends too soon, -1 when it is valid.
func errorAt(d []byte) int {
	end, err := Skip(d, Space(d, 0), MaxDepth)
	if err != nil {
		return err.Offset
	}
	if j := Space(d, end); j != len(d) {
		return j
	}
	return -1
}

var syntaxCases = []string{
	``, ` `, `0`, `-0`, `-`, `01`, `1.`, `1.5`, `1e`, `1e+`, `1E-7`, `.5`, `+1`, `1.5e3x`,
	`"`, `"a`, `"a"`, `"\"`, `"\u00e9"`, `"\u00g9"`, `"\x"`, `"\'"`, "\"\x01\"", "\"\xff\"", `"\ud800"`,
	`t`, `tru`, `true`, `truex`, `false`, `fals`, `null`, `nul`, `nulll`,
	`[`, `[]`, `[,]`, `[1,]`, `[1 2]`, `[1,2]`, `[[[]]]`, `[[[]]`, `[]]`, `[}`,
	`{`, `{}`, `{,}`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":1 "b":2}`, `{"a":1,"b":[{"c":null}]}`, `{1:2}`, `{"a":1]`,
	` {"a" : [ 1 , 2 ] } `, "{\"a\":\n1}", `{} {}`, `[] x`, `- `, `"\u12`, "\"a\xc3\xa9\\u00\"",
}

func TestSkip_AgreesWithEncodingJSON(t *testing.T) {
	for _, c := range syntaxCases {
		if got, want := errorAt([]byte(c)), stdErrorAt([]byte(c)); !errorsAgree(got, want, len(c)) {
			t.Errorf("%q: lexer's error at %d, encoding/json's at %d (-1: valid)", c, got, want)
		}
	}
}

func TestSkip_DepthLimit(t *testing.T) {
	for _, n := range []int{1, MaxStack - 1, MaxStack, MaxStack + 1, 5000, MaxDepth, MaxDepth + 1} {
		d := []byte(strings.Repeat("[", n) + strings.Repeat("]", n))
		end, err := Skip(d, 0, MaxDepth)
		valid := json.Valid(d)
		if (err == nil) != valid {
			t.Fatalf("%d levels: Skip err=%v, encoding/json valid=%v", n, err, valid)
		}
		if err == nil && end != len(d) {
			t.Fatalf("%d levels: end %d, want %d", n, end, len(d))
		}
		if err != nil && (!err.Deep || err.Offset != MaxDepth) {
			t.Fatalf("%d levels: err = %+v, want Deep at %d", n, err, MaxDepth)
		}
	}
}

func TestSkip_AllocatesOnlyPastMaxStack(t *testing.T) {
	shallow := []byte(strings.Repeat(`{"a":[`, MaxStack/2) + "1" + strings.Repeat("]}", MaxStack/2))
	if n := testing.AllocsPerRun(10, func() { Skip(shallow, 0, MaxDepth) }); n != 0 {
		t.Errorf("%d levels: %v allocations, want 0", MaxStack, n)
	}
	deep := []byte(strings.Repeat("[", 8*MaxStack) + strings.Repeat("]", 8*MaxStack))
	if n := testing.AllocsPerRun(10, func() { Skip(deep, 0, MaxDepth) }); n > 4 {
		t.Errorf("%d levels: %v allocations, want at most 4 (the stack doubling)", 8*MaxStack, n)
	}
}

func TestUnquote_AgreesWithEncodingJSON(t *testing.T) {
	for _, c := range []string{
		`""`, `"abc"`, `"\n\t\\\/\"\b\f\r"`, `"\u00e9\u20AC"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`,
		`"\ud83d\u0041"`, `"\ud83d\ud83d\ude00"`, "\"\xff\xfe\"", "\"\xed\xa0\x80\"", "\"caf\xc3\xa9\"", `"\uFFFD"`,
		"\"\xc3\"", `"\'"`, `"a`, `abc`,
	} {
		var want string
		werr := json.Unmarshal([]byte(c), &want)
		got, ok := Unquote(nil, []byte(c))
		if ok != (werr == nil) {
			t.Errorf("%q: Unquote ok=%v, encoding/json err=%v", c, ok, werr)
			continue
		}
		if ok && string(got) != want {
			t.Errorf("%q: Unquote = %q, encoding/json reads %q", c, got, want)
		}
	}
}

func TestString_Flags(t *testing.T) {
	for _, c := range []struct {
		s string
		f StringFlags
	}{{`"abc"`, 0}, {`"a\nb"`, Escaped}, {"\"caf\xc3\xa9\"", NonASCII}, {"\"\xc3\xa9\\n\"", Escaped | NonASCII}} {
		end, f, ok := String([]byte(c.s), 0)
		if !ok || end != len(c.s) || f != c.f {
			t.Errorf("%q: end=%d flags=%b ok=%v, want %d %b true", c.s, end, f, ok, len(c.s), c.f)
		}
	}
}

func TestNumber_Shape(t *testing.T) {
	for _, c := range []struct {
		s         string
		neg       bool
		digits    string
		mag       uint64
		frac, exp bool
	}{
		{"0", false, "0", 0, false, false},
		{"-12", true, "12", 12, false, false},
		{"3.25", false, "3", 3, true, false},
		{"-7e10", true, "7", 7, false, true},
		{"1.5E-3", false, "1", 1, true, true},
		{"-9223372036854775808", true, "9223372036854775808", 1 << 63, false, false},
		{"18446744073709551615", false, "18446744073709551615", 1<<64 - 1, false, false},
		{"1234567890123456789.5", false, "1234567890123456789", 1234567890123456789, true, false},
	} {
		d := []byte(c.s)
		end, n, ok := Number(d, 0)
		if !ok || end != len(d) || n.Neg != c.neg || string(d[n.Int.Start:n.Int.End]) != c.digits || n.Mag != c.mag || n.Frac != c.frac || n.Exp != c.exp {
			t.Errorf("%q: end=%d %+v ok=%v", c.s, end, n, ok)
		}
		wantIntEnd := len(c.digits)
		if c.neg {
			wantIntEnd++
		}
		iend, intEnd, mag, shape, iok := NumberInt(d, 0)
		if !iok || iend != len(d) || intEnd != wantIntEnd || mag != c.mag || shape&NumNeg != 0 != c.neg || shape&NumFrac != 0 != c.frac || shape&NumExp != 0 != c.exp {
			t.Errorf("%q: NumberInt = %d %d %d %b %v", c.s, iend, intEnd, mag, shape, iok)
		}
	}
}

// rebuild writes the object or array at d[i] back from the lexer's
// members or elements, compacted, to compare with json.Compact.
func rebuild(t testing.TB, d []byte, i int) []byte {
	var b bytes.Buffer
	compact := func(s Span) {
		if err := json.Compact(&b, d[s.Start:s.End]); err != nil {
			t.Fatalf("a span that is not one value: %q: %v", d[s.Start:s.End], err)
		}
	}
	switch d[i] {
	case '{':
		b.WriteByte('{')
		n := 0
		for m := range Members(d, i) {
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			compact(m.Key)
			b.WriteByte(':')
			compact(m.Value)
		}
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		n := 0
		for e := range Elements(d, i) {
			if n > 0 {
				b.WriteByte(',')
			}
			n++
			compact(e)
		}
		b.WriteByte(']')
	}
	return b.Bytes()
}

func TestMembersAndElements_RebuildTheValue(t *testing.T) {
	for _, c := range []string{`{}`, `[]`, ` { "a" : 1 , "b\"" : [ 1 , { } ] , "c" : null } `, `[ 1 , "x" , [ ] , { "k" : [ ] } ]`, `[[1],[2,[3]]]`} {
		d := []byte(c)
		i := Space(d, 0)
		var want bytes.Buffer
		if err := json.Compact(&want, d); err != nil {
			t.Fatal(err)
		}
		if got := rebuild(t, d, i); !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%q: rebuilt %s, want %s", c, got, want.Bytes())
		}
	}
}

func TestMembers_StopsEarly(t *testing.T) {
	d := []byte(`{"a":1,"b":2,"c":3}`)
	var keys []string
	for m := range Members(d, 0) {
		keys = append(keys, string(d[m.Key.Start:m.Key.End]))
		if len(keys) == 2 {
			break
		}
	}
	if strings.Join(keys, ",") != `"a","b"` {
		t.Errorf("keys = %v", keys)
	}
}

// TestStops: the eight-byte test of String says a word holds a byte that
// ends a string's plain run exactly when one of its bytes does, for every
// byte at every position, among plain bytes of every kind (ASCII, past
// ASCII, the largest and the smallest plain ones).
func TestStops(t *testing.T) {
	for _, fill := range []byte{'a', 0x20, 0x7f, 0x80, 0xff, '"' + 1, '\\' - 1, '\\' + 1, '#', '!'} {
		for b := range 256 {
			for p := range 8 {
				w := [8]byte{}
				for i := range w {
					w[i] = fill
				}
				w[p] = byte(b)
				got := stops(binary.LittleEndian.Uint64(w[:])) != 0
				if want := !plain[b]; got != want {
					t.Fatalf("fill %#x, byte %#x at %d: stops says %v, want %v", fill, b, p, got, want)
				}
			}
		}
	}
}
