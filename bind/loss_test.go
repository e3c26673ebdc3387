package bind_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
)

type lossInner struct {
	X      int    `json:"x"`
	Colour string `json:"colour"`
}

// lossArgs is a parameter struct with a position of every kind the silent
// losses concern.
type lossArgs struct {
	N      int                  `json:"n"`
	F      float64              `json:"f"`
	F32    float32              `json:"f32"`
	S      string               `json:"s"`
	B      bool                 `json:"b"`
	Pair   [2]int               `json:"pair"`
	Inner  lossInner            `json:"inner"`
	Inners []lossInner          `json:"inners"`
	ByName map[string]lossInner `json:"by_name"`
	Any    any                  `json:"any"`
	Meta   map[string]any       `json:"meta"`
	Ptr    *int                 `json:"ptr"`
	Ints   []int                `json:"ints"`
	Counts map[string]int       `json:"counts"`
	IDs    map[int]string       `json:"ids"`
	Num    json.Number          `json:"num"`
	Raw    json.RawMessage      `json:"raw"`
	Q      int                  `json:"q,string"`
	QF     float64              `json:"qf,string"`
	QP     *int                 `json:"qp,string"`
	When   time.Time            `json:"when"`
	Tags   []string             `json:"tags"`
	InPtr  *lossInner           `json:"in_ptr"`
	Shade  lossShade            `json:"shade"`
	Opt    lossOptional         `json:"opt"`
}

// lossShade decodes itself from text; encoding/json hands it no null.
type lossShade string

func (s *lossShade) UnmarshalText(b []byte) error { *s = lossShade(b); return nil }

// lossOptional records that null was sent: null is a value to it.
type lossOptional struct{ Set, Null bool }

func (o *lossOptional) UnmarshalJSON(b []byte) error {
	o.Set, o.Null = true, string(b) == "null"
	return nil
}

// lossBefore is what every row's arguments are decoded over, so that a
// value the binder leaves as it was (a null it drops) shows: each field
// holds something other than its zero value.
const lossBefore = `{"n":7,"f":7,"f32":7,"s":"seven","b":true,"pair":[7,7],"inner":{"x":7,"colour":"grey"},
	"inners":[{"x":7}],"num":7,"q":"7","qf":"7","counts":{"a":7},"ints":[7,7],"when":"2007-07-07T07:07:07Z","shade":"teal"}`

// A lossWant is one issue a row expects: its kind, the parameter it is
// in (empty: none), the text it spans and the path inside the parameter.
type lossWant struct {
	kind         bind.Code
	param        string
	sent, path   string
	n            int // for ArrayLength
	typ          reflect.Type
	quotedOption bool
}

func w(kind bind.Code, param, sent, path string) lossWant {
	return lossWant{kind: kind, param: param, sent: sent, path: path}
}

type lossCase struct {
	name, args string
	want       []lossWant
	// lost, for a row with a loss, shows on the value json.Unmarshal
	// decodes (over lossBefore) that the loss is real.
	lost func(v *lossArgs) bool
}

var lossCases = []lossCase{
	// NullValue: null where the position cannot hold it leaves the value
	// as it was.
	{name: "null for int", args: `{"n":null}`, want: []lossWant{w(bind.NullForValue, "n", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.N == 7 }},
	{name: "null for float64", args: `{"f":null}`, want: []lossWant{w(bind.NullForValue, "f", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.F == 7 }},
	{name: "null for string", args: `{"s":null}`, want: []lossWant{w(bind.NullForValue, "s", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.S == "seven" }},
	{name: "null for bool", args: `{"b":null}`, want: []lossWant{w(bind.NullForValue, "b", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.B }},
	{name: "null for an array", args: `{"pair":null}`, want: []lossWant{w(bind.NullForValue, "pair", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.Pair == [2]int{7, 7} }},
	{name: "null for a struct", args: `{"inner":null}`, want: []lossWant{w(bind.NullForValue, "inner", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.Inner.X == 7 }},
	{name: "null for json.Number", args: `{"num":null}`, want: []lossWant{w(bind.NullForValue, "num", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.Num == "7" }},
	{name: "null for a ,string int", args: `{"q":null}`, want: []lossWant{w(bind.NullForValue, "q", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.Q == 7 }},
	{name: `"null" for a ,string int`, args: `{"q":"null"}`, want: []lossWant{w(bind.NullForValue, "q", `"null"`, ``)},
		lost: func(v *lossArgs) bool { return v.Q == 7 }},
	{name: "null for a ,string float", args: `{"qf":null}`, want: []lossWant{w(bind.NullForValue, "qf", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.QF == 7 }},
	{name: "null element of []int", args: `{"ints":[1,null]}`, want: []lossWant{w(bind.NullForValue, "ints", `null`, `[1]`)},
		lost: func(v *lossArgs) bool { return v.Ints[1] == 7 }},
	{name: "null element of [2]int", args: `{"pair":[1,null]}`, want: []lossWant{w(bind.NullForValue, "pair", `null`, `[1]`)},
		lost: func(v *lossArgs) bool { return v.Pair[1] == 7 }},
	{name: "null element of []struct", args: `{"inners":[null]}`, want: []lossWant{w(bind.NullForValue, "inners", `null`, `[0]`)},
		lost: func(v *lossArgs) bool { return v.Inners[0].X == 7 }},
	{name: "null map value", args: `{"counts":{"b":null}}`, want: []lossWant{w(bind.NullForValue, "counts", `null`, `.b`)},
		lost: func(v *lossArgs) bool { c, ok := v.Counts["b"]; return ok && c == 0 }},
	{name: "null inside a nested struct", args: `{"inner":{"x":null}}`, want: []lossWant{w(bind.NullForValue, "inner", `null`, `.x`)},
		lost: func(v *lossArgs) bool { return v.Inner.X == 7 }},
	{name: "null for int, the issue names the type", args: `{"n":null}`,
		want: []lossWant{{kind: bind.NullForValue, param: "n", sent: `null`, typ: reflect.TypeFor[int]()}},
		lost: func(v *lossArgs) bool { return v.N == 7 }},

	// null a position holds: no loss.
	{name: "null for *int", args: `{"ptr":null}`},
	{name: "null for []int", args: `{"ints":null}`},
	{name: "null for a map", args: `{"counts":null}`},
	{name: "null for any", args: `{"any":null}`},
	{name: "null inside any", args: `{"any":[null,{"a":null}]}`},
	{name: "null for map[string]any and its values", args: `{"meta":{"a":null}}`},
	{name: "null for json.RawMessage", args: `{"raw":null}`},
	{name: "null for a ,string *int", args: `{"qp":null}`},
	{name: `"null" for a ,string *int`, args: `{"qp":"null"}`},
	{name: "null for time.Time: its UnmarshalJSON ignores null", args: `{"when":null}`, want: []lossWant{w(bind.NullForValue, "when", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.When.Year() == 2007 }},
	{name: "null for a pointer to a struct", args: `{"in_ptr":null}`},
	{name: "null for a type read by UnmarshalText: encoding/json leaves it", args: `{"shade":null}`, want: []lossWant{w(bind.NullForValue, "shade", `null`, ``)},
		lost: func(v *lossArgs) bool { return v.Shade == "teal" }},
	{name: "null for a type whose UnmarshalJSON makes something of it", args: `{"opt":null}`},
	{name: "null inside an unknown key's value", args: `{"zz":{"n":null}}`, want: []lossWant{w(bind.UnknownArgument, "", `"zz"`, ``)}},
	{name: "null inside json.RawMessage", args: `{"raw":{"n":null}}`},

	// UnknownField: a key inside a nested struct's object binds to no field.
	{name: "unknown field in a struct", args: `{"inner":{"x":1,"y":2}}`, want: []lossWant{w(bind.UnknownField, "inner", `"y"`, `.y`)}},
	{name: "unknown field in a list's struct", args: `{"inners":[{},{},{"x":1,"colour_":2}]}`,
		want: []lossWant{w(bind.UnknownField, "inners", `"colour_"`, `[2].colour_`)}},
	{name: "unknown field in a map's struct", args: `{"by_name":{"k":{"z":[1]}}}`, want: []lossWant{w(bind.UnknownField, "by_name", `"z"`, `.k.z`)}},
	{name: "unknown field through a pointer", args: `{"in_ptr":{"z":1}}`, want: []lossWant{w(bind.UnknownField, "in_ptr", `"z"`, `.z`)}},
	{name: "keys of a map are the map's own", args: `{"counts":{"zz":1},"meta":{"zz":{"y":1}}}`},
	{name: "keys inside any are its own", args: `{"any":{"zz":{"y":1}}}`},
	{name: "an unknown field's value is dropped whole", args: `{"inner":{"y":{"n":null,"a":1,"a":2}}}`, want: []lossWant{w(bind.UnknownField, "inner", `"y"`, `.y`)}},

	// FoldedKey: a key binds only by folding its case.
	{name: "folded top-level key", args: `{"N":5}`, want: []lossWant{w(bind.FoldedKey, "n", `"N"`, ``)},
		lost: func(v *lossArgs) bool { return v.N == 5 }},
	{name: "folded nested key", args: `{"inner":{"Colour":"red"}}`, want: []lossWant{w(bind.FoldedKey, "inner", `"Colour"`, `.Colour`)},
		lost: func(v *lossArgs) bool { return v.Inner.Colour == "red" }},
	{name: "folded key in a list's struct", args: `{"inners":[{"X":1}]}`, want: []lossWant{w(bind.FoldedKey, "inners", `"X"`, `[0].X`)},
		lost: func(v *lossArgs) bool { return v.Inners[0].X == 1 }},
	{name: "an escaped exact key is exact", args: `{"\u006e":5}`},
	{name: "exact keys", args: `{"n":1,"inner":{"x":1,"colour":"red"}}`},

	// DuplicateKey: a key repeated in one object.
	{name: "repeated top-level key", args: `{"n":1,"n":2}`, want: []lossWant{w(bind.DuplicateKey, "n", `"n"`, ``)},
		lost: func(v *lossArgs) bool { return v.N == 2 }},
	{name: "repeated key, the second folded", args: `{"n":1,"N":2}`,
		want: []lossWant{w(bind.FoldedKey, "n", `"N"`, ``), w(bind.DuplicateKey, "n", `"N"`, ``)},
		lost: func(v *lossArgs) bool { return v.N == 2 }},
	{name: "repeated key, escaped", args: `{"n":1,"\u006e":2}`, want: []lossWant{w(bind.DuplicateKey, "n", `"\u006e"`, ``)},
		lost: func(v *lossArgs) bool { return v.N == 2 }},
	{name: "three times", args: `{"n":1,"n":2,"n":3}`,
		want: []lossWant{w(bind.DuplicateKey, "n", `"n"`, ``), w(bind.DuplicateKey, "n", `"n"`, ``)},
		lost: func(v *lossArgs) bool { return v.N == 3 }},
	{name: "repeated nested key", args: `{"inner":{"x":1,"x":2}}`, want: []lossWant{w(bind.DuplicateKey, "inner", `"x"`, `.x`)},
		lost: func(v *lossArgs) bool { return v.Inner.X == 2 }},
	{name: "repeated struct-valued key: merged, reported", args: `{"inner":{"x":1},"inner":{"colour":"red"}}`,
		want: []lossWant{w(bind.DuplicateKey, "inner", `"inner"`, ``)},
		// The later object is not read alone: x stays from the first.
		lost: func(v *lossArgs) bool { return v.Inner.X == 1 && v.Inner.Colour == "red" }},
	{name: "repeated map key", args: `{"counts":{"a":1,"a":2}}`, want: []lossWant{w(bind.DuplicateKey, "counts", `"a"`, `.a`)},
		lost: func(v *lossArgs) bool { return v.Counts["a"] == 2 }},
	{name: "repeated map key with a struct value: not merged", args: `{"by_name":{"k":{"x":1},"k":{"colour":"red"}}}`,
		want: []lossWant{w(bind.DuplicateKey, "by_name", `"k"`, `.k`)},
		lost: func(v *lossArgs) bool { return v.ByName["k"].X == 0 }},
	{name: "repeated key in map[string]any", args: `{"meta":{"a":{"p":1},"a":{"q":2}}}`, want: []lossWant{w(bind.DuplicateKey, "meta", `"a"`, `.a`)},
		lost: func(v *lossArgs) bool { _, ok := v.Meta["a"].(map[string]any)["p"]; return !ok }},
	{name: "repeated key inside any", args: `{"any":[{"a":1,"\u0061":2}]}`, want: []lossWant{w(bind.DuplicateKey, "any", `"\u0061"`, `[0].a`)},
		lost: func(v *lossArgs) bool { return v.Any.([]any)[0].(map[string]any)["a"] == 2.0 }},
	{name: "repeated integer map key, written another way", args: `{"ids":{"1":"a","01":"b","+1":"c"}}`,
		want: []lossWant{w(bind.DuplicateKey, "ids", `"01"`, `.01`), w(bind.DuplicateKey, "ids", `"+1"`, `["+1"]`)},
		lost: func(v *lossArgs) bool { return len(v.IDs) == 1 && v.IDs[1] == "c" }},
	{name: "repeated keys replaced alike", args: `{"counts":{"\ud800":1,"\udbff":2}}`,
		want: []lossWant{w(bind.ReplacedText, "counts", `"\ud800"`, "[\"\ufffd\"]"), w(bind.ReplacedText, "counts", `"\udbff"`, "[\"\ufffd\"]"), w(bind.DuplicateKey, "counts", `"\udbff"`, "[\"\ufffd\"]")},
		lost: func(v *lossArgs) bool { return len(v.Counts) == 2 && v.Counts["\ufffd"] == 2 }},
	{name: "map keys differing in case are not repeats", args: `{"counts":{"a":1,"A":2},"meta":{"k":1,"K":2}}`},
	{name: "keys of two objects are not repeats", args: `{"inners":[{"x":1},{"x":2}],"by_name":{"a":{"x":1},"b":{"x":1}}}`},
	{name: "repeats inside dropped values are not read", args: `{"raw":{"a":1,"a":2},"zz":{"a":1,"a":2}}`, want: []lossWant{w(bind.UnknownArgument, "", `"zz"`, ``)}},
	{name: "a repeated unknown key is unknown, not repeated", args: `{"zz":1,"zz":2}`,
		want: []lossWant{w(bind.UnknownArgument, "", `"zz"`, ``), w(bind.UnknownArgument, "", `"zz"`, ``)}},
	{name: "many distinct map keys", args: `{"counts":{` + manyKeys(100, false) + `}}`},
	{name: "many map keys, the last a repeat", args: `{"counts":{` + manyKeys(100, true) + `}}`,
		want: []lossWant{w(bind.DuplicateKey, "counts", `"k17"`, `.k17`)},
		lost: func(v *lossArgs) bool { return len(v.Counts) == 100 && v.Counts["k17"] == 100 }},
	{name: "nested maps with many keys", args: `{"meta":{` + manyKeys(40, false) + `,"in":{` + manyKeys(40, true) + `},"k3":0}}`,
		want: []lossWant{w(bind.DuplicateKey, "meta", `"k17"`, `.in.k17`), w(bind.DuplicateKey, "meta", `"k3"`, `.k3`)},
		lost: func(v *lossArgs) bool { return v.Meta["k3"] == 0.0 }},

	// ArrayLength: a fixed-size array sent more or fewer elements.
	{name: "array too long", args: `{"pair":[1,2,3]}`, want: []lossWant{{kind: bind.ArrayLength, param: "pair", sent: `[1,2,3]`, n: 3, typ: reflect.TypeFor[[2]int]()}},
		lost: func(v *lossArgs) bool { return v.Pair == [2]int{1, 2} }},
	{name: "array too short", args: `{"pair":[1]}`, want: []lossWant{{kind: bind.ArrayLength, param: "pair", sent: `[1]`, n: 1, typ: reflect.TypeFor[[2]int]()}},
		lost: func(v *lossArgs) bool { return v.Pair == [2]int{1, 0} }},
	{name: "array empty", args: `{"pair":[]}`, want: []lossWant{{kind: bind.ArrayLength, param: "pair", sent: `[]`, n: 0}},
		lost: func(v *lossArgs) bool { return v.Pair == [2]int{} }},
	{name: "extra elements are dropped unread", args: `{"pair":[1,2,null,9007199254740993,"\ud800"]}`, want: []lossWant{{kind: bind.ArrayLength, param: "pair", sent: `[1,2,null,9007199254740993,"\ud800"]`, n: 5}},
		lost: func(v *lossArgs) bool { return v.Pair == [2]int{1, 2} }},
	{name: "array of its length", args: `{"pair":[1,2]}`},

	// Rounded: an integer a float cannot hold exactly.
	{name: "2^53+1 for float64", args: `{"f":9007199254740993}`, want: []lossWant{w(bind.RoundedNumber, "f", `9007199254740993`, ``)},
		lost: func(v *lossArgs) bool { return v.F == 9007199254740992 }},
	{name: "-(2^53+1) for float64", args: `{"f":-9007199254740993}`, want: []lossWant{w(bind.RoundedNumber, "f", `-9007199254740993`, ``)},
		lost: func(v *lossArgs) bool { return v.F == -9007199254740992 }},
	{name: "30 digits for float64", args: `{"f":123456789012345678901234567890}`, want: []lossWant{w(bind.RoundedNumber, "f", `123456789012345678901234567890`, ``)},
		lost: func(v *lossArgs) bool { return fmt.Sprintf("%.0f", v.F) != "123456789012345678901234567890" }},
	{name: "2^24+1 for float32", args: `{"f32":16777217}`, want: []lossWant{w(bind.RoundedNumber, "f32", `16777217`, ``)},
		lost: func(v *lossArgs) bool { return v.F32 == 16777216 }},
	{name: "2^53+1 for any", args: `{"any":[1,9007199254740993]}`, want: []lossWant{w(bind.RoundedNumber, "any", `9007199254740993`, `[1]`)},
		lost: func(v *lossArgs) bool { return v.Any.([]any)[1] == 9007199254740992.0 }},
	{name: "2^53+1 inside map[string]any", args: `{"meta":{"id":9007199254740993}}`, want: []lossWant{w(bind.RoundedNumber, "meta", `9007199254740993`, `.id`)},
		lost: func(v *lossArgs) bool { return v.Meta["id"] == 9007199254740992.0 }},
	{name: "2^53+1 for a ,string float", args: `{"qf":"9007199254740993"}`,
		want: []lossWant{{kind: bind.RoundedNumber, param: "qf", sent: `"9007199254740993"`, quotedOption: true}},
		lost: func(v *lossArgs) bool { return v.QF == 9007199254740992 }},
	{name: "2^53 for float64", args: `{"f":9007199254740992}`},
	{name: "2^53+2 for float64", args: `{"f":9007199254740994}`},
	{name: "2^64 for float64", args: `{"f":18446744073709551616,"any":18446744073709551616}`},
	{name: "10^22 for float64", args: `{"f":10000000000000000000000}`},
	{name: "2^24 for float32", args: `{"f32":16777216}`},
	{name: "15 digits for float64", args: `{"f":999999999999999}`},
	{name: "a fraction is not judged", args: `{"f":9007199254740993.0,"any":0.1}`},
	{name: "an exponent is not judged", args: `{"f":9007199254740993e0}`},
	{name: "json.Number holds any number", args: `{"num":9007199254740993}`},
	{name: "an integer holds it", args: `{"n":9007199254740993}`},

	// Replaced: invalid UTF-8 or a lone surrogate in text.
	{name: "lone high surrogate", args: `{"s":"a\ud800b"}`, want: []lossWant{w(bind.ReplacedText, "s", `"a\ud800b"`, ``)},
		lost: func(v *lossArgs) bool { return v.S == "a\ufffdb" }},
	{name: "lone low surrogate", args: `{"s":"\udc00"}`, want: []lossWant{w(bind.ReplacedText, "s", `"\udc00"`, ``)},
		lost: func(v *lossArgs) bool { return v.S == "\ufffd" }},
	{name: "surrogates in the wrong order", args: `{"s":"\udc00\ud800"}`, want: []lossWant{w(bind.ReplacedText, "s", `"\udc00\ud800"`, ``)},
		lost: func(v *lossArgs) bool { return v.S == "\ufffd\ufffd" }},
	{name: "high surrogate before a letter", args: `{"s":"\ud800\u0041"}`, want: []lossWant{w(bind.ReplacedText, "s", `"\ud800\u0041"`, ``)},
		lost: func(v *lossArgs) bool { return v.S == "\ufffdA" }},
	{name: "invalid UTF-8 byte", args: "{\"s\":\"a\xffb\"}", want: []lossWant{w(bind.ReplacedText, "s", "\"a\xffb\"", ``)},
		lost: func(v *lossArgs) bool { return v.S == "a\ufffdb" }},
	{name: "an encoded surrogate", args: "{\"s\":\"\xed\xa0\x80\"}", want: []lossWant{w(bind.ReplacedText, "s", "\"\xed\xa0\x80\"", ``)},
		lost: func(v *lossArgs) bool { return strings.Contains(v.S, "\ufffd") }},
	{name: "lone surrogate in a list of text", args: `{"tags":["ok","\udfff"]}`, want: []lossWant{w(bind.ReplacedText, "tags", `"\udfff"`, `[1]`)},
		lost: func(v *lossArgs) bool { return v.Tags[1] == "\ufffd" }},
	{name: "lone surrogate inside any", args: `{"any":{"k":"\ud800"}}`, want: []lossWant{w(bind.ReplacedText, "any", `"\ud800"`, `.k`)},
		lost: func(v *lossArgs) bool { return v.Any.(map[string]any)["k"] == "\ufffd" }},
	{name: "lone surrogate in a map key", args: `{"meta":{"\ud800x":1}}`, want: []lossWant{w(bind.ReplacedText, "meta", `"\ud800x"`, "[\"\ufffdx\"]")},
		lost: func(v *lossArgs) bool { _, ok := v.Meta["\ufffdx"]; return ok }},
	{name: "a valid pair", args: `{"s":"\ud83d\ude00","any":"\uD83D\uDE00"}`},
	{name: "UTF-8 text", args: `{"s":"héllo 😀","meta":{"é":"ü"}}`},
	{name: "U+FFFD sent as such", args: `{"s":"\ufffd�"}`},
	{name: "an escaped backslash before u", args: `{"s":"\\ud800"}`},
	{name: "ASCII text", args: `{"s":"plain","tags":["a","b"]}`},
	{name: "a lone surrogate in a struct's key is no loss of text", args: `{"inner":{"\ud800":1}}`, want: []lossWant{w(bind.UnknownField, "inner", `"\ud800"`, "[\"\ufffd\"]")}},
}

// manyKeys returns n members "k0":0 … with distinct keys, the last one a
// repeat of k17 when repeat is set.
func manyKeys(n int, repeat bool) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		k := i
		if repeat && i == n-1 {
			k = 17
		}
		fmt.Fprintf(&b, `"k%d":%d`, k, i+1)
	}
	return b.String()
}

func TestCheck_Losses(t *testing.T) {
	plan, err := bind.Std.Compile(reflect.TypeFor[lossArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range lossCases {
		t.Run(tc.name, func(t *testing.T) {
			checkLossCase(t, plan, tc)
		})
	}
}

func checkLossCase(t *testing.T, plan *bind.Plan, tc lossCase) {
	t.Helper()
	args := []byte(tc.args)
	issues := plan.Check(args, nil)
	got := make([]lossWant, 0, len(issues))
	for _, is := range issues {
		g := lossWant{kind: is.Kind, path: is.Path.String(), n: is.N, typ: is.Type, quotedOption: is.Quoted}
		if is.Param >= 0 {
			g.param = plan.Params()[is.Param].Name
		}
		if is.Kind != bind.MissingArgument {
			g.sent = string(args[is.Start:is.End])
		}
		got = append(got, g)
	}
	// A row names the issue's type, count and option only where it cares.
	for i := range got {
		if i < len(tc.want) {
			if tc.want[i].typ == nil {
				got[i].typ = nil
			}
			if tc.want[i].kind != bind.ArrayLength {
				got[i].n = 0
			}
			if !tc.want[i].quotedOption {
				got[i].quotedOption = false
			}
		}
	}
	if !slices.Equal(got, tc.want) {
		t.Errorf("%s:\n got %+v\nwant %+v", tc.args, got, tc.want)
	}

	// The binder reads the call (no issue is one it fails on), and the
	// loss is real.
	v := new(lossArgs)
	if err := json.Unmarshal([]byte(lossBefore), v); err != nil {
		t.Fatal(err)
	}
	if len(args) == 0 || string(args) == "null" {
		return
	}
	if err := json.Unmarshal(args, v); err != nil {
		t.Fatalf("encoding/json fails on %s: %v", args, err)
	}
	hasLoss := slices.ContainsFunc(issues, func(is bind.Issue) bool { return is.Kind.Class() == bind.SilentLoss })
	if hasLoss != (tc.lost != nil) {
		t.Fatalf("row %q: a loss row needs a lost func, and only a loss row has one", tc.name)
	}
	if tc.lost != nil && !tc.lost(v) {
		t.Errorf("%s: encoding/json does not lose what the row says: %+v", args, v)
	}
}

// TestCheck_Missing: a required parameter the arguments do not name, by
// any key the binder binds to it, is Missing; text that is not an object
// is judged as a whole instead.
func TestCheck_Missing(t *testing.T) {
	base, err := bind.Std.Compile(reflect.TypeFor[lossArgs]())
	if err != nil {
		t.Fatal(err)
	}
	plan := base.WithRequired([]string{"n", "s", "no such parameter"}, nil)
	missing := func(p string) lossWant { return lossWant{kind: bind.MissingArgument, param: p} }
	for _, tc := range []lossCase{
		{name: "empty arguments", args: ``, want: []lossWant{missing("n"), missing("s")}},
		{name: "null arguments", args: `null`, want: []lossWant{missing("n"), missing("s")}},
		{name: "no members", args: ` { } `, want: []lossWant{missing("n"), missing("s")}},
		{name: "one sent", args: `{"n":1}`, want: []lossWant{missing("s")}},
		{name: "both sent", args: `{"s":"x","n":1}`},
		{name: "named by folding", args: `{"N":1,"S":"x"}`, want: []lossWant{w(bind.FoldedKey, "n", `"N"`, ``), w(bind.FoldedKey, "s", `"S"`, ``)},
			lost: func(v *lossArgs) bool { return v.N == 1 && v.S == "x" }},
		{name: "named by an escape", args: `{"\u006e":1,"s":""}`},
		{name: "named with null: sent, and lost", args: `{"n":null,"s":null}`, want: []lossWant{w(bind.NullForValue, "n", `null`, ``), w(bind.NullForValue, "s", `null`, ``)},
			lost: func(v *lossArgs) bool { return v.N == 7 && v.S == "seven" }},
		{name: "the same name nested does not count", args: `{"inner":{"n":1},"s":""}`, want: []lossWant{w(bind.UnknownField, "inner", `"n"`, `.n`), missing("n")}},
		{name: "a value the binder fails on still names it", args: `{"n":"x","s":""}`, want: []lossWant{w(bind.WrongType, "n", `"x"`, ``)}},
		{name: "not an object", args: `[]`, want: []lossWant{w(bind.NotAnObject, "", `[]`, ``)}},
		{name: "not JSON", args: `{"n":`, want: []lossWant{{kind: bind.InvalidJSON, sent: ``}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := []byte(tc.args)
			issues := plan.Check(args, nil)
			var got []lossWant
			for _, is := range issues {
				g := lossWant{kind: is.Kind, path: is.Path.String()}
				if is.Param >= 0 {
					g.param = plan.Params()[is.Param].Name
				}
				if is.Kind != bind.MissingArgument {
					g.sent = string(args[is.Start:is.End])
				}
				got = append(got, g)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("%s:\n got %+v\nwant %+v", tc.args, got, tc.want)
			}
			if tc.want == nil || tc.want[0].kind.Class() == bind.BinderFailure || tc.want[0].kind == bind.NotAnObject {
				return
			}
			if tc.lost != nil {
				v := new(lossArgs)
				_ = json.Unmarshal([]byte(lossBefore), v)
				if err := json.Unmarshal(args, v); err != nil || !tc.lost(v) {
					t.Errorf("encoding/json: %v, %+v", err, v)
				}
			}
			// The plan without required parameters finds the rest alone.
			for _, is := range base.Check(args, nil) {
				if is.Kind == bind.MissingArgument {
					t.Errorf("a plan without required parameters reports %+v", is)
				}
			}
		})
	}
}

// TestCheck_LossesAllocateNothing: a clean call over every kind of
// position the losses concern (text, floats, maps and interfaces whose
// keys are compared, nested structs, fixed-size arrays) allocates nothing,
// nor does a call whose top-level keys repeat, folded or not (the issues
// fit the slice given; a nested issue builds its path).
func TestCheck_LossesAllocateNothing(t *testing.T) {
	plan, err := bind.Std.Compile(reflect.TypeFor[lossArgs]())
	if err != nil {
		t.Fatal(err)
	}
	plan = plan.WithRequired([]string{"n", "s"}, nil)
	args := []byte(`{"n":1,"f":9007199254740992,"f32":1.5,"s":"héllo \ud83d\ude00","pair":[1,2],
		"inner":{"x":1,"colour":"red"},"inners":[{"x":1},{"x":2}],"by_name":{"a":{"x":1},"b":{}},
		"any":{"a":[1,"x",{"b":null}],"b":0.5},"meta":{` + manyKeys(16, false) + `},"ptr":null,
		"counts":{"a":1,"A":2},"ids":{"1":"a","2":"b"},"num":"12","q":"5","qf":"0.5","tags":["a"]}`)
	if issues := plan.Check(args, nil); len(issues) != 0 {
		t.Fatalf("%+v", issues)
	}
	if n := testing.AllocsPerRun(100, func() { plan.Check(args, nil) }); n != 0 {
		t.Errorf("Check allocated %v times on a clean call, want 0", n)
	}
	buf := make([]bind.Issue, 0, 8)
	// Top-level issues carry no path, which nested ones build.
	repeats := []byte(`{"s":"","n":1,"N":2,"n":3,"b":true,"b":true}`)
	if issues := plan.Check(repeats, buf); len(issues) != 4 {
		t.Fatalf("%+v", issues)
	}
	if n := testing.AllocsPerRun(100, func() { plan.Check(repeats, buf[:0]) }); n != 0 {
		t.Errorf("Check allocated %v times on repeated keys, want 0", n)
	}
}

// TestCheck_ManyKeysAreLinear: a hundred thousand keys in one object of a
// map, all distinct or all the same, and a thousand issues after a hundred
// thousand good members or elements, cost time and memory in proportion
// to the input: each issue's path comes from the arrays and objects the
// checker has open, not from reading the argument again (which cost 7
// seconds and 800 MB here).
func TestCheck_ManyKeysAreLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	plan, err := bind.Std.Compile(reflect.TypeFor[lossArgs]())
	if err != nil {
		t.Fatal(err)
	}
	members := func(n int, member func(i int) string) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(member(i))
		}
		return b.String()
	}
	distinct := func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }
	for _, tc := range []struct{ name, args string }{
		{"distinct map keys, repeated struct keys", `{"meta":{` + members(100000, distinct) +
			`},"inner":{` + members(100000, func(int) string { return `"x":1` }) + `}}`},
		{"one map key repeated", `{"meta":{` + members(100000, func(int) string { return `"k0":1` }) + `}}`},
		{"repeats after many keys", `{"counts":{` + members(100000, distinct) + `,` + members(1000, func(int) string { return `"k0":1` }) + `}}`},
		{"wrong values after many keys", `{"counts":{` + members(100000, distinct) + `,` + members(1000, func(int) string { return `"a":"x"` }) + `}}`},
		{"nulls after many elements, nested", `{"inners":[{"x":1},{"x":1}],"any":[[{"a":[` + members(100000, func(int) string { return "0" }) + `]}]],"ints":[` +
			members(100000, func(int) string { return "0" }) + `,` + members(1000, func(int) string { return "null" }) + `]}`},
	} {
		args := []byte(tc.args)
		start := time.Now()
		issues := plan.Check(args, nil)
		d := time.Since(start)
		if len(issues) < 1000 {
			t.Errorf("%s: %d issues, want a thousand or more", tc.name, len(issues))
		}
		got := allocBytes(func() { plan.Check(args, nil) })
		t.Logf("%s: %v, %d bytes allocated for %d bytes of input", tc.name, d, got, len(args))
		if got > 8*uint64(len(args))+1<<20 {
			t.Errorf("%s: Check allocated %d bytes for %d bytes of input", tc.name, got, len(args))
		}
		if d > 5*time.Second {
			t.Errorf("%s: Check took %v", tc.name, d)
		}
	}
}

// allocBytes returns the bytes f allocates, the fewest of three runs: a
// run after a garbage collection emptied the pools (the key table of a
// call of 100,000 keys is 20 MB) allocates their room again, which is no
// cost of the input; a cost of the input is in every run.
func allocBytes(f func()) uint64 {
	least := ^uint64(0)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}
