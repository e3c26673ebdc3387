package snippets

// The routes of docs/guarding-existing-servers.md, each on a small server
// built the way that route's servers are built, through real MCP frames:
// go-sdk over in-memory transports here, mcp-go through HandleMessage in
// guarding_mcpgo_test.go.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log"
	"reflect"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// connectGo starts a session of s over in-memory transports and returns
// the client's end; both close when the test ends.
func connectGo(t *testing.T, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "snippets", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

// callGo calls tool with args as written.
func callGo(t *testing.T, cs *mcp.ClientSession, tool, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("tools/call %s %s: %v", tool, args, err)
	}
	return res
}

// texts is the text of every text block of a result.
func texts(res *mcp.CallToolResult) []string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return out
}

// wantGoRefused requires res to be the guard's refusal of args, its first
// problem of code, naming argument.
func wantGoRefused(t *testing.T, reg *typereg.Registry, tool, args string, res *mcp.CallToolResult, argument string, code refuse.Code) {
	t.Helper()
	want := refuse.Refuse(reg, tool, json.RawMessage(args))
	if want == nil {
		t.Fatalf("refuse.Refuse passes %s", args)
	}
	if p := want.Problems[0]; p.Argument != argument || p.Code != code {
		t.Errorf("%s: first problem %+v, want %s for %q", args, p, code, argument)
	}
	if got := texts(res); !res.IsError || len(got) != 1 || got[0] != want.Error() {
		t.Errorf("%s: result isError=%v %q, want the refusal %q", args, res.IsError, got, want.Error())
	}
}

// wantGoWarned requires res to be a success carrying the guard's warnings
// on args, the first of code.
func wantGoWarned(t *testing.T, reg *typereg.Registry, tool, args string, res *mcp.CallToolResult, code refuse.Code) {
	t.Helper()
	d := refuse.Decide(reg, tool, json.RawMessage(args))
	if d.Refusal != nil || d.Warnings == nil {
		t.Fatalf("%s: decision %+v, want warnings", args, d)
	}
	if d.Warnings.Problems[0].Code != code {
		t.Errorf("%s: first warning %+v, want %s", args, d.Warnings.Problems[0], code)
	}
	got := texts(res)
	if res.IsError || len(got) == 0 || got[len(got)-1] != d.Warnings.String() {
		t.Errorf("%s: result isError=%v %q, want the warnings %q last", args, res.IsError, got, d.Warnings.String())
	}
}

type ReadFileArgs struct {
	Path   string `json:"path" jsonschema:"the file to read"`
	Offset int64  `json:"offset,omitempty"`
}

// TestGuarding_GoSDK_AddTool: a go-sdk server whose handlers take their
// struct, gosdk.AddTool in the place of mcp.AddTool.
func TestGuarding_GoSDK_AddTool(t *testing.T) {
	var got []ReadFileArgs
	readFile := func(_ context.Context, _ *mcp.CallToolRequest, in ReadFileArgs) (*mcp.CallToolResult, any, error) {
		got = append(got, in)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "fs", Version: "v0"}, nil)

	// snippet: guarding-gosdk-addtool
	reg := typereg.New()
	// was: mcp.AddTool(server, &mcp.Tool{Name: "read_file"}, readFile)
	err := gosdk.AddTool(server, reg, &mcp.Tool{Name: "read_file"}, readFile)
	// end snippet
	if err != nil {
		t.Fatal(err)
	}
	cs := connectGo(t, server)

	res := callGo(t, cs, "read_file", `{"path":"a.txt","offset":9007199254740993}`)
	if res.IsError || len(got) != 1 || got[0] != (ReadFileArgs{Path: "a.txt", Offset: 9007199254740993}) {
		t.Fatalf("a good call: isError=%v, handler got %+v, want it exact", res.IsError, got)
	}
	got = nil
	for _, c := range []struct {
		args, arg string
		code      refuse.Code
	}{{`{"path":1}`, "path", refuse.WrongType}, {`{"path":"a","offset":1.0}`, "offset", refuse.NotWholeNumber}} {
		wantGoRefused(t, reg, "read_file", c.args, callGo(t, cs, "read_file", c.args), c.arg, c.code)
	}
	if len(got) != 0 {
		t.Fatalf("the handler ran on a refused call: %+v", got)
	}
	// The page: PATH is read, as encoding/json folds case, with a warning.
	wantGoWarned(t, reg, "read_file", `{"PATH":"a"}`, callGo(t, cs, "read_file", `{"PATH":"a"}`), refuse.FoldedKey)
	if len(got) != 1 || got[0].Path != "a" {
		t.Fatalf("PATH: the handler got %+v", got)
	}
}

type ReadArgs struct {
	Path  string `json:"path" jsonschema:"the file to read"`
	Limit *int   `json:"limit,omitempty"`
	Hours int    `json:"hours,omitempty"`
	ID    int64  `json:"id,omitempty"`
}

// snippet: guarding-gosdk-helper
func addTool[In, Out any](server *mcp.Server, reg *typereg.Registry, tool *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) error {
	if err := typereg.RegisterType(reg, tool.Name, reflect.TypeFor[In]()); err != nil {
		return err // a field go-sdk's path cannot decode into, named
	}
	mcp.AddTool(server, tool, h) // unchanged: go-sdk infers the schema from In
	return nil
}

// end snippet

// helperServer is a gopls-style server: its own generic helper adds a tool
// whose In is a pointer, guarded when guarded is set.
func helperServer(t *testing.T, guarded bool) (*mcp.ClientSession, *typereg.Registry, *[]ReadArgs) {
	t.Helper()
	var got []ReadArgs
	read := func(_ context.Context, _ *mcp.CallToolRequest, in *ReadArgs) (*mcp.CallToolResult, any, error) {
		got = append(got, *in)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "gopls", Version: "v0"}, nil)
	// snippet: guarding-gosdk-helper-registry
	reg := typereg.New(typereg.WithBinder(gosdk.InputPath), typereg.WithJSONSchemaGo())
	server.AddReceivingMiddleware(gosdk.Middleware(reg))
	// end snippet
	if !guarded {
		server = mcp.NewServer(&mcp.Implementation{Name: "gopls", Version: "v0"}, nil)
	}
	if err := addTool(server, reg, &mcp.Tool{Name: "read"}, read); err != nil {
		t.Fatal(err)
	}
	return connectGo(t, server), reg, &got
}

// TestGuarding_GoSDK_Helper: a gopls-style helper keeps mcp.AddTool; the
// registry mirrors go-sdk's input path. Every call the bare server serves
// is served as it was; what it refuses in generic words is refused by name.
func TestGuarding_GoSDK_Helper(t *testing.T) {
	cs, reg, got := helperServer(t, true)
	bare, _, bareGot := helperServer(t, false)

	for _, args := range []string{`{"path":"a"}`, `{"path":"a","limit":null}`, `{"path":"a","hours":1.0}`, `{"path":"a","limit":3}`} {
		*got, *bareGot = nil, nil
		res, want := callGo(t, cs, "read", args), callGo(t, bare, "read", args)
		if res.IsError || want.IsError || !reflect.DeepEqual(*got, *bareGot) || len(*got) != 1 {
			t.Errorf("%s: guarded isError=%v got %+v; bare isError=%v got %+v", args, res.IsError, *got, want.IsError, *bareGot)
		}
	}
	for _, c := range []struct {
		args, arg string
		code      refuse.Code
	}{
		// A bind.Reader names the argument go-sdk's path fails on alone.
		{`{"path":"a","hours":null}`, "hours", refuse.InvalidValue},
		{`{"path":"a","hours":0.5}`, "hours", refuse.InvalidValue},
		{`{"PATH":"a"}`, "PATH", refuse.UnknownArgument},
	} {
		*got = nil
		if bres := callGo(t, bare, "read", c.args); !bres.IsError {
			t.Errorf("%s: the bare server serves it; the test expects go-sdk to refuse it", c.args)
		}
		wantGoRefused(t, reg, "read", c.args, callGo(t, cs, "read", c.args), c.arg, c.code)
		if len(*got) != 0 {
			t.Errorf("%s: the handler ran", c.args)
		}
	}
	// go-sdk's path rounds past 2^53: the guard says so.
	*got = nil
	wantGoWarned(t, reg, "read", `{"path":"a","id":9007199254740993}`, callGo(t, cs, "read", `{"path":"a","id":9007199254740993}`), refuse.RoundedNumber)
	if len(*got) != 1 || (*got)[0].ID != 9007199254740992 {
		t.Errorf("the handler got %+v, want go-sdk's rounding", *got)
	}
}

// TestGuarding_GoSDK_RegisterToolWithMCPAddTool_Disagrees holds the page's
// warning against adding gosdk.Register's tool with mcp.AddTool under
// InputPath: go-sdk validates against the registry's schema, InputPath
// against the one it infers, and the verdicts part. When this test fails,
// the two agree, and the page's warning can go.
func TestGuarding_GoSDK_RegisterToolWithMCPAddTool_Disagrees(t *testing.T) {
	start := func(opts ...typereg.Option) (*mcp.ClientSession, *typereg.Registry, *int) {
		ran := 0
		reg := typereg.New(typereg.WithBinder(gosdk.InputPath), typereg.WithJSONSchemaGo())
		server := mcp.NewServer(&mcp.Implementation{Name: "gopls", Version: "v0"}, nil)
		server.AddReceivingMiddleware(gosdk.Middleware(reg))
		tool, err := gosdk.Register(reg, &mcp.Tool{Name: "read"}, reflect.TypeFor[*ReadArgs](), opts...)
		if err != nil {
			t.Fatal(err)
		}
		mcp.AddTool(server, tool, func(context.Context, *mcp.CallToolRequest, *ReadArgs) (*mcp.CallToolResult, any, error) {
			ran++
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
		})
		return connectGo(t, server), reg, &ran
	}
	// null for a *int: the guard passes it, go-sdk refuses it in its words.
	cs, reg, ran := start()
	args := `{"path":"a","limit":null}`
	if res := callGo(t, cs, "read", args); refuse.Refuse(reg, "read", json.RawMessage(args)) != nil || !res.IsError || *ran != 0 {
		t.Errorf("%s: isError=%v, ran %d; the page says the guard passes it and go-sdk refuses it", args, res.IsError, *ran)
	}
	// Agreed: null for an optional int, 2^53+1, a case variant.
	for _, args := range []string{`{"path":"a","hours":null}`, `{"path":"a","id":9007199254740993}`, `{"PATH":"a"}`} {
		cs, reg, _ := start()
		res := callGo(t, cs, "read", args)
		if (refuse.Refuse(reg, "read", json.RawMessage(args)) != nil) != res.IsError {
			t.Errorf("%s: the guard and go-sdk part: isError=%v", args, res.IsError)
		}
	}
	// An open tool: go-sdk serves an extra key, the guard refuses it.
	cs, reg, _ = start(typereg.WithOpen())
	args = `{"path":"a","extra":1}`
	if res := callGo(t, cs, "read", args); refuse.Refuse(reg, "read", json.RawMessage(args)) == nil || !res.IsError {
		t.Errorf("%s: isError=%v; the page says the guard refuses it", args, res.IsError)
	}
	bareReg := typereg.New(typereg.WithBinder(gosdk.InputPath), typereg.WithJSONSchemaGo())
	tool, err := gosdk.Register(bareReg, &mcp.Tool{Name: "read"}, reflect.TypeFor[*ReadArgs](), typereg.WithOpen())
	if err != nil {
		t.Fatal(err)
	}
	bare := mcp.NewServer(&mcp.Implementation{Name: "gopls", Version: "v0"}, nil)
	mcp.AddTool(bare, tool, func(context.Context, *mcp.CallToolRequest, *ReadArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	if res := callGo(t, connectGo(t, bare), "read", args); res.IsError {
		t.Errorf("%s: the server without the middleware refuses it: %q; the page says it serves it", args, texts(res))
	}
}

// schemaServer is a github-mcp-server-style server: a tool with a
// hand-written schema whose handler reads the arguments as a map, and one
// with a keyword the guard does not check.
func schemaServer(served *[]string) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "github", Version: "v0"}, nil)
	handler := func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var m map[string]any
		if err := json.Unmarshal(req.Params.Arguments, &m); err != nil {
			return nil, err
		}
		*served = append(*served, string(req.Params.Arguments))
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil
	}
	one, hundred := 1.0, 100.0
	server.AddTool(&mcp.Tool{Name: "list_issues", InputSchema: &jsonschema.Schema{
		Type: "object",
		Properties: map[string]*jsonschema.Schema{
			"owner": {Type: "string"},
			"limit": {Type: "integer", Minimum: &one, Maximum: &hundred},
		},
		Required: []string{"owner"},
	}}, handler)
	server.AddTool(&mcp.Tool{Name: "search", InputSchema: &jsonschema.Schema{
		Type:       "object",
		Properties: map[string]*jsonschema.Schema{"q": {Type: "array", UnevaluatedItems: &jsonschema.Schema{Type: "string"}}},
	}}, handler)
	return server
}

// TestGuarding_GoSDK_ServerTools: tools declared by schema, one line.
func TestGuarding_GoSDK_ServerTools(t *testing.T) {
	var served []string
	server := schemaServer(&served)
	// snippet: guarding-gosdk-servertools
	reg := typereg.New()
	server.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools()))
	// end snippet
	cs := connectGo(t, server)

	const good = `{"owner":"bindguard","limit":5}`
	if res := callGo(t, cs, "list_issues", good); res.IsError || len(served) != 1 || served[0] != good {
		t.Fatalf("a good call: isError=%v, the handler got %q, want it byte for byte", res.IsError, served)
	}
	served = nil
	args := `{"owner":"bindguard","limit":0.5}`
	wantGoRefused(t, reg, "list_issues", args, callGo(t, cs, "list_issues", args), "limit", refuse.NotWholeNumber)
	if r := refuse.Refuse(reg, "list_issues", json.RawMessage(args)); !strings.Contains(r.Error(), "takes a whole number from 1 to 100") {
		t.Errorf("the refusal %q does not say what the page quotes", r.Error())
	}
	// An unknown key at the open root: served, and named as a warning.
	args = `{"owner":"bindguard","lmit":5}`
	wantGoWarned(t, reg, "list_issues", args, callGo(t, cs, "list_issues", args), refuse.UnknownArgument)
	if len(served) != 1 {
		t.Errorf("the open root's extra key: the handler ran %d times, want once", len(served))
	}
	// "2" for the integer: go-sdk's Server.AddTool validates nothing, so a
	// lenient handler would serve it; the guard holds the schema (Reject),
	// and Warn lets it run.
	served = nil
	args = `{"owner":"bindguard","limit":"2"}`
	wantGoRefused(t, reg, "list_issues", args, callGo(t, cs, "list_issues", args), "limit", refuse.WrongType)
	bare := connectGo(t, schemaServer(&served))
	if res := callGo(t, bare, "list_issues", args); res.IsError || len(served) != 1 {
		t.Errorf("the bare server: isError=%v, served %q; the page says it serves the call", res.IsError, served)
	}
	served = nil
	warnServer := schemaServer(&served)
	warnReg := typereg.New()
	warnServer.AddReceivingMiddleware(gosdk.Middleware(warnReg, gosdk.ServerTools(typereg.WithMode(typereg.Warn))))
	wantGoWarned(t, warnReg, "list_issues", args, callGo(t, connectGo(t, warnServer), "list_issues", args), refuse.WrongType)
	if len(served) != 1 {
		t.Errorf("Warn: the handler ran %d times, want once", len(served))
	}
}

// TestGuarding_GoSDK_ReportUnguarded: a tool whose schema holds unevaluatedItems is
// served as before, and reported.
func TestGuarding_GoSDK_ReportUnguarded(t *testing.T) {
	var logged bytes.Buffer
	prev := log.Writer()
	log.SetOutput(&logged)
	defer log.SetOutput(prev)
	var served []string
	server := schemaServer(&served)
	reg := typereg.New()
	// snippet: guarding-report-unguarded
	server.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools(),
		gosdk.ReportUnguarded(func(tool string, err error) {
			log.Printf("bindguard: %s is not guarded: %v", tool, err)
		})))
	// end snippet
	cs := connectGo(t, server)
	if res := callGo(t, cs, "search", `{"q":1}`); res.IsError || len(served) != 1 {
		t.Fatalf("the unguarded tool: isError=%v, served %q; want it served as before", res.IsError, served)
	}
	if out := logged.String(); !strings.Contains(out, "bindguard: search is not guarded: ") || !strings.Contains(out, "unevaluatedItems") {
		t.Errorf("logged %q, want the tool and the keyword", out)
	}
}

type ReadFile struct {
	Path string `json:"path"`
}

// A dispatcher of its own: JSON-RPC frames in, frames out, no SDK.
type dispatcher struct {
	reg *typereg.Registry
	got []ReadFile
}

// start records the tools, as the server does at start-up.
func (s *dispatcher) start() error {
	// snippet: guarding-dispatcher-register
	reg := typereg.New()
	if err := typereg.Register[ReadFile](reg, "read_file"); err != nil {
		return err // a field the binder cannot decode into, named
	}
	// end snippet
	s.reg = reg
	return nil
}

// call runs one tools/call; a refusal comes back as the error.
func (s *dispatcher) call(name string, args json.RawMessage) error {
	reg := s.reg
	toolError := func(r *refuse.Refusal) error { return r }
	// snippet: guarding-dispatcher-decide
	d := refuse.Decide(reg, name, args)
	if d.Refusal != nil {
		return toolError(d.Refusal) // d.Refusal.Error() is the text the model reads
	}
	var in ReadFile
	if err := json.Unmarshal(d.Args, &in); err != nil { // d.Args: aliases renamed
		return err
	}
	// end snippet
	s.got = append(s.got, in)
	return nil
}

// serve answers a JSON-RPC tools/call frame.
func (s *dispatcher) serve(frame []byte) []byte {
	var req struct {
		ID     json.RawMessage `json:"id"`
		Params struct {
			Name      string          `json:"name"`
			Arguments json.RawMessage `json:"arguments"`
		} `json:"params"`
	}
	if err := json.Unmarshal(frame, &req); err != nil {
		return []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}`)
	}
	result := map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}}
	if err := s.call(req.Params.Name, req.Params.Arguments); err != nil {
		result = map[string]any{"isError": true, "content": []any{map[string]any{"type": "text", "text": err.Error()}}}
	}
	out, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": result})
	return out
}

func TestGuarding_Dispatcher(t *testing.T) {
	s := &dispatcher{}
	if err := s.start(); err != nil {
		t.Fatal(err)
	}
	answer := func(args string) (isError bool, text string) {
		var r struct {
			Result struct {
				IsError bool `json:"isError"`
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		out := s.serve([]byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read_file","arguments":` + args + `}}`))
		if err := json.Unmarshal(out, &r); err != nil || len(r.Result.Content) != 1 {
			t.Fatalf("answer %s: %v", out, err)
		}
		return r.Result.IsError, r.Result.Content[0].Text
	}
	if isErr, _ := answer(`{"path":"a.txt"}`); isErr || len(s.got) != 1 || s.got[0].Path != "a.txt" {
		t.Fatalf("a good call: isError=%v, the handler got %+v", isErr, s.got)
	}
	isErr, text := answer(`{"path":["a.txt"]}`)
	want := refuse.Refuse(s.reg, "read_file", json.RawMessage(`{"path":["a.txt"]}`))
	var r *refuse.Refusal
	if !isErr || want == nil || text != want.Error() || !errors.As(s.call("read_file", json.RawMessage(`{"path":["a.txt"]}`)), &r) || r.Problems[0].Code != refuse.WrongType {
		t.Errorf("a bad call: isError=%v %q, want the refusal %v", isErr, text, want)
	}
	if len(s.got) != 1 {
		t.Errorf("the handler ran on a refused call: %+v", s.got)
	}
}
