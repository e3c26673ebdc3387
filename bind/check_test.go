package bind_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/typereg"
)

// probeValues are values sent for every probe parameter: each row of the
// cross product must get the binder's verdict.
var probeValues = []string{
	`null`, `true`, `false`, `0`, `-0`, `1`, `-1`, `0.5`, `1.0`, `1e2`, `1E2`, `-1e2`, `1e-400`, `1e400`, `-1e400`,
	`127`, `128`, `-128`, `-129`, `255`, `256`, `32767`, `32768`, `-32769`, `65535`, `65536`,
	`2147483647`, `2147483648`, `-2147483648`, `-2147483649`, `3000000000`, `4294967295`, `4294967296`,
	`9007199254740993`, `9223372036854775807`, `9223372036854775808`, `-9223372036854775808`, `-9223372036854775809`,
	`18446744073709551615`, `18446744073709551616`, `99999999999999999999`, `100000000000000000000`,
	`-100000000000000000000`, `123456789012345678901234567890`, `3.4028235e38`, `3.5e38`, `1e39`, `-1e39`, `1.7976931348623157e308`, `1.8e308`,
	`""`, `"a"`, `"5"`, `"-5"`, `"0005"`, `"-0"`, `"+5"`, `"1.5"`, `"1e2"`, `"3000000000"`, `"99999999999999999999999"`,
	`"true"`, `"false"`, `"null"`, `"nul"`, `"abc"`, `"\u0035"`, `" 5"`, `"5 "`, `"-Inf"`, `"0x1p-2"`, `"NaN"`,
	`"crimson"`, `"teal"`, `"amber"`, `"Crimson"`, `"red"`, `"\u0074eal"`,
	`"aGVsbG8="`, `"aGVsbG8"`, `"aGVs\nbG8="`, `"aGVsbG8=="`, `"YQ=="`, `"YQ="`, `"!!!!"`, `"aGVsbG8=\r\n"`, `"\/\/\/\/"`,
	`"2024-01-02T03:04:05Z"`, `"2024-01-02"`, `"2024-13-02T03:04:05Z"`, `"2024-01-02T03:04:05+01:00"`,
	`"12"`, `"1.5e3"`, `"-"`, `"01"`, `"\u00e9"`, `"\ud800"`, `"é"`,
	`[]`, `[1]`, `[1,2]`, `[1,2,3]`, `[1,2.5]`, `[3000000000]`, `[null]`, `[1,null]`, `["a"]`, `["a",5]`, `[true]`,
	`["crimson","teal"]`, `["crimson","red"]`, `[[1]]`, `[{}]`, `[1e400]`, `[{"a":1}]`,
	`{}`, `{"a":1}`, `{"A":1}`, `{"a":1.5}`, `{"a":"x"}`, `{"b":2}`, `{"a":null}`, `{"1":"x"}`, `{"-1":"x"}`, `{"x":"y"}`,
	`{"a":1,"a":2}`, `{"a":"x","a":1}`, `{"300":"x"}`, `{"99999999999999999999":"x"}`, `{"1.5":"x"}`, `{"+1":"x"}`,
	`{"k":1e400}`, `{"k":[1e400]}`, `{"k":1}`, `{"k":-1}`, `{"k":"v"}`, `{"\u0061":1}`,
}

func TestCheckAgreesWithStd(t *testing.T) {
	plan, err := bind.Std.Compile(reflect.TypeFor[probe.Args]())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range plan.Params() {
		for _, v := range probeValues {
			args := fmt.Sprintf(`{%q:%s}`, p.Name, v)
			checkAgainstStd(t, plan, []byte(args))
		}
	}
}

func checkAgainstStd(t *testing.T, plan *bind.Plan, args []byte) {
	t.Helper()
	if len(args) == 0 {
		args = []byte("{}") // Check reads no arguments as {}, where Unmarshal fails
	}
	berr := json.Unmarshal(args, reflect.New(plan.Type()).Interface())
	var refused []bind.Issue
	for _, is := range plan.Check(args, nil) {
		if is.Kind.Class() == bind.BinderFailure {
			refused = append(refused, is)
		}
	}
	if (berr != nil) != (len(refused) > 0) {
		t.Errorf("%s: binder says %v, guard says %+v", args, berr, refused)
	}
}

func FuzzCheckAgreesWithStd(f *testing.F) {
	plan, err := bind.Std.Compile(reflect.TypeFor[probe.Args]())
	if err != nil {
		f.Fatal(err)
	}
	addCrossSeeds(f, plan.Params(), probeValues)
	for _, s := range []string{``, ` `, `null`, `[]`, `5`, `{"int":1,}`, `{"int":1} x`, `{"INT":1}`, `{"int":1,"int":"x"}`, strings.Repeat("[", 10001)} {
		f.Add([]byte(s))
	}
	addTableSeeds(f)
	f.Fuzz(func(t *testing.T, args []byte) {
		checkAgainstStd(t, plan, args)
	})
}

// Regressions FuzzCheckAgreesWithStd found, kept as named rows with their
// literal inputs: each made Check panic (a path walk past the end of
// arguments cut short) before the binder's verdict could be compared.
func TestCheck_FuzzFindings(t *testing.T) {
	plan, err := bind.Std.Compile(reflect.TypeFor[probe.Args]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		// A key map[int]string cannot read, in an object left open: the
		// issue asked for a path to the key before its value was read.
		`{"nAmes":{"":`,
		// The same with a value: the path walk took the key for a value.
		`{"nAmes":{"":{}`,
	} {
		t.Run(args, func(t *testing.T) { checkAgainstStd(t, plan, []byte(args)) })
	}
}

// addCrossSeeds seeds a fuzz target with every value sent as every
// parameter: as a test, the whole cross (each seed is a row); when fuzzing,
// every value and every parameter once, so that the fuzzer's baseline
// coverage (every seed replayed, instrumented, before it fuzzes) takes
// seconds rather than its whole run (37 parameters x 137 values gathered
// for 40 s and left no time to fuzz in CI's 20 s).
func addCrossSeeds(f *testing.F, params []bind.Param, values []string) {
	seed := func(p bind.Param, v string) { f.Add([]byte(fmt.Sprintf(`{%q:%s}`, p.Name, v))) }
	if fuzzing() {
		for i, v := range values {
			seed(params[i%len(params)], v)
		}
		for i, p := range params {
			seed(p, values[(i*7)%len(values)])
		}
		return
	}
	for _, p := range params {
		for _, v := range values {
			seed(p, v)
		}
	}
}

// fuzzing reports whether the test binary runs a fuzz target (-test.fuzz).
func fuzzing() bool {
	fl := flag.Lookup("test.fuzz")
	return fl != nil && fl.Value.String() != ""
}

// addTableSeeds seeds a fuzz target with every row of the default value
// table, sent as the probe parameter the row's type names.
func addTableSeeds(f *testing.F) {
	reg := typereg.New()
	if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
		f.Fatal(err)
	}
	tool, _ := reg.Tool(probe.Tool)
	for _, row := range bindtest.Default() {
		p, err := bindtest.ParamFor(tool, row.Type)
		if err != nil {
			f.Fatal(err)
		}
		f.Add([]byte(fmt.Sprintf(`{%q:%s}`, p.Name, row.Value)))
	}
}

// An issueCase is a call and the first issue the binder fails on that Check
// must find in it: its kind, the argument it is in, the offending bytes and
// the path to them.
type issueCase struct {
	args, why  string
	kind       bind.Code
	param      string
	sent, path string
}

// checkFirstIssues runs each case against plan, checking first that the
// plan agrees with its binder on the call.
func checkFirstIssues(t *testing.T, plan *bind.Plan, cases []issueCase) {
	t.Helper()
	idx := map[string]int{}
	for i, p := range plan.Params() {
		idx[p.Name] = i
	}
	for _, tc := range cases {
		args := []byte(tc.args)
		var got *bind.Issue
		for _, is := range checkAgainst(t, plan, args) {
			if is.Kind.Class() == bind.BinderFailure {
				got = &is
				break
			}
		}
		if got == nil {
			t.Errorf("%s (%s): no issue", tc.args, tc.why)
			continue
		}
		param := -1
		if tc.param != "" {
			param = idx[tc.param]
		}
		if got.Kind != tc.kind || got.Param != param || string(args[got.Start:got.End]) != tc.sent || got.Path.String() != tc.path {
			t.Errorf("%s (%s): got %v in %d, %q at %q; want %v in %d, %q at %q", tc.args, tc.why,
				got.Kind, got.Param, args[got.Start:got.End], got.Path.String(), tc.kind, param, tc.sent, tc.path)
		}
	}
}
