package refuse_test

import (
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// nestedTagged is a struct type nested depth levels deep, each level a
// distinct type with a tagged field and the next level: {"n":1,"in":{...}}.
func nestedTagged(depth int) reflect.Type {
	var t reflect.Type
	for range depth {
		fields := []reflect.StructField{{Name: "N", Type: reflect.TypeFor[int](), Tag: `json:"n" validate:"min=1,max=9"`}}
		if t != nil {
			fields = append(fields, reflect.StructField{Name: "In", Type: t, Tag: `json:"in"`})
		}
		t = reflect.StructOf(fields)
	}
	return reflect.StructOf([]reflect.StructField{{Name: "Arg", Type: t, Tag: `json:"arg"`}})
}

// TestRefuse_NestedFieldRulesCostLinearly: the words of a parameter whose
// nested structs' fields carry validate tags say each field's rule, and
// building them (on the tool's first refusal) costs allocations that grow
// with the depth of the type, not exponentially: at 4x the depth, at most
// 8x what the first refusal allocates.
func TestRefuse_NestedFieldRulesCostLinearly(t *testing.T) {
	first := func(depth int) (uint64, string) {
		reg := typereg.New()
		if err := typereg.RegisterType(reg, "t", nestedTagged(depth)); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r := refuse.Refuse(reg, "t", []byte(`{"arg":{"n":0}}`))
		runtime.ReadMemStats(&after)
		if r == nil || len(r.Problems) != 1 {
			t.Fatalf("depth %d: refusal %+v, want one problem", depth, r)
		}
		return after.Mallocs - before.Mallocs, r.Problems[0].Takes
	}
	small, takes := first(6)
	if want := "an object with fields n (a whole number from 1 to 9), in (an object with fields n (a whole number from 1 to 9), in ("; !strings.HasPrefix(takes, want) {
		t.Errorf("takes %q, want it to start %q", takes, want)
	}
	large, _ := first(24)
	t.Logf("first refusal: %d allocations at depth 6, %d at depth 24", small, large)
	if large > 8*small {
		t.Errorf("first refusal: %d allocations at depth 6, %d at depth 24: the words grow faster than the type", small, large)
	}
}
