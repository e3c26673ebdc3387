package mcpgo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// AddTool registers tool on s, guarded, with h as its handler: it records
// In as the parameters of tool.Name in reg, publishes reg's schema for it as
// the tool's input schema (Tool.RawInputSchema), and adds a handler that
// runs refuse.Refuse on the call's raw argument bytes and then decodes those
// bytes with reg's binder straight into an In for h. A refused call gets
// the refusal as a tool error result (see RefusalResult), and h does not
// run.
//
// Build tool with mcp.NewTool and options that do not describe parameters
// (mcp.WithDescription, annotations): the input schema is the registry's,
// and AddTool fails when tool already has one (a property, a required
// list, additionalProperties or a RawInputSchema). It also fails, naming
// the field, when reg's binder cannot decode into In (see typereg.Register),
// and when s refuses the tool (a task tool of the same name); reg is left
// as it was in every such case.
//
// The handler checks that reg still records In for tool.Name: if the name
// has since been registered with another type, every call is refused with
// an error result, since the guard would be reading the arguments for a
// struct h does not take.
func AddTool[In any](s *server.MCPServer, reg *typereg.Registry, tool mcp.Tool, h mcp.TypedToolHandlerFunc[In]) error {
	if s == nil || reg == nil || h == nil {
		return errors.New("mcpgo: AddTool needs a server, a registry and a handler")
	}
	if err := noSchema(tool); err != nil {
		return err
	}
	// Record In in a registry of its own first, so that a type the binder
	// cannot decode into, or a server that refuses the tool, leaves reg as
	// it was.
	trial := typereg.New(typereg.WithBinder(reg.Binder()))
	if err := typereg.Register[In](trial, tool.Name); err != nil {
		return fmt.Errorf("mcpgo: %w", err)
	}
	rec, _ := trial.Tool(tool.Name)
	schema, err := json.Marshal(rec.Schema)
	if err != nil {
		return fmt.Errorf("mcpgo: tool %q: the input schema does not marshal: %w", tool.Name, err)
	}
	tool.InputSchema = mcp.ToolInputSchema{}
	tool.RawInputSchema = schema

	name, in := tool.Name, reflect.TypeFor[In]()
	handler := func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if t, ok := reg.Tool(name); ok && t.Type != in {
			return mcp.NewToolResultError(fmt.Sprintf("Tool '%s' is registered with parameters %v, but its handler takes %v; the call was not run.", name, t.Type, in)), nil
		}
		args, err := rawArguments(req)
		if err != nil {
			return mcp.NewToolResultError(fmt.Sprintf("The arguments for tool '%s' could not be read: %v.", name, err)), nil
		}
		if r := refuse.Refuse(reg, name, args); r != nil {
			return RefusalResult(r), nil
		}
		var v In
		if len(args) > 0 {
			if err := reg.Binder().Unmarshal(args, &v); err != nil {
				// The guard passed what the binder fails on: a disagreement
				// the tests exist to catch. The handler still does not run.
				return mcp.NewToolResultError(fmt.Sprintf("The arguments for tool '%s' could not be read: %v.", name, err)), nil
			}
		}
		return h(ctx, req, v)
	}
	if err := addTool(s, tool, handler); err != nil {
		return err
	}
	if err := typereg.Register[In](reg, name); err != nil {
		// Not reached: the trial registration with the same binder passed.
		// Calls are refused as calls of an unregistered tool.
		return fmt.Errorf("mcpgo: %w", err)
	}
	return nil
}

// Middleware returns a tool handler middleware (for
// server.WithToolHandlerMiddleware or MCPServer.Use) that runs
// refuse.Refuse on the raw argument bytes of every call of a tool reg
// records, and answers a refused call with RefusalResult, so that the
// handler does not run. A call of a tool reg does not record goes on
// untouched: the middleware guards only what was registered.
//
// The guard mirrors reg's binder: the handler must decode the arguments
// with it, from req.Params.RawArguments. mcp.NewTypedToolHandler and
// CallToolRequest.BindArguments decode RawArguments with encoding/json, so
// they match a registry whose binder is bind.Std. The handler's struct
// must be the one registered for the tool, and the tool's published input
// schema is the server's business: publish the registry's
// (typereg.Tool.Schema) to advertise what the guard enforces.
func Middleware(reg *typereg.Registry) server.ToolHandlerMiddleware {
	return func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			name := req.Params.Name
			if _, ok := reg.Tool(name); !ok {
				return next(ctx, req)
			}
			args, err := rawArguments(req)
			if err != nil {
				return mcp.NewToolResultError(fmt.Sprintf("The arguments for tool '%s' could not be read: %v.", name, err)), nil
			}
			if r := refuse.Refuse(reg, name, args); r != nil {
				return RefusalResult(r), nil
			}
			return next(ctx, req)
		}
	}
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
