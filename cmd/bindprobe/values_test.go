package main

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/bindguard/bindguard/bindtest"
)

func mustSchema(t *testing.T, text string) *schema {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		t.Fatal(err)
	}
	s, err := readSchema(v)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestValuesFor_FitTheKindBoundedWithoutRepeats: the values sent for a
// parameter are of the table, fit the kind its schema advertises (its edge
// cases and the wrong kinds the table sends it), are at most n and never
// repeat.
func TestValuesFor_FitTheKindBoundedWithoutRepeats(t *testing.T) {
	table := bindtest.Default()
	for _, tc := range []struct {
		name, schema string
		kind         string
		first        []string // the values sent first, in order
		has          []string // values sent somewhere
	}{
		{"integer", `{"type": "integer"}`, kindInteger, []string{"0", "-2147483649", "1", "2147483648"},
			[]string{"0.5", "1e2", "9223372036854775808", "3000000000", "-1", `"5"`, "true", "null", "[1]", "{}"}},
		{"nullable integer", `{"type": ["null", "integer"]}`, kindInteger, []string{"0", "-2147483649"}, []string{"0.5"}},
		{"number", `{"type": "number"}`, kindNumber, []string{"0"}, []string{"1.8e308", `"1.5"`, "true", "3.5e38"}},
		{"string", `{"type": "string"}`, kindString, []string{`""`}, []string{"5", "true", "null", `"\ud800"`, `["x"]`}},
		{"text enum", `{"type": "string", "enum": ["running", "blocked"]}`, kindString, []string{`"running"`, `"RUNNING"`, `"crimson"`},
			[]string{`"Crimson"`, "5", `["teal"]`}},
		{"enum without a type", `{"enum": ["a", "b"]}`, kindString, []string{`"a"`, `"A"`}, nil},
		{"date-time", `{"type": "string", "format": "date-time"}`, kindString, []string{`"2024-01-02T03:04:05Z"`}, []string{`"2024-01-02"`, "5"}},
		{"boolean", `{"type": "boolean"}`, kindBoolean, []string{"true"}, []string{`"true"`, "1", "0", "null"}},
		{"array of strings", `{"type": "array", "items": {"type": "string"}}`, kindArray, []string{`["a"]`}, []string{`["a",5]`, `"a"`, "[5]"}},
		{"array", `{"type": "array", "items": {"type": "integer"}}`, kindArray, []string{"[]"}, []string{"[1,2.5]", `"1,2,3"`, "{}"}},
		{"object through $ref", `{"$ref": "#/$defs/N", "$defs": {"N": {"type": "object"}}}`, kindObject, []string{`{"a":1}`}, []string{`{"a":1.5}`, "[]"}},
		{"anyOf", `{"anyOf": [{"type": "null"}, {"type": "boolean"}]}`, kindBoolean, []string{"true"}, nil},
		{"no type", `{}`, kindAny, []string{"1"}, []string{`"x"`, "1e400"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := mustSchema(t, tc.schema)
			if k := root.kind(root); k != tc.kind {
				t.Errorf("kind %s, want %s", k, tc.kind)
			}
			got := root.valuesFor(root, table, 25)
			if len(got) == 0 || len(got) > 25 {
				t.Fatalf("%d values", len(got))
			}
			seen := map[string]bool{}
			for _, v := range got {
				if seen[v] || !json.Valid([]byte(v)) {
					t.Errorf("value %s repeats or is not JSON", v)
				}
				seen[v] = true
			}
			if len(got) < len(tc.first) || !slices.Equal(got[:len(tc.first)], tc.first) {
				t.Errorf("first values %q, want %q", got[:min(len(got), len(tc.first))], tc.first)
			}
			for _, v := range tc.has {
				if !seen[v] {
					t.Errorf("no value %s among %q", v, got)
				}
			}
			if n := len(root.valuesFor(root, table, 3)); n != 3 {
				t.Errorf("%d values at most 3", n)
			}
		})
	}
}

// TestValid_IsWhatTheSchemaTakes: the values that fill the other required
// parameters.
func TestValid_IsWhatTheSchemaTakes(t *testing.T) {
	for _, tc := range []struct {
		schema, want string
	}{
		{`{"type": "string", "enum": ["running", "blocked"]}`, `"running"`},
		{`{"const": 7}`, `7`},
		{`{"type": "integer", "default": 24}`, `24`},
		{`{"type": "integer"}`, `1`},
		{`{"type": "integer", "minimum": 1, "maximum": 168}`, `1`},
		{`{"type": "integer", "minimum": 5}`, `5`},
		{`{"type": "integer", "maximum": -3}`, `-3`},
		{`{"type": "integer", "exclusiveMinimum": 1}`, `2`},
		{`{"type": "integer", "minimum": 1e300}`, `9223372036854775807`},
		{`{"type": ["null", "integer"]}`, `1`},
		{`{"type": "number"}`, `1.5`},
		{`{"type": "number", "minimum": 2, "maximum": 4}`, `3`},
		{`{"type": "number", "minimum": 10}`, `11`},
		{`{"type": "string"}`, `"x"`},
		{`{"type": "string", "minLength": 3}`, `"xxx"`},
		{`{"type": "string", "format": "date-time"}`, `"2024-01-02T03:04:05Z"`},
		{`{"type": "string", "format": "email"}`, `"someone@example.com"`},
		{`{"type": "boolean"}`, `true`},
		{`{"type": "array"}`, `[]`},
		{`{"type": "array", "minItems": 2, "items": {"type": "integer", "minimum": 3}}`, `[3,3]`},
		{`{"type": "object", "required": ["a", "b"], "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/B"}, "c": {"type": "integer"}},
		  "$defs": {"B": {"type": "object", "required": ["c"], "properties": {"c": {"type": "boolean"}}}}}`, `{"a":"x","b":{"c":true}}`},
		{`{"$ref": "#/$defs/L", "$defs": {"L": {"type": "object", "required": ["next"], "properties": {"next": {"$ref": "#/$defs/L"}}}}}`,
			`{"next":{"next":{"next":{"next":{}}}}}`},
		{`{"$ref": "#/$defs/missing"}`, `"x"`},
		{`{}`, `"x"`},
	} {
		root := mustSchema(t, tc.schema)
		if got := root.valid(root, 0); got != tc.want {
			t.Errorf("valid(%s) = %s, want %s", tc.schema, got, tc.want)
		}
	}
}

// TestArgumentsWith_FillsTheOtherRequired: a call sends the value probed
// under its name, first, and a valid value for every other required
// parameter.
func TestArgumentsWith_FillsTheOtherRequired(t *testing.T) {
	root := mustSchema(t, `{"type": "object",
	  "properties": {"hours_back": {"type": "integer", "minimum": 1}, "state": {"type": "string", "enum": ["running"]}, "limit": {"type": "integer"}},
	  "required": ["hours_back", "state"]}`)
	for _, tc := range []struct{ name, value, want string }{
		{"limit", "0.5", `{"limit":0.5,"hours_back":1,"state":"running"}`},
		{"hours_back", `"5"`, `{"hours_back":"5","state":"running"}`},
		{"state", "null", `{"state":null,"hours_back":1}`},
	} {
		if got := argumentsWith(root, "t", nil, target{top: tc.name}, tc.value); got != tc.want {
			t.Errorf("argumentsWith(%s, %s) = %s, want %s", tc.name, tc.value, got, tc.want)
		}
	}
}

// TestArgumentsWith_FillsAndFields: -fill's values are sent for the
// parameters not probed, required or not (a tool's own before a name's);
// an example fills a required parameter; a field is probed inside an
// object (or the one object of an array) whose other required fields are
// filled.
func TestArgumentsWith_FillsAndFields(t *testing.T) {
	root := mustSchema(t, `{"type": "object",
	  "properties": {
	    "zone": {"type": "string", "examples": ["Europe/Paris"]},
	    "path": {"type": "string"},
	    "max_lines": {"type": "integer"},
	    "filter": {"type": "object", "properties": {"min": {"type": "integer"}, "label": {"type": "string"}}, "required": ["label"]},
	    "rows": {"type": "array", "items": {"type": "object", "properties": {"id": {"type": "integer"}, "tag": {"type": "string"}}, "required": ["id", "tag"]}}},
	  "required": ["zone", "path"]}`)
	fill := fills{"path": `"/srv/a.txt"`, "read.path": `"/srv/b.txt"`, "max_lines": "3"}
	for _, tc := range []struct {
		tool  string
		tg    target
		value string
		want  string
	}{
		{"t", target{top: "max_lines"}, "0.5", `{"max_lines":0.5,"zone":"Europe/Paris","path":"/srv/a.txt"}`},
		{"read", target{top: "zone"}, "5", `{"zone":5,"path":"/srv/b.txt","max_lines":3}`},
		{"t", target{top: "filter", steps: []step{{"min", false}}}, "0.5", `{"filter":{"min":0.5,"label":"x"},"zone":"Europe/Paris","path":"/srv/a.txt","max_lines":3}`},
		{"t", target{top: "rows", steps: []step{{"tag", true}}}, "5", `{"rows":[{"tag":5,"id":1}],"zone":"Europe/Paris","path":"/srv/a.txt","max_lines":3}`},
	} {
		if got := argumentsWith(root, tc.tool, fill, tc.tg, tc.value); got != tc.want {
			t.Errorf("argumentsWith(%s, %+v, %s) = %s, want %s", tc.tool, tc.tg, tc.value, got, tc.want)
		}
	}
	var got []string
	for _, name := range sortedKeys(root.Properties) {
		for _, tg := range root.targets(name, root.Properties[name], root, nil, name, false) {
			got = append(got, tg.display)
		}
	}
	if want := []string{"filter", "filter.label", "filter.min", "max_lines", "path", "rows", "rows[].id", "rows[].tag", "zone"}; !slices.Equal(got, want) {
		t.Errorf("targets %q, want %q", got, want)
	}
}
