package typereg

import (
	"net"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/invopop/jsonschema"
)

// A schemaReflector is invopop/jsonschema's reflector, made safe for every
// type a binder reads:
//
//   - invopop inlines the fields of an embedded struct (and of a field
//     tagged json:",inline") by calling itself on it, with no record of
//     where it has been: a struct that embeds a pointer to itself, however
//     indirectly, overflows the stack, which kills the process (recover
//     cannot catch it). Such a struct is reflected as its flattened copy
//     instead: an unnamed struct of the same fields, named and tagged as
//     invopop names them, each embedded struct inlined once per path.
//   - invopop panics on uintptr, which every binder reads as an unsigned
//     integer: it is published as one.
//
// Everything else is invopop's, including the $ref each named type that
// reaches itself gets (through a pointer, a slice, a map, an array).
type schemaReflector struct {
	r       *jsonschema.Reflector
	cyclic  map[reflect.Type]bool   // struct types whose inlining reaches a cycle
	pending map[reflect.Type]bool   // named cyclic types whose definition is made
	defs    jsonschema.Definitions  // definitions made outside invopop's own
	named   map[string]reflect.Type // the struct type of each definition invopop makes
}

var (
	customSchemaType = reflect.TypeFor[interface{ JSONSchema() *jsonschema.Schema }]()
	aliasSchemaType  = reflect.TypeFor[interface{ JSONSchemaAlias() any }]()
	extendSchemaType = reflect.TypeFor[interface{ JSONSchemaExtend(*jsonschema.Schema) }]()
)

func newSchemaReflector(tags tagRules) *schemaReflector {
	sr := &schemaReflector{cyclic: map[reflect.Type]bool{}, pending: map[reflect.Type]bool{}, defs: jsonschema.Definitions{}, named: map[string]reflect.Type{}}
	sr.r = &jsonschema.Reflector{Anonymous: true, Mapper: sr.mapType, Namer: defName}
	sr.r.RequiredFromJSONSchemaTags, sr.r.AllowAdditionalProperties = tags.requiredFromTags, tags.openNested
	sr.r.CommentMap, sr.r.LookupComment = tags.comments, tags.lookupComment
	return sr
}

// defName is the name of t's definition in the published $defs: its Go
// name, with the characters a JSON Pointer reads as structure replaced.
// The name of an instance of a generic type holds its type arguments'
// package paths ("Page[example.com/api.Item]"), whose '/' a $ref's pointer
// would read as a step into the schema; '~' is its escape character.
func defName(t reflect.Type) string {
	name := t.Name()
	if !strings.ContainsAny(name, "/~") {
		return name
	}
	return strings.NewReplacer("/", ".", "~", "-").Replace(name)
}

// reflectRoot returns the schema of type t, expanded (its own properties,
// not a $ref), with every definition its $refs name.
func (sr *schemaReflector) reflectRoot(t reflect.Type) *jsonschema.Schema {
	if t.Kind() == reflect.Pointer {
		t = t.Elem() // as invopop does at the root
	}
	var s *jsonschema.Schema
	if t.Kind() == reflect.Struct && sr.inlinesCycle(t) {
		s = sr.reflectExpanded(sr.flat(t))
	} else {
		s = sr.reflectExpanded(t)
		// invopop removes the root's own definition from the ones it
		// returns, even when the root refers to itself ("next": {$ref}).
		if name := defName(t); name != "" && refersTo(s, "#/$defs/"+name) {
			def := sr.reflect(t)
			for k, d := range def.Definitions {
				if _, dup := s.Definitions[k]; !dup {
					if s.Definitions == nil {
						s.Definitions = jsonschema.Definitions{}
					}
					s.Definitions[k] = d
				}
			}
		}
	}
	sr.merge(s)
	s.Version = ""
	return s
}

// merge adds the definitions made aside to s's.
func (sr *schemaReflector) merge(s *jsonschema.Schema) {
	for k, d := range sr.defs {
		if s.Definitions == nil {
			s.Definitions = jsonschema.Definitions{}
		}
		if _, dup := s.Definitions[k]; !dup {
			s.Definitions[k] = d
		}
	}
}

// mapType is the reflectors' Mapper: invopop asks it first about every
// type it reflects (pointers removed).
func (sr *schemaReflector) mapType(t reflect.Type) *jsonschema.Schema {
	if t.Kind() == reflect.Struct {
		if name := defName(t); name != "" {
			sr.named[name] = t
		}
	}
	if t.Implements(customSchemaType) || t.Implements(aliasSchemaType) {
		return nil // the type's own schema: invopop reads none of its fields
	}
	switch {
	case t.Kind() == reflect.Uintptr:
		return &jsonschema.Schema{Type: "integer"}
	case t.Kind() == reflect.Map && mapKeyPattern(t.Key()) != "-":
		return sr.mapSchema(t)
	case readsTextOnly(t) && t != netIPType: // invopop's own for net.IP: a string, of a format
		s := &jsonschema.Schema{Type: "string"}
		if t.Implements(extendSchemaType) { // extended as invopop extends the schemas it makes
			reflect.New(t).Interface().(interface{ JSONSchemaExtend(*jsonschema.Schema) }).JSONSchemaExtend(s)
		}
		return s
	case t.Kind() == reflect.Struct && sr.inlinesCycle(t):
		name := defName(t)
		if name == "" {
			// Not recursive itself (an unnamed type cannot be): inline.
			return sr.inline(sr.flat(t))
		}
		if !sr.pending[t] {
			sr.pending[t] = true
			sr.defs[name] = sr.inline(sr.flat(t))
		}
		return &jsonschema.Schema{Ref: "#/$defs/" + name}
	}
	return nil
}

var netIPType = reflect.TypeFor[net.IP]()

// mapKeyPattern is the pattern of the keys every binder reads into a map
// key of type kt, where invopop's words for them are not: "" for any key
// (a key type with UnmarshalText, which each binder hands the key's text,
// whatever the type's kind), the integers in JSON's own grammar for an
// integer kind (invopop's "^[0-9]+$" leaves out negative keys, which every
// binder reads, and takes "007", which go-json-experiment fails on; it
// says nothing of unsigned keys, taking "x"). "-" for the others, whose
// words are invopop's (a string kind: any key).
func mapKeyPattern(kt reflect.Type) string {
	if reflect.PointerTo(kt).Implements(textUnmarshalerType) {
		return ""
	}
	switch kt.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "^-?(0|[1-9][0-9]*)$"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "^(0|[1-9][0-9]*)$"
	}
	return "-"
}

// valueSchema is invopop's schema of type t, made aside (for a Mapper's
// own schema of a type holding t): a named type's is its definition, made
// once and named by a $ref, so that a type that reaches itself through
// such a map is made once, not without end.
func (sr *schemaReflector) valueSchema(t reflect.Type) *jsonschema.Schema {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	name := defName(t)
	switch {
	case t.PkgPath() == "" || name == "":
		return sr.inline(t) // unnamed, or predeclared
	case t.Kind() != reflect.Struct && t.Kind() != reflect.Map && t.Kind() != reflect.Slice && t.Kind() != reflect.Array:
		return sr.inline(t) // a named scalar: invopop makes no definition of it
	}
	if !sr.pending[t] {
		sr.pending[t] = true
		sr.defs[name] = sr.inline(t)
	}
	return &jsonschema.Schema{Ref: "#/$defs/" + name}
}

// mapSchema is the schema of map type t whose keys mapKeyPattern words:
// an object of values of t's element type (invopop's own schema of it,
// made aside), under keys of the pattern, or any key.
func (sr *schemaReflector) mapSchema(t reflect.Type) *jsonschema.Schema {
	s := &jsonschema.Schema{Type: "object"}
	var elem *jsonschema.Schema
	if t.Elem().Kind() != reflect.Interface || t.Elem().NumMethod() != 0 {
		elem = sr.valueSchema(t.Elem())
	}
	switch pattern := mapKeyPattern(t.Key()); {
	case pattern == "":
		s.AdditionalProperties = elem // nil: any value
	default:
		if elem == nil {
			elem = jsonschema.TrueSchema
		}
		s.PatternProperties = map[string]*jsonschema.Schema{pattern: elem}
		s.AdditionalProperties = jsonschema.FalseSchema
	}
	return s
}

// readsTextOnly reports whether every binder reads a value of type t (not
// a pointer) by its UnmarshalText alone: *t has UnmarshalText and neither
// UnmarshalJSON nor V2's UnmarshalJSONFrom, which a binder would call
// instead. Such a value is a JSON string (null leaves it as it is); every
// binder fails on a number, true or false, an object or an array sent for
// it, whatever t's kind or fields, which invopop would publish.
func readsTextOnly(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	if !pt.Implements(textUnmarshalerType) || pt.Implements(unmarshalerType) {
		return false
	}
	_, from := pt.MethodByName("UnmarshalJSONFrom")
	return !from
}

// reflectExpanded is what invopop/jsonschema's Reflector with
// ExpandedStruct returns for t (its own definition at the root, not a
// $ref), built from the plain reflector so that it is the same under
// invopop v0.13 and v0.14: v0.13 dereferences the root's definition
// whether or not t has one (an unnamed struct, a basic type) and panics
// where v0.14 returns the schema as the plain reflector does.
func (sr *schemaReflector) reflectExpanded(t reflect.Type) *jsonschema.Schema {
	s := sr.reflect(t)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if name := defName(t); name != "" && s.Definitions[name] != nil {
		defs, version := s.Definitions, s.Version
		*s = *defs[name]
		delete(defs, name)
		s.Definitions, s.Version = defs, version
	}
	return s
}

// reflect is sr.r.ReflectFromType(t) read by invopop/jsonschema v0.14's
// rules whichever of v0.13 (the floor go.mod requires) and v0.14 the
// build selects (docs/compatibility.md): v0.13 requires a field tagged
// omitzero, and gives a field tagged ,string its Go type's JSON type
// where the binder reads a string.
func (sr *schemaReflector) reflect(t reflect.Type) *jsonschema.Schema {
	s := sr.r.ReflectFromType(t)
	asV014(t, s)
	for name, def := range s.Definitions {
		if nt, ok := sr.named[name]; ok {
			asV014(nt, def)
		}
	}
	return s
}

// asV014 applies v0.14's rules to s, the schema invopop reflected for t,
// and to the schemas inlined in it ($refs are the definitions', each
// fixed on its own). It is idempotent: under v0.14 it changes nothing.
func asV014(t reflect.Type, s *jsonschema.Schema) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s == nil || s.Ref != "" {
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		if s.Properties != nil {
			asV014Fields(t, s)
		}
	case reflect.Slice, reflect.Array:
		asV014(t.Elem(), s.Items)
	case reflect.Map:
		asV014(t.Elem(), s.AdditionalProperties)
	}
}

// asV014Fields walks struct type t's fields as invopop's reflectFieldName
// does (names, "-", embedded and inlined structs) over object schema s.
func asV014Fields(t reflect.Type, s *jsonschema.Schema) {
	for i := range t.NumField() {
		f := t.Field(i)
		jsonTags := strings.Split(f.Tag.Get("json"), ",")
		schemaTags := strings.Split(f.Tag.Get("jsonschema"), ",")
		if jsonTags[0] == "-" || schemaTags[0] == "-" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && jsonTags[0] == "" && ft.Kind() == reflect.Struct || slices.Contains(jsonTags[1:], "inline") {
			if ft.Kind() == reflect.Struct {
				asV014Fields(ft, s)
			}
			continue
		}
		name := f.Name
		if jsonTags[0] != "" {
			name = jsonTags[0]
		}
		if !f.Anonymous && f.PkgPath != "" {
			continue
		}
		opts := jsonTags[1:]
		if slices.Contains(opts, "omitzero") && !slices.Contains(opts, "omitempty") && !slices.Contains(schemaTags, "required") {
			s.Required = slices.DeleteFunc(s.Required, func(n string) bool { return n == name })
		}
		p, ok := s.Properties.Get(name)
		if !ok || p == nil {
			continue
		}
		if len(p.OneOf) == 2 && p.OneOf[1].Type == "null" {
			p = p.OneOf[0] // a nullable property
		}
		if slices.Contains(opts, "string") && (p.Type == "integer" || p.Type == "number" || p.Type == "boolean") {
			p.Type = "string"
		}
		asV014(f.Type, p)
	}
}

// inline reflects unnamed struct type t on its own and keeps its
// definitions aside.
func (sr *schemaReflector) inline(t reflect.Type) *jsonschema.Schema {
	s := sr.reflectExpanded(t)
	for k, d := range s.Definitions {
		if _, dup := sr.defs[k]; !dup {
			sr.defs[k] = d
		}
	}
	s.Definitions, s.Version = nil, ""
	return s
}

// inlined returns the struct type whose fields invopop inlines into the
// struct holding field f, or nil: an embedded struct or pointer to one
// without a JSON name, or a field tagged json:",inline" (invopop's rules).
func inlined(f reflect.StructField) reflect.Type {
	json := strings.Split(f.Tag.Get("json"), ",")
	if json[0] == "-" || strings.Split(f.Tag.Get("jsonschema"), ",")[0] == "-" {
		return nil
	}
	t := f.Type
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	if f.Anonymous && json[0] == "" || slices.Contains(json[1:], "inline") {
		return t
	}
	return nil
}

// inlinesCycle reports whether invopop, reflecting struct type t, would
// inline a struct into itself.
func (sr *schemaReflector) inlinesCycle(t reflect.Type) bool {
	onPath := map[reflect.Type]bool{}
	var visit func(t reflect.Type) bool
	visit = func(t reflect.Type) bool {
		if onPath[t] {
			return true
		}
		if c, done := sr.cyclic[t]; done {
			return c
		}
		onPath[t] = true
		c := false
		for i := range t.NumField() {
			if e := inlined(t.Field(i)); e != nil && visit(e) {
				c = true
				break
			}
		}
		delete(onPath, t)
		sr.cyclic[t] = c
		return c
	}
	return visit(t)
}

// flat returns an unnamed struct with the properties invopop gives struct
// type t, in its order, inlining each embedded struct once per path: a
// struct met again inside itself adds nothing (its fields are the ones
// already listed, and no binder binds a key to the deeper copies).
func (sr *schemaReflector) flat(t reflect.Type) reflect.Type {
	var fields []reflect.StructField
	onPath := map[reflect.Type]bool{t: true}
	var add func(t reflect.Type)
	add = func(t reflect.Type) {
		for i := range t.NumField() {
			f := t.Field(i)
			json := strings.Split(f.Tag.Get("json"), ",")
			if json[0] == "-" || strings.Split(f.Tag.Get("jsonschema"), ",")[0] == "-" {
				continue
			}
			if e := inlined(f); e != nil {
				if !onPath[e] {
					onPath[e] = true
					add(e)
					delete(onPath, e)
				}
				continue
			}
			if slices.Contains(json[1:], "inline") {
				continue // inlining a non-struct adds nothing
			}
			if !f.Anonymous && !f.IsExported() {
				continue
			}
			name := f.Name
			if json[0] != "" {
				name = json[0]
			}
			json[0] = name
			tag := "json:" + strconv.Quote(strings.Join(json, ","))
			for _, k := range []string{"jsonschema", "jsonschema_description", "jsonschema_extras"} {
				if v, ok := f.Tag.Lookup(k); ok {
					tag += " " + k + ":" + strconv.Quote(v)
				}
			}
			fields = append(fields, reflect.StructField{Name: "F" + strconv.Itoa(len(fields)), Type: f.Type, Tag: reflect.StructTag(tag)})
		}
	}
	add(t)
	return reflect.StructOf(fields)
}

// refersTo reports whether schema s, or a schema inside it, is a $ref to
// ref.
func refersTo(s *jsonschema.Schema, ref string) bool {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema) bool
	walk = func(s *jsonschema.Schema) bool {
		if s == nil || seen[s] {
			return false
		}
		seen[s] = true
		if s.Ref == ref {
			return true
		}
		for _, d := range s.Definitions {
			if walk(d) {
				return true
			}
		}
		if s.Properties != nil {
			for p := s.Properties.Oldest(); p != nil; p = p.Next() {
				if walk(p.Value) {
					return true
				}
			}
		}
		for _, p := range s.PatternProperties {
			if walk(p) {
				return true
			}
		}
		for _, l := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
			for _, e := range l {
				if walk(e) {
					return true
				}
			}
		}
		return walk(s.Items) || walk(s.AdditionalProperties) || walk(s.Not) || walk(s.Contains) ||
			walk(s.If) || walk(s.Then) || walk(s.Else) || walk(s.PropertyNames)
	}
	return walk(s)
}
