// Package typereg records the tools a server exposes and their parameters.
//
// Register[T] reads the parameter struct T once, at registration, by
// reflection, through the registry's binder (bind.Std unless WithBinder says
// otherwise): each parameter's JSON name exactly as the binder matches it
// (the tag name, or the Go field name when untagged; embedded structs
// flattened; json:"-" and unexported fields left out; name conflicts
// settled the way encoding/json settles them), its Go type, its tag options,
// whether null leaves a value the handler can tell apart, whether it is
// required, and the input schema the tool advertises.
//
// The schema is made by github.com/invopop/jsonschema from T, then aligned
// with the binder: its properties are exactly the recorded parameters (a
// field invopop leaves out but the binder binds, such as one tagged
// jsonschema:"-", is added back), and its root is closed
// (additionalProperties: false). Required follows invopop's rule: a field
// without omitempty or omitzero is required, unless jsonschema tags say
// otherwise.
//
// # Policy
//
// Each tool's record carries the Policy its calls are held to beyond the
// binder's verdict (package refuse applies it): the Mode (Reject, Warn,
// Off), Strict for silent losses, Open arguments, Exempt keys and Aliases.
// Options given to New set every tool's defaults; options given to Register
// adjust one tool (WithExempt adds to the registry's keys). The environment
// variable BINDGUARD_MODE, read by New, overrides every tool's mode; a
// value that is not a mode makes every Register fail, as does an option
// given in the wrong place. An open tool's schema leaves additionalProperties
// open; aliases (tag bindguard:"alias=a,b" or WithAlias) are never
// published. A field tagged validate:"required" is required in the schema
// too.
//
// A registry is safe for concurrent use. Registering a tool again replaces
// its record; readers see the old record or the new one, never a mix.
package typereg
