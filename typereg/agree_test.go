package typereg

import (
	"reflect"
	"strings"
	"testing"

	"github.com/invopop/jsonschema"
)

// agree is the registry's net under every translation: a fragment that
// states another range than the validator reads fails, whatever rule made
// it. Each row is a fragment the translation could get wrong.
func TestAgree_RefusesAFragmentTheValidatorReadsOtherwise(t *testing.T) {
	ptr := func(n uint64) *uint64 { return &n }
	for _, tc := range []struct {
		name string
		tag  string
		typ  reflect.Type
		kind string
		frag *jsonschema.Schema
		want string // "" when they agree
	}{
		{"one bound, alike", "max=5", reflect.TypeFor[int](), "int", &jsonschema.Schema{Maximum: "5"}, ""},
		{"one bound, otherwise", "max=6", reflect.TypeFor[int](), "int", &jsonschema.Schema{Maximum: "5"}, "the validator accepts 6 and the published schema would refuse it"},
		{"an exclusive bound for an inclusive one", "gt=5", reflect.TypeFor[int8](), "int", &jsonschema.Schema{Minimum: "5"}, "refuses 5"},
		{"a float bound, alike", "lt=0.1", reflect.TypeFor[float32](), "float", &jsonschema.Schema{ExclusiveMaximum: "0.1"}, ""},
		{"two oneofs as one enum", "oneof=a,oneof=b", reflect.TypeFor[string](), "string", &jsonschema.Schema{Enum: []any{"a", "b"}}, `refuses "a"`},
		{"a length counted in bytes", "max=2", reflect.TypeFor[string](), "string", &jsonschema.Schema{MaxLength: ptr(4)}, `refuses "ééé"`},
		{"a length, alike", "max=2", reflect.TypeFor[*string](), "string", &jsonschema.Schema{MaxLength: ptr(2)}, ""},
		{"a list's size", "min=2", reflect.TypeFor[[]int](), "slice", &jsonschema.Schema{MinItems: ptr(1)}, "refuses a list of 1 element"},
		{"a map's size, alike", "max=3", reflect.TypeFor[map[int8]string](), "map", &jsonschema.Schema{MaxProperties: ptr(3)}, ""},
		{"the last of two eqs", "eq=true,eq=false", reflect.TypeFor[bool](), "bool", &jsonschema.Schema{Const: false}, "refuses false"},
		{"omitempty's zero, alike", "omitempty,min=3", reflect.TypeFor[uint](), "uint", &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Const: 0}, {Minimum: "3"}}}, ""},
		{"a bound past 2^53, which float64 cannot tell from its neighbour", "lt=9223372036854775807", reflect.TypeFor[int64](), "int", &jsonschema.Schema{ExclusiveMaximum: "9223372036854775807"}, "comparing numbers as float64 would refuse it"},
		{"the type's own least value, alike", "min=-9223372036854775808", reflect.TypeFor[int64](), "int", &jsonschema.Schema{Minimum: "-9223372036854775808"}, ""},
		{"omitempty's zero, forgotten", "omitempty,min=3", reflect.TypeFor[uint](), "uint", &jsonschema.Schema{Minimum: "3"}, "accepts 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := agree(level{tag: tc.tag}, tc.typ, tc.kind, tc.frag)
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("agree: %v; want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("agree: %v; want an error saying %q", err, tc.want)
			}
		})
	}
}
