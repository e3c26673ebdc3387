package gosdk_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

// GetWaitStats is a tool's parameter struct, as a server declares it.
type GetWaitStats struct {
	HoursBack int      `json:"hours_back"`
	Limit     *int32   `json:"limit,omitempty"`
	Waits     []string `json:"waits,omitempty"`
}

func Example() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "waits", Version: "v1.0.0"}, nil)
	reg := typereg.New()
	err := gosdk.AddTool(server, reg, &mcp.Tool{Name: "get_wait_stats"},
		func(_ context.Context, _ *mcp.CallToolRequest, in GetWaitStats) (*mcp.CallToolResult, any, error) {
			text := fmt.Sprintf("wait stats for the last %d hours", in.HoursBack)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	if err != nil {
		log.Fatal(err) // a field the binder cannot decode into, named
	}

	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverTransport, nil); err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v1.0.0"}, nil)
	session, err := client.Connect(ctx, clientTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	for _, args := range []string{
		`{"hours_back": 24}`,
		`{"hours_back": 0.5, "limit": 3000000000, "hours": 2}`,
	} {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_wait_stats", Arguments: json.RawMessage(args)})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("isError %v:\n%s\n", res.IsError, res.Content[0].(*mcp.TextContent).Text)
	}
	// Output:
	// isError false:
	// wait stats for the last 24 hours
	// isError true:
	// Argument 'hours_back' for tool 'get_wait_stats' takes a whole number, and the call sent 0.5.
	// Argument 'limit' for tool 'get_wait_stats' takes a whole number, and the call sent 3000000000, which is too large.
	// Argument 'hours' is not a parameter of tool 'get_wait_stats'; did you mean 'hours_back'?
	// Accepted parameters: hours_back, limit, waits.
}

// A tool's options set its policy. Under Warn, a call with a key that
// names no parameter still runs, and its result carries the warnings: as
// text after the handler's own, and under "bindguard_warnings" in
// structuredContent. An alias (here by option; the struct tag
// bindguard:"alias=..." does the same) reaches the handler under its
// parameter's name.
func ExampleAddTool_warn() {
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "waits", Version: "v1.0.0"}, nil)
	reg := typereg.New()
	err := gosdk.AddTool(server, reg, &mcp.Tool{Name: "get_wait_stats"},
		func(_ context.Context, _ *mcp.CallToolRequest, in GetWaitStats) (*mcp.CallToolResult, any, error) {
			text := fmt.Sprintf("wait stats for the last %d hours", in.HoursBack)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		},
		typereg.WithMode(typereg.Warn), typereg.WithAlias("hours", "hours_back"))
	if err != nil {
		log.Fatal(err)
	}

	clientTransport, serverTransport := mcp.NewInMemoryTransports()
	if _, err := server.Connect(ctx, serverTransport, nil); err != nil {
		log.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "client", Version: "v1.0.0"}, nil)
	session, err := client.Connect(ctx, clientTransport, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer session.Close()

	res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_wait_stats", Arguments: json.RawMessage(`{"hours": 6, "top": 5}`)})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("isError", res.IsError)
	for _, c := range res.Content {
		fmt.Println(c.(*mcp.TextContent).Text)
	}
	var structured struct {
		Warnings struct {
			Problems []struct {
				Argument string `json:"argument"`
				Code     string `json:"code"`
			} `json:"problems"`
		} `json:"bindguard_warnings"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &structured); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%+v\n", structured.Warnings.Problems)
	// Output:
	// isError false
	// wait stats for the last 6 hours
	// The call to tool 'get_wait_stats' went on with these warnings:
	// Argument 'top' is not a parameter of tool 'get_wait_stats'.
	// Accepted parameters: hours_back, limit, waits.
	// [{Argument:top Code:unknown_argument}]
}
