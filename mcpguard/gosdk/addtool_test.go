package gosdk_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/mcpguard/gosdk"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type countArgs struct {
	N int `json:"n"`
}

type report struct {
	Total int      `json:"total"`
	Names []string `json:"names,omitempty"`
}

// sameAsMCPAddTool adds h as tool t to one server with mcp.AddTool and to
// another with gosdk.AddTool, calls each with args, and requires the same
// tools/list entry (less the input schema, which is the registry's) and the
// same result or the same error, as a client sees them.
func sameAsMCPAddTool[In, Out any](t *testing.T, tool *mcp.Tool, h mcp.ToolHandlerFor[In, Out], args string) *mcp.CallToolResult {
	t.Helper()
	plain, guarded := newServer(), newServer()
	mcp.AddTool(plain, tool, h)
	if err := gosdk.AddTool(guarded, typereg.New(), tool, h); err != nil {
		t.Fatal(err)
	}
	csPlain, csGuarded := connect(t, plain), connect(t, guarded)

	listedPlain, listedGuarded := listed(t, csPlain)[tool.Name], listed(t, csGuarded)[tool.Name]
	listedPlain.InputSchema, listedGuarded.InputSchema = nil, nil
	entryPlain, entryGuarded := asJSON(t, listedPlain).(map[string]any), asJSON(t, listedGuarded).(map[string]any)
	// The one difference: an object output schema lists the warnings'
	// optional member.
	if out, _ := entryPlain["outputSchema"].(map[string]any); out["type"] == "object" {
		props, _ := entryGuarded["outputSchema"].(map[string]any)["properties"].(map[string]any)
		if _, ok := props["bindguard_warnings"]; !ok {
			t.Errorf("the guarded tool's output schema lists no bindguard_warnings property: %v", entryGuarded["outputSchema"])
		}
		delete(props, "bindguard_warnings")
		if len(props) == 0 {
			if _, had := out["properties"]; !had {
				delete(entryGuarded["outputSchema"].(map[string]any), "properties")
			}
		}
	}
	if diff := cmp.Diff(entryPlain, entryGuarded); diff != "" {
		t.Errorf("tools/list entry (-mcp.AddTool +gosdk.AddTool):\n%s", diff)
	}

	ctx := context.Background()
	params := func() *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: tool.Name, Arguments: json.RawMessage(args)}
	}
	resPlain, errPlain := csPlain.CallTool(ctx, params())
	resGuarded, errGuarded := csGuarded.CallTool(ctx, params())
	if (errPlain == nil) != (errGuarded == nil) || errPlain != nil && errPlain.Error() != errGuarded.Error() {
		t.Fatalf("error: mcp.AddTool %v, gosdk.AddTool %v", errPlain, errGuarded)
	}
	if diff := cmp.Diff(asJSON(t, resPlain), asJSON(t, resGuarded)); diff != "" {
		t.Errorf("result (-mcp.AddTool +gosdk.AddTool):\n%s", diff)
	}
	return resGuarded
}

// The output side is mcp.AddTool's: the output schema published and
// enforced, structured output and its text copy, a nil pointer sent as the
// zero value, handler errors as tool errors, *jsonrpc.Error as a protocol
// error.
func TestAddTool_OutputSideIsMCPAddTools(t *testing.T) {
	t.Run("struct output", func(t *testing.T) {
		res := sameAsMCPAddTool(t, &mcp.Tool{Name: "count", Description: "Counts."},
			func(_ context.Context, _ *mcp.CallToolRequest, in countArgs) (*mcp.CallToolResult, report, error) {
				return nil, report{Total: in.N, Names: []string{"a"}}, nil
			}, `{"n": 3}`)
		if res.IsError {
			t.Fatal(text(t, res))
		}
	})
	t.Run("nil pointer output", func(t *testing.T) {
		sameAsMCPAddTool(t, &mcp.Tool{Name: "count"},
			func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, *report, error) {
				return nil, nil, nil
			}, `{"n": 3}`)
	})
	t.Run("any output, nil", func(t *testing.T) {
		sameAsMCPAddTool(t, &mcp.Tool{Name: "count"},
			func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, any, error) {
				return nil, nil, nil
			}, `{"n": 3}`)
	})
	t.Run("any output, a value", func(t *testing.T) {
		sameAsMCPAddTool(t, &mcp.Tool{Name: "count"},
			func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, any, error) {
				return nil, map[string]int{"x": 1}, nil
			}, `{"n": 3}`)
	})
	t.Run("own content and a list output", func(t *testing.T) {
		h := func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, []string, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "two names"}}}, []string{"a", "b"}, nil
		}
		// go-sdk before v1.7.0 allows only object output schemas: there
		// mcp.AddTool panics on a list output, and so must gosdk.AddTool.
		if plainPanic := panics(func() { mcp.AddTool(newServer(), &mcp.Tool{Name: "count"}, h) }); plainPanic != nil {
			var err error
			guardedPanic := panics(func() { err = gosdk.AddTool(newServer(), typereg.New(), &mcp.Tool{Name: "count"}, h) })
			if guardedPanic == nil && err == nil {
				t.Fatalf("mcp.AddTool panics on a list output (%v), gosdk.AddTool takes it", plainPanic)
			}
			return
		}
		sameAsMCPAddTool(t, &mcp.Tool{Name: "count"}, h, `{"n": 3}`)
	})
	t.Run("output schema given, defaults applied", func(t *testing.T) {
		schema := json.RawMessage(`{"type":"object","properties":{"total":{"type":"integer","default":7},"names":{"type":"array"}}}`)
		sameAsMCPAddTool(t, &mcp.Tool{Name: "count", OutputSchema: schema},
			func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, map[string]any, error) {
				return nil, map[string]any{"names": []string{"a"}}, nil
			}, `{"n": 3}`)
	})
	t.Run("output breaks its schema", func(t *testing.T) {
		schema := json.RawMessage(`{"type":"object","properties":{"total":{"type":"string"}}}`)
		sameAsMCPAddTool(t, &mcp.Tool{Name: "count", OutputSchema: schema},
			func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, report, error) {
				return nil, report{Total: 1}, nil
			}, `{"n": 3}`)
	})
	t.Run("handler error", func(t *testing.T) {
		res := sameAsMCPAddTool(t, &mcp.Tool{Name: "count"},
			func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, report, error) {
				return nil, report{}, errors.New("the index is offline")
			}, `{"n": 3}`)
		if !res.IsError || text(t, res) != "the index is offline" {
			t.Errorf("handler error: isError %v, %q", res.IsError, text(t, res))
		}
	})
	t.Run("protocol error", func(t *testing.T) {
		sameAsMCPAddTool(t, &mcp.Tool{Name: "count"},
			func(context.Context, *mcp.CallToolRequest, countArgs) (*mcp.CallToolResult, report, error) {
				return nil, report{}, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such index"}
			}, `{"n": 3}`)
	})
}

// A refusal of a tool without an output schema carries the refusal as
// structuredContent; with one, it is text only, so that a client that
// checks error results against the output schema still shows it. Either
// way the handler never runs, and server middleware can read the refusal
// from the result (CallToolResult.GetError).
func TestAddTool_RefusalIsStructuredOnlyWithoutAnOutputSchema(t *testing.T) {
	reg := typereg.New()
	var withSchema, without recorder[countArgs]
	s := newServer()
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "typed"}, func(ctx context.Context, req *mcp.CallToolRequest, in countArgs) (*mcp.CallToolResult, report, error) {
		withSchema.record(req, in)
		return nil, report{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := gosdk.AddTool(s, reg, &mcp.Tool{Name: "untyped"}, without.handler); err != nil {
		t.Fatal(err)
	}
	var seen []*refuse.Refusal
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			var r *refuse.Refusal
			if ctr, ok := res.(*mcp.CallToolResult); ok && errors.As(ctr.GetError(), &r) {
				seen = append(seen, r)
			}
			return res, err
		}
	})
	cs := connect(t, s)
	tools := listed(t, cs)
	if tools["typed"].OutputSchema == nil || tools["untyped"].OutputSchema != nil {
		t.Fatalf("output schemas: typed %v, untyped %v", tools["typed"].OutputSchema, tools["untyped"].OutputSchema)
	}
	args := `{"n": "3"}`
	wantRefusal(t, reg, "typed", wire(t, args), callRaw(t, cs, "typed", args), false)
	wantRefusal(t, reg, "untyped", wire(t, args), callRaw(t, cs, "untyped", args), true)
	if r1, _, _ := withSchema.last(); r1 != 0 {
		t.Error("typed: the handler ran on a refused call")
	}
	if r2, _, _ := without.last(); r2 != 0 {
		t.Error("untyped: the handler ran on a refused call")
	}
	if len(seen) != 2 || seen[0].Tool != "typed" || seen[1].Tool != "untyped" {
		t.Errorf("server middleware saw refusals %+v, want typed's and untyped's", seen)
	}
}

// Empty, missing or null arguments decode nothing into In: the handler runs
// with the zero value, as with mcp.AddTool's nil input. (Under the default
// Reject they leave out count's required n and are refused; Warn lets the
// handler run.)
func TestAddTool_NullArguments_LeaveInZero(t *testing.T) {
	var rec recorder[countArgs]
	s := newServer()
	if err := gosdk.AddTool(s, typereg.New(typereg.WithMode(typereg.Warn)), &mcp.Tool{Name: "count"}, rec.handler); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, s)
	for i, args := range []string{`null`, `{}`} {
		if res := callRaw(t, cs, "count", args); res.IsError {
			t.Fatalf("%s: %s", args, text(t, res))
		}
		if runs, _, in := rec.last(); runs != i+1 || in != (countArgs{}) {
			t.Errorf("%s: runs %d, got %+v, want the zero value", args, runs, in)
		}
	}
}

type watchArgs struct {
	Query   string      `json:"query"`
	Updates chan string `json:"updates"`
}

// AddTool returns an error, adds nothing to the server and records nothing
// in the registry, for a tool whose input schema is set, for an In the
// binder cannot decode into (naming the field), and for an output schema
// that does not resolve.
func TestAddTool_Errors_AddNothing(t *testing.T) {
	for _, tc := range []struct {
		name string
		add  func(*mcp.Server, *typereg.Registry) error
		says string
	}{
		{"input schema set", func(s *mcp.Server, reg *typereg.Registry) error {
			return gosdk.AddTool(s, reg, &mcp.Tool{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`)}, (&recorder[countArgs]{}).handler)
		}, "InputSchema is set"},
		{"field the binder cannot decode into", func(s *mcp.Server, reg *typereg.Registry) error {
			return gosdk.AddTool(s, reg, &mcp.Tool{Name: "t"}, (&recorder[watchArgs]{}).handler)
		}, "field Updates"},
		{"not a struct", func(s *mcp.Server, reg *typereg.Registry) error {
			return gosdk.AddTool(s, reg, &mcp.Tool{Name: "t"}, (&recorder[map[string]any]{}).handler)
		}, `tool "t"`},
		// A validate tag whose schema would not marshal (JSON has no NaN)
		// or would state another range than the validator holds: refused
		// at registration, so go-sdk's Server.AddTool never sees it (it
		// panicked on the first, after the registry had recorded it).
		{"eq=NaN", func(s *mcp.Server, reg *typereg.Registry) error {
			return gosdk.AddTool(s, reg, &mcp.Tool{Name: "t"}, (&recorder[struct {
				X float64 `json:"x" validate:"eq=NaN"`
			}]{}).handler)
		}, "eq=NaN: not a finite number"},
		{"oneof twice", func(s *mcp.Server, reg *typereg.Registry) error {
			return gosdk.AddTool(s, reg, &mcp.Tool{Name: "t"}, (&recorder[struct {
				X string `json:"x" validate:"oneof=a,oneof=b"`
			}]{}).handler)
		}, "oneof is stated twice"},
		{"output schema does not resolve", func(s *mcp.Server, reg *typereg.Registry) error {
			return gosdk.AddTool(s, reg, &mcp.Tool{Name: "t", OutputSchema: json.RawMessage(`{"type":5}`)}, (&recorder[countArgs]{}).handler)
		}, "output schema"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, reg := newServer(), typereg.New()
			var err error
			func() {
				defer func() {
					if r := recover(); r != nil {
						err = fmt.Errorf("AddTool panicked: %v", r)
					}
				}()
				err = tc.add(s, reg)
			}()
			if err == nil || !strings.Contains(err.Error(), tc.says) {
				t.Fatalf("err = %v, want one saying %q", err, tc.says)
			}
			if _, ok := reg.Tool("t"); ok {
				t.Error("the registry records the tool")
			}
			if n := len(listed(t, connect(t, s))); n != 0 {
				t.Errorf("the server lists %d tools", n)
			}
		})
	}
}

// AddTool takes parameter types whose schema go-sdk's own inference
// refuses, such as a map with int keys (encoding/json reads {"1": "a"} into
// it): mcp.AddTool panics on the probe tool's parameters, AddTool records
// them.
func TestAddTool_TakesTypesMCPAddToolCannotInfer(t *testing.T) {
	func() {
		defer func() {
			if recover() == nil {
				t.Error("mcp.AddTool took probe.Args; the package documentation says it panics")
			}
		}()
		mcp.AddTool(newServer(), &mcp.Tool{Name: probe.Tool}, (&recorder[probe.Args]{}).handler)
	}()
	var rec recorder[probe.Args]
	s := newServer()
	if err := gosdk.AddTool(s, typereg.New(), &mcp.Tool{Name: probe.Tool}, rec.handler); err != nil {
		t.Fatal(err)
	}
	if res := callRaw(t, connect(t, s), probe.Tool, `{"names": {"1": "a"}}`); res.IsError {
		t.Fatal(text(t, res))
	}
	if _, _, in := rec.last(); in.Names[1] != "a" {
		t.Errorf("names = %v", in.Names)
	}
}

// go-sdk's client does not check an error result's structuredContent
// against the tool's output schema (the package documentation says so, and
// omits the structured refusal only for other clients' sake).
func TestGoSDKClient_DoesNotCheckErrorResultsAgainstTheOutputSchema(t *testing.T) {
	s := newServer()
	s.AddTool(&mcp.Tool{
		Name:         "typed",
		InputSchema:  json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"total":{"type":"integer"}},"required":["total"],"additionalProperties":false}`),
	}, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{
			IsError:           true,
			Content:           []mcp.Content{&mcp.TextContent{Text: "refused"}},
			StructuredContent: map[string]any{"problems": []string{"x"}},
		}, nil
	})
	res := callRaw(t, connect(t, s), "typed", `{}`)
	if got, _ := json.Marshal(res.StructuredContent); !res.IsError || string(got) != `{"problems":["x"]}` {
		t.Errorf("isError %v, structuredContent %s", res.IsError, got)
	}
}

// panics runs f and returns what it panicked with, or nil.
func panics(f func()) (p any) {
	defer func() { p = recover() }()
	f()
	return nil
}
