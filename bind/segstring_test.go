package bind_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segQuotedArgs has a ,string field of each kind segmentio reads through
// the option (integers through decodeFromStringToInt, the rest through
// decodeFromString), pointers to them, and kinds it ignores the option
// for (read as without it).
type segQuotedArgs struct {
	I   int      `json:"i,string"`
	I8  int8     `json:"i8,string"`
	U8  uint8    `json:"u8,string"`
	U   uint64   `json:"u,string"`
	I64 int64    `json:"i64,string"`
	F   float64  `json:"f,string"`
	F32 float32  `json:"f32,string"`
	B   bool     `json:"b,string"`
	S   string   `json:"s,string"`
	PI  *int     `json:"pi,string"`
	PB  *bool    `json:"pb,string"`
	PS  *string  `json:"ps,string"`
	PF  *float32 `json:"pf,string"`
	// Kinds segmentio ignores the option for.
	//lint:ignore SA5008 a kind segmentio ignores the option for, on purpose
	L []int `json:"l,string"`
	//lint:ignore SA5008 a kind segmentio ignores the option for, on purpose
	M map[string]int `json:"m,string"`
	//lint:ignore SA5008 a kind segmentio ignores the option for, on purpose
	PP **int `json:"pp,string"`
	//lint:ignore SA5008 a kind segmentio ignores the option for, on purpose
	A any `json:"a,string"`
	//lint:ignore SA5008 a kind segmentio ignores the option for, on purpose
	N segQuotedInner `json:"n,string"`
	//lint:ignore SA5008 a kind segmentio ignores the option for, on purpose
	Arr [2]int `json:"arr,string"`
	// Nested: a ,string field inside an argument.
	In  segQuotedInner   `json:"in"`
	Ins []segQuotedInner `json:"ins"`
	X   int              `json:"x"`
}

type segQuotedInner struct {
	Q  int           `json:"q,string"`
	QF float64       `json:"qf,string"`
	QS string        `json:"qs,string"`
	QB bool          `json:"qb,string"`
	QD time.Duration `json:"qd,string"`
}

// segQuotedValues are values sent for a ,string field: the text
// segmentio reads (with leading zeros, spaces after it, "null"), and every
// way it fails (an unquoted value, "", a sign, a fraction, a range, text
// after the value, a string in the string).
var segQuotedValues = []string{
	`"1"`, `"-1"`, `"+1"`, `"01"`, `"-01"`, `"+01"`, `"00"`, `"-00"`, `"1.5"`, `"1e2"`, `"-"`, `""`, `" 1"`, `"1 "`, `"1\t"`,
	`"null"`, `"null "`, `"nullx"`, `" null"`, `"nul"`, `"true"`, `"false"`, `"true "`, `"truex"`, `" true"`, `"x"`, `"1x"`,
	`"\u0031"`, `"\u002d1"`, `"127"`, `"128"`, `"-128"`, `"-129"`, `"255"`, `"256"`, `"-0"`, `"0.0"`, `"1e400"`, `"-1e400"`,
	`"1e39"`, `"NaN"`, `"0x1"`, `"1,2"`, `"--1"`, `"1e"`, `"1."`, `".5"`, `"1E+2"`,
	`"21000000000000000000"`, `"0021000000000000000000"`, `"9223372036854775807"`, `"9223372036854775808"`,
	`"-9223372036854775808"`, `"-9223372036854775809"`, `"18446744073709551615"`, `"18446744073709551616"`,
	`"99999999999999999999"`, `"9007199254740993"`, `"16777217"`,
	`"\"x\""`, `"\"x\" "`, `"\"x\"y"`, `"\"\""`, `"\"\\u00e9\""`, `"\"\ud800\""`, `"\"a\tb\""`, `"\"\\q\""`, `"\"x"`,
	`"\"\\ud800\" "`, `"\"\\ud800\"\t"`, "\"\\\"\xff\\\" \"", `"\"ok\" "`,
	`"[1]"`, `"{}"`, `"\ud800"`, "\"\xff\"", "\"\\\"\xff\\\"\"", `"é"`,
	`1`, `1.5`, `-1`, `1e400`, `true`, `false`, `null`, `[]`, `[1]`, `{}`, `{"a":1}`,
}

// TestNative_SegmentIOQuoted: the one pass gives the verdict of a ,string
// field's value, of each kind, alone, with another argument, and after a
// failure, and inside an argument (where the trial check places a
// failure by the kind of segmentio's error), as the trial check does,
// issue for issue; it declines none but a string in the string holding a
// control character.
func TestNative_SegmentIOQuoted(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[segQuotedArgs]())
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"i", "i8", "u8", "u", "i64", "f", "f32", "b", "s", "pi", "pb", "ps", "pf", "l", "m", "pp", "a", "n", "arr"}
	for _, v := range segQuotedValues {
		for _, name := range names {
			// The kinds segmentio ignores the option for read a string as
			// without it (WrongType where they want none, whatever its
			// text). The pass declines a string in the string holding a
			// control character (see segQuotedControl).
			ignored := v == `"\"a\tb\""`
			for _, args := range []string{`{"` + name + `":` + v + `}`, `{"x":"x","` + name + `":` + v + `,"zz":1}`, `{"` + name + `":` + v + `,"x":1.5}`} {
				checkProven(t, plan, []byte(args))
				if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok && !ignored {
					t.Errorf("%.80s: the pass declines", args)
				}
			}
		}
		for _, args := range []string{`{"in":{"q":` + v + `,"qf":` + v + `}}`, `{"ins":[{"qs":` + v + `},{"qb":` + v + `}]}`,
			`{"in":{"qf":` + v + `},"x":"x"}`, `{"ins":[{"qb":true},{"qs":` + v + `,"q":` + v + `}]}`} {
			checkProven(t, plan, []byte(args))
			// A control character in the text (an escape of the JSON
			// string) segmentio reads or not by the whole text's bytes.
			if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok && !strings.Contains(v, `\t`) {
				t.Errorf("%.80s: the pass declines", args)
			}
		}
	}
}

// segQuotedDurations are values sent for a ,string time.Duration, which
// segmentio reads with decodeDuration inside decodeFromStringToInt: the
// text of an integer (leading zeros trimmed, a wrap past 64 bits),
// "null", a JSON string in the string that time.ParseDuration takes, and
// each way it fails, with an UnmarshalTypeError (a unit, text after the
// value, a fraction, a range, anything after '-') or an error of no path
// ('+', "", an unquoted value, text no integer starts, a string in the
// string ParseDuration does not take).
var segQuotedDurations = []string{
	`"01s"`, `"00.5s"`, `"-1s"`, `"-x"`, `"- 1"`, `"-01"`, `"-00"`, `"-0x"`, `"+01"`, `"1.5s"`, `"1.x"`, `"0.5"`, `"0x"`,
	`"1E5x"`, `"99999999999999999999s"`, `"99999999999999999999."`, `"99999999999999999999.5"`, `"-99999999999999999999"`,
	`"18446744073709551615999"`, `"\"1s\""`, `"\"1s\" "`, `"\"1s\"x"`, `"\"1s"`, `"\"\\u0031s\""`, `"\"1\\\"s\""`,
	`"\"1s\t\""`, `"\"-1.5h\""`, `"\"1µs\""`, `"\"\ud800\""`, "\"\\\"1\xffs\\\"\"", `"\"0\""`, `"\"\""`,
	`"\"1s\"\"2s\""`, `"null\t"`, `"\u002d1"`, `"-\u0031"`, `"\"1s\"\u0000"`,
}

// segQuotedDurationValues are segQuotedValues, segDurations, each
// segDurations string and number in a string, as the option wants them,
// and segQuotedDurations.
func segQuotedDurationValues() []string {
	vs := append(append([]string{}, segQuotedValues...), segDurations...)
	for _, v := range segDurations {
		q, _ := json.Marshal(v)
		vs = append(vs, string(q))
	}
	return append(vs, segQuotedDurations...)
}

// TestNative_SegmentIOQuotedDuration: the one pass gives the verdict of a
// ,string time.Duration's value, plain and in a pointer, alone, with
// another argument, and inside an argument (where the trial check places
// a failure by the kind of segmentio's error: at the field, or at the
// argument's value), as the trial check does, issue for issue; it
// declines none.
func TestNative_SegmentIOQuotedDuration(t *testing.T) {
	type durs struct {
		D   time.Duration    `json:"d,string"`
		P   *time.Duration   `json:"p,string"`
		In  segQuotedInner   `json:"in"`
		Ins []segQuotedInner `json:"ins"`
		X   int              `json:"x"`
	}
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[durs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range segQuotedDurationValues() {
		for _, args := range []string{`{"d":` + v + `}`, `{"p":` + v + `}`, `{"x":"x","d":` + v + `,"zz":1}`, `{"d":` + v + `,"p":` + v + `,"x":1.5}`,
			`{"in":{"qd":` + v + `}}`, `{"ins":[{"qd":"1"},{"qd":` + v + `,"q":"x"}]}`, `{"in":{"q":"x","qd":` + v + `}}`, `{"in":{"qd":` + v + `},"x":"x"}`} {
			checkProven(t, plan, []byte(args))
			if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok {
				t.Errorf("%.80s: the pass declines", args)
			}
		}
	}
}

// TestSegmentIO_QuotedDurationDecodes pins segmentio's own decode of a
// ,string time.Duration's text, and Check's verdict on it: an integer's
// text (leading zeros trimmed, wrapped past 64 bits), a JSON string in the
// string read by ParseDuration, "null" leaving it as it was; a failure
// of an argument's own value at the value, of one inside an argument at
// the field where segmentio's error is an UnmarshalTypeError (a unit
// with no quotes, anything after '-', a fraction, text after a string in
// the string), at the argument's value where it names no path.
func TestSegmentIO_QuotedDurationDecodes(t *testing.T) {
	type durs struct {
		D  time.Duration  `json:"d,string"`
		In segQuotedInner `json:"in"`
	}
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[durs]())
	if err != nil {
		t.Fatal(err)
	}
	const fails = time.Duration(-1 << 63)
	for _, tc := range []struct {
		args    string
		want    time.Duration // fails: segmentio fails on it
		kind    bind.Code
		pointer string
	}{
		{`{"d":"1"}`, 1, "", ""},
		{`{"d":"01"}`, 1, "", ""},
		{`{"d":"-00"}`, 0, "", ""},
		{`{"d":"\u0031"}`, 1, "", ""},
		{`{"d":"\"1s\""}`, time.Second, "", ""},
		{`{"in":{"qd":"\"-1.5h\""}}`, -90 * time.Minute, "", ""},
		{`{"d":"21000000000000000000"}`, 2553255926290448384, bind.WrappedNumber, "/d"},
		{`{"d":"0021000000000000000000"}`, 2553255926290448384, bind.WrappedNumber, "/d"},
		{`{"d":"null"}`, 0, bind.NullForValue, "/d"},
		{`{"d":"1s"}`, fails, bind.InvalidValue, "/d"},
		{`{"d":"+1"}`, fails, bind.InvalidValue, "/d"},
		{`{"d":1}`, fails, bind.InvalidValue, "/d"},
		{`{"d":true}`, fails, bind.WrongType, "/d"},
		{`{"in":{"qd":"1s"}}`, fails, bind.InvalidValue, "/in/qd"},
		{`{"in":{"qd":"01s"}}`, fails, bind.InvalidValue, "/in/qd"},
		{`{"in":{"qd":"-x"}}`, fails, bind.InvalidValue, "/in/qd"},
		{`{"in":{"qd":"1.5"}}`, fails, bind.InvalidValue, "/in/qd"},
		{`{"in":{"qd":"99999999999999999999"}}`, fails, bind.InvalidValue, "/in/qd"},
		{`{"in":{"qd":"\"1s\" "}}`, fails, bind.InvalidValue, "/in/qd"},
		{`{"in":{"qd":"null "}}`, fails, bind.InvalidValue, "/in/qd"},
		{`{"in":{"qd":1e400}}`, fails, bind.InvalidValue, "/in/qd"},
		{`{"in":{"qd":"1."}}`, fails, bind.InvalidValue, "/in"},
		{`{"in":{"qd":"+1"}}`, fails, bind.InvalidValue, "/in"},
		{`{"in":{"qd":"\"x\""}}`, fails, bind.InvalidValue, "/in"},
		{`{"in":{"qd":"\"\\u0031s\""}}`, fails, bind.InvalidValue, "/in"},
		{`{"in":{"qd":""}}`, fails, bind.InvalidValue, "/in"},
		{`{"in":{"qd":1.5}}`, fails, bind.InvalidValue, "/in"},
		{`{"in":{"qd":true}}`, fails, bind.InvalidValue, "/in"},
	} {
		var got durs
		err := segmentio.Binder.Unmarshal([]byte(tc.args), &got)
		switch {
		case tc.want == fails && err == nil:
			t.Errorf("%s: segmentio reads it (%v %v), want a failure", tc.args, got.D, got.In.QD)
		case tc.want != fails && (err != nil || got.D+got.In.QD != tc.want):
			t.Errorf("%s: segmentio reads %v %v (%v), want %v", tc.args, got.D, got.In.QD, err, tc.want)
		}
		checkProven(t, plan, []byte(tc.args))
		is, _, ok := bind.NativeVerdict(plan, []byte(tc.args))
		switch {
		case !ok:
			t.Errorf("%s: the pass declines", tc.args)
		case tc.kind == "" && len(is) != 0, tc.kind != "" && (len(is) != 1 || is[0].Kind != tc.kind || is[0].Path.Pointer() != tc.pointer):
			t.Errorf("%s: %s, want %s at %q", tc.args, brief(is), tc.kind, tc.pointer)
		}
	}
}

// TestSegmentIOQuoted_ReplacedAsDecoded: a ,string field of a string kind
// under segmentio is read from the JSON string inside the value, which
// may have white space after it; its text is replaced (ReplacedText)
// exactly where segmentio's decode holds U+FFFD the call did not send,
// held to the decoder itself, not to the walk's own reading of the text.
func TestSegmentIOQuoted_ReplacedAsDecoded(t *testing.T) {
	type args struct {
		S string `json:"s,string"`
	}
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[args]())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{
		`"\"\\ud800\""`, `"\"\\ud800\" "`, `"\"\\ud800\"\t"`, `"\"\\ud800\"\n\r "`, `"\"\\udfff\" "`,
		"\"\\\"\xff\\\" \"", "\"\\\"a\xffb\\\"\\t\"", `"\"\\ud83d\\ude00\" "`, `"\"ok\" "`, `"\"ok\""`, `"\"\\u00e9\"\n"`,
	} {
		call := []byte(`{"s":` + v + `}`)
		var got args
		if err := segmentio.Binder.Unmarshal(call, &got); err != nil {
			t.Errorf("%s: segmentio fails (%v): not a row of this test", call, err)
			continue
		}
		replaced := slices.ContainsFunc(plan.Check(call, nil), func(is bind.Issue) bool { return is.Kind == bind.ReplacedText })
		if want := strings.ContainsRune(got.S, utf8.RuneError); replaced != want {
			t.Errorf("%s: segmentio reads %q; ReplacedText %v, want %v", call, got.S, replaced, want)
		}
	}
}
