package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bindguard/bindguard/bindtest"
)

// bindprobe runs bindprobe with args and returns its exit status and outputs.
func bindprobe(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// writeFile writes text to a file in a temporary directory and returns its
// name.
func writeFile(t *testing.T, text string) string {
	t.Helper()
	name := filepath.Join(t.TempDir(), "table.json")
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// report is bindprobe -json's document.
type report struct {
	Binder string `json:"binder"`
	Rows   []struct {
		Type        string          `json:"type"`
		Value       json.RawMessage `json:"value"`
		Argument    string          `json:"argument"`
		BinderOK    *bool           `json:"binder_ok"`
		BinderError *string         `json:"binder_error"`
		Refused     *bool           `json:"refused"`
		Message     *string         `json:"message"`
		Agree       *bool           `json:"agree"`
		Loss        string          `json:"loss"`
		Expected    *bool           `json:"expected"`
		Unexpected  bool            `json:"unexpected"`
		Faults      []string        `json:"faults"`
	} `json:"rows"`
	Summary struct {
		Rows       *int `json:"rows"`
		Agree      *int `json:"agree"`
		Disagree   *int `json:"disagree"`
		Unexpected *int `json:"unexpected"`
	} `json:"summary"`
}

func parseReport(t *testing.T, out string) report {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var r report
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("-json output does not parse: %v\n%.1000s", err, out)
	}
	if dec.More() {
		t.Fatalf("-json output holds more than one document")
	}
	if r.Summary.Rows == nil || r.Summary.Agree == nil || r.Summary.Disagree == nil || r.Summary.Unexpected == nil {
		t.Fatalf("summary lacks a count: %+v", r.Summary)
	}
	for i, row := range r.Rows {
		if row.Type == "" || row.Value == nil || row.Argument == "" || row.BinderOK == nil || row.BinderError == nil ||
			row.Refused == nil || row.Message == nil || row.Agree == nil {
			t.Fatalf("row %d lacks a field: %+v", i+1, row)
		}
	}
	return r
}

func TestRun_DefaultTable_AgreesEverywhere_Exit0(t *testing.T) {
	code, out, errOut := bindprobe(t)
	n := stdRows()
	summary := "the default table, binder std: " + strconv.Itoa(n) + " rows, " + strconv.Itoa(n) + " agree, 0 disagree, 0 unexpected\n"
	if code != 0 || errOut != "" || !strings.HasSuffix(out, summary) {
		t.Fatalf("exit %d, stderr %q, stdout ends %q; want exit 0 and %q", code, errOut, out[max(0, len(out)-300):], summary)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if lines[0] != "the default table: does the guard refuse just what encoding/json (binder std) fails on?" ||
		!strings.HasPrefix(lines[2], "TYPE ") || len(lines) != 3+n+2 {
		t.Errorf("want a line saying what is compared, a blank line, a header, %d rows, a blank line and the summary; got %d lines, first %q", n, len(lines), lines[0])
	}
	for _, want := range []string{
		"\nint32            3000000000                fails   refuses  ok   Argument 'int32' takes a whole num…\n",
		"\nfloat64          9007199254740993          reads   passes   ok\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks the line %q", want)
		}
	}
}

// TestRun_Table_Fits100Columns: every line of the readable table, with
// every binder, and with the faults of rows that do not hold, is at most
// 100 characters wide.
func TestRun_Table_Fits100Columns(t *testing.T) {
	wrong := writeFile(t, `[{"type": "float64", "value": 1.5, "refused": true, "says": "`+strings.Repeat("a long expectation ", 20)+`"},
		{"type": "map[string]int", "value": {"`+strings.Repeat("k", 300)+`": 1}}]`)
	for _, args := range [][]string{{"-binder", "std"}, {"-binder", "v2"}, {"-binder", "segmentio"}, {"-table", wrong}} {
		_, out, _ := bindprobe(t, args...)
		for i, line := range strings.Split(out, "\n") {
			if n := utf8.RuneCountInString(line); n > 100 {
				t.Errorf("%q: line %d is %d wide: %q", args, i+1, n, line)
			}
		}
	}
}

// TestRun_TypeNames_SameUnderJSONv2: json.RawMessage is named so in the
// table's rows, whether or not GOEXPERIMENT=jsonv2 makes it an alias of
// jsontext.Value (where every json.RawMessage row was refused as a type
// the probe tool has no parameter of). Run it under both.
func TestRun_TypeNames_SameUnderJSONv2(t *testing.T) {
	code, out, errOut := bindprobe(t, "-json")
	if code == 2 || strings.Contains(out+errOut, "jsontext") {
		t.Fatalf("exit %d, stderr %.300q", code, errOut)
	}
	r := parseReport(t, out)
	raw := 0
	for _, row := range r.Rows {
		if row.Type == "json.RawMessage" {
			raw++
		}
	}
	if raw == 0 {
		t.Error("no json.RawMessage rows")
	}
	name := writeFile(t, `[{"type": "json.RawMessage", "value": {"a": 1}}, {"type": "json.RawMessage", "value": 5}]`)
	code, out, errOut = bindprobe(t, "-table", name)
	if code == 2 || strings.Contains(out+errOut, "jsontext") || !strings.Contains(out, "\njson.RawMessage ") {
		t.Errorf("exit %d, stderr %q, out:\n%s", code, errOut, out)
	}
}

func TestRun_JSON_OneDocumentWithSummary(t *testing.T) {
	code, out, errOut := bindprobe(t, "-json")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	r := parseReport(t, out)
	n := stdRows()
	if r.Binder != "std" || *r.Summary.Rows != n || *r.Summary.Agree != n || *r.Summary.Disagree != 0 || *r.Summary.Unexpected != 0 || len(r.Rows) != n {
		t.Errorf("binder %q, summary %d rows %d agree %d disagree %d unexpected, %d rows; want std and %d rows all agreeing",
			r.Binder, *r.Summary.Rows, *r.Summary.Agree, *r.Summary.Disagree, *r.Summary.Unexpected, len(r.Rows), n)
	}
	found := false
	for _, row := range r.Rows {
		if row.Expected == nil {
			t.Errorf("row %s %s: no expected, though every default row gives refused", row.Type, row.Value)
		}
		if row.Type == "uint64" && string(row.Value) == "18446744073709551615" {
			found = true
			if row.Argument != "uint64" || !*row.BinderOK || *row.Refused || !*row.Agree || *row.Expected {
				t.Errorf("uint64 18446744073709551615: %+v", row)
			}
		}
		if !*row.BinderOK && (*row.BinderError == "" || *row.Message == "") {
			t.Errorf("row %s %s: the binder fails, but binder_error %q, message %q", row.Type, row.Value, *row.BinderError, *row.Message)
		}
	}
	if !found {
		t.Error("no row uint64 18446744073709551615 with its digits exact")
	}
}

func TestRun_TableFile(t *testing.T) {
	name := writeFile(t, `[
  {"type": "int32", "value": 3000000000, "refused": true, "says": "too large"},
  {"type": "uint64", "value": 100000000000000000000, "refused": true, "says": "which is too large"},
  {"type": "map[int]string", "value": {"+1": "x"}},
  {"type": "any", "value": [1, 1e400]},
  {"type": "[]byte", "value": "aGVs\nbG8=", "refused": false, "why": "newlines are skipped"}
]`)
	code, out, errOut := bindprobe(t, "-table", name)
	if code != 0 || errOut != "" || !strings.HasSuffix(out, "table.json, binder std: 5 rows, 5 agree, 0 disagree, 0 unexpected\n") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, errOut, out)
	}

	code, out, _ = bindprobe(t, "-table", name, "-json")
	r := parseReport(t, out)
	if code != 0 || len(r.Rows) != 5 {
		t.Fatalf("exit %d, %d rows", code, len(r.Rows))
	}
	if r.Rows[2].Expected != nil || r.Rows[3].Expected != nil {
		t.Errorf("rows without refused have expected %v, %v; want none", r.Rows[2].Expected, r.Rows[3].Expected)
	}
	if !*r.Rows[3].Refused || string(r.Rows[3].Value) != "[1,1e400]" {
		t.Errorf("any [1, 1e400]: refused %v, value %s", *r.Rows[3].Refused, r.Rows[3].Value)
	}
}

func TestRun_MalformedTable_Exit2NamingTheRow(t *testing.T) {
	name := writeFile(t, "[\n  {\"type\": \"int\", \"value\": 1},\n  {\"type\": \"int\", \"value\": 1,}\n]")
	code, out, errOut := bindprobe(t, "-table", name)
	if code != 2 || out != "" || !strings.Contains(errOut, "bindprobe: "+name+": row 2 (line 3): invalid character '}'") {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 naming row 2", code, out, errOut)
	}
}

func TestRun_UnknownType_Exit2NamingTheRow(t *testing.T) {
	name := writeFile(t, `[{"type": "int", "value": 1}, {"type": "int", "value": 2}, {"type": "complex64", "value": 1}]`)
	code, out, errOut := bindprobe(t, "-table", name, "-json")
	want := "bindprobe: " + name + `: row 3 (complex64 1): tool "probe_argument_types" has no parameter of type complex64`
	if code != 2 || out != "" || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want exit 2 and %q", code, out, errOut, want)
	}
}

func TestRun_WrongExpectation_Exit1(t *testing.T) {
	for _, tc := range []struct{ name, row, fault string }{
		{"refused that is read", `{"type": "float64", "value": 1.5, "refused": true}`, "the row says the binder fails on the value, but it reads it"},
		{"a loss the guard reports and the row does not name", `{"type": "float64", "value": 9007199254740993, "refused": false}`, "the guard reports rounded_number for a value the row says is read as sent"},
		{"read that is refused", `{"type": "int32", "value": 3000000000, "refused": false}`, "the row says the binder reads the value, but it fails"},
		{"words the refusal lacks", `{"type": "int32", "value": 3000000000, "refused": true, "says": "too small"}`, `the refusal does not say "too small"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := writeFile(t, `[{"type": "int", "value": 1, "refused": false}, `+tc.row+`]`)
			code, out, errOut := bindprobe(t, "-table", name)
			if code != 1 || errOut != "" {
				t.Fatalf("exit %d, stderr %q; want exit 1", code, errOut)
			}
			for _, want := range []string{"  UNEXPECTED", "\nrow 2 (", "  " + tc.fault, "2 rows, 2 agree, 0 disagree, 1 unexpected\n"} {
				if !strings.Contains(out, want) {
					t.Errorf("output lacks %q:\n%s", want, out)
				}
			}
			code, out, _ = bindprobe(t, "-table", name, "-json")
			r := parseReport(t, out)
			if code != 1 || *r.Summary.Unexpected != 1 || *r.Summary.Disagree != 0 || !r.Rows[1].Unexpected || r.Rows[0].Unexpected {
				t.Errorf("-json: exit %d, summary %+v", code, r.Summary)
			}
		})
	}
}

func TestRun_UsageErrors_Exit2(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-binder", "v3"}, `bindprobe: no binder "v3" (binders: segmentio, std, v2)`},
		{[]string{"-nope"}, "flag provided but not defined: -nope"},
		{[]string{"extra"}, `bindprobe: unexpected argument "extra"`},
		{[]string{"-table", filepath.Join(t.TempDir(), "missing.json")}, "missing.json: open "},
		{[]string{"-table", writeFile(t, `{"type": "int", "value": 1}`)}, "the table is not a JSON array of rows"},
	} {
		code, out, errOut := bindprobe(t, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
	if code, _, errOut := bindprobe(t, "-binder", "std", "-h"); code != 0 || !strings.Contains(errOut, "usage: bindprobe") {
		t.Errorf("-h: exit %d, stderr %q", code, errOut)
	}
}

func TestCell(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"abc", 10, "abc"},
		{"a\tb\nc", 10, `a\tb\nc`},
		{"a\xffb", 10, `a\xffb`},
		{"a\u202eb", 10, `a\u202eb`},
		{"abcdefghij", 10, "abcdefghij"},
		{"abcdefghijk", 10, "abcdefghi…"},
		{"ééééééééééé", 10, "ééééééééé…"},
	} {
		if got := cell(tc.in, tc.n); got != tc.want {
			t.Errorf("cell(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

// stdRows counts the default table's rows that speak for std: the shared
// ones (std has no rows of its own).
func stdRows() int {
	// The shared rows and std's own, each std row of this build (Row.Build)
	// in place of std's row of the same type and value.
	return len(bindtest.ForBinder(bindtest.Default(), "std"))
}
