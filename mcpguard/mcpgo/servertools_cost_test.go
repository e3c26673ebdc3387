package mcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/typereg"
)

// countedSchema is a property schema that counts how often it is read
// (marshalled): each read is a walk of the tool's schema.
type countedSchema struct{ reads *atomic.Int64 }

func (c countedSchema) MarshalJSON() ([]byte, error) {
	c.reads.Add(1)
	return []byte(`{"type":"integer","maximum":1}`), nil
}

// A call's cost does not grow with the tools the server has, nor with the
// calls before it: calling one tool N times reads its schema once, on a
// server with 1 tool as on one with 1,000.
func TestMiddleware_ServerTools_CallCostDoesNotGrowWithTheServer(t *testing.T) {
	const calls = 20
	reads := func(tools int) int64 {
		var n atomic.Int64
		reg := typereg.New()
		s := server.NewMCPServer("big", "v0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg, mcpgo.ServerTools())))
		ok := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ok"), nil
		}
		counted := mcp.NewTool("t0")
		counted.InputSchema.Properties = map[string]any{"n": countedSchema{&n}}
		s.AddTool(counted, ok)
		for i := 1; i < tools; i++ {
			s.AddTool(mcp.NewTool(fmt.Sprintf("t%d", i), mcp.WithString("path")), ok)
		}
		for i := range calls {
			r := send(t, s, callFrame("t0", `{"n":2}`))
			if !r.Result.IsError || !strings.Contains(r.text(t), "at most 1") {
				t.Fatalf("call %d on %d tools: %+v, want the refusal", i, tools, r.Result)
			}
			if i == 0 {
				n.Store(0) // the first call records the tool: one read
			}
		}
		return n.Load()
	}
	if one, many := reads(1), reads(1000); one != 0 || many != 0 {
		t.Errorf("after the first call, %d more calls read the schema %d times on 1 tool, %d times on 1,000; want 0", calls-1, one, many)
	}
}

// A tool the server deletes is forgotten: mcp-go answers its calls itself,
// before any middleware, so the record goes as the middleware serves other
// calls, within as many calls as it holds records.
func TestMiddleware_ServerTools_ForgetsDeletedTools(t *testing.T) {
	reg := typereg.New()
	f := newFSServer(reg, mcpgo.ServerTools())
	var names []string
	for i := range 10 {
		name := fmt.Sprintf("gone_%d", i)
		names = append(names, name)
		f.srv.AddTool(mcp.NewToolWithRawSchema(name, "", json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}}}`)), f.handle)
		if r := send(t, f.srv, callFrame(name, `{"path":1}`)); !r.Result.IsError {
			t.Fatalf("%s: %+v, want a refusal", name, r.Result)
		}
		if _, ok := reg.Tool(name); !ok {
			t.Fatalf("%s was not recorded", name)
		}
	}
	f.srv.DeleteTools(names...)
	for range len(names) + 2 {
		if r := send(t, f.srv, callFrame("read_file", `{"path":"a"}`)); r.Result.IsError {
			t.Fatalf("read_file: %+v", r.Result)
		}
	}
	for _, name := range names {
		if _, ok := reg.Tool(name); ok {
			t.Errorf("the record of deleted %s stayed", name)
		}
	}
	if _, ok := reg.Tool("read_file"); !ok {
		t.Errorf("the record of a tool still served went")
	}
	// Added again: recorded anew from its new schema.
	f.srv.AddTool(mcp.NewTool(names[0], mcp.WithString("path", mcp.MaxLength(1))), f.handle)
	if r := send(t, f.srv, callFrame(names[0], `{"path":"ab"}`)); !r.Result.IsError || !strings.Contains(r.text(t), "at most 1 character") {
		t.Errorf("a tool added again: %+v", r.Result)
	}
}

// Tools deleted and added again while calls are in flight (run with
// -race): a call of the tool is refused in the words of its one schema,
// answered by mcp-go as unknown, or served; the other tool's calls are
// served throughout, and once the churn stops with the tool deleted its
// record goes.
func TestMiddleware_ServerTools_ToolsDeletedDuringCalls(t *testing.T) {
	reg := typereg.New()
	f := newFSServer(reg, mcpgo.ServerTools())
	flip := mcp.NewToolWithRawSchema("flip", "", json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer","maximum":1}}}`))
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				f.srv.DeleteTools("flip")
				return
			default:
			}
			if i%2 == 0 {
				f.srv.AddTool(flip, f.handle)
			} else {
				f.srv.DeleteTools("flip")
			}
		}
	}()
	var refused atomic.Int64
	var calls sync.WaitGroup
	for range 4 {
		calls.Add(1)
		go func() {
			defer calls.Done()
			// 50 calls, and more (up to 5,000) until one meets flip
			// added: the adder may not have run yet when 50 are done.
			for i := 0; i < 50 || refused.Load() == 0 && i < 5000; i++ {
				r := send(t, f.srv, callFrame("flip", `{"n":2}`))
				switch {
				case r.Error != nil: // mcp-go: no such tool
				case r.Result.IsError && strings.Contains(r.text(t), "takes a whole number of at most 1"):
					refused.Add(1)
				case r.Result.IsError && r.text(t) == `required argument "path" not found`:
					// The handler's own answer: the tool was deleted between
					// mcp-go's lookup and the middleware's, after its record
					// was forgotten, so the call went on unguarded.
				default:
					t.Errorf("flip: %+v %q", r, r.text(t))
					return
				}
				if r := send(t, f.srv, callFrame("read_file", `{"path":"a"}`)); r.Result == nil || r.Result.IsError {
					t.Errorf("read_file: %+v", r)
					return
				}
			}
		}()
	}
	calls.Wait()
	close(stop)
	<-done
	if refused.Load() == 0 {
		t.Errorf("no call of flip was refused")
	}
	for range 4 {
		send(t, f.srv, callFrame("read_file", `{"path":"a"}`))
	}
	if _, ok := reg.Tool("flip"); ok {
		t.Errorf("the record of deleted flip stayed")
	}
}

// toolSession is a session with tools of its own (SessionWithTools), as
// mcp-go's transports make them.
type toolSession struct {
	id    string
	mu    sync.Mutex
	tools map[string]server.ServerTool
	ch    chan mcp.JSONRPCNotification
}

func (s *toolSession) Initialize()                                         {}
func (s *toolSession) Initialized() bool                                   { return true }
func (s *toolSession) NotificationChannel() chan<- mcp.JSONRPCNotification { return s.ch }
func (s *toolSession) SessionID() string                                   { return s.id }
func (s *toolSession) GetSessionTools() map[string]server.ServerTool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tools
}
func (s *toolSession) SetSessionTools(tools map[string]server.ServerTool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tools = tools
}

// A session's own tool is guarded by its schema on that session's calls,
// and its record is not swept by other calls, which cannot see the tool.
func TestMiddleware_ServerTools_SessionTools(t *testing.T) {
	reg := typereg.New()
	f := newFSServer(reg, mcpgo.ServerTools())
	sess := &toolSession{id: "s1", ch: make(chan mcp.JSONRPCNotification, 16)}
	if err := f.srv.RegisterSession(context.Background(), sess); err != nil {
		t.Fatal(err)
	}
	if err := f.srv.AddSessionTool("s1", mcp.NewTool("probe", mcp.WithString("path", mcp.MaxLength(1))), f.handle); err != nil {
		t.Fatal(err)
	}
	ctx := f.srv.WithContext(context.Background(), sess)
	inSession := func(args string) reply {
		t.Helper()
		out, err := json.Marshal(f.srv.HandleMessage(ctx, callFrame("probe", args)))
		if err != nil {
			t.Fatal(err)
		}
		var r reply
		if err := json.Unmarshal(out, &r); err != nil || r.Result == nil {
			t.Fatalf("%s: %s (%v)", args, out, err)
		}
		return r
	}
	if r := inSession(`{"path":"ab"}`); !r.Result.IsError || !strings.Contains(r.text(t), "at most 1 character") {
		t.Errorf("a session tool: %+v, want its schema's refusal", r.Result)
	}
	for range 6 { // calls without the session: they sweep the records
		send(t, f.srv, callFrame("read_file", `{"path":"a"}`))
	}
	if _, ok := reg.Tool("probe"); !ok {
		t.Errorf("the session tool's record was swept by calls that cannot see it")
	}
	if r := inSession(`{"path":"a"}`); r.Result.IsError {
		t.Errorf("a call the session tool serves: %+v", r.Result)
	}
}
