package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	gjsonschema "github.com/google/jsonschema-go/jsonschema"
	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"
	sjsonschema "github.com/santhosh-tekuri/jsonschema/v6"
	segjson "github.com/segmentio/encoding/json"

	"github.com/bindguard/bindguard/typereg"
)

// This file holds the rivals: the other ways a Go MCP server can check tool
// arguments, each set up once per tool and then run on raw arguments.

// SchemaJSON returns the input schema typereg advertises for tool, as JSON.
func SchemaJSON(reg *typereg.Registry, tool string) []byte {
	t, ok := reg.Tool(tool)
	if !ok {
		panic("bench: no tool " + tool)
	}
	b, err := json.Marshal(t.Schema())
	must(err)
	return b
}

// Segmentio decodes args into a fresh value of the payload's struct with
// github.com/segmentio/encoding/json, a faster encoding/json look-alike.
func Segmentio(p *Payload) error { return segjson.Unmarshal(p.Args, p.New()) }

// ---------------------------------------------------------------------------
// The naive guard.

// Naive is the naive guard of the issue: decode the arguments into a
// map[string]json.RawMessage, refuse a key that names no parameter, and
// decode each value on its own with json.Unmarshal into reflect.New of the
// parameter's type. Every value is copied (once into the map, once decoded).
type Naive struct {
	params map[string]reflect.Type
}

// NewNaive prepares the naive guard for tool.
func NewNaive(reg *typereg.Registry, tool string) *Naive {
	t, ok := reg.Tool(tool)
	if !ok {
		panic("bench: no tool " + tool)
	}
	n := &Naive{params: map[string]reflect.Type{}}
	for _, p := range t.Params() {
		n.params[p.Name] = p.Type
	}
	return n
}

// Check returns nil when every argument decodes into its parameter's type.
func (n *Naive) Check(args []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(args, &m); err != nil {
		return err
	}
	for k, v := range m {
		t, ok := n.params[k]
		if !ok {
			return fmt.Errorf("unknown argument %q", k)
		}
		if err := json.Unmarshal(v, reflect.New(t).Interface()); err != nil {
			return fmt.Errorf("argument %q: %w", k, err)
		}
	}
	return nil
}

// ---------------------------------------------------------------------------
// santhosh-tekuri/jsonschema.

// Santhosh validates arguments against typereg's advertised schema, compiled
// with github.com/santhosh-tekuri/jsonschema/v6. As a server would, it first
// decodes the arguments with the library's own decoder (jsonschema.UnmarshalJSON,
// numbers as json.Number), and that decode is part of the measured time.
type Santhosh struct {
	schema *sjsonschema.Schema
}

// NewSanthosh compiles tool's schema.
func NewSanthosh(reg *typereg.Registry, tool string) *Santhosh {
	doc, err := sjsonschema.UnmarshalJSON(bytes.NewReader(SchemaJSON(reg, tool)))
	must(err)
	c := sjsonschema.NewCompiler()
	url := "mem:///bench/" + tool + ".json"
	must(c.AddResource(url, doc))
	s, err := c.Compile(url)
	must(err)
	return &Santhosh{schema: s}
}

// Check decodes args and validates them.
func (s *Santhosh) Check(args []byte) error {
	v, err := sjsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return err
	}
	return s.schema.Validate(v)
}

// ---------------------------------------------------------------------------
// mcp-go.

// MCPGo is a real github.com/mark3labs/mcp-go server with one tool whose
// handler is mcp.NewTypedToolHandler (BindArguments: json.Unmarshal into the
// struct), called through MCPServer.HandleMessage with a tools/call JSON-RPC
// frame. With validate, the server has WithInputSchemaValidation and the
// tool advertises typereg's schema (as RawInputSchema), so before the
// handler runs the server re-marshals the decoded arguments, decodes them
// again with santhosh-tekuri/jsonschema's decoder and validates them.
type MCPGo struct {
	srv   *mcpgoserver.MCPServer
	frame []byte
}

// NewMCPGo sets up the server for payload p.
func NewMCPGo(reg *typereg.Registry, p *Payload, validate bool) *MCPGo {
	var opts []mcpgoserver.ServerOption
	if validate {
		opts = append(opts, mcpgoserver.WithInputSchemaValidation())
	}
	srv := mcpgoserver.NewMCPServer("bench", "v0", opts...)
	tool := mcpgomcp.NewToolWithRawSchema(p.Tool, "", SchemaJSON(reg, p.Tool))
	srv.AddTool(tool, mcpgoHandler(p.Type))
	return &MCPGo{srv: srv, frame: Frame(p)}
}

// Frame returns the tools/call JSON-RPC request carrying p's arguments.
func Frame(p *Payload) []byte {
	b := []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + p.Tool + `","arguments":`)
	b = append(b, p.Args...)
	return append(b, `}}`...)
}

func mcpgoHandler(t reflect.Type) mcpgoserver.ToolHandlerFunc {
	ok := mcpgomcp.NewToolResultText("ok")
	switch t {
	case reflect.TypeFor[Typical]():
		return mcpgomcp.NewTypedToolHandler(func(context.Context, mcpgomcp.CallToolRequest, Typical) (*mcpgomcp.CallToolResult, error) {
			return ok, nil
		})
	case reflect.TypeFor[Strings]():
		return mcpgomcp.NewTypedToolHandler(func(context.Context, mcpgomcp.CallToolRequest, Strings) (*mcpgomcp.CallToolResult, error) {
			return ok, nil
		})
	case reflect.TypeFor[Text]():
		return mcpgomcp.NewTypedToolHandler(func(context.Context, mcpgomcp.CallToolRequest, Text) (*mcpgomcp.CallToolResult, error) {
			return ok, nil
		})
	case reflect.TypeFor[Number]():
		return mcpgomcp.NewTypedToolHandler(func(context.Context, mcpgomcp.CallToolRequest, Number) (*mcpgomcp.CallToolResult, error) {
			return ok, nil
		})
	case reflect.TypeFor[Ints]():
		return mcpgomcp.NewTypedToolHandler(func(context.Context, mcpgomcp.CallToolRequest, Ints) (*mcpgomcp.CallToolResult, error) {
			return ok, nil
		})
	case reflect.TypeFor[Nested]():
		return mcpgomcp.NewTypedToolHandler(func(context.Context, mcpgomcp.CallToolRequest, Nested) (*mcpgomcp.CallToolResult, error) {
			return ok, nil
		})
	case reflect.TypeFor[Keys]():
		return mcpgomcp.NewTypedToolHandler(func(context.Context, mcpgomcp.CallToolRequest, Keys) (*mcpgomcp.CallToolResult, error) {
			return ok, nil
		})
	}
	panic("bench: no mcp-go handler for " + t.String())
}

// Call sends the frame and returns nil when the handler ran and succeeded,
// otherwise what stopped the call.
func (m *MCPGo) Call(ctx context.Context) error {
	switch r := m.srv.HandleMessage(ctx, m.frame).(type) {
	case mcpgomcp.JSONRPCResponse:
		res, ok := r.Result.(*mcpgomcp.CallToolResult)
		if !ok {
			return fmt.Errorf("mcp-go: unexpected result %T", r.Result)
		}
		if res.IsError {
			return errors.New("mcp-go: tool error: " + resultText(res.Content))
		}
		return nil
	case mcpgomcp.JSONRPCError:
		return fmt.Errorf("mcp-go: JSON-RPC error %d: %s", r.Error.Code, r.Error.Message)
	default:
		return fmt.Errorf("mcp-go: unexpected response %T", r)
	}
}

func resultText(cs []mcpgomcp.Content) string {
	for _, c := range cs {
		if t, ok := c.(mcpgomcp.TextContent); ok {
			return cut(t.Text)
		}
	}
	return ""
}

func cut(s string) string {
	if len(s) > 200 {
		return s[:200] + "..."
	}
	return s
}

// ---------------------------------------------------------------------------
// go-sdk.

// GoSDK reproduces, with the same libraries and in the same order, what
// github.com/modelcontextprotocol/go-sdk v1.8.0's mcp.AddTool handler does
// with the arguments before the typed handler runs (mcp/server.go toolForErr
// and mcp/tool.go applySchema): decode into a map[string]any with its
// internal decoder (segmentio/encoding, case-sensitive fields, after a
// nesting-depth scan capped at 1000), apply the schema's defaults, validate
// with github.com/google/jsonschema-go against the schema go-sdk infers from
// the struct, re-marshal with encoding/json, then decode into the struct with
// the internal decoder. The go-sdk functions are unexported; GoSDKSession
// measures the real thing through a session.
type GoSDK struct {
	resolved *gjsonschema.Resolved
	typ      reflect.Type
}

// NewGoSDK infers and resolves the schema of t as go-sdk's setSchema does.
func NewGoSDK(t reflect.Type) *GoSDK {
	s, err := gjsonschema.ForType(t, &gjsonschema.ForOptions{})
	must(err)
	r, err := s.Resolve(&gjsonschema.ResolveOptions{ValidateDefaults: true})
	must(err)
	return &GoSDK{resolved: r, typ: t}
}

// Check runs the pre-handler path on args and returns the decoded struct.
func (g *GoSDK) Check(args []byte) (any, error) {
	v := make(map[string]any)
	if len(args) > 0 {
		if err := gosdkUnmarshal(args, &v); err != nil {
			return nil, fmt.Errorf("unmarshaling arguments: %w", err)
		}
	}
	var unmarshaled any = v
	if err := g.resolved.ApplyDefaults(&unmarshaled); err != nil {
		return nil, fmt.Errorf("applying schema defaults:\n%w", err)
	}
	if err := g.resolved.Validate(&unmarshaled); err != nil {
		return nil, err
	}
	input, err := json.Marshal(unmarshaled)
	if err != nil {
		return nil, fmt.Errorf("marshalling with defaults: %v", err)
	}
	in := reflect.New(g.typ).Interface()
	if err := gosdkUnmarshal(input, in); err != nil {
		return nil, err
	}
	return in, nil
}

// gosdkUnmarshal is go-sdk's internal/json.Unmarshal (v1.8.0).
func gosdkUnmarshal(data []byte, v any) error {
	if err := gosdkCheckMaxDepth(data, 1000); err != nil {
		return err
	}
	dec := segjson.NewDecoder(bytes.NewReader(data))
	dec.DontMatchCaseInsensitiveStructFields()
	return dec.Decode(v)
}

func gosdkCheckMaxDepth(data []byte, maxDepth int) error {
	var depth int
	var inString, escaped bool
	for _, b := range data {
		if inString {
			switch {
			case escaped:
				escaped = false
			case b == '\\':
				escaped = true
			case b == '"':
				inString = false
			}
			continue
		}
		switch b {
		case '"':
			inString = true
		case '{', '[':
			depth++
			if depth > maxDepth {
				return fmt.Errorf("json: exceeded maximum nesting depth of %d", maxDepth)
			}
		case '}', ']':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}

// GoSDKSession is a real go-sdk server and client joined by in-memory
// transports. With validate, the tool is added with the generic mcp.AddTool
// (schema inferred from the struct; the full pre-handler path); without, it
// is added with Server.AddTool (typereg's schema advertised, no validation)
// and the handler binds the raw arguments with encoding/json: bind through
// the same session route.
type GoSDKSession struct {
	cs     *gosdk.ClientSession
	ss     *gosdk.ServerSession
	params *gosdk.CallToolParams
}

// NewGoSDKSession connects a client to a server serving p's tool.
func NewGoSDKSession(ctx context.Context, reg *typereg.Registry, p *Payload, validate bool) *GoSDKSession {
	srv := gosdk.NewServer(&gosdk.Implementation{Name: "bench", Version: "v0"}, nil)
	if validate {
		gosdkAddTyped(srv, p)
	} else {
		typ := p.Type
		srv.AddTool(&gosdk.Tool{Name: p.Tool, InputSchema: json.RawMessage(SchemaJSON(reg, p.Tool))},
			func(_ context.Context, req *gosdk.CallToolRequest) (*gosdk.CallToolResult, error) {
				if err := json.Unmarshal(req.Params.Arguments, reflect.New(typ).Interface()); err != nil {
					res := &gosdk.CallToolResult{}
					res.SetError(err)
					return res, nil
				}
				return &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: "ok"}}}, nil
			})
	}
	ct, st := gosdk.NewInMemoryTransports()
	ss, err := srv.Connect(ctx, st, nil)
	must(err)
	client := gosdk.NewClient(&gosdk.Implementation{Name: "bench-client", Version: "v0"}, nil)
	cs, err := client.Connect(ctx, ct, nil)
	must(err)
	return &GoSDKSession{cs: cs, ss: ss, params: &gosdk.CallToolParams{Name: p.Tool, Arguments: json.RawMessage(p.Args)}}
}

func gosdkAddTyped(srv *gosdk.Server, p *Payload) {
	tool := &gosdk.Tool{Name: p.Tool}
	ok := &gosdk.CallToolResult{Content: []gosdk.Content{&gosdk.TextContent{Text: "ok"}}}
	switch p.Type {
	case reflect.TypeFor[Typical]():
		gosdk.AddTool(srv, tool, func(context.Context, *gosdk.CallToolRequest, Typical) (*gosdk.CallToolResult, any, error) {
			return ok, nil, nil
		})
	case reflect.TypeFor[Strings]():
		gosdk.AddTool(srv, tool, func(context.Context, *gosdk.CallToolRequest, Strings) (*gosdk.CallToolResult, any, error) {
			return ok, nil, nil
		})
	case reflect.TypeFor[Text]():
		gosdk.AddTool(srv, tool, func(context.Context, *gosdk.CallToolRequest, Text) (*gosdk.CallToolResult, any, error) {
			return ok, nil, nil
		})
	case reflect.TypeFor[Number]():
		gosdk.AddTool(srv, tool, func(context.Context, *gosdk.CallToolRequest, Number) (*gosdk.CallToolResult, any, error) {
			return ok, nil, nil
		})
	case reflect.TypeFor[Ints]():
		gosdk.AddTool(srv, tool, func(context.Context, *gosdk.CallToolRequest, Ints) (*gosdk.CallToolResult, any, error) {
			return ok, nil, nil
		})
	case reflect.TypeFor[Nested]():
		gosdk.AddTool(srv, tool, func(context.Context, *gosdk.CallToolRequest, Nested) (*gosdk.CallToolResult, any, error) {
			return ok, nil, nil
		})
	case reflect.TypeFor[Keys]():
		gosdk.AddTool(srv, tool, func(context.Context, *gosdk.CallToolRequest, Keys) (*gosdk.CallToolResult, any, error) {
			return ok, nil, nil
		})
	default:
		panic("bench: no go-sdk handler for " + p.Type.String())
	}
}

// Call calls the tool and returns nil when the handler ran and succeeded,
// otherwise what stopped the call.
func (g *GoSDKSession) Call(ctx context.Context) error {
	res, err := g.cs.CallTool(ctx, g.params)
	if err != nil {
		return fmt.Errorf("go-sdk: %s", cut(err.Error()))
	}
	if res.IsError {
		var text string
		for _, c := range res.Content {
			if t, ok := c.(*gosdk.TextContent); ok {
				text = t.Text
			}
		}
		return errors.New("go-sdk: tool error: " + cut(text))
	}
	return nil
}

// Close ends the session.
func (g *GoSDKSession) Close() {
	g.cs.Close()
	g.ss.Wait()
}
