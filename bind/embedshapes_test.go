package bind_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
)

type EmbInt int

type embLow struct {
	A int `json:"a"`
	B int
}

type EmbA struct {
	X int `json:"x"`
	embLow
}

type EmbB struct {
	X int `json:"x"`
	Y int `json:"y"`
}

type EmbCycle struct {
	*EmbCycle
	C int `json:"c"`
}

// embShapes1 is struct{ EmbInt; EmbA; EmbB }, built with reflect: vet
// rightly flags the x both embedded structs carry.
var embShapes1 = reflect.StructOf([]reflect.StructField{
	{Name: "EmbInt", Type: reflect.TypeFor[EmbInt](), Anonymous: true},
	{Name: "EmbA", Type: reflect.TypeFor[EmbA](), Anonymous: true},
	{Name: "EmbB", Type: reflect.TypeFor[EmbB](), Anonymous: true},
})

type embShapes2 struct {
	*EmbA
	EmbB `json:"b"`
	EmbCycle
}

type embShapes3 struct {
	EmbA
	embLow
	Z int `json:"x"`
}

// Std records the keys of embedded structs as the binder of this build
// binds them (encoding/json's own rules, or encoding/json/v2's under
// GOEXPERIMENT=jsonv2): every key the plan takes is bound, every key it
// calls unknown is dropped.
func TestStd_EmbeddedFieldsAsTheBinderBindsThem(t *testing.T) {
	keys := []string{"a", "A", "B", "b", "x", "X", "y", "c", "EmbInt", "embint", "EmbA", "EmbB", "EmbCycle", "embLow"}
	for _, typ := range []reflect.Type{embShapes1, reflect.TypeFor[embShapes2](), reflect.TypeFor[embShapes3]()} {
		plan, err := bind.Std.Compile(typ)
		if err != nil {
			t.Logf("%v: %v", typ, err)
			continue
		}
		for _, k := range keys {
			for _, v := range []string{`1`, `{"x":1}`} {
				args := []byte(fmt.Sprintf(`{%q:%s}`, k, v))
				checkAgainstStd(t, plan, args)
				out := reflect.New(typ)
				if json.Unmarshal(args, out.Interface()) != nil {
					continue
				}
				bound := !out.Elem().IsZero()
				if unknown := unknownKeys(plan.Check(args, nil)) > 0; unknown == bound {
					t.Errorf("%v, %s: UnknownKey %v, binder binds it %v", typ, args, unknown, bound)
				}
			}
		}
	}
}
