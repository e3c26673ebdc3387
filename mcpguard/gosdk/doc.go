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
// In is what mcp.AddTool takes: a struct, or a pointer to one (gopls's
// tools take *T), whose handler gets a new zero struct for missing or empty
// arguments and nil for null, as go-sdk gives it. Its tags are read as
// go-sdk reads them, with google/jsonschema-go (typereg.WithJSONSchemaGo):
// the whole jsonschema tag is the field's description
// (jsonschema:"the file to read"), kept in the published schema at every
// level, and a field is required exactly when it has neither omitempty nor
// omitzero, as mcp.AddTool's schema has it. A tag go-sdk refuses, one that
// begins with WORD= (jsonschema:"description=...,minimum=1"), is
// invopop/jsonschema's syntax and is read as invopop reads it. A server
// whose schemas come from its own invopop Reflector says so with
// typereg.WithReflector among AddTool's (or Register's) options: go-sdk's
// reading is a tool option, so it takes precedence over one given to
// typereg.New.
//
// # Which route fits which server
//
//   - A server that calls mcp.AddTool directly, one tool at a time: replace
//     mcp.AddTool(s, tool, h) with gosdk.AddTool(s, reg, tool, h). The
//     guard and the handler's decoder agree exactly.
//   - A server that wraps its tools in its own helper calling mcp.AddTool
//     (tracing, a generic wrapper that erases In, read-only and read-write
//     variants): keep the helper and its mcp.AddTool, give the registry
//     go-sdk's own input path as its binder,
//     typereg.New(typereg.WithBinder(InputPath), typereg.WithJSONSchemaGo()),
//     record each tool where the helper adds it with
//     typereg.RegisterType(reg, tool.Name, reflect.TypeFor[In]()), and
//     install Middleware(reg) once. go-sdk then infers the schema it
//     publishes and validates as always, and InputPath is that path's
//     exact mirror. Do not add the tool Register returns with mcp.AddTool:
//     go-sdk would validate against the registry's schema, which InputPath
//     does not see (null for an optional *int passes the guard and go-sdk
//     then refuses it; an open tool's extra key is refused by the guard
//     and served by go-sdk).
//   - A server that adds tools with Server.AddTool and a handler of its own
//     that decodes the arguments itself: Register(reg, tool, in) returns
//     the tool with the registry's schema to add; the registry's binder is
//     the handler's decoder (bind.Std for encoding/json, or a bind.Reader).
//
// docs/guarding-existing-servers.md walks through each route.
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
// tool's options, with Register, which reads its tags as go-sdk does, or
// typereg.Register with typereg.WithJSONSchemaGo), a refused call gets the refusal,
// as text only, and the server never sees the call. A call that goes on
// reaches the server with the decision's arguments, aliases renamed, in a
// copy of the request; warnings go on the server's result as above, and
// tools/list results show the warnings' property. A name reg does not
// record passes on, and the server answers it as usual (an unknown tool is
// a protocol error).
//
// A tool added with mcp.AddTool is decoded by go-sdk's own input path,
// which the middleware cannot change: go-sdk decodes the arguments into a
// map of float64s, applies the schema's defaults, validates the map
// against the schema it inferred, and decodes the struct from the map
// written back. So give the registry that path as its binder,
// typereg.WithBinder(gosdk.InputPath): the guard then runs the same calls
// (bind.Reader) and refuses exactly what go-sdk refuses, naming the
// argument (null for an int, 0.5 for an int, HOURS_BACK for hours_back, a
// key the closed schema does not list), passes everything go-sdk serves
// (1.0 and 1e2 for an int, a repeated key's last value), and names as a
// silent loss what go-sdk changes on the way: 9007199254740993 for an
// int64 reaches the handler as 9007199254740992 (a warning; refused under
// Strict). InputPath follows go-sdk v1.6 to v1.8, whose input paths are
// the same; it infers the schema from the struct, as mcp.AddTool does for
// a tool added without an InputSchema.
//
// With another binder (bind.Std, the default, or segmentio.Binder) the
// middleware route is not exact: go-sdk, after the middleware passes a
// call, still refuses in its own words what its schema refuses (null for
// an int, HOURS_BACK) and rounds integers past 2^53, and the middleware
// refuses some calls go-sdk alone would read (1.0 or 1e2 for an int, a
// repeated key whose first value is bad). And since go-sdk's inferred
// schema is closed, it still refuses an exempt key, or a key an open tool
// lets through, that the guard passed (an alias it takes, renamed).
//
// Which route a server gets: AddTool (this package's) decodes with the
// registry's binder straight into In, integers exact, and publishes the
// registry's schema; Middleware with InputPath keeps go-sdk's own path and
// schema, and makes the guard its exact mirror. A tool added with AddTool
// needs no middleware; if the middleware guards it too, the middleware
// refuses first, as text only, in the same words.
//
// # Every tool the server lists
//
// Middleware(reg, ServerTools()) guards the tools reg does not record too,
// each by the input schema the server lists for it (typereg.RegisterSchema):
// a server whose tools are declared with hand-written schemas
// (Server.AddTool with a *jsonschema.Schema, as github-mcp-server does) and
// whose handlers read the arguments as a map is guarded in one line:
//
//	s.AddReceivingMiddleware(gosdk.Middleware(reg, gosdk.ServerTools()))
//
// Before each call of such a tool the middleware reads the server's tool
// list (a tools/list request down the chain) and records the tool again
// when its definition changed; a tool the server no longer lists loses its
// record. The verdict is the schema's, read as encoding/json reads the
// arguments into map[string]any (see typereg.RegisterSchema). A tool added
// with mcp.AddTool[In] is recorded from the schema go-sdk inferred for In;
// go-sdk then validates and decodes it as above, after the guard. A schema
// the guard cannot check leaves its tool unguarded, reported to
// ReportUnguarded.
//
// # Supported go-sdk versions
//
// This package is its own module, github.com/bindguard/bindguard/mcpguard/gosdk,
// so that a program using only the core (typereg, refuse) carries no SDK.
// It supports go-sdk v1.6.0 through v1.8.0 and requires v1.6.0, the oldest,
// so that importing it lifts no server's go-sdk; CI tests it alone against
// both ends (make test-sdks: go.mod and go.newest.mod). The floor is v1.6.0
// because the release before it, v1.4.1 (v1.5.0 exists only as a
// pre-release), answers a call its own schema validation refuses with a
// JSON-RPC invalid params error, not a tool error, so what this
// documentation says go-sdk still decides after the middleware does not
// hold there; and v1.2.0 lacks CallToolResult.SetError, which AddTool uses
// for a handler's error. What go-sdk gained since v1.6.0 is used where it
// exists without being named: a result's InputRequests (v1.7.0) is read by
// reflection; before v1.7.0 an output schema must be an object, and
// AddTool, like mcp.AddTool, panics on a tool whose output is not.
package gosdk
