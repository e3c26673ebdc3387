package bench

import (
	"context"
	"encoding/json"
	"testing"
)

// TestVerdicts checks, without timing anything, that every rival gives the
// expected verdict on every payload (the same check each benchmark makes
// before its timer starts).
func TestVerdicts(t *testing.T) {
	ctx := context.Background()
	for _, p := range Payloads() {
		for _, rival := range subBenchmarks() {
			if Expected(p, rival) == Cannot {
				continue
			}
			reg := registryFor(rival)
			if testing.Short() && rival == RivalSanthosh && p.Name == "Number1MDigits" {
				continue // seconds and gigabytes: the benchmark checks it
			}
			call, cleanup := Setup(ctx, reg, p, rival)
			if err := CheckVerdict(p, rival, call); err != nil {
				t.Error(err)
			}
			cleanup()
		}
	}
}

// TestPayloads checks the payloads are what the issue describes.
func TestPayloads(t *testing.T) {
	for _, p := range Payloads() {
		if !json.Valid(p.Args) {
			t.Errorf("%s: not valid JSON", p.Name)
		}
		err := Bind(p)
		if (err == nil) != p.BindOK {
			t.Errorf("%s: bind error %v, want ok=%v", p.Name, err, p.BindOK)
		}
	}
	if n := len(TypicalArgs); n < 190 || n > 220 {
		t.Errorf("the typical call is %d bytes, want about 200", n)
	}
	var typ Typical
	if err := json.Unmarshal([]byte(TypicalArgs), &typ); err != nil || typ.Cursor == nil || typ.Window.To == "" || len(typ.Tags) == 0 {
		t.Errorf("the typical call does not set every field: %+v, %v", typ, err)
	}
	if n := len(PayloadNamed("Text1MB").Args); n < 1<<20 {
		t.Errorf("the 1 MB call is %d bytes", n)
	}
	var s Strings
	if err := json.Unmarshal(PayloadNamed("Strings200").Args, &s); err != nil || len(s.Items) != 200 {
		t.Errorf("Strings200: %d items, %v", len(s.Items), err)
	}
	var ints Ints
	if err := json.Unmarshal(PayloadNamed("Ints100k").Args, &ints); err != nil || len(ints.Values) != 100_000 {
		t.Errorf("Ints100k: %d values, %v", len(ints.Values), err)
	}
	var keys Keys
	if err := json.Unmarshal(PayloadNamed("Keys10k").Args, &keys); err != nil || len(keys.Counts) != 10_000 {
		t.Errorf("Keys10k: %d keys, %v", len(keys.Counts), err)
	}
	var unknown map[string]int
	if err := json.Unmarshal(PayloadNamed("UnknownKeys10k").Args, &unknown); err != nil || len(unknown) != 10_000 || unknown["counts"] != 0 {
		t.Errorf("UnknownKeys10k: %d keys, %v", len(unknown), err)
	}
	// 9,999 arrays in the arguments object: 10,000 levels, encoding/json's
	// limit; one more and the binder refuses the text.
	if err := json.Unmarshal(NestedArgs(10_000), new(Nested)); err == nil {
		t.Errorf("encoding/json read 10,001 levels; NestedArgs(9999) is not the deepest readable call")
	}
}

// TestGoSDKReproduction checks that the reproduced go-sdk pre-handler path
// gives the same verdict as the real one through a session, on every payload
// the session can carry.
func TestGoSDKReproduction(t *testing.T) {
	ctx := context.Background()
	reg := Registry()
	for _, p := range Payloads() {
		if Expected(p, RivalGoSDKSession) == Cannot {
			continue
		}
		_, repro := NewGoSDK(p.Type).Check(p.Args)
		s := NewGoSDKSession(ctx, reg, p, true)
		real := s.Call(ctx)
		s.Close()
		if (repro == nil) != (real == nil) {
			t.Errorf("%s: reproduction says %v, the session says %v", p.Name, repro, real)
		}
	}
}
