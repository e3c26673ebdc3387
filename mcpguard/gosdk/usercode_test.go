package gosdk_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	ht "github.com/bindguard/bindguard/internal/hostile"
	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

// hostileServer serves hostile.Args[F] as tool "added" through AddTool and
// as tool "plain" through mcp.AddTool behind Middleware, under binder b.
// ran counts the handlers' runs.
func hostileServer[F ht.Fault](t *testing.T, b bind.Binder, ran *int) *mcp.ClientSession {
	t.Helper()
	reg := typereg.New(typereg.WithBinder(b))
	s := newServer()
	h := func(_ context.Context, _ *mcp.CallToolRequest, in ht.Args[F]) (*mcp.CallToolResult, any, error) {
		*ran++
		return nil, nil, nil
	}
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "added"}, h); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[ht.Args[F]](reg, "plain"); err != nil {
		t.Fatal(err)
	}
	// The registry's schema names these generic types' definitions by
	// their package path, which go-sdk cannot resolve: publish a plain one.
	mcp.AddTool(s, &mcp.Tool{Name: "plain", InputSchema: map[string]any{"type": "object"}}, h)
	s.AddReceivingMiddleware(gosdk.Middleware(reg))
	return connect(t, s)
}

type hostileRun func(t *testing.T, b bind.Binder, ran *int) *mcp.ClientSession

var hostileServers = []struct {
	fault string
	serve hostileRun
}{
	{"UnwrapPanics", hostileServer[ht.UnwrapPanics]},
	{"UnwrapSelf", hostileServer[ht.UnwrapSelf]},
	{"UnwrapCycle", hostileServer[ht.UnwrapCycle]},
	{"UnwrapWide", hostileServer[ht.UnwrapWide]},
	{"ErrorPanics", hostileServer[ht.ErrorPanics]},
	{"ErrorHuge", hostileServer[ht.ErrorHuge]},
	{"IsAsPanic", hostileServer[ht.IsAsPanic]},
	{"PanicsWith", hostileServer[ht.PanicsWith]},
	{"WrapsSelf", hostileServer[ht.WrapsSelf]},
}

// A type's own decoding method that fails with an error whose methods
// misbehave, sent through real MCP frames to a tool added with AddTool and
// to one guarded by Middleware, under every binder: each call gets a tool
// error with a short text, the handler does not run, and the server lives
// on to answer a good call.
func TestAddToolAndMiddleware_HostileErrorFromUsersMethod_ToolErrorServerLives(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		for _, c := range hostileServers {
			t.Run(b.Name()+"/"+c.fault, func(t *testing.T) {
				ran := 0
				cs := c.serve(t, b, &ran)
				for _, tool := range []string{"added", "plain"} {
					for _, args := range []string{`{"j":2}`, `{"t":"bad"}`, `{"j":2,"n":9}`} {
						res := callRaw(t, cs, tool, args)
						if !res.IsError {
							t.Errorf("%s %s: not a tool error", tool, args)
						}
						if txt := text(t, res); len(txt) > 4000 {
							t.Errorf("%s %s: the error text is %d bytes", tool, args, len(txt))
						}
					}
					if ran != 0 {
						t.Fatalf("%s: the handler ran %d times on refused calls", tool, ran)
					}
					if res := callRaw(t, cs, tool, `{"j":1,"t":"ok","n":5}`); res.IsError {
						t.Errorf("%s: a good call is a tool error: %s", tool, text(t, res))
					}
					if ran != 1 {
						t.Errorf("%s: the handler ran %d times on a good call, want 1", tool, ran)
					}
					ran = 0
				}
			})
		}
	}
}

type otherArgs struct {
	Name string `json:"name"`
}

// AddTool's handler checks that the registry still records its struct for
// the tool: once the name is registered with another type, a call gets a
// tool error saying so, and the handler does not run (the guard would be
// reading the arguments for a struct the handler does not take).
func TestAddTool_RecordReplacedWithAnotherType_CallRefused(t *testing.T) {
	reg := typereg.New()
	s := newServer()
	var rec recorder[statsArgs]
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "stats"}, rec.handler); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	if res := callRaw(t, cs, "stats", `{"hours_back":1}`); res.IsError {
		t.Fatalf("a good call is a tool error: %s", text(t, res))
	}
	if err := typereg.Register[otherArgs](reg, "stats"); err != nil {
		t.Fatal(err)
	}
	res := callRaw(t, cs, "stats", `{"name":"x"}`)
	if !res.IsError {
		t.Errorf("a call read for another struct is not a tool error")
	}
	if txt := text(t, res); !strings.Contains(txt, "otherArgs") || !strings.Contains(txt, "statsArgs") {
		t.Errorf("the error %q does not name both types", txt)
	}
	if runs, _, _ := rec.last(); runs != 1 {
		t.Errorf("the handler ran %d times, want 1 (before the record changed)", runs)
	}
}
