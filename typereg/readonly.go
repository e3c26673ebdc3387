package typereg

import (
	"maps"
	"reflect"
	"slices"
	"sync/atomic"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/schemacheck"
	"github.com/bindguard/bindguard/internal/toolrec"
	"github.com/invopop/jsonschema"
)

// The guard's own packages read the record in place, through
// internal/toolrec: no copy on the path of a call.
func init() {
	toolrec.Params = func(t *Tool) []Param { return t.params }
	toolrec.Policy = func(t *Tool) *Policy { return &t.policy }
	toolrec.Schema = func(t *Tool) *jsonschema.Schema { return t.schema }
	toolrec.Published = func(t *Tool) *schemacheck.Schema { return t.published }
	toolrec.ParamSchema = func(p *Param) *jsonschema.Schema { return p.schema }
	toolrec.ParamIndex = func(p *Param) []int { return p.index }
	toolrec.TopKeys = func(t *Tool) bindcap.TopKeys { return t.top }
	toolrec.DerivedSlot = func(t *Tool) *atomic.Pointer[toolrec.Derived] { return &t.derived }
}

// clone returns p with its slices and map copied.
func (p Policy) clone() Policy {
	p.Exempt = slices.Clone(p.Exempt)
	p.Aliases = maps.Clone(p.Aliases)
	p.IntReads = slices.Clone(p.IntReads)
	return p
}

// copySchema returns a deep copy of s: every schema, slice, map and
// pointer reachable from its exported fields is new, and so is what the
// values it holds as any (Default, Const, Enum, Examples, Extras) reach
// through their exported fields, maps, slices and pointers. A schema or
// pointer met twice is copied once, so the copy shares what s shares and
// a cycle is copied as a cycle. Unexported fields are copied by value (a
// boolean schema stays one).
func copySchema(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	c := schemaCopier{schemas: map[*jsonschema.Schema]*jsonschema.Schema{}, refs: map[ref]reflect.Value{}}
	return c.schema(s)
}

type schemaCopier struct {
	schemas map[*jsonschema.Schema]*jsonschema.Schema
	refs    map[ref]reflect.Value // pointers and maps copied, other than schemas
}

// A ref names a pointer or map met while copying.
type ref struct {
	t reflect.Type
	p uintptr
}

var schemaPtr = reflect.TypeFor[*jsonschema.Schema]()

func (c *schemaCopier) schema(s *jsonschema.Schema) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	if d, ok := c.schemas[s]; ok {
		return d
	}
	d := new(jsonschema.Schema)
	*d = *s
	c.schemas[s] = d
	v := reflect.ValueOf(d).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if !f.IsExported() || f.Name == "Properties" {
			continue
		}
		v.Field(i).Set(c.value(v.Field(i)))
	}
	if s.Properties != nil {
		d.Properties = jsonschema.NewProperties()
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			d.Properties.Set(p.Key, c.schema(p.Value))
		}
	}
	return d
}

// value returns a deep copy of v, which was not read through an
// unexported field.
func (c *schemaCopier) value(v reflect.Value) reflect.Value {
	if v.Type() == schemaPtr {
		return reflect.ValueOf(c.schema(v.Interface().(*jsonschema.Schema)))
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return v
		}
		r := ref{v.Type(), v.Pointer()}
		if d, ok := c.refs[r]; ok {
			return d
		}
		d := reflect.New(v.Type().Elem())
		c.refs[r] = d
		d.Elem().Set(c.value(v.Elem()))
		return d
	case reflect.Map:
		if v.IsNil() {
			return v
		}
		r := ref{v.Type(), v.Pointer()}
		if d, ok := c.refs[r]; ok {
			return d
		}
		d := reflect.MakeMapWithSize(v.Type(), v.Len())
		c.refs[r] = d
		for it := v.MapRange(); it.Next(); {
			d.SetMapIndex(c.value(it.Key()), c.value(it.Value()))
		}
		return d
	case reflect.Slice:
		if v.IsNil() {
			return v
		}
		d := reflect.MakeSlice(v.Type(), v.Len(), v.Len())
		for i := range v.Len() {
			d.Index(i).Set(c.value(v.Index(i)))
		}
		return d
	case reflect.Array:
		d := reflect.New(v.Type()).Elem()
		for i := range v.Len() {
			d.Index(i).Set(c.value(v.Index(i)))
		}
		return d
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		d := reflect.New(v.Type()).Elem()
		d.Set(c.value(v.Elem()))
		return d
	case reflect.Struct:
		d := reflect.New(v.Type()).Elem()
		d.Set(v)
		for i := range d.NumField() {
			if v.Type().Field(i).IsExported() {
				d.Field(i).Set(c.value(v.Field(i)))
			}
		}
		return d
	}
	return v
}
