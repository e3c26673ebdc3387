package mcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/mcpguard/internal/policycases"
	"github.com/bindguard/bindguard/mcpguard/mcpgo"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// The cases and their tools are the adapters' shared table.
type (
	policyArgs = policycases.Params
	policyCase = policycases.Case
	outcome    = policycases.Outcome
)

var (
	policyCases = policycases.Cases
	toolOpts    = policycases.ToolOpts
)

var modes = []typereg.Mode{typereg.Reject, typereg.Warn, typereg.Off}

// A policyHandler records what a typed handler got: its In, its raw
// arguments and the keys of mcp-go's map of them.
type policyHandler struct {
	mu   sync.Mutex
	runs int
	in   policyArgs
	raw  json.RawMessage
	keys []string
}

func (h *policyHandler) handle(_ context.Context, req mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runs++
	h.in, h.raw = in, append(json.RawMessage(nil), req.Params.RawArguments...)
	h.keys = nil
	for k := range req.GetArguments() {
		h.keys = append(h.keys, k)
	}
	return mcp.NewToolResultText("ran"), nil
}

func (h *policyHandler) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runs, h.in, h.raw, h.keys = 0, policyArgs{}, nil, nil
}

// checkOutcome requires r, the reply to c's call in one mode, and what h
// saw, to be want. A refusal is refuse.Decide's, as RefusalResult words it;
// a call that goes on has the handler's text ("ran") and, with warnings,
// their text after it and their JSON as structuredContent's
// bindguard_warnings (the tools have no output schema: the member is
// structuredContent's only one).
func checkOutcome(t *testing.T, reg *typereg.Registry, c policyCase, want outcome, h *policyHandler, r reply) {
	t.Helper()
	if r.Result == nil {
		t.Fatalf("a JSON-RPC error: %+v", r.Error)
	}
	h.mu.Lock()
	runs, in, raw, keys := h.runs, h.in, h.raw, h.keys
	h.mu.Unlock()
	d := refuse.Decide(reg, c.Tool, json.RawMessage(c.Args))
	if want.Refused != nil {
		if d.Refusal == nil {
			t.Fatal("refuse.Decide passes the call: the test expects a refusal")
		}
		if got := r.text(t); !r.Result.IsError || got != d.Refusal.Error() {
			t.Errorf("isError %v, text:\n%s\nwant the refusal:\n%s", r.Result.IsError, got, d.Refusal.Error())
		}
		var got refuse.Refusal
		if err := json.Unmarshal(r.Result.StructuredContent, &got); err != nil {
			t.Fatalf("structuredContent %s: %v", r.Result.StructuredContent, err)
		}
		var codes []refuse.Code
		for _, p := range got.Problems {
			codes = append(codes, p.Code)
		}
		if diff := cmp.Diff(want.Refused, codes); diff != "" {
			t.Errorf("refusal codes (-want +got):\n%s", diff)
		}
		if runs != 0 {
			t.Error("the handler ran on a refused call")
		}
		return
	}
	if want.DecodeErr {
		if got := r.text(t); !r.Result.IsError || !strings.HasPrefix(got, "failed to bind arguments: json: cannot unmarshal") {
			t.Errorf("want mcp-go's binding error, got isError %v: %s", r.Result.IsError, got)
		}
		if runs != 0 {
			t.Error("the handler ran on arguments the binder cannot decode")
		}
		return
	}
	if r.Result.IsError {
		t.Fatalf("the call was refused: %+v", r.Result.Content)
	}
	if runs != 1 {
		t.Fatalf("the handler ran %d times, want once", runs)
	}
	if diff := cmp.Diff(want.In, in); diff != "" {
		t.Errorf("the handler got (-want +got):\n%s", diff)
	}
	var rawKeys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &rawKeys); err != nil {
		t.Fatalf("the handler's raw arguments %s: %v", raw, err)
	}
	for _, k := range want.RawHas {
		if _, ok := rawKeys[k]; !ok {
			t.Errorf("the handler's raw arguments %s lack %q", raw, k)
		}
		if !slices.Contains(keys, k) {
			t.Errorf("the handler's GetArguments %v lacks %q", keys, k)
		}
	}
	for _, k := range want.RawLacks {
		if _, ok := rawKeys[k]; ok {
			t.Errorf("the handler's raw arguments %s hold %q", raw, k)
		}
		if slices.Contains(keys, k) {
			t.Errorf("the handler's GetArguments %v holds %q", keys, k)
		}
	}
	content := r.Result.Content
	if len(content) == 0 || content[0].Text != "ran" {
		t.Fatalf("content %+v does not start with the handler's", content)
	}
	if want.Warned == nil {
		if len(content) != 1 || r.Result.StructuredContent != nil {
			t.Errorf("a clean call got more than the handler's result: content %+v, structuredContent %s", content, r.Result.StructuredContent)
		}
		return
	}
	if d.Warnings == nil {
		t.Fatal("refuse.Decide gives no warnings: the test expects some")
	}
	var codes []refuse.Code
	for _, p := range d.Warnings.Problems {
		codes = append(codes, p.Code)
	}
	if diff := cmp.Diff(want.Warned, codes); diff != "" {
		t.Errorf("warning codes (-want +got):\n%s", diff)
	}
	if len(content) != 2 || content[1].Text != d.Warnings.String() {
		t.Errorf("content %+v, want the handler's and then the warnings' text:\n%s", content, d.Warnings.String())
	}
	var sc map[string]*refuse.Warnings
	if err := json.Unmarshal(r.Result.StructuredContent, &sc); err != nil || len(sc) != 1 || sc["bindguard_warnings"] == nil {
		t.Fatalf("structuredContent %s: want bindguard_warnings alone (%v)", r.Result.StructuredContent, err)
	}
	if diff := cmp.Diff(d.Warnings, sc["bindguard_warnings"]); diff != "" {
		t.Errorf("structuredContent's bindguard_warnings (-want +got):\n%s", diff)
	}
}

// Each policy, in each mode, through AddTool, in real tools/call frames:
// what is refused, what runs and with what In and raw arguments, and the
// warnings on the result.
func TestAddTool_Policies(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			reg, s := typereg.New(), server.NewMCPServer("p", "1.0.0")
			handlers := map[string]*policyHandler{}
			for name, opts := range toolOpts(mode) {
				h := &policyHandler{}
				handlers[name] = h
				if err := mcpgo.AddTool(s, reg, mcp.NewTool(name), h.handle, opts...); err != nil {
					t.Fatal(err)
				}
			}
			for _, c := range policyCases() {
				t.Run(c.Name, func(t *testing.T) {
					h := handlers[c.Tool]
					h.reset()
					checkOutcome(t, reg, c, c.Want(mode), h, send(t, s, callFrame(c.Tool, c.Args)))
				})
			}
		})
	}
}

// The same through Middleware, in front of server.AddTool with
// mcp.NewTypedToolHandler (which binds RawArguments with encoding/json):
// an alias reaches it under its parameter's name, in RawArguments and in
// GetArguments alike; under Off, its own binding error answers.
func TestMiddleware_Policies(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			reg := typereg.New()
			s := server.NewMCPServer("p", "1.0.0", server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
			handlers := map[string]*policyHandler{}
			for name, opts := range toolOpts(mode) {
				if err := typereg.Register[policyArgs](reg, name, opts...); err != nil {
					t.Fatal(err)
				}
				rec, _ := reg.Tool(name)
				schema, _ := json.Marshal(rec.Schema())
				h := &policyHandler{}
				handlers[name] = h
				s.AddTool(mcp.NewTool(name, mcp.WithRawInputSchema(schema)), mcp.NewTypedToolHandler(h.handle))
			}
			for _, c := range policyCases() {
				t.Run(c.Name, func(t *testing.T) {
					h := handlers[c.Tool]
					h.reset()
					checkOutcome(t, reg, c, c.Want(mode), h, send(t, s, callFrame(c.Tool, c.Args)))
				})
			}
		})
	}
}

// The published input schema follows the policy: an open tool's is not
// closed at the root, a closed tool's is, and neither lists an alias or an
// exempt key.
func TestAddTool_PublishedSchemaFollowsThePolicy(t *testing.T) {
	reg, s := typereg.New(), server.NewMCPServer("p", "1.0.0")
	for name, opts := range toolOpts(typereg.Reject) {
		if err := mcpgo.AddTool(s, reg, mcp.NewTool(name), (&policyHandler{}).handle, opts...); err != nil {
			t.Fatal(err)
		}
	}
	r := send(t, s, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	for _, tl := range r.Result.Tools {
		var schema struct {
			AdditionalProperties *bool                      `json:"additionalProperties"`
			Properties           map[string]json.RawMessage `json:"properties"`
		}
		if err := json.Unmarshal(tl.InputSchema, &schema); err != nil {
			t.Fatal(err)
		}
		closed := schema.AdditionalProperties != nil && !*schema.AdditionalProperties
		if closed != (tl.Name == "t") {
			t.Errorf("%s: closed %v: %s", tl.Name, closed, tl.InputSchema)
		}
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range schema.Properties {
				if !yield(k) {
					return
				}
			}
		})
		if diff := cmp.Diff([]string{"hours", "limit", "query"}, keys); diff != "" {
			t.Errorf("%s: published properties (-want +got):\n%s", tl.Name, diff)
		}
	}
	if len(r.Result.Tools) != 2 {
		t.Errorf("tools/list lists %d tools, want 2", len(r.Result.Tools))
	}
}

// AddTool passes its options to the registry: a bad one fails, naming it,
// and adds nothing. When reg itself is misconfigured (seen only by the
// final registration, after the trial one passed), the server gets back
// the tool it had under that name.
func TestAddTool_FailedRegistration_LeavesServerAndRegistryAsTheyWere(t *testing.T) {
	t.Run("bad option", func(t *testing.T) {
		reg, s := typereg.New(), server.NewMCPServer("p", "1.0.0")
		err := mcpgo.AddTool(s, reg, mcp.NewTool("t"), (&policyHandler{}).handle, typereg.WithAlias("h", "nope"))
		if err == nil || !strings.Contains(err.Error(), `"nope"`) {
			t.Fatalf("err = %v, want one naming the alias's missing parameter", err)
		}
		if _, ok := reg.Tool("t"); ok {
			t.Error("the registry records the tool")
		}
		if s.GetTool("t") != nil {
			t.Error("the server has the tool")
		}
	})
	t.Run("misconfigured registry", func(t *testing.T) {
		reg, s := typereg.New(typereg.WithOpen()), server.NewMCPServer("p", "1.0.0")
		s.AddTool(mcp.NewTool("t"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("the old tool"), nil
		})
		err := mcpgo.AddTool(s, reg, mcp.NewTool("t"), (&policyHandler{}).handle)
		if err == nil || !strings.Contains(err.Error(), "WithOpen") {
			t.Fatalf("err = %v, want the registry's own error", err)
		}
		if got := send(t, s, callFrame("t", `{}`)).text(t); got != "the old tool" {
			t.Errorf("the server answers %q, want the old tool", got)
		}
		s2 := server.NewMCPServer("p", "1.0.0")
		if mcpgo.AddTool(s2, reg, mcp.NewTool("t"), (&policyHandler{}).handle) == nil || s2.GetTool("t") != nil {
			t.Error("with no old tool, the server keeps the new one")
		}
	})
}

// waitRows is an output, with a closed output schema.
type waitRows struct {
	Rows int `json:"rows"`
}

const closedOutput = `{"type":"object","properties":{"rows":{"type":"integer"}},"required":["rows"],"additionalProperties":false}`

// connectClient starts a real mcp-go client on s, in process, and
// initializes the session.
func connectClient(t *testing.T, s *server.MCPServer) *client.Client {
	t.Helper()
	c, err := client.NewInProcessClient(s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: "bindguard-test", Version: "v0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatal(err)
	}
	return c
}

// validateAgainst validates structured, a result's structuredContent as a
// client receives it, against schema, a listed output schema, as a client
// that checks them does (the TypeScript SDK's Client.callTool; mcp-go's
// client does not).
func validateAgainst(t *testing.T, schema, structured any) error {
	t.Helper()
	var s jsonschema.Schema
	b, _ := json.Marshal(schema)
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	resolved, err := s.Resolve(nil)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	b, _ = json.Marshal(structured)
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return resolved.Validate(&v)
}

// A warned call of a tool added with AddTool whose output schema is closed
// carries its warnings in structuredContent beside the output, through a
// real client session: mcp-go's own output validation
// (WithOutputSchemaValidation) accepts the result, and it is valid against
// the output schema tools/list publishes, which lists bindguard_warnings as
// an optional property. Against the schema as given, it is not: the check
// can fail.
func TestAddTool_WarningsFitTheOutputSchema(t *testing.T) {
	reg := typereg.New()
	s := server.NewMCPServer("p", "1.0.0", server.WithOutputSchemaValidation())
	err := mcpgo.AddTool(s, reg, mcp.NewTool("waits", mcp.WithRawOutputSchema(json.RawMessage(closedOutput))),
		func(_ context.Context, _ mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultStructured(waitRows{Rows: in.Hours}, "rows"), nil
		}, typereg.WithMode(typereg.Warn))
	if err != nil {
		t.Fatal(err)
	}
	c := connectClient(t, s)
	ctx := context.Background()
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) != 1 {
		t.Fatalf("tools/list: %v, %+v", err, tools)
	}
	listed, _ := json.Marshal(tools.Tools[0])
	var entry struct {
		OutputSchema json.RawMessage `json:"outputSchema"`
	}
	if err := json.Unmarshal(listed, &entry); err != nil {
		t.Fatal(err)
	}

	var req mcp.CallToolRequest
	req.Params.Name = "waits"
	req.Params.Arguments = map[string]any{"query": "q", "hours": 4, "bogus": 1}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.IsError {
		t.Fatalf("the warned call is an error: %+v", res.Content)
	}
	sc, _ := res.StructuredContent.(map[string]any)
	if sc["rows"] != 4.0 || sc["bindguard_warnings"] == nil {
		t.Fatalf("structuredContent = %v, want rows and bindguard_warnings", res.StructuredContent)
	}
	if err := validateAgainst(t, entry.OutputSchema, res.StructuredContent); err != nil {
		t.Errorf("the result is not valid against the listed output schema %s: %v", entry.OutputSchema, err)
	}
	if err := validateAgainst(t, json.RawMessage(closedOutput), res.StructuredContent); err == nil {
		t.Error("the result is valid against the schema without the property: the check above proves nothing")
	}
	if len(res.Content) != 2 || !strings.HasPrefix(res.Content[1].(mcp.TextContent).Text, "The call to tool 'waits' went on with these warnings:") {
		t.Errorf("content = %+v", res.Content)
	}
}

// Middleware puts the warnings into structuredContent only where the tool
// it guards (looked up on the server) admits the member: no output schema
// (the object is made when the result has none), an output schema that
// lists bindguard_warnings, or one open to other members. A closed output
// schema gets the warnings as text only, and the result stays valid for
// mcp-go's own output validation; so does a result with no structuredContent
// from a tool with an output schema. Error results get nothing.
func TestMiddleware_WarningsGoIntoStructuredContentOnlyWhereTheSchemaAdmitsThem(t *testing.T) {
	reg := typereg.New(typereg.WithMode(typereg.Warn))
	s := server.NewMCPServer("p", "1.0.0", server.WithOutputSchemaValidation(), server.WithToolHandlerMiddleware(mcpgo.Middleware(reg)))
	structured := func(_ context.Context, _ mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructured(waitRows{Rows: in.Hours}, "rows"), nil
	}
	textOnly := func(_ context.Context, _ mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("rows"), nil
	}
	failing := func(_ context.Context, _ mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultError("no rows"), nil
	}
	listsIt := `{"type":"object","properties":{"rows":{"type":"integer"},"bindguard_warnings":{"type":"object"}},"additionalProperties":false}`
	openOut := `{"type":"object","properties":{"rows":{"type":"integer"}},"required":["rows"]}`
	for _, tc := range []struct {
		tool    string
		schema  string // "" for none
		handler mcp.TypedToolHandlerFunc[policyArgs]
		isError bool
		want    string // structuredContent as JSON, "" for none; W stands for the warnings
	}{
		{"none", "", textOnly, false, `{"bindguard_warnings":W}`},
		{"none-structured", "", structured, false, `{"bindguard_warnings":W,"rows":4}`},
		{"closed", closedOutput, structured, false, `{"rows":4}`},
		{"closed-no-structured", closedOutput, textOnly, false, ``},
		{"lists-it", listsIt, structured, false, `{"bindguard_warnings":W,"rows":4}`},
		{"open", openOut, structured, false, `{"bindguard_warnings":W,"rows":4}`},
		// An object made for the warnings would lack rows, which the
		// schema requires: mcp-go would turn the result into an error.
		{"open-no-structured", openOut, textOnly, false, ``},
		{"error", "", failing, true, ``},
	} {
		t.Run(tc.tool, func(t *testing.T) {
			if err := typereg.Register[policyArgs](reg, tc.tool); err != nil {
				t.Fatal(err)
			}
			opts := []mcp.ToolOption{}
			if tc.schema != "" {
				opts = append(opts, mcp.WithRawOutputSchema(json.RawMessage(tc.schema)))
			}
			s.AddTool(mcp.NewTool(tc.tool, opts...), mcp.NewTypedToolHandler(tc.handler))
			args := `{"query":"q","hours":4,"bogus":1}`
			r := send(t, s, callFrame(tc.tool, args))
			if r.Result == nil || r.Result.IsError != tc.isError {
				t.Fatalf("reply %+v, want isError %v", r, tc.isError)
			}
			d := refuse.Decide(reg, tc.tool, json.RawMessage(args))
			wj, _ := json.Marshal(d.Warnings)
			want := strings.ReplaceAll(tc.want, "W", string(wj))
			if string(r.Result.StructuredContent) != want {
				t.Errorf("structuredContent:\n%s\nwant:\n%s", r.Result.StructuredContent, want)
			}
			if n := len(r.Result.Content); tc.isError && n != 1 || !tc.isError && (n != 2 || r.Result.Content[1].Text != d.Warnings.String()) {
				t.Errorf("content %+v", r.Result.Content)
			}
		})
	}
}

// Through AddTool, an error result never carries warnings: neither a tool
// error the handler returns nor the handler's Go error.
func TestAddTool_NoWarningsOnErrors(t *testing.T) {
	reg, s := typereg.New(), server.NewMCPServer("p", "1.0.0")
	err := mcpgo.AddTool(s, reg, mcp.NewTool("fails"), func(_ context.Context, _ mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, error) {
		if in.Hours == 1 {
			return nil, errors.New("the index is offline")
		}
		return mcp.NewToolResultError("no rows"), nil
	}, typereg.WithMode(typereg.Warn))
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"query":"q","hours":1,"bogus":1}`, `{"query":"q","hours":2,"bogus":1}`} {
		r := send(t, s, callFrame("fails", args))
		if r.Result != nil && (!r.Result.IsError || len(r.Result.Content) != 1 || r.Result.StructuredContent != nil) {
			t.Errorf("%s: %+v: want the error alone", args, r.Result)
		}
	}
}
