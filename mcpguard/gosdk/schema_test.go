package gosdk_test

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type searchArgs struct {
	Query  string   `json:"query"`
	Limit  *int32   `json:"limit,omitempty"`
	Tags   []string `json:"tags,omitempty"`
	Hidden int      `json:"hidden" jsonschema:"-"` // invopop leaves it out; the binder binds it
	Page
}

type Page struct {
	Cursor string `json:"cursor,omitempty"`
}

// listed returns the tools a client sees in tools/list, by name.
func listed(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tl := range res.Tools {
		tools[tl.Name] = tl
	}
	return tools
}

// asJSON is v as generic JSON (maps, slices, float64), for comparing what
// a client received with what the server holds.
func asJSON(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var g any
	if err := json.Unmarshal(b, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// tools/list shows, for a tool added with AddTool, exactly the schema the
// registry records: closed, with the recorded keys as its properties (a
// field tagged jsonschema:"-" included, since the binder binds it).
func TestAddTool_ToolsListPublishesTheRegistrysClosedSchema(t *testing.T) {
	reg := typereg.New()
	s := newServer()
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: probe.Tool}, (&recorder[probe.Args]{}).handler); err != nil {
		t.Fatal(err)
	}
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "search", Description: "Search the index."}, (&recorder[searchArgs]{}).handler); err != nil {
		t.Fatal(err)
	}
	tools := listed(t, connect(t, s))
	for _, name := range []string{probe.Tool, "search"} {
		rec, _ := reg.Tool(name)
		tl, ok := tools[name]
		if !ok {
			t.Fatalf("tools/list lacks %q", name)
		}
		if diff := cmp.Diff(asJSON(t, rec.Schema()), asJSON(t, tl.InputSchema)); diff != "" {
			t.Errorf("%s: published input schema (-registry +tools/list):\n%s", name, diff)
		}
		schema, _ := asJSON(t, tl.InputSchema).(map[string]any)
		if schema["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties = %v, want false", name, schema["additionalProperties"])
		}
		props, _ := schema["properties"].(map[string]any)
		var keys []string
		for k := range props {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		want := slices.Sorted(slices.Values(rec.Accepted()))
		if diff := cmp.Diff(want, keys); diff != "" {
			t.Errorf("%s: published properties (-recorded +published):\n%s", name, diff)
		}
	}
	if got := tools["search"].Description; got != "Search the index." {
		t.Errorf("description = %q, lost on the way", got)
	}
}

// What tools/list publishes is what the guard enforces: no published
// property is refused as an unknown argument, and a key the schema does not
// publish is, by name, before the handler runs.
func TestAddTool_ToolsListPublishesWhatRefuseEnforces(t *testing.T) {
	reg := typereg.New()
	var rec recorder[searchArgs]
	s := newServer()
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "search"}, rec.handler); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	schema, _ := asJSON(t, listed(t, cs)["search"].InputSchema).(map[string]any)
	props, _ := schema["properties"].(map[string]any)
	if len(props) == 0 {
		t.Fatal("the published schema has no properties")
	}
	for key := range props {
		// The required parameters sent, and the key itself (null for an
		// optional one is read, a silent loss at worst, which is a
		// warning; null for a required one does not count as sending it).
		call := map[string]any{"query": "x", "hidden": 1}
		if _, required := call[key]; !required {
			call[key] = nil
		}
		b, _ := json.Marshal(call)
		args := string(b)
		res := callRaw(t, cs, "search", args)
		if res.IsError {
			t.Errorf("%s: published key refused: %s", args, text(t, res))
		}
	}
	for _, args := range []string{`{"query": "x", "hidden": 1, "limt": 5}`, `{"query": "x", "hidden": 1, "cursor": "c", "page": 2}`} {
		before, _, _ := rec.last()
		res := callRaw(t, cs, "search", args)
		if runs, _, _ := rec.last(); runs != before {
			t.Errorf("%s: the handler ran on a refused call", args)
		}
		r := wantRefusal(t, reg, "search", wire(t, args), res, true)
		if len(r.Problems) != 1 || r.Problems[0].Code != refuse.UnknownArgument {
			t.Errorf("%s: problems %+v, want one unknown argument", args, r.Problems)
		}
		if _, published := props[r.Problems[0].Argument]; published {
			t.Errorf("%s: refused %q, which tools/list publishes", args, r.Problems[0].Argument)
		}
	}
}
