package bench

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// The typical call with one problem: the guard's answer is a refusal, and
// what building it costs is in the time. Each is measured like the
// typical call, against each binder's own decode of the same bytes and
// json.Valid.

// wrongValuePayload is the typical call with its count sent as text
// ("12"): every binder fails on it, and Refuse refuses it for that.
var wrongValuePayload = &Payload{
	Name: "TypicalWrongValue", Tool: ToolTypical, Type: reflect.TypeFor[Typical](),
	Args:    []byte(strings.Replace(TypicalArgs, `"count":12`, `"count":"12"`, 1)),
	Refused: "wrong_type",
}

// unknownKeyPayload is the typical call with one key no parameter takes:
// every binder reads it (and drops the key), and Refuse refuses it by its
// unknown-keys policy.
var unknownKeyPayload = &Payload{
	Name: "TypicalUnknownKey", Tool: ToolTypical, Type: reflect.TypeFor[Typical](),
	Args:   []byte(strings.Replace(TypicalArgs, `"count":12`, `"count":12,"verbose":true`, 1)),
	BindOK: true, Policy: true, Refused: "unknown_argument",
}

// BenchmarkTypicalWrongValue measures Refuse through every binder on the
// typical call with one value of the wrong kind.
func BenchmarkTypicalWrongValue(b *testing.B) {
	benchRivals(b, wrongValuePayload, problemRivals(), problemCall(wrongValuePayload))
}

// BenchmarkTypicalUnknownKey measures Refuse through every binder on the
// typical call with one unknown key.
func BenchmarkTypicalUnknownKey(b *testing.B) {
	benchRivals(b, unknownKeyPayload, problemRivals(), problemCall(unknownKeyPayload))
}

// problemRivals lists the sub-benchmarks of the typical call with a
// problem: each binder's decode and Refuse through it, and json.Valid.
func problemRivals() []string {
	var rivals []string
	for _, bd := range Binders {
		rivals = append(rivals, BindRival(bd), RefuseRival(bd))
	}
	return append(rivals, RivalValid)
}

// problemCall returns the set-up of p's sub-benchmarks.
func problemCall(p *Payload) func(context.Context, string) (func() error, func()) {
	return func(ctx context.Context, rival string) (func() error, func()) {
		bd, ok := BinderOf(rival)
		if !ok {
			bd = bind.Std
		}
		reg := typereg.New(typereg.WithBinder(bd))
		must(typereg.Register[Typical](reg, ToolTypical))
		return Setup(ctx, reg, p, rival)
	}
}

// TestProblemVerdicts checks, without timing anything, what each
// sub-benchmark of the typical call with a problem checks before its
// timer, and that the refusal names the one problem with every binder.
func TestProblemVerdicts(t *testing.T) {
	ctx := context.Background()
	for _, p := range []*Payload{wrongValuePayload, unknownKeyPayload} {
		for _, rival := range problemRivals() {
			call, cleanup := problemCall(p)(ctx, rival)
			if err := CheckVerdict(p, rival, call); err != nil {
				t.Error(err)
			}
			cleanup()
		}
		for _, bd := range Binders {
			reg := typereg.New(typereg.WithBinder(bd))
			must(typereg.Register[Typical](reg, ToolTypical))
			r := refuse.Refuse(reg, ToolTypical, p.Args)
			if r == nil || len(r.Problems) != 1 || string(r.Problems[0].Code) != p.Refused {
				t.Errorf("%s, %s: %v, want one problem of code %s", p.Name, bd.Name(), r, p.Refused)
			}
		}
	}
}

// TestProblemRefusalAllocations: a refusal of the typical call's one
// problem, a wrong value or an unknown key, takes one allocation under
// every binder: the refusal, its problem, the tool's names and the
// problem's text (its quote, an unknown key's pointer) in one room. A
// nested value's problem (the window's from sent as a number) takes the
// room (with the element's quote and the argument's), the path bind
// builds to it, and the path's text and pointer: 4 (6 when the quotes
// were strings of their own).
func TestProblemRefusalAllocations(t *testing.T) {
	nested := []byte(strings.Replace(TypicalArgs, `"from":"2024-01-01"`, `"from":20240101`, 1))
	for _, bd := range Binders {
		reg := typereg.New(typereg.WithBinder(bd))
		must(typereg.Register[Typical](reg, ToolTypical))
		for _, c := range []struct {
			name string
			args []byte
			max  float64
		}{{wrongValuePayload.Name, wrongValuePayload.Args, 1}, {unknownKeyPayload.Name, unknownKeyPayload.Args, 1}, {"nested wrong value", nested, 4}} {
			if r := refuse.Refuse(reg, ToolTypical, c.args); r == nil || len(r.Problems) != 1 {
				t.Fatalf("%s, %s: %v, want one problem", c.name, bd.Name(), r)
			}
			if n := testing.AllocsPerRun(50, func() { refuse.Refuse(reg, ToolTypical, c.args) }); n > c.max {
				t.Errorf("%s, %s: %v allocations, want %v at most", c.name, bd.Name(), n, c.max)
			}
		}
	}
}
