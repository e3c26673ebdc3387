// Package gosdk puts the guard before the tool handlers of a server built
// with the official Go MCP SDK, github.com/modelcontextprotocol/go-sdk.
//
// It only translates: package typereg records the tools, package refuse
// gives the verdict and its words, and this package hands a tools/call's
// raw arguments to refuse.Refuse and turns a refusal into an MCP result.
//
// # AddTool
//
// AddTool[In, Out](server, reg, tool, handler) takes the same handler type
// as mcp.AddTool. It records In in the registry, publishes the registry's
// schema (closed with additionalProperties false) as the tool's input
// schema, and installs a handler that runs refuse.Refuse on the arguments
// as they arrived, then decodes them with the registry's binder straight
// into In. go-sdk's own input path is not used: mcp.AddTool validates the
// arguments against a schema after decoding them into float64s, and decodes
// In from that round trip, so it refuses some values the binder reads (null
// for an int, a key in another case) and rounds integers past 2^53. Through
// AddTool, integers arrive exact (9007199254740993 stays itself), and the
// handler sees exactly what the binder reads. The input schema comes from
// the registry, so AddTool also takes parameter types go-sdk's own schema
// inference refuses (mcp.AddTool panics on a map[int]string field, which
// encoding/json reads). The output side is mcp.AddTool's.
//
// # Refusals
//
// A refused call gets a tool error result, not a protocol error, by the MCP
// rule that argument errors are tool execution errors the model should see
// and correct: isError true, one text content block holding the refusal's
// text (Refusal.Error), and the *refuse.Refusal itself as the result's error
// for server middleware (CallToolResult.GetError). The handler never runs.
//
// When the tool has no output schema, the result's structuredContent is the
// refusal too, with the field names of its JSON tags (tool, accepted,
// problems with argument, path, code, takes, sent, element). When the tool has one
// (as every tool whose Out is not any has, inferred by go-sdk), the
// refusal is text only: some clients check structuredContent against the
// output schema even on error results and turn a mismatch into a protocol
// error (the TypeScript SDK's Client.callTool does, typescript-sdk issue
// #1943), which would hide the refusal from the model. go-sdk's own client
// does not check, and the text says everything the structure does.
//
// # Middleware
//
// Middleware(reg), for Server.AddReceivingMiddleware, guards tools/call for
// servers that keep registering with mcp.AddTool or Server.AddTool: for a
// tool name reg records (register the same parameter struct with
// typereg.Register), a refused call gets the refusal, as text only, and the
// server never sees the call. A name reg does not record passes on, and
// the server answers it as usual (an unknown tool is a protocol error).
//
// The middleware mirrors reg's binder, but a tool added with mcp.AddTool is
// decoded by go-sdk's own input path, which the middleware cannot change.
// After the middleware passes a call, go-sdk still validates it against the
// schema it inferred and decodes it from float64s, whichever binder the
// registry mirrors (bind.SegmentIO, go-sdk's own decoder, included): so it
// still refuses in its own words null for an int, 9223372036854775807 for
// an int64, and HOURS_BACK for hours_back (which encoding/json reads), and
// 9007199254740993 for an int64 still arrives as 9007199254740992. The
// other way round, the middleware refuses some calls go-sdk alone would
// read, since encoding/json fails on them: 1.0 or 1e2 for an int, and a
// repeated key whose first value is bad. For exact agreement between the
// guard and the decoder, add the tool with AddTool, or decode with the
// registry's binder in a Server.AddTool handler. A tool added with AddTool
// needs no middleware; if the middleware guards it too, the middleware
// refuses first, as text only, in the same words.
package gosdk
