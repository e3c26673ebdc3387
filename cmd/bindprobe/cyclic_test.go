package main

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bindtest"
)

// TestSchema_Cyclic_Bounded: a schema whose $ref leads back to itself,
// through allOf, anyOf, items or properties, is read, planned, filled and
// checked in bounded time: a hostile or careless server cannot hang or
// crash bindprobe with its tools/list.
func TestSchema_Cyclic_Bounded(t *testing.T) {
	for _, text := range []string{
		`{"type": "object", "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}, "properties": {"x": {"$ref": "#/$defs/A"}}, "required": ["x"]}`,
		`{"type": "object", "$defs": {"A": {"anyOf": [{"$ref": "#/$defs/B"}]}, "B": {"oneOf": [{"$ref": "#/$defs/A"}]}}, "properties": {"x": {"$ref": "#/$defs/A"}}, "required": ["x"]}`,
		`{"type": "object", "$defs": {"T": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/T"}, "minItems": 2}}, "required": ["kids"]}}, "properties": {"x": {"$ref": "#/$defs/T"}}, "required": ["x"]}`,
		`{"type": "object", "properties": {"x": {"$ref": "#"}}, "required": ["x"]}`,
	} {
		done := make(chan struct{})
		go func() {
			defer close(done)
			var v any
			if err := json.Unmarshal([]byte(text), &v); err != nil {
				t.Error(err)
				return
			}
			o := serverOptions{values: 5}
			rep, plan := planCalls(o, toolsOf(t, text), func(string) string { return "" }, bindtest.Default())
			if len(rep.Tools) != 1 {
				t.Errorf("%s: %d tools", text, len(rep.Tools))
			}
			for _, c := range plan {
				if !json.Valid([]byte(c.arguments)) {
					t.Errorf("%s: arguments %s", text, c.arguments)
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: still planning after 20s", text)
		}
	}
}

// toolsOf returns one read-only tool with input schema text, as a client
// reads it from tools/list.
func toolsOf(t *testing.T, text string) []*mcp.Tool {
	t.Helper()
	var tool mcp.Tool
	if err := json.Unmarshal([]byte(`{"name": "t", "annotations": {"readOnlyHint": true}, "inputSchema": `+text+`}`), &tool); err != nil {
		t.Fatal(err)
	}
	return []*mcp.Tool{&tool}
}

// TestCompileSchema_RefsThatDoNotLoop: a schema with $defs and $ref, as
// pydantic writes them, is still checked; one whose $ref loops in place is
// not (jsonschema-go would overflow its stack).
func TestCompileSchema_RefsThatDoNotLoop(t *testing.T) {
	for _, tc := range []struct {
		schema, args string
		want         string // "true", "false" or "nil"
	}{
		{`{"type": "object", "$defs": {"F": {"type": "object", "properties": {"a": {"type": "integer"}}}}, "properties": {"x": {"$ref": "#/$defs/F"}}}`, `{"x": {"a": 1}}`, "true"},
		{`{"type": "object", "$defs": {"F": {"type": "object", "properties": {"a": {"type": "integer"}}}}, "properties": {"x": {"$ref": "#/$defs/F"}}}`, `{"x": {"a": "1"}}`, "false"},
		{`{"type": "object", "properties": {"x": {"$ref": "#"}}}`, `{"x": {"x": {}}}`, "true"},
		{`{"type": "object", "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}, "properties": {"x": {"$ref": "#/$defs/A"}}}`, `{"x": 1}`, "nil"},
		{`{"type": "object", "properties": {"x": {"$ref": "other.json#/a"}}}`, `{"x": 1}`, "nil"},
	} {
		var v any
		if err := json.Unmarshal([]byte(tc.schema), &v); err != nil {
			t.Fatal(err)
		}
		got := "nil"
		if ok := compileSchema(v)(tc.args); ok != nil {
			got = map[bool]string{true: "true", false: "false"}[*ok]
		}
		if got != tc.want {
			t.Errorf("%s with %s: %s, want %s", tc.schema, tc.args, got, tc.want)
		}
	}
}
