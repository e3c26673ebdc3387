package gosdk_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

type pageItem struct {
	ID int `json:"id"`
}

type page[T any] struct {
	Items []T `json:"items"`
}

type genericParams struct {
	Page page[pageItem] `json:"page"`
}

// TestAddTool_GenericFieldType_ListsAndRefuses: a tool whose parameter is
// an instance of a generic type lists an input schema whose $refs a
// client's validator resolves, a good call runs, and a bad value inside it
// is refused by name, through real MCP frames. It failed: the definition's
// name held the type argument's package path, whose '/' the $ref's JSON
// Pointer reads as a step, so the listed schema did not resolve.
func TestAddTool_GenericFieldType_ListsAndRefuses(t *testing.T) {
	s := newServer()
	reg := typereg.New()
	var rec recorder[genericParams]
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "pages"}, rec.handler); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	lr, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(lr.Tools[0].InputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	if _, err := schema.Resolve(nil); err != nil {
		t.Errorf("the listed input schema does not resolve: %v\n%s", err, b)
	}
	if res := callRaw(t, cs, "pages", `{"page":{"items":[{"id":1}]}}`); res.IsError {
		t.Fatalf("a good call: %s", text(t, res))
	}
	res := callRaw(t, cs, "pages", `{"page":{"items":[{"id":"x"}]}}`)
	if !res.IsError || !strings.Contains(text(t, res), "Argument 'page'") {
		t.Errorf("a bad id: isError=%v %s", res.IsError, text(t, res))
	}
	if runs, _, _ := rec.last(); runs != 1 {
		t.Errorf("the handler ran %d times, want 1 (the good call)", runs)
	}
}
