package typereg_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/typereg"
)

// Recursive types every binder reads: registration must terminate on each,
// through every walk of the type it makes.
type (
	RecChain struct {
		*RecChain
		Val int `json:"val"`
	}
	RecChainNext struct {
		*RecChainNext
		Val  int           `json:"val"`
		Next *RecChainNext `json:"next,omitempty"`
	}
	RecEmbedA struct {
		*RecEmbedB
		A int `json:"a"`
	}
	RecEmbedB struct {
		*RecEmbedA
		B int `json:"b"`
	}
	recTree []recTree
	recMap  map[string]recMap
	recArr  [2]*recArr
	recPMap map[string]*recPMap
	recNode struct {
		V    int      `json:"v"`
		Next *recNode `json:"next,omitempty"`
	}
	recKids struct {
		V    int       `json:"v"`
		Kids []recKids `json:"kids,omitempty"`
	}
	recMutA struct {
		Bs []recMutB `json:"bs,omitempty"`
		N  int       `json:"n"`
	}
	recMutB  map[string]*recMutA
	recInner struct {
		*RecChain
		Tree recTree `json:"tree"`
	}
	recUintptr struct {
		P  uintptr            `json:"p"`
		Ps []uintptr          `json:"ps,omitempty"`
		M  map[uintptr]string `json:"m,omitempty"`
	}
	recSelfPtr *recSelfPtr

	// Cycles invopop inlines: a field tagged json:",inline" (invopop's
	// option), an unexported self-embedding, a three-way cycle through a
	// struct embedded by value.
	RecInline struct {
		X    int        `json:"x"`
		Self *RecInline `json:",inline"`
	}
	recLow struct {
		//lint:ignore U1000 read by reflection: the type under test embeds itself
		*recLow
		X int `json:"x"`
	}
	RecThreeA struct {
		*RecThreeB
		X int `json:"x"`
	}
	RecThreeB struct {
		RecThreeC
		Y int `json:"y"`
	}
	RecThreeC struct {
		*RecThreeA
		Z int `json:"z"`
	}
	recTreeP []*recTreeP
	recMSM   map[string][]map[string]recMSM
)

// A recursiveTool is a struct type whose parameters are, or reach, a
// recursive type.
type recursiveTool struct {
	name string
	typ  reflect.Type
	// segLoop: the type holds itself through no struct, which segmentio
	// cannot build a decoder for (it overflows the stack), so registration
	// under SegmentIO refuses it.
	segLoop bool
}

var recursiveTools = []recursiveTool{
	{"chain", reflect.TypeFor[RecChain](), false},
	{"chain field", reflect.TypeFor[struct {
		C RecChain `json:"c"`
	}](), false},
	{"chain with next", reflect.TypeFor[RecChainNext](), false},
	{"mutual embedding", reflect.TypeFor[RecEmbedA](), false},
	{"mutual embedding field", reflect.TypeFor[struct {
		B *RecEmbedB `json:"b"`
	}](), false},
	{"tree", reflect.TypeFor[struct {
		T recTree `json:"t"`
	}](), true},
	{"map", reflect.TypeFor[struct {
		M recMap `json:"m"`
	}](), true},
	{"array of pointers", reflect.TypeFor[struct {
		A recArr `json:"a"`
	}](), true},
	{"map of pointers", reflect.TypeFor[struct {
		P recPMap `json:"p"`
	}](), true},
	{"linked list", reflect.TypeFor[struct {
		N recNode `json:"n"`
	}](), false},
	{"struct tree", reflect.TypeFor[struct {
		K []recKids `json:"k"`
	}](), false},
	{"mutual recursion", reflect.TypeFor[struct {
		A recMutA `json:"a"`
	}](), false},
	{"embedded chain and tree", reflect.TypeFor[recInner](), true},
	{"uintptr", reflect.TypeFor[recUintptr](), false},
	{"inline", reflect.TypeFor[RecInline](), false},
	{"unexported self-embedding", reflect.TypeFor[recLow](), false},
	{"three-way embedding", reflect.TypeFor[struct {
		A RecThreeA `json:"a"`
		B RecThreeB `json:"b"`
	}](), false},
	{"slice of pointers", reflect.TypeFor[struct {
		T recTreeP `json:"t"`
	}](), true},
	{"recursive fields invopop leaves out", reflect.TypeFor[struct {
		T recTree      `json:"t" jsonschema:"-"`
		N RecChainNext `json:"n" jsonschema:"-"`
		K *recKids     `json:"k" jsonschema:"-"`
	}](), true},
	{"map of slices of maps", reflect.TypeFor[struct {
		M recMSM `json:"m"`
	}](), true},
}

var binders = []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder}

// registerWithin registers typ, failing the test when Register does not
// return within a generous bound.
func registerWithin(t *testing.T, reg *typereg.Registry, name string, typ reflect.Type) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- typereg.RegisterType(reg, name, typ) }()
	select {
	case err := <-done:
		return err
	case <-time.After(10 * time.Second):
		t.Fatalf("Register(%v) did not return", typ)
		return nil
	}
}

func TestRegister_RecursiveTypesTerminateWithRefs(t *testing.T) {
	for _, b := range binders {
		for _, tc := range recursiveTools {
			t.Run(b.Name()+"/"+tc.name, func(t *testing.T) {
				reg := typereg.New(typereg.WithBinder(b))
				err := registerWithin(t, reg, "t", tc.typ)
				if stdRefusesInline && b == bind.Std && tc.typ == reflect.TypeFor[RecInline]() {
					var fe *bind.FieldError
					if !errors.As(err, &fe) || fe.Field != "Self" {
						t.Fatalf("Register: %v, want a FieldError for the field Self", err)
					}
					return
				}
				if tc.segLoop && b == segmentio.Binder {
					var fe *bind.FieldError
					if !errors.As(err, &fe) || !strings.Contains(fe.Why, "holds itself through no struct") {
						t.Fatalf("Register: %v, want a FieldError saying the type holds itself through no struct", err)
					}
					return
				}
				if err != nil {
					t.Fatalf("Register: %v", err)
				}
				tool, _ := reg.Tool("t")
				raw, err := json.Marshal(tool.Schema())
				if err != nil {
					t.Fatalf("the schema does not marshal: %v", err)
				}
				checkRefs(t, raw)
			})
		}
	}
}

// checkRefs fails on a $ref of schema raw that does not name one of its
// root's $defs.
func checkRefs(t *testing.T, raw []byte) {
	t.Helper()
	var root map[string]any
	if err := json.Unmarshal(raw, &root); err != nil {
		t.Fatal(err)
	}
	defs, _ := root["$defs"].(map[string]any)
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				name, ok := strings.CutPrefix(ref, "#/$defs/")
				if _, def := defs[name]; !ok || !def {
					t.Errorf("$ref %q names no definition of %s", ref, raw)
				}
			}
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(root)
}

// TestRegister_RecursiveSchemasName: a recursive type's schema refers to
// its definition, which lists its properties: the recursion is published,
// not cut off.
func TestRegister_RecursiveSchemasName(t *testing.T) {
	for _, tc := range []struct {
		typ  reflect.Type
		want []string // in the marshalled schema
	}{
		{reflect.TypeFor[RecChainNext](), []string{`"next":{"$ref":"#/$defs/RecChainNext"}`, `"RecChainNext":{"properties":{"val":{"type":"integer"},"next":{"$ref":"#/$defs/RecChainNext"}}`}},
		{reflect.TypeFor[struct {
			T recTree `json:"t"`
		}](), []string{`"recTree":{"items":{"$ref":"#/$defs/recTree"},"type":"array"}`}},
		{reflect.TypeFor[struct {
			C RecChain `json:"c"`
		}](), []string{`"c":{"$ref":"#/$defs/RecChain"}`, `"RecChain":{"properties":{"val":{"type":"integer"}}`}},
		{reflect.TypeFor[recUintptr](), []string{`"p":{"type":"integer"}`, `"ps":{"items":{"type":"integer"},"type":"array"}`}},
	} {
		reg := typereg.New()
		if err := registerWithin(t, reg, "t", tc.typ); err != nil {
			t.Fatalf("%v: %v", tc.typ, err)
		}
		tool, _ := reg.Tool("t")
		raw, _ := json.Marshal(tool.Schema())
		for _, w := range tc.want {
			if !strings.Contains(string(raw), w) {
				t.Errorf("%v: schema %s\nlacks %s", tc.typ, raw, w)
			}
		}
	}
}

// TestRegister_PointerToItselfIsRefused: type P *P is the one recursive
// type no binder reads: a value that is not null sends it allocating
// pointers forever. Registration says so, naming the field.
func TestRegister_PointerToItselfIsRefused(t *testing.T) {
	for _, b := range binders {
		reg := typereg.New(typereg.WithBinder(b))
		err := registerWithin(t, reg, "t", reflect.TypeFor[struct {
			P recSelfPtr `json:"p"`
		}]())
		var fe *bind.FieldError
		if !errors.As(err, &fe) || fe.Field != "P" || !strings.Contains(fe.Why, "points to itself") {
			t.Errorf("%s: err = %v, want a FieldError for P saying the pointer points to itself", b.Name(), err)
		}
	}
}
