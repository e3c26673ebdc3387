package bindtest_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/bindguard/bindguard/bindtest"
)

func TestReadTable_KeepsValuesAsRawText(t *testing.T) {
	const table = `[
  {"type": "int32", "value": 3000000000, "refused": true, "says": "too large"},
  {"type": "float64", "value": 9007199254740993, "refused": false, "why": "rounded"},
  {"type": "uint64", "value": 100000000000000000000, "refused": true},
  {"type": "string", "value": "\ud800"},
  {"type": "any", "value": {"a": [1e400, null]}, "refused": true},
  {"type": "int", "value": null, "refused": null},
  {"type": "[]byte", "value": "aGVs\nbG8="}
]`
	got, err := bindtest.ReadTable(strings.NewReader(table))
	if err != nil {
		t.Fatal(err)
	}
	want := []bindtest.Row{
		{Type: "int32", Value: "3000000000", Refused: true, Says: "too large"},
		{Type: "float64", Value: "9007199254740993", Why: "rounded"},
		{Type: "uint64", Value: "100000000000000000000", Refused: true},
		{Type: "string", Value: `"\ud800"`, NoVerdict: true},
		{Type: "any", Value: `{"a": [1e400, null]}`, Refused: true},
		{Type: "int", Value: "null", NoVerdict: true},
		{Type: "[]byte", Value: `"aGVs\nbG8="`, NoVerdict: true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadTable mismatch (-want +got):\n%s", diff)
	}
}

func TestReadTable_Empty(t *testing.T) {
	rows, err := bindtest.ReadTable(strings.NewReader(" [ ] \n"))
	if err != nil || len(rows) != 0 {
		t.Errorf("got %v, %v; want no rows, no error", rows, err)
	}
}

func TestReadTable_MalformedTable_ErrorNamesTheRow(t *testing.T) {
	for _, tc := range []struct {
		name, table string
		want        []string
	}{
		{"syntax in a row", "[\n {\"type\": \"int\", \"value\": 1},\n {\"type\": \"int\", \"value\": 01}\n]", []string{"row 2 (line 3)", "invalid character"}},
		{"no value", `[{"type": "int", "value": 1}, {"type": "int"}]`, []string{"row 2 (line 1): no value"}},
		{"no type", `[{"value": 1}]`, []string{"row 1 (line 1): no type"}},
		{"empty type", `[{"type": "", "value": 1}]`, []string{"row 1 (line 1): no type"}},
		{"unknown key", `[{"type": "int", "value": 1, "refuse": true}]`, []string{"row 1", `unknown field "refuse"`}},
		{"refused not a bool", `[{"type": "int", "value": 1, "refused": "yes"}]`, []string{"row 1", "not a row"}},
		{"row not an object", "[\n\n 5]", []string{"row 1 (line 3)", "not a row"}},
		{"says for a row that is read", `[{"type": "int", "value": 1, "refused": false, "says": "too large"}]`, []string{"row 1", `says "too large", but refused is false`}},
		{"loss for a refused row", `[{"type": "int", "value": 1.5, "refused": true, "loss": "rounded_number"}]`, []string{"row 1", `loss "rounded_number" needs refused false`}},
		{"loss for a row without a verdict", `[{"type": "int", "value": null, "loss": "null_for_value"}]`, []string{"row 1", `loss "null_for_value" needs refused false`}},
		{"not an array", `{"type": "int", "value": 1}`, []string{"not a JSON array of rows"}},
		{"empty file", ``, []string{"not a JSON array of rows"}},
		{"unterminated", `[{"type": "int", "value": 1}`, []string{"does not end after row 1"}},
		{"unknown build", `[{"type": "int", "value": 1, "binder": "std", "build": "jsonv3"}]`, []string{"row 1", `build "jsonv3"`}},
		{"build without a binder", `[{"type": "int", "value": 1, "build": "jsonv2"}]`, []string{"row 1", `build "jsonv2" needs a binder`}},
		{"text after the table", "[]\n[]", []string{"text follows the table's closing ] (line 2)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := bindtest.ReadTable(strings.NewReader(tc.table))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}
