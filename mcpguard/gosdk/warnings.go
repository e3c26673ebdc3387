package gosdk

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/internal/warnings"
	"github.com/bindguard/bindguard/refuse"
)

// addWarnings puts w on res, a result the handler returned: as a text
// content block after the handler's own, and under warnings.Key in its
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
	if merged, ok := warnings.Merge(res.StructuredContent, w); ok {
		res.StructuredContent = merged
	}
}

// withWarningsProperty is warnings.WithProperty for go-sdk's output
// schemas, which are any JSON-marshalable value.
func withWarningsProperty(schema any) (any, bool) {
	raw, ok := schema.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(schema); err != nil {
			return schema, false
		}
	}
	out, ok := warnings.WithProperty(raw)
	if !ok {
		return schema, false
	}
	return out, true
}
