package bind_test

import (
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// deepWideLeaves are the values a deep-and-wide call repeats: values each
// position reads, fails on, or reads with a loss.
var deepWideLeaves = []string{`1`, `1.5`, `"x"`, `null`, `9007199254740993`, `true`, `{}`, `[]`, "\"\xff\"", `{"v":"x"}`, `{"v":1,"V":2}`}

// deepWideCall builds a call whose argument (chosen by field) nests depth
// levels (objects where bit i of kinds is set, else arrays), each level
// holding width copies of leaf beside the next level.
func deepWideCall(field byte, depth, width int, kinds uint64, leaf string) string {
	leaves := strings.TrimSuffix(strings.Repeat(leaf+",", width), ",")
	switch field % 3 {
	case 0: // any: arrays and objects of anything
		var open, close strings.Builder
		for i := range depth {
			if kinds>>(i%64)&1 == 1 {
				open.WriteString(`{"w":[` + leaves + `],"k":`)
				close.WriteString(`}`)
			} else {
				open.WriteString(`[` + leaves + `,`)
				close.WriteString(`]`)
			}
		}
		return `{"any":` + open.String() + leaf + reverse(close.String()) + `}`
	case 1: // a recursive struct: next at every level, kids of width leaves
		var b strings.Builder
		b.WriteString(`{"node":`)
		for range depth {
			b.WriteString(`{"kids":[` + strings.TrimSuffix(strings.Repeat(`{"v":`+leaf+`},`, width), ",") + `],"next":`)
		}
		b.WriteString(`{"v":` + leaf + `}` + strings.Repeat("}", depth) + `}`)
		return b.String()
	default: // a map of interfaces: objects in objects, width keys a level
		var b strings.Builder
		b.WriteString(`{"meta":`)
		for i := range depth {
			b.WriteString(`{`)
			for j := range width {
				b.WriteString(`"m` + string(rune('a'+j%26)) + `":` + leaf + `,`)
			}
			if kinds>>(i%64)&1 == 1 {
				b.WriteString(`"ma":` + leaf + `,`) // a repeated key
			}
			b.WriteString(`"n":`)
		}
		b.WriteString(leaf + strings.Repeat("}", depth) + `}`)
		return b.String()
	}
}

func reverse(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// FuzzCheck_DeepAndWide: calls deep, wide and with many problems at once
// (the shapes of issue 10's cost section, at fuzzed sizes and values) get
// every binder's own verdict, every issue's path stays within its bound
// however deep the problem lies, and the work Check does (bind.WorkDone:
// the bytes it reads, hands the binder and writes as paths) stays within
// a constant a byte of the call.
func FuzzCheck_DeepAndWide(f *testing.F) {
	for i := range deepWideLeaves {
		f.Add(byte(i), uint8(3+i), uint8(1+i%4), uint64(0x5555), uint8(i), "")
	}
	f.Add(byte(0), uint8(40), uint8(30), uint64(0xf0f0), uint8(4), "")
	f.Add(byte(1), uint8(60), uint8(5), uint64(0), uint8(1), "")
	f.Add(byte(2), uint8(50), uint8(20), uint64(0xffff), uint8(10), `"y"`)
	plans := map[string]*bind.Plan{}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plans[b.Name()] = growthPlan(f, b, true)
	}
	f.Fuzz(func(t *testing.T, field byte, depth, width uint8, kinds uint64, leafAt uint8, leaf string) {
		if leaf == "" || len(leaf) > 64 {
			leaf = deepWideLeaves[int(leafAt)%len(deepWideLeaves)]
		}
		d, w := int(depth)%80, 1+int(width)%40
		args := []byte(deepWideCall(field, d, w, kinds, leaf))
		for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
			for _, is := range checkAgainst(t, plans[b.Name()], args) {
				if len(is.Path.String()) > 5000 {
					t.Fatalf("%s: a path of %d bytes for a call nested %d deep", b.Name(), len(is.Path.String()), d)
				}
			}
			w0 := bind.WorkDone()
			plans[b.Name()].Check(args, nil)
			if work := bind.WorkDone() - w0; work > 64*int64(len(args))+16<<10 {
				t.Fatalf("%s: %d bytes of work for a call of %d bytes (%d deep, %d wide)", b.Name(), work, len(args), d, w)
			}
		}
	})
}
