package typereg

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/go-playground/validator/v10"
	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/internal/constraint"
	"github.com/bindguard/bindguard/internal/schemas"
)

// walkedStruct reports whether the validator walks into a value of struct
// type t (pointers stripped) to check its fields' tags: every struct but a
// time.
func walkedStruct(t reflect.Type) bool {
	return t.Kind() == reflect.Struct && !t.ConvertibleTo(timeType)
}

// hasNestedTags reports whether a value of type t holds, where the
// validator walks without a dive (through pointers, into structs), a
// struct field with a validate tag.
func hasNestedTags(t reflect.Type, seen map[reflect.Type]bool) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if !walkedStruct(t) || seen[t] {
		return false
	}
	seen[t] = true // not cleared: whether a tag is reachable needs each type once
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() && !f.Anonymous {
			continue
		}
		if validateTag(f.Tag) != "" || hasNestedTags(f.Type, seen) {
			return true
		}
	}
	return false
}

// nestedField is one field of a nested struct the registry compiles: its
// JSON name, as every binder binds it exactly, and its tag.
type nestedField struct {
	f    reflect.StructField
	name string
	tag  string
}

// nestedFields returns the fields of nested struct type t, failing on one
// the registry does not compile tags in: an embedded field, a name other
// than letters, digits and underscores, a tag option but omitempty and
// omitzero, a struct that decodes itself.
func nestedFields(t reflect.Type) ([]nestedField, error) {
	if decodesItselfType(t) {
		return nil, fmt.Errorf("%v decodes itself (UnmarshalJSON, UnmarshalJSONFrom or UnmarshalText), so its fields' values are its own", t)
	}
	var out []nestedField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous {
			return nil, fmt.Errorf("%v embeds %v: the registry compiles tags in a nested struct without embedded fields", t, f.Type)
		}
		if !f.IsExported() {
			continue
		}
		name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
		tag := validateTag(f.Tag)
		if name == "-" && opts == "" {
			if tag != "" {
				return nil, fmt.Errorf("field %s of %v: validate tag %q on a field the binder does not bind", f.Name, t, tag)
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		for _, c := range name {
			if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
				return nil, fmt.Errorf("field %s of %v: the registry compiles tags in a nested struct whose JSON names are letters, digits and underscores, not %q", f.Name, t, name)
			}
		}
		for o := range strings.SplitSeq(opts, ",") {
			if o != "" && o != "omitempty" && o != "omitzero" {
				return nil, fmt.Errorf("field %s of %v: the registry compiles tags in a nested struct whose fields take no option but omitempty and omitzero, not %q", f.Name, t, o)
			}
		}
		out = append(out, nestedField{f, name, tag})
	}
	return out, nil
}

// decodesItselfType reports whether a binder may read a value of type t
// by a method of t's own, so that its compiled checks cannot judge the
// text sent (the method may read "A" as "a"): encoding/json's
// UnmarshalJSON, UnmarshalText, and V2's UnmarshalJSONFrom (go-json-
// experiment's and the standard library's v2, each of its own jsontext,
// so told by the method's name; encoding/json under GOEXPERIMENT=jsonv2
// calls it too). A value of such a type is decoded and held to the
// validator itself.
func decodesItselfType(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	if pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) {
		return true
	}
	m, ok := pt.MethodByName("UnmarshalJSONFrom")
	return ok && m.Type.NumIn() == 2 && m.Type.NumOut() == 1 && m.Type.Out(0) == errorType
}

// compileStruct compiles the checks of nested struct type t, whose value
// has the level lv (no rules: only omitempty and required, which the
// validator skips on a struct).
func compileStruct(n *constraint.Node, lv level, t reflect.Type, seen *compileState) (*constraint.Node, bool) {
	if len(lv.rules) > 0 || lv.omitEmpty && !n.Nullable {
		return nil, false // omitempty on a struct, which asks whether every field is zero
	}
	n.Kind, n.Required, n.NoTag = constraint.Struct, false, false
	n.NilOK = lv.tag == "" || lv.omitEmpty
	if seen.onPath[t] {
		// A struct met inside itself (a recursive type, through a pointer,
		// a list or a map): its node takes the fields compiled below once
		// they are, and the nodes make a cycle, which the walk follows as
		// deep as the value goes (constraint.MaxDepth bounds the levels it
		// holds; past them the value is decoded and validated).
		seen.pending[t] = append(seen.pending[t], n)
		return n, true
	}
	if fs, ok := seen.fields[t]; ok {
		n.Fields = fs
		return n, fs != nil
	}
	seen.fields[t] = nil // failed, unless it compiles below
	seen.onPath[t] = true
	defer delete(seen.onPath, t)
	fields, err := nestedFields(t)
	if err != nil || len(fields) > 64 {
		return nil, false
	}
	fs := []constraint.Field{}
	for _, nf := range fields {
		var levels []level
		if nf.tag != "" {
			if levels, err = parseValidate(nf.tag); err != nil {
				return nil, false
			}
		} else if !hasNestedTags(nf.f.Type, map[reflect.Type]bool{}) {
			continue
		}
		fn, ok := compileTagsIn(levels, nf.f.Type, seen)
		if !ok {
			return nil, false
		}
		zf, err := zeroFails(nf.f.Type, nf.f.Tag)
		if err != nil {
			return nil, false
		}
		fs = append(fs, constraint.Field{Name: nf.name, Node: fn, ZeroFails: zf})
	}
	seen.fields[t], n.Fields = fs, fs
	for _, p := range seen.pending[t] {
		p.Fields = fs
	}
	delete(seen.pending, t)
	return n, true
}

// zeroFails runs the validator on the zero value of a field of type t with
// tag: what a call that leaves the field out gets.
func zeroFails(t reflect.Type, tag reflect.StructTag) (bool, error) {
	st := reflect.StructOf([]reflect.StructField{{Name: "F", Type: t, Tag: reflect.StructTag(`validate:"` + tag.Get("validate") + `"`)}})
	err := safeStruct(reflect.New(st).Interface())
	var errs validator.ValidationErrors
	if err != nil && !errors.As(err, &errs) {
		return false, err
	}
	return err != nil, nil
}

// publishNested translates the validate tags of the nested structs the
// validator walks into in a value of type t, whose own tag's levels are
// levels (nil: none), into their properties of schema s (a struct's
// definition, when s refers to one), and adds to required, per struct type,
// the JSON names of the fields whose zero value breaks their tag.
func publishNested(t reflect.Type, levels []level, s *jsonschema.Schema, defs jsonschema.Definitions, where string, done map[reflect.Type]bool, required map[reflect.Type][]string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if s != nil && s.Ref != "" {
		s = defs[strings.TrimPrefix(s.Ref, "#/$defs/")]
	}
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		if len(levels) < 2 || s == nil {
			return nil // the validator walks into elements only under a dive
		}
		return publishNested(t.Elem(), levels[1:], s.Items, defs, where+"[]", done, required)
	case reflect.Map:
		if len(levels) < 2 {
			return nil
		}
		return publishNested(t.Elem(), levels[1:], schemas.MapValues(s), defs, where+"[]", done, required)
	}
	if !walkedStruct(t) || done[t] || !hasNestedTags(t, map[reflect.Type]bool{}) {
		return nil
	}
	done[t] = true
	fields, err := nestedFields(t)
	if err != nil {
		return fmt.Errorf("field %s: validate tags inside the parameter: %w", where, err)
	}
	if s == nil || s.Properties == nil {
		return fmt.Errorf("field %s: the schema has no place for the constraints of %v's fields", where, t)
	}
	for _, nf := range fields {
		ps, _ := s.Properties.Get(nf.name)
		at := where + "." + nf.f.Name
		var levels []level
		if nf.tag != "" {
			if levels, err = parseValidate(nf.tag); err != nil {
				return fmt.Errorf("field %s: validate tag %q: %w", at, nf.tag, err)
			}
			if ps == nil {
				return fmt.Errorf("field %s: validate tag %q: the schema has no property %q", at, nf.tag, nf.name)
			}
			if err := translate(levels, nf.f.Type, ps, defs); err != nil {
				return fmt.Errorf("field %s: validate tag %q: %w", at, nf.tag, err)
			}
			zf, err := zeroFails(nf.f.Type, nf.f.Tag)
			if err != nil {
				return fmt.Errorf("field %s: validate tag %q: %w", at, nf.tag, err)
			}
			if zf {
				required[t] = append(required[t], nf.name)
				if !slices.Contains(s.Required, nf.name) {
					s.Required = append(s.Required, nf.name)
				}
			}
		}
		if err := publishNested(nf.f.Type, levels, ps, defs, at, done, required); err != nil {
			return err
		}
	}
	return nil
}

// maxZeroWalk is the most struct values the validator may walk in a tool's
// zero parameter struct: it walks every struct field, tagged or not, on
// every call it checks (at registration, and on a call the compiled checks
// cannot judge), so a type holding another many times over, many levels
// deep (eight fields of eight fields ... eight levels: 16 million values),
// would cost the host that on each.
const maxZeroWalk = 10_000

// zeroWalk counts the struct values the validator walks in the zero value
// of t (structs held by value, not through pointers, slices or maps), up to
// past maxZeroWalk; memo holds the counts of the types done.
func zeroWalk(t reflect.Type, memo map[reflect.Type]int) int {
	if !walkedStruct(t) {
		return 0
	}
	if n, ok := memo[t]; ok {
		return n
	}
	n := 1
	for i := range t.NumField() {
		if n += zeroWalk(t.Field(i).Type, memo); n > maxZeroWalk {
			break
		}
	}
	memo[t] = n
	return n
}
