package gosdk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

type viewArgs struct {
	Hours int `json:"hours" validate:"max=168" bindguard:"alias=hrs"`
}

// A parameter sent under its name (or an alias) and a key encoding/json
// folds to it, through real frames to AddTool, and to mcp.AddTool behind
// Middleware, under Warn: both views the handler gets (In, and
// req.Params.Arguments, the raw JSON) hold the one value the guard
// checked, and the warning says which value the tool reads.
func TestAddToolAndMiddleware_NameAndCaseVariant_EveryViewHoldsTheValueChecked(t *testing.T) {
	for _, args := range []string{`{"hours":500,"HOURS":5}`, `{"hrs":500,"HOURS":5}`, `{"HOURS":500,"Hours":5}`} {
		for _, middleware := range []bool{false, true} {
			reg := typereg.New(typereg.WithMode(typereg.Warn))
			s := newServer()
			var rec recorder[viewArgs]
			if middleware {
				if err := typereg.Register[viewArgs](reg, "t"); err != nil {
					t.Fatal(err)
				}
				mcp.AddTool(s, &mcp.Tool{Name: "t"}, rec.handler)
				s.AddReceivingMiddleware(gosdk.Middleware(reg))
			} else if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "t"}, rec.handler); err != nil {
				t.Fatal(err)
			}
			cs := connect(t, s)
			res := callRaw(t, cs, "t", args)
			if res.IsError {
				t.Fatalf("%s: %+v", args, res)
			}
			runs, raw, in := rec.last()
			if runs != 1 || in.Hours != 5 {
				t.Errorf("%s: the handler ran %d times with hours %d, want once with 5", args, runs, in.Hours)
			}
			var m map[string]any
			if err := json.Unmarshal(raw, &m); err != nil {
				t.Fatal(err)
			}
			for k, v := range m {
				if (strings.EqualFold(k, "hours") || k == "hrs") && (k != "hours" || v != float64(5)) {
					t.Errorf("%s: req.Params.Arguments %s holds %q: %v", args, raw, k, v)
				}
			}
			var all []string
			for _, c := range res.Content {
				if tc, ok := c.(*mcp.TextContent); ok {
					all = append(all, tc.Text)
				}
			}
			if !strings.Contains(strings.Join(all, "\n"), "reads 5") {
				t.Errorf("%s: the warnings %q do not say the tool reads 5", args, all)
			}
		}
	}
}
