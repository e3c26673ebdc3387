// Package typereg records the tools a server exposes and their parameters.
//
// Register[T] (or RegisterType, for a type known only at run time: a
// server's own helper that adds tools, registering where the tool is
// added) reads the parameter struct T (or the struct a pointer T points
// to, as go-sdk's mcp.AddTool takes In = *T) once, at registration, by
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
// otherwise; a field whose validate tag its zero value breaks is required
// too.
//
// # The server's own schema
//
// The guard must never require what the server's published schema does
// not, so the registry reads the tags as the server's schema library does,
// when told which one:
//
//   - WithReflector(r): the server reflects with invopop's Reflector r.
//     With RequiredFromJSONSchemaTags, only jsonschema:"required" fields
//     are required (at every level); with AllowAdditionalProperties, the
//     tool is open at every level (Policy.Open and OpenNested), as r's
//     schema is.
//   - WithJSONSchemaGo(): the server infers with google/jsonschema-go (as
//     go-sdk's mcp.AddTool does, and gosdk.AddTool by default). A
//     jsonschema tag is the field's whole description, published at every
//     level, unless it begins with WORD= (invopop's syntax, which
//     jsonschema-go refuses); required is every field without omitempty or
//     omitzero.
//
// A jsonschema_description tag, and invopop's description=... option, are
// descriptions under either.
//
// # Types
//
// Every type the registry's binder reads is recorded, recursive types
// included (a linked list, a tree, type Tree []Tree, mutual recursion, a
// struct embedding a pointer to itself): the schema publishes a recursive
// named type once under $defs and refers to it by $ref. invopop/jsonschema
// cannot reflect a struct whose embedded structs reach itself (it
// overflows the stack) and panics on uintptr; the registry reflects the
// first as its flattened copy and publishes uintptr as an integer, which
// every binder reads it as.
//
// Registration refuses a type the binder reads only where the binder
// cannot survive it, naming the field and saying why: a pointer type that
// points to itself (type P *P), on which every binder allocates forever;
// and, under segmentio.Binder, a type that holds itself through no struct
// (type Tree []Tree, map[string]*P, [2]*A), on which segmentio overflows
// the stack building its decoder.
//
// # Constraints
//
// A parameter's validate tag (github.com/go-playground/validator/v10)
// is the tool's own constraint on it. Registration compiles it into checks
// the guard runs on each argument's literal, as the plan's one pass reads
// it, as the validator runs on the value the binder decodes (see package
// refuse; the validator defines the
// tags and is the oracle the compiled checks are fuzzed against), and the
// published schema states
// the same constraint, translated at registration, so that the schema and
// the validator never state two ranges for one parameter.
//
// The tags the registry translates, and only these:
//
//   - omitempty: the zero value passes (for a pointer, slice or map: nil).
//     For a number, text or bool whose zero value the other rules refuse,
//     the schema says so with anyOf: [{const: <zero>}, {<the rules>}].
//   - required: the zero value fails (for a pointer, slice or map: nil);
//     the parameter is required in the schema, and for a number, text or
//     bool its zero value is excluded (not: {enum: [0]}, or minLength 1).
//   - min, gte, max, lte, gt, lt: a number's minimum, maximum,
//     exclusiveMinimum, exclusiveMaximum; text's minLength and maxLength
//     (the validator counts characters, as JSON Schema does); a slice's
//     minItems and maxItems; a map's minProperties and maxProperties.
//   - len, eq: a number's or text's or bool's const (eq), a length's exact
//     value (len, and eq on a slice or map).
//   - ne: not: {enum: [...]} for a number, text or bool.
//   - oneof: enum, with values of the parameter's JSON type (numbers for
//     integer kinds, text for text).
//   - dive: the rules after it apply to each element of a slice (items)
//     or each value of a map (additionalProperties); dive may repeat.
//
// Registration fails, naming the field and the tag, for any other tag
// (email, a custom tag, eqfield and other cross-field tags, keys,
// omitnil, an | alternative...): the registry could not publish it, and a
// constraint the schema does not state is a second range. It fails for a
// tag the validator would panic on (a bound that is not a number, oneof on
// a float, min on a bool), for constraints on a type the registry does not
// translate (a struct, a fixed-size array, time.Time, time.Duration,
// json.Number, []byte, an interface, a type that decodes itself: one with
// UnmarshalJSON, UnmarshalText or V2's UnmarshalJSONFrom, whose method
// may read "A" as "a", so that its rules hold on what the method reads,
// not on the text sent), for
// validate tags that are not on a parameter and that the registry does not
// compile (on an embedded struct, on a field promoted through an embedded
// pointer, on a field the binder does not bind, on a field of a struct
// inside a list or a map the parameter's tag does not dive into, which the
// validator never checks, on a nested struct's field when that struct
// embeds another, decodes itself, or names a field with a tag option or a
// name that is not letters, digits and underscores), and when the parameter's
// jsonschema tags state a bound or enum the validate tag does not state
// identically. Tags on a nested struct's fields (the parameter's struct, a
// pointer to one, or its elements under dive) are the tool's constraints
// too, as the validator walks into the struct: they are published in the
// struct's definition, a field whose zero value breaks its tag is required
// there, and the guard checks them, its problem's Path pointing at the
// field inside the argument (".window.from" reads as Path ".from" of
// argument window). Registration fails for tags on a struct whose zero
// value holds more than 10,000 structs by value (however deep): the
// validator walks each of them whenever it checks a call. A parameter whose zero value breaks its constraints (what
// the handler gets when the call leaves it out) is required in the schema.
//
// It fails, too, for a tag whose schema could not be published as one
// range: a bound or value that is not a finite number (eq=NaN, max=Inf:
// JSON has neither, and the schema would not marshal); a whole-number bound
// or value the parameter's type cannot hold (max=1000 on an int8: it
// constrains nothing, and a refusal would state "from 1 to 1000" beside
// "200, which is too large"); a rule stated twice
// in one level (oneof=a,oneof=b: the validator holds the value to both
// lists, a schema's enum states one; only ne adds up); and, as a net under
// the translation, any tag the validator reads otherwise than the schema
// states it: at registration the validator is run on values at and around
// every bound, length and value the translation publishes, and one value
// the two judge differently fails the registration, naming it; the schema
// is judged exactly and as most schema validators judge it, comparing
// numbers as float64, so a bound or value past 2^53 that float64 cannot
// tell from its neighbour (lt=9223372036854775807, eq=9007199254740993)
// fails too. Whatever
// its tags, a tool whose schema does not marshal to JSON (a type's own
// JSONSchema method can state NaN) fails to register. A registration that
// fails changes nothing: an earlier record of the name stays as it was.
//
// Number bounds are published as the validator reads them: integers as
// integers (a bound such as 0x10 in base 16 reads as 16), float32 bounds as
// the float32 nearest them. A float32 value within rounding of a bound may
// still pass one and fail the other; integers and float64 agree exactly.
//
// # Tools without a struct
//
// Registry.RegisterSchema records a tool from the input schema it
// publishes (JSON Schema text), for servers that declare tools by schema
// and read the arguments as a map: its arguments are read as encoding/json
// reads them into map[string]any, and each value is held to the schema
// exactly as github.com/google/jsonschema-go validates it; a keyword the
// guard cannot check fails the registration, naming the keyword and the
// JSON Pointer of the schema holding it. Its record has Type
// map[string]any, Params of Type any, and no Plan.
//
// # Policy
//
// Each tool's record carries the Policy its calls are held to beyond the
// binder's verdict (package refuse applies it): the Mode (Reject, Warn,
// Off), Strict for silent losses, Open arguments, Exempt keys and Aliases.
// Options given to New set every tool's defaults; options given to Register
// adjust one tool (WithExempt adds to the registry's keys). The environment
// variable BINDGUARD_MODE, read by New, overrides every tool's mode (set
// to the empty string, it is unset); a value that is not a mode, exactly
// as written (it is not trimmed), makes every Register fail, as does an
// option given in the wrong place. An open tool's schema leaves additionalProperties
// open; aliases (tag bindguard:"alias=a,b" or WithAlias) are never
// published. A field tagged validate:"required" is required in the schema
// too. The plan reports a required parameter the call leaves out, and a
// required field (by each nested struct's published definition) an object
// inside an argument leaves out.
//
// A registry is safe for concurrent use. Registering a tool again replaces
// its record, with the same struct or another (a server that defines a
// name twice, read-only and read-write, registers the one it adds); readers
// see the old record or the new one, never a mix, and a *Tool once looked
// up never changes.
//
// A record is read-only: a Tool has no exported field, and what its
// methods return is the caller's to change (Params a new slice, Schema and
// Param.Schema a deep copy, Policy with its slices and map copied), so
// that no code holding a *Tool can make the guard judge calls by another
// record than its compiled plan, or publish another schema than the one
// checked. The copies cost allocations where they are made (the schema's,
// one per keyword or so: take it once, where a tool is added to a server);
// the guard itself reads the record in place and pays nothing per call.
package typereg
