package mcpgo_test

import (
	"context"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/typereg"
)

type countArgs struct {
	N     int `json:"n"`
	Limit int `json:"limit,omitempty"`
}

// A tool's record replaced while calls are in flight (run with -race): the
// record takes turns between Reject and Warn, and each call is judged by
// one of the two, whole: refused by name under Reject, run with the
// warning under Warn, never anything else. Once the record is removed, the
// middleware no longer guards the tool and the server answers alone.
func TestMiddleware_RecordReplacedAndRemovedDuringCalls(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[countArgs](reg, "count"); err != nil {
		t.Fatal(err)
	}
	s := server.NewMCPServer("count", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
	s.AddTool(mcp.NewTool("count"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ran"), nil
	})

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
			if err := typereg.Register[countArgs](reg, "count", typereg.WithMode(mode)); err != nil {
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
				r := send(t, s, callFrame("count", `{"limit":`+strconv.Itoa(c)+`}`))
				var texts []string
				for _, ct := range r.Result.Content {
					texts = append(texts, ct.Text)
				}
				all := strings.Join(texts, "\n")
				missing := "Argument 'n' for tool 'count' is required"
				switch {
				case r.Result.IsError && len(texts) == 1 && strings.HasPrefix(all, missing):
				case !r.Result.IsError && len(texts) == 2 && texts[0] == "ran" && strings.Contains(texts[1], "went on with these warnings:\n"+missing):
				default:
					t.Errorf("a result neither record gives (error %v): %q", r.Result.IsError, all)
					return
				}
			}
		}()
	}
	calls.Wait()
	close(stop)
	wg.Wait()

	reg.Remove("count")
	r := send(t, s, callFrame("count", `{"limit":9}`))
	if r.Result.IsError || r.text(t) != "ran" {
		t.Errorf("after Remove: %+v, want the handler's own answer, unguarded", r)
	}
}
