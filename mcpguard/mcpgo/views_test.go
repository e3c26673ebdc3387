package mcpgo_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/typereg"
)

type viewArgs struct {
	Hours int `json:"hours" validate:"max=168" bindguard:"alias=hrs"`
}

// views records every view of the arguments a handler got: the struct,
// mcp-go's map (GetArguments, RequireInt) and the raw bytes decoded into a
// map.
type views struct {
	ran     int
	in      int
	require int
	mapped  map[string]any
	raw     map[string]any
}

func (v *views) record(req mcp.CallToolRequest, in int) {
	v.ran++
	v.in = in
	v.require, _ = req.RequireInt("hours")
	v.mapped = req.GetArguments()
	v.raw = nil
	_ = json.Unmarshal(req.Params.RawArguments, &v.raw)
}

// check requires every view to hold hours = want and no other key that
// folds to it.
func (v *views) check(t *testing.T, name string, want int) {
	t.Helper()
	if v.ran != 1 {
		t.Fatalf("%s: the handler ran %d times, want 1", name, v.ran)
	}
	if v.in != want || v.require != want {
		t.Errorf("%s: the struct holds %d and RequireInt %d, want %d", name, v.in, v.require, want)
	}
	for view, m := range map[string]map[string]any{"GetArguments": v.mapped, "RawArguments": v.raw} {
		for k, val := range m {
			if strings.EqualFold(k, "hours") || k == "hrs" {
				if k != "hours" || val != float64(want) {
					t.Errorf("%s: %s holds %q: %v; want only \"hours\": %d", name, view, k, val, want)
				}
			}
		}
	}
}

// A parameter sent under its name (or an alias) and a key encoding/json
// folds to it, through real frames to AddTool and to Middleware under
// Warn: every view the handler gets (the struct, GetArguments, RequireInt,
// RawArguments) holds the one value the guard checked, and the warning
// says which value the tool reads. Under Reject the call is refused.
func TestAddToolAndMiddleware_NameAndCaseVariant_EveryViewHoldsTheValueChecked(t *testing.T) {
	for _, args := range []string{`{"hours":500,"HOURS":5}`, `{"hrs":500,"HOURS":5}`, `{"HOURS":500,"Hours":5}`} {
		var v views
		reg := typereg.New(typereg.WithMode(typereg.Warn))
		added := server.NewMCPServer("views", "1.0.0")
		if err := mcpgo.AddTool(added, reg, mcp.NewTool("t"), func(_ context.Context, req mcp.CallToolRequest, in viewArgs) (*mcp.CallToolResult, error) {
			v.record(req, in.Hours)
			return mcp.NewToolResultText("ran"), nil
		}); err != nil {
			t.Fatal(err)
		}
		mreg := typereg.New(typereg.WithMode(typereg.Warn))
		if err := typereg.Register[viewArgs](mreg, "t"); err != nil {
			t.Fatal(err)
		}
		mw := server.NewMCPServer("views", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(mreg)))
		mw.AddTool(mcp.NewTool("t", mcp.WithRawInputSchema(json.RawMessage(`{"type":"object"}`))), mcp.NewTypedToolHandler(func(_ context.Context, req mcp.CallToolRequest, in viewArgs) (*mcp.CallToolResult, error) {
			v.record(req, in.Hours)
			return mcp.NewToolResultText("ran"), nil
		}))
		for name, s := range map[string]*server.MCPServer{"AddTool": added, "Middleware": mw} {
			v = views{}
			r := send(t, s, callFrame("t", args))
			if r.Result == nil || r.Result.IsError {
				t.Fatalf("%s %s: %+v", name, args, r)
			}
			v.check(t, name+" "+args, 5)
			if all := r.Result.Content[len(r.Result.Content)-1].Text; !strings.Contains(all, "reads 5") {
				t.Errorf("%s %s: the warning %q does not say the tool reads 5", name, args, all)
			}
		}
	}
	reg := typereg.New()
	s := server.NewMCPServer("views", "1.0.0")
	ran := 0
	if err := mcpgo.AddTool(s, reg, mcp.NewTool("t"), func(_ context.Context, _ mcp.CallToolRequest, _ viewArgs) (*mcp.CallToolResult, error) {
		ran++
		return mcp.NewToolResultText("ran"), nil
	}); err != nil {
		t.Fatal(err)
	}
	if r := send(t, s, callFrame("t", `{"hours":500,"HOURS":5}`)); r.Result == nil || !r.Result.IsError || ran != 0 {
		t.Errorf("under Reject: %+v, handler ran %d times; want a refusal", r, ran)
	}
}
