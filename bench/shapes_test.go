package bench

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
)

// Each BenchmarkShapeNAMExK runs, for every binder, its own decode
// (guard=bind, guard=bind-segmentio, guard=bind-v2) and Refuse through it
// (guard=refuse, ...), so cmd/ratio shows each shape's cost as a multiple
// of the binder's, and its growth from x10 to x100.

func BenchmarkShapeDeepLossesx10(b *testing.B)        { benchShape(b, "ShapeDeepLossesx10") }
func BenchmarkShapeDeepLossesx100(b *testing.B)       { benchShape(b, "ShapeDeepLossesx100") }
func BenchmarkShapeRepeatedKeysDeepx10(b *testing.B)  { benchShape(b, "ShapeRepeatedKeysDeepx10") }
func BenchmarkShapeRepeatedKeysDeepx100(b *testing.B) { benchShape(b, "ShapeRepeatedKeysDeepx100") }
func BenchmarkShapeRepeatedTopKeyx10(b *testing.B)    { benchShape(b, "ShapeRepeatedTopKeyx10") }
func BenchmarkShapeRepeatedTopKeyx100(b *testing.B)   { benchShape(b, "ShapeRepeatedTopKeyx100") }
func BenchmarkShapeLongKeysDeepx10(b *testing.B)      { benchShape(b, "ShapeLongKeysDeepx10") }
func BenchmarkShapeLongKeysDeepx100(b *testing.B)     { benchShape(b, "ShapeLongKeysDeepx100") }
func BenchmarkShapeRecursiveStructWrongElementsx10(b *testing.B) {
	benchShape(b, "ShapeRecursiveStructWrongElementsx10")
}
func BenchmarkShapeRecursiveStructWrongElementsx100(b *testing.B) {
	benchShape(b, "ShapeRecursiveStructWrongElementsx100")
}
func BenchmarkShapeNestedSlicesWrongElementsx10(b *testing.B) {
	benchShape(b, "ShapeNestedSlicesWrongElementsx10")
}
func BenchmarkShapeNestedSlicesWrongElementsx100(b *testing.B) {
	benchShape(b, "ShapeNestedSlicesWrongElementsx100")
}
func BenchmarkShapeUnknownBadTextx10(b *testing.B)  { benchShape(b, "ShapeUnknownBadTextx10") }
func BenchmarkShapeUnknownBadTextx100(b *testing.B) { benchShape(b, "ShapeUnknownBadTextx100") }
func BenchmarkShapeDeepWideManyx10(b *testing.B)    { benchShape(b, "ShapeDeepWideManyx10") }
func BenchmarkShapeDeepWideManyx100(b *testing.B)   { benchShape(b, "ShapeDeepWideManyx100") }

func shapePayload(name string) (*Payload, Shape) {
	for _, p := range ShapePayloads() {
		if p.Name == name {
			for _, s := range Shapes {
				if strings.HasPrefix(name, "Shape"+s.Name+"x") {
					return p, s
				}
			}
		}
	}
	panic("bench: no shape " + name)
}

// shapeCalls returns, for binder b, the binder's decode and Refuse through
// it on payload p, each returning nil when it accepts the call.
func shapeCalls(b bind.Binder, p *Payload) (decode, guard func() error) {
	reg := ShapeRegistryFor(b)
	decode = func() error { return b.Unmarshal(p.Args, p.New()) }
	guard = func() error {
		if r := refuse.Refuse(reg, ToolShapes, p.Args); r != nil {
			return r
		}
		return nil
	}
	return decode, guard
}

// checkShape reports an error unless Refuse refuses p exactly when binder
// b fails on it (or, for a shape with unknown keys, always).
func checkShape(b bind.Binder, p *Payload, s Shape) error {
	decode, guard := shapeCalls(b, p)
	fails := decode() != nil
	refused := guard() != nil
	if refused != (fails || s.Unknown) {
		return fmt.Errorf("%s: %s fails: %v; Refuse refuses: %v", p.Name, b.Name(), fails, refused)
	}
	return nil
}

func benchShape(b *testing.B, name string) {
	p, s := shapePayload(name)
	for _, bd := range Binders {
		decode, guard := shapeCalls(bd, p)
		if err := checkShape(bd, p, s); err != nil {
			b.Fatal(err)
		}
		for _, sub := range []struct {
			rival string
			call  func() error
		}{{BindRival(bd), decode}, {RefuseRival(bd), guard}} {
			b.Run("guard="+sub.rival, func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(p.Args)))
				for b.Loop() {
					_ = sub.call()
				}
			})
		}
	}
}

// TestShapes checks, without timing anything, that Refuse gives every
// binder's verdict on every shape, that each shape has its benchmarks, and
// that x100 is about ten times x10.
func TestShapes(t *testing.T) {
	for _, p := range ShapePayloads() {
		_, s := shapePayload(p.Name)
		for _, bd := range Binders {
			if err := checkShape(bd, p, s); err != nil {
				t.Error(err)
			}
		}
	}
	for _, s := range Shapes {
		small, big := s.Args(ShapeScales[0]), s.Args(ShapeScales[1])
		if r := float64(len(big)) / float64(len(small)); r < 5 || r > 20 {
			t.Errorf("%s: x100 is %.1f times x10", s.Name, r)
		}
	}
}
