package contain_test

import (
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/internal/contain"
)

// TestDecode_RunsTheBinderItIsGiven_WhateverItsName: Decode runs V2's
// tamed decode for V2 itself (its capability), and a server's own reader
// as it is, even one named "v2". It failed while Decode asked the name: a
// Reader named "v2" never ran, V2 decoded the call in its place.
func TestDecode_RunsTheBinderItIsGiven_WhateverItsName(t *testing.T) {
	for _, name := range []string{"v2", "segmentio", "std", "mine"} {
		ran := false
		r := bind.Reader(name, func(data []byte, v any) error {
			ran = true
			return nil
		})
		var v struct{ N int }
		if err := contain.Decode(r, []byte(`{"N":"not a number"}`), &v); err != nil || !ran {
			t.Errorf("a Reader named %q: ran %v, error %v; want its own decode, which reads anything", name, ran, err)
		}
	}
	var v struct{ N int }
	if err := contain.Decode(jsonv2.Binder, []byte(`{"N":"not a number"}`), &v); err == nil {
		t.Error("V2 read a string into an int")
	}
}
