package bind_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/bindguard/bindguard/bind"
	bindjsonv2 "github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/decoders"
	"github.com/bindguard/bindguard/internal/probe"
)

// v2Values are values V2 reads differently from encoding/json, sent for
// every probe parameter on top of probeValues.
var v2Values = []string{
	"\"\xff\"", "\"a\xffb\"", `"\ud800"`, `"\ud800\u0041"`, `"\udc00"`, "[\"\xff\"]", "{\"\xff\":1}", "{\"k\":\"\xfe\"}",
	`"1s"`, `"1h30m"`, `1000000000`, `"-5s"`, `{"a":1,"a":2}`, `[{"a":1,"a":1}]`, `{"k":{"x":1,"x":2}}`,
	`[1]`, `[1,2]`, `[1,2,3]`, `[]`, `"YQ"`, `"YQ=="`, `"aGVs\nbG8="`, `"5"`, `"05"`, `"+5"`, `"-0"`, `"1e2"`,
	`{"A":1}`, `{"a":1,"A":2}`, `{"1":"x","01":"y"}`, `{"1":"x","1":"y"}`, `{"a":null}`, `{"a":{"b":[1,{"c":"\u00e9"}]}}`,
}

func v2Plan(t testing.TB) *bind.Plan {
	t.Helper()
	plan, err := bindjsonv2.Binder.Compile(reflect.TypeFor[probe.Args]())
	if err != nil {
		t.Fatal(err)
	}
	return plan
}

// checkAgainst sends args to the binder and to the plan's Check, and
// requires the same verdict: an issue that Fails exactly when the binder
// fails. It also checks the issues' shape: spans inside args, and a value
// issue in an argument.
func checkAgainst(t *testing.T, plan *bind.Plan, args []byte) []bind.Issue {
	t.Helper()
	if len(args) == 0 {
		args = []byte("{}") // Check reads no arguments as {}, where Unmarshal fails
	}
	berr := plan.Binder().Unmarshal(args, reflect.New(plan.Type()).Interface())
	issues := plan.Check(args, nil)
	var refused []bind.Issue
	for _, is := range issues {
		if is.Start < 0 || is.End < is.Start || is.End > len(args) {
			t.Errorf("%q: issue %+v has a span outside the arguments", args, is)
		}
		switch {
		case is.Kind == bind.UnknownArgument, is.Kind == bind.Omitted:
			continue
		case is.Kind.Class() != bind.BinderFailure:
			if is.Param < 0 || is.Param >= len(plan.Params()) {
				t.Errorf("%q: %v issue %+v in no argument", args, is.Kind, is)
			}
			continue
		}
		switch is.Kind {
		case bind.Omitted:
			continue
		case bind.InvalidJSON, bind.NotAnObject, bind.AmbiguousArgument:
			if is.Param != -1 {
				t.Errorf("%q: %v issue in argument %d", args, is.Kind, is.Param)
			}
		case bind.TooDeep:
			if is.Param >= len(plan.Params()) {
				t.Errorf("%q: %v issue in no argument", args, is)
			}
		default:
			if is.Param < 0 || is.Param >= len(plan.Params()) {
				t.Errorf("%q: value issue %+v in no argument", args, is)
			}
		}
		refused = append(refused, is)
	}
	if (berr != nil) != (len(refused) > 0) {
		t.Errorf("%q: %s says %v, guard says %+v", args, plan.Binder().Name(), berr, refused)
	}
	return issues
}

func TestCheckAgreesWithV2(t *testing.T) {
	plan := v2Plan(t)
	for _, p := range plan.Params() {
		for _, v := range append(slicesClip(probeValues), v2Values...) {
			checkAgainst(t, plan, []byte(fmt.Sprintf(`{%q:%s}`, p.Name, v)))
		}
	}
}

func slicesClip(s []string) []string { return s[:len(s):len(s)] }

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// droppedByV2 counts the top-level keys of args (which V2 reads) that V2
// drops, asked of V2 itself: each key is sent alone, with null, to V2 set
// to reject unknown members, which it checks before it reads the value.
func droppedByV2(plan *bind.Plan, args []byte) int {
	dec := jsontext.NewDecoder(bytes.NewReader(args))
	if tok, err := dec.ReadToken(); err != nil || tok.Kind() != '{' {
		return 0
	}
	n := 0
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			panic(err)
		}
		name := tok.String()
		if err := dec.SkipValue(); err != nil {
			panic(err)
		}
		alone, err := jsonv2.Marshal(map[string]any{name: nil})
		if err != nil {
			panic(err)
		}
		err = jsonv2.Unmarshal(alone, reflect.New(plan.Type()).Interface(), jsonv2.RejectUnknownMembers(true))
		var se *jsonv2.SemanticError
		if errors.As(err, &se) && errors.Is(se.Err, jsonv2.ErrUnknownName) {
			n++
		}
	}
	return n
}

func unknownKeys(issues []bind.Issue) int {
	n := 0
	for _, is := range issues {
		if is.Kind == bind.UnknownArgument {
			n++
		}
	}
	return n
}

// caseVariants are keys a caller might send for name.
func caseVariants(name string) []string {
	return []string{name, strings.ToUpper(name), strings.ToUpper(name[:1]) + name[1:], strings.ReplaceAll(name, "_", "-"),
		strings.ReplaceAll(name, "_", ""), name + " ", "\u212a" + name, name + "\x00"}
}

func TestV2_BindsTheKeysV2Binds(t *testing.T) {
	plan := v2Plan(t)
	for _, p := range plan.Params() {
		for _, k := range caseVariants(p.Name) {
			args := []byte(fmt.Sprintf(`{%s:null}`, jsonString(k)))
			issues := plan.Check(args, nil)
			if got, want := unknownKeys(issues), droppedByV2(plan, args); got != want {
				t.Errorf("%s: %d UnknownKey issues; V2 drops %d", args, got, want)
			}
		}
	}
}

// V2Fields (v2build_*_test.go) exercises V2's field rules: case:ignore and
// case:strict, embedded structs (the shallower field wins, a tagged one
// wins a tie), embed (inline) on a named field, a quoted name, json:"-".

type V2Inner struct {
	Deep  int `json:"deep"`
	Plain int `json:"plain"` // shadowed by V2Fields.Plain
}

type V2Named struct {
	FromNamed string `json:"from_named,case:ignore"`
}

func TestV2_FieldRules(t *testing.T) {
	plan, err := bindjsonv2.Binder.Compile(reflect.TypeFor[V2Fields]())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, p := range plan.Params() {
		names = append(names, p.Name+"="+p.GoName)
	}
	want := "hours_back=HoursBack strict_name=Strict plain=Plain odd name!=Odd deep=V2Inner.Deep from_named=Named.FromNamed"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("params:\n got %s\nwant %s", got, want)
	}
	for _, p := range plan.Params() {
		for _, k := range append(caseVariants(p.Name), "HOURSBACK", "Hours-Back", "FROMNAMED", "Skipped", "-", "Strict_Name") {
			for _, v := range []string{`null`, `1`, `"x"`} {
				args := []byte(fmt.Sprintf(`{%s:%s}`, jsonString(k), v))
				issues := checkAgainst(t, plan, args)
				if jsonv2.Unmarshal(args, reflect.New(plan.Type()).Interface()) != nil {
					continue
				}
				if got, want := unknownKeys(issues), droppedByV2(plan, args); got != want {
					t.Errorf("%s: %d UnknownKey issues; V2 drops %d", args, got, want)
				}
			}
		}
	}
	// Two keys that bind one field are a duplicate name to V2.
	for _, args := range []string{`{"hours_back":1,"HOURS_BACK":2}`, `{"HoursBack":1,"hours-back":2}`, `{"plain":true,"plain":true}`, `{"x":1,"x":2}`} {
		checkAgainst(t, plan, []byte(args))
	}
}

// V2Ambiguous has two case:ignore fields one key can fit.
type V2Ambiguous struct {
	A int `json:"foo_bar,case:ignore"`
	B int `json:"fooBar,case:ignore"`
}

// TestV2_AmbiguousKeyIsOneIssue: a key that fits two case:ignore fields,
// which go-json-experiment fails on, is one AmbiguousArgument issue that
// spans the key, in no argument (it was an InvalidJSON at the key's first
// byte, which refuse worded as text that is not JSON).
func TestV2_AmbiguousKeyIsOneIssue(t *testing.T) {
	plan, err := bindjsonv2.Binder.Compile(reflect.TypeFor[V2Ambiguous]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"FOOBAR":1}`, `{"foo_bar":1}`, `{"fooBar":1,"foo-bar":2}`, `{"foo-bar":1}`} {
		checkAgainst(t, plan, []byte(args))
	}
	issues := plan.Check([]byte(`{"foo-bar":1}`), nil)
	if v2AmbiguousFails && (len(issues) != 1 || issues[0].Kind != bind.AmbiguousArgument || issues[0].Param != -1 || issues[0].Start != 1 || issues[0].End != 10) {
		t.Errorf("{\"foo-bar\":1}: issues %+v, want one AmbiguousArgument issue spanning the key", issues)
	}
	if !v2AmbiguousFails && (len(issues) != 1 || issues[0].Kind != bind.FoldedKey || issues[0].Param != 0) {
		// The first field in breadth-first order takes it, by a fold
		// (TestV2_AmbiguousFoldIsLost).
		t.Errorf("{\"foo-bar\":1}: issues %+v, want one FoldedKey loss into the first field", issues)
	}
}

// V2AmbiguousNested holds V2Ambiguous, whose two case:ignore fields V2
// folds alike, inside an argument, a list and a map.
type V2AmbiguousNested struct {
	In   V2Ambiguous            `json:"in"`
	List []V2Ambiguous          `json:"list"`
	Map  map[string]V2Ambiguous `json:"map"`
}

// TestV2_AmbiguousFieldSpansTheKey: inside an argument, a key that fits
// two case:ignore fields, which go-json-experiment fails on, is the
// argument's AmbiguousField issue spanning the key, its path leading to
// the key's member, its Type the struct (it was an InvalidValue spanning
// the key's value, which refuse worded as a value the argument's type
// does not read). Under GOEXPERIMENT=jsonv2 the first field takes it.
func TestV2_AmbiguousFieldSpansTheKey(t *testing.T) {
	plan, err := bindjsonv2.Binder.Compile(reflect.TypeFor[V2AmbiguousNested]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, key, path, pointer string }{
		{`{"in":{"foo-bar":{"x":[1]}}}`, `"foo-bar"`, `["foo-bar"]`, "/in/foo-bar"},
		{`{"list":[{"foo_bar":1},{"foo_bar":1,"FOOBAR":2,"fooBAR":3}]}`, `"FOOBAR"`, "[1].FOOBAR", "/list/1/FOOBAR"},
		{`{"map":{"k":{"f\u006fobar":2}}}`, `"f\u006fobar"`, ".k.foobar", "/map/k/foobar"},
	} {
		issues := checkAgainst(t, plan, []byte(tc.args))
		if !v2AmbiguousFails {
			continue
		}
		if len(issues) != 1 {
			t.Errorf("%s: issues %+v, want one", tc.args, issues)
			continue
		}
		is := issues[0]
		berr := bindjsonv2.Binder.Unmarshal([]byte(tc.args), new(V2AmbiguousNested))
		if e, ok := decoders.V2.ReadError(berr); !ok || int(e.Offset) != is.Start {
			t.Errorf("%s: the issue starts at %d, V2 failed at %d: %v", tc.args, is.Start, e.Offset, berr)
		}
		if is.Kind != bind.AmbiguousField || tc.args[is.Start:is.End] != tc.key || is.Type != reflect.TypeFor[V2Ambiguous]() ||
			is.Path.String() != tc.path || is.Path.Pointer() != tc.pointer {
			t.Errorf("%s: %s spanning %s at %s (%s), type %v; want %s spanning %s at %s (%s), type V2Ambiguous",
				tc.args, is.Kind, tc.args[is.Start:is.End], is.Path.String(), is.Path.Pointer(), is.Type,
				bind.AmbiguousField, tc.key, tc.path, tc.pointer)
		}
	}
}

func TestV2_IssuesNameTheValue(t *testing.T) {
	plan := v2Plan(t)
	checkFirstIssues(t, plan, []issueCase{
		{`{"int":1.5,"string":"ok"}`, "a fraction for an int", bind.NotWholeNumber, "int", `1.5`, ""},
		{`{"int8":300}`, "past int8", bind.TooLarge, "int8", `300`, ""},
		{`{"uint":-0}`, "a sign for an unsigned type", bind.TooSmall, "uint", `-0`, ""},
		{`{"ints":[1, "a"]}`, "the element, not the list", bind.WrongType, "ints", `"a"`, "[1]"},
		{`{"counts":{"a":1,"b":1e2}}`, "the map value", bind.NotWholeNumber, "counts", `1e2`, ".b"},
		{`{"names":{"7":"a","x":"b"}}`, "the map key V2 cannot read as an int", bind.InvalidKey, "names", `"x"`, ".x"},
		v2NumberCase,
		{`{"duration":"1s"}`, "time.Duration has no default representation", bind.InvalidValue, "duration", `"1s"`, ""},
		{`{"duration":null}`, "not even null", bind.InvalidValue, "duration", `null`, ""},
		{`{"pair":[1,2,3]}`, "a fixed array takes its length exactly", bind.InvalidValue, "pair", `[1,2,3]`, ""},
		{`{"int_string":"1.5"}`, "a fraction inside the string", bind.NotWholeNumber, "int_string", `"1.5"`, ""},
		{"{\"string\":\"a\xffb\"}", "invalid UTF-8 in an argument", bind.InvalidValue, "string", "\"a\xffb\"", ""},
		{`{"nested":{"a":1,"a":2}}`, "a repeated key inside an argument", bind.InvalidValue, "nested", `{"a":1,"a":2}`, ""},
		{`{"int":1,"int":1}`, "a repeated key: V2 refuses it, at the key", bind.InvalidValue, "int", `"int"`, ""},
		{`{"x":1,"x":1}`, "a repeated key V2 drops: a syntax error to V2, at the key", bind.InvalidJSON, "", `"x"`, ""},
		{"{\"\xff\":1}", "invalid UTF-8 in a key", bind.InvalidJSON, "", ``, ""},
		{"{\"x\":\"\xff\"}", "invalid UTF-8 in a dropped key's value", bind.InvalidJSON, "", ``, ""},
		{`{"int":1}]`, "text after the object", bind.InvalidJSON, "", ``, ""},
		{`[1]`, "not an object", bind.NotAnObject, "", `[1]`, ""},
	})
}

type v2NoFields struct {
	//lint:ignore U1000 a struct with no exported field is the point
	hidden int
}

type v2NestedBad struct {
	Limit int          `json:"limit"`
	Inner []v2NoFields `json:"inner"`
}

type v2Chan struct {
	C chan int `json:"c"`
}

func TestV2_CompileRefusesWhatV2Refuses(t *testing.T) {
	for _, tc := range []struct {
		typ   reflect.Type
		field string
	}{
		// An unexported field with a json tag, and two fields of one name:
		// built with reflect, as vet rightly flags such structs.
		{reflect.StructOf([]reflect.StructField{
			{Name: "Limit", Type: reflect.TypeFor[int](), Tag: `json:"limit"`},
			{Name: "secret", PkgPath: "bind_test", Type: reflect.TypeFor[string](), Tag: `json:"secret"`},
		}), "secret"},
		{reflect.StructOf([]reflect.StructField{
			{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"x"`},
			{Name: "B", Type: reflect.TypeFor[int](), Tag: `json:"x"`},
		}), "B"},
		{reflect.TypeFor[v2Fallback](), "Rest"},
		{reflect.TypeFor[v2NoFields](), ""},
		{reflect.TypeFor[v2NestedBad](), "Inner.[]"},
		{reflect.TypeFor[v2Chan](), "C"},
		{reflect.StructOf([]reflect.StructField{{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"a,omitEmpty"`}}), "A"},
	} {
		_, err := bindjsonv2.Binder.Compile(tc.typ)
		var fe *bind.FieldError
		if !errors.As(err, &fe) {
			t.Errorf("%v: Compile says %v, want a *FieldError", tc.typ, err)
			continue
		}
		if fe.Field != tc.field {
			t.Errorf("%v: the error names field %q, want %q (%v)", tc.typ, fe.Field, tc.field, err)
		}
	}
	if _, err := bindjsonv2.Binder.Compile(reflect.TypeFor[probe.Color]()); err == nil {
		t.Error("Compile takes a non-struct")
	}
}

func FuzzCheckAgreesWithV2(f *testing.F) {
	plan := v2Plan(f)
	addTableSeeds(f)
	addCrossSeeds(f, plan.Params(), append(slicesClip(probeValues), v2Values...))
	for _, s := range []string{``, ` `, `null`, `[]`, `5`, `{"int":1,}`, `{"int":1} x`, `{"INT":1}`, `{"Int":1}`,
		`{"int":1,"int":"x"}`, `{"int":1,"int":1}`, `{"zz":1,"zz":1}`, "{\"int\":1,\"\xff\":2}", `{"\u0069nt":1,"int":2}`,
		`{"number":1e400}`, `{"float64":1e400}`, `{"duration":"1s"}`, `{"number":"5"}`, `{"pair":[1]}`, `{"pair":[1,2,3]}`,
		strings.Repeat("[", 10001), `{"any":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}`,
		`{"any":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		issues := checkAgainst(t, plan, args)
		if len(args) != 0 && jsonv2.Unmarshal(args, reflect.New(plan.Type()).Interface()) == nil {
			if got, want := unknownKeys(issues), droppedByV2(plan, args); got != want {
				t.Errorf("%q: %d UnknownKey issues; V2 drops %d", args, got, want)
			}
		}
	})
}

// V2Formats carries format: options, which the trial of each argument
// must carry too.
type V2Formats struct {
	Units time.Duration `json:"units,format:units"`
	Nano  time.Duration `json:"nano,format:nano"`
	Day   time.Time     `json:"day,format:'2006-01-02'"`
	Hex   []byte        `json:"hex,format:hex"`
	Count int64         `json:"count,string"`
}

// V2 refuses every object for a struct with a format: tag option, unless
// the process turns on ExperimentalGlobalSupportFormatTag; Compile follows.
// Under GOEXPERIMENT=jsonv2 the standard library's v2 (Go 1.26) reads them
// natively.
func TestV2_FormatOptionsAreRefusedUnlessV2TakesThem(t *testing.T) {
	_, err := bindjsonv2.Binder.Compile(reflect.TypeFor[V2Formats]())
	var fe *bind.FieldError
	if v2FormatByDefault && err != nil {
		t.Errorf("Compile says %v, want none: this V2 reads format: options", err)
	}
	if !v2FormatByDefault && (!errors.As(err, &fe) || fe.Field != "Units") {
		t.Errorf("Compile says %v, want a *FieldError naming Units", err)
	}
}

func TestV2_FormatOptionsTravelWithTheTrial(t *testing.T) {
	if !v2FormatByDefault {
		// Under the experiment the option panics the standard library's v2
		// (Go 1.26: "unknown option"), which needs none.
		jsonv2.ExperimentalGlobalSupportFormatTag(true)
		defer jsonv2.ExperimentalGlobalSupportFormatTag(false)
	}
	plan, err := bindjsonv2.Binder.Compile(reflect.TypeFor[V2Formats]())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Params() {
		for _, v := range []string{`null`, `"1s"`, `"1h2m"`, `1000`, `1.5`, `"2024-01-02"`, `"2024-01-02T03:04:05Z"`, `"0a0B"`, `"0g"`, `"12"`, `12`, `"1e2"`, `""`} {
			checkAgainst(t, plan, []byte(fmt.Sprintf(`{%q:%s,"count":"1"}`, p.Name, v)))
		}
	}
	for _, args := range []string{`{"units":"1s","nano":5,"day":"2024-01-02","hex":"ff","count":"7"}`, `{"units":"1s","units":"2s"}`} {
		checkAgainst(t, plan, []byte(args))
	}
	if is := plan.Check([]byte(`{"units":"1s","nano":5,"day":"2024-01-02","hex":"ff","count":"7"}`), nil); len(is) != 0 {
		t.Errorf("issues %+v for values V2 reads", is)
	}
}

// boom's method panics on 13, and reads any other number.
type boom int

func (b *boom) UnmarshalJSON(data []byte) error {
	if string(data) == "13" {
		panic("unlucky")
	}
	return json.Unmarshal(data, (*int)(b))
}

// once's method fails when it has already read a value.
type once struct{ set bool }

func (o *once) UnmarshalJSON([]byte) error {
	if o.set {
		return errors.New("read twice")
	}
	o.set = true
	return nil
}

type methodArgs struct {
	M    int  `json:"m"`
	N    boom `json:"n"`
	Once once `json:"once"`
}

func TestTrial_APanickingMethodIsAnIssueOfItsArgument(t *testing.T) {
	for _, b := range []bind.Binder{bindjsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[methodArgs]())
		if err != nil {
			t.Fatal(err)
		}
		checkAgainst(t, plan, []byte(`{"m":1,"n":12}`))
		is := plan.Check([]byte(`{"m":1,"n":13}`), nil)
		var pe *bind.PanicError
		if len(is) != 1 || is[0].Param != 1 || is[0].Kind != bind.InvalidValue || !errors.As(is[0].Err, &pe) {
			t.Errorf("%s: issues %+v, want one Rejected issue for n carrying a *PanicError", b.Name(), is)
		}
	}
}

// A method that fails on a repeated key only after the first occurrence:
// no argument fails alone, and the guard still refuses what the binder
// refuses (segmentio decodes both; V2 refuses the repeat outright).
func TestTrial_AFailureNoArgumentHasAloneIsStillRefused(t *testing.T) {
	for _, b := range []bind.Binder{bindjsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[methodArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range []string{`{"once":1}`, `{"once":1,"once":2}`, `{"once":1,"m":1,"once":2}`} {
			checkAgainst(t, plan, []byte(args))
		}
	}
}

// A failure deep inside an argument is found by following the binder's
// path once, not by rereading the value at every level; its path shows
// the first 4 steps and the last 8.
func TestTrial_DeepFailureIsNamedAtItsDepth(t *testing.T) {
	for _, tc := range []struct {
		b     bind.Binder
		depth int
	}{{bindjsonv2.Binder, 9998}, {segmentio.Binder, bind.SegmentIOMaxDepth - 2}} {
		plan, err := tc.b.Compile(reflect.TypeFor[probe.Args]())
		if err != nil {
			t.Fatal(err)
		}
		args := nest(tc.depth, "[1,1e400]")
		is := checkAgainst(t, plan, args)
		if len(is) != 1 || string(args[is[0].Start:is[0].End]) != "1e400" || is[0].Path.String() != strings.Repeat("[0]", 4)+"[…]"+strings.Repeat("[0]", 7)+"[1]" {
			t.Errorf("%s: issue %v at %q, want 1e400 at the bottom", tc.b.Name(), is[0].Kind, is[0].Path.String()[max(0, len(is[0].Path.String())-12):])
		}
	}
}

func TestTrial_IssuesAreBoundedByMaxIssues(t *testing.T) {
	var sb strings.Builder
	sb.WriteString(`{"int":"x"`)
	for i := range bind.MaxIssues + 500 {
		fmt.Fprintf(&sb, `,"k%d":1`, i)
	}
	sb.WriteString("}")
	args := []byte(sb.String())
	for _, b := range []bind.Binder{bindjsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[probe.Args]())
		if err != nil {
			t.Fatal(err)
		}
		is := checkAgainst(t, plan, args)
		if len(is) != bind.MaxIssues+2 || is[0].Kind != bind.WrongType || is[len(is)-1].Kind != bind.Omitted || is[len(is)-1].Of != bind.UnknownArgument || is[len(is)-1].N != 500 {
			t.Errorf("%s: %d issues, the first %v, the last %+v; want %d listed and 500 unknown keys omitted", b.Name(), len(is), is[0].Kind, is[len(is)-1], bind.MaxIssues+1)
		}
	}
}

func TestV2_NestingPastTheLimitIsTooDeepInItsArgument(t *testing.T) {
	plan := v2Plan(t)
	args := nest(bind.MaxDepth, "")
	is := checkAgainst(t, plan, args)
	at := len(`{"any":`) + bind.MaxDepth - 1 // the bracket that opens level MaxDepth+1
	if len(is) != 1 || is[0].Kind != bind.TooDeep || plan.Params()[is[0].Param].Name != "any" || is[0].Start != len(`{"any":`) || is[0].End != at {
		t.Errorf("issues %+v, want one TooDeep issue in any, ending at %d", is, at)
	}
	checkAgainst(t, plan, nest(bind.MaxDepth-1, ""))
}

// FuzzCheckAgreesWithV2FieldRules is FuzzCheckAgreesWithV2 on structs
// with case:ignore fields, embedded structs and ambiguous folds.
func FuzzCheckAgreesWithV2FieldRules(f *testing.F) {
	var plans []*bind.Plan
	for _, typ := range []reflect.Type{reflect.TypeFor[V2Fields](), reflect.TypeFor[V2Ambiguous]()} {
		plan, err := bindjsonv2.Binder.Compile(typ)
		if err != nil {
			f.Fatal(err)
		}
		plans = append(plans, plan)
		for _, p := range plan.Params() {
			for _, k := range append(caseVariants(p.Name), "HOURSBACK", "Hours-Back", "FROMNAMED", "foo-bar") {
				for _, v := range []string{`null`, `1`, `"x"`, `true`, `{}`} {
					f.Add([]byte(fmt.Sprintf(`{%s:%s}`, jsonString(k), v)))
					f.Add([]byte(fmt.Sprintf(`{%s:%s,%s:%s}`, jsonString(k), v, jsonString(p.Name), v)))
				}
			}
		}
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		for _, plan := range plans {
			issues := checkAgainst(t, plan, args)
			if len(args) != 0 && jsonv2.Unmarshal(args, reflect.New(plan.Type()).Interface()) == nil {
				if got, want := unknownKeys(issues), droppedByV2(plan, args); got != want {
					t.Errorf("%q: %d UnknownKey issues; V2 drops %d", args, got, want)
				}
			}
		}
	})
}
