package gosdk

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/refuse"
)

// warningsKey is the member of a result's structuredContent that carries
// the call's warnings, and the optional property that says so in a tool's
// output schema.
const warningsKey = "bindguard_warnings"

// warningsProperty is the schema of warningsKey in an output schema: the
// JSON of refuse.Warnings, left open so that a field added later does not
// make a client refuse the result.
var warningsProperty = json.RawMessage(`{"type":"object",` +
	`"description":"Problems bindguard found in the call's arguments; the call went on with them.",` +
	`"properties":{"tool":{"type":"string"},"accepted":{"type":"array","items":{"type":"string"}},` +
	`"problems":{"type":"array","items":{"type":"object"}},"more":{"type":"integer"}}}`)

// addWarnings puts w on res, a result the handler returned: as a text
// content block after the handler's own, and under warningsKey in its
// structuredContent (an object made for it when there is none). An error
// result, and one that asks the client for input, get nothing: an error's
// own words are what the caller needs, and input requests exclude content
// on the wire. A structuredContent that is not a JSON object (go-sdk lets a
// tool's output be an array) keeps its shape: the warnings are text only.
func addWarnings(res *mcp.CallToolResult, w *refuse.Warnings) {
	if w == nil || res == nil || res.IsError || res.InputRequests != nil {
		return
	}
	res.Content = append(res.Content, &mcp.TextContent{Text: w.String()})
	if merged, ok := withWarnings(res.StructuredContent, w); ok {
		res.StructuredContent = merged
	}
}

// withWarnings returns structured, a result's structuredContent, with w
// under warningsKey, and false when structured is not a JSON object. A
// warningsKey the handler set is replaced.
func withWarnings(structured any, w *refuse.Warnings) (json.RawMessage, bool) {
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
		if !isObjectJSON(raw) || json.Unmarshal(raw, &obj) != nil {
			return nil, false
		}
	}
	obj[warningsKey] = wj
	out, err := json.Marshal(obj)
	if err != nil {
		return nil, false
	}
	return out, true
}

// withWarningsProperty returns schema, an output schema, with warningsKey
// as an optional property, when schema is an object schema (type
// "object") that does not name the key already, and true; otherwise schema
// itself and false. It never changes schema: the result is new JSON.
//
// A client that checks structuredContent against the output schema (the
// TypeScript SDK's Client.callTool does, and go-sdk infers
// additionalProperties false for a struct) then accepts a result that
// carries warnings. The property is not required, so a result without
// warnings is as valid as before.
func withWarningsProperty(schema any) (any, bool) {
	raw, ok := schema.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(schema); err != nil {
			return schema, false
		}
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(raw, &m) != nil {
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
	if _, ok := props[warningsKey]; ok {
		return schema, false
	}
	props[warningsKey] = warningsProperty
	pj, err := json.Marshal(props)
	if err != nil {
		return schema, false
	}
	m["properties"] = pj
	out, err := json.Marshal(m)
	if err != nil {
		return schema, false
	}
	return json.RawMessage(out), true
}
