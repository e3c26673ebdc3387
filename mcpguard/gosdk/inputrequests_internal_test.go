package gosdk

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/refuse"
)

// withInputRequests returns a result whose InputRequests is set, or skips
// the test on a go-sdk release without the field (before v1.7.0).
func withInputRequests(t *testing.T) *mcp.CallToolResult {
	t.Helper()
	res := &mcp.CallToolResult{}
	f := reflect.ValueOf(res).Elem().FieldByName("InputRequests")
	if !f.IsValid() {
		t.Skip("this go-sdk has no CallToolResult.InputRequests")
	}
	f.Set(reflect.MakeMap(f.Type()))
	return res
}

// TestInputRequests_ExcludeContent: a result that asks for input gets no
// warnings and no structured output, as go-sdk's own AddTool does, on
// every go-sdk release the adapter builds against.
func TestInputRequests_ExcludeContent(t *testing.T) {
	res := withInputRequests(t)
	addWarnings(res, &refuse.Warnings{})
	if len(res.Content) != 0 || res.StructuredContent != nil {
		t.Errorf("warnings were added to a result that asks for input: %+v", res)
	}
	o := &output[map[string]int]{}
	got, err := o.result(withInputRequests(t), map[string]int{"a": 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got.StructuredContent != nil {
		b, _ := json.Marshal(got.StructuredContent)
		t.Errorf("a result that asks for input got structured output %s", b)
	}
	if plain := (&mcp.CallToolResult{}); asksForInput(plain) {
		t.Error("a result without input requests is said to ask for input")
	}
}
