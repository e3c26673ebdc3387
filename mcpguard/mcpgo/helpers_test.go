package mcpgo_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/typereg"
)

// binders are the binders the tests run under: each one package bind
// exports.
func binders() []bind.Binder {
	return []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder}
}

// A table is a value table and the binder it runs under.
type table struct {
	binder bind.Binder
	rows   []bindtest.Row
}

// tables pairs each binder with the default table's rows that speak for
// it (its own verdicts where they differ from encoding/json's).
func tables() []table {
	var tabs []table
	for _, b := range binders() {
		tabs = append(tabs, table{b, bindtest.ForBinder(bindtest.Default(), b.Name())})
	}
	return tabs
}

// callFrame is a tools/call JSON-RPC frame carrying args exactly as written
// (so its digits and escapes reach mcp-go unchanged).
func callFrame(tool, args string) []byte {
	name, _ := json.Marshal(tool)
	return []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":` + string(name) + `,"arguments":` + args + `}}`)
}

// reply is a JSON-RPC response as it goes over the wire.
type reply struct {
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		Tools             []struct {
			Name        string          `json:"name"`
			InputSchema json.RawMessage `json:"inputSchema"`
		} `json:"tools"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// send hands frame to s.HandleMessage and decodes the response from the
// bytes it would put on the wire.
func send(t testing.TB, s *server.MCPServer, frame []byte) reply {
	t.Helper()
	out, err := json.Marshal(s.HandleMessage(context.Background(), frame))
	if err != nil {
		t.Fatalf("the response does not marshal: %v", err)
	}
	var r reply
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("the response %s does not decode: %v", out, err)
	}
	if (r.Result == nil) == (r.Error == nil) {
		t.Fatalf("the response %s is neither a result nor an error", out)
	}
	return r
}

// text is the text of a tool result's only content item.
func (r reply) text(t testing.TB) string {
	t.Helper()
	if r.Result == nil || len(r.Result.Content) != 1 || r.Result.Content[0].Type != "text" {
		t.Fatalf("want a result with one text item, got %+v", r)
	}
	return r.Result.Content[0].Text
}

// frameDecodes reports whether mcp-go's own decoding of a tools/call frame
// succeeds. HandleMessage decodes the frame with encoding/json, and
// CallToolParams.UnmarshalJSON decodes the arguments into an any (numbers
// as float64) besides keeping their bytes; either failure fails the frame
// before any middleware or handler. Decoding the whole frame into an any
// fails exactly then for the frames these tests send (id 1, no _meta).
func frameDecodes(frame []byte) bool {
	var v any
	return json.Unmarshal(frame, &v) == nil
}

// seen records what a test handler was called with.
type seen struct {
	mu  sync.Mutex
	ran int
	in  probe.Args
	raw json.RawMessage
	err error // the binder's error, for a handler that decodes itself
}

func (s *seen) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ran, s.in, s.raw, s.err = 0, probe.Args{}, nil, nil
}

func (s *seen) calls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ran
}

// probeRegistry records the probe tool under binder b. The table tests
// pass WithMode(Warn): the table is about the binder's verdict, and what
// the policies add (an unknown field, a silent loss) travels as a warning.
func probeRegistry(t testing.TB, b bind.Binder, opts ...typereg.Option) *typereg.Registry {
	t.Helper()
	reg := typereg.New(append([]typereg.Option{typereg.WithBinder(b)}, opts...)...)
	if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
		t.Fatal(err)
	}
	return reg
}

// probeSchema is the probe tool's schema in reg, as JSON.
func probeSchema(t testing.TB, reg *typereg.Registry) json.RawMessage {
	t.Helper()
	tl, _ := reg.Tool(probe.Tool)
	b, err := json.Marshal(tl.Schema())
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodingHandler is a raw mcp-go handler that decodes the arguments'
// bytes with reg's binder, as a server without the guard does, and records
// what it got. A binder failure is a tool error result.
func decodingHandler(reg *typereg.Registry, rec *seen) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in probe.Args
		err := reg.Binder().Unmarshal(req.Params.RawArguments, &in)
		rec.mu.Lock()
		rec.ran++
		rec.in, rec.raw, rec.err = in, append(json.RawMessage(nil), req.Params.RawArguments...), err
		rec.mu.Unlock()
		if err != nil {
			return mcp.NewToolResultError("binder: " + err.Error()), nil
		}
		return mcp.NewToolResultText("read"), nil
	}
}

// unguardedServer serves the probe tool without the guard: its handler
// decodes with reg's binder.
func unguardedServer(t testing.TB, reg *typereg.Registry, rec *seen) *server.MCPServer {
	t.Helper()
	s := server.NewMCPServer("probe", "1.0.0")
	s.AddTool(mcp.NewTool(probe.Tool, mcp.WithRawInputSchema(probeSchema(t, reg))), decodingHandler(reg, rec))
	return s
}

// addToolServer serves the probe tool through mcpgo.AddTool.
func addToolServer(t testing.TB, reg *typereg.Registry, rec *seen, opts ...server.ServerOption) *server.MCPServer {
	t.Helper()
	s := server.NewMCPServer("probe", "1.0.0", opts...)
	err := mcpgo.AddTool(s, reg, mcp.NewTool(probe.Tool, mcp.WithDescription("One parameter of each type.")),
		func(ctx context.Context, req mcp.CallToolRequest, in probe.Args) (*mcp.CallToolResult, error) {
			rec.mu.Lock()
			rec.ran++
			rec.in, rec.raw = in, append(json.RawMessage(nil), req.Params.RawArguments...)
			rec.mu.Unlock()
			return mcp.NewToolResultText("ran"), nil
		})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// middlewareServer serves the probe tool with server.AddTool and a
// handler that decodes with reg's binder, behind mcpgo.Middleware.
func middlewareServer(t testing.TB, reg *typereg.Registry, rec *seen) *server.MCPServer {
	t.Helper()
	s := server.NewMCPServer("probe", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
	s.AddTool(mcp.NewTool(probe.Tool, mcp.WithRawInputSchema(probeSchema(t, reg))), decodingHandler(reg, rec))
	return s
}

// paramFor returns the first parameter of tl whose type row names, as
// bindtest maps rows to parameters (Row.Type: reflect's Type.String, the
// tool's own package qualifier left out; any and byte for interface {}
// and uint8).
func paramFor(t testing.TB, tl *typereg.Tool, row bindtest.Row) typereg.Param {
	t.Helper()
	p, err := bindtest.ParamFor(tl, row.Type)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func rowCall(p typereg.Param, row bindtest.Row) string {
	key, _ := json.Marshal(p.Name)
	return "{" + string(key) + ":" + row.Value + "}"
}

func rowName(row bindtest.Row) string {
	v := row.Value
	if r := []rune(v); len(r) > 32 {
		v = string(r[:31]) + "…"
	}
	return row.Type + "=" + v
}
