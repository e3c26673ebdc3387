package gosdk_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// pipelineServers are two servers with the same tool added with plain
// mcp.AddTool: one bare, one guarded by Middleware with a registry whose
// binder is gosdk.InputPath.
func pipelineServers(t testing.TB, opts ...typereg.Option) (reg *typereg.Registry, bare, guarded *mcp.ClientSession, bareRec, guardedRec *recorder[statsArgs]) {
	t.Helper()
	reg = typereg.New(append([]typereg.Option{typereg.WithBinder(gosdk.InputPath)}, opts...)...)
	if err := typereg.Register[statsArgs](reg, "stats"); err != nil {
		t.Fatal(err)
	}
	bareRec, guardedRec = new(recorder[statsArgs]), new(recorder[statsArgs])
	add := func(s *mcp.Server, r *recorder[statsArgs]) {
		mcp.AddTool(s, &mcp.Tool{Name: "stats"}, func(ctx context.Context, req *mcp.CallToolRequest, in statsArgs) (*mcp.CallToolResult, statsOut, error) {
			r.record(req, in)
			return nil, statsOut{Rows: in.HoursBack}, nil
		})
	}
	sb, sg := newServer(), newServer()
	add(sb, bareRec)
	add(sg, guardedRec)
	sg.AddReceivingMiddleware(gosdk.Middleware(reg))
	return reg, connect(t, sb), connect(t, sg), bareRec, guardedRec
}

// TestMiddleware_InputPath_RefusesExactlyWhatGoSDKRefuses pins the
// middleware route with gosdk.InputPath against go-sdk's own input path,
// call by call through real frames: a call go-sdk refuses is refused by the
// guard first, in its words, naming the argument; a call go-sdk serves is
// passed, and the handler gets what it gets without the guard. It failed
// before gosdk.InputPath: under segmentio.Binder the guard passed null for
// hours_back and go-sdk refused it in its own words after, and it refused
// 1.0, 1e2 and a repeated key that go-sdk serves.
func TestMiddleware_InputPath_RefusesExactlyWhatGoSDKRefuses(t *testing.T) {
	reg, bare, guarded, bareRec, guardedRec := pipelineServers(t)
	for _, c := range []struct {
		args     string
		argument string // the argument the refusal names first; "" for a call go-sdk serves
	}{
		{args: `{"hours_back": 1}`},
		{args: `{"hours_back": 1.0}`},
		{args: `{"hours_back": 1e2}`},
		{args: `{"hours_back": 0.5, "hours_back": 1}`},
		{args: `{"hours_back": 1, "waits": ["a"], "limit": 5}`},
		{args: `{"hours_back": 1, "query_id": 9007199254740993}`},
		{args: `{"hours_back": null}`, argument: "hours_back"},
		{args: `{"hours_back": 1, "limit": null}`, argument: "limit"},
		{args: `{"hours_back": 0.5}`, argument: "hours_back"},
		{args: `{"hours_back": "1"}`, argument: "hours_back"},
		{args: `{"hours_back": 1, "waits": "a"}`, argument: "waits"},
		{args: `{"hours_back": 1, "limit": 3000000000}`, argument: "limit"},
		{args: `{"HOURS_BACK": 1}`, argument: "HOURS_BACK"},
		{args: `{"hours_back": 1, "hours": 2}`, argument: "hours"},
		{args: `{}`, argument: "hours_back"},
	} {
		t.Run(short(c.args, 40), func(t *testing.T) {
			b := callRaw(t, bare, "stats", c.args)
			g := callRaw(t, guarded, "stats", c.args)
			if c.argument == "" {
				if b.IsError || g.IsError {
					t.Fatalf("go-sdk alone: isError %v %v; guarded: isError %v %v", b.IsError, b.Content, g.IsError, g.Content)
				}
				_, _, bin := bareRec.last()
				_, _, gin := guardedRec.last()
				if diff := cmp.Diff(bin, gin); diff != "" {
					t.Errorf("the handler got (-alone +guarded):\n%s", diff)
				}
				return
			}
			if !b.IsError {
				t.Fatalf("go-sdk alone serves %s: the case is wrong", c.args)
			}
			runs, _, _ := guardedRec.last()
			r := wantRefusal(t, reg, "stats", wire(t, c.args), g, false)
			if r.Problems[0].Argument != c.argument {
				t.Errorf("the refusal names %q, want %q: %v", r.Problems[0].Argument, c.argument, r)
			}
			if runs2, _, _ := guardedRec.last(); runs2 != runs {
				t.Errorf("the handler ran on a refused call")
			}
		})
	}
}

// TestMiddleware_InputPath_IntegerPast2To53_IsANamedLoss: go-sdk holds the
// arguments in a map of float64s, so 9007199254740993 for an int64 reaches
// the handler as 9007199254740992; the guard says so, naming the argument:
// a warning by default, a refusal under Strict.
func TestMiddleware_InputPath_IntegerPast2To53_IsANamedLoss(t *testing.T) {
	args := `{"hours_back":1,"query_id":9007199254740993}`
	_, _, guarded, _, rec := pipelineServers(t)
	res := callRaw(t, guarded, "stats", args)
	if res.IsError {
		t.Fatalf("refused: %v", res.Content)
	}
	if _, _, in := rec.last(); in.QueryID != 9007199254740992 {
		t.Fatalf("the handler got %d: go-sdk's path no longer rounds, the test is wrong", in.QueryID)
	}
	raw, _ := json.Marshal(res.StructuredContent)
	var sc struct {
		W refuse.Warnings `json:"bindguard_warnings"`
	}
	if err := json.Unmarshal(raw, &sc); err != nil || len(sc.W.Problems) != 1 || sc.W.Problems[0].Argument != "query_id" || sc.W.Problems[0].Code != refuse.RoundedNumber {
		t.Errorf("warnings %s, want one rounded_number in query_id", raw)
	}

	reg, _, guarded, _, _ := pipelineServers(t, typereg.WithStrict(true))
	res = callRaw(t, guarded, "stats", args)
	r := wantRefusal(t, reg, "stats", wire(t, args), res, false)
	if r.Problems[0].Argument != "query_id" || r.Problems[0].Code != refuse.RoundedNumber {
		t.Errorf("under Strict: %v", r)
	}
}

// FuzzInputPath_RefusesIffGoSDKRefuses: for any valid JSON arguments, the
// guard (under Warn, so that only what the binder fails on refuses) refuses
// the call exactly when go-sdk's own input path, on a bare server with the
// same tool, answers it with an error; and when both pass, the handler
// reads the same.
func FuzzInputPath_RefusesIffGoSDKRefuses(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `{"hours_back":1}`, `{"hours_back":null}`, `{"hours_back":1.0}`, `{"hours_back":0.5}`,
		`{"hours_back":"1"}`, `{"HOURS_BACK":1}`, `{"hours_back":1,"query_id":9007199254740993}`, `{"hours_back":1,"limit":3000000000}`,
		`{"hours_back":1,"waits":null}`, `{"hours_back":1,"waits":["a",1]}`, `{"hours_back":0.5,"hours_back":1}`, `{"x":1}`, `[1]`, `{"hours_back":1e400}`} {
		f.Add(s)
	}
	reg, bare, guarded, bareRec, guardedRec := pipelineServers(f, typereg.WithMode(typereg.Warn))
	f.Fuzz(func(t *testing.T, args string) {
		if !json.Valid([]byte(args)) {
			return // the client cannot send it
		}
		b := callRaw(t, bare, "stats", args)
		refused := refuse.Refuse(reg, "stats", wire(t, args)) != nil
		if b.IsError != refused {
			t.Fatalf("%s: go-sdk's isError %v (%v), the guard refuses: %v", args, b.IsError, b.Content, refused)
		}
		if refused {
			return
		}
		g := callRaw(t, guarded, "stats", args)
		if g.IsError {
			t.Fatalf("%s: the guarded server failed a call the guard passed: %v", args, g.Content)
		}
		_, _, bin := bareRec.last()
		_, _, gin := guardedRec.last()
		if diff := cmp.Diff(bin, gin); diff != "" {
			t.Fatalf("%s: the handler read (-bare +guarded):\n%s", args, diff)
		}
	})
}
