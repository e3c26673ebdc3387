package typereg

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	invopop "github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/internal/schemacheck"
)

// RegisterSchema records tool name from the input schema it publishes
// (JSON Schema text, draft 2020-12 or draft-07: what a server built without
// a Go struct per tool lists in tools/list), under the registry's policy
// adjusted by opts, replacing any earlier record of that name.
//
// Such a tool's arguments are read as the map reader reads them:
// encoding/json into map[string]any, keys matched exactly (no case
// folding), a repeated key's last value kept (a silent loss, DuplicateKey),
// numbers read as float64 (an integer float64 cannot hold exactly is a
// silent loss, RoundedNumber; a number past float64's range fails the
// reader). The verdict on each value is the published schema's, as
// github.com/google/jsonschema-go validates it:
//   - values: type (a list of types, "null" among them), enum and const
//     (arrays and objects too, compared as the map reader reads them,
//     numbers by value; const beside enum), minimum, maximum,
//     exclusiveMinimum, exclusiveMaximum, multipleOf, minLength, maxLength
//     and pattern (Go's regexp, as jsonschema-go compiles it);
//   - arrays: items, prefixItems (draft 2020-12 only, as jsonschema-go
//     reads it), minItems, maxItems, uniqueItems, contains, minContains
//     and maxContains;
//   - objects: properties, required, additionalProperties (true, false or
//     a schema), minProperties, maxProperties, dependentRequired, and,
//     below the root, patternProperties, propertyNames and
//     dependentSchemas (draft 2020-12 only);
//   - local $ref ("#", "#/$defs/...", "#/definitions/..."; alone, or beside
//     "type" as jsonschema-go's inference writes a named type), recursive
//     ones included;
//   - branches: anyOf and oneOf (anywhere, when their branches take values
//     of distinct JSON types and nothing stands beside them, as in
//     {"anyOf": [{"type": "string"}, {"type": "null"}]}), and, below the
//     root, any anyOf and oneOf, allOf, not and if/then/else.
//
// A value that breaks a branch it must pass is refused with that branch's
// problem (for anyOf and oneOf, the branch that came closest: the fewest
// problems); one that passes a branch it must not (not, a second branch
// of oneOf) is a Constraint problem at the value. Annotations (title,
// description, default, examples, format...) check nothing, as in
// jsonschema-go.
//
// Overlapping branches, patterns, contains, propertyNames,
// dependentSchemas, uniqueItems and an enum of arrays or objects read a
// value more than once; registration bounds how often, through their
// nesting, so that no call costs more than 256 times its size.
//
// Registration fails, naming the keyword and the JSON Pointer of the
// schema holding it, for any other keyword that constrains a value
// (unevaluatedItems, unevaluatedProperties, dependencies, an items array,
// additionalItems, $dynamicRef, a remote $ref, $ref beside keywords other
// than type, anyOf beside oneOf...): the guard would pass what the schema
// refuses. It fails too for a keyword above that the guard checks below
// the root only, and for enum and const, at the root (whose properties are the tool's
// parameters), and where keywords that read a value again nest so that a
// value would be read more than 256 times, or hold themselves through a
// $ref (a value nested n deep would be read n times), and for a chain of
// $ref or anyOf that leads back to itself without reading into the value
// (on which jsonschema-go recurses without end). It fails when the
// root is not of type "object"
// alone, when the text is not JSON Schema, and for aliases (WithAlias),
// which rename struct fields. A registration that fails changes nothing.
//
// The root's unknown keys follow the schema and the policy: a root that
// closes additionalProperties refuses them (UnknownArgument) whatever Open
// says; a root that leaves it open (absent or true) takes them, the server
// serves such a call, and the handler reads no parameter from the key (a
// misspelt name, most often): a silent loss, a warning unless Strict, and
// nothing at all when the tool is Open. Exempt keys pass either way. Nested objects are as the schema says: open unless it
// closes them (UnknownField).
//
// The record's Type is map[string]any and each Param's Type is any: what
// the map reader decodes into. Its Plan is nil: the registry's binder does
// not read a schema tool. Its Schema holds the published properties as
// far as github.com/invopop/jsonschema can state them (a property it
// cannot, such as one with a list of types, is recorded as {}).
func (r *Registry) RegisterSchema(name string, schema json.RawMessage, opts ...Option) error {
	if r.err != nil {
		return r.err
	}
	if name == "" {
		return errors.New("typereg: a tool needs a name")
	}
	policy, _, err := r.toolPolicy(opts) // tag rules read struct tags: a schema has none
	if err != nil {
		return fmt.Errorf("typereg: tool %q: %w", name, err)
	}
	if len(policy.Aliases) > 0 {
		return fmt.Errorf("typereg: tool %q: aliases rename struct fields; a tool recorded from its schema has none", name)
	}
	ps, err := schemacheck.Compile(schema)
	if err != nil {
		return fmt.Errorf("typereg: tool %q: %w", name, err)
	}
	ps.OpenRoot, ps.Exempt = policy.Open, policy.Exempt
	if len(policy.IntReads) > 0 {
		ps.IntRead = make([]bool, len(ps.Root.Properties))
		for i, p := range ps.Root.Properties {
			ps.IntRead[i] = slices.Contains(policy.IntReads, p.Name)
		}
	}
	tool := &Tool{name: name, typ: reflect.TypeFor[map[string]any](), policy: policy, published: ps}
	tool.schema = published(schema, ps)
	for _, p := range ps.Root.Properties {
		ps, _ := tool.schema.Properties.Get(p.Name)
		tool.params = append(tool.params, Param{
			Name:     p.Name,
			Type:     reflect.TypeFor[any](),
			Nullable: p.Node.Types&schemacheck.Null != 0,
			Required: p.Required,
			schema:   ps,
		})
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	next := maps.Clone(*r.tools.Load())
	next[name] = tool
	r.tools.Store(&next)
	return nil
}

// published states the published schema as invopop/jsonschema holds it:
// an object of the properties, each as far as invopop reads it.
func published(raw json.RawMessage, ps *schemacheck.Schema) *invopop.Schema {
	var whole struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(raw, &whole)
	s := &invopop.Schema{Type: "object", Properties: invopop.NewProperties()}
	for _, p := range ps.Root.Properties {
		prop := &invopop.Schema{}
		if json.Unmarshal(whole.Properties[p.Name], prop) != nil {
			prop = &invopop.Schema{}
		}
		s.Properties.Set(p.Name, prop)
		if p.Required {
			s.Required = append(s.Required, p.Name)
		}
	}
	if ps.Root.Closed {
		s.AdditionalProperties = invopop.FalseSchema
	}
	return s
}
