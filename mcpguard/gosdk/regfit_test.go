package gosdk_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

// goplsArgs is a parameter struct as gopls declares them: tagged for
// go-sdk (google/jsonschema-go: the whole jsonschema tag is the
// description), and taken by pointer (In = *goplsArgs).
type goplsArgs struct {
	File    string       `json:"file" jsonschema:"the absolute path to the file"`
	Line    int          `json:"line,omitempty" jsonschema:"required"` // a description, to go-sdk
	Options *goplsOpts   `json:"options,omitempty" jsonschema:"how to search"`
	Symbols []goplsQuery `json:"symbols,omitempty" jsonschema:"the symbols to find"`
}

type goplsOpts struct {
	Fuzzy bool `json:"fuzzy" jsonschema:"match loosely, as the editor does"`
	Limit int  `json:"limit,omitempty" jsonschema:"at most this many, 0 for all"`
}

type goplsQuery struct {
	Name string `json:"name" jsonschema:"the symbol's name, qualified or not"`
}

// goplsSeen is what a handler reports of its pointer argument.
type goplsSeen struct {
	Nil  bool   `json:"nil"`
	File string `json:"file"`
	Line int    `json:"line"`
}

func seeGopls(_ context.Context, _ *mcp.CallToolRequest, in *goplsArgs) (*mcp.CallToolResult, goplsSeen, error) {
	if in == nil {
		return nil, goplsSeen{Nil: true}, nil
	}
	return nil, goplsSeen{File: in.File, Line: in.Line}, nil
}

// goplsList has no required parameter: null and no arguments reach the
// handler.
type goplsList struct {
	Dir string `json:"dir,omitempty" jsonschema:"the directory, or the workspace's root"`
}

func seeList(_ context.Context, _ *mcp.CallToolRequest, in *goplsList) (*mcp.CallToolResult, goplsSeen, error) {
	if in == nil {
		return nil, goplsSeen{Nil: true}, nil
	}
	return nil, goplsSeen{File: in.Dir}, nil
}

// TestAddTool_PointerIn_AsMCPAddTool pins that AddTool takes a pointer
// parameter type as mcp.AddTool does, and gives the handler what go-sdk
// gives it: a new zero struct for arguments missing or {}, nil for null.
// It failed: AddTool[*T] refused the type ("must be a struct type").
func TestAddTool_PointerIn_AsMCPAddTool(t *testing.T) {
	tool := &mcp.Tool{Name: "find", Description: "find symbols"}
	for _, args := range []string{`{"file":"/a.go","line":3}`, `{"file":"/a.go"}`} {
		t.Run(args, func(t *testing.T) {
			sameAsMCPAddTool(t, tool, seeGopls, args)
		})
	}
	for _, args := range []string{`{"dir":"/a"}`, `{}`, `null`} {
		t.Run("list "+args, func(t *testing.T) {
			sameAsMCPAddTool(t, &mcp.Tool{Name: "list"}, seeList, args)
		})
	}
	t.Run("no arguments", func(t *testing.T) {
		tool := &mcp.Tool{Name: "list"}
		s := newServer()
		if err := gosdk.AddTool(s, typereg.New(), tool, seeList); err != nil {
			t.Fatal(err)
		}
		plain := newServer()
		mcp.AddTool(plain, tool, seeList)
		for _, srv := range []*mcp.Server{plain, s} {
			if got := callBare(t, srv, "list"); got != `{"file":"","line":0,"nil":false}` {
				t.Errorf("result %s, want a zero struct, not nil", got)
			}
		}
	})
}

// TestAddTool_JSONSchemaGoTags_PublishesWhatGoSDKInfers pins that the
// input schema AddTool publishes keeps the descriptions go-sdk's own tags
// give (google/jsonschema-go's syntax, at every level) and requires what
// mcp.AddTool's schema requires, no more; and that a call go-sdk serves is
// served. It failed: tools/list lost every description, and "line"
// (jsonschema:"required", a description to go-sdk) was required, so
// {"file":"/a.go"} was refused.
func TestAddTool_JSONSchemaGoTags_PublishesWhatGoSDKInfers(t *testing.T) {
	tool := &mcp.Tool{Name: "find"}
	plain, guarded := newServer(), newServer()
	mcp.AddTool(plain, tool, seeGopls)
	reg := typereg.New()
	if err := gosdk.AddTool(guarded, reg, tool, seeGopls); err != nil {
		t.Fatal(err)
	}
	csPlain, csGuarded := connect(t, plain), connect(t, guarded)
	want := describedAndRequired(t, listed(t, csPlain)["find"].InputSchema)
	got := describedAndRequired(t, listed(t, csGuarded)["find"].InputSchema)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("input schema's descriptions and required lists (-mcp.AddTool +gosdk.AddTool):\n%s", diff)
	}
	for _, args := range []string{`{"file":"/a.go"}`, `{"file":"/a.go","options":{"fuzzy":true}}`, `{"file":"/a.go","symbols":[{"name":"F"}]}`} {
		if res := callRaw(t, csGuarded, "find", args); res.IsError {
			t.Errorf("%s: refused, which go-sdk serves: %s", args, text(t, res))
		}
	}
	for _, args := range []string{`{}`, `{"file":"/a.go","options":{}}`, `{"file":3}`} {
		wantRefusal(t, reg, "find", wire(t, args), callRaw(t, csGuarded, "find", args), false)
	}
}

// TestAddTool_InvopopTagsStillPublished pins that a struct written for
// invopop's syntax (which go-sdk itself refuses: a tag beginning with
// WORD=) still publishes its descriptions and bounds through AddTool.
func TestAddTool_InvopopTagsStillPublished(t *testing.T) {
	type args struct {
		N int `json:"n" jsonschema:"description=how many,minimum=1"`
	}
	s := newServer()
	if err := gosdk.AddTool(s, typereg.New(), &mcp.Tool{Name: "n"}, func(context.Context, *mcp.CallToolRequest, args) (*mcp.CallToolResult, any, error) {
		return nil, nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	got := asJSON(t, listed(t, connect(t, s))["n"].InputSchema).(map[string]any)["properties"].(map[string]any)["n"]
	if diff := cmp.Diff(map[string]any{"type": "integer", "description": "how many", "minimum": 1.0}, got); diff != "" {
		t.Errorf("n's property (-want +got):\n%s", diff)
	}
}

// A serverTool is a tool as servers that wrap tools in their own generic
// helper keep it (grafana's, gopls's): the type parameter is gone by the
// time the tool is added.
type serverTool struct {
	tool *mcp.Tool
	in   reflect.Type
	add  func(s *mcp.Server, t *mcp.Tool)
}

func newServerTool[In, Out any](tool *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) serverTool {
	return serverTool{tool: tool, in: reflect.TypeFor[In](), add: func(s *mcp.Server, t *mcp.Tool) { mcp.AddTool(s, t, h) }}
}

// install adds tools to s the way such a server does, registering each
// where it is added, and guards s with Middleware.
func install(t *testing.T, s *mcp.Server, reg *typereg.Registry, tools ...serverTool) {
	t.Helper()
	for _, st := range tools {
		tl, err := gosdk.Register(reg, st.tool, st.in)
		if err != nil {
			t.Fatal(err)
		}
		st.add(s, tl)
	}
	s.AddReceivingMiddleware(gosdk.Middleware(reg))
}

type dashReadArgs struct {
	UID string `json:"uid" jsonschema:"the dashboard's UID"`
}

type dashWriteArgs struct {
	UID       string `json:"uid" jsonschema:"the dashboard's UID"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"replace a dashboard of the same UID"`
}

func dashHandler[In any](_ context.Context, _ *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
	b, _ := json.Marshal(in)
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
}

// TestRegister_GenericWrapper_LateRegistration pins the route of a server
// that adds its tools through its own generic helper, with mcp.AddTool,
// and registers them where they are added (Register with the helper's
// reflect.Type; a pointer In, as gopls has, included): the name defined
// twice, read-only and read-write with different structs, is judged by the
// struct of the server it is added to; the published schema is the
// registry's, descriptions kept; calls the server serves are served, and
// calls it cannot serve are refused in the guard's words. It failed:
// gosdk.Register did not exist.
func TestRegister_GenericWrapper_LateRegistration(t *testing.T) {
	readOnly := []serverTool{
		newServerTool(&mcp.Tool{Name: "update_dashboard"}, dashHandler[dashReadArgs]),
		newServerTool(&mcp.Tool{Name: "find"}, seeGopls),
	}
	readWrite := []serverTool{
		newServerTool(&mcp.Tool{Name: "update_dashboard"}, dashHandler[dashWriteArgs]),
		newServerTool(&mcp.Tool{Name: "find"}, seeGopls),
	}
	for name, c := range map[string]struct {
		tools    []serverTool
		served   []string
		refused  []string
		required []any
	}{
		"read-only":  {readOnly, []string{`{"uid":"a"}`}, []string{`{"uid":"a","overwrite":true}`, `{}`, `{"uid":1}`}, []any{"uid"}},
		"read-write": {readWrite, []string{`{"uid":"a"}`, `{"uid":"a","overwrite":true}`}, []string{`{"uid":"a","overwrite":"yes"}`, `{}`}, []any{"uid"}},
	} {
		t.Run(name, func(t *testing.T) {
			reg := typereg.New()
			s := newServer()
			install(t, s, reg, c.tools...)
			cs := connect(t, s)
			schema := asJSON(t, listed(t, cs)["update_dashboard"].InputSchema).(map[string]any)
			if diff := cmp.Diff(c.required, schema["required"]); diff != "" {
				t.Errorf("required (-want +got):\n%s", diff)
			}
			if d := schema["properties"].(map[string]any)["uid"].(map[string]any)["description"]; d != "the dashboard's UID" {
				t.Errorf("uid's description = %v", d)
			}
			for _, args := range c.served {
				res := callRaw(t, cs, "update_dashboard", args)
				if res.IsError {
					t.Errorf("%s: refused, which the server serves: %s", args, text(t, res))
				}
			}
			for _, args := range c.refused {
				wantRefusal(t, reg, "update_dashboard", wire(t, args), callRaw(t, cs, "update_dashboard", args), false)
			}
			if res := callRaw(t, cs, "find", `{"file":"/a.go"}`); res.IsError || !strings.Contains(text(t, res), `"file":"/a.go"`) {
				t.Errorf("find, pointer In, behind the middleware: %v", res.Content)
			}
			wantRefusal(t, reg, "find", wire(t, `{"file":"/a.go","lines":3}`), callRaw(t, cs, "find", `{"file":"/a.go","lines":3}`), false)
		})
	}
}

// TestRegister_KeepsTheToolAndRefusesASchema pins that Register returns a
// copy of the tool with the registry's schema, leaving the caller's tool
// as it was, and fails, recording nothing, on a tool whose input schema is
// set (the published schema is the registry's).
func TestRegister_KeepsTheToolAndRefusesASchema(t *testing.T) {
	reg := typereg.New()
	tool := &mcp.Tool{Name: "u", Description: "d"}
	tl, err := gosdk.Register(reg, tool, reflect.TypeFor[dashWriteArgs]())
	if err != nil {
		t.Fatal(err)
	}
	rec, _ := reg.Tool("u")
	// The returned tool's schema is a copy of the record's (the record
	// is read-only): the same JSON.
	got, _ := json.Marshal(tl.InputSchema)
	want, _ := json.Marshal(rec.Schema())
	if tool.InputSchema != nil || tl.InputSchema == nil || string(got) != string(want) || tl.Description != "d" {
		t.Errorf("tool %+v, returned %+v (schema %s, want %s)", tool, tl, got, want)
	}
	if _, err := gosdk.Register(reg, &mcp.Tool{Name: "v", InputSchema: map[string]any{"type": "object"}}, reflect.TypeFor[dashWriteArgs]()); err == nil {
		t.Errorf("Register with an input schema set = nil, want an error")
	}
	if _, ok := reg.Tool("v"); ok {
		t.Errorf("a failed Register left a record")
	}
}

// describedAndRequired lists each description and each non-empty required
// list of schema s (as a client receives it), by path, $refs followed.
func describedAndRequired(t *testing.T, s any) map[string]any {
	t.Helper()
	root, _ := asJSON(t, s).(map[string]any)
	out := map[string]any{}
	var walk func(path string, v any, depth int)
	walk = func(path string, v any, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 8 {
			return
		}
		if d, ok := m["description"]; ok && path != "" {
			out[path+" description"] = d
		}
		if ref, ok := m["$ref"].(string); ok {
			defs, _ := root["$defs"].(map[string]any)
			walk(path, defs[strings.TrimPrefix(ref, "#/$defs/")], depth+1)
			return
		}
		if r, ok := m["required"].([]any); ok && len(r) > 0 {
			out[path+" required"] = r
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for k, p := range props {
				walk(path+"/"+k, p, depth+1)
			}
		}
		walk(path+"/items", m["items"], depth+1)
		walk(path+"/*", m["additionalProperties"], depth+1)
	}
	walk("", root, 0)
	return out
}

// callBare sends tools/call for tool with no "arguments" member at all, as
// raw frames over an in-memory transport (go-sdk's client always sends
// one), and returns the result's text.
func callBare(t *testing.T, s *mcp.Server, tool string) string {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	conn, err := ct.Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	frames := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"v0"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"` + tool + `"}}`,
	}
	for _, f := range frames {
		msg, err := jsonrpc.DecodeMessage([]byte(f))
		if err != nil {
			t.Fatal(err)
		}
		if err := conn.Write(ctx, msg); err != nil {
			t.Fatal(err)
		}
	}
	for {
		msg, err := conn.Read(ctx)
		if err != nil {
			t.Fatal(err)
		}
		resp, ok := msg.(*jsonrpc.Response)
		if !ok || resp.ID.Raw() != int64(2) {
			continue
		}
		if resp.Error != nil {
			t.Fatalf("tools/call: %v", resp.Error)
		}
		var res struct {
			Content []struct{ Text string } `json:"content"`
		}
		if err := json.Unmarshal(resp.Result, &res); err != nil || len(res.Content) != 1 {
			t.Fatalf("result %s: %v", resp.Result, err)
		}
		return res.Content[0].Text
	}
}

// TestAddTool_SameNameAgain_TheLaterStructJudges pins that adding a name
// again with another struct (a server that turns a read-only tool into its
// read-write variant) replaces both the tool and its record: the later
// struct's calls are served, and the earlier handler, gone, is never run.
func TestAddTool_SameNameAgain_TheLaterStructJudges(t *testing.T) {
	reg, s := typereg.New(), newServer()
	var ro recorder[dashReadArgs]
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "update_dashboard"}, ro.handler); err != nil {
		t.Fatal(err)
	}
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "update_dashboard"}, dashHandler[dashWriteArgs]); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	if res := callRaw(t, cs, "update_dashboard", `{"uid":"a","overwrite":true}`); res.IsError || text(t, res) != `{"uid":"a","overwrite":true}` {
		t.Errorf("the read-write call: %v", res.Content)
	}
	if runs, _, _ := ro.last(); runs != 0 {
		t.Errorf("the replaced handler ran %d times", runs)
	}
	if _, ok := listed(t, cs)["update_dashboard"].InputSchema.(map[string]any)["properties"].(map[string]any)["overwrite"]; !ok {
		t.Errorf("tools/list does not show the later struct's parameters")
	}
}
