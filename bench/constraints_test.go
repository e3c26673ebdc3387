package bench

import (
	"context"
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// TypicalTagged is Typical with validate tags on its parameters: the same
// call, held to the tool's own constraints.
type TypicalTagged struct {
	Count  int32    `json:"count" validate:"min=1,max=100"`
	Limit  int      `json:"limit" validate:"gte=1,lte=1000"`
	Query  string   `json:"query" validate:"required,max=200"`
	Tags   []string `json:"tags" validate:"max=10,dive,min=1,max=32"`
	Score  float64  `json:"score" validate:"gte=0,lte=1"`
	Exact  bool     `json:"exact"`
	Cursor *string  `json:"cursor" validate:"omitempty,min=4"`
	Window Window   `json:"window"`
}

// ToolTypicalTagged is TypicalTagged's tool.
const ToolTypicalTagged = "typical_tagged"

func taggedRegistry(b bind.Binder) *typereg.Registry {
	reg := typereg.New(typereg.WithBinder(b))
	must(typereg.Register[TypicalTagged](reg, ToolTypicalTagged))
	must(typereg.Register[Typical](reg, ToolTypical))
	return reg
}

var taggedPayload = &Payload{
	Name: "TypicalTagged", Tool: ToolTypicalTagged, Type: reflect.TypeFor[TypicalTagged](),
	Args: []byte(TypicalArgs), BindOK: true,
}

// BenchmarkTypicalTagged measures the typical call of a tool with validate
// tags: for every binder, its own decode into TypicalTagged (guard=bind,
// guard=bind-NAME) and Refuse through it (guard=refuse, guard=refuse-NAME),
// each against its own binder's decode as cmd/ratio divides them, and
// guard=valid, json.Valid of the same bytes. The untagged twin is
// BenchmarkTypical (the same call of Typical, the tool without tags);
// guard=refuse-untagged is Refuse with bind.Std on it here too, beside
// the tagged one. Each sub-benchmark checks its verdict (every one reads
// the call) before its timer starts.
func BenchmarkTypicalTagged(b *testing.B) {
	benchRivals(b, taggedPayload, taggedRivals(), taggedCall)
}

// benchRivals runs each of rivals on payload p as a sub-benchmark
// guard=RIVAL, set up by setup, its verdict checked before its timer.
func benchRivals(b *testing.B, p *Payload, rivals []string, setup func(context.Context, string) (func() error, func())) {
	ctx := context.Background()
	for _, rival := range rivals {
		b.Run("guard="+rival, func(b *testing.B) {
			call, cleanup := setup(ctx, rival)
			defer cleanup()
			v, err := checkVerdict(p, rival, call)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(p.Args)))
			for b.Loop() {
				_ = call()
			}
			ReportVerdict(b, v)
		})
	}
}

// taggedRivals lists BenchmarkTypicalTagged's sub-benchmarks: each
// binder's decode and Refuse through it, json.Valid, and Refuse on the
// untagged twin.
func taggedRivals() []string {
	var rivals []string
	for _, bd := range Binders {
		rivals = append(rivals, BindRival(bd), RefuseRival(bd))
	}
	return append(rivals, RivalValid, RivalRefuseUntagged)
}

// RivalRefuseUntagged is Refuse with bind.Std on the typical call of
// Typical, the tagged tool's untagged twin, in BenchmarkTypicalTagged.
const RivalRefuseUntagged = "refuse-untagged"

// taggedCall sets up one of BenchmarkTypicalTagged's sub-benchmarks.
func taggedCall(ctx context.Context, rival string) (call func() error, cleanup func()) {
	if rival == RivalRefuseUntagged {
		reg := taggedRegistry(bind.Std)
		args := []byte(TypicalArgs)
		return func() error {
			if r := refuse.Refuse(reg, ToolTypical, args); r != nil {
				return r
			}
			return nil
		}, func() {}
	}
	bd, ok := BinderOf(rival)
	if !ok {
		bd = bind.Std
	}
	return Setup(ctx, taggedRegistry(bd), taggedPayload, rival)
}

// TestTaggedVerdicts checks, without timing anything, what each of
// BenchmarkTypicalTagged's sub-benchmarks checks before its timer: every
// binder and Refuse through it read the typical call of the tagged tool.
func TestTaggedVerdicts(t *testing.T) {
	ctx := context.Background()
	for _, rival := range taggedRivals() {
		call, cleanup := taggedCall(ctx, rival)
		if err := CheckVerdict(taggedPayload, rival, call); err != nil {
			t.Error(err)
		}
		cleanup()
	}
}

// TestRefuseTypicalTaggedAllocatesNothing: on the typical call of a tool
// with validate tags, the tags cost Refuse no allocation, with every
// binder: they are checked on the call's text, compiled, not on a decoded
// copy by the validator. Under bind.Std the call allocates nothing at all;
// under V2 and SegmentIO, exactly what the same call of the tool without
// tags allocates (their check runs the binder).
func TestRefuseTypicalTaggedAllocatesNothing(t *testing.T) {
	args := []byte(TypicalArgs)
	for _, bd := range Binders {
		reg := taggedRegistry(bd)
		if r := refuse.Refuse(reg, ToolTypicalTagged, args); r != nil {
			t.Fatalf("%s: the typical call is refused: %v", bd.Name(), r)
		}
		n := testing.AllocsPerRun(50, func() { _ = refuse.Refuse(reg, ToolTypicalTagged, args) })
		untagged := testing.AllocsPerRun(50, func() { _ = refuse.Refuse(reg, ToolTypical, args) })
		if bd == bind.Std && n != 0 || n != untagged {
			t.Errorf("%s: Refuse on the typical call of a tool with validate tags: %v allocations, %v without the tags", bd.Name(), n, untagged)
		}
	}
}

// TestRefuseTaggedAllocationsIndependentOfSize: the tags of a list of
// 100, 1000 and 10000 elements, each element checked against its own
// constraint, cost Refuse no allocation (under bind.Std, none at all; under
// V2 and SegmentIO, what the list's untagged tool costs).
func TestRefuseTaggedAllocationsIndependentOfSize(t *testing.T) {
	type list struct {
		Values []int `json:"values" validate:"min=1,dive,gte=0,lte=100000000"`
	}
	for _, bd := range Binders {
		reg := taggedRegistry(bd)
		must(typereg.Register[list](reg, "list"))
		must(typereg.Register[Ints](reg, ToolInts))
		for _, n := range []int{100, 1000, 10000} {
			args := IntsArgs(n)
			if r := refuse.Refuse(reg, "list", args); r != nil {
				t.Fatalf("%s: %d elements: refused: %v", bd.Name(), n, r)
			}
			a := testing.AllocsPerRun(5, func() { _ = refuse.Refuse(reg, "list", args) })
			untagged := testing.AllocsPerRun(5, func() { _ = refuse.Refuse(reg, ToolInts, args) })
			if bd == bind.Std && a != 0 || a != untagged {
				t.Errorf("%s: %d elements, each checked: %v allocations, %v without the tags", bd.Name(), n, a, untagged)
			}
		}
	}
}
