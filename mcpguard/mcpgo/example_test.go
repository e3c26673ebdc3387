package mcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/typereg"
)

// GetWaitStats is a tool's parameter struct, as a server declares it.
type GetWaitStats struct {
	HoursBack int      `json:"hours_back"`
	Limit     *int32   `json:"limit,omitempty"`
	Waits     []string `json:"waits,omitempty"`
}

// toolResult is the result of a tools/call, read off the wire.
type toolResult struct {
	Result struct {
		Content []struct {
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent struct {
			Problems []struct {
				Argument string `json:"argument"`
				Code     string `json:"code"`
			} `json:"problems"`
		} `json:"structuredContent"`
		IsError bool `json:"isError"`
	} `json:"result"`
}

func call(s *server.MCPServer, frame string) toolResult {
	out, _ := json.Marshal(s.HandleMessage(context.Background(), json.RawMessage(frame)))
	var r toolResult
	_ = json.Unmarshal(out, &r)
	return r
}

func Example() {
	s := server.NewMCPServer("waits", "1.0.0")
	reg := typereg.New()
	err := mcpgo.AddTool(s, reg,
		mcp.NewTool("get_wait_stats", mcp.WithDescription("Wait statistics for the last hours.")),
		func(ctx context.Context, req mcp.CallToolRequest, in GetWaitStats) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("the last %d hours", in.HoursBack)), nil
		})
	if err != nil {
		panic(err)
	}

	// A call the binder reads runs the handler.
	r := call(s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_wait_stats","arguments":{"hours_back":24}}}`)
	fmt.Println(r.Result.IsError, r.Result.Content[0].Text)

	// A call it would fail on is a tool error; the handler does not run.
	r = call(s, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_wait_stats","arguments":{"hours_back":0.5}}}`)
	fmt.Println(r.Result.IsError)
	fmt.Println(r.Result.Content[0].Text)
	p := r.Result.StructuredContent.Problems[0]
	fmt.Println(p.Argument, p.Code)
	// Output:
	// false the last 24 hours
	// true
	// Argument 'hours_back' for tool 'get_wait_stats' takes a whole number, and the call sent 0.5.
	// Accepted parameters: hours_back, limit, waits.
	// hours_back not_whole_number
}

// A server that keeps server.AddTool guards the tools the registry records
// with the middleware. mcp.NewTypedToolHandler decodes with encoding/json,
// the default registry's binder.
func ExampleMiddleware() {
	reg := typereg.New()
	if err := typereg.Register[GetWaitStats](reg, "get_wait_stats"); err != nil {
		panic(err)
	}
	rec, _ := reg.Tool("get_wait_stats")
	schema, _ := json.Marshal(rec.Schema())

	s := server.NewMCPServer("waits", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
	s.AddTool(mcp.NewTool("get_wait_stats", mcp.WithRawInputSchema(schema)),
		mcp.NewTypedToolHandler(func(ctx context.Context, req mcp.CallToolRequest, in GetWaitStats) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("ran"), nil
		}))

	r := call(s, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_wait_stats","arguments":{"hours_back":24,"hours":2}}}`)
	fmt.Println(r.Result.Content[0].Text)
	// Output:
	// Argument 'hours' is not a parameter of tool 'get_wait_stats'; did you mean 'hours_back'?
	// Accepted parameters: hours_back, limit, waits.
}

// A tool's options set its policy. Under Warn, a call with a key that
// names no parameter still runs, and its result carries the warnings: as
// text after the handler's own and, since this tool has no output schema,
// as "bindguard_warnings" in structuredContent. An alias (here by option;
// the struct tag bindguard:"alias=..." does the same) reaches the handler
// under its parameter's name.
func ExampleAddTool_warn() {
	s := server.NewMCPServer("waits", "1.0.0")
	reg := typereg.New()
	err := mcpgo.AddTool(s, reg, mcp.NewTool("get_wait_stats"),
		func(ctx context.Context, req mcp.CallToolRequest, in GetWaitStats) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText(fmt.Sprintf("the last %d hours", in.HoursBack)), nil
		},
		typereg.WithMode(typereg.Warn), typereg.WithAlias("hours", "hours_back"))
	if err != nil {
		panic(err)
	}

	out, _ := json.Marshal(s.HandleMessage(context.Background(), json.RawMessage(
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_wait_stats","arguments":{"hours":6,"top":5}}}`)))
	var r struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			StructuredContent struct {
				Warnings struct {
					Problems []struct {
						Argument string `json:"argument"`
						Code     string `json:"code"`
					} `json:"problems"`
				} `json:"bindguard_warnings"`
			} `json:"structuredContent"`
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	_ = json.Unmarshal(out, &r)
	fmt.Println("isError", r.Result.IsError)
	for _, c := range r.Result.Content {
		fmt.Println(c.Text)
	}
	fmt.Printf("%+v\n", r.Result.StructuredContent.Warnings.Problems)
	// Output:
	// isError false
	// the last 6 hours
	// The call to tool 'get_wait_stats' went on with these warnings:
	// Argument 'top' is not a parameter of tool 'get_wait_stats'.
	// Accepted parameters: hours_back, limit, waits.
	// [{Argument:top Code:unknown_argument}]
}
