package typereg

import (
	"reflect"
	"regexp"
	"slices"
	"strings"

	"github.com/bindguard/bindguard/bind"
	"github.com/invopop/jsonschema"
)

// required reports whether a field with tag is required when invopop
// left it out of its reflection (or, under goRule, always): by
// jsonschema-go's rule or invopop's default (no omitempty, no omitzero),
// or under RequiredFromJSONSchemaTags by a jsonschema:"required" tag.
func (tr tagRules) required(tag reflect.StructTag, goRule bool) bool {
	if tr.requiredFromTags && !goRule {
		opts := strings.Split(tag.Get("jsonschema"), ",")
		return opts[0] != "-" && slices.Contains(opts, "required")
	}
	return !omits(tag)
}

// omits reports the omitempty or omitzero option of a json tag.
func omits(tag reflect.StructTag) bool {
	opts := strings.Split(tag.Get("json"), ",")[1:]
	return slices.Contains(opts, "omitempty") || slices.Contains(opts, "omitzero")
}

// wordEq is the start jsonschema-go refuses in a jsonschema tag ("WORD="),
// which is invopop's syntax.
var wordEq = regexp.MustCompile("^[^ \t\n]*=")

// goDescription returns the description google/jsonschema-go reads in a
// field's tags: its jsonschema tag, whole, unless it is empty or begins
// with WORD=.
func goDescription(tag reflect.StructTag) (string, bool) {
	d, ok := tag.Lookup("jsonschema")
	if !ok || d == "" || wordEq.MatchString(d) {
		return "", false
	}
	return d, true
}

// goRequired is the required list jsonschema-go infers for struct type t,
// as the walk publishes it: its fields without omitempty or omitzero (a
// type that states its own schema requires what that schema says).
func goRequired(t reflect.Type, b bind.Binder) []string {
	if ownSchema(t) {
		return newSchemaReflector(tagRules{}).reflectRoot(t).Required
	}
	plan, err := b.Compile(t)
	if err != nil {
		return nil
	}
	var names []string
	for _, p := range plan.Params() {
		if !omits(p.Tag) {
			names = append(names, p.Name)
		}
	}
	return names
}

func goRequiredOf(params []bind.Param, s *jsonschema.Schema) (names []string) {
	if s.Properties == nil {
		return nil
	}
	for _, p := range params {
		if _, ok := s.Properties.Get(p.Name); ok && !omits(p.Tag) {
			names = append(names, p.Name)
		}
	}
	return names
}

// A goWalker rewrites a published schema, made by invopop, as
// jsonschema-go would describe it: each field's description from its
// jsonschema tag, and each nested struct's required list by jsonschema-go's
// rule, at every level the schema and the type reach together.
type goWalker struct {
	root   *jsonschema.Schema
	binder bind.Binder
	r      *schemaReflector
	seen   map[*jsonschema.Schema]bool
	bares  map[reflect.Type]*jsonschema.Schema // bare's, made once per type
}

// field describes s, the property of a field with tag and type t. A
// description is text, not invopop's options: what invopop read into s from
// it (a "required" or "nullable" word, a "minimum=1" in a sentence) is
// dropped, s made again from t alone.
func (w *goWalker) field(s *jsonschema.Schema, tag reflect.StructTag, t reflect.Type) {
	if s == nil {
		return
	}
	if d, ok := goDescription(tag); ok {
		if readsAsOptions(d) {
			*s = *w.bare(t)
		}
		s.Description = d
	}
	w.value(s, t)
}

// ownSchema reports whether type t states its own schema (a JSONSchema or
// JSONSchemaAlias method), which invopop publishes as it is.
func ownSchema(t reflect.Type) bool {
	return t.Implements(customSchemaType) || t.Implements(aliasSchemaType) ||
		reflect.PointerTo(t).Implements(customSchemaType) || reflect.PointerTo(t).Implements(aliasSchemaType)
}

// ownRules drops the oneOf and anyOf lists invopop puts on struct schema
// s when a field's description holds oneof_required= or anyof_required=,
// unless a field of the struct has a tag in invopop's syntax, which may
// mean them.
func (w *goWalker) ownRules(s *jsonschema.Schema, params []bind.Param) {
	for _, p := range params {
		if d, ok := p.Tag.Lookup("jsonschema"); ok && wordEq.MatchString(d) {
			return
		}
	}
	s.OneOf, s.AnyOf = nil, nil
}

// readsAsOptions reports whether invopop reads something into a field's
// schema from description d as its jsonschema tag: a key=value option, or
// the word nullable (the word required only makes the field required,
// which the walk decides itself).
func readsAsOptions(d string) bool {
	return strings.Contains(d, "=") || slices.Contains(strings.Split(d, ","), "nullable")
}

// bare is the schema of a field of type t with no tags, as invopop makes
// a property: a named struct by $ref, never expanded (expanding it would
// walk a recursive type forever), its definitions added to the root's.
func (w *goWalker) bare(t reflect.Type) *jsonschema.Schema {
	if s, ok := w.bares[t]; ok {
		c := *s // the property's own copy: its description is the field's
		return &c
	}
	if w.bares == nil {
		w.bares = map[reflect.Type]*jsonschema.Schema{}
	}
	sub := w.r.r.ReflectFromType(t)
	w.bares[t] = sub
	w.r.merge(sub)
	sub.Version = ""
	for name, def := range sub.Definitions {
		if w.root.Definitions == nil {
			w.root.Definitions = jsonschema.Definitions{}
		}
		if _, dup := w.root.Definitions[name]; !dup {
			w.root.Definitions[name] = def
		}
	}
	sub.Definitions = nil
	c := *sub
	return &c
}

// value walks into s, the schema of a value of type t.
func (w *goWalker) value(s *jsonschema.Schema, t reflect.Type) {
	for range 8 { // a $ref to a $ref: never made, but bounded
		if s == nil || s.Ref == "" {
			break
		}
		s = w.root.Definitions[strings.TrimPrefix(s.Ref, "#/$defs/")]
	}
	if s == nil || w.seen[s] {
		return
	}
	w.seen[s] = true
	for range 8 { // pointers to pointers; a pointer to itself never registers
		if t.Kind() != reflect.Pointer {
			break
		}
		t = t.Elem()
	}
	if ownSchema(t) {
		return // the type's own schema
	}
	switch t.Kind() {
	case reflect.Struct:
		if s.Properties == nil {
			return // a struct invopop publishes otherwise (time.Time)
		}
		plan, err := w.binder.Compile(t)
		if err != nil {
			return
		}
		for _, p := range plan.Params() {
			ps, ok := s.Properties.Get(p.Name)
			if !ok {
				// A field invopop left out (jsonschema:"-", which to
				// jsonschema-go is the description "-"): the binder binds
				// it, and jsonschema-go publishes it.
				ps = w.bare(p.Type)
				s.Properties.Set(p.Name, ps)
			}
			w.field(ps, p.Tag, p.Type)
		}
		s.Required = goRequiredOf(plan.Params(), s)
		w.ownRules(s, plan.Params())
	case reflect.Slice, reflect.Array:
		w.value(s.Items, t.Elem())
	case reflect.Map:
		w.value(s.AdditionalProperties, t.Elem())
		for _, ps := range s.PatternProperties { // invopop's for integer keys
			w.value(ps, t.Elem())
		}
	}
}
