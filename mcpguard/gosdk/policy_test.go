package gosdk_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/mcpguard/internal/policycases"
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

// A policyHandler records what the handler got: its In and its raw
// arguments.
type policyHandler struct {
	mu   sync.Mutex
	runs int
	in   policyArgs
	raw  json.RawMessage
}

func (h *policyHandler) record(raw json.RawMessage, in policyArgs) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.runs++
	h.in, h.raw = in, append(json.RawMessage(nil), raw...)
}

func (h *policyHandler) last() (int, policyArgs, json.RawMessage) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.runs, h.in, h.raw
}

// checkOutcome requires res, the result of c's call in mode m, and what h
// saw, to be want. A refusal is wantRefusal's; a result that went on has
// the handler's one text block ("ran") and, with warnings, their text after
// it and their JSON as structuredContent's bindguard_warnings (the tools
// have no output schema, so it is the only member).
func checkOutcome(t *testing.T, reg *typereg.Registry, c policyCase, want outcome, h *policyHandler, res *mcp.CallToolResult, structuredRefusal bool) {
	t.Helper()
	runs, in, raw := h.last()
	if want.Refused != nil {
		r := wantRefusal(t, reg, c.Tool, wire(t, c.Args), res, structuredRefusal)
		if diff := cmp.Diff(want.Refused, codes(r.Problems)); diff != "" {
			t.Errorf("refusal codes (-want +got):\n%s", diff)
		}
		if runs != 0 {
			t.Error("the handler ran on a refused call")
		}
		return
	}
	if want.DecodeErr {
		if !res.IsError || len(res.Content) != 1 || !strings.HasPrefix(text(t, res), "json: cannot unmarshal") {
			t.Errorf("want the binder's decoding error, got isError %v: %+v", res.IsError, res.Content)
		}
		if runs != 0 {
			t.Error("the handler ran on arguments the binder cannot decode")
		}
		return
	}
	if res.IsError {
		t.Fatalf("the call was refused: %s", res.Content[0].(*mcp.TextContent).Text)
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
	}
	for _, k := range want.RawLacks {
		if _, ok := rawKeys[k]; ok {
			t.Errorf("the handler's raw arguments %s hold %q", raw, k)
		}
	}
	if len(res.Content) == 0 || res.Content[0].(*mcp.TextContent).Text != "ran" {
		t.Fatalf("content %+v does not start with the handler's", res.Content)
	}
	if want.Warned == nil {
		if len(res.Content) != 1 || res.StructuredContent != nil {
			t.Errorf("a clean call got more than the handler's result: content %+v, structuredContent %v", res.Content, res.StructuredContent)
		}
		return
	}
	d := refuse.Decide(reg, c.Tool, wire(t, c.Args))
	if d.Warnings == nil {
		t.Fatal("refuse.Decide gives no warnings: the test expects some")
	}
	if diff := cmp.Diff(want.Warned, codes(d.Warnings.Problems)); diff != "" {
		t.Errorf("warning codes (-want +got):\n%s", diff)
	}
	if len(res.Content) != 2 || res.Content[1].(*mcp.TextContent).Text != d.Warnings.String() {
		t.Errorf("content %+v, want the handler's and then the warnings' text:\n%s", res.Content, d.Warnings.String())
	}
	var sc struct {
		Warnings *refuse.Warnings `json:"bindguard_warnings"`
	}
	scJSON, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(scJSON, &sc); err != nil || sc.Warnings == nil {
		t.Fatalf("structuredContent %s carries no bindguard_warnings (%v)", scJSON, err)
	}
	if diff := cmp.Diff(d.Warnings, sc.Warnings); diff != "" {
		t.Errorf("structuredContent's bindguard_warnings (-want +got):\n%s", diff)
	}
}

func codes(ps []refuse.Problem) []refuse.Code {
	var cs []refuse.Code
	for _, p := range ps {
		cs = append(cs, p.Code)
	}
	return cs
}

var modes = []typereg.Mode{typereg.Reject, typereg.Warn, typereg.Off}

// Each policy, in each mode, through AddTool and a real client session:
// what is refused, what runs and with what In and raw arguments, and the
// warnings on the result.
func TestAddTool_Policies(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			reg, s := typereg.New(), newServer()
			handlers := map[string]*policyHandler{}
			for name, opts := range toolOpts(mode) {
				h := &policyHandler{}
				handlers[name] = h
				err := gosdk.AddTool(s, reg, &mcp.Tool{Name: name}, func(_ context.Context, req *mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, any, error) {
					h.record(req.Params.Arguments, in)
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran"}}}, nil, nil
				}, opts...)
				if err != nil {
					t.Fatal(err)
				}
			}
			cs := connect(t, s)
			for _, c := range policyCases() {
				t.Run(c.Name, func(t *testing.T) {
					h := handlers[c.Tool]
					*h = policyHandler{}
					checkOutcome(t, reg, c, c.Want(mode), h, callRaw(t, cs, c.Tool, c.Args), true)
				})
			}
		})
	}
}

// The same through Middleware, for tools added with Server.AddTool whose
// handler decodes the raw arguments with the registry's binder, as a server
// without AddTool does (so exempt keys and open tools reach it: see
// TestMiddleware_GoSDKsOwnSchemaStillRefusesWhatThePolicyLetsThrough for
// mcp.AddTool). Under Off, the handler's own decoding fails.
func TestMiddleware_Policies(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			reg, s := typereg.New(), newServer()
			handlers := map[string]*policyHandler{}
			for name, opts := range toolOpts(mode) {
				if err := typereg.Register[policyArgs](reg, name, opts...); err != nil {
					t.Fatal(err)
				}
				rec, _ := reg.Tool(name)
				h := &policyHandler{}
				handlers[name] = h
				s.AddTool(&mcp.Tool{Name: name, InputSchema: rec.Schema()}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					var in policyArgs
					if err := reg.Binder().Unmarshal(req.Params.Arguments, &in); err != nil {
						var res mcp.CallToolResult
						res.SetError(err)
						return &res, nil
					}
					h.record(req.Params.Arguments, in)
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ran"}}}, nil
				})
			}
			s.AddReceivingMiddleware(gosdk.Middleware(reg))
			cs := connect(t, s)
			for _, c := range policyCases() {
				t.Run(c.Name, func(t *testing.T) {
					h := handlers[c.Tool]
					*h = policyHandler{}
					checkOutcome(t, reg, c, c.Want(mode), h, callRaw(t, cs, c.Tool, c.Args), false)
				})
			}
		})
	}
}

// The published input schema follows the policy: an open tool's is not
// closed at the root, a closed tool's is, and neither lists an alias or an
// exempt key.
func TestAddTool_PublishedSchemaFollowsThePolicy(t *testing.T) {
	reg, s := typereg.New(), newServer()
	for name, opts := range toolOpts(typereg.Reject) {
		if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: name}, (&recorder[policyArgs]{}).handler, opts...); err != nil {
			t.Fatal(err)
		}
	}
	tools := listed(t, connect(t, s))
	for name, closed := range map[string]bool{"t": true, "open": false} {
		schema, _ := asJSON(t, tools[name].InputSchema).(map[string]any)
		if ap, has := schema["additionalProperties"]; closed != (has && ap == false) {
			t.Errorf("%s: additionalProperties = %v (set %v), want closed %v", name, ap, has, closed)
		}
		props, _ := schema["properties"].(map[string]any)
		keys := slices.Sorted(func(yield func(string) bool) {
			for k := range props {
				if !yield(k) {
					return
				}
			}
		})
		if diff := cmp.Diff([]string{"hours", "limit", "query"}, keys); diff != "" {
			t.Errorf("%s: published properties (-want +got):\n%s", name, diff)
		}
	}
}

// AddTool passes its options to the registry: a bad one fails, naming it,
// and adds nothing.
func TestAddTool_BadOption_AddsNothing(t *testing.T) {
	reg, s := typereg.New(), newServer()
	err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "t"}, (&recorder[policyArgs]{}).handler, typereg.WithAlias("h", "nope"))
	if err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Fatalf("err = %v, want one naming the alias's missing parameter", err)
	}
	if _, ok := reg.Tool("t"); ok {
		t.Error("the registry records the tool")
	}
	if n := len(listed(t, connect(t, s))); n != 0 {
		t.Errorf("the server lists %d tools", n)
	}
}

type waitRows struct {
	Rows int    `json:"rows"`
	Note string `json:"note,omitempty"`
}

// validateAgainst validates structured, a result's structuredContent as a
// client receives it, against schema, a listed output schema, as a client
// that checks them does (the TypeScript SDK's Client.callTool; go-sdk's
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
	v := asJSON(t, structured)
	return resolved.Validate(&v)
}

// A warned call of a tool with an output schema (inferred from a struct,
// so closed) carries its warnings in structuredContent beside the output,
// and the result is valid against the output schema tools/list publishes,
// which lists bindguard_warnings as an optional property. Without that
// property the result would be invalid: the check can fail.
func TestAddTool_WarningsFitTheOutputSchema(t *testing.T) {
	reg, s := typereg.New(), newServer()
	err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "waits"}, func(_ context.Context, _ *mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, waitRows, error) {
		return nil, waitRows{Rows: in.Hours}, nil
	}, typereg.WithMode(typereg.Warn))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	tool := listed(t, cs)["waits"]
	res := callRaw(t, cs, "waits", `{"query":"q","hours":4,"bogus":1}`)
	if res.IsError {
		t.Fatal(res.Content[0].(*mcp.TextContent).Text)
	}
	sc, _ := asJSON(t, res.StructuredContent).(map[string]any)
	if sc["rows"] != 4.0 || sc["bindguard_warnings"] == nil {
		t.Fatalf("structuredContent = %v, want rows and bindguard_warnings", sc)
	}
	if err := validateAgainst(t, tool.OutputSchema, res.StructuredContent); err != nil {
		t.Errorf("the result is not valid against the listed output schema: %v", err)
	}
	// The first text block is go-sdk's copy of the output, without the
	// warnings; the second is the warnings'.
	if len(res.Content) != 2 || res.Content[0].(*mcp.TextContent).Text != `{"rows":4}` ||
		!strings.HasPrefix(res.Content[1].(*mcp.TextContent).Text, "The call to tool 'waits' went on with these warnings:") {
		t.Errorf("content = %+v", res.Content)
	}

	inferred, err := jsonschema.For[waitRows](nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := validateAgainst(t, inferred, res.StructuredContent); err == nil {
		t.Error("the result is valid against the schema without the property: the check above proves nothing")
	}

	// A call without warnings has the output alone.
	res = callRaw(t, cs, "waits", `{"query":"q","hours":4}`)
	if got, _ := json.Marshal(res.StructuredContent); string(got) != `{"rows":4}` {
		t.Errorf("a clean call's structuredContent = %s", got)
	}
}

// An error result never carries warnings: neither a handler's error nor a
// tool error the handler returns.
func TestAddTool_NoWarningsOnErrors(t *testing.T) {
	reg, s := typereg.New(), newServer()
	err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "fails"}, func(_ context.Context, _ *mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, any, error) {
		if in.Hours == 1 {
			return nil, nil, errMsg("the index is offline")
		}
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no rows"}}}, nil, nil
	}, typereg.WithMode(typereg.Warn))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	for _, args := range []string{`{"query":"q","hours":1,"bogus":1}`, `{"query":"q","hours":2,"bogus":1}`} {
		res := callRaw(t, cs, "fails", args)
		if !res.IsError || len(res.Content) != 1 || res.StructuredContent != nil {
			t.Errorf("%s: isError %v, content %+v, structuredContent %v: want the error alone", args, res.IsError, res.Content, res.StructuredContent)
		}
	}
}

type errMsg string

func (e errMsg) Error() string { return string(e) }

type waitsOut struct {
	Rows int `json:"rows"`
}

// Through Middleware, a tool added with mcp.AddTool: go-sdk validates the
// arguments against the schema it inferred (closed) and decodes them, after
// the guard. An alias reaches the handler under its parameter's name, so
// go-sdk's schema takes it; tools/list shows the tool's output schema with
// the warnings' property, in a copy (the server's own tool is unchanged,
// and a server without the middleware lists it as it was); a warned call's
// result is valid against the listed schema.
func TestMiddleware_MCPAddTool_AliasesWarningsAndToolsList(t *testing.T) {
	newS := func(guard bool) (*typereg.Registry, *mcp.ClientSession, *policyHandler) {
		reg := typereg.New()
		if err := typereg.Register[policyArgs](reg, "waits", typereg.WithMode(typereg.Warn)); err != nil {
			t.Fatal(err)
		}
		h := &policyHandler{}
		s := newServer()
		mcp.AddTool(s, &mcp.Tool{Name: "waits"}, func(_ context.Context, req *mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, waitsOut, error) {
			h.record(req.Params.Arguments, in)
			return nil, waitsOut{Rows: in.Hours}, nil
		})
		if guard {
			s.AddReceivingMiddleware(gosdk.Middleware(reg))
		}
		return reg, connect(t, s), h
	}
	_, plain, _ := newS(false)
	_, cs, h := newS(true)

	listedPlain, listedGuarded := listed(t, plain)["waits"], listed(t, cs)["waits"]
	props := func(tl *mcp.Tool) []string {
		m, _ := asJSON(t, tl.OutputSchema).(map[string]any)
		p, _ := m["properties"].(map[string]any)
		var keys []string
		for k := range p {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		return keys
	}
	if diff := cmp.Diff([]string{"rows"}, props(listedPlain)); diff != "" {
		t.Errorf("without the middleware, output properties (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"bindguard_warnings", "rows"}, props(listedGuarded)); diff != "" {
		t.Errorf("with the middleware, output properties (-want +got):\n%s", diff)
	}
	if again := listed(t, cs)["waits"]; !cmp.Equal(props(again), props(listedGuarded)) {
		t.Errorf("a second tools/list shows %v: the server's own tool was changed", props(again))
	}

	res := callRaw(t, cs, "waits", `{"query":"q","hrs":3}`)
	if runs, in, _ := h.last(); res.IsError || runs != 1 || in.Hours != 3 {
		t.Fatalf("alias: isError %v (%+v), runs %d, got %+v", res.IsError, res.Content, runs, in)
	}
	res = callRaw(t, cs, "waits", `{"query":"q","hours":5,"hours":5}`)
	if res.IsError {
		t.Fatalf("%+v", res.Content)
	}
	res = callRaw(t, cs, "waits", `{"query":"q","hrs":3,"hours":6}`)
	if res.IsError {
		t.Fatalf("alias conflict under Warn: %+v", res.Content)
	}
	sc, _ := asJSON(t, res.StructuredContent).(map[string]any)
	if sc["rows"] != 6.0 || sc["bindguard_warnings"] == nil {
		t.Fatalf("structuredContent = %v, want rows 6 (the parameter's own value) and bindguard_warnings", sc)
	}
	if err := validateAgainst(t, listedGuarded.OutputSchema, res.StructuredContent); err != nil {
		t.Errorf("the result is not valid against the listed output schema: %v", err)
	}
	if err := validateAgainst(t, listedPlain.OutputSchema, res.StructuredContent); err == nil {
		t.Error("the result is valid against the schema without the property: the check above proves nothing")
	}
}

// go-sdk's own input validation runs after the middleware, against the
// closed schema mcp.AddTool inferred: it still refuses, in its own words,
// an exempt key, which the guard lets through. (The package documentation
// says so.)
func TestMiddleware_GoSDKsOwnSchemaStillRefusesWhatThePolicyLetsThrough(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[policyArgs](reg, "waits", typereg.WithExempt("format")); err != nil {
		t.Fatal(err)
	}
	h := &policyHandler{}
	s := newServer()
	mcp.AddTool(s, &mcp.Tool{Name: "waits"}, func(_ context.Context, req *mcp.CallToolRequest, in policyArgs) (*mcp.CallToolResult, any, error) {
		h.record(req.Params.Arguments, in)
		return nil, nil, nil
	})
	s.AddReceivingMiddleware(gosdk.Middleware(reg))
	args := `{"query":"q","hours":1,"format":"csv"}`
	if d := refuse.Decide(reg, "waits", wire(t, args)); d.Refusal != nil || d.Warnings != nil {
		t.Fatalf("the guard does not pass %s cleanly", args)
	}
	res := callRaw(t, connect(t, s), "waits", args)
	if runs, _, _ := h.last(); !res.IsError || runs != 0 || !strings.Contains(text(t, res), "format") {
		t.Errorf("isError %v, runs %d, %+v: want go-sdk's own refusal of format", res.IsError, runs, res.Content)
	}
}
