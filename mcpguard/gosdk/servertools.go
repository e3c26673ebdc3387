package gosdk

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

// ServerTools makes Middleware guard every tool the server lists, not only
// those reg records: a tool reg has no struct record of is recorded from
// the input schema the server lists for it (typereg.RegisterSchema, with
// opts), so that a server whose tools are declared with hand-written
// schemas (Server.AddTool with a *jsonschema.Schema, a json.RawMessage or
// a map) and read as maps is guarded in one line:
//
//	s.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools()))
//
// The records follow the server: before each call of a tool without a
// struct record, the middleware asks the server for its tool list (a
// tools/list request sent down the middleware chain, page by page) and
// records the tool again when its definition has changed since (added,
// replaced with Server.AddTool, or its schema value replaced), or removes
// the record when the server no longer lists the tool. The list is read on
// every such call because go-sdk (v1.6 to v1.8, the versions this
// adapter supports) offers nothing cheaper that is exact: no lookup of one tool, and no synchronous word of a change
// (notifications/tools/list_changed is sent 10ms after the last change,
// only to the sessions open then, and not at all when the server's
// capabilities turn it off). So a call costs, on top of the guard, a walk
// of the server's tool list: it grows with the number of tools the server
// has, not with the call (a server that must not pay it records each
// tool where it adds it, with typereg.RegisterSchema beside Server.AddTool
// and Registry.Remove beside RemoveTools, and uses Middleware without
// ServerTools). A definition is known by its listed *mcp.Tool
// and the identity of its schema value, so a schema is read (marshalled)
// once per definition and compiled only when its JSON changes; a schema value changed in place after AddTool (a map
// edited) is not seen, as it would race with go-sdk's own reads: add the
// tool again.
//
// A tool whose schema the guard cannot check (a keyword it does not read,
// such as allOf; see typereg.RegisterSchema) is not guarded: its calls go
// to the server as they would without the middleware, and the error,
// naming the keyword and where it is, goes to the function ReportUnguarded
// gives, once per definition. A struct record (AddTool, typereg.Register)
// is never replaced: it says more than the schema.
//
// ServerTools uses only go-sdk API present since v1.0: receiving
// middleware, and the tools/list method handler.
func ServerTools(opts ...typereg.Option) MiddlewareOption {
	return MiddlewareOption{func(c *middlewareConfig) {
		c.serverTools = true
		c.toolOpts = append(c.toolOpts, opts...)
	}}
}

// ReportUnguarded gives ServerTools a function to call with each tool it
// cannot guard and why (a *schemacheck.KeywordError, wrapped, names the
// keyword and its JSON Pointer in the schema).
func ReportUnguarded(f func(tool string, err error)) MiddlewareOption {
	return MiddlewareOption{func(c *middlewareConfig) { c.report = f }}
}

// serverTools keeps reg's schema records in step with the server's list.
type serverTools struct {
	cache *toolcache.Cache
}

// maxListPages bounds the pages of tools/list one call reads.
const maxListPages = 1000

// refresh makes reg's record of the tool a call names the one the server
// lists now.
func (st *serverTools) refresh(ctx context.Context, next mcp.MethodHandler, call *mcp.CallToolRequest) {
	name := call.Params.Name
	if st.cache.StructRecord(name) {
		return
	}
	tl := listed(ctx, next, call, name)
	if tl == nil {
		st.cache.Gone(name)
		return
	}
	// The tool (go-sdk keeps the *mcp.Tool it was given) and its schema
	// value: a schema value replaced on the same tool is a new definition.
	id := toolcache.Identity(tl, tl.InputSchema)
	st.cache.Served(name, id, false, func() ([]byte, error) { return json.Marshal(tl.InputSchema) })
}

// listed returns the server's current definition of tool name, reading
// its tool list through next; nil when it lists none.
func listed(ctx context.Context, next mcp.MethodHandler, call *mcp.CallToolRequest, name string) *mcp.Tool {
	cursor := ""
	for range maxListPages {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: call.Session, Params: &mcp.ListToolsParams{Cursor: cursor}, Extra: call.Extra})
		lr, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok {
			return nil
		}
		for _, tl := range lr.Tools {
			if tl != nil && tl.Name == name {
				return tl
			}
		}
		if lr.NextCursor == "" || lr.NextCursor == cursor {
			return nil
		}
		cursor = lr.NextCursor
	}
	return nil
}
