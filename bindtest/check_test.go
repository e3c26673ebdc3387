package bindtest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/typereg"
)

func TestCheck_ReportsBothVerdictsPerRow(t *testing.T) {
	yes, no := true, false
	got, err := bindtest.Check(probeRegistry(t), probe.Tool, []bindtest.Row{
		{Type: "int32", Value: "3000000000", Refused: true, Says: "which is too large"},
		{Type: "[2]int", Value: "[1,2,3]", Loss: "array_length"},
		{Type: "Color", Value: `"Crimson"`, NoVerdict: true},
		{Type: "bool", Value: `"true"`, Refused: false},
		{Type: "float64", Value: "9007199254740993"},
		{Type: "int", Value: "1", Loss: "null_for_value"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []bindtest.Result{
		{Type: "int32", Value: json.RawMessage("3000000000"), Argument: "int32", Refused: true, Agree: true, Expected: &yes},
		{Type: "[2]int", Value: json.RawMessage("[1,2,3]"), Argument: "pair", BinderOK: true, Agree: true, Expected: &no, Loss: "array_length"},
		{Type: "Color", Value: json.RawMessage(`"Crimson"`), Argument: "color", Refused: true, Agree: true},
		{Type: "bool", Value: json.RawMessage(`"true"`), Argument: "bool", Refused: true, Agree: true, Expected: &no, Unexpected: true,
			Faults: []string{
				"the row says the binder reads the value, but it fails: json: cannot unmarshal string into Go struct field Args.bool of type bool",
				"the guard refused a value the row says the binder reads",
			}},
		{Type: "float64", Value: json.RawMessage("9007199254740993"), Argument: "float64", BinderOK: true, Agree: true, Expected: &no, Loss: "rounded_number", Unexpected: true,
			Faults: []string{"the guard reports rounded_number for a value the row says is read as sent"}},
		{Type: "int", Value: json.RawMessage("1"), Argument: "int", BinderOK: true, Agree: true, Expected: &no, Unexpected: true,
			Faults: []string{"the guard reports no null_for_value for the value"}},
	}
	// The texts are the binder's and the guard's; Run's tests pin them.
	ignoreTexts := cmpopts.IgnoreFields(bindtest.Result{}, "BinderError", "Message")
	if diff := cmp.Diff(want, got, ignoreTexts); diff != "" {
		t.Errorf("Check mismatch (-want +got):\n%s", diff)
	}
	if !strings.Contains(got[0].BinderError, "cannot unmarshal number 3000000000") || got[1].BinderError != "" {
		t.Errorf("binder errors: %q, %q", got[0].BinderError, got[1].BinderError)
	}
	if !strings.Contains(got[2].Message, `takes one of crimson, teal, amber, and the call sent "Crimson".`) || got[1].Message != "" {
		t.Errorf("messages: %q, %q", got[2].Message, got[1].Message)
	}
}

func TestCheck_BadRows_OneErrorNamingEach(t *testing.T) {
	_, err := bindtest.Check(probeRegistry(t), probe.Tool, []bindtest.Row{
		{Type: "int", Value: "1"},
		{Type: "uintptr", Value: "1"},
		{Type: "int", Value: "[1"},
	})
	if err == nil {
		t.Fatal("no error")
	}
	for _, w := range []string{"row 2 (uintptr 1): tool \"probe_argument_types\" has no parameter of type uintptr", "row 3 (int [1): the value is not one JSON value"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error lacks %q:\n%v", w, err)
		}
	}
	if _, err := bindtest.Check(probeRegistry(t), "nope", nil); err == nil || !strings.Contains(err.Error(), `tool "nope" is not registered`) {
		t.Errorf("unknown tool: %v", err)
	}
}

// The JSON form of a result is the row bindprobe -json prints: the value
// as raw JSON, expected left out when the row states no verdict.
func TestResult_JSON(t *testing.T) {
	got, err := bindtest.Check(probeRegistry(t), probe.Tool, []bindtest.Row{
		{Type: "uint64", Value: "18446744073709551615"},
		{Type: "int", Value: "1", NoVerdict: true},
	})
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	want := `[{"type":"uint64","value":18446744073709551615,"argument":"uint64","binder_ok":true,"binder_error":"","refused":false,"message":"","agree":true,"expected":false,"unexpected":false},` +
		`{"type":"int","value":1,"argument":"int","binder_ok":true,"binder_error":"","refused":false,"message":"","agree":true,"unexpected":false}]`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

type server struct {
	Name   string            `json:"name"`
	Port   *uint16           `json:"port"`
	Labels map[string]any    `json:"labels"`
	Hosts  []string          `json:"hosts"`
	Since  time0             `json:"since"`
	Extra  map[string][]byte `json:"extra"`
}

type time0 struct{ Unix int64 }

func TestCensus_NamesEachToolParameterAndTypeNoRowCovers(t *testing.T) {
	reg := probeRegistry(t)
	if err := typereg.Register[server](reg, "add_server"); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	bindtest.Census(rec, reg, append(bindtest.Default(), bindtest.Row{Type: "map[string][]byte", Value: "{}"}))
	want := []string{
		`bindtest: no row covers type *uint16, of parameter "port" of tool "add_server"`,
		`bindtest: no row covers type map[string]any, of parameter "labels" of tool "add_server"`,
		`bindtest: no row covers type time0, of parameter "since" of tool "add_server"`,
	}
	if diff := cmp.Diff(want, rec.errors); diff != "" {
		t.Errorf("Census reports (-want +got):\n%s", diff)
	}
}

func TestCensus_AnAnyRowCoversAnInterfaceParameter(t *testing.T) {
	rec := &recorder{}
	reg := typereg.New()
	if err := typereg.Register[struct {
		V any    `json:"v"`
		B []byte `json:"b"`
	}](reg, "t"); err != nil {
		t.Fatal(err)
	}
	bindtest.Census(rec, reg, []bindtest.Row{{Type: "interface{}"}, {Type: "[]byte"}})
	if len(rec.errors) > 0 {
		t.Errorf("Census reported %q", rec.errors)
	}
	bindtest.Census(rec, reg, []bindtest.Row{{Type: "[]byte"}})
	if len(rec.errors) != 1 || !strings.Contains(rec.errors[0], "type any, of parameter \"v\"") {
		t.Errorf("Census reported %q", rec.errors)
	}
}

func TestDefault_ReturnsACopy(t *testing.T) {
	rows := bindtest.Default()
	first := rows[0]
	rows[0].Refused = !rows[0].Refused
	if got := bindtest.Default()[0]; got != first {
		t.Errorf("Default()[0] = %+v after changing a copy, want %+v", got, first)
	}
}

// Every row of the default table states a verdict, and every refused row
// pins the refusal's words.
func TestDefault_EveryRowStatesAVerdict_EveryRefusalItsWords(t *testing.T) {
	rows := bindtest.Default()
	if len(rows) < 300 {
		t.Errorf("the default table has %d rows, want several hundred", len(rows))
	}
	for i, r := range rows {
		if r.NoVerdict {
			t.Errorf("row %d (%s %s) states no verdict", i+1, r.Type, r.Value)
		}
		if r.Refused && r.Says == "" {
			t.Errorf("row %d (%s %s) is refused but pins no words", i+1, r.Type, r.Value)
		}
	}
}

// The surprising behaviours of encoding/json stay pinned in the default
// table, with the verdict it really gives (Run checks the table against
// the binder; this keeps the rows from leaving it).
func TestDefault_PinsTheSurprises(t *testing.T) {
	type key struct{ typ, value string }
	have := map[key]bindtest.Row{}
	for _, r := range bindtest.Default() {
		if r.Binder == "" { // encoding/json's verdicts: the other binders' rows differ on purpose
			have[key{r.Type, r.Value}] = r
		}
	}
	for _, p := range []struct {
		typ, value string
		refused    bool
		says       string
	}{
		{"float64", "9007199254740993", false, ""},
		{"int", "null", false, ""},
		{"int", `"5"`, true, "takes a whole number"},
		{"int", "1.0", true, "takes a whole number"},
		{"int", "1e2", true, "takes a whole number"},
		{"uint", "-0", true, "which is too small"},
		{"uint64", "18446744073709551615", false, ""},
		{"int64", "100000000000000000000", true, "which is too large"},
		{"uint64", "100000000000000000000", true, "which is too large"},
		{"int64", "-123456789012345678901234567890", true, "which is too small"},
		{"int32", "3000000000", true, "which is too large"},
		{"bool", `"true"`, true, "takes true or false"},
		{"string", "5", true, "takes text"},
		{"IntString", `"0005"`, false, ""},
		{"IntString", `"+5"`, true, ""},
		{"Nested", `{"A":1}`, false, ""},
		{"Nested", `{"a":1,"b":2}`, false, ""},
		{"Nested", `{"a":1,"a":2}`, false, ""},
		{"Nested", `{"a":"x","a":1}`, true, ""},
		{"[2]int", "[1,2,3]", false, ""},
		{"Flex", "null", true, ""},
		{"*time.Time", "null", false, ""},
		{"Color", `"Crimson"`, true, "one of crimson, teal, amber"},
		{"[]byte", `"aGVs\nbG8="`, false, ""},
		{"[]byte", `"!!!!"`, true, "base64 text"},
		{"any", "1e400", true, ""},
		{"any", "[1e400]", true, ""},
		{"json.Number", `"12"`, false, ""},
		{"json.Number", `"abc"`, true, ""},
		{"string", `"\ud800"`, false, ""},
		{"time.Time", `"2024-01-02"`, true, "a date and time as RFC 3339 text"},
	} {
		r, ok := have[key{p.typ, p.value}]
		switch {
		case !ok:
			t.Errorf("no row %s %s", p.typ, p.value)
		case r.Refused != p.refused:
			t.Errorf("row %s %s: Refused = %v, want %v", p.typ, p.value, r.Refused, p.refused)
		case !strings.Contains(r.Says, p.says):
			t.Errorf("row %s %s: Says = %q, want it to hold %q", p.typ, p.value, r.Says, p.says)
		}
	}
}

// At encoding/json's nesting limit (10000 levels, the call's object
// counted) the guard agrees with the binder for every vocabulary type: a
// value 9999 levels deep is judged like any other, and one a level deeper
// fails the binder and is refused. Table files cannot hold such values (the
// file's own nesting counts too), so these rows are written here. -short:
// every third type (make test-long runs them all).
func TestCheck_NestingAtTheDepthLimit_GuardAgreesWithTheBinder(t *testing.T) {
	reg := probeRegistry(t)
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	seen := map[string]bool{}
	var rows []bindtest.Row
	for _, r := range bindtest.Default() {
		if !seen[r.Type] {
			seen[r.Type] = true
			if testing.Short() && len(seen)%3 != 1 {
				continue
			}
			rows = append(rows, bindtest.Row{Type: r.Type, Value: deep(9999), NoVerdict: true})
		}
	}
	// At the limit, every row holds, refusals included.
	bindtest.Run(t, reg, probe.Tool, rows)

	for i := range rows {
		rows[i].Value = deep(10000)
	}
	results, err := bindtest.Check(reg, probe.Tool, rows)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		// Past it, only the verdicts are pinned: the refusal is a problem
		// with the arguments as a whole, which names no argument.
		if r.BinderOK || !r.Refused || !r.Agree {
			t.Errorf("%s <- %d levels: binder ok %v, refused %v", r.Type, 10000, r.BinderOK, r.Refused)
		}
	}
}
