package mcpgo_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// 2^53 + 1 reaches the handler's int64 exactly: the adapter decodes the
// frame's bytes, not mcp-go's map, where the same number is a float64 and
// rounds to 2^53.
func TestAddTool_Int64Past2To53_ArrivesExact(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	var rec seen
	var mapped any
	s := server.NewMCPServer("probe", "1.0.0")
	err := mcpgo.AddTool(s, reg, mcp.NewTool(probe.Tool), func(ctx context.Context, req mcp.CallToolRequest, in probe.Args) (*mcp.CallToolResult, error) {
		rec.mu.Lock()
		rec.ran++
		rec.in = in
		rec.mu.Unlock()
		mapped = req.GetArguments()["int64"]
		return mcp.NewToolResultText("ran"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	got := send(t, s, callFrame(probe.Tool, `{"int64":9007199254740993}`))
	if got.Result == nil || got.Result.IsError || rec.calls() != 1 {
		t.Fatalf("the call did not reach the handler: %+v", got)
	}
	if rec.in.Int64 != 9007199254740993 {
		t.Errorf("Int64 = %d, want 9007199254740993", rec.in.Int64)
	}
	if mapped != float64(9007199254740992) {
		t.Errorf("mcp-go's map holds %v (%T); this test expects the float64 9007199254740992 it documents", mapped, mapped)
	}
}

// A refusal is a tool error result: isError, one text item holding the
// refusal's text, and the refusal as structuredContent, under refuse's
// JSON names. The handler does not run.
func TestAddTool_RefusedCall_IsToolErrorWithTextAndStructuredContent(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	var rec seen
	s := addToolServer(t, reg, &rec)
	args := `{"int":0.5,"uint8":256,"hours":1}`
	got := send(t, s, callFrame(probe.Tool, args))
	if rec.calls() != 0 {
		t.Fatal("the handler ran on a refused call")
	}
	if got.Error != nil || !got.Result.IsError {
		t.Fatalf("want a tool error result, got %+v", got)
	}
	r := refuse.Refuse(reg, probe.Tool, json.RawMessage(args))
	if text := got.text(t); text != r.Error() {
		t.Errorf("text = %q, want %q", text, r.Error())
	}
	want, _ := json.Marshal(r)
	if diff := cmp.Diff(jsonValue(t, want), jsonValue(t, got.Result.StructuredContent)); diff != "" {
		t.Errorf("structuredContent (-want +got):\n%s", diff)
	}
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(got.Result.StructuredContent, &keys)
	for _, k := range []string{"tool", "accepted", "problems"} {
		if _, ok := keys[k]; !ok {
			t.Errorf("structuredContent has no %q: %s", k, got.Result.StructuredContent)
		}
	}
	if got := mcpgo.RefusalResult(r); !got.IsError || got.StructuredContent != r || len(got.Content) != 1 {
		t.Errorf("RefusalResult(r) = %+v", got)
	}
}

// Arguments that are not an object reach the guard as sent and are
// refused as a whole.
func TestAddTool_ArgumentsNotAnObject_Refused(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	for _, args := range []string{`[1]`, `"int"`, `7`, `true`} {
		var rec seen
		s := addToolServer(t, reg, &rec)
		got := send(t, s, callFrame(probe.Tool, args))
		if rec.calls() != 0 {
			t.Errorf("%s: the handler ran on a refused call", args)
		}
		var r refuse.Refusal
		if got.Result == nil || !got.Result.IsError || json.Unmarshal(got.Result.StructuredContent, &r) != nil ||
			len(r.Problems) != 1 || r.Problems[0].Code != refuse.NotAnObject {
			t.Errorf("%s: want a not_an_object refusal, got %+v", args, got)
		}
	}
}

// A call without arguments, or with null, is a call with none: it reaches
// the handler with the zero value, as the binder reads null.
func TestAddTool_AbsentOrNullArguments_ReachTheHandlerAsZero(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	for name, frame := range map[string][]byte{
		"absent": []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + probe.Tool + `"}}`),
		"null":   callFrame(probe.Tool, `null`),
		"empty":  callFrame(probe.Tool, `{}`),
	} {
		var rec seen
		s := addToolServer(t, reg, &rec)
		got := send(t, s, frame)
		if got.Result == nil || got.Result.IsError || rec.calls() != 1 {
			t.Errorf("%s: want the handler to run, got %+v", name, got)
			continue
		}
		if diff := cmp.Diff(probe.Args{}, rec.in); diff != "" {
			t.Errorf("%s: the handler got (-want +got):\n%s", name, diff)
		}
	}
}

// tools/list publishes the registry's schema as the tool's input schema,
// byte for byte, and what it publishes is what Refuse enforces: its
// properties are exactly the parameters the guard accepts, its root is
// closed, and a key outside it is refused by name.
func TestToolsList_PublishesTheSchemaRefuseEnforces(t *testing.T) {
	for _, b := range binders() {
		t.Run(b.Name(), func(t *testing.T) {
			reg := probeRegistry(t, b)
			var rec seen
			s := addToolServer(t, reg, &rec)
			got := send(t, s, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`))
			if got.Result == nil || len(got.Result.Tools) != 1 || got.Result.Tools[0].Name != probe.Tool {
				t.Fatalf("tools/list = %+v", got)
			}
			published := got.Result.Tools[0].InputSchema
			tl, _ := reg.Tool(probe.Tool)
			want, _ := json.Marshal(tl.Schema())
			if diff := cmp.Diff(jsonValue(t, want), jsonValue(t, published)); diff != "" {
				t.Fatalf("the published input schema is not the registry's (-registry +published):\n%s", diff)
			}

			var schema struct {
				Type                 string                     `json:"type"`
				Properties           map[string]json.RawMessage `json:"properties"`
				Required             []string                   `json:"required"`
				AdditionalProperties *bool                      `json:"additionalProperties"`
			}
			if err := json.Unmarshal(published, &schema); err != nil {
				t.Fatal(err)
			}
			if schema.Type != "object" || schema.AdditionalProperties == nil || *schema.AdditionalProperties {
				t.Errorf("want a closed object schema, got type %q additionalProperties %v", schema.Type, schema.AdditionalProperties)
			}
			props := slices.Sorted(func(yield func(string) bool) {
				for k := range schema.Properties {
					if !yield(k) {
						return
					}
				}
			})
			if diff := cmp.Diff(slices.Sorted(slices.Values(tl.Accepted())), props); diff != "" {
				t.Errorf("published properties differ from the parameters Refuse accepts (-accepted +published):\n%s", diff)
			}
			var required []string
			for _, p := range tl.Params() {
				if p.Required {
					required = append(required, p.Name)
				}
			}
			if diff := cmp.Diff(required, schema.Required, cmp.Comparer(func(a, b []string) bool { return len(a) == 0 && len(b) == 0 || slices.Equal(a, b) })); diff != "" {
				t.Errorf("required (-params +published):\n%s", diff)
			}

			// A key the schema does not publish is refused, naming it.
			rec.reset()
			called := send(t, s, callFrame(probe.Tool, `{"not_published":1}`))
			var r refuse.Refusal
			if called.Result == nil || !called.Result.IsError || json.Unmarshal(called.Result.StructuredContent, &r) != nil ||
				len(r.Problems) != 1 || r.Problems[0].Code != refuse.UnknownArgument || r.Problems[0].Argument != "not_published" {
				t.Errorf("want not_published refused as an unknown argument, got %+v", called)
			}
			if rec.calls() != 0 {
				t.Error("the handler ran on a refused call")
			}
		})
	}
}

// AddTool fails, and leaves the registry and the server as they were, for
// a tool that brings its own input schema, a parameter type the binder
// cannot decode into, and a name the server has for a task tool.
func TestAddTool_RegistrationProblems_ReturnErrorsAndChangeNothing(t *testing.T) {
	type withChan struct {
		C chan int `json:"c"`
	}
	ok := func(context.Context, mcp.CallToolRequest, probe.Args) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ran"), nil
	}
	cases := []struct {
		name string
		add  func(s *server.MCPServer, reg *typereg.Registry) error
		says string
	}{
		{"own properties", func(s *server.MCPServer, reg *typereg.Registry) error {
			return mcpgo.AddTool(s, reg, mcp.NewTool("t", mcp.WithString("x")), ok)
		}, "already has an input schema"},
		{"own raw schema", func(s *server.MCPServer, reg *typereg.Registry) error {
			return mcpgo.AddTool(s, reg, mcp.NewTool("t", mcp.WithRawInputSchema(json.RawMessage(`{"type":"object"}`))), ok)
		}, "already has an input schema"},
		{"chan field", func(s *server.MCPServer, reg *typereg.Registry) error {
			return mcpgo.AddTool(s, reg, mcp.NewTool("t"), func(context.Context, mcp.CallToolRequest, withChan) (*mcp.CallToolResult, error) {
				return nil, nil
			})
		}, "C"},
		{"task tool's name", func(s *server.MCPServer, reg *typereg.Registry) error {
			s.AddTaskTool(mcp.NewTool("t", mcp.WithTaskSupport(mcp.TaskSupportRequired)), func(context.Context, mcp.CallToolRequest) (*mcp.CreateTaskResult, error) {
				return nil, nil
			})
			return mcpgo.AddTool(s, reg, mcp.NewTool("t"), ok)
		}, "already registered as task tool"},
		{"no name", func(s *server.MCPServer, reg *typereg.Registry) error {
			return mcpgo.AddTool(s, reg, mcp.NewTool(""), ok)
		}, "needs a name"},
		{"nil handler", func(s *server.MCPServer, reg *typereg.Registry) error {
			return mcpgo.AddTool[probe.Args](s, reg, mcp.NewTool("t"), nil)
		}, "handler"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := server.NewMCPServer("t", "1.0.0")
			reg := typereg.New()
			err := c.add(s, reg)
			if err == nil || !strings.Contains(err.Error(), c.says) {
				t.Fatalf("err = %v, want one saying %q", err, c.says)
			}
			if len(reg.Tools()) != 0 {
				t.Errorf("the registry holds %d records", len(reg.Tools()))
			}
			if s.GetTool("t") != nil {
				t.Error("the server has the tool")
			}
		})
	}
}

// If the tool's name is registered again with another struct, the guard
// would read arguments for a struct the handler does not take: every call
// is refused, and the handler never runs.
func TestAddTool_RecordReplacedWithAnotherType_HandlerNeverRuns(t *testing.T) {
	type other struct {
		Int string `json:"int"`
	}
	reg := probeRegistry(t, bind.Std)
	var rec seen
	s := addToolServer(t, reg, &rec)
	if err := typereg.Register[other](reg, probe.Tool); err != nil {
		t.Fatal(err)
	}
	got := send(t, s, callFrame(probe.Tool, `{"int":"5"}`))
	if rec.calls() != 0 {
		t.Fatal("the handler ran")
	}
	if got.Result == nil || !got.Result.IsError || !strings.Contains(got.text(t), "its handler takes probe.Args") {
		t.Errorf("want a tool error naming the types, got %+v", got)
	}
}

// A request built in Go rather than read from a frame has no raw bytes: the
// adapter marshals its Arguments, and guards and decodes those.
func TestAddTool_RequestWithoutFrame_GuardsMarshaledArguments(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	var rec seen
	s := addToolServer(t, reg, &rec)
	h := s.GetTool(probe.Tool).Handler
	var req mcp.CallToolRequest
	req.Params.Name = probe.Tool

	req.Params.Arguments = map[string]any{"int": 0.5}
	res, err := h(context.Background(), req)
	if err != nil || !res.IsError || rec.calls() != 0 {
		t.Errorf("{int: 0.5}: want a refusal and no handler run, got %+v, %v", res, err)
	}

	req.Params.Arguments = map[string]any{"int64": int64(9007199254740993)}
	res, err = h(context.Background(), req)
	if err != nil || res.IsError || rec.calls() != 1 || rec.in.Int64 != 9007199254740993 {
		t.Errorf("{int64: 2^53+1}: got %+v, %v, Int64 %d", res, err, rec.in.Int64)
	}

	req.Params.Arguments = json.RawMessage(`{"uint8":-1}`)
	rec.reset()
	res, err = h(context.Background(), req)
	if err != nil || !res.IsError || rec.calls() != 0 {
		t.Errorf("raw {uint8: -1}: want a refusal and no handler run, got %+v, %v", res, err)
	}
}

// The middleware guards only the tools the registry records: a call of
// another tool reaches its handler untouched, unknown keys and all.
func TestMiddleware_ToolNotInRegistry_PassesThrough(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	var rec seen
	s := middlewareServer(t, reg, &rec)
	var raw json.RawMessage
	s.AddTool(mcp.NewTool("free"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		raw = req.Params.RawArguments
		return mcp.NewToolResultText("ran"), nil
	})
	got := send(t, s, callFrame("free", `{"anything":0.5}`))
	if got.Result == nil || got.Result.IsError || string(raw) != `{"anything":0.5}` {
		t.Errorf("want the free tool's handler to run, got %+v (raw %s)", got, raw)
	}
	// The registered tool is still guarded on the same server.
	got = send(t, s, callFrame(probe.Tool, `{"anything":0.5}`))
	if got.Result == nil || !got.Result.IsError || rec.calls() != 0 {
		t.Errorf("want the probe call refused before its handler, got %+v", got)
	}
}

// mcp.NewTypedToolHandler binds RawArguments with encoding/json, so behind
// the middleware with a bind.Std registry it gets exactly what the guard
// passed, and never a call the guard refused.
func TestMiddleware_InFrontOfNewTypedToolHandler(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	var rec seen
	s := server.NewMCPServer("probe", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
	s.AddTool(mcp.NewTool(probe.Tool, mcp.WithRawInputSchema(probeSchema(t, reg))),
		mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in probe.Args) (*mcp.CallToolResult, error) {
			rec.mu.Lock()
			rec.ran++
			rec.in = in
			rec.mu.Unlock()
			return mcp.NewToolResultText("ran"), nil
		}))

	got := send(t, s, callFrame(probe.Tool, `{"int64":9007199254740993,"color":"teal"}`))
	if got.Result == nil || got.Result.IsError || rec.calls() != 1 {
		t.Fatalf("want the handler to run, got %+v", got)
	}
	if diff := cmp.Diff(probe.Args{Int64: 9007199254740993, Color: "teal"}, rec.in); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}

	for _, args := range []string{`{"color":"mauve"}`, `{"int8":128}`, `{"Int64":1,"colour":"teal"}`} {
		rec.reset()
		got := send(t, s, callFrame(probe.Tool, args))
		if rec.calls() != 0 {
			t.Errorf("%s: the typed handler ran on a refused call", args)
		}
		if got.Result == nil || !got.Result.IsError || got.Result.StructuredContent == nil {
			t.Errorf("%s: want a refusal, got %+v", args, got)
		}
	}
}

// jsonValue decodes JSON text for comparison by value.
func jsonValue(t testing.TB, b []byte) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

// Calls served at once are guarded each on its own: the refused ones
// never reach the handler, the others all do.
func TestAddTool_ConcurrentCalls(t *testing.T) {
	reg := probeRegistry(t, bind.Std)
	var rec seen
	s := addToolServer(t, reg, &rec)
	const workers, each = 8, 40
	var wg sync.WaitGroup
	var wrong atomic.Int32
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				args, refused := `{"int64":9007199254740993}`, false
				if (w+i)%2 == 1 {
					args, refused = `{"int64":1.5}`, true
				}
				out, _ := json.Marshal(s.HandleMessage(context.Background(), callFrame(probe.Tool, args)))
				var r reply
				if json.Unmarshal(out, &r) != nil || r.Result == nil || r.Result.IsError != refused || (r.Result.StructuredContent != nil) != refused {
					wrong.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if wrong.Load() != 0 {
		t.Errorf("%d calls got the wrong verdict", wrong.Load())
	}
	if got, want := rec.calls(), workers*each/2; got != want {
		t.Errorf("the handler ran %d times, want %d (once per call the guard passes)", got, want)
	}
	if rec.in.Int64 != 9007199254740993 {
		t.Errorf("Int64 = %d", rec.in.Int64)
	}
}
