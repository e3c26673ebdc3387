package mcpgo

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/mcpguard/internal/toolcache"
	"github.com/bindguard/bindguard/mcpguard/internal/warnings"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// AddTool registers tool on s, guarded, with h as its handler: it records
// In as the parameters of tool.Name in reg with opts (typereg.Register: the
// mode, exempt keys, an open tool, aliases), publishes reg's schema for it
// as the tool's input schema (Tool.RawInputSchema: closed with
// additionalProperties false unless the tool is open, listing no alias and
// no exempt key), and adds a handler that runs refuse.Decide on the call's
// raw argument bytes. A refused call gets the refusal as a tool error
// result (see RefusalResult), and h does not run. Otherwise the decision's
// arguments (the call's own, with each alias renamed to its parameter's
// name) are decoded with reg's binder straight into an In for h, and h gets
// them in req.Params.RawArguments too (and mcp-go's map of them in
// req.Params.Arguments), so an exempt key is there as sent. Under
// typereg.Off nothing is checked, and a value the binder cannot decode is a
// tool error in the words mcp.NewTypedToolHandler uses ("failed to bind
// arguments: ...").
//
// When the call goes on with warnings (typereg.Warn, or a silent loss) and
// h returns a success, the result carries them: a text item after h's own,
// and a "bindguard_warnings" member of structuredContent (see the package
// documentation). When tool has an output schema of type "object", AddTool
// publishes it with "bindguard_warnings" as an optional property, so that
// mcp-go's WithOutputSchemaValidation and clients that check
// structuredContent against the schema accept the member.
//
// In may be a pointer to the struct (AddTool[*T]): the record is the
// struct's, and h gets what mcp.NewTypedToolHandler gives it (nil for null
// and for no arguments). The published schema is the one reg records, made
// with reg's options and the tool's (typereg.WithReflector,
// typereg.WithJSONSchemaGo).
//
// Build tool with mcp.NewTool and options that do not describe parameters
// (mcp.WithDescription, annotations, an output schema): the input schema is
// the registry's, and AddTool fails when tool already has one (a property,
// a required list, additionalProperties or a RawInputSchema). It also
// fails, naming the field, when reg's binder cannot decode into In or opts
// do not fit (see typereg.Register), and when s refuses the tool (a task
// tool of the same name); reg is left as it was in every such case, and so
// is s.
//
// The handler checks that reg still records In for tool.Name: if the name
// has since been registered with another type, every call is refused with
// an error result, since the guard would be reading the arguments for a
// struct h does not take.
func AddTool[In any](s *server.MCPServer, reg *typereg.Registry, tool mcp.Tool, h mcp.TypedToolHandlerFunc[In], opts ...typereg.Option) error {
	if s == nil || reg == nil || h == nil {
		return errors.New("mcpgo: AddTool needs a server, a registry and a handler")
	}
	if err := noSchema(tool); err != nil {
		return err
	}
	// Record In in a registry of its own first, with the same binder and
	// the tool's options, so that a type the binder cannot decode into, bad
	// options, or a server that refuses the tool leave reg as it was. The
	// published schema depends on the binder, In, the tool's own options
	// and reg's (WithReflector, WithJSONSchemaGo given to New), which the
	// trial registry lacks: once reg records the tool, its schema is
	// published if it differs.
	trial := typereg.New(typereg.WithBinder(reg.Binder()))
	if err := typereg.Register[In](trial, tool.Name, opts...); err != nil {
		return fmt.Errorf("mcpgo: %w", err)
	}
	rec, _ := trial.Tool(tool.Name)
	schema, err := json.Marshal(rec.Schema())
	if err != nil {
		return fmt.Errorf("mcpgo: tool %q: the input schema does not marshal: %w", tool.Name, err)
	}
	tool.InputSchema = mcp.ToolInputSchema{}
	tool.RawInputSchema = schema
	out := outputSchema(tool)
	if withProp, ok := warnings.WithProperty(out); ok {
		tool.OutputSchema, tool.RawOutputSchema, out = mcp.ToolOutputSchema{}, withProp, withProp
	}

	// The record's type is the struct, In itself or what In points to.
	name, in := tool.Name, rec.Type()
	handler := func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		t, ok := reg.Tool(name)
		if ok && t.Type() != in {
			return mcp.NewToolResultError(fmt.Sprintf("Tool '%s' is registered with parameters %v, but its handler takes %v; the call was not run.", name, t.Type(), in)), nil
		}
		args, err := rawArguments(req)
		if err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("The arguments for tool '%s' could not be read: %v.", name, err)), nil
		}
		d := refuse.Decide(reg, name, args)
		if d.Refusal != nil {
			return RefusalResult(d.Refusal), nil
		}
		if !sameBytes(d.Args, args) {
			req = withArguments(req, d.Args)
		}
		var v In
		if len(d.Args) > 0 {
			// The type's own methods run contained: a panic is an error,
			// and the error's text is cut (contain.Text).
			if err := contain.Decode(reg.Binder(), d.Args, &v); err != nil {
				if ok && t.Policy().Mode == typereg.Off {
					return mcp.NewToolResultError("failed to bind arguments: " + contain.Text(err)), nil
				}
				// The guard passed what the binder fails on: a disagreement
				// the tests exist to catch. The handler still does not run.
				return mcp.NewToolResultError(fmt.Sprintf("The arguments for tool '%s' could not be read: %s.", name, contain.Text(err))), nil
			}
		}
		res, err := h(ctx, req, v)
		if err == nil {
			addWarnings(res, d.Warnings, out)
		}
		return res, err
	}
	prev := s.GetTool(name)
	if err := addTool(s, tool, handler); err != nil {
		return err
	}
	if err := typereg.Register[In](reg, name, opts...); err != nil {
		// reg itself is misconfigured (an option meant for a tool given to
		// New), or an alias is one of its exempt keys: the trial registry
		// could not see either. Put the server back as it was.
		if prev != nil {
			s.AddTools(*prev)
		} else {
			s.DeleteTools(name)
		}
		return fmt.Errorf("mcpgo: %w", err)
	}
	if rec, _ := reg.Tool(name); rec != nil {
		if recorded, _ := json.Marshal(rec.Schema()); !bytes.Equal(recorded, schema) {
			tool.RawInputSchema = recorded
			return addTool(s, tool, handler) // the server has the name: it replaces the tool
		}
	}
	return nil
}

// Register records tool in reg, for a server that adds the tool itself
// (server.AddTool, AddTools) with a handler of its own, behind
// Middleware(reg): a handler that does its own tracing or converts its
// own results, or a generic wrapper that has erased the parameter type by
// the time the tool is added. Its parameters are the struct type in, or
// the struct in points to, recorded under tool.Name with opts, replacing
// any earlier record of that name (typereg.RegisterType): pass the
// options that say how the server's own schema is made, such as
// typereg.WithReflector with the server's invopop Reflector, so that the
// guard requires and admits what that schema does.
//
// It returns tool with the registry's input schema (RawInputSchema, as
// AddTool publishes it), and, when tool has an object output schema, with
// "bindguard_warnings" as an optional property of it; add that tool, so
// that tools/list publishes what the guard enforces. Register fails, and
// records nothing, when tool already has an input schema (build it
// without parameter options) and when in cannot be registered with opts.
func Register(reg *typereg.Registry, tool mcp.Tool, in reflect.Type, opts ...typereg.Option) (mcp.Tool, error) {
	if reg == nil {
		return tool, errors.New("mcpgo: Register needs a registry")
	}
	if err := noSchema(tool); err != nil {
		return tool, err
	}
	if err := typereg.RegisterType(reg, tool.Name, in, opts...); err != nil {
		return tool, fmt.Errorf("mcpgo: %w", err)
	}
	rec, _ := reg.Tool(tool.Name)
	schema, _ := json.Marshal(rec.Schema()) // Register has checked that it marshals
	tool.InputSchema = mcp.ToolInputSchema{}
	tool.RawInputSchema = schema
	if withProp, ok := warnings.WithProperty(outputSchema(tool)); ok {
		tool.OutputSchema, tool.RawOutputSchema = mcp.ToolOutputSchema{}, withProp
	}
	return tool, nil
}

// Middleware returns a tool handler middleware (for
// server.WithToolHandlerMiddleware or MCPServer.Use) that runs
// refuse.Decide on the raw argument bytes of every call of a tool reg
// records, and answers a refused call with RefusalResult, so that the
// handler does not run. A call of a tool reg does not record goes on
// untouched: the middleware guards only what was registered.
//
// A call that goes on reaches the handler with the decision's arguments:
// when the call used an alias, req.Params.RawArguments holds them with the
// alias renamed to its parameter's name, and req.Params.Arguments is
// mcp-go's map of those, so mcp.NewTypedToolHandler, BindArguments and
// GetArguments all see the parameter's name.
//
// When the call goes on with warnings and the handler returns a success,
// the result gets them as a text item after the handler's own. They go
// into structuredContent too, as a "bindguard_warnings" member, only where
// that cannot make the result invalid: the middleware looks up the tool it
// guards (the session's, then the server's, as mcp-go does) and merges the
// member when the tool has no output schema (making the object when the
// result has none), or when its output schema lists "bindguard_warnings"
// as a property or leaves other members open. Otherwise (a closed output
// schema, the usual one, or no structuredContent to merge into) the
// warnings are text only. The middleware does not publish the tool, and
// mcp-go gives it no say in tools/list: to have the member on a tool with
// a closed output schema, declare "bindguard_warnings" as an optional
// object property of that schema, or add the tool with AddTool, which
// does.
//
// The guard mirrors reg's binder: the handler must decode the arguments
// with it, from req.Params.RawArguments. mcp.NewTypedToolHandler and
// CallToolRequest.BindArguments decode RawArguments with encoding/json, so
// they match a registry whose binder is bind.Std; a handler that reads
// mcp-go's map re-marshalled matches MapArguments, and one with coercions
// of its own, a bind.Reader over the same decoding. The handler's struct
// must be the one registered for the tool, and the tool's published input
// schema is the server's business: publish the registry's
// (typereg.Tool.Schema) to advertise what the guard enforces.
func Middleware(reg *typereg.Registry, opts ...MiddlewareOption) server.ToolHandlerMiddleware {
	var cfg middlewareConfig
	for _, o := range opts {
		o.apply(&cfg)
	}
	var st *serverTools
	if cfg.serverTools {
		st = &serverTools{cache: toolcache.New(reg, cfg.toolOpts, cfg.report)}
	}
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			name := req.Params.Name
			if st != nil {
				st.refresh(ctx, name)
			}
			if _, ok := reg.Tool(name); !ok {
				return next(ctx, req)
			}
			args, err := rawArguments(req)
			if err != nil {
				return mcp.NewToolResultError(fmt.Sprintf("The arguments for tool '%s' could not be read: %v.", name, err)), nil
			}
			d := refuse.Decide(reg, name, args)
			if d.Refusal != nil && recordGone(d.Refusal) {
				// The record went between the lookup above and the decision
				// (a concurrent call's sweep forgot a tool deleted since):
				// the call goes on as one of a tool with no record.
				return next(ctx, req)
			}
			if d.Refusal != nil {
				return RefusalResult(d.Refusal), nil
			}
			if !sameBytes(d.Args, args) {
				req = withArguments(req, d.Args)
			}
			res, err := next(ctx, req)
			if err == nil && d.Warnings != nil && res != nil && !res.IsError {
				schema, found := servedOutputSchema(ctx, name)
				if !found {
					// Not knowing the schema, merge nothing.
					schema = json.RawMessage(`{"additionalProperties":false}`)
				}
				addWarnings(res, d.Warnings, schema)
			}
			return res, err
		}
	}
}

// withArguments is req with args as its arguments: the raw bytes, and
// mcp-go's own decoding of them into Arguments (as CallToolParams'
// UnmarshalJSON makes it).
func withArguments(req mcp.CallToolRequest, args json.RawMessage) mcp.CallToolRequest {
	req.Params.RawArguments = args
	var m any
	if json.Unmarshal(args, &m) == nil {
		req.Params.Arguments = m
	}
	return req
}

// sameBytes reports whether a and b are the same slice of memory, as
// refuse.Decide returns the call's own arguments when it renames nothing.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// RefusalResult is the tool result a refused call gets: a tool execution
// error (isError true), as the MCP specification has argument errors be,
// so that the model reads it and can correct the call. Its content is one
// text item, r.Error(), and its structuredContent is r itself (tool,
// accepted, problems, as refuse.Refusal's JSON tags name them).
func RefusalResult(r *refuse.Refusal) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(r.Error())},
		StructuredContent: r,
		IsError:           true,
	}
}

// rawArguments returns the call's arguments as JSON. A call that came
// through HandleMessage carries the caller's own bytes in RawArguments; a
// request built in Go (no wire frame) has only Arguments, which is
// marshaled: those are then not the caller's bytes, but the only ones
// there are.
func rawArguments(req mcp.CallToolRequest) (json.RawMessage, error) {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments, nil
	}
	switch a := req.Params.Arguments.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return a, nil
	}
	return json.Marshal(req.Params.Arguments)
}

// noSchema reports an input schema already set on tool.
func noSchema(tool mcp.Tool) error {
	is := tool.InputSchema
	if len(tool.RawInputSchema) > 0 || len(is.Properties) > 0 || len(is.Required) > 0 || is.AdditionalProperties != nil || len(is.Defs) > 0 {
		return fmt.Errorf("mcpgo: tool %q already has an input schema; AddTool publishes the registry's, so build the tool without parameter options", tool.Name)
	}
	return nil
}

// addTool adds tool to s, turning the panic AddTool raises for a tool it
// refuses into an error.
func addTool(s *server.MCPServer, tool mcp.Tool, h server.ToolHandlerFunc) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("mcpgo: the server refused tool %q: %v", tool.Name, p)
		}
	}()
	s.AddTool(tool, h)
	return nil
}

// recordGone reports whether r refuses a call only because its tool has no
// record.
func recordGone(r *refuse.Refusal) bool {
	return len(r.Problems) == 1 && r.Problems[0].Code == refuse.UnknownTool
}
