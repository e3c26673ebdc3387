package bind_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
)

// Std records a field under the name encoding/json binds it by, for tags
// that encoding/json on its own and encoding/json on v2 (GOEXPERIMENT=jsonv2)
// read differently: names with quotes, backslashes, commas or spaces, v2's
// case: and inline options, a dash. Each key is sent with the real decoder
// of the build: a key is unknown to the plan exactly when the binder binds
// it to no field.
func TestStd_TagNamesAsTheBinderReadsThem(t *testing.T) {
	tags := []string{`a\"b`, `'q,x'`, `q'x`, `a,case:strict`, `a,case:ignore`, `x_y`, `x-y`, `-,`,
		`,omitempty`, `a b`, `a\\b`, "\u00fcn\u00efc\u00f6de", `a,string`, `,string`, `'a'`, `\u0061`, `x_y,case:ignore`, `a,case:strict,string`}
	keys := []string{"F", "f", "a", "A", "a\"b", "b", "q", "'q", "q,x", "'q,x'", "q'x", "x", "xy", "XY", "x_y", "X_Y", "x-y",
		"-", "a b", "a\\b", "\u00dcN\u00cfC\u00d6DE", "'a'", "\\u0061", "omitempty"}
	for _, tag := range stdUnsupportedTags {
		typ := reflect.StructOf([]reflect.StructField{{Name: "F", Type: reflect.TypeFor[int](), Tag: reflect.StructTag(`json:"` + tag + `"`)}})
		var fe *bind.FieldError
		if _, err := bind.Std.Compile(typ); !errors.As(err, &fe) || fe.Field != "F" {
			t.Errorf("json:%q: Compile says %v, want a *FieldError naming F", tag, err)
		}
	}
	for _, tag := range tags {
		typ := reflect.StructOf([]reflect.StructField{{Name: "F", Type: reflect.TypeFor[int](), Tag: reflect.StructTag(`json:"` + tag + `"`)}})
		plan, err := bind.Std.Compile(typ)
		if err != nil {
			t.Errorf("json:%q: %v", tag, err)
			continue
		}
		for _, k := range keys {
			for _, v := range []string{`1`, `"1"`} {
				args := []byte(fmt.Sprintf(`{%s:%s}`, jsonString(k), v))
				checkAgainstStd(t, plan, args)
				out := reflect.New(typ)
				if json.Unmarshal(args, out.Interface()) != nil {
					continue
				}
				bound := !out.Elem().IsZero()
				if unknown := unknownKeys(plan.Check(args, nil)) > 0; unknown == bound {
					t.Errorf("json:%q, %s: UnknownKey %v, yet the binder binds it: %v (params %v)", tag, args, unknown, bound, plan.Params()[0].Name)
				}
			}
		}
	}
}
