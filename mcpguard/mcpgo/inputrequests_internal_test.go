package mcpgo

import (
	"reflect"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/bindguard/bindguard/refuse"
)

// TestInputRequests_ExcludeWarnings: a result that asks the client for
// input (ResultType "input_required", mcp-go v1.0.0 on) gets no warnings,
// on every mcp-go release the adapter builds against; the test skips on a
// release without the field.
func TestInputRequests_ExcludeWarnings(t *testing.T) {
	res := &mcp.CallToolResult{}
	if asksForInput(res) {
		t.Fatal("a plain result is said to ask for input")
	}
	f := reflect.ValueOf(res).Elem().FieldByName("ResultType")
	if !f.IsValid() {
		t.Skip("this mcp-go has no CallToolResult.ResultType")
	}
	f.SetString("input_required")
	addWarnings(res, &refuse.Warnings{}, nil)
	if len(res.Content) != 0 || res.StructuredContent != nil {
		t.Errorf("warnings were added to a result that asks for input: %+v", res)
	}
}
