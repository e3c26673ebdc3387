package gosdk_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

// A tool's record replaced while calls are in flight (run with -race): the
// record takes turns between Reject and Warn, and each call is judged by
// one of the two, whole: refused by name under Reject, run with the
// warning under Warn, never anything else. Once the record is removed, the
// middleware no longer guards the tool and the server answers alone.
func TestMiddleware_RecordReplacedAndRemovedDuringCalls(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[statsArgs](reg, "stats"); err != nil {
		t.Fatal(err)
	}
	var ran sync.Map
	s := newServer()
	s.AddTool(&mcp.Tool{Name: "stats", InputSchema: map[string]any{"type": "object"}}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		ran.Store(string(req.Params.Arguments), true)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran"}}}, nil
	})
	s.AddReceivingMiddleware(gosdk.Middleware(reg))
	cs := connect(t, s)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			mode := []typereg.Mode{typereg.Reject, typereg.Warn}[i%2]
			if err := typereg.Register[statsArgs](reg, "stats", typereg.WithMode(mode)); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	var calls sync.WaitGroup
	for c := range 4 {
		calls.Add(1)
		go func() {
			defer calls.Done()
			for range 50 {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "stats", Arguments: map[string]any{"limit": c}})
				if err != nil {
					t.Error(err)
					return
				}
				var texts []string
				for _, ct := range res.Content {
					texts = append(texts, ct.(*mcp.TextContent).Text)
				}
				all := strings.Join(texts, "\n")
				missing := "Argument 'hours_back' for tool 'stats' is required"
				switch {
				case res.IsError && len(texts) == 1 && strings.HasPrefix(all, missing):
				case !res.IsError && len(texts) == 2 && texts[0] == "ran" && strings.Contains(texts[1], "went on with these warnings:\n"+missing):
				default:
					t.Errorf("a result neither record gives (error %v): %q", res.IsError, all)
					return
				}
			}
		}()
	}
	calls.Wait()
	close(stop)
	wg.Wait()

	reg.Remove("stats")
	res := callRaw(t, cs, "stats", `{"limit":9}`)
	if res.IsError || len(res.Content) != 1 {
		t.Errorf("after Remove: %+v, want the server's own answer, unguarded", res)
	}
	if _, ok := ran.Load(`{"limit":9}`); !ok {
		t.Error("after Remove: the handler did not run")
	}
}
