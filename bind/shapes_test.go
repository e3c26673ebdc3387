package bind_test

import (
	"encoding/json"
	"reflect"
	"strconv"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/probe"
)

// shapeTypes are the types a random struct shape draws its fields from.
var shapeTypes = []reflect.Type{
	reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[uint16](), reflect.TypeFor[int64](),
	reflect.TypeFor[uint64](), reflect.TypeFor[float32](), reflect.TypeFor[float64](), reflect.TypeFor[bool](),
	reflect.TypeFor[string](), reflect.TypeFor[[]byte](), reflect.TypeFor[json.Number](), reflect.TypeFor[json.RawMessage](),
	reflect.TypeFor[any](), reflect.TypeFor[time.Time](), reflect.TypeFor[time.Duration](), reflect.TypeFor[probe.Color](),
	reflect.TypeFor[probe.Flex](), reflect.TypeFor[probe.Nested](),
}

// shapeNames are the JSON names fields take: some differ only by case, so
// that the binder's case folding and first-field-wins rules are exercised.
var shapeNames = []string{"a", "A", "b", "B", "kk", "\u212ak", "s", "\u017f", "x_y", ""}

// shapeOf builds a struct type from shape: each three bytes pick a field's
// type (and how it is wrapped: pointer, slice, array, map), its JSON name,
// and whether it carries ,string. It returns nil for a shape of no fields.
func shapeOf(shape []byte) reflect.Type {
	var fields []reflect.StructField
	for i := 0; i+2 < len(shape) && len(fields) < 6; i += 3 {
		t := shapeTypes[int(shape[i])%len(shapeTypes)]
		switch shape[i] / 64 {
		case 1:
			t = reflect.PointerTo(t)
		case 2:
			t = reflect.SliceOf(t)
		case 3:
			if shape[i+2]&1 == 0 {
				t = reflect.ArrayOf(2, t)
			} else {
				t = reflect.MapOf(reflect.TypeFor[string](), t)
			}
		}
		name := shapeNames[int(shape[i+1])%len(shapeNames)]
		tag := name
		if shape[i+2]&2 != 0 {
			tag += ",string"
		}
		fields = append(fields, reflect.StructField{
			Name: "F" + strconv.Itoa(len(fields)),
			Type: t,
			Tag:  reflect.StructTag(`json:"` + tag + `"`),
		})
	}
	if len(fields) == 0 {
		return nil
	}
	return reflect.StructOf(fields)
}

// FuzzCheckAgreesWithStd_Shapes is FuzzCheckAgreesWithStd over random struct
// shapes built from the vocabulary: fields of every kind, wrapped in
// pointers, slices, arrays and maps, named so that names collide by case,
// some under ,string.
func FuzzCheckAgreesWithStd_Shapes(f *testing.F) {
	f.Add([]byte{0, 0, 0, 8, 1, 0}, []byte(`{"a":1,"A":"x"}`))
	f.Add([]byte{70, 2, 2, 200, 3, 1}, []byte(`{"b":"5","B":{"k":[1]}}`))
	f.Add([]byte{16, 5, 0, 17, 6, 0}, []byte(`{"K":"teal","\u212a":"1"}`))
	f.Add([]byte{1, 7, 2, 9, 8, 0}, []byte(`{"S":"127","x_y":"YQ=="}`))
	f.Add([]byte{13, 0, 0, 14, 2, 2}, []byte(`{"a":"2024-01-02T03:04:05Z","b":"5"}`))
	f.Fuzz(func(t *testing.T, shape, args []byte) {
		typ := shapeOf(shape)
		if typ == nil {
			return
		}
		plan, err := bind.Std.Compile(typ)
		if err != nil {
			t.Fatalf("Compile(%v): %v", typ, err)
		}
		if len(args) == 0 {
			args = []byte("{}")
		}
		berr := json.Unmarshal(args, reflect.New(typ).Interface())
		var refused []bind.Issue
		for _, is := range plan.Check(args, nil) {
			if is.Kind.Class() == bind.BinderFailure {
				refused = append(refused, is)
			}
		}
		if (berr != nil) != (len(refused) > 0) {
			t.Errorf("%v %s: binder says %v, guard says %+v", typ, args, berr, refused)
		}
	})
}
