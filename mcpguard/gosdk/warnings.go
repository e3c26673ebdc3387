package gosdk

import (
	"encoding/json"
	"reflect"

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
	if w == nil || res == nil || res.IsError || asksForInput(res) {
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

// inputRequestsField is the index of CallToolResult.InputRequests, which
// go-sdk has from v1.7.0 on; nil before it, where no result asks for input.
// Read by reflection so that one source builds against every go-sdk
// release the adapter supports (doc.go).
var inputRequestsField = func() []int {
	f, ok := reflect.TypeFor[mcp.CallToolResult]().FieldByName("InputRequests")
	if !ok {
		return nil
	}
	return f.Index
}()

// asksForInput reports whether res asks the client for input (its
// InputRequests is set), which excludes content on the wire.
func asksForInput(res *mcp.CallToolResult) bool {
	return inputRequestsField != nil && !reflect.ValueOf(res).Elem().FieldByIndex(inputRequestsField).IsZero()
}
