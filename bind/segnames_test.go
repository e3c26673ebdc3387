package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segTwoNames has two fields of one name at the top level and in a
// nested struct, of names segmentio's keyset holds (16 bytes or less) and
// of one it does not (built by reflect: vet refuses a repeated tag).
var segTwoNames = func() reflect.Type {
	field := func(name string, t reflect.Type, tag string) reflect.StructField {
		return reflect.StructField{Name: name, Type: t, Tag: reflect.StructTag(`json:"` + tag + `"`)}
	}
	nested := reflect.StructOf([]reflect.StructField{
		field("X", reflect.TypeFor[int](), "x"), field("Y", reflect.TypeFor[bool](), "x"),
	})
	return reflect.StructOf([]reflect.StructField{
		field("A", reflect.TypeFor[int](), "a"), field("B", reflect.TypeFor[string](), "a"),
		field("N", nested, "n"),
		field("L1", reflect.TypeFor[int](), "a_name_longer_than_16"), field("L2", reflect.TypeFor[string](), "a_name_longer_than_16"),
	})
}()

// TestSegmentIO_TwoFieldsOfOneName: a key naming two fields binds the one
// segmentio's struct decoder finds (the first with its keyset, on a CPU
// with AVX or ASIMD, up to 32 fields of names of 16 bytes or less; the
// last with its map otherwise); the pass's verdict is the trial check's,
// held to segmentio's own decode: the guard fails exactly when segmentio
// does (checkProven), and a value segmentio reads is the field's it set.
func TestSegmentIO_TwoFieldsOfOneName(t *testing.T) {
	plan, err := segmentio.Binder.Compile(segTwoNames)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"a":1}`, `{"a":"x"}`, `{"a":null}`, `{"n":{"x":1}}`, `{"n":{"x":true}}`,
		`{"a_name_longer_than_16":1}`, `{"a_name_longer_than_16":"x"}`, `{"n":{"x":1.5}}`,
	} {
		for _, p := range []*bind.Plan{plan, plan.WithRequired([]string{"a"}, nestedRequired)} {
			checkProven(t, p, []byte(args))
			if _, _, ok := bind.NativeVerdict(p, []byte(args)); !ok {
				t.Errorf("%s: the pass declines", args)
			}
		}
	}
}
