// Package warnings is what both MCP adapters do with a call's warnings: put
// them in a result's structuredContent, and say so in a tool's output
// schema.
package warnings

import (
	"encoding/json"

	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/refuse"
)

// Key is the member of a result's structuredContent that carries the
// call's warnings, and the optional property that says so in a tool's
// output schema.
const Key = "bindguard_warnings"

// property is the schema of Key in an output schema: the JSON of
// refuse.Warnings, left open so that a field added later does not make a
// client refuse the result.
var property = json.RawMessage(`{"type":"object",` +
	`"description":"Problems bindguard found in the call's arguments; the call went on with them.",` +
	`"properties":{"tool":{"type":"string"},"accepted":{"type":"array","items":{"type":"string"}},` +
	`"problems":{"type":"array","items":{"type":"object"}},"more":{"type":"integer"}}}`)

// Merge returns structured, a result's structuredContent, with w under
// Key, and false when structured is not a JSON object (nil makes a new
// one). A Key the handler set is replaced.
func Merge(structured any, w *refuse.Warnings) (json.RawMessage, bool) {
	wj, err := json.Marshal(w)
	if err != nil {
		return nil, false
	}
	obj := map[string]json.RawMessage{}
	if structured != nil {
		raw, ok := structured.(json.RawMessage)
		if !ok {
			if raw, err = json.Marshal(structured); err != nil {
				return nil, false
			}
		}
		if !IsObject(raw) || json.Unmarshal(raw, &obj) != nil {
			return nil, false
		}
	}
	obj[Key] = wj
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, false
	}
	return out, true
}

// WithProperty returns schema, an output schema, with Key as an optional
// property, when schema is an object schema (type "object") that does not
// name the key already, and true; otherwise schema itself and false. It
// never changes schema: the result is new JSON.
//
// A client that checks structuredContent against the output schema (the
// TypeScript SDK's Client.callTool does, and go-sdk infers
// additionalProperties false for a struct) then accepts a result that
// carries warnings. The property is not required, so a result without
// warnings is as valid as before.
func WithProperty(schema json.RawMessage) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if json.Unmarshal(schema, &m) != nil {
		return schema, false
	}
	var typ string
	if json.Unmarshal(m["type"], &typ) != nil || typ != "object" {
		return schema, false
	}
	props := map[string]json.RawMessage{}
	if p, ok := m["properties"]; ok && string(p) != "null" {
		if json.Unmarshal(p, &props) != nil {
			return schema, false
		}
	}
	if _, ok := props[Key]; ok {
		return schema, false
	}
	props[Key] = property
	pj, err := json.Marshal(props)
	if err != nil {
		return schema, false
	}
	m["properties"] = pj
	out, err := json.Marshal(m)
	if err != nil {
		return schema, false
	}
	return out, true
}

// IsObject reports whether data, white space aside, starts a JSON object.
func IsObject(data []byte) bool {
	return jsonlex.KindAt(data, jsonlex.Space(data, 0)) == jsonlex.KindObject
}
