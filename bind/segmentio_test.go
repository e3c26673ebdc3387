package bind_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	segjson "github.com/segmentio/encoding/json"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/probe"
)

// segmentioValues are values segmentio reads differently from
// encoding/json, sent for every probe parameter on top of probeValues.
var segmentioValues = []string{
	`"1s"`, `"1h30m"`, `"1.5s"`, `"-5s"`, `"1s\u0022"`, `"\u0031s"`, `1000000000`, `1.5`, `"x"`,
	`"2024-01-02T03:04:05.999999999Z"`, `"2024-01-02T03:04:05"`, `"2024-01-02 03:04:05Z"`,
	"\"\xff\"", `"\ud800"`, `[1]`, `[1,2,3]`, `[1,"a",3]`, `[1,2,"a"]`, `[255,256]`, `[-1]`,
	`"05"`, `"-05"`, `"+5"`, `"0x10"`, `"1_0"`, `" 5 "`, `"5 "`, `"null"`, `"\"5\""`, `""`,
	`"YQ"`, `"YQ=="`, `"aGVs\nbG8="`, `"aGVs\r\nbG8="`, `"a GVsbG8="`,
	`{"A":1}`, `{"a":1,"a":"x"}`, `{"a":"x","a":1}`, `{"-01":"x"}`, `{"00":"x"}`, `{"1e1":"x"}`,
}

func segPlan(t testing.TB) *bind.Plan {
	t.Helper()
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[probe.Args]())
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

func TestCheckAgreesWithSegmentIO(t *testing.T) {
	plan := segPlan(t)
	for _, p := range plan.Params() {
		for _, v := range append(slicesClip(probeValues), segmentioValues...) {
			checkAgainst(t, plan, []byte(fmt.Sprintf(`{%q:%s}`, p.Name, v)))
		}
	}
}

// droppedBySegmentIO counts the top-level keys of args (which SegmentIO
// reads) that segmentio drops, asked of segmentio itself: each key is
// sent alone, with null, to the go-sdk's decoder set to disallow unknown
// fields, which it checks before it reads the value.
func droppedBySegmentIO(plan *bind.Plan, args []byte) int {
	var keys []string
	dec := json.NewDecoder(bytes.NewReader(args)) // keys read alike: invalid UTF-8 becomes U+FFFD
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return 0
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			panic(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			panic(err)
		}
	}
	n := 0
	for _, k := range keys {
		alone := []byte(fmt.Sprintf(`{%s:null}`, jsonString(k)))
		d := segjson.NewDecoder(bytes.NewReader(alone))
		d.DontMatchCaseInsensitiveStructFields()
		d.DisallowUnknownFields()
		if err := d.Decode(reflect.New(plan.Type()).Interface()); err != nil && strings.Contains(err.Error(), "unknown field") {
			n++
		}
	}
	return n
}

func TestSegmentIO_BindsTheKeysSegmentioBinds(t *testing.T) {
	plan := segPlan(t)
	for _, p := range plan.Params() {
		for _, k := range caseVariants(p.Name) {
			args := []byte(fmt.Sprintf(`{%s:null}`, jsonString(k)))
			issues := checkAgainst(t, plan, args)
			if got, want := unknownKeys(issues), droppedBySegmentIO(plan, args); got != want {
				t.Errorf("%s: %d UnknownKey issues; segmentio drops %d", args, got, want)
			}
		}
	}
}

// SegFields exercises segmentio's field rules: a field of the outer struct
// beats promoted ones, promoted fields of one name drop each other unless
// exactly one is tagged.
type SegFields struct {
	Plain   int `json:"plain"`
	Skipped int `json:"-"`
	SegA
	SegB
	*SegC
}

type SegA struct {
	Plain  string `json:"plain"` // beaten by SegFields.Plain
	Shared int    `json:"shared"`
	Tie    int
}

type SegB struct {
	Shared string // named "Shared": case matters, so it is no rival of SegA's "shared"
	Tie    int    // untagged, as SegA.Tie: both dropped
	OnlyB  bool   `json:"only_b"`
}

type SegC struct {
	Deep int `json:"deep"`
}

func TestSegmentIO_FieldRules(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[SegFields]())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range plan.Params() {
		names = append(names, p.Name+"="+p.GoName)
	}
	want := "plain=Plain shared=SegA.Shared Shared=SegB.Shared only_b=SegB.OnlyB deep=SegC.Deep"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("params:\n got %s\nwant %s", got, want)
	}
	for _, k := range []string{"plain", "Plain", "-", "Skipped", "shared", "Shared", "Tie", "only_b", "deep", "Deep", "SegA"} {
		for _, v := range []string{`null`, `1`, `"x"`} {
			args := []byte(fmt.Sprintf(`{%s:%s}`, jsonString(k), v))
			issues := checkAgainst(t, plan, args)
			if segmentio.Binder.Unmarshal(args, reflect.New(plan.Type()).Interface()) != nil {
				continue
			}
			if got, want := unknownKeys(issues), droppedBySegmentIO(plan, args); got != want {
				t.Errorf("%s: %d UnknownKey issues; segmentio drops %d", args, got, want)
			}
		}
	}
}

// Two fields tagged alike both stay in segmentio's list; its decoder binds
// the key to the first (keyset lookup) or the last (map lookup), and the
// plan follows it. json:"-," names a field "-"; an invalid tag name falls
// back to the Go name. (Built with reflect: the linters rightly flag such
// tags.)
func TestSegmentIO_TagsLintersFlag(t *testing.T) {
	typ := reflect.StructOf([]reflect.StructField{
		{Name: "Twin1", Type: reflect.TypeFor[int](), Tag: `json:"twin"`},
		{Name: "Twin2", Type: reflect.TypeFor[string](), Tag: `json:"twin"`},
		{Name: "Dash", Type: reflect.TypeFor[bool](), Tag: `json:"-,"`},
		{Name: "Bad", Type: reflect.TypeFor[int](), Tag: `json:"bad\\name"`},
	})
	plan, err := segmentio.Binder.Compile(typ)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range plan.Params() {
		names = append(names, p.Name+"="+p.GoName)
	}
	if got, want := strings.Join(names, " "), "twin=Twin1 twin=Twin2 -=Dash Bad=Bad"; got != want {
		t.Errorf("params %s, want %s", got, want)
	}
	for _, args := range []string{`{"twin":1}`, `{"twin":"x"}`, `{"twin":null}`, `{"-":true}`, `{"-":1}`, `{"Dash":1}`, `{"Bad":1}`, `{"bad\\name":1}`} {
		issues := checkAgainst(t, plan, []byte(args))
		if segmentio.Binder.Unmarshal([]byte(args), reflect.New(typ).Interface()) != nil {
			continue
		}
		if got, want := unknownKeys(issues), droppedBySegmentIO(plan, []byte(args)); got != want {
			t.Errorf("%s: %d UnknownKey issues; segmentio drops %d", args, got, want)
		}
	}
}

func TestSegmentIO_IssuesQuoteTheValueOnly(t *testing.T) {
	plan := segPlan(t)
	checkFirstIssues(t, plan, []issueCase{
		// segmentio's own error quotes `"x","string":"a secret of the next argument` here.
		{`{"int":"x","string":"a secret of the next argument"}`, "text for an int", bind.WrongType, "int", `"x"`, ""},
		{`{"int":1e2}`, "an exponent for an int", bind.NotWholeNumber, "int", `1e2`, ""},
		{`{"int8":300}`, "past int8", bind.TooLarge, "int8", `300`, ""},
		{`{"uint8":-1}`, "a sign for an unsigned type", bind.TooSmall, "uint8", `-1`, ""},
		{`{"ints":[1,"a"],"string":"next"}`, "the element, not the list", bind.WrongType, "ints", `"a"`, "[1]"},
		{`{"counts":{"a.b":1,"c":1.5}}`, "a map value", bind.NotWholeNumber, "counts", `1.5`, ".c"},
		{`{"nested":{"a":"x"}}`, "a nested field", bind.WrongType, "nested", `"x"`, ".a"},
		{`{"number":"5"}`, "json.Number reads numbers only", bind.WrongType, "number", `"5"`, ""},
		{`{"duration":"1 s"}`, "not a duration", bind.InvalidValue, "duration", `"1 s"`, ""},
		{`{"bytes":"YQ="}`, "bad base64", bind.InvalidValue, "bytes", `"YQ="`, ""},
		{`{"int_string":"1.5"}`, "a fraction inside the string", bind.NotWholeNumber, "int_string", `"1.5"`, ""},
		{`{"int_string":5}`, "a number for a ,string field", bind.WrongType, "int_string", `5`, ""},
		{`{"color":"red"}`, "the type's own method refuses it", bind.InvalidValue, "color", `"red"`, ""},
		{`{"int":1}]`, "text after the object", bind.InvalidJSON, "", ``, ""},
		{`"x"`, "not an object", bind.NotAnObject, "", `"x"`, ""},
	})
}

// goSDKUnmarshal is go-sdk v1.8.0's internal json.Unmarshal, written out
// (its depth scan, then a segmentio Decoder), with the check that nothing
// but space follows the value.
func goSDKUnmarshal(data []byte, v any) error {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
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
			if depth++; depth > 1000 {
				return errors.New("too deep")
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	dec := segjson.NewDecoder(bytes.NewReader(data))
	dec.DontMatchCaseInsensitiveStructFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) != 0 {
		return errors.New("data after the value")
	}
	return nil
}

func TestSegmentIO_UnmarshalIsTheGoSDKDecodeOfOneValue(t *testing.T) {
	for _, tc := range []struct {
		args string
		ok   bool
	}{
		{`{"int":1}`, true},
		{" \t\n{\"int\":1}\r\n ", true},
		{`{"INT":1}`, true}, // dropped: no case folding
		{`{"int":1} x`, false},
		{`{"int":1}{}`, false},
		{``, false},
		{`  `, false},
		{`null`, true},
		{`{"int":1,"int":"x"}`, false}, // every occurrence is decoded
		{`{"int":"x","int":1}`, false},
	} {
		var v probe.Args
		err := segmentio.Binder.Unmarshal([]byte(tc.args), &v)
		if (err == nil) != tc.ok {
			t.Errorf("SegmentIO.Unmarshal(%q) = %v, want ok %v", tc.args, err, tc.ok)
		}
		if ref := goSDKUnmarshal([]byte(tc.args), new(probe.Args)); (ref == nil) != tc.ok {
			t.Errorf("the go-sdk's decode of %q says %v, want ok %v", tc.args, ref, tc.ok)
		}
	}
	var v probe.Args
	if err := segmentio.Binder.Unmarshal([]byte(`{"INT":7,"int":8}`), &v); err != nil || v.Int != 8 {
		t.Errorf("got %v, %d; want the exact key only", err, v.Int)
	}
}

// nest wraps inner in depth arrays, as the value of "any".
func nest(depth int, inner string) []byte {
	return []byte(`{"any":` + strings.Repeat("[", depth) + inner + strings.Repeat("]", depth) + `}`)
}

func TestSegmentIO_RefusesNestingPastTheLimitBeforeSegmentioRuns(t *testing.T) {
	plan := segPlan(t)
	// The object is one level: "any" may hold SegmentIOMaxDepth-1 arrays.
	checkAgainst(t, plan, nest(bind.SegmentIOMaxDepth-1, "1"))
	if is := plan.Check(nest(bind.SegmentIOMaxDepth-1, "1"), nil); len(is) != 0 {
		t.Errorf("nesting at the limit: issues %+v", is)
	}
	for _, depth := range []int{bind.SegmentIOMaxDepth, 10001, 2_500_000} {
		args := nest(depth, "")
		err := segmentio.Binder.Unmarshal(args, new(probe.Args)) // segmentio alone would crash the process at 2,500,000
		if err == nil {
			t.Fatalf("depth %d: SegmentIO.Unmarshal reads it", depth)
		}
		is := plan.Check(args, nil)
		at := len(`{"any":`) + bind.SegmentIOMaxDepth - 1 // the bracket that opens level SegmentIOMaxDepth+1
		if len(is) != 1 || is[0].Kind != bind.TooDeep || plan.Params()[is[0].Param].Name != "any" || is[0].Start != len(`{"any":`) || is[0].End != at {
			t.Errorf("depth %d: issues %+v, want one TooDeep issue in any, ending at %d", depth, is, at)
		}
	}
	// Brackets inside strings do not count, as in go-sdk's scan; outside
	// any argument, the issue is in none.
	checkAgainst(t, plan, []byte(`{"string":"`+strings.Repeat("[", 5000)+`"}`))
	if is := checkAgainst(t, plan, []byte(strings.Repeat("[", 1001))); len(is) != 1 || is[0].Kind != bind.TooDeep || is[0].Param != -1 {
		t.Errorf("issues %+v, want one TooDeep issue in no argument", is)
	}
}

type segUnexportedPtr struct {
	*segInner
	Limit int `json:"limit"`
}

type segInner struct {
	Deep int `json:"deep"`
}

type segChan struct {
	C chan int `json:"c"`
}

type segBoolKeys struct {
	M map[bool]int `json:"m"`
}

type segIface struct {
	R fmt.Stringer `json:"r"`
}

func TestSegmentIO_CompileRefusesWhatSegmentioCannotDecodeInto(t *testing.T) {
	for _, tc := range []struct {
		typ   reflect.Type
		field string
	}{
		{reflect.TypeFor[segUnexportedPtr](), "segInner.Deep"},
		{reflect.TypeFor[segChan](), "C"},
		{reflect.TypeFor[segBoolKeys](), "M"},
		{reflect.TypeFor[segIface](), "R"},
	} {
		_, err := segmentio.Binder.Compile(tc.typ)
		var fe *bind.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%v: Compile says %v, want a *FieldError", tc.typ, err)
			continue
		}
		if fe.Field != tc.field {
			t.Errorf("%v: the error names field %q, want %q (%v)", tc.typ, fe.Field, tc.field, err)
		}
	}
	// Every value sent for it does fail.
	var v segUnexportedPtr
	if err := segmentio.Binder.Unmarshal([]byte(`{"deep":1}`), &v); err == nil {
		t.Error("segmentio reads a field promoted through an unexported embedded pointer")
	}
}

func FuzzCheckAgreesWithSegmentIO(f *testing.F) {
	plan := segPlan(f)
	addTableSeeds(f)
	addCrossSeeds(f, plan.Params(), append(slicesClip(probeValues), segmentioValues...))
	for _, s := range []string{``, ` `, `null`, `[]`, `5`, `{"int":1,}`, `{"int":1} x`, `{"INT":1}`, `{"Int":1}`,
		`{"int":1,"int":"x"}`, `{"int":"x","int":1}`, `{"int":1,"int":1}`, "{\"int\":1,\"\xff\":2}", `{"\u0069nt":1}`,
		`{"number":1e400}`, `{"number":"5"}`, `{"number":5}`, `{"duration":"1s"}`, `{"duration":1}`, `{"pair":[1]}`, `{"pair":[1,2,3]}`,
		`{"time":"2024-01-02T03:04:05Z"}`, `{"string":"a]b}c"}`, `{"string":"\"[[["}`,
		strings.Repeat("[", bind.SegmentIOMaxDepth+1), string(nest(bind.SegmentIOMaxDepth-1, "")), string(nest(bind.SegmentIOMaxDepth, ""))} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		// SegmentIO.Unmarshal is the go-sdk's decode of one value.
		var v1, v2 probe.Args
		err, ref := segmentio.Binder.Unmarshal(args, &v1), goSDKUnmarshal(args, &v2)
		if (err == nil) != (ref == nil) || err == nil && !reflect.DeepEqual(v1, v2) {
			t.Errorf("%q: SegmentIO.Unmarshal says %v, the go-sdk's decode %v", args, err, ref)
		}
		issues := checkAgainst(t, plan, args)
		if len(args) != 0 && segmentio.Binder.Unmarshal(args, reflect.New(plan.Type()).Interface()) == nil {
			if got, want := unknownKeys(issues), droppedBySegmentIO(plan, args); got != want {
				t.Errorf("%q: %d UnknownKey issues; segmentio drops %d", args, got, want)
			}
		}
	})
}

// FuzzCheckAgreesWithSegmentIOFieldRules is FuzzCheckAgreesWithSegmentIO
// on a struct with segmentio's embedding rules at work.
func FuzzCheckAgreesWithSegmentIOFieldRules(f *testing.F) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[SegFields]())
	if err != nil {
		f.Fatal(err)
	}
	for _, k := range []string{"plain", "Plain", "shared", "Shared", "Tie", "only_b", "deep", "Deep", "SegA", "Skipped", "-"} {
		for _, v := range []string{`null`, `1`, `"x"`, `true`, `{}`} {
			f.Add([]byte(fmt.Sprintf(`{%q:%s}`, k, v)))
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		issues := checkAgainst(t, plan, args)
		if len(args) != 0 && segmentio.Binder.Unmarshal(args, reflect.New(plan.Type()).Interface()) == nil {
			if got, want := unknownKeys(issues), droppedBySegmentIO(plan, args); got != want {
				t.Errorf("%q: %d UnknownKey issues; segmentio drops %d", args, got, want)
			}
		}
	})
}

func TestTrial_CheckIsSafeForConcurrentUse(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[probe.Args]())
		if err != nil {
			t.Fatal(err)
		}
		calls := []string{`{"int":1}`, `{"int":"x","ints":[1,"a"]}`, `{"INT":1}`, `{"counts":{"a":1.5}}`, `{"int":1}x`}
		want := make([][]bind.Issue, len(calls))
		for i, c := range calls {
			want[i] = plan.Check([]byte(c), nil)
		}
		done := make(chan bool)
		for g := range 4 {
			go func() {
				defer func() { done <- true }()
				for k := range 50 {
					i := (g + k) % len(calls)
					if got := plan.Check([]byte(calls[i]), nil); len(got) != len(want[i]) || len(got) > 0 && got[0].Kind != want[i][0].Kind {
						t.Errorf("%s %s: concurrent Check says %+v, alone %+v", b.Name(), calls[i], got, want[i])
					}
				}
			}()
		}
		for range 4 {
			<-done
		}
	}
}

// segDurations are values sent for a time.Duration, which segmentio reads
// from a number (parseInt, as an int64: it may wrap) or from a string
// (time.ParseDuration of the text up to the first quote, escapes and all).
var segDurations = []string{
	`0`, `1`, `-1`, `-0`, `1.5`, `1e3`, `-1.0`, `9223372036854775807`, `9223372036854775808`,
	`-9223372036854775808`, `-9223372036854775809`, `21000000000000000000`, `99999999999999999999999`,
	`"1s"`, `"1h30m"`, `"-1.5s"`, `"+1s"`, `"0"`, `"-0"`, `"x"`, `""`, `"1"`, `"1s\""`, `"\u0031s"`,
	`"1\ns"`, `"1µs"`, `"1μs"`, "\"1\xffs\"", `"\ud800"`, `"9999999999h"`, `"1s "`, `" 1s"`,
	`true`, `null`, `[]`, `[1]`, `{}`, `{"a":1}`,
}

// TestNative_SegmentIODurations: the one pass gives the verdict of a
// Duration's value, alone, in a pointer and in a list, as the trial check
// does, issue for issue; it declines none.
func TestNative_SegmentIODurations(t *testing.T) {
	type durs struct {
		D time.Duration   `json:"d"`
		P *time.Duration  `json:"p"`
		L []time.Duration `json:"l"`
	}
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[durs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range segDurations {
		for _, args := range []string{`{"d":` + v + `}`, `{"p":` + v + `}`, `{"l":[1,` + v + `]}`, `{"d":` + v + `,"p":` + v + `,"x":1}`} {
			checkProven(t, plan, []byte(args))
			if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok {
				t.Errorf("%.80q: the pass declines", args)
			}
		}
	}
}

// segIntKeys are keys sent to maps of integer keys, which segmentio reads
// as ,string integers: "null", or a JSON integer in range; any other
// fails the whole map.
var segIntKeys = []string{
	`1`, `-1`, `+1`, `01`, `-01`, `00`, `0`, `-0`, `127`, `128`, `-128`, `-129`, `255`, `256`, `1.0`, `1e1`,
	`null`, `nullx`, ` 1`, `1 `, `1\t`, `null `, `  `, ``, `-`, `x`, `\u0031`, `\u002d1`, `0x1`, `1_0`, `true`, "\xff", `é`,
	`9223372036854775807`, `-9223372036854775808`, `18446744073709551615`, `4294967296`,
}

// segIntKeysDeclined are the keys of segIntKeys the pass declines:
// invalid UTF-8.
var segIntKeysDeclined = []string{"\xff"}

// segIntKeyNamed reports whether segmentio's error for a failure in the
// value of the key k (sent as its text, no escape) names it by its text:
// the integer it reads is written as k.
func segIntKeyNamed(k string) bool {
	if v, err := strconv.ParseInt(k, 10, 64); err == nil {
		return strconv.FormatInt(v, 10) == k
	}
	v, err := strconv.ParseUint(k, 10, 64)
	return err == nil && strconv.FormatUint(v, 10) == k
}

// TestNative_SegmentIOIntKeys: the one pass gives the verdict of a map of
// integer keys, as the trial check does, issue for issue, in an argument
// and inside one, but for a failure in a value whose key segmentio's
// error names otherwise than by its text ("null", "-0", a key with space
// after it, a wrapped one: the trial check stops at the map), which it
// declines.
func TestNative_SegmentIOIntKeys(t *testing.T) {
	type intKeys struct {
		M map[int8]string    `json:"m"`
		U map[uint8]int      `json:"u"`
		L []map[int64]string `json:"l"`
		W map[uint]bool      `json:"w"`
		N struct {
			M map[int]int `json:"m"`
		} `json:"n"`
		MM map[string]map[int16]int `json:"mm"`
	}
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[intKeys]())
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range append(segIntKeys, "21000000000000000000", "20000000000000000000", "-9223372036854775809", "null\t", "1  ") {
		// A failure in the value of k the pass declines where segmentio's
		// error names k otherwise than by its text, where k is empty or
		// holds a dot or an escape (a dotted path loses it), and where k
		// repeats a key of a call that fails.
		odd := !segIntKeyNamed(k) || k == "" || strings.ContainsAny(k, ".\\")
		for _, row := range []struct {
			args  string
			fails bool // a value under k fails (or k repeats "1", whose value fails)
		}{
			{`{"l":[{"2":1},{"` + k + `":1.5}],"x":1}`, true}, {`{"l":[{"` + k + `":null}]}`, false},
			{`{"n":{"m":{"` + k + `":1}}}`, false}, {`{"n":{"m":{"` + k + `":"x"}}}`, true},
			{`{"mm":{"a":{"` + k + `":null},"b":{"1":2}}}`, false}, {`{"mm":{"a":{"1":"x"},"b":{"` + k + `":2}}}`, false},
			{`{"m":{"` + k + `":"a"}}`, false}, {`{"u":{"1":2,"` + k + `":3}}`, false}, {`{"u":{"1":"x","` + k + `":1}}`, true},
			{`{"l":[{"` + k + `":"a"}],"x":1}`, false}, {`{"w":{"` + k + `":true,"0":true}}`, false},
			{`{"m":{"5":"a","` + k + `":"b"},"u":{"` + k + `":1}}`, false},
		} {
			args := []byte(row.args)
			checkProven(t, plan, args)
			if _, _, ok := bind.NativeVerdict(plan, args); !ok && !slices.Contains(segIntKeysDeclined, k) && !(row.fails && odd) && !(k == "1" && strings.Contains(row.args, `"1":"x"`)) {
				t.Errorf("%.80q: the pass declines", args)
			}
		}
	}
}

// TestNative_SegmentIODurationsAllocate: a list of Durations segmentio
// fails on costs the allocations of one (time.ParseDuration's error), the
// argument's first failure, however long it is.
func TestNative_SegmentIODurationsAllocate(t *testing.T) {
	type durs struct {
		L []time.Duration `json:"l"`
	}
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[durs]())
	if err != nil {
		t.Fatal(err)
	}
	allocs := func(n int) float64 {
		args := []byte(`{"l":[` + strings.Repeat(`"x",`, n) + `"y"]}`)
		if _, _, ok := bind.NativeVerdict(plan, args); !ok {
			t.Fatal("the pass declines")
		}
		issues := make([]bind.Issue, 0, 8)
		return testing.AllocsPerRun(20, func() { plan.Check(args, issues[:0]) })
	}
	if a, b := allocs(10), allocs(1000); b > a {
		t.Errorf("10 bad Durations: %v allocations, 1000: %v", a, b)
	}
}
