package mcpgo

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/mcpguard/internal/warnings"
	"github.com/bindguard/bindguard/refuse"
)

// addWarnings puts w on res, a result the handler returned, for a tool
// whose published output schema is schema (nil: none): as a text content
// item after the handler's own, and under warnings.Key in structuredContent
// when schema admits it there (see admitsWarnings). An error result, and
// one that asks the client for input, get nothing: an error's own words are
// what the caller needs, and a request for input is not the call's answer.
func addWarnings(res *mcp.CallToolResult, w *refuse.Warnings, schema json.RawMessage) {
	if w == nil || res == nil || res.IsError || asksForInput(res) {
		return
	}
	res.Content = append(res.Content, mcp.NewTextContent(w.String()))
	if res.StructuredContent == nil && schema != nil {
		// A result with no structuredContent is not checked against the
		// output schema (by mcp-go's WithOutputSchemaValidation); one made
		// here would be, and would lack the schema's required members.
		return
	}
	if !admitsWarnings(schema) {
		return
	}
	if merged, ok := warnings.Merge(res.StructuredContent, w); ok {
		res.StructuredContent = merged
	}
}

// admitsWarnings reports whether an output schema lets structuredContent
// have a warnings.Key member: there is no schema, or it is an object schema
// that lists the key as a property, or that constrains no other member
// (no additionalProperties false or other schema, no patternProperties,
// propertyNames or unevaluatedProperties). A schema that cannot be read
// admits nothing.
func admitsWarnings(schema json.RawMessage) bool {
	if schema == nil {
		return true
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(schema, &m) != nil {
		return false
	}
	var props map[string]json.RawMessage
	if p, ok := m["properties"]; ok && json.Unmarshal(p, &props) != nil {
		return false
	}
	if _, ok := props[warnings.Key]; ok {
		return true
	}
	if ap, ok := m["additionalProperties"]; ok && string(ap) != "true" && string(ap) != "{}" {
		return false
	}
	for _, k := range []string{"patternProperties", "propertyNames", "unevaluatedProperties"} {
		if _, ok := m[k]; ok {
			return false
		}
	}
	return true
}

// outputSchema is tool's output schema as JSON, as mcp-go publishes and
// validates it, or nil when it has none.
func outputSchema(tool mcp.Tool) json.RawMessage {
	if len(tool.RawOutputSchema) > 0 {
		return tool.RawOutputSchema
	}
	os := tool.OutputSchema
	if os.Type == "" && len(os.Properties) == 0 && len(os.Required) == 0 {
		return nil
	}
	b, err := json.Marshal(os)
	if err != nil {
		return nil
	}
	return b
}

// servedOutputSchema is the output schema of the tool a call in ctx
// reaches, looked up as mcp-go looks the tool up (the session's tools
// first, then the server's), and false when the tool cannot be found (a
// handler called without mcp-go's context).
func servedOutputSchema(ctx context.Context, name string) (json.RawMessage, bool) {
	if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithTools); ok {
		if st, ok := cs.GetSessionTools()[name]; ok {
			return outputSchema(st.Tool), true
		}
	}
	s := server.ServerFromContext(ctx)
	if s == nil {
		return nil, false
	}
	st := s.GetTool(name)
	if st == nil {
		return nil, false
	}
	return outputSchema(st.Tool), true
}

// asksForInput reports whether res asks the client for input
// (CallToolResult.NeedsInput, which mcp-go has from v1.0.0 on; before it no
// result asks for input). Asked through an interface so that one source
// builds against every mcp-go release the adapter supports (doc.go).
func asksForInput(res *mcp.CallToolResult) bool {
	n, ok := any(res).(interface{ NeedsInput() bool })
	return ok && n.NeedsInput()
}
