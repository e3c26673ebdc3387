package snippets

import (
	"context"
	"encoding/json"
	"errors"
	"log"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// useIt is the README's "Use it" block: it returns the refusal as the
// server's tool error, or nil when the handler may run.
func useIt(args json.RawMessage) error {
	toolError := func(r *refuse.Refusal) error { return r }

	// snippet: readme-use-it
	type GetWaitStats struct {
		HoursBack int      `json:"hours_back"`
		Limit     *int32   `json:"limit,omitempty"`
		Waits     []string `json:"waits,omitempty"`
	}

	reg := typereg.New()
	if err := typereg.Register[GetWaitStats](reg, "get_wait_stats"); err != nil {
		log.Fatal(err) // a field the binder cannot decode into, named
	}

	// Before dispatch, with the raw arguments of a tools/call:
	if r := refuse.Refuse(reg, "get_wait_stats", args); r != nil {
		// A tool error the model can read: r.Error() is the text,
		// r.Problems the structured form (argument, code, takes, sent).
		return toolError(r)
	}
	// The binder reads args: decode and run the handler.
	// end snippet
	return nil
}

// TestReadme_UseIt_RefusesAsTheReadmeShows runs the block on the call the
// README quotes, and holds the README's refusal text to what it prints.
func TestReadme_UseIt_RefusesAsTheReadmeShows(t *testing.T) {
	if err := useIt(json.RawMessage(`{"hours_back":3,"waits":["io"]}`)); err != nil {
		t.Fatalf("a good call was refused: %v", err)
	}
	err := useIt(json.RawMessage(`{"hours_back":0.5}`))
	var r *refuse.Refusal
	if !errors.As(err, &r) {
		t.Fatalf("the call with 0.5 was not refused: %v", err)
	}
	if r.Problems[0].Argument != "hours_back" || r.Problems[0].Code != refuse.NotWholeNumber {
		t.Errorf("problem = %+v, want one for hours_back", r.Problems[0])
	}
	readme, rerr := os.ReadFile("../../README.md")
	if rerr != nil {
		t.Fatal(rerr)
	}
	var quoted []string
	for _, l := range strings.Split(strings.TrimRight(r.Error(), "\n"), "\n") {
		quoted = append(quoted, "    "+l)
	}
	if !strings.Contains(string(readme), strings.Join(quoted, "\n")+"\n") {
		t.Errorf("the README does not show the refusal as it is; it is:\n%s", strings.Join(quoted, "\n"))
	}
}

// readmeReg is the registry the README's bindtest block reads.
var readmeReg = func() *typereg.Registry {
	type GetWaitStats struct {
		HoursBack int      `json:"hours_back"`
		Limit     *int32   `json:"limit,omitempty"`
		Waits     []string `json:"waits,omitempty"`
	}
	reg := typereg.New()
	if err := typereg.Register[GetWaitStats](reg, "get_wait_stats"); err != nil {
		panic(err)
	}
	return reg
}()

// The README's bindtest block, as a user pastes it into a test file: it
// names its registry reg.
var reg = readmeReg

// snippet: readme-bindtest
func TestArgumentsAgreeWithTheBinder(t *testing.T) {
	bindtest.Run(t, reg, "get_wait_stats", []bindtest.Row{
		{Type: "int", Value: `0.5`, Refused: true, Says: "takes a whole number"},
		{Type: "*int32", Value: `null`}, // null for a pointer: nil, read as sent
		// encoding/json reads null as "leave it": the element stays "", a silent loss.
		{Type: "[]string", Value: `["io",null]`, Loss: "null_for_value"},
	})
}

// end snippet

// constraintsReg registers the README's constrained tool.
func constraintsReg(t *testing.T) *typereg.Registry {
	// snippet: readme-constraints
	type GetWaitStats struct {
		HoursBack int      `json:"hours_back" validate:"min=1,max=168"`
		Limit     int32    `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
		Waits     []string `json:"waits,omitempty" validate:"max=5,dive,min=1"`
	}
	// end snippet
	reg := typereg.New()
	if err := typereg.Register[GetWaitStats](reg, "get_wait_stats"); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestReadme_Constraints_StateTheToolsRange(t *testing.T) {
	reg := constraintsReg(t)
	r := refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"hours_back":500}`))
	if r == nil {
		t.Fatal("500 hours was not refused")
	}
	const want = "Argument 'hours_back' for tool 'get_wait_stats' takes a whole number from 1 to 168, and the call sent 500."
	if !strings.Contains(r.Error(), want) {
		t.Errorf("refusal = %q, want it to say %q (the README quotes it)", r.Error(), want)
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(strings.Fields(string(readme)), " "), `("`+want+`")`) {
		t.Errorf("the README no longer quotes %q", want)
	}
	bindtest.Constraints(t, reg)
}

// gosdkServer is the README's go-sdk block: it returns the server and the
// error AddTool returned.
func gosdkServer() (*mcp.Server, error) {
	type GetWaitStats struct {
		HoursBack int      `json:"hours_back"`
		Limit     *int32   `json:"limit,omitempty"`
		Waits     []string `json:"waits,omitempty"`
	}
	report := func(in GetWaitStats) string {
		b, _ := json.Marshal(in)
		return string(b)
	}

	// snippet: readme-gosdk
	reg := typereg.New()
	server := mcp.NewServer(&mcp.Implementation{Name: "waitstats"}, nil)
	err := gosdk.AddTool(server, reg, &mcp.Tool{Name: "get_wait_stats"},
		func(ctx context.Context, req *mcp.CallToolRequest, in GetWaitStats) (*mcp.CallToolResult, any, error) {
			// in holds exactly what encoding/json reads: integers past 2^53 stay exact.
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: report(in)}}}, nil, nil
		})
	// end snippet
	return server, err
}

// TestReadme_GoSDK_GuardsThroughRealFrames calls the README's server over
// an in-memory MCP transport: a good call runs the handler, a bad one is a
// tool error naming the argument.
func TestReadme_GoSDK_GuardsThroughRealFrames(t *testing.T) {
	server, err := gosdkServer()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	client := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	call := func(args string) *mcp.CallToolResult {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_wait_stats", Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return res
	}
	text := func(res *mcp.CallToolResult) string {
		var b strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				b.WriteString(tc.Text)
			}
		}
		return b.String()
	}
	if res := call(`{"hours_back":9007199254740993}`); res.IsError || !strings.Contains(text(res), "9007199254740993") {
		t.Errorf("good call: isError=%v text=%q, want the exact integer back", res.IsError, text(res))
	}
	if res := call(`{"hours_back":0.5}`); !res.IsError || !strings.Contains(text(res), "Argument 'hours_back'") {
		t.Errorf("bad call: isError=%v text=%q, want a refusal naming hours_back", res.IsError, text(res))
	}
}
