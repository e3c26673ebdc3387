package gosdk_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// A server built as github-mcp-server is: each tool declared with a
// hand-written *jsonschema.Schema, its handler reading a map.
type mapServer struct {
	mu   sync.Mutex
	got  map[string][]json.RawMessage // per tool, the arguments each run got
	srv  *mcp.Server
	tool map[string]*mcp.Tool
}

func newMapServer() *mapServer {
	m := &mapServer{got: map[string][]json.RawMessage{}, srv: newServer(), tool: map[string]*mcp.Tool{}}
	m.add(&mcp.Tool{
		Name:        "list_issues",
		Description: "List issues in a GitHub repository.",
		InputSchema: &jsonschema.Schema{
			Type: "object",
			Properties: map[string]*jsonschema.Schema{
				"owner":   {Type: "string", Description: "Repository owner"},
				"repo":    {Type: "string", Description: "Repository name"},
				"state":   {Type: "string", Enum: []any{"open", "closed", "all"}},
				"labels":  {Type: "array", Items: &jsonschema.Schema{Type: "string"}},
				"perPage": {Type: "number", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(100.0)},
				"limit":   {Type: "integer", Minimum: jsonschema.Ptr(1.0), Maximum: jsonschema.Ptr(100.0)},
			},
			Required: []string{"owner", "repo"},
		},
	})
	return m
}

func (m *mapServer) add(t *mcp.Tool) {
	m.tool[t.Name] = t
	m.srv.AddTool(t, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args map[string]any
		if err := json.Unmarshal(req.Params.Arguments, &args); err != nil {
			return nil, err
		}
		owner, _ := args["owner"].(string)
		m.mu.Lock()
		m.got[req.Params.Name] = append(m.got[req.Params.Name], append(json.RawMessage(nil), req.Params.Arguments...))
		m.mu.Unlock()
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "issues of " + owner}}}, nil
	})
}

func (m *mapServer) runs(tool string) []json.RawMessage {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.got[tool]
}

func TestMiddleware_ServerTools_GuardsSchemaOnlyTools(t *testing.T) {
	m := newMapServer()
	reg := typereg.New()
	m.srv.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools()))
	cs := connect(t, m.srv)

	good := `{"owner":"octo","repo":"hello","state":"open","labels":["bug"],"perPage":2.5,"limit":1e1}`
	res := callRaw(t, cs, "list_issues", good)
	if res.IsError || text(t, res) != "issues of octo" {
		t.Fatalf("a call the server serves: %+v", res)
	}
	if got := m.runs("list_issues"); len(got) != 1 || string(got[0]) != string(wire(t, good)) {
		t.Fatalf("the handler got %s, want the call's own arguments %s", got, good)
	}

	for _, c := range []struct{ args, says string }{
		{`{"owner":"octo","repo":"hello","limit":0.5}`, "Argument 'limit' for tool 'list_issues' takes a whole number from 1 to 100, and the call sent 0.5."},
		{`{"owner":"octo","repo":"hello","state":"merged"}`, "Argument 'state' for tool 'list_issues' takes one of open, closed, all"},
		{`{"owner":"octo"}`, "Argument 'repo' for tool 'list_issues' is required"},
		{`{"owner":"octo","repo":"hello","labels":"bug"}`, "Argument 'labels' for tool 'list_issues' takes a list (a JSON array) of texts"},
	} {
		res := callRaw(t, cs, "list_issues", c.args)
		r := wantRefusal(t, reg, "list_issues", wire(t, c.args), res, false)
		if !strings.Contains(r.Error(), c.says) {
			t.Errorf("%s: refusal %q does not say %q", c.args, r.Error(), c.says)
		}
	}
	if n := len(m.runs("list_issues")); n != 1 {
		t.Errorf("the handler ran %d times; refused calls must not run it", n)
	}

	// The schema leaves the root open: the server serves a key no property
	// names, and reads nothing from it. The call goes on, warned.
	res = callRaw(t, cs, "list_issues", `{"owner":"octo","repo":"hello","per_page":5}`)
	if res.IsError || !strings.Contains(allText(res), "did you mean 'perPage'?") {
		t.Errorf("a misspelt key at an open root: %+v, want the handler's result with a warning naming perPage", res)
	}
	if n := len(m.runs("list_issues")); n != 2 {
		t.Errorf("the handler ran %d times, want 2: a call the server serves is never refused", n)
	}
}

func TestMiddleware_ServerTools_FollowsToolsAddedReplacedAndRemoved(t *testing.T) {
	m := newMapServer()
	reg := typereg.New()
	m.srv.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools()))
	cs := connect(t, m.srv)
	if res := callRaw(t, cs, "list_issues", `{"owner":"o","repo":"r","limit":0}`); !res.IsError {
		t.Fatal("limit 0 passed")
	}

	// Added after start.
	m.add(&mcp.Tool{Name: "get_me", InputSchema: json.RawMessage(`{"type":"object","properties":{"reason":{"type":"string","maxLength":5}}}`)})
	if res := callRaw(t, cs, "get_me", `{"reason":"too long"}`); !res.IsError || !strings.Contains(text(t, res), "text of at most 5 characters") {
		t.Errorf("a tool added after start: %+v", res)
	}
	// Replaced: the new schema takes limit 0.
	m.add(&mcp.Tool{Name: "list_issues", InputSchema: &jsonschema.Schema{Type: "object", Properties: map[string]*jsonschema.Schema{
		"owner": {Type: "string"}, "repo": {Type: "string"}, "limit": {Type: "integer", Minimum: jsonschema.Ptr(0.0)},
	}}})
	if res := callRaw(t, cs, "list_issues", `{"owner":"o","repo":"r","limit":0}`); res.IsError {
		t.Errorf("after the tool was replaced, a call its new schema takes: %+v", res)
	}
	// Removed: no record is left to guard a tool the server no longer has.
	m.srv.RemoveTools("get_me")
	if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_me", Arguments: map[string]any{}}); err == nil {
		t.Errorf("a removed tool answered")
	}
	if _, ok := reg.Tool("get_me"); ok {
		t.Errorf("the record of a removed tool stayed")
	}
}

type statsIn struct {
	Limit int `json:"limit"`
}

func TestMiddleware_ServerTools_KeepsStructRecords(t *testing.T) {
	m := newMapServer()
	reg := typereg.New()
	var rec recorder[statsIn]
	if err := gosdk.AddTool(m.srv, reg, &mcp.Tool{Name: "stats"}, rec.handler); err != nil {
		t.Fatal(err)
	}
	m.srv.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools(typereg.WithMode(typereg.Warn))))
	cs := connect(t, m.srv)
	res := callRaw(t, cs, "stats", `{"limit":0.5}`)
	r := wantRefusal(t, reg, "stats", wire(t, `{"limit":0.5}`), res, false) // the middleware refuses first
	if r.Problems[0].Code != refuse.NotWholeNumber {
		t.Errorf("the struct tool's own record: %v", r)
	}
	if tl, _ := reg.Tool("stats"); tl.Type() != reflect.TypeFor[statsIn]() {
		t.Errorf("the struct record was replaced by a schema record")
	}
	// The schema tool gets the option's mode: Warn runs the handler.
	res = callRaw(t, cs, "list_issues", `{"owner":"o","repo":"r","limit":0.5}`)
	if res.IsError {
		t.Errorf("under Warn the handler runs: %+v", res)
	}
}

func TestMiddleware_ServerTools_UncheckableSchemaIsReported(t *testing.T) {
	m := newMapServer()
	m.add(&mcp.Tool{Name: "search", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"array","unevaluatedItems":{"type":"string"}}}}`)})
	reg := typereg.New()
	var mu sync.Mutex
	var reported []string
	m.srv.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools(), gosdk.ReportUnguarded(func(tool string, err error) {
		mu.Lock()
		defer mu.Unlock()
		reported = append(reported, tool+": "+err.Error())
	})))
	cs := connect(t, m.srv)
	if res := callRaw(t, cs, "search", `{"q":"abcd"}`); res.IsError {
		t.Errorf("a tool the guard cannot check is served as before: %+v", res)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(reported) != 1 || !strings.Contains(reported[0], `"unevaluatedItems"`) || !strings.Contains(reported[0], "/properties/q") {
		t.Errorf("reported %q, want the keyword and where it is", reported)
	}
}

// Calls in flight while the tool is replaced (run with -race): each call
// is judged by one definition or the other, whole.
func TestMiddleware_ServerTools_ToolReplacedDuringCalls(t *testing.T) {
	m := newMapServer()
	reg := typereg.New()
	m.srv.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools()))
	cs := connect(t, m.srv)
	strict := &mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","maximum":1}}}`)}
	loose := &mcp.Tool{Name: "echo", InputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`)}
	m.add(strict)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			m.add([]*mcp.Tool{strict, loose}[i%2])
		}
	}()
	var calls sync.WaitGroup
	for range 4 {
		calls.Add(1)
		go func() {
			defer calls.Done()
			for range 25 {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: json.RawMessage(`{"n":2}`)})
				if err != nil {
					t.Error(err)
					return
				}
				if res.IsError && !strings.Contains(text(t, res), "takes a whole number of at most 1") {
					t.Errorf("a refusal not in the strict schema's words: %s", text(t, res))
				}
			}
		}()
	}
	calls.Wait()
	close(stop)
	wg.Wait()
}

type inferredFilter struct {
	Owner string `json:"owner"`
	Since *int   `json:"since,omitempty"`
}

type inferredIn struct {
	Owner  string            `json:"owner" jsonschema:"the owner"`
	Labels []string          `json:"labels,omitempty"`
	Page   *int              `json:"page,omitempty"`
	Filter *inferredFilter   `json:"filter,omitempty"`
	Others []inferredFilter  `json:"others,omitempty"`
	ByName map[string]string `json:"by_name,omitempty"`
}

// A tool added with go-sdk's own mcp.AddTool is recorded from the schema
// go-sdk inferred (nested structs, type lists with null, maps): nothing is left unguarded, and its calls pass or are refused
// by that schema before go-sdk's own validation sees them.
func TestMiddleware_ServerTools_RecordsInferredSchemas(t *testing.T) {
	s := newServer()
	var ran atomic.Int32
	mcp.AddTool(s, &mcp.Tool{Name: "typed"}, func(_ context.Context, _ *mcp.CallToolRequest, in inferredIn) (*mcp.CallToolResult, any, error) {
		ran.Add(1)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: in.Owner}}}, nil, nil
	})
	reg := typereg.New()
	var unguarded []string
	s.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools(), gosdk.ReportUnguarded(func(tool string, err error) {
		unguarded = append(unguarded, tool+": "+err.Error())
	})))
	cs := connect(t, s)
	if res := callRaw(t, cs, "typed", `{"owner":"o","labels":null,"page":2,"filter":{"owner":"p","since":null},"others":[{"owner":"q"}],"by_name":{"a":"b"}}`); res.IsError {
		t.Errorf("a call go-sdk serves: %+v", text(t, res))
	}
	res := callRaw(t, cs, "typed", `{"owner":"o","filter":{"owner":1}}`)
	if !res.IsError || !strings.Contains(text(t, res), "Argument 'filter' for tool 'typed'") {
		t.Errorf("a wrong type inside: %+v", res)
	}
	if len(unguarded) > 0 {
		t.Errorf("unguarded: %q", unguarded)
	}
	if n := ran.Load(); n != 1 {
		t.Errorf("the handler ran %d times, want 1", n)
	}
}

// allText joins the text of every content block of res.
func allText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text + "\n")
		}
	}
	return b.String()
}
