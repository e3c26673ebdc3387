// Package gosdk puts the guard before the tool handlers of a server built
// with the official Go MCP SDK, github.com/modelcontextprotocol/go-sdk.
//
// It only translates: package typereg records the tools and their
// policies, package refuse gives the verdict and its words, and this
// package hands a tools/call's raw arguments to refuse.Decide and turns the
// decision into an MCP result: a refusal, or the handler's result, with
// warnings when there are some.
//
// # AddTool
//
// AddTool[In, Out](server, reg, tool, handler, opts...) takes the same
// handler type as mcp.AddTool. It records In in the registry with the
// tool's options (typereg.WithMode, WithStrict, WithExempt, WithOpen,
// WithAlias), publishes the registry's schema as the tool's input schema
// (closed with additionalProperties false unless the tool is open; aliases
// and exempt keys are never listed), and installs a handler that runs
// refuse.Decide on the arguments as they arrived, then decodes the
// decision's arguments (aliases renamed to their parameters' names) with
// the registry's binder straight into In. go-sdk's own input path is not
// used: mcp.AddTool validates the
// arguments against a schema after decoding them into float64s, and decodes
// In from that round trip, so it refuses some values the binder reads (null
// for an int, a key in another case) and rounds integers past 2^53. Through
// AddTool, integers arrive exact (9007199254740993 stays itself), and the
// handler sees exactly what the binder reads. The input schema comes from
// the registry, so AddTool also takes parameter types go-sdk's own schema
// inference refuses (mcp.AddTool panics on a map[int]string field, which
// encoding/json reads). The output side is mcp.AddTool's.
//
// # The server's own code
//
// A parameter type that decodes itself (UnmarshalJSON, UnmarshalText) runs
// contained wherever the guard runs it: a panic in the method, or in a
// method of the error it returns (Error, Unwrap), is a tool error, never a
// crash of the server, and an Unwrap that loops or a million-wide error
// tree costs a bounded walk. The error's text, where a tool error passes it
// on, is cut to 512 bytes. Per call the method runs once in the guard's
// check (twice when the binder fails on the call, to name the argument)
// and once for the handler's own decode: twice for a good call, with
// validate tags or without (once more when the compiled constraints cannot
// judge the call from its text, see docs/how-it-works.md, "How often a
// method runs").
//
// # Modes
//
// Each tool's mode (typereg.Mode) says what the guard does with what its
// policies find: unknown keys (unless exempt, or the tool is open), a
// required parameter not sent, an argument sent under its name and an
// alias, and, under Strict, silent losses. Under Reject, the default, such
// a call is refused; under Warn, the handler runs and the result carries
// the warnings; under Off, nothing is checked and the adapters behave as
// the bare SDK does with the registry's binder (an alias is not renamed,
// and a value the binder cannot decode is the decoder's error). A value the
// binder cannot decode is refused in every mode but Off. Silent losses are
// warnings under Reject too, unless Strict.
//
// # Warnings
//
// A call that goes on with warnings (refuse.Decision.Warnings) and whose
// handler succeeds gets them twice in its result: as a text content block
// after the handler's own, holding refuse.Warnings.String(), for the model
// to read; and as a "bindguard_warnings" member of structuredContent,
// holding the refuse.Warnings as JSON (tool, accepted, problems, more),
// merged into the handler's object, or in an object of its own when the
// result has no structuredContent. A structuredContent that is not an
// object (go-sdk lets an output be an array) is left as it is: the
// warnings are text only. An error result, a handler's error and a result
// that asks the client for input never carry warnings.
//
// A client that checks structuredContent against the tool's output schema
// (the TypeScript SDK's Client.callTool does, and go-sdk infers
// additionalProperties false for a struct Out) would refuse a member the
// schema does not list. So AddTool publishes an object output schema with
// "bindguard_warnings" as an optional property, and Middleware adds the
// same property to the object output schemas of the tools it guards when
// it passes on a tools/list result (on copies: the server's own tools are
// never changed). go-sdk's validation of the handler's output runs against
// the schema as given, before the warnings are added.
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
// problems with argument, path, code, takes, sent, element, did_you_mean,
// becomes; more). When the tool has one (as every tool whose Out is not
// any has, inferred by go-sdk), the refusal is text only: some clients
// check structuredContent against the output schema even on error results
// and turn a mismatch into a protocol error (the TypeScript SDK's
// Client.callTool does, typescript-sdk issue #1943), which would hide the
// refusal from the model. go-sdk's own client
// does not check, and the text says everything the structure does.
//
// # Middleware
//
// Middleware(reg), for Server.AddReceivingMiddleware, guards tools/call for
// servers that keep registering with mcp.AddTool or Server.AddTool: for a
// tool name reg records (register the same parameter struct, with the
// tool's options, with typereg.Register), a refused call gets the refusal,
// as text only, and the server never sees the call. A call that goes on
// reaches the server with the decision's arguments, aliases renamed, in a
// copy of the request; warnings go on the server's result as above, and
// tools/list results show the warnings' property. A name reg does not
// record passes on, and the server answers it as usual (an unknown tool is
// a protocol error).
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
// repeated key whose first value is bad. And since go-sdk's inferred
// schema is closed, it still refuses an exempt key, or a key an open tool
// lets through, that the guard passed (an alias it takes, renamed). For
// exact agreement between the
// guard and the decoder, add the tool with AddTool, or decode with the
// registry's binder in a Server.AddTool handler. A tool added with AddTool
// needs no middleware; if the middleware guards it too, the middleware
// refuses first, as text only, in the same words.
package gosdk
