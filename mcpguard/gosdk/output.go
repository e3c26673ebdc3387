package gosdk

import (
	"encoding/json"
	"fmt"
	"github.com/bindguard/bindguard/mcpguard/internal/warnings"
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// output is the output side of a tool added with AddTool: what mcp.AddTool
// does with the handler's result, done the same way (go-sdk does it in
// unexported code, so it is repeated here from go-sdk v1.8.0's toolForErr,
// setSchema and applySchema).
type output[Out any] struct {
	resolved *jsonschema.Resolved // nil: no output schema
	elemZero any                  // for a pointer Out, the zero of its element, sent in place of nil
}

// newOutput sets t.OutputSchema as mcp.AddTool does, inferring it from Out
// when t has none and Out is not any, and resolves it.
func newOutput[Out any](t *mcp.Tool) (*output[Out], error) {
	o := &output[Out]{}
	rt := reflect.TypeFor[Out]()
	if t.OutputSchema == nil && rt == reflect.TypeFor[any]() {
		return o, nil
	}
	if rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
		o.elemZero = reflect.Zero(rt).Interface()
	}
	var s *jsonschema.Schema
	switch v := t.OutputSchema.(type) {
	case nil:
		inferred, err := jsonschema.ForType(rt, &jsonschema.ForOptions{})
		if err != nil {
			return nil, err
		}
		t.OutputSchema, s = inferred, inferred
	case *jsonschema.Schema:
		s = v
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, err
		}
	}
	if s == nil {
		return nil, fmt.Errorf("schema is nil for type %v", rt)
	}
	resolved, err := s.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	if err != nil {
		return nil, err
	}
	o.resolved = resolved
	return o, nil
}

// result turns what the handler returned into the tool's result, as
// mcp.AddTool does.
func (o *output[Out]) result(res *mcp.CallToolResult, out Out, err error) (*mcp.CallToolResult, error) {
	if err != nil {
		if wireErr, ok := err.(*jsonrpc.Error); ok { // exactly, as go-sdk tests it
			return nil, wireErr
		}
		var errRes mcp.CallToolResult
		errRes.SetError(err)
		return &errRes, nil
	}
	if res == nil {
		res = &mcp.CallToolResult{}
	}
	var outval any = out
	if asksForInput(res) {
		// Content and input requests are exclusive on the wire.
		outval = nil
	} else if o.elemZero != nil {
		var z Out
		if any(out) == any(z) { // a nil pointer: send the zero element, not null
			outval = o.elemZero
		}
	}
	if outval == nil {
		return res, nil
	}
	outJSON, err := json.Marshal(outval)
	if err != nil {
		return nil, fmt.Errorf("marshaling output: %w", err)
	}
	outJSON, err = o.validate(outJSON)
	if err != nil {
		return nil, fmt.Errorf("validating tool output: %w", err)
	}
	res.StructuredContent = json.RawMessage(outJSON)
	if res.Content == nil {
		res.Content = []mcp.Content{&mcp.TextContent{Text: string(outJSON)}}
	} else if !warnings.IsObject(outJSON) {
		res.Content = append(res.Content, &mcp.TextContent{Text: string(outJSON)})
	}
	return res, nil
}

// validate applies the output schema's defaults to data and validates it,
// as go-sdk's applySchema does for output.
func (o *output[Out]) validate(data []byte) ([]byte, error) {
	if o.resolved == nil {
		return data, nil
	}
	var v any
	if len(data) > 0 {
		if err := json.Unmarshal(data, &v); err != nil {
			return nil, fmt.Errorf("unmarshaling output: %w", err)
		}
	}
	applied := false
	if _, ok := v.(map[string]any); ok {
		applied = true
	} else if v == nil && o.resolved.Schema().Type == "object" {
		v, applied = map[string]any{}, true
	}
	if applied {
		if err := o.resolved.ApplyDefaults(&v); err != nil {
			return nil, fmt.Errorf("applying schema defaults:\n%w", err)
		}
	}
	if err := o.resolved.Validate(&v); err != nil {
		return nil, err
	}
	if !applied {
		return data, nil
	}
	return json.Marshal(v)
}
