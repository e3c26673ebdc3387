package gosdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type statsArgs struct {
	HoursBack int      `json:"hours_back"`
	Limit     int32    `json:"limit,omitempty"`
	QueryID   int64    `json:"query_id,omitempty"`
	Waits     []string `json:"waits,omitempty"`
}

type statsOut struct {
	Rows int `json:"rows"`
}

// middlewareServer is a server that registers with plain mcp.AddTool and
// guards with Middleware: "stats" is also recorded in the registry, "other"
// is not.
func middlewareServer(t *testing.T, b bind.Binder) (*typereg.Registry, *mcp.ClientSession, *recorder[statsArgs], *recorder[statsArgs]) {
	t.Helper()
	reg := typereg.New(typereg.WithBinder(b))
	if err := typereg.Register[statsArgs](reg, "stats"); err != nil {
		t.Fatal(err)
	}
	var stats, other recorder[statsArgs]
	s := newServer()
	mcp.AddTool(s, &mcp.Tool{Name: "stats"}, func(ctx context.Context, req *mcp.CallToolRequest, in statsArgs) (*mcp.CallToolResult, statsOut, error) {
		stats.record(req, in)
		return nil, statsOut{Rows: in.HoursBack}, nil
	})
	mcp.AddTool(s, &mcp.Tool{Name: "other"}, other.handler)
	s.AddReceivingMiddleware(gosdk.Middleware(reg))
	return reg, connect(t, s), &stats, &other
}

// A bad call of a tool the registry records comes back as the guard's
// refusal, as text (no structuredContent: "stats" has an output schema, and
// the middleware cannot tell), and the handler never runs.
func TestMiddleware_RefusesBadCallByName_HandlerNeverRuns(t *testing.T) {
	reg, cs, stats, _ := middlewareServer(t, bind.Std)
	for _, tc := range []struct {
		args     string
		argument string
	}{
		{`{"hours_back": 0.5}`, "hours_back"},
		{`{"hours_back": 1, "limit": 3000000000}`, "limit"},
		{`{"hours_back": 1, "waits": "CXPACKET"}`, "waits"},
		{`{"hours_back": 1, "hours": 2}`, "hours"},
		{`[1]`, ""},
		// go-sdk alone runs the handler on these, reading 1.0 as 1, 1e2 as
		// 100, and the last of a repeated key.
		{`{"hours_back": 1.0}`, "hours_back"},
		{`{"hours_back": 1e2}`, "hours_back"},
		{`{"hours_back": 0.5, "hours_back": 1}`, "hours_back"},
	} {
		res := callRaw(t, cs, "stats", tc.args)
		if runs, _, _ := stats.last(); runs != 0 {
			t.Fatalf("%s: the handler ran on a refused call", tc.args)
		}
		r := wantRefusal(t, reg, "stats", wire(t, tc.args), res, false)
		if r.Problems[0].Argument != tc.argument {
			t.Errorf("%s: the refusal names %q, want %q", tc.args, r.Problems[0].Argument, tc.argument)
		}
	}
}

// A good call goes on to go-sdk, which decodes it and runs the handler.
func TestMiddleware_PassesGoodCall(t *testing.T) {
	_, cs, stats, _ := middlewareServer(t, bind.Std)
	res := callRaw(t, cs, "stats", `{"hours_back": 24, "limit": 10, "waits": ["CXPACKET"]}`)
	if res.IsError {
		t.Fatalf("a good call came back as an error: %s", text(t, res))
	}
	runs, _, in := stats.last()
	if runs != 1 {
		t.Fatalf("the handler ran %d times, want once", runs)
	}
	if diff := cmp.Diff(statsArgs{HoursBack: 24, Limit: 10, Waits: []string{"CXPACKET"}}, in); diff != "" {
		t.Errorf("the handler got (-want +got):\n%s", diff)
	}
	if got, _ := json.Marshal(res.StructuredContent); string(got) != `{"rows":24}` {
		t.Errorf("structuredContent = %s", got)
	}
}

// A tool the registry does not record passes to the server untouched: one
// the server has is go-sdk's business (its own validation answers, in its
// own words), and one it does not have is a protocol error, as it always is.
func TestMiddleware_ToolTheRegistryDoesNotRecord_PassesToTheServer(t *testing.T) {
	_, cs, _, other := middlewareServer(t, bind.Std)
	res := callRaw(t, cs, "other", `{"hours_back": 0.5}`)
	if !res.IsError || strings.Contains(text(t, res), "Argument 'hours_back'") {
		t.Errorf("other: want go-sdk's own error, got isError %v: %s", res.IsError, text(t, res))
	}
	if runs, _, _ := other.last(); runs != 0 {
		t.Errorf("other: go-sdk ran the handler on a fraction for an int")
	}
	res = callRaw(t, cs, "other", `{"hours_back": 3}`)
	if runs, _, in := other.last(); res.IsError || runs != 1 || in.HoursBack != 3 {
		t.Errorf("other: a good call: isError %v, runs %d, got %+v", res.IsError, runs, in)
	}

	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "missing", Arguments: map[string]any{"x": 0.5}})
	if err == nil || !strings.Contains(err.Error(), `unknown tool "missing"`) {
		t.Errorf("missing: err = %v, want the server's unknown tool error", err)
	}
}

// After the middleware passes a call, go-sdk still does what mcp.AddTool
// does: it validates the arguments against the schema it inferred from the
// struct, as float64s, and decodes them from that round trip. So it refuses,
// in its own words, some calls the binder reads, and rounds integers past
// 2^53, whichever binder the registry mirrors, segmentio.Binder (go-sdk's
// own decoder) included. These are the claims the package documentation
// makes.
func TestMiddleware_GoSDKStillValidatesAndRoundsAfterTheGuard(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder} {
		t.Run(b.Name(), func(t *testing.T) {
			reg, cs, stats, _ := middlewareServer(t, b)
			for _, tc := range []struct {
				args string
				why  string
			}{
				{`{"hours_back": 1, "limit": null}`, "its schema has no null for an int; the binder leaves the int zero"},
				{`{"hours_back": 1, "query_id": 9223372036854775807}`, "the largest int64 comes back from float64 as 9223372036854775808, past int64"},
				{`{"HOURS_BACK": 5}`, "its schema is closed and matches keys exactly; encoding/json folds case"},
			} {
				if r := refuse.Refuse(reg, "stats", json.RawMessage(tc.args)); r != nil {
					if b == bind.Std {
						t.Errorf("%s: the guard refuses it; the test wants a call it passes: %v", tc.args, r)
					}
					continue // segmentio matches keys exactly too
				}
				res := callRaw(t, cs, "stats", tc.args)
				if !res.IsError || strings.Contains(text(t, res), "Accepted parameters") {
					t.Errorf("%s (%s): want go-sdk's own error, got isError %v: %s", tc.args, tc.why, res.IsError, text(t, res))
				}
				if runs, _, _ := stats.last(); runs != 0 {
					t.Errorf("%s: the handler ran", tc.args)
				}
			}

			res := callRaw(t, cs, "stats", `{"hours_back": 1, "query_id": 9007199254740993}`)
			if res.IsError {
				t.Fatal(text(t, res))
			}
			if _, _, in := stats.last(); in.QueryID != 9007199254740992 {
				t.Errorf("query_id = %d; the documentation says go-sdk delivers 9007199254740993 rounded to 9007199254740992", in.QueryID)
			}
		})
	}
}

// Without the guard, go-sdk runs the handler on calls encoding/json fails
// on: it reads 1.0 as 1, 1e2 as 100, and a repeated key by its last value.
// So the middleware, mirroring the registry's binder, refuses calls that
// mcp.AddTool alone would have read (the package documentation says so).
func TestMCPAddTool_WithoutTheGuard_ReadsCallsTheBinderFailsOn(t *testing.T) {
	var rec recorder[statsArgs]
	s := newServer()
	mcp.AddTool(s, &mcp.Tool{Name: "stats"}, rec.handler)
	cs := connect(t, s)
	for i, tc := range []struct {
		args string
		want int
	}{
		{`{"hours_back": 1.0}`, 1},
		{`{"hours_back": 1e2}`, 100},
		{`{"hours_back": 0.5, "hours_back": 1}`, 1},
	} {
		var in statsArgs
		if err := json.Unmarshal([]byte(tc.args), &in); err == nil {
			t.Fatalf("%s: encoding/json reads it; the test wants a call it fails on", tc.args)
		}
		if res := callRaw(t, cs, "stats", tc.args); res.IsError {
			t.Fatalf("%s: %s", tc.args, text(t, res))
		}
		if runs, _, in := rec.last(); runs != i+1 || in.HoursBack != tc.want {
			t.Errorf("%s: runs %d, hours_back %d, want %d", tc.args, runs, in.HoursBack, tc.want)
		}
	}
}

// Methods other than tools/call pass through.
func TestMiddleware_OtherMethodsPassThrough(t *testing.T) {
	_, cs, _, _ := middlewareServer(t, bind.Std)
	tools := listed(t, cs)
	if _, ok := tools["stats"]; !ok || len(tools) != 2 {
		t.Errorf("tools/list through the middleware: %v", tools)
	}
	if err := cs.Ping(context.Background(), nil); err != nil {
		t.Errorf("ping: %v", err)
	}
}

// A tool added with AddTool needs no middleware; when the middleware guards
// it too, the middleware refuses first, as text only, with the same words.
func TestMiddleware_AndAddTool_MiddlewareRefusesFirst(t *testing.T) {
	reg := typereg.New()
	var rec recorder[statsArgs]
	s := newServer()
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "stats"}, rec.handler); err != nil {
		t.Fatal(err)
	}
	s.AddReceivingMiddleware(gosdk.Middleware(reg))
	cs := connect(t, s)
	args := `{"hours_back": 0.5}`
	wantRefusal(t, reg, "stats", wire(t, args), callRaw(t, cs, "stats", args), false)
	if runs, _, _ := rec.last(); runs != 0 {
		t.Fatal("the handler ran on a refused call")
	}
	if res := callRaw(t, cs, "stats", `{"hours_back": 2}`); res.IsError {
		t.Fatal(text(t, res))
	}
	if runs, _, in := rec.last(); runs != 1 || in.HoursBack != 2 {
		t.Errorf("a good call: runs %d, got %+v", runs, in)
	}
}
