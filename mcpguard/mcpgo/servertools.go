package mcpgo

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/typereg"
)

// A MiddlewareOption configures Middleware.
type MiddlewareOption struct {
	apply func(*middlewareConfig)
}

type middlewareConfig struct {
	serverTools bool
	toolOpts    []typereg.Option
	report      func(tool string, err error)
}

// ServerTools makes Middleware guard every tool the server serves, not
// only those reg records: a tool reg has no struct record of is recorded
// from the input schema the server has for it (typereg.RegisterSchema,
// with opts): its InputSchema as mcp.NewTool's parameter options build it
// (mcp.WithString, mcp.WithNumber, mcp.Required, mcp.Enum, mcp.Min...), or
// its RawInputSchema. So a server whose handlers read the arguments with
// request.RequireString and friends is guarded in one line:
//
//	server.NewMCPServer(name, version,
//		server.WithToolHandlerMiddleware(mcpgo.Middleware(reg, mcpgo.ServerTools())))
//
// The records follow the server: on each call of a tool without a struct
// record, the middleware looks the tool up as mcp-go does (the session's
// tools, then the server's: MCPServer.GetTool) and records it again when
// its schema has changed since (compared as JSON). mcp-go answers a call
// of a tool it no longer has before any middleware runs, so the record of
// a deleted tool stays in reg, unused, until a tool of that name is
// served again, when it is recorded anew. A schema is compiled once per change; a call
// costs, on top of the guard, one marshal of the tool's schema.
//
// A tool whose schema the guard cannot check (a keyword it does not read,
// such as allOf; see typereg.RegisterSchema) is not guarded: its calls go
// to the handler as they would without the middleware, and the error,
// naming the keyword and where it is, goes to the function ReportUnguarded
// gives, once per schema. A struct record (AddTool, typereg.Register) is
// never replaced.
//
// What the guard cannot know: which accessor the handler reads an
// argument with. RequireInt and GetInt truncate a number (0.5 reads as 0)
// and take numeric text ("42"); a parameter published as "type": "number"
// or "string" and read with them is outside what the schema says, so a
// fraction passes as the schema allows it, and numeric text for an
// integer is refused as the schema's wrong type. Publish integers as
// mcp.WithInteger (mcp-go v0.58 on) or "type": "integer" where the handler reads them
// with RequireInt: the guard then refuses 0.5 by name. Where the schema
// must stay "number", typereg.WithIntReads(names...) among opts says which
// parameters the handlers read with RequireInt or GetInt: a fraction there
// is a silent loss, named with what the accessor returns.
//
// ServerTools uses server.ServerFromContext, MCPServer.GetTool and
// SessionWithTools.GetSessionTools, in mcp-go since v0.45.
func ServerTools(opts ...typereg.Option) MiddlewareOption {
	return MiddlewareOption{func(c *middlewareConfig) {
		c.serverTools = true
		c.toolOpts = append(c.toolOpts, opts...)
	}}
}

// ReportUnguarded gives ServerTools a function to call with each tool it
// cannot guard and why.
func ReportUnguarded(f func(tool string, err error)) MiddlewareOption {
	return MiddlewareOption{func(c *middlewareConfig) { c.report = f }}
}

type serverTools struct {
	reg    *typereg.Registry
	opts   []typereg.Option
	report func(string, error)

	mu   sync.Mutex
	seen map[string]seenSchema // per tool, the schema its record was made from
}

type seenSchema struct {
	raw []byte
	err error
}

// refresh makes reg's record of tool name the one the server serves now.
func (st *serverTools) refresh(ctx context.Context, name string) {
	if rec, ok := st.reg.Tool(name); ok && rec.Published() == nil {
		return // a struct record: its own
	}
	raw, found, err := servedInputSchema(ctx, name)
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.seen == nil {
		st.seen = map[string]seenSchema{}
	}
	prev, had := st.seen[name]
	if !found {
		if had {
			delete(st.seen, name)
			st.removeSchemaRecord(name)
		}
		return
	}
	if had && err == nil && bytes.Equal(raw, prev.raw) {
		return
	}
	if err == nil {
		err = st.reg.RegisterSchema(name, raw, st.opts...)
	}
	if err != nil {
		st.removeSchemaRecord(name)
		if st.report != nil {
			st.report(name, err)
		}
	}
	st.seen[name] = seenSchema{raw: raw, err: err}
}

func (st *serverTools) removeSchemaRecord(name string) {
	if rec, ok := st.reg.Tool(name); ok && rec.Published() != nil {
		st.reg.Remove(name)
	}
}

// servedInputSchema returns the input schema of the tool the call reaches,
// looked up as mcp-go looks it up (the session's tools first), as JSON.
func servedInputSchema(ctx context.Context, name string) (json.RawMessage, bool, error) {
	var tool *mcp.Tool
	if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithTools); ok {
		if st, ok := cs.GetSessionTools()[name]; ok {
			tool = &st.Tool
		}
	}
	if tool == nil {
		if s := server.ServerFromContext(ctx); s != nil {
			if st := s.GetTool(name); st != nil {
				tool = &st.Tool
			}
		}
	}
	if tool == nil {
		return nil, false, nil
	}
	if len(tool.RawInputSchema) > 0 {
		return tool.RawInputSchema, true, nil
	}
	raw, err := json.Marshal(tool.InputSchema)
	return raw, true, err
}
