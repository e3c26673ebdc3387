// Command unguarded is a small MCP server over stdio whose tools are added
// with the plain go-sdk mcp.AddTool, with no guard: a call the binder
// cannot read gets go-sdk's own error (the schema validator's, naming the
// argument by its JSON Pointer, or the decoder's), and a handler's own
// error names nothing. bindprobe's tests probe it beside the guarded
// example server (examples/waitstats).
//
// It serves tools like the guarded example's, and one whose name suggests a
// write:
//
//   - get_wait_stats: hours_back (int, required), limit (int32), database
//     (*string) and waits ([]string).
//   - list_sessions: state (a string, required, whose schema, given by hand,
//     lists running, sleeping and blocked), database (*string), limit
//     (int32) and verbose (bool).
//   - get_query_plan: query_id (int64, required).
//   - delete_something: id (int, required); a name that suggests a write.
//
// The first three are annotated readOnlyHint: true.
//
// Two flags make it misbehave, for the tests of bindprobe's robustness:
// -crash-after N exits with status 3 on the Nth tools/call, and -hang
// leaves every tools/call unanswered until the client cancels it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"os"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// GetWaitStatsArgs are the parameters of get_wait_stats.
type GetWaitStatsArgs struct {
	HoursBack int      `json:"hours_back" jsonschema:"how many hours back to look"`
	Limit     int32    `json:"limit,omitempty" jsonschema:"at most this many wait types"`
	Database  *string  `json:"database,omitempty" jsonschema:"only this database"`
	Waits     []string `json:"waits,omitempty" jsonschema:"only these wait types"`
}

// ListSessionsArgs are the parameters of list_sessions.
type ListSessionsArgs struct {
	State    string  `json:"state"`
	Database *string `json:"database,omitempty"`
	Limit    int32   `json:"limit,omitempty"`
	Verbose  bool    `json:"verbose,omitempty"`
}

// listSessionsSchema is list_sessions' input schema, given by hand for the
// enum that inference cannot write.
const listSessionsSchema = `{
  "type": "object",
  "properties": {
    "state": {"type": "string", "enum": ["running", "sleeping", "blocked"], "description": "only sessions in this state"},
    "database": {"type": ["null", "string"], "description": "only this database"},
    "limit": {"type": "integer", "minimum": -2147483648, "maximum": 2147483647, "description": "at most this many sessions"},
    "verbose": {"type": "boolean", "description": "say more"}
  },
  "required": ["state"],
  "additionalProperties": false
}`

// GetQueryPlanArgs are the parameters of get_query_plan.
type GetQueryPlanArgs struct {
	QueryID int64 `json:"query_id" jsonschema:"the query's id"`
}

// DeleteSomethingArgs are the parameters of delete_something.
type DeleteSomethingArgs struct {
	ID int `json:"id" jsonschema:"what to delete"`
}

func main() {
	crashAfter := flag.Int("crash-after", 0, "exit with status 3 on the `N`th tools/call (0: never)")
	hang := flag.Bool("hang", false, "leave every tools/call unanswered until the client cancels it")
	flag.Parse()
	log.SetFlags(0)

	s := mcp.NewServer(&mcp.Implementation{Name: "unguarded", Version: "v0.1.0"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "get_wait_stats", Description: "Top waits over the last hours.", Annotations: readOnly},
		func(_ context.Context, _ *mcp.CallToolRequest, in GetWaitStatsArgs) (*mcp.CallToolResult, any, error) {
			return text(fmt.Sprintf("Top waits, last %d hours (limit %d, %d wait types).", in.HoursBack, in.Limit, len(in.Waits))), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "list_sessions", Description: "The sessions in one state.", InputSchema: json.RawMessage(listSessionsSchema), Annotations: readOnly},
		func(_ context.Context, _ *mcp.CallToolRequest, in ListSessionsArgs) (*mcp.CallToolResult, any, error) {
			if in.Limit < 0 {
				// The error a handler commonly writes: what is wrong, not
				// which argument.
				return nil, nil, errors.New("a negative number of sessions makes no sense")
			}
			return text(fmt.Sprintf("No %s sessions.", in.State)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "get_query_plan", Description: "The cached plan of one query.", Annotations: readOnly},
		func(_ context.Context, _ *mcp.CallToolRequest, in GetQueryPlanArgs) (*mcp.CallToolResult, any, error) {
			return text(fmt.Sprintf("Plan of query %d.", in.QueryID)), nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "delete_something", Description: "Deletes something (here: nothing)."},
		func(_ context.Context, _ *mcp.CallToolRequest, in DeleteSomethingArgs) (*mcp.CallToolResult, any, error) {
			return text(fmt.Sprintf("Deleted %d.", in.ID)), nil, nil
		})

	var calls atomic.Int64
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/call" {
				return next(ctx, method, req)
			}
			if n := calls.Add(1); *crashAfter > 0 && n >= int64(*crashAfter) {
				log.Printf("unguarded: crashing on call %d, as -crash-after says", n)
				os.Exit(3)
			}
			if *hang {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return next(ctx, method, req)
		}
	})
	if err := s.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Fatal(err)
	}
}

// readOnly annotates the tools that only read, so that bindprobe probes
// them by default.
var readOnly = &mcp.ToolAnnotations{ReadOnlyHint: true}

func text(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
