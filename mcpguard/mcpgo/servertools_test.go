package mcpgo_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/typereg"
)

// fsServer is a server built as mcp-filesystem-server is: tools made with
// mcp.NewTool and parameter options, handlers reading the arguments with
// request.RequireString and friends.
type fsServer struct {
	srv  *server.MCPServer
	mu   sync.Mutex
	runs []string // "tool path lines"
}

func newFSServer(reg *typereg.Registry, opts ...mcpgo.MiddlewareOption) *fsServer {
	f := &fsServer{}
	f.srv = server.NewMCPServer("fs", "v0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg, opts...)))
	f.srv.AddTool(mcp.NewTool("read_file",
		mcp.WithDescription("Read a file."),
		mcp.WithString("path", mcp.Required(), mcp.Description("Path to the file")),
	), f.handle)
	f.srv.AddTool(mcp.NewTool("head_file",
		mcp.WithString("path", mcp.Required()),
		mcp.WithNumber("lines", mcp.Min(1.0), mcp.Max(1000.0)),
		mcp.WithString("encoding", mcp.Enum("utf-8", "latin1")),
	), f.handle)
	return f
}

func (f *fsServer) handle(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	path, err := req.RequireString("path")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	lines := req.GetInt("lines", 10)
	f.mu.Lock()
	f.runs = append(f.runs, req.Params.Name+" "+path+" "+string(rune('0'+lines%10)))
	f.mu.Unlock()
	return mcp.NewToolResultText("read " + path), nil
}

func (f *fsServer) ran() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.runs)
}

func TestMiddleware_ServerTools_GuardsNewToolOptions(t *testing.T) {
	reg := typereg.New()
	f := newFSServer(reg, mcpgo.ServerTools())
	for _, good := range []string{`{"path":"/tmp/a"}`, `{"path":"/tmp/a","lines":2.5,"encoding":"latin1"}`} {
		r := send(t, f.srv, callFrame("head_file", good))
		if r.Result.IsError || r.text(t) != "read /tmp/a" {
			t.Errorf("%s: a call the server serves: %+v", good, r)
		}
	}
	if f.ran() != 2 {
		t.Fatalf("the handler ran %d times, want 2", f.ran())
	}
	for _, c := range []struct{ tool, args, says string }{
		{"read_file", `{}`, "Argument 'path' for tool 'read_file' is required, and the call did not send it: it takes text."},
		{"read_file", `{"path":7}`, "Argument 'path' for tool 'read_file' takes text, and the call sent 7."},
		{"head_file", `{"path":"a","lines":0}`, "Argument 'lines' for tool 'head_file' takes a number from 1 to 1000, and the call sent 0."},
		{"head_file", `{"path":"a","encoding":"utf8"}`, "takes one of utf-8, latin1"},
	} {
		r := send(t, f.srv, callFrame(c.tool, c.args))
		if !r.Result.IsError || !strings.Contains(r.text(t), c.says) {
			t.Errorf("%s %s: %+v, want a refusal saying %q", c.tool, c.args, r.Result, c.says)
		}
	}
	if f.ran() != 2 {
		t.Errorf("refused calls ran the handler (%d runs)", f.ran())
	}
	// The schema leaves the root open: the server serves a key no property
	// names, and reads nothing from it. The call goes on, warned.
	r := send(t, f.srv, callFrame("head_file", `{"path":"a","line":5}`))
	var said strings.Builder
	for _, c := range r.Result.Content {
		said.WriteString(c.Text + "\n")
	}
	if r.Result.IsError || !strings.Contains(said.String(), "did you mean 'lines'?") || f.ran() != 3 {
		t.Errorf("a misspelt key at an open root: %+v (%d runs), want the handler's result with a warning naming lines", r.Result, f.ran())
	}
}

func TestMiddleware_ServerTools_FollowsToolsAddedAndRemoved(t *testing.T) {
	reg := typereg.New()
	f := newFSServer(reg, mcpgo.ServerTools())
	raw := mcp.NewToolWithRawSchema("stat", "", json.RawMessage(`{"type":"object","properties":{"path":{"type":"string","minLength":1}},"required":["path"]}`))
	f.srv.AddTool(raw, f.handle)
	if r := send(t, f.srv, callFrame("stat", `{"path":""}`)); !r.Result.IsError || !strings.Contains(r.text(t), "text of at least 1 character") {
		t.Errorf("a tool with a raw schema, added after start: %+v", r.Result)
	}
	// Replaced with a schema that takes the empty path.
	f.srv.AddTool(mcp.NewTool("stat", mcp.WithString("path")), f.handle)
	if r := send(t, f.srv, callFrame("stat", `{"path":""}`)); r.Result.IsError {
		t.Errorf("after the tool was replaced: %+v", r.Result)
	}
	// Deleted, then added again with another schema: mcp-go answers the
	// calls in between itself; the next call is judged by the new schema.
	f.srv.DeleteTools("stat")
	if r := send(t, f.srv, callFrame("stat", `{"path":""}`)); r.Error == nil {
		t.Errorf("a deleted tool answered: %+v", r.Result)
	}
	f.srv.AddTool(mcp.NewTool("stat", mcp.WithString("path", mcp.MaxLength(1))), f.handle)
	if r := send(t, f.srv, callFrame("stat", `{"path":"ab"}`)); !r.Result.IsError || !strings.Contains(r.text(t), "at most 1 character") {
		t.Errorf("a tool added again: %+v", r.Result)
	}
}

func TestMiddleware_WithoutServerTools_GuardsOnlyWhatWasRegistered(t *testing.T) {
	reg := typereg.New()
	f := newFSServer(reg)
	if r := send(t, f.srv, callFrame("read_file", `{"path":7}`)); r.text(t) != "argument \"path\" is not a string" {
		t.Errorf("without the option the server answers alone: %+v", r.Result)
	}
}

// A number read with RequireInt: published as an integer, the fraction
// RequireInt would truncate is refused by name.
func TestMiddleware_ServerTools_IntegerParameterRefusesTheFraction(t *testing.T) {
	reg := typereg.New()
	f := newFSServer(reg, mcpgo.ServerTools())
	f.srv.AddTool(mcp.NewTool("tail_file", mcp.WithString("path", mcp.Required()), mcp.WithInteger("lines", mcp.Min(1.0))), func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		n, err := req.RequireInt("lines")
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		return mcp.NewToolResultText(strings.Repeat("x", n)), nil
	})
	r := send(t, f.srv, callFrame("tail_file", `{"path":"a","lines":0.5}`))
	const says = "Argument 'lines' for tool 'tail_file' takes a whole number of at least 1, and the call sent 0.5."
	if !r.Result.IsError || !strings.Contains(r.text(t), says) {
		t.Errorf("%+v, want a refusal saying %q", r.Result, says)
	}
	if r := send(t, f.srv, callFrame("tail_file", `{"path":"a","lines":2.0}`)); r.Result.IsError || r.text(t) != "xx" {
		t.Errorf("2.0 is a whole number: %+v", r.Result)
	}
}

// mcp-filesystem-server's pattern, WithNumber read by GetInt: the guard
// cannot know the accessor, so the owner says it, and the fraction GetInt
// truncates is named (a warning; refused when Strict).
func TestMiddleware_ServerTools_IntReadsNameWhatGetIntTruncates(t *testing.T) {
	reg := typereg.New()
	f := newFSServer(reg, mcpgo.ServerTools(typereg.WithIntReads("lines"), typereg.WithStrict(true)))
	r := send(t, f.srv, callFrame("head_file", `{"path":"a","lines":2.5}`))
	const says = "Argument 'lines' for tool 'head_file' takes a number from 1 to 1000, and the call sent 2.5, which the tool reads as 2."
	if !r.Result.IsError || !strings.Contains(r.text(t), says) {
		t.Errorf("%+v, want a refusal saying %q", r.Result, says)
	}
	if r := send(t, f.srv, callFrame("head_file", `{"path":"a","lines":3}`)); r.Result.IsError {
		t.Errorf("a whole number: %+v", r.Result)
	}
	if f.ran() != 1 {
		t.Errorf("the handler ran %d times, want 1", f.ran())
	}
}

// Every shape of tool mcp-filesystem-server declares is recorded: strings,
// a number, a boolean, an array without items, a tool without parameters.
func TestMiddleware_ServerTools_RecordsEveryFilesystemShape(t *testing.T) {
	reg := typereg.New()
	var mu sync.Mutex
	var unguarded []string
	f := newFSServer(reg, mcpgo.ServerTools(), mcpgo.ReportUnguarded(func(tool string, err error) {
		mu.Lock()
		defer mu.Unlock()
		unguarded = append(unguarded, tool+": "+err.Error())
	}))
	ok := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	}
	f.srv.AddTool(mcp.NewTool("read_multiple_files", mcp.WithArray("paths", mcp.Required())), ok)
	f.srv.AddTool(mcp.NewTool("tree", mcp.WithString("path", mcp.Required()), mcp.WithNumber("depth"), mcp.WithBoolean("follow_symlinks")), ok)
	f.srv.AddTool(mcp.NewTool("list_allowed_directories", mcp.WithDescription("Lists them.")), ok)
	for _, c := range []struct{ tool, good, bad string }{
		{"read_multiple_files", `{"paths":["a",1]}`, `{"paths":"a"}`},
		{"tree", `{"path":"a","depth":2,"follow_symlinks":false}`, `{"path":"a","follow_symlinks":"yes"}`},
		{"list_allowed_directories", `{}`, `[]`},
	} {
		if r := send(t, f.srv, callFrame(c.tool, c.good)); r.Result.IsError {
			t.Errorf("%s %s: %+v", c.tool, c.good, r.Result)
		}
		if r := send(t, f.srv, callFrame(c.tool, c.bad)); !r.Result.IsError || !strings.Contains(r.text(t), "for tool '"+c.tool+"'") {
			t.Errorf("%s %s: %+v, want a named refusal", c.tool, c.bad, r.Result)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(unguarded) > 0 {
		t.Errorf("tools left unguarded: %q", unguarded)
	}
}
