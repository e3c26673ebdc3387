package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// vocabulary is every type the probe tool declares, as a row names it.
var vocabulary = strings.Fields(`int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 float32 float64 bool
	string *int *bool *string *float64 []int []string []*int [2]int map[string]int map[int]string []byte
	json.Number json.RawMessage any time.Time time.Duration *time.Time Nested *Nested Color Flex IntString []Color`)

// hostileValues are sent for every vocabulary type: the kinds each type
// does not take, and texts chosen to trip a mirror of encoding/json (digit
// runs past every range, leading zeros, signs, exponents, escapes, invalid
// UTF-8, repeated and case-folded keys, nesting as deep as -json's
// document can hold: encoding/json reads at most 10000 levels, and the
// document, its rows array and the row object take three).
func hostileValues() []string {
	digits := strings.Repeat("9", 10000)
	deep := func(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }
	vs := []string{
		// literals and kinds
		`null`, `true`, `false`, `{}`, `[]`, `""`, `[null]`, `{"a":null}`, `[[]]`, `[{}]`,
		// whole numbers at and past each range
		`0`, `-0`, `1`, `-1`, `127`, `128`, `-128`, `-129`, `255`, `256`, `32767`, `32768`, `-32768`, `-32769`,
		`65535`, `65536`, `2147483647`, `2147483648`, `-2147483648`, `-2147483649`, `4294967295`, `4294967296`,
		`9007199254740993`, `9223372036854775807`, `9223372036854775808`, `-9223372036854775808`, `-9223372036854775809`,
		`18446744073709551615`, `18446744073709551616`, `100000000000000000000`, `-100000000000000000000`,
		`123456789012345678901234567890`, `-123456789012345678901234567890`, digits, `-` + digits, `0.` + digits,
		// fractions and exponents
		`0.5`, `1.0`, `-0.0`, `1e2`, `1E2`, `1e+2`, `-1e2`, `1e-2`, `0e0`, `1e400`, `-1e400`, `1e-400`, `[1e400]`,
		`{"k":1e400}`, `3.4028235e38`, `3.5e38`, `-3.5e38`, `1.7976931348623157e308`, `1.8e308`, `4.9e-324`, `1e` + "00000000000000000002",
		// text holding numbers, signs and leading zeros
		`"5"`, `"-5"`, `"+5"`, `"0005"`, `"-0"`, `"05"`, `" 5"`, `"5 "`, `"1.5"`, `"1e2"`, `"0x10"`, `"1_000"`,
		`"3000000000"`, `"` + digits + `"`, `"NaN"`, `"-Inf"`, `"Infinity"`, `"true"`, `"null"`, `"nul"`,
		// escapes and encodings
		`"\u0035"`, `"\u0074eal"`, `"\ud800"`, `"\udc00"`, `"\ud800\udc00"`, `"\ud83d\ude00"`, `"\u0000"`, `"\u001b[31m"`,
		`"\"\\\/\b\f\n\r\t"`, `"é"`, `"\u00e9"`, "\"a\u202eb\"", "\"\xff\xfe\"", "\"\xed\xa0\x80\"", `"` + strings.Repeat(`\n`, 30) + `"`,
		`"` + strings.Repeat("é", 60) + `"`, `"` + strings.Repeat(`\u0041`, 20) + `"`,
		// enums, dates, base64
		`"crimson"`, `"teal"`, `"amber"`, `"Crimson"`, `"red"`, `["crimson","teal"]`, `["crimson","red"]`, `["Teal"]`,
		`"2024-01-02T03:04:05Z"`, `"2024-01-02"`, `"2024-02-30T03:04:05Z"`, `"2024-01-02T03:04:05.999999999+23:59"`, `"0000-01-01T00:00:00Z"`,
		`"aGVsbG8="`, `"aGVsbG8"`, `"aGVs\nbG8="`, `"aGVs\r\nbG8="`, `"aGVsbG8=\n"`, `"!!!!"`, `"YQ=="`, `"YQ="`, `"\/\/\/\/"`,
		// arrays
		`[1]`, `[1,2]`, `[1,2,3]`, `[1,2,"x"]`, `[1,2.5]`, `[1,null]`, `[3000000000]`, `[9223372036854775808]`, `["a"]`, `["a",5]`,
		`[true]`, `[[1]]`, `[{"a":1}]`, `[104,105]`, `[256]`, `[-1]`, `[` + strings.Repeat("1,", 500) + `1]`,
		` [ 1 , 2 ] `, "[\n1,\n2\n]", deep(9996), deep(9997),
		// objects: case folding, repeated and dropped keys, keys for integer maps
		`{"a":1}`, `{"A":1}`, `{"a":1.5}`, `{"a":"x"}`, `{"a":1,"b":2}`, `{"a":1,"a":2}`, `{"a":"x","a":1}`, `{"a":1,"a":"x"}`,
		`{"b":"x"}`, `{"\u0061":1}`, `{"a":{"a":1}}`, `{"1":"x"}`, `{"-1":"x"}`, `{"+1":"x"}`, `{"01":"x"}`, `{" 1":"x"}`,
		`{"1.5":"x"}`, `{"x":"y"}`, `{"":"x"}`, `{"300":"x"}`, `{"99999999999999999999":"x"}`, `{"1":5}`, `{"k":-1}`,
		`{"\ud800":1}`, `{"` + strings.Repeat("k", 100) + `":1}`, `{"a":[1e400]}`,
	}
	return vs
}

// TestRun_ThousandsOfRows_AgreeWithEncodingJSON is the "done when":
// bindprobe -table, on a table of every vocabulary type crossed with every
// hostile value, finds the guard agreeing with encoding/json on every row,
// each refusal naming the argument and quoting the value.
func TestRun_ThousandsOfRows_AgreeWithEncodingJSON(t *testing.T) {
	var b strings.Builder
	b.WriteString("[\n")
	n := 0
	for _, typ := range vocabulary {
		for _, v := range hostileValues() {
			if !json.Valid([]byte(v)) {
				t.Fatalf("test value %.40q is not JSON", v)
			}
			if n > 0 {
				b.WriteString(",\n")
			}
			fmt.Fprintf(&b, `{"type": %q, "value": %s}`, typ, v)
			n++
		}
	}
	b.WriteString("\n]\n")
	if n < 2000 {
		t.Fatalf("only %d rows", n)
	}
	name := writeFile(t, b.String())

	code, out, errOut := bindprobe(t, "-table", name, "-json")
	if errOut != "" {
		t.Fatalf("stderr: %s", errOut)
	}
	r := parseReport(t, out)
	if *r.Summary.Rows != n || len(r.Rows) != n {
		t.Fatalf("%d rows reported, %d sent", *r.Summary.Rows, n)
	}
	for i, row := range r.Rows {
		if !*row.Agree || row.Unexpected {
			t.Errorf("row %d: %s <- %.60s: binder ok %v (%.200s), guard refused %v: %s\n%.400s", i+1, row.Type, row.Value,
				*row.BinderOK, *row.BinderError, *row.Refused, strings.Join(row.Faults, "; "), *row.Message)
		}
	}
	if code != 0 {
		t.Errorf("exit %d, summary %d rows, %d agree, %d disagree, %d unexpected", code,
			*r.Summary.Rows, *r.Summary.Agree, *r.Summary.Disagree, *r.Summary.Unexpected)
	}
	t.Logf("%d rows: %d agree", n, *r.Summary.Agree)
}
