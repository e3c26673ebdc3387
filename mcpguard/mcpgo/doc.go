// Package mcpgo puts the guard in front of tool handlers of an MCP server
// built with github.com/mark3labs/mcp-go (v0.56.0 through v1.2.1: see
// Supported mcp-go versions).
//
// A call's raw arguments are the bytes of the "arguments" member of a
// tools/call frame. mcp-go keeps them, as sent, in
// CallToolRequest.Params.RawArguments, beside its own decoding of them into
// Params.Arguments (a map whose numbers are float64). The guard reads the
// raw bytes, never the map: 9007199254740993 is 9007199254740993.
//
// # Three routes
//
// AddTool registers a tool with a handler that takes its parameter struct:
// it records the struct in the registry with the tool's options
// (typereg.WithMode, WithStrict, WithExempt, WithOpen, WithAlias),
// publishes the registry's schema as the tool's input schema (so tools/list
// shows what the guard enforces: closed unless the tool is open, with no
// alias and no exempt key), runs refuse.Decide on the raw arguments, and
// decodes the decision's arguments (aliases renamed to their parameters'
// names) with the registry's binder straight into the struct. The handler
// runs only on a call the guard lets through and the binder reads, with
// the value the binder decodes.
//
// Middleware is for servers that keep server.AddTool and their own
// handlers: install it with server.WithToolHandlerMiddleware (or Use). It
// refuses the calls of the tools the registry records, and lets every
// other call through untouched. A call it lets through reaches the handler
// with the decision's arguments: an alias renamed to its parameter's name
// in RawArguments and in mcp-go's map of them (Arguments), and a parameter
// sent under its name and a case variant named once, with the value the
// binder reads (see refuse.Decision), so that GetArguments and RequireInt
// read the value the guard checked. The handlers
// must decode RawArguments with the registry's binder into the registered
// struct; mcp.NewTypedToolHandler and CallToolRequest.BindArguments do, for
// a registry whose binder is bind.Std (encoding/json).
//
// A handler that reads mcp-go's map instead (GetArguments, or
// Params.Arguments re-marshalled into its struct, as servers with a generic
// tool wrapper do) reads more leniently than encoding/json on the bytes:
// 1.0 for an int, and numbers rounded to float64s. Give the registry that
// path as its binder, typereg.WithBinder(mcpgo.MapArguments), and the guard
// refuses exactly what the path refuses. A server that coerces on top ("42"
// to 42, "x" to ["x"], toInt-style helpers) gives its own decode function:
// typereg.WithBinder(bind.Reader("name", decode)), decode(data, v) reading
// the argument bytes into *v as the handler does, so that the guard's
// verdict is the handler's own (see bind.Reader).
//
// Register is the middleware's companion for a server whose handlers do
// not fit AddTool's shape: handlers of its own that trace, convert results,
// or decode in their own way, added through a generic wrapper that has
// erased the parameter type by the time the tool is added (grafana's
// ConvertTool). Where the server adds the tool, it registers it instead of
// building the input schema:
//
//	tool, err := mcpgo.Register(reg, mcp.NewTool(name, mcp.WithDescription(d)), argType,
//		typereg.WithReflector(&reflector)) // the server's own invopop Reflector
//	s.AddTool(tool, handler)               // the server's own handler, unchanged
//
// and installs Middleware(reg) once. The returned tool carries the
// registry's input schema, which is what the guard enforces; with the
// server's reflector among the options it requires what the server's own
// schema required (RequiredFromJSONSchemaTags) and admits other keys when
// that schema did (AllowAdditionalProperties). Registering a name again
// (a read-only and a read-write variant with different structs) replaces
// its record.
//
// Which route fits: AddTool for a server whose handlers take their
// parameter struct (mcp.NewTypedToolHandler's shape); Register and
// Middleware for a server with its own handlers and wrappers; Middleware
// alone, with typereg.Register, for a server that publishes its own schema
// and keeps it in step with the struct itself. Say how that schema is made
// in the options, so that the guard requires no more than it: the
// server's invopop Reflector with typereg.WithReflector, or
// typereg.WithJSONSchemaGo for a schema from mcp.WithInputSchema[T]
// (mcp-go infers it with google/jsonschema-go: the whole jsonschema tag is
// the description, and a field without omitempty is required). AddTool
// and Register read tags as invopop/jsonschema does unless told otherwise.
//
// The parameter type may be a pointer to the struct (AddTool[*T]): the
// record is the struct's, and the handler gets what
// mcp.NewTypedToolHandler gives it, nil for null and for no arguments.
//
// Middleware(reg, ServerTools()) guards every tool the server serves, each
// tool reg does not record by the input schema the server holds for it
// (typereg.RegisterSchema): mcp.NewTool's parameter options (WithString,
// WithNumber, Required, Enum, Min, Max...) or a RawInputSchema. A server
// whose handlers read the arguments with request.RequireString and the
// other accessors is guarded in one line, and the records follow tools
// added and replaced after start (see ServerTools).
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
// the warnings; under Off, nothing is checked and the call goes on as if
// there were no guard (an alias is not renamed, and a value the binder
// cannot decode is a binding error in mcp.NewTypedToolHandler's words,
// "failed to bind arguments: ..."). A value the binder cannot decode is
// refused in every mode but Off. Silent losses are warnings under Reject
// too, unless Strict.
//
// # Warnings
//
// A call that goes on with warnings (refuse.Decision.Warnings) and whose
// handler returns a success gets them in its result: always as a text item
// after the handler's own, holding refuse.Warnings.String(), for the model
// to read; and, where the tool's output schema admits it, as a
// "bindguard_warnings" member of structuredContent holding the
// refuse.Warnings as JSON (tool, accepted, problems, more). An error
// result, a handler's error and a result that asks for input never carry
// warnings.
//
// A client that checks structuredContent against the output schema (the
// TypeScript SDK's does), and mcp-go itself under
// server.WithOutputSchemaValidation, would refuse a member the schema does
// not allow. So the member goes in only where it is valid: when the tool
// has no output schema (in an object made for it if the result has none),
// or when its output schema lists "bindguard_warnings" or leaves other
// members open, merged into the result's own object. A result without
// structuredContent from a tool with an output schema gets no object made
// for the warnings (it would lack the schema's required members). AddTool
// publishes an object output schema with "bindguard_warnings" as an
// optional property, so its tools always get the member. Middleware cannot
// change what tools/list publishes (mcp-go gives a tool handler middleware
// no say there), so for a tool with a closed output schema it sends the
// warnings as text only, unless the schema declares the property.
//
// # The refusal
//
// A refused call gets a tool execution error, not a JSON-RPC error, as the
// MCP specification has argument errors be, so that the model reads it
// and can correct the call: a CallToolResult with isError true, one text
// item holding the refusal's text (refuse.Refusal.Error), and the refusal
// itself as structuredContent ({"tool", "accepted", "problems": [{"argument",
// "path", "code", "takes", "sent", "element", "did_you_mean", "becomes"}],
// "more"}). A refusal lists every problem found. See RefusalResult.
// The handler does not run.
//
// # What mcp-go decides first
//
// mcp-go reads the whole frame before any tool handler middleware runs,
// and some calls never get that far. The guard cannot speak for them: the
// caller gets what mcp-go answers, and neither the middleware nor the
// handler runs. With v1.2.1 (each point has a test, named after it):
//
//   - A frame that is not valid JSON is a JSON-RPC parse error (-32700).
//     Arguments that are not valid JSON make the frame invalid, so the
//     guard's invalid_json refusal never reaches an mcp-go caller.
//   - mcp-go decodes the arguments into an any as well as keeping their
//     bytes, so a number past float64's range anywhere in them (1e400,
//     -1e400, 1.8e308, at any depth) fails the frame as an invalid request
//     (-32600, "unparsable tools/call request: ... of type float64"), even
//     where the binder would read it: a json.Number, a json.RawMessage, a
//     type with its own UnmarshalJSON, a key the binder drops inside a
//     nested object. The same number in params._meta fails the frame the
//     same way, and as the id it is a parse error. One that underflows
//     (1e-400) is read as 0 and the call goes on; one under a member
//     mcp-go does not decode (an unknown member of params or of the frame)
//     is skipped.
//   - encoding/json's nesting limit of 10,000 applies to the whole frame,
//     whose object and params object take two levels: arguments nested
//     more than 9,998 deep are a parse error, though the binder reads
//     arguments up to 10,000 deep.
//   - The "arguments" member is found as encoding/json finds a field: in
//     any case ("ARGUMENTS"), and when repeated the last one wins; an
//     earlier one is seen by no one. Inside the arguments nothing is
//     changed: repeated keys, case variants, escapes, bytes that are not
//     UTF-8 and every digit reach RawArguments, and so the guard and the
//     binder, as sent.
//   - A call of a tool the server does not have is a JSON-RPC invalid
//     params error (-32602, "tool '...' not found"), so the guard's
//     unknown_tool refusal never reaches an mcp-go caller.
//   - server.WithInputSchemaValidation, off by default, validates mcp-go's
//     map of the arguments against the published schema before any
//     middleware, and refuses calls the binder reads: null for an int (the
//     binder leaves it zero), a key in another case (the binder folds it
//     to the parameter). Leave it off to have the binder's verdict, and
//     only it.
//
// # Limits
//
// A request built in Go and handed to a handler directly, with no frame,
// has no raw bytes: the adapter marshals its Arguments and guards and
// decodes those, which are not the caller's bytes. A call without
// arguments, or with null, is a call with none: the handler gets the zero
// value.
//
// The registry's record of a tool must stay the struct its handler takes.
// AddTool's handler checks this on each call and refuses every call when
// the record has changed; Middleware cannot know the handler's struct.
//
// # Supported mcp-go versions
//
// This package is its own module, github.com/bindguard/bindguard/mcpguard/mcpgo,
// whose graph holds mcp-go and no other SDK. It supports mcp-go v0.56.0
// through v1.2.1 and requires v0.56.0, the oldest, so that importing it
// lifts no server's mcp-go; CI tests it alone against both ends (make
// test-sdks: go.mod and go.newest.mod). The floor is v0.56.0 because it is
// the first release that keeps a call's raw arguments
// (CallToolParams.RawArguments): before it mcp-go keeps only its own
// decoding into a map of float64s, and a guard reading that map would read
// neither the caller's bytes nor what the binder reads (9007199254740993
// would already be 9007199254740992). A result that asks the client for
// input (CallToolResult.NeedsInput, v1.0.0) is recognised through an
// interface, so one source builds against the whole range; before v1.0.0
// no result asks for input.
package mcpgo
