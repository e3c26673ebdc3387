package mcpgo_test

// These tests pin what mcp-go v1.2.1 decides about a tools/call before any
// tool handler middleware (and so before Middleware, or AddTool's handler)
// runs. Each is a claim of the package documentation.

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// spy is a tool handler middleware that counts the calls it sees.
type spy struct{ n atomic.Int32 }

func (s *spy) middleware(next server.ToolHandlerFunc) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		s.n.Add(1)
		return next(ctx, req)
	}
}

// spiedServer serves the probe tool through AddTool, with a spy as the
// outermost middleware.
func spiedServer(t testing.TB, reg *typereg.Registry, rec *seen, opts ...server.ServerOption) (*server.MCPServer, *spy) {
	t.Helper()
	sp := &spy{}
	return addToolServer(t, reg, rec, append([]server.ServerOption{server.WithToolHandlerMiddleware(sp.middleware)}, opts...)...), sp
}

// A frame that is not valid JSON, invalid arguments included, is a parse
// error (-32700) with a null id: no middleware runs, so the guard's
// invalid_json refusal never reaches an mcp-go caller.
func TestMCPGo_InvalidJSONFrame_ParseErrorBeforeMiddleware(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	for _, args := range []string{`{"int":01}`, `{"int":1,}`, `{"string":"\x"}`, `{"int":1`, "{\"string\":\"a\x01\"}"} {
		var rec seen
		s, sp := spiedServer(t, reg, &rec)
		got := send(t, s, callFrame(probe.Tool, args))
		if got.Error == nil || got.Error.Code != mcp.PARSE_ERROR {
			t.Errorf("%q: want a parse error (%d), got %+v", args, mcp.PARSE_ERROR, got)
		}
		if sp.n.Load() != 0 || rec.calls() != 0 {
			t.Errorf("%q: middleware ran %d times, handler %d", args, sp.n.Load(), rec.calls())
		}
	}
}

// mcp-go decodes the arguments into an any besides keeping their bytes
// (CallToolParams.UnmarshalJSON), so a number past float64's range
// anywhere in them fails the frame as an invalid request (-32600), before
// any middleware, even where the binder reads it: a json.Number, a
// json.RawMessage, a type with its own UnmarshalJSON, a key the binder
// drops inside a nested object. The same holds for _meta; in the id it is
// a parse error. A number that underflows (1e-400) is read as 0 and goes
// on, and one under a key mcp-go never decodes (an unknown member of
// params, or of the frame) is skipped.
func TestMCPGo_NumberPastFloat64InArguments_FailsTheFrame(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	failing := []struct {
		args        string
		binderReads bool
	}{
		{`{"number":1e400}`, true},
		{`{"raw":1e400}`, true},
		{`{"flex":1e400}`, true},
		{`{"nested":{"a":1,"dropped":1e400}}`, true},
		{`{"raw":{"deep":[[-1e400]]}}`, true},
		{`{"float64":1.8e308}`, false},
		{`{"any":[1e400]}`, false},
		{`{"string":1e400}`, false},
		{`{"not_a_parameter":1e400}`, true},
	}
	for _, c := range failing {
		var rec seen
		s, sp := spiedServer(t, reg, &rec)
		got := send(t, s, callFrame(probe.Tool, c.args))
		if got.Error == nil || got.Error.Code != mcp.INVALID_REQUEST || !strings.Contains(got.Error.Message, "float64") {
			t.Errorf("%s: want mcp-go's invalid request error naming float64, got %+v", c.args, got)
		}
		if sp.n.Load() != 0 || rec.calls() != 0 {
			t.Errorf("%s: middleware ran %d times, handler %d", c.args, sp.n.Load(), rec.calls())
		}
		var in probe.Args
		if err := reg.Binder().Unmarshal([]byte(c.args), &in); (err == nil) != c.binderReads {
			t.Errorf("%s: binder error %v, want reads = %v", c.args, err, c.binderReads)
		}
	}

	frames := []struct {
		name  string
		frame string
		code  int // 0: the call goes on
	}{
		{"_meta", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + probe.Tool + `","arguments":{},"_meta":{"k":1e400}}}`, mcp.INVALID_REQUEST},
		{"id", `{"jsonrpc":"2.0","id":1e400,"method":"tools/call","params":{"name":"` + probe.Tool + `","arguments":{}}}`, mcp.PARSE_ERROR},
		{"unknown params member", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + probe.Tool + `","arguments":{},"extra":1e400}}`, 0},
		{"unknown frame member", `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + probe.Tool + `","arguments":{}},"extra":1e400}`, 0},
		{"underflow", string(callFrame(probe.Tool, `{"float64":1e-400}`)), 0},
	}
	for _, c := range frames {
		var rec seen
		s, sp := spiedServer(t, reg, &rec)
		got := send(t, s, []byte(c.frame))
		switch {
		case c.code == 0 && (got.Result == nil || got.Result.IsError || sp.n.Load() != 1 || rec.calls() != 1):
			t.Errorf("%s: want the call to reach the handler, got %+v", c.name, got)
		case c.code != 0 && (got.Error == nil || got.Error.Code != c.code):
			t.Errorf("%s: want error %d, got %+v", c.name, c.code, got)
		case c.code != 0 && (sp.n.Load() != 0 || rec.calls() != 0):
			t.Errorf("%s: middleware ran %d times, handler %d", c.name, sp.n.Load(), rec.calls())
		}
	}
}

// encoding/json's nesting limit (10,000) applies to the whole frame, whose
// object and params object take two levels: arguments nested 9,998 deep
// arrive, 9,999 fail the frame (-32700) though the binder reads arguments
// up to 10,000 deep.
func TestMCPGo_ArgumentsNestedPast9998Levels_FailTheFrame(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	nested := func(depth int) string { // an object holding raw: depth levels in all
		return `{"raw":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
	}
	var rec seen
	s, sp := spiedServer(t, reg, &rec)
	ok := nested(9998)
	if got := send(t, s, callFrame(probe.Tool, ok)); got.Result == nil || got.Result.IsError || rec.calls() != 1 {
		t.Fatalf("depth 9998: want the handler to run, got error %+v", got.Error)
	}
	if want := ok[len(`{"raw":`) : len(ok)-1]; string(rec.in.Raw) != want {
		t.Errorf("depth 9998: raw arrived with %d bytes, want %d", len(rec.in.Raw), len(want))
	}

	rec.reset()
	sp.n.Store(0)
	deep := nested(9999)
	got := send(t, s, callFrame(probe.Tool, deep))
	if got.Error == nil || got.Error.Code != mcp.PARSE_ERROR || sp.n.Load() != 0 || rec.calls() != 0 {
		t.Errorf("depth 9999: want a parse error before middleware, got %+v (middleware %d, handler %d)", got, sp.n.Load(), rec.calls())
	}
	var in probe.Args
	for _, args := range []string{deep, nested(10000)} {
		if err := reg.Binder().Unmarshal([]byte(args), &in); err != nil {
			t.Errorf("the binder fails on arguments %d deep: %v", strings.Count(args, "[")+1, err)
		}
		if r := refuse.Refuse(reg, probe.Tool, json.RawMessage(args)); r != nil {
			t.Errorf("the guard refuses arguments %d deep: %v", strings.Count(args, "[")+1, r)
		}
	}
}

// RawArguments holds the arguments exactly as sent (whitespace, repeated
// keys, case variants, escapes, bytes that are not UTF-8, every digit),
// so the guard and the binder read the same bytes. mcp-go's own map
// (GetArguments) does not: numbers are float64, a repeated key keeps its
// last value, bad UTF-8 becomes U+FFFD.
func TestMCPGo_RawArgumentsAreTheBytesSent(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	var rec seen
	var mapped map[string]any
	s := server.NewMCPServer("probe", "1.0.0")
	s.AddTool(mcp.NewTool(probe.Tool, mcp.WithRawInputSchema(probeSchema(t, reg))), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		mapped = req.GetArguments()
		return decodingHandler(reg, &rec)(ctx, req)
	})
	args := " {\n \"int64\" : 9007199254740993, \"INT\":1,\"int\":2, \"string\":\"\\u00e9\xff\", \"float64\":1.0E+2 } "
	got := send(t, s, callFrame(probe.Tool, args))
	if got.Result == nil || rec.calls() != 1 {
		t.Fatalf("want the handler to run, got %+v", got)
	}
	if string(rec.raw) != strings.TrimSpace(args) {
		t.Errorf("RawArguments = %q, want %q", rec.raw, strings.TrimSpace(args))
	}
	if mapped["int64"] != float64(9007199254740992) || mapped["int"] != float64(2) || mapped["INT"] != float64(1) || mapped["string"] != "é\uFFFD" {
		t.Errorf("mcp-go's map = %#v, not what this test documents", mapped)
	}

	// A repeated key reaches the guard with every occurrence: a bad one
	// is refused though a later one is good, as the binder fails on it.
	var rec2 seen
	guarded := addToolServer(t, reg, &rec2)
	dup := `{"int":"x","int":1}`
	got = send(t, guarded, callFrame(probe.Tool, dup))
	if rec2.calls() != 0 {
		t.Error("the handler ran on a refused call")
	}
	checkRefusal(t, reg, got, dup, "int")
	if err := reg.Binder().Unmarshal([]byte(dup), new(probe.Args)); err == nil {
		t.Errorf("the binder reads %s; this test expects it to fail", dup)
	}
}

// The arguments member of params is found as encoding/json finds a field:
// by case folding ("ARGUMENTS"), and when repeated the last one is the
// arguments; an earlier one is never seen, by the guard or the binder.
func TestMCPGo_ArgumentsMember_MatchedAsEncodingJSONMatchesAField(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	for _, c := range []struct{ params, want string }{
		{`"ARGUMENTS":{"int":3}`, `{"int":3}`},
		{`"arguments":{"int":"x"},"arguments":{"int":4}`, `{"int":4}`},
	} {
		var rec seen
		s := addToolServer(t, reg, &rec)
		got := send(t, s, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"`+probe.Tool+`",`+c.params+`}}`))
		if got.Result == nil || got.Result.IsError || rec.calls() != 1 || string(rec.raw) != c.want {
			t.Errorf("%s: want the handler to run with %s, got %+v (raw %s)", c.params, c.want, got, rec.raw)
		}
	}
}

// A call of a tool the server does not have is a JSON-RPC invalid params
// error (-32602) before any middleware: the guard's unknown_tool refusal
// never reaches an mcp-go caller.
func TestMCPGo_UnknownTool_InvalidParamsBeforeMiddleware(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	var rec seen
	s, sp := spiedServer(t, reg, &rec)
	got := send(t, s, callFrame("probe_argument_typo", `{}`))
	if got.Error == nil || got.Error.Code != mcp.INVALID_PARAMS || !strings.Contains(got.Error.Message, "not found") {
		t.Errorf("want invalid params, tool not found; got %+v", got)
	}
	if sp.n.Load() != 0 || rec.calls() != 0 {
		t.Errorf("middleware ran %d times, handler %d", sp.n.Load(), rec.calls())
	}
}

// server.WithInputSchemaValidation (off by default) validates mcp-go's map
// of the arguments against the published schema before any middleware. It
// refuses calls the binder reads and the guard passes: null for an int
// (the binder leaves it zero), a key in another case (the binder folds
// it). Leave it off to have the binder's verdict, and only it.
func TestMCPGo_InputSchemaValidation_RefusesCallsTheBinderReads(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	for _, args := range []string{`{"int":null}`, `{"INT":1}`, `{"nested":{"A":1}}`} {
		if err := reg.Binder().Unmarshal([]byte(args), new(probe.Args)); err != nil {
			t.Fatalf("%s: the binder fails (%v); this test needs a call it reads", args, err)
		}
		if r := refuse.Refuse(reg, probe.Tool, json.RawMessage(args)); r != nil {
			t.Fatalf("%s: the guard refuses it: %v", args, r)
		}

		var rec seen
		s, sp := spiedServer(t, reg, &rec, server.WithInputSchemaValidation())
		got := send(t, s, callFrame(probe.Tool, args))
		if got.Result == nil || !got.Result.IsError || !strings.Contains(got.text(t), "input schema validation failed") {
			t.Errorf("%s: want mcp-go's validation error, got %+v", args, got)
		}
		if sp.n.Load() != 0 || rec.calls() != 0 {
			t.Errorf("%s: middleware ran %d times, handler %d", args, sp.n.Load(), rec.calls())
		}

		var rec2 seen
		plain, _ := spiedServer(t, reg, &rec2)
		if got := send(t, plain, callFrame(probe.Tool, args)); got.Result == nil || got.Result.IsError || rec2.calls() != 1 {
			t.Errorf("%s: without the option, want the handler to run, got %+v", args, got)
		}
	}
}
