package gosdk_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/typereg"
)

type (
	recNode struct {
		V    int      `json:"v"`
		Next *recNode `json:"next,omitempty"`
	}
	recKids struct {
		V    int       `json:"v"`
		Kids []recKids `json:"kids,omitempty"`
	}
	RecChain struct {
		*RecChain
		Val  int       `json:"val"`
		Next *RecChain `json:"next,omitempty"`
	}
	recTree  []recTree
	recNodes struct {
		Node  recNode  `json:"node"`
		Kids  recKids  `json:"kids"`
		Chain RecChain `json:"chain"`
		Tree  recTree  `json:"tree"`
		U     uintptr  `json:"u"`
	}
)

// deepArgs is a recNodes call whose every recursive argument is depth
// levels deep, with leaf as the bottom node's member.
func deepArgs(depth int, leaf string) string {
	node, kids, chain, tree := `{`+leaf+`}`, `{`+leaf+`}`, `{"val":1}`, `[]`
	for range depth {
		node = `{"v":1,"next":` + node + `}`
		kids = `{"v":1,"kids":[{"v":2},` + kids + `]}`
		chain = `{"val":1,"next":` + chain + `}`
		tree = `[[],` + tree + `]`
	}
	return `{"node":` + node + `,"kids":` + kids + `,"chain":` + chain + `,"tree":` + tree + `,"u":7}`
}

// A tool whose parameters are recursive types (linked, tree-shaped,
// embedding a pointer to itself, a slice of itself) is added by AddTool,
// listed with a schema that go-sdk and jsonschema-go resolve and that
// accepts a good call 50 levels deep; a wrong-typed value 50 levels down is
// refused through real MCP frames, and the handler never runs on it.
func TestAddTool_RecursiveTypesPublishAndRefuseAtDepth(t *testing.T) {
	reg := typereg.New()
	s := newServer()
	var rec recorder[recNodes]
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "rec"}, rec.handler); err != nil {
		t.Fatalf("AddTool: %v", err)
	}
	cs := connect(t, s)
	tool := listed(t, cs)["rec"]
	if tool == nil {
		t.Fatal("tools/list does not list the tool")
	}
	listedSchema, _ := json.Marshal(tool.InputSchema)
	for _, ref := range []string{`"$ref":"#/$defs/recNode"`, `"$ref":"#/$defs/recKids"`, `"$ref":"#/$defs/RecChain"`, `"$ref":"#/$defs/recTree"`} {
		if !strings.Contains(string(listedSchema), ref) {
			t.Errorf("listed schema %s lacks %s", listedSchema, ref)
		}
	}

	good := deepArgs(50, `"v":3`)
	var v any
	if err := json.Unmarshal([]byte(good), &v); err != nil {
		t.Fatal(err)
	}
	if err := validateAgainst(t, tool.InputSchema, v); err != nil {
		t.Errorf("the listed schema refuses a good call 50 levels deep: %v", err)
	}
	if res := callRaw(t, cs, "rec", good); res.IsError {
		t.Fatalf("a good call 50 levels deep is refused: %s", text(t, res))
	}
	if runs, _, in := rec.last(); runs != 1 || in.U != 7 || in.Node.Next == nil {
		t.Errorf("handler ran %d times, with %+v", runs, in)
	}

	for _, leaf := range []string{`"v":"x"`, `"v":1.5`, `"next":7`, `"kids":{}`} {
		bad := deepArgs(50, leaf)
		res := callRaw(t, cs, "rec", bad)
		r := wantRefusal(t, reg, "rec", wire(t, bad), res, true)
		if r != nil && !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "next") {
			t.Errorf("%s: the refusal does not name the deep path: %s", leaf, text(t, res))
		}
	}
	// A wrong value deep in a type that holds itself through no struct: the
	// refusal says what the type takes without describing it forever.
	bad := strings.Replace(good, `"tree":[[],`, `"tree":[[[[1]]],`, 1)
	wantRefusal(t, reg, "rec", wire(t, bad), callRaw(t, cs, "rec", bad), true)
	if runs, _, _ := rec.last(); runs != 1 {
		t.Errorf("the handler ran on a refused call: %d runs", runs)
	}
}
