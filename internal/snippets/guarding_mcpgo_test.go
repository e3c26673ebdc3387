package snippets

// The mcp-go routes of docs/guarding-existing-servers.md, through
// server.HandleMessage with tools/call frames.

import (
	"context"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// mcpReply is a tools/call response as it goes over the wire.
type mcpReply struct {
	Result *struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		IsError bool `json:"isError"`
	} `json:"result"`
	Error *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// sendCall hands s a tools/call frame carrying args exactly as written and
// decodes the response from the bytes it would put on the wire.
func sendCall(t *testing.T, s *server.MCPServer, tool, args string) mcpReply {
	t.Helper()
	frame := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + `}}`
	out, err := json.Marshal(s.HandleMessage(context.Background(), []byte(frame)))
	if err != nil {
		t.Fatal(err)
	}
	var r mcpReply
	if err := json.Unmarshal(out, &r); err != nil || r.Result == nil {
		t.Fatalf("%s: the response %s is no tool result (%v)", args, out, err)
	}
	return r
}

func (r mcpReply) texts() []string {
	var out []string
	for _, c := range r.Result.Content {
		if c.Type == "text" {
			out = append(out, c.Text)
		}
	}
	return out
}

// wantMCPRefused requires r to be the guard's refusal of args, its first
// problem of code, naming argument.
func wantMCPRefused(t *testing.T, reg *typereg.Registry, tool, args string, r mcpReply, argument string, code refuse.Code) {
	t.Helper()
	want := refuse.Refuse(reg, tool, json.RawMessage(args))
	if want == nil {
		t.Fatalf("refuse.Refuse passes %s", args)
	}
	if p := want.Problems[0]; p.Argument != argument || p.Code != code {
		t.Errorf("%s: first problem %+v, want %s for %q", args, p, code, argument)
	}
	if got := r.texts(); !r.Result.IsError || len(got) != 1 || got[0] != want.Error() {
		t.Errorf("%s: result isError=%v %q, want the refusal %q", args, r.Result.IsError, got, want.Error())
	}
}

// TestGuarding_MCPGo_AddTool: typed handlers, mcpgo.AddTool in the place
// of s.AddTool with mcp.NewTypedToolHandler.
func TestGuarding_MCPGo_AddTool(t *testing.T) {
	var got []ReadFileArgs
	readFile := func(_ context.Context, _ mcp.CallToolRequest, in ReadFileArgs) (*mcp.CallToolResult, error) {
		got = append(got, in)
		return mcp.NewToolResultText("ok"), nil
	}
	s := server.NewMCPServer("fs", "1.0.0")
	// snippet: guarding-mcpgo-addtool
	reg := typereg.New()
	// was: s.AddTool(tool, mcp.NewTypedToolHandler(readFile))
	err := mcpgo.AddTool(s, reg, mcp.NewTool("read_file", mcp.WithDescription("Reads a file.")), readFile)
	// end snippet
	if err != nil {
		t.Fatal(err)
	}
	if r := sendCall(t, s, "read_file", `{"path":"a.txt","offset":9007199254740993}`); r.Result.IsError || len(got) != 1 || got[0] != (ReadFileArgs{Path: "a.txt", Offset: 9007199254740993}) {
		t.Fatalf("a good call: isError=%v, the handler got %+v, want it exact", r.Result.IsError, got)
	}
	wantMCPRefused(t, reg, "read_file", `{"path":1}`, sendCall(t, s, "read_file", `{"path":1}`), "path", refuse.WrongType)
	if len(got) != 1 {
		t.Errorf("the handler ran on a refused call: %+v", got)
	}
}

// reflector is the grafana-style server's own invopop reflector.
var reflector = jsonschema.Reflector{RequiredFromJSONSchemaTags: true, AllowAdditionalProperties: true}

type QueryArgs struct {
	Datasource string `json:"datasourceUid" jsonschema:"required,description=the datasource"`
	Limit      int    `json:"limit" jsonschema:"description=the most rows"`
}

// convertTool is a grafana-style wrapper: the parameter type is gone by
// the time the tool is added, and the handler re-marshals mcp-go's map.
func convertTool[T any](reg *typereg.Registry, name, description string, fn func(context.Context, T) (string, error)) (mcp.Tool, server.ToolHandlerFunc, error) {
	handler := func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b, err := json.Marshal(req.GetArguments())
		if err != nil {
			return nil, err
		}
		var in T
		if err := json.Unmarshal(b, &in); err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		out, err := fn(ctx, in)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(out), nil
	}
	// snippet: guarding-mcpgo-wrapper
	tool, err := mcpgo.Register(reg, mcp.NewTool(name, mcp.WithDescription(description)),
		reflect.TypeFor[T](), typereg.WithReflector(&reflector))
	if err != nil {
		return mcp.Tool{}, nil, err
	}
	return tool, handler, nil // the wrapper's own handler: re-marshalling, tracing, results
	// end snippet
}

func TestGuarding_MCPGo_Wrapper(t *testing.T) {
	// snippet: guarding-mcpgo-wrapper-start
	reg := typereg.New(typereg.WithBinder(mcpgo.MapArguments))
	s := server.NewMCPServer("grafana", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
	// end snippet
	var got []QueryArgs
	tool, handler, err := convertTool(reg, "query", "Runs a query.", func(_ context.Context, in QueryArgs) (string, error) {
		got = append(got, in)
		return "ok", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	s.AddTool(tool, handler)

	// Only the tagged field is required, and other keys pass, as the
	// server's own schema had it.
	for _, args := range []string{`{"datasourceUid":"a"}`, `{"datasourceUid":"a","limit":5,"extra":1}`, `{"datasourceUid":"a","limit":5.0}`} {
		got = nil
		if r := sendCall(t, s, "query", args); r.Result.IsError || len(got) != 1 || got[0].Datasource != "a" {
			t.Errorf("%s: isError=%v %q, the handler got %+v", args, r.Result.IsError, r.texts(), got)
		}
	}
	got = nil
	wantMCPRefused(t, reg, "query", `{"datasourceUid":"a","limit":"x"}`, sendCall(t, s, "query", `{"datasourceUid":"a","limit":"x"}`), "limit", refuse.WrongType)
	wantMCPRefused(t, reg, "query", `{"limit":5}`, sendCall(t, s, "query", `{"limit":5}`), "datasourceUid", refuse.MissingArgument)
	if len(got) != 0 {
		t.Errorf("the handler ran on a refused call: %+v", got)
	}
	// What the map changes is named: the handler gets the float64's value.
	args := `{"datasourceUid":"a","limit":9007199254740993}`
	d := refuse.Decide(reg, "query", json.RawMessage(args))
	if d.Refusal != nil || d.Warnings == nil || d.Warnings.Problems[0].Code != refuse.RoundedNumber {
		t.Fatalf("%s: decision %+v, want a rounded_number warning", args, d)
	}
	if r := sendCall(t, s, "query", args); r.Result.IsError || len(got) != 1 || got[0].Limit != 9007199254740992 || r.texts()[len(r.texts())-1] != d.Warnings.String() {
		t.Errorf("%s: isError=%v %q, the handler got %+v", args, r.Result.IsError, r.texts(), got)
	}
}

// readArgs is a lenient server's own reading: encoding/json, and, where
// that fails, numeric text read as a number ("42" for 42).
func readArgs(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	if err == nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return err
	}
	for k, x := range m {
		if s, ok := x.(string); ok {
			if n, perr := strconv.ParseFloat(s, 64); perr == nil {
				m[k] = n
			}
		}
	}
	b, merr := json.Marshal(m)
	if merr != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func TestGuarding_MCPGo_Reader(t *testing.T) {
	// snippet: guarding-reader
	reg := typereg.New(typereg.WithBinder(bind.Reader("lenient", readArgs)))
	// end snippet
	s := server.NewMCPServer("lenient", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
	tool, err := mcpgo.Register(reg, mcp.NewTool("query"), reflect.TypeFor[QueryArgs](), typereg.WithReflector(&reflector))
	if err != nil {
		t.Fatal(err)
	}
	var got []QueryArgs
	s.AddTool(tool, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in QueryArgs
		if err := readArgs(req.Params.RawArguments, &in); err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		got = append(got, in)
		return mcp.NewToolResultText("ok"), nil
	})
	if r := sendCall(t, s, "query", `{"datasourceUid":"a","limit":"42"}`); r.Result.IsError || len(got) != 1 || got[0].Limit != 42 {
		t.Fatalf(`"42": isError=%v %q, the handler got %+v; the server serves it`, r.Result.IsError, r.texts(), got)
	}
	wantMCPRefused(t, reg, "query", `{"datasourceUid":"a","limit":"x"}`, sendCall(t, s, "query", `{"datasourceUid":"a","limit":"x"}`), "limit", refuse.WrongType)
	if len(got) != 1 {
		t.Errorf("the handler ran on a refused call: %+v", got)
	}
}

// TestGuarding_MCPGo_ServerTools: mcp.NewTool options and accessors, an
// mcp-filesystem-server-style server.
func TestGuarding_MCPGo_ServerTools(t *testing.T) {
	// snippet: guarding-mcpgo-servertools
	reg := typereg.New()
	s := server.NewMCPServer("fs", "1.0.0", server.WithToolHandlerMiddleware(
		mcpgo.Middleware(reg, mcpgo.ServerTools(typereg.WithIntReads("depth")))))
	// end snippet
	var got []string
	s.AddTool(mcp.NewTool("tree",
		mcp.WithString("path", mcp.Required()),
		mcp.WithNumber("depth"),
	), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		path, err := req.RequireString("path")
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		got = append(got, path+" "+strconv.Itoa(req.GetInt("depth", 3)))
		return mcp.NewToolResultText("ok"), nil
	})

	if r := sendCall(t, s, "tree", `{"path":"/tmp","depth":2}`); r.Result.IsError || len(got) != 1 || got[0] != "/tmp 2" {
		t.Fatalf("a good call: isError=%v %q, the handler got %q", r.Result.IsError, r.texts(), got)
	}
	wantMCPRefused(t, reg, "tree", `{"path":1}`, sendCall(t, s, "tree", `{"path":1}`), "path", refuse.WrongType)
	wantMCPRefused(t, reg, "tree", `{"depth":2}`, sendCall(t, s, "tree", `{"depth":2}`), "path", refuse.MissingArgument)
	if len(got) != 1 {
		t.Errorf("the handler ran on a refused call: %q", got)
	}
	// 2.5 read by GetInt: served, and named as the truncation it is.
	args := `{"path":"/tmp","depth":2.5}`
	r := sendCall(t, s, "tree", args)
	d := refuse.Decide(reg, "tree", json.RawMessage(args))
	if d.Refusal != nil || d.Warnings == nil || d.Warnings.Problems[0].Code != refuse.RoundedNumber {
		t.Fatalf("2.5: decision %+v, want a rounded_number warning", d)
	}
	if texts := r.texts(); r.Result.IsError || len(got) != 2 || got[1] != "/tmp 2" || texts[len(texts)-1] != d.Warnings.String() ||
		!strings.Contains(d.Warnings.String(), "the call sent 2.5, which the tool reads as 2") {
		t.Errorf("2.5: isError=%v %q, the handler got %q", r.Result.IsError, texts, got)
	}
}
