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

// A server that keeps adding its tools with mcp.AddTool guards them with
// Middleware and a registry whose binder is InputPath, go-sdk's own input
// path: null for an int is refused by name before go-sdk sees it, 1.0 is
// served as go-sdk serves it, and an int64 past 2^53, which go-sdk rounds,
// comes with a warning.
func ExampleInputPath() {
	type GetQuery struct {
		HoursBack int   `json:"hours_back"`
		QueryID   int64 `json:"query_id,omitempty"`
	}
	ctx := context.Background()
	server := mcp.NewServer(&mcp.Implementation{Name: "queries", Version: "v1.0.0"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "get_query"},
		func(_ context.Context, _ *mcp.CallToolRequest, in GetQuery) (*mcp.CallToolResult, any, error) {
			text := fmt.Sprintf("query %d, last %d hours", in.QueryID, in.HoursBack)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil, nil
		})
	reg := typereg.New(typereg.WithBinder(gosdk.InputPath))
	if err := typereg.Register[GetQuery](reg, "get_query"); err != nil {
		log.Fatal(err)
	}
	server.AddReceivingMiddleware(gosdk.Middleware(reg))

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
		`{"hours_back": null}`,
		`{"hours_back": 1.0}`,
		`{"hours_back": 1, "query_id": 9007199254740993}`,
	} {
		res, err := session.CallTool(ctx, &mcp.CallToolParams{Name: "get_query", Arguments: json.RawMessage(args)})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Printf("isError %v:\n", res.IsError)
		for _, c := range res.Content {
			fmt.Println(c.(*mcp.TextContent).Text)
		}
	}
	// Output:
	// isError true:
	// Argument 'hours_back' for tool 'get_query' takes a whole number, and the call sent null.
	// Accepted parameters: hours_back, query_id.
	// isError false:
	// query 0, last 1 hours
	// isError false:
	// query 9007199254740992, last 1 hours
	// The call to tool 'get_query' went on with these warnings:
	// Argument 'query_id' for tool 'get_query' takes a whole number, and the call sent 9007199254740993, which the tool does not read as sent.
	// Accepted parameters: hours_back, query_id.
}
