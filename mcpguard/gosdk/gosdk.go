package gosdk

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/mcpguard/internal/toolcache"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// AddTool adds tool t to server s, as mcp.AddTool does, with the guard
// before the handler.
//
// It records In in reg under t.Name with opts (typereg.Register: the mode,
// exempt keys, an open tool, aliases), replacing any earlier record of that
// name, and publishes the record's schema as the tool's input schema: closed
// with additionalProperties false unless the tool is open, listing no
// alias and no exempt key. In's tags are read as go-sdk reads them
// (typereg.WithJSONSchemaGo), unless opts say otherwise: a jsonschema tag
// is the field's description, published at every level, and the required
// parameters are the ones mcp.AddTool's schema requires. In may be a
// pointer to the struct, as mcp.AddTool takes it: the record is the
// struct's, and h gets what go-sdk gives it, a new zero struct for missing
// or empty arguments, nil for null. A call's arguments go to refuse.Decide as they
// arrived. A refused call gets the refusal as a tool error (see the package
// documentation) and h never runs. Otherwise the decision's arguments (the
// call's own, with each alias renamed to its parameter's name) are decoded
// with reg's binder straight into In, with no schema validation and no
// float64 round trip, and h runs; req.Params.Arguments holds the same
// arguments, so an exempt key is there as sent. Empty or missing
// arguments, and null, leave In zero. Under typereg.Off nothing is checked,
// and a value the binder cannot decode is go-sdk's usual tool error, the
// decoder's message.
//
// When the call goes on with warnings (typereg.Warn, or a silent loss) and
// h succeeds, the result carries them (see the package documentation): a
// text content block after h's own, and a "bindguard_warnings" member of
// structuredContent. So that a client that checks structuredContent against
// the output schema accepts it, the published output schema, when it is an
// object schema, gets "bindguard_warnings" as an optional property (in
// every mode: a tool under Off never uses it); the output is still
// validated against the schema as given, before the warnings are added.
//
// The output side is otherwise mcp.AddTool's: the output schema is
// t.OutputSchema, or inferred from Out (unless Out is any) as go-sdk infers
// it; Out is marshalled into StructuredContent, validated against that
// schema, and copied into a text Content when h set none; an error from h
// becomes a tool error, except a *jsonrpc.Error, which is returned as a
// protocol error.
//
// AddTool returns an error, and adds nothing, when t.InputSchema is set (the
// published schema is the registry's, because it is what the guard
// enforces: a schema of the server's own, with constraints go-sdk
// validates and AddTool's input path does not, stays with mcp.AddTool
// behind Middleware, In registered with the options that say how that
// schema was made), when the output schema cannot be inferred or resolved,
// or when In cannot be registered with opts: In must be a struct (or a
// pointer to one) the binder can decode into (the error names the field it
// cannot), and the options must be valid for a tool (typereg.Register).
// Panics of Server.AddTool (a tool go-sdk itself rejects) are not caught.
//
// The guard looks the registry's record of t.Name up on each call: if the
// name has since been registered with another type, every call gets a tool
// error and h does not run, since the guard would be reading the arguments
// for a struct h does not take.
func AddTool[In, Out any](s *mcp.Server, reg *typereg.Registry, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out], opts ...typereg.Option) error {
	if t.InputSchema != nil {
		return fmt.Errorf("gosdk: tool %q: InputSchema is set; AddTool publishes the schema the registry records for %v, which is what the guard enforces", t.Name, reflect.TypeFor[In]())
	}
	tt := *t
	out, err := newOutput[Out](&tt)
	if err != nil {
		return fmt.Errorf("gosdk: tool %q: output schema: %w", t.Name, err)
	}
	if err := typereg.Register[In](reg, t.Name, goSDKTags(opts)...); err != nil {
		return fmt.Errorf("gosdk: %w", err)
	}
	rec, _ := reg.Tool(t.Name)
	tt.InputSchema = rec.Schema()
	structured := tt.OutputSchema == nil
	if !structured {
		tt.OutputSchema, _ = withWarningsProperty(tt.OutputSchema)
	}

	// The record's type is the struct, In itself or what In points to.
	name, binder, inType := t.Name, reg.Binder(), rec.Type()
	pointer := reflect.TypeFor[In]().Kind() == reflect.Pointer
	s.AddTool(&tt, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if rec, ok := reg.Tool(name); ok && rec.Type() != inType {
			msg := fmt.Sprintf("Tool '%s' is registered with parameters %v, but its handler takes %v; the call was not run.", name, rec.Type(), inType)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: msg}}, IsError: true}, nil
		}
		args := req.Params.Arguments
		d := refuse.Decide(reg, name, args)
		if d.Refusal != nil {
			return refusalResult(d.Refusal, structured), nil
		}
		if !sameBytes(d.Args, args) {
			req = withArguments(req, d.Args)
		}
		var in In
		if pointer && len(d.Args) == 0 {
			// go-sdk decodes missing arguments as {}: a new zero struct,
			// never nil (null is nil, as the binder reads it).
			in = reflect.New(inType).Interface().(In)
		}
		if len(d.Args) > 0 {
			// The type's own methods run contained: a panic is an error,
			// and the error's text is cut (contain.Text).
			if err := contain.Decode(binder, d.Args, &in); err != nil {
				// Under Off, the binder's verdict, as go-sdk reports a
				// decoding error. Otherwise the guard passed what the binder
				// fails on: a disagreement between the two, reported the
				// same way, since the handler cannot run.
				var res mcp.CallToolResult
				res.SetError(errors.New(contain.Text(err)))
				return &res, nil
			}
		}
		res, err := out.result(h(ctx, req, in))
		if err == nil {
			addWarnings(res, d.Warnings)
		}
		return res, err
	})
	return nil
}

// Register records tool t in reg, for a server that adds its tools itself
// with Server.AddTool and a handler that decodes the arguments itself,
// behind Middleware(reg): its parameters are the struct type in, or the struct in
// points to (as mcp.AddTool takes In = *T), recorded under t.Name with
// opts, replacing any earlier record of that name (typereg.RegisterType).
// The struct's tags are read as go-sdk reads them
// (typereg.WithJSONSchemaGo: a jsonschema tag is the field's description;
// required is every field without omitempty or omitzero), unless opts say
// otherwise (typereg.WithReflector).
//
// It returns a copy of t whose input schema is the record's, which is what
// the guard enforces, descriptions included; add that tool, with the
// server's own handler, so that tools/list publishes it. t itself is not
// changed. Register fails, recording nothing, when t is nil, when
// t.InputSchema is set (the published schema is the registry's), and when
// in cannot be registered with opts (typereg.Register).
//
// A tool added with mcp.AddTool goes through go-sdk's own input path,
// which validates against the tool's input schema: add it without one, so
// that go-sdk infers its own, and record it with typereg.RegisterType in a
// registry whose binder is InputPath, which mirrors that inference (see
// the package documentation, "Which route fits which server"). With the
// tool Register returns, go-sdk would validate against the registry's
// schema instead, which InputPath does not see.
func Register(reg *typereg.Registry, t *mcp.Tool, in reflect.Type, opts ...typereg.Option) (*mcp.Tool, error) {
	if t == nil || reg == nil {
		return nil, errors.New("gosdk: Register needs a registry and a tool")
	}
	if t.InputSchema != nil {
		return nil, fmt.Errorf("gosdk: tool %q: InputSchema is set; Register returns the tool with the schema the registry records for %v, which is what the guard enforces", t.Name, in)
	}
	if err := typereg.RegisterType(reg, t.Name, in, goSDKTags(opts)...); err != nil {
		return nil, fmt.Errorf("gosdk: %w", err)
	}
	rec, _ := reg.Tool(t.Name)
	tt := *t
	tt.InputSchema = rec.Schema()
	return &tt, nil
}

// goSDKTags is opts after typereg.WithJSONSchemaGo: the tags read as go-sdk
// reads them, unless opts say otherwise.
func goSDKTags(opts []typereg.Option) []typereg.Option {
	return append([]typereg.Option{typereg.WithJSONSchemaGo()}, opts...)
}

// Middleware returns receiving middleware for Server.AddReceivingMiddleware
// that guards tools/call requests for every tool reg records, whatever
// registered the tool with the server (mcp.AddTool, Server.AddTool).
//
// On a tools/call whose tool name reg records, it runs refuse.Decide on the
// arguments as they arrived. A refused call gets the refusal as a tool
// error, without structuredContent (the middleware cannot see whether the
// tool has an output schema; see the package documentation), and the
// server never sees the call. A call that goes on reaches the server with
// the decision's arguments: the call's own, with each alias renamed to its
// parameter's name, in a copy of the request (the caller's is not
// changed). When it goes on with warnings and the server's result is a
// success, the result carries them as AddTool's does: a text content
// block, and a "bindguard_warnings" member of structuredContent when that
// is a JSON object or absent.
//
// On tools/list, each tool reg records that has an object output schema is listed with "bindguard_warnings" as an
// optional property of that schema, so that a client that checks
// structuredContent against the output schema (the TypeScript SDK's does)
// accepts a result with warnings. The listed tool is a copy: the server's
// own tool, and its schema, are not changed, and go-sdk's own output
// validation (mcp.AddTool's) runs on the handler's output before the
// middleware adds anything. A tool whose output schema is not of type
// "object" is listed as it is; its results still get the member when their
// structuredContent is an object.
//
// A tool name reg does not record, and every other method, passes on
// untouched: the server answers an unknown tool as it always does.
//
// For tools added with mcp.AddTool, give reg the binder InputPath, go-sdk's
// own input path, so that the guard refuses exactly what go-sdk would
// (see the package documentation).
func Middleware(reg *typereg.Registry, opts ...MiddlewareOption) mcp.Middleware {
	var cfg middlewareConfig
	for _, o := range opts {
		o.apply(&cfg)
	}
	var st *serverTools
	if cfg.serverTools {
		st = &serverTools{cache: toolcache.New(reg, cfg.toolOpts, cfg.report)}
	}
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/call":
				call, ok := req.(*mcp.CallToolRequest)
				if !ok || call.Params == nil {
					break
				}
				if st != nil {
					st.refresh(ctx, next, call)
				}
				if _, guarded := reg.Tool(call.Params.Name); !guarded {
					break
				}
				args := call.Params.Arguments
				d := refuse.Decide(reg, call.Params.Name, args)
				if d.Refusal != nil && recordGone(d.Refusal) {
					// The record went between the lookup above and the
					// decision (a concurrent call of the tool, which the
					// server no longer lists, forgot it): the call goes on
					// as one of a tool with no record.
					break
				}
				if d.Refusal != nil {
					return refusalResult(d.Refusal, false), nil
				}
				if !sameBytes(d.Args, args) {
					req = withArguments(call, d.Args)
				}
				res, err := next(ctx, method, req)
				if err == nil && d.Warnings != nil {
					if ctr, ok := res.(*mcp.CallToolResult); ok {
						addWarnings(ctr, d.Warnings)
					}
				}
				return res, err
			case "tools/list":
				res, err := next(ctx, method, req)
				if lr, ok := res.(*mcp.ListToolsResult); ok && err == nil {
					listWarnings(reg, lr)
				}
				return res, err
			}
			return next(ctx, method, req)
		}
	}
}

// listWarnings replaces, in a tools/list result, each tool reg guards with
// a copy whose output schema has the warnings'
// optional property. The result's slice is go-sdk's fresh one; the tools in
// it are the server's own, so they are copied, never changed.
func listWarnings(reg *typereg.Registry, lr *mcp.ListToolsResult) {
	for i, tl := range lr.Tools {
		if tl == nil || tl.OutputSchema == nil {
			continue
		}
		if _, ok := reg.Tool(tl.Name); !ok {
			continue
		}
		schema, changed := withWarningsProperty(tl.OutputSchema)
		if !changed {
			continue
		}
		c := *tl
		c.OutputSchema = schema
		lr.Tools[i] = &c
	}
}

// withArguments is a copy of req whose arguments are args.
func withArguments(req *mcp.CallToolRequest, args json.RawMessage) *mcp.CallToolRequest {
	p := *req.Params
	p.Arguments = args
	c := *req
	c.Params = &p
	return &c
}

// sameBytes reports whether a and b are the same slice of memory, as
// refuse.Decide returns the call's own arguments when it renames nothing.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// refusalResult is the tool error for a refused call: the refusal's text as
// the one content block, the refusal itself as structuredContent when
// structured is set, and the refusal as the result's error for server
// middleware (CallToolResult.GetError).
func refusalResult(r *refuse.Refusal, structured bool) *mcp.CallToolResult {
	res := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: r.Error()}}}
	if structured {
		res.StructuredContent = r
	}
	res.SetError(r)
	return res
}

// recordGone reports whether r refuses a call only because its tool has no
// record.
func recordGone(r *refuse.Refusal) bool {
	return len(r.Problems) == 1 && r.Problems[0].Code == refuse.UnknownTool
}
