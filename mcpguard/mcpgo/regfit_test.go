package mcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/invopop/jsonschema"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// grafanaReflector is the reflector grafana's mcp-go server publishes its
// tools' input schemas with.
var grafanaReflector = jsonschema.Reflector{
	Anonymous:                  true,
	AllowAdditionalProperties:  true,
	DoNotReference:             true,
	ExpandedStruct:             true,
	RequiredFromJSONSchemaTags: true,
}

type searchArgs struct {
	Query  string        `json:"query" jsonschema:"required,description=The text to search for"`
	Limit  int           `json:"limit" jsonschema:"description=At most this many results"`
	Tags   []string      `json:"tags" jsonschema:"description=Only dashboards with these tags"`
	Filter *searchFilter `json:"filter,omitempty" jsonschema:"description=Narrow the search"`
}

type searchFilter struct {
	Label string `json:"label" jsonschema:"required,description=A label"`
	Value string `json:"value" jsonschema:"description=Its value"`
}

type updateReadArgs struct {
	UID string `json:"uid" jsonschema:"required,description=The dashboard's UID"`
}

type updateWriteArgs struct {
	UID       string `json:"uid" jsonschema:"required,description=The dashboard's UID"`
	Overwrite bool   `json:"overwrite" jsonschema:"description=Replace a dashboard of the same UID"`
}

// A grafanaTool is a tool as grafana's generic ConvertTool leaves it: the
// mcp.Tool, a handler of the server's own (it re-marshals mcp-go's map of
// the arguments and decodes that, and converts the result itself), and
// the parameter type, read off the handler.
type grafanaTool struct {
	tool    mcp.Tool
	handler server.ToolHandlerFunc
	in      reflect.Type
}

func convertTool[T any, R any](name, description string, h func(context.Context, T) (R, error)) grafanaTool {
	handler := func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		b, err := json.Marshal(req.GetArguments())
		if err != nil {
			return nil, err
		}
		var args T
		if err := json.Unmarshal(b, &args); err != nil {
			return nil, fmt.Errorf("unmarshal args: %w", err)
		}
		r, err := h(ctx, args)
		if err != nil {
			return mcp.NewToolResultError(err.Error()), nil
		}
		out, _ := json.Marshal(r)
		return mcp.NewToolResultText(string(out)), nil
	}
	return grafanaTool{tool: mcp.NewTool(name, mcp.WithDescription(description)), handler: handler, in: reflect.TypeFor[T]()}
}

// addTools is where grafana adds its tools, after the type parameter is
// gone: each is registered there, and added with the schema Register
// returns.
func addTools(t *testing.T, s *server.MCPServer, reg *typereg.Registry, tools ...grafanaTool) {
	t.Helper()
	for _, gt := range tools {
		tl, err := mcpgo.Register(reg, gt.tool, gt.in, typereg.WithReflector(&grafanaReflector))
		if err != nil {
			t.Fatal(err)
		}
		s.AddTool(tl, gt.handler)
	}
}

func echo[T any](_ context.Context, args T) (T, error) { return args, nil }

// TestRegister_GrafanaStyleServer pins the register-only route for a
// server built as grafana's is: tools converted by a generic wrapper with
// handlers of the server's own, added (and registered) after the type
// parameter is gone, a name defined twice with different structs
// (read-only and read-write servers), schemas reflected with
// RequiredFromJSONSchemaTags and open additional properties, and
// Middleware in front. tools/list publishes what the server's own
// reflector publishes (required, descriptions, open), calls the server
// serves are served, and calls it cannot serve are refused in the guard's
// words. It failed: mcpgo.Register did not exist.
func TestRegister_GrafanaStyleServer(t *testing.T) {
	for name, c := range map[string]struct {
		update  grafanaTool
		in      any
		served  []string
		refused []string
	}{
		"read-only": {
			convertTool("update_dashboard", "update", echo[updateReadArgs]), &updateReadArgs{},
			[]string{`{"uid":"a"}`, `{"uid":"a","note":"x"}`},
			[]string{`{}`, `{"uid":1}`},
		},
		"read-write": {
			convertTool("update_dashboard", "update", echo[updateWriteArgs]), &updateWriteArgs{},
			[]string{`{"uid":"a"}`, `{"uid":"a","overwrite":true}`},
			[]string{`{"uid":"a","overwrite":"yes"}`, `{"overwrite":true}`},
		},
	} {
		t.Run(name, func(t *testing.T) {
			reg := typereg.New()
			s := server.NewMCPServer("grafana", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
			addTools(t, s, reg, convertTool("search_dashboards", "search", echo[searchArgs]), c.update)

			listedSchemas := map[string]json.RawMessage{}
			for _, tl := range send(t, s, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)).Result.Tools {
				listedSchemas[tl.Name] = tl.InputSchema
			}
			for tool, in := range map[string]any{"search_dashboards": &searchArgs{}, "update_dashboard": c.in} {
				own, _ := json.Marshal(grafanaReflector.Reflect(in))
				if diff := cmp.Diff(publishedRules(t, own), publishedRules(t, listedSchemas[tool])); diff != "" {
					t.Errorf("%s: tools/list (-server's own reflector +published):\n%s", tool, diff)
				}
			}

			served := map[string][]string{
				"search_dashboards": {`{"query":"cpu"}`, `{"query":"cpu","limit":5,"extra":true}`, `{"query":"cpu","filter":{"label":"a","extra":1}}`},
				"update_dashboard":  c.served,
			}
			for tool, calls := range served {
				for _, args := range calls {
					if r := send(t, s, callFrame(tool, args)); r.Result == nil || r.Result.IsError {
						t.Errorf("%s %s: refused, which the server serves: %+v", tool, args, r)
					}
				}
			}
			for _, args := range c.refused {
				r := send(t, s, callFrame("update_dashboard", args))
				want := refuse.Refuse(reg, "update_dashboard", []byte(args))
				if want == nil || r.Result == nil || !r.Result.IsError || r.text(t) != want.Error() {
					t.Errorf("%s: got %+v, want the refusal %v", args, r, want)
				}
			}
		})
	}
}

// publishedRules is what a schema says a call must and may send, and its
// descriptions: required, whether other keys may come, and each
// property's type and description.
func publishedRules(t *testing.T, schema json.RawMessage) map[string]any {
	t.Helper()
	var s struct {
		Required             []string `json:"required"`
		AdditionalProperties *bool    `json:"additionalProperties"`
		Properties           map[string]struct {
			Type        string `json:"type"`
			Ref         string `json:"$ref"`
			Description string `json:"description"`
		} `json:"properties"`
		Defs map[string]struct {
			Type string `json:"type"`
		} `json:"$defs"`
	}
	if err := json.Unmarshal(schema, &s); err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	out := map[string]any{"required": s.Required, "closed": s.AdditionalProperties != nil && !*s.AdditionalProperties}
	for k, p := range s.Properties {
		if p.Ref != "" { // the type a $ref names, as a schema inlined would state it
			p.Type = s.Defs[strings.TrimPrefix(p.Ref, "#/$defs/")].Type
		}
		out[k] = p.Type + ": " + p.Description
	}
	return out
}

// TestRegister_RefusesAToolWithASchema pins that Register, like AddTool,
// will not publish over a schema the tool already has, and records
// nothing then.
func TestRegister_RefusesAToolWithASchema(t *testing.T) {
	reg := typereg.New()
	tool := mcp.NewTool("s", mcp.WithString("query", mcp.Required()))
	if _, err := mcpgo.Register(reg, tool, reflect.TypeFor[searchArgs]()); err == nil {
		t.Errorf("Register = nil, want an error")
	}
	if _, ok := reg.Tool("s"); ok {
		t.Errorf("a failed Register left a record")
	}
}

type pointerArgs struct {
	N int `json:"n,omitempty"`
}

// TestAddTool_PointerIn_AsTypedToolHandler pins that AddTool takes a
// pointer parameter type, and gives the handler what
// mcp.NewTypedToolHandler gives it: the struct for an object, nil for null
// and for no arguments. It failed: every call was refused ("registered
// with parameters pointerArgs, but its handler takes *pointerArgs").
func TestAddTool_PointerIn_AsTypedToolHandler(t *testing.T) {
	h := func(_ context.Context, _ mcp.CallToolRequest, in *pointerArgs) (*mcp.CallToolResult, error) {
		if in == nil {
			return mcp.NewToolResultText("nil"), nil
		}
		return mcp.NewToolResultText(fmt.Sprint(in.N)), nil
	}
	plain := server.NewMCPServer("plain", "1.0.0")
	plain.AddTool(mcp.NewTool("p"), mcp.NewTypedToolHandler(h))
	guarded := server.NewMCPServer("guarded", "1.0.0")
	if err := mcpgo.AddTool(guarded, typereg.New(), mcp.NewTool("p"), h); err != nil {
		t.Fatal(err)
	}
	bare := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"p"}}`)
	for _, frame := range [][]byte{callFrame("p", `{"n":2}`), callFrame("p", `{}`), callFrame("p", `null`), bare} {
		want, got := send(t, plain, frame).text(t), send(t, guarded, frame).text(t)
		if got != want {
			t.Errorf("%s: the guarded handler got %s, mcp.NewTypedToolHandler's %s", frame, got, want)
		}
	}
}

// TestAddTool_RegistryWideReflector_PublishesTheRecord pins that AddTool
// publishes the schema reg records when reg itself says how schemas are
// made (typereg.New(typereg.WithReflector(...))): what tools/list shows is
// what the guard enforces. It failed: AddTool published a schema made
// without the registry's options (limit and tags required, closed), while
// the guard required only query.
func TestAddTool_RegistryWideReflector_PublishesTheRecord(t *testing.T) {
	reg := typereg.New(typereg.WithReflector(&grafanaReflector))
	s := server.NewMCPServer("grafana", "1.0.0")
	h := func(_ context.Context, _ mcp.CallToolRequest, in searchArgs) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText(in.Query), nil
	}
	if err := mcpgo.AddTool(s, reg, mcp.NewTool("search_dashboards"), h); err != nil {
		t.Fatal(err)
	}
	published := send(t, s, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)).Result.Tools[0].InputSchema
	rec, _ := reg.Tool("search_dashboards")
	want, _ := json.Marshal(rec.Schema())
	if diff := cmp.Diff(publishedRules(t, want), publishedRules(t, published)); diff != "" {
		t.Errorf("tools/list (-record +published):\n%s", diff)
	}
	if r := send(t, s, callFrame("search_dashboards", `{"query":"cpu","extra":1}`)); r.Result == nil || r.Result.IsError {
		t.Errorf("a call the published schema admits: %+v", r)
	}
}
