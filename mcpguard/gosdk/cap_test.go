package gosdk_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

type capArgs struct {
	N     int      `json:"n"`
	Names []string `json:"names,omitempty"`
}

// TestAddTool_PastTheIssueCap_TheVerdictIsExact speaks real MCP frames: a
// call with more than bind.MaxIssues problems the binder reads runs the
// handler under Warn, and under Reject gets a refusal whose text and
// structuredContent are bounded and whose count is exact. It failed before
// the cap was split by class: both calls were refused under Warn too, with
// the text "And 1 more problems.".
func TestAddTool_PastTheIssueCap_TheVerdictIsExact(t *testing.T) {
	over := bind.MaxIssues + 1
	keys := make([]string, over)
	nulls := make([]string, over)
	for i := range keys {
		keys[i] = fmt.Sprintf(`"key_%d_%s":1`, i, strings.Repeat("x", 200))
		nulls[i] = "null"
	}
	unknown := `{"n":1,` + strings.Join(keys, ",") + `}`
	lossy := `{"n":1,"names":[` + strings.Join(nulls, ",") + `]}`
	for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
		reg := typereg.New(typereg.WithMode(mode))
		var rec recorder[capArgs]
		s := newServer()
		if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "cap"}, rec.handler); err != nil {
			t.Fatal(err)
		}
		cs := connect(t, s)

		res := callRaw(t, cs, "cap", lossy)
		if runs, _, _ := rec.last(); res.IsError || runs != 1 {
			t.Errorf("mode %v, 1,001 nulls: isError %v, handler runs %d; want the handler to run", mode, res.IsError, runs)
		}

		res = callRaw(t, cs, "cap", unknown)
		runs, _, _ := rec.last()
		if mode == typereg.Warn {
			if res.IsError || runs != 2 {
				t.Errorf("mode warn, 1,001 unknown keys: isError %v, handler runs %d; want the handler to run", res.IsError, runs)
			}
			continue
		}
		r := wantRefusal(t, reg, "cap", wire(t, unknown), res, true)
		if runs != 1 {
			t.Errorf("the handler ran on a refused call")
		}
		if len(r.Problems)+r.More != over || len(r.Problems) == 0 {
			t.Errorf("%d problems and %d more, want %d in all", len(r.Problems), r.More, over)
		}
		txt := text(t, res)
		if len(txt) > 4000 || !strings.Contains(txt, fmt.Sprintf("\nAnd %d more problems.\n", r.More)) {
			t.Errorf("text of %d bytes:\n%.1000s", len(txt), txt)
		}
		if b, _ := json.Marshal(res.StructuredContent); len(b) > 16000 {
			t.Errorf("structuredContent of %d bytes", len(b))
		}
	}
}
