package mcpgo

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/bindguard/bindguard/mcpguard/internal/toolcache"
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
// its definition has changed since. A definition is known by the identity
// of its schema's values (maps, slices and strings by address, as mcp-go
// keeps them), so a call of a tool whose definition has not changed reads
// nothing of its schema: a call costs, on top of the guard, a few map
// lookups, whatever the number of tools and the size of their schemas. A
// schema is marshalled once per new definition value (AddTool), and
// compiled only when its JSON differs from the one recorded. A schema
// value changed in place after AddTool (a map edited) is not seen, as it
// would race with mcp-go's own reads: add the tool again.
//
// mcp-go answers a call of a tool it no longer has (DeleteTools) before
// any middleware runs, so the middleware forgets deleted tools as it
// serves other calls: each call looks up two of the tools it records, in
// turn, and the record of a tool the server no longer has goes. A deleted
// tool's record is gone within as many calls as there are records, and a
// tool added again is recorded anew from its new schema. A call in flight
// when its tool is deleted is judged by the tool's last record, or goes on
// unguarded when that is already forgotten. The record of a session's own
// tool (SessionWithTools) is not swept, since another session's call cannot
// see that tool: it stays until the server itself serves a tool of that
// name, so such records are bounded by the session tool names ever called.
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

// sweepPerCall is how many recorded tools each call looks up (see
// toolcache.Cache.Sweep): more than the one record a call can add, so
// that the records of deleted tools do not pile up.
const sweepPerCall = 2

type serverTools struct {
	cache *toolcache.Cache
}

// refresh makes reg's record of tool name the one the server serves now,
// and forgets, a few at a time, the tools the server no longer serves.
func (st *serverTools) refresh(ctx context.Context, name string) {
	s := server.ServerFromContext(ctx)
	if s != nil {
		st.cache.Sweep(sweepPerCall, func(n string) bool { return s.GetTool(n) != nil })
	}
	if st.cache.StructRecord(name) {
		return
	}
	tool, ofSession := servedTool(ctx, s, name)
	if tool == nil {
		// mcp-go found the tool before the middleware ran: it was deleted
		// since, and the call is judged by the definition last recorded,
		// the one mcp-go found or one before it; Sweep forgets it.
		return
	}
	id := toolcache.Identity(tool.InputSchema, tool.RawInputSchema)
	st.cache.Served(name, id, ofSession, func() ([]byte, error) {
		if len(tool.RawInputSchema) > 0 {
			return tool.RawInputSchema, nil
		}
		return json.Marshal(tool.InputSchema)
	})
}

// servedTool returns the tool a call of name reaches, looked up as mcp-go
// looks it up (the session's tools first), and whether it is the
// session's; nil when there is none.
func servedTool(ctx context.Context, s *server.MCPServer, name string) (*mcp.Tool, bool) {
	if cs, ok := server.ClientSessionFromContext(ctx).(server.SessionWithTools); ok {
		if st, ok := cs.GetSessionTools()[name]; ok {
			return &st.Tool, true
		}
	}
	if s != nil {
		if st := s.GetTool(name); st != nil {
			return &st.Tool, false
		}
	}
	return nil, false
}
