package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

// countedSchema is a property schema that counts how often it is read
// (marshalled): each read is a walk of the tool's schema.
type countedSchema struct{ reads *atomic.Int64 }

func (c countedSchema) MarshalJSON() ([]byte, error) {
	c.reads.Add(1)
	return []byte(`{"type":"integer","maximum":1}`), nil
}

// A tool's schema is read once per definition, not once per call: for a
// schema given as a map (or json.RawMessage) as for a *jsonschema.Schema.
// A new value is read once more, and recorded again only if it says
// something else.
func TestMiddleware_ServerTools_ReadsASchemaOncePerDefinition(t *testing.T) {
	var reads atomic.Int64
	m := newMapServer()
	schema := map[string]any{"type": "object", "properties": map[string]any{"n": countedSchema{&reads}}}
	m.add(&mcp.Tool{Name: "counted", InputSchema: schema})
	reg := typereg.New()
	m.srv.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools()))
	cs := connect(t, m.srv)
	call := func() {
		t.Helper()
		if res := callRaw(t, cs, "counted", `{"n":2}`); !res.IsError || !strings.Contains(text(t, res), "at most 1") {
			t.Fatalf("%+v, want the refusal", res)
		}
	}
	call()
	first := reads.Load() // go-sdk's AddTool reads it too
	for range 20 {
		call()
	}
	if n := reads.Load() - first; n != 0 {
		t.Errorf("20 more calls read the schema %d times, want 0", n)
	}
	// The same tool added again with the same schema: read once, and the
	// call judged as before.
	m.add(&mcp.Tool{Name: "counted", InputSchema: schema})
	before := reads.Load()
	call()
	call()
	if n := reads.Load() - before; n > 2 { // go-sdk's AddTool, and the middleware once
		t.Errorf("a tool added again: read %d times, want at most 2", n)
	}
	// A new schema value with another bound is judged by it.
	m.add(&mcp.Tool{Name: "counted", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","maximum":2}}}`)})
	if res := callRaw(t, cs, "counted", `{"n":2}`); res.IsError {
		t.Errorf("after the schema was replaced: %+v", res)
	}
}

// The route for a server whose list is long and whose calls must not walk
// it: record each schema tool where it is added (typereg.RegisterSchema
// beside Server.AddTool, reg.Remove beside RemoveTools) and use the
// middleware without ServerTools. N calls then send no tools/list down the
// chain, on a server with 1 tool as on one with 1,000.
func TestMiddleware_SchemaRecordedWhereAdded_ReadsNoList(t *testing.T) {
	lists := func(tools int) int64 {
		var lists atomic.Int64
		reg := typereg.New()
		s := newServer()
		add := func(tl *mcp.Tool) {
			raw, err := json.Marshal(tl.InputSchema)
			if err != nil {
				t.Fatal(err)
			}
			if err := reg.RegisterSchema(tl.Name, raw); err != nil {
				t.Fatal(err)
			}
			s.AddTool(tl, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran"}}}, nil
			})
		}
		for i := range tools {
			add(&mcp.Tool{Name: fmt.Sprintf("t%d", i), InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
				"n": {Type: "integer", Maximum: jsonschema.Ptr(1.0)},
			}}})
		}
		counter := func(next mcp.MethodHandler) mcp.MethodHandler {
			return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
				if method == "tools/list" {
					lists.Add(1)
				}
				return next(ctx, method, req)
			}
		}
		s.AddReceivingMiddleware(gosdk.Middleware(reg), counter) // the guard calls the counter
		cs := connect(t, s)
		for range 10 {
			if res := callRaw(t, cs, "t0", `{"n":2}`); !res.IsError || !strings.Contains(text(t, res), "at most 1") {
				t.Fatalf("%+v, want the refusal", res)
			}
			if res := callRaw(t, cs, "t0", `{"n":1}`); res.IsError {
				t.Fatalf("%+v, want the handler's result", res)
			}
		}
		return lists.Load()
	}
	if one, many := lists(1), lists(1000); one != 0 || many != 0 {
		t.Errorf("20 calls sent tools/list %d times on 1 tool, %d times on 1,000; want 0", one, many)
	}
}
