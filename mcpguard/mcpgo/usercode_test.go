package mcpgo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/bind"
	ht "github.com/bindguard/bindguard/internal/hostile"
	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/typereg"
)

// hostileServers serve hostile.Args[F] under binder b as tool "h": one
// through AddTool, one through server.AddTool behind Middleware with a
// handler that decodes the arguments with b. ran counts the handlers' runs.
func hostileServers[F ht.Fault](t *testing.T, b bind.Binder, ran *int) map[string]*server.MCPServer {
	t.Helper()
	added := server.NewMCPServer("hostile", "1.0.0")
	reg := typereg.New(typereg.WithBinder(b))
	err := mcpgo.AddTool(added, reg, mcp.NewTool("h"), func(ctx context.Context, req mcp.CallToolRequest, in ht.Args[F]) (*mcp.CallToolResult, error) {
		*ran++
		return mcp.NewToolResultText("ran"), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	mreg := typereg.New(typereg.WithBinder(b))
	if err := typereg.Register[ht.Args[F]](mreg, "h"); err != nil {
		t.Fatal(err)
	}
	mw := server.NewMCPServer("hostile", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(mreg)))
	mw.AddTool(mcp.NewTool("h", mcp.WithRawInputSchema(json.RawMessage(`{"type":"object"}`))), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in ht.Args[F]
		if err := b.Unmarshal(req.Params.RawArguments, &in); err != nil {
			return mcp.NewToolResultError("binder failed"), nil
		}
		*ran++
		return mcp.NewToolResultText("ran"), nil
	})
	return map[string]*server.MCPServer{"AddTool": added, "Middleware": mw}
}

var hostileCases = []struct {
	fault string
	serve func(t *testing.T, b bind.Binder, ran *int) map[string]*server.MCPServer
}{
	{"UnwrapPanics", hostileServers[ht.UnwrapPanics]},
	{"UnwrapSelf", hostileServers[ht.UnwrapSelf]},
	{"UnwrapCycle", hostileServers[ht.UnwrapCycle]},
	{"UnwrapWide", hostileServers[ht.UnwrapWide]},
	{"ErrorPanics", hostileServers[ht.ErrorPanics]},
	{"ErrorHuge", hostileServers[ht.ErrorHuge]},
	{"IsAsPanic", hostileServers[ht.IsAsPanic]},
	{"PanicsWith", hostileServers[ht.PanicsWith]},
	{"WrapsSelf", hostileServers[ht.WrapsSelf]},
}

// A type's own decoding method that fails with an error whose methods
// misbehave, sent through real tools/call frames to AddTool and to
// Middleware, under every binder: each call gets a tool error with a short
// text, the handler does not run, and the server lives on to answer a good
// call.
func TestAddToolAndMiddleware_HostileErrorFromUsersMethod_ToolErrorServerLives(t *testing.T) {
	for _, b := range binders() {
		for _, c := range hostileCases {
			t.Run(b.Name()+"/"+c.fault, func(t *testing.T) {
				ran := 0
				for name, s := range c.serve(t, b, &ran) {
					for _, args := range []string{`{"j":2}`, `{"t":"bad"}`, `{"j":2,"n":9}`} {
						r := send(t, s, callFrame("h", args))
						if r.Result == nil || !r.Result.IsError {
							t.Errorf("%s %s: not a tool error: %+v", name, args, r)
							continue
						}
						if txt := r.text(t); len(txt) > 4000 {
							t.Errorf("%s %s: the error text is %d bytes", name, args, len(txt))
						}
					}
					if ran != 0 {
						t.Fatalf("%s: the handler ran %d times on refused calls", name, ran)
					}
					if r := send(t, s, callFrame("h", `{"j":1,"t":"ok","n":5}`)); r.Result == nil || r.Result.IsError {
						t.Errorf("%s: a good call fails: %+v", name, r)
					}
					if ran != 1 {
						t.Errorf("%s: the handler ran %d times on a good call, want 1", name, ran)
					}
					ran = 0
				}
			})
		}
	}
}
