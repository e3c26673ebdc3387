package gosdk

import (
	"context"
	"fmt"
	"reflect"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// AddTool adds tool t to server s, as mcp.AddTool does, with the guard
// before the handler.
//
// It records In in reg under t.Name (replacing any earlier record of that
// name) and publishes the record's schema, closed with additionalProperties
// false, as the tool's input schema. A call's arguments go to refuse.Refuse
// as they arrived; a refused call gets the refusal as a tool error (see the
// package documentation) and h never runs. Otherwise the arguments are
// decoded with reg's binder straight into In, with no schema validation and
// no float64 round trip, and h runs. Empty or missing arguments, and null,
// leave In zero.
//
// The output side is mcp.AddTool's: the output schema is t.OutputSchema, or
// inferred from Out (unless Out is any) as go-sdk infers it; Out is
// marshalled into StructuredContent, validated against that schema, and
// copied into a text Content when h set none; an error from h becomes a
// tool error, except a *jsonrpc.Error, which is returned as a protocol
// error.
//
// AddTool returns an error, and adds nothing, when t.InputSchema is set (the
// published schema is the registry's, because it is what the guard
// enforces), when the output schema cannot be inferred or resolved, or when
// In cannot be registered: In must be a struct the binder can decode into,
// and the error names the field it cannot. Panics of Server.AddTool (a tool
// go-sdk itself rejects) are not caught.
//
// The registry's record of t.Name must stay In's while the tool is served:
// the guard looks the record up by name on each call.
func AddTool[In, Out any](s *mcp.Server, reg *typereg.Registry, t *mcp.Tool, h mcp.ToolHandlerFor[In, Out]) error {
	if t.InputSchema != nil {
		return fmt.Errorf("gosdk: tool %q: InputSchema is set; AddTool publishes the schema the registry records for %v, which is what the guard enforces", t.Name, reflect.TypeFor[In]())
	}
	tt := *t
	out, err := newOutput[Out](&tt)
	if err != nil {
		return fmt.Errorf("gosdk: tool %q: output schema: %w", t.Name, err)
	}
	if err := typereg.Register[In](reg, t.Name); err != nil {
		return fmt.Errorf("gosdk: %w", err)
	}
	rec, _ := reg.Tool(t.Name)
	tt.InputSchema = rec.Schema

	name, binder := t.Name, reg.Binder()
	structured := tt.OutputSchema == nil
	s.AddTool(&tt, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.Arguments
		if r := refuse.Refuse(reg, name, args); r != nil {
			return refusalResult(r, structured), nil
		}
		var in In
		if len(args) > 0 {
			if err := binder.Unmarshal(args, &in); err != nil {
				// The guard passed what the binder fails on: a disagreement
				// between the two, reported as go-sdk reports a decoding
				// error, since the handler cannot run.
				var res mcp.CallToolResult
				res.SetError(err)
				return &res, nil
			}
		}
		res, o, err := h(ctx, req, in)
		return out.result(res, o, err)
	})
	return nil
}

// Middleware returns receiving middleware for Server.AddReceivingMiddleware
// that guards tools/call requests for every tool reg records, whatever
// registered the tool with the server (mcp.AddTool, Server.AddTool).
//
// On a tools/call whose tool name reg records, it runs refuse.Refuse on the
// arguments as they arrived; a refused call gets the refusal as a tool
// error, without structuredContent (the middleware cannot see whether the
// tool has an output schema; see the package documentation), and the
// server never sees the call. A tool name reg does not record, and every
// other method, passes on untouched: the server answers an unknown tool as
// it always does.
func Middleware(reg *typereg.Registry) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && method == "tools/call" && call.Params != nil {
				if _, guarded := reg.Tool(call.Params.Name); guarded {
					if r := refuse.Refuse(reg, call.Params.Name, call.Params.Arguments); r != nil {
						return refusalResult(r, false), nil
					}
				}
			}
			return next(ctx, method, req)
		}
	}
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
