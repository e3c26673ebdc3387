package gosdk_test

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// connect starts a session of s over in-memory transports and returns the
// client's end; both close when the test ends.
func connect(t testing.TB, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bindguard-test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		ss.Wait()
	})
	return cs
}

func newServer() *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "bindguard-test", Version: "v0"}, nil)
}

// callRaw calls tool with args sent as the JSON text given (the client
// compacts it; see wire).
func callRaw(t testing.TB, cs *mcp.ClientSession, tool, args string) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatalf("tools/call %s %s: %v", tool, args, err)
	}
	return res
}

// wire is args as the go-sdk client sends them: compacted, with no HTML
// escaping.
func wire(t testing.TB, args string) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(args)); err != nil {
		t.Fatalf("compacting %s: %v", args, err)
	}
	return b.Bytes()
}

// text returns the text of a result's only content block.
func text(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("result has %d content blocks, want 1: %+v", len(res.Content), res.Content)
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("content is %T, want *mcp.TextContent", res.Content[0])
	}
	return tc.Text
}

// wantRefusal requires res to be the guard's refusal of args for tool, as
// refuse.Refuse words it: isError, its text as the only content, and, when
// structured, the refusal itself as structuredContent (else none). It
// returns the refusal.
func wantRefusal(t testing.TB, reg *typereg.Registry, tool string, args []byte, res *mcp.CallToolResult, structured bool) *refuse.Refusal {
	t.Helper()
	want := refuse.Refuse(reg, tool, args)
	if want == nil {
		t.Fatalf("refuse.Refuse passes %s: the test expects a refusal", args)
	}
	if !res.IsError {
		t.Errorf("isError is false for a refused call")
	}
	if got := text(t, res); got != want.Error() {
		t.Errorf("content text:\n%s\nwant the refusal's text:\n%s", got, want.Error())
	}
	if !structured {
		if res.StructuredContent != nil {
			t.Errorf("structuredContent = %v, want none", res.StructuredContent)
		}
		return want
	}
	raw, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var got refuse.Refusal
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatalf("structuredContent %s is not a refusal: %v", raw, err)
	}
	if diff := cmp.Diff(want, &got); diff != "" {
		t.Errorf("structuredContent (-want +got):\n%s", diff)
	}
	return want
}

// A recorder is a tool handler's memory: how often it ran, and what it got
// last.
type recorder[In any] struct {
	mu   sync.Mutex
	runs int
	args json.RawMessage
	in   In
}

func (r *recorder[In]) record(req *mcp.CallToolRequest, in In) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.runs++
	r.args = append(json.RawMessage(nil), req.Params.Arguments...)
	r.in = in
}

// handler is a typed tool handler that records its call and returns
// nothing.
func (r *recorder[In]) handler(_ context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, any, error) {
	r.record(req, in)
	return nil, nil, nil
}

func (r *recorder[In]) last() (runs int, args json.RawMessage, in In) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.runs, r.args, r.in
}

// paramFor finds the probe parameter a row's type names, by bindtest's rule.
func paramFor(tool *typereg.Tool, rowType string) (typereg.Param, bool) {
	p, err := bindtest.ParamFor(tool, rowType)
	return p, err == nil
}

// short cuts s to n characters for a subtest name.
func short(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
