package bench

import (
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/typereg"
)

// The shapes: calls built to cost the guard more than the binder, each at
// two sizes (x10 and x100 of a small one, named ShapeNAMEx10 and
// ShapeNAMEx100), measured against each binder's own decode (bind,
// bind-segmentio, bind-v2) with Refuse through it (refuse, refuse-...).
// The guard's cost must stay a multiple of the binder's, at both sizes.

// ShapeNode is a recursive struct: it is read at any depth.
type ShapeNode struct {
	Next *ShapeNode  `json:"next"`
	Kids []ShapeNode `json:"kids"`
	V    int         `json:"v"`
}

// ShapeArgs is the shapes' parameter struct; none of its parameters is
// required.
type ShapeArgs struct {
	Any  any            `json:"any,omitempty"`
	Meta map[string]any `json:"meta,omitempty"`
	Node *ShapeNode     `json:"node,omitempty"`
	Grid [][][][]int    `json:"grid,omitempty"`
	Name string         `json:"name,omitempty"`
}

// ToolShapes is the shapes' tool.
const ToolShapes = "shapes"

// A Shape is a call of a given form at a scale.
type Shape struct {
	// Name is the shape's name; its benchmarks are BenchmarkShapeNAMEx10
	// and BenchmarkShapeNAMEx100.
	Name string
	// Args returns the call at scale k.
	Args func(k int) []byte
	// Unknown: the call sends keys no parameter takes, which Refuse
	// refuses though the binder reads the call.
	Unknown bool
}

const rounded = "9007199254740993" // an integer past 2^53: a float64 rounds it

func repeat(s string, n int, sep string) string {
	return strings.TrimSuffix(strings.Repeat(s+sep, n), sep)
}

func members(n int, f func(i int) string) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(f(i))
	}
	return b.String()
}

func inObjects(depth int, key, inner string) string {
	return strings.Repeat(`{"`+key+`":`, depth) + inner + strings.Repeat("}", depth)
}

// Shapes lists the shapes.
var Shapes = []Shape{
	// The issue's: integers past 2^53 (which a float64 rounds) under 33
	// levels of arrays, x10 is 100 of them under 33 levels, x100 1,000
	// under 330.
	{Name: "DeepLosses", Args: func(k int) []byte {
		d := 33 * max(1, k/10)
		return []byte(`{"any":` + strings.Repeat("[", d) + repeat(rounded, 10*k, ",") + strings.Repeat("]", d) + `}`)
	}},
	{Name: "RepeatedKeysDeep", Args: func(k int) []byte {
		return []byte(`{"meta":` + inObjects(13*k/10+13, "a", `{`+repeat(`"x":1`, 9*k, ",")+`}`) + `}`)
	}},
	{Name: "RepeatedTopKey", Args: func(k int) []byte {
		return []byte(`{` + repeat(`"name":"x"`, 1000*k, ",") + `}`)
	}},
	{Name: "LongKeysDeep", Args: func(k int) []byte {
		return []byte(`{"any":` + inObjects(13*k/10+13, strings.Repeat("k", 100), "["+repeat(rounded, 10*k, ",")+"]") + `}`)
	}},
	{Name: "RecursiveStructWrongElements", Args: func(k int) []byte {
		return []byte(`{"node":` + inObjects(13*k/10+13, "next", `{"kids":[`+repeat(`{"v":"x"}`, 10*k, ",")+`]}`) + `}`)
	}},
	{Name: "NestedSlicesWrongElements", Args: func(k int) []byte {
		return []byte(`{"grid":[[[[` + repeat(`"x"`, 100*k, ",") + `]]]]}`)
	}},
	// Unknown keys whose values are not UTF-8: V2 fails on each, and
	// each is a syntax problem worded from the byte where it lies.
	{Name: "UnknownBadText", Unknown: true, Args: func(k int) []byte {
		return []byte(`{` + members(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + "\":\"\xff\"" }) + `}`)
	}},
	{Name: "DeepWideMany", Unknown: true, Args: func(k int) []byte {
		level := members(k, func(i int) string { return `"a` + strconv.Itoa(i) + `":` + rounded })
		d := 13 + k/10
		return []byte(`{"u":1,"node":{"kids":[` + repeat(`{"v":1.5}`, 10*k, ",") + `]},"any":` +
			strings.Repeat(`{`+level+`,"z":`, d) + "[" + repeat(rounded, 10*k, ",") + "]" + strings.Repeat("}", d) + `}`)
	}},
}

// ShapeScales are the scales each shape is measured at.
var ShapeScales = []int{10, 100}

// ShapePayloads returns a payload per shape and scale, named
// ShapeNAMExK; BindOK is encoding/json's verdict.
func ShapePayloads() []*Payload { return shapePayloads() }

var shapePayloads = sync.OnceValue(func() []*Payload {
	var ps []*Payload
	for _, s := range Shapes {
		for _, k := range ShapeScales {
			p := &Payload{Name: "Shape" + s.Name + "x" + strconv.Itoa(k), Tool: ToolShapes, Type: reflect.TypeFor[ShapeArgs](), Args: s.Args(k)}
			p.BindOK = Bind(p) == nil
			ps = append(ps, p)
		}
	}
	return ps
})

// ShapeRegistryFor returns a registry with the shapes' tool registered
// through binder b.
func ShapeRegistryFor(b bind.Binder) *typereg.Registry {
	reg := typereg.New(typereg.WithBinder(b))
	must(typereg.Register[ShapeArgs](reg, ToolShapes))
	return reg
}
