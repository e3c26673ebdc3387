package refuse_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	ht "github.com/bindguard/bindguard/internal/hostile"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// A hostileCase registers ht.Args of one fault.
type hostileCase struct {
	fault    string
	register func(reg *typereg.Registry, tool string) error
}

func registerHostile[F ht.Fault](reg *typereg.Registry, tool string) error {
	return typereg.Register[ht.Args[F]](reg, tool)
}

var hostileCases = []hostileCase{
	{"UnwrapPanics", registerHostile[ht.UnwrapPanics]},
	{"UnwrapSelf", registerHostile[ht.UnwrapSelf]},
	{"UnwrapCycle", registerHostile[ht.UnwrapCycle]},
	{"UnwrapWide", registerHostile[ht.UnwrapWide]},
	{"ErrorPanics", registerHostile[ht.ErrorPanics]},
	{"ErrorHuge", registerHostile[ht.ErrorHuge]},
	{"IsAsPanic", registerHostile[ht.IsAsPanic]},
	{"PanicsWith", registerHostile[ht.PanicsWith]},
	{"WrapsSelf", registerHostile[ht.WrapsSelf]},
}

// decideWithin runs Decide in its own goroutine and fails the test when it
// panics or takes longer than a generous limit (a spin would never end).
func decideWithin(t *testing.T, reg *typereg.Registry, tool, args string) refuse.Decision {
	t.Helper()
	type result struct {
		d     refuse.Decision
		panic any
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{panic: r}
			}
		}()
		done <- result{d: refuse.Decide(reg, tool, []byte(args))}
	}()
	select {
	case r := <-done:
		if r.panic != nil {
			t.Fatalf("Decide(%s) panicked: %s", args, fmt.Sprint(r.panic)[:min(200, len(fmt.Sprint(r.panic)))])
		}
		return r.d
	case <-time.After(20 * time.Second):
		t.Fatalf("Decide(%s) did not return within 20s", args)
	}
	panic("unreachable")
}

// A type's own decoding method that fails with an error whose methods
// misbehave (an Unwrap that panics, returns itself, forms a cycle or a
// million-wide tree; an Error that panics or returns 10 MB; Is and As that
// panic; a panic with such an error) is refused, under every binder, and
// Decide returns: the binder fails on the value (or panics), and the guard
// calls the error's methods only within a bound. The refusal's text stays
// short whatever the error's text is.
func TestDecide_HostileErrorFromUsersMethod_RefusedAndReturns(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		for _, c := range hostileCases {
			t.Run(b.Name()+"/"+c.fault, func(t *testing.T) {
				reg := typereg.New(typereg.WithBinder(b))
				if err := c.register(reg, "hostile"); err != nil {
					t.Fatal(err)
				}
				for _, args := range []string{
					`{"j":2}`,
					`{"t":"bad"}`,
					`{"j":2,"n":9}`,
					`{"j":1,"t":"bad","n":9}`,
				} {
					d := decideWithin(t, reg, "hostile", args)
					if d.Refusal == nil {
						t.Errorf("%s: not refused", args)
						continue
					}
					if n := len(d.Refusal.Error()); n > 4000 {
						t.Errorf("%s: the refusal's text is %d bytes", args, n)
					}
				}
				// The methods succeed: the call passes.
				if d := decideWithin(t, reg, "hostile", `{"j":1,"t":"ok","n":5}`); d.Refusal != nil {
					t.Errorf("a good call is refused: %v", d.Refusal)
				}
			})
		}
	}
}

var countedRuns atomic.Int64

// counted decodes a number, and fails on 2 and on null; it counts its runs.
type counted struct{ V int }

func (c *counted) UnmarshalJSON(b []byte) error {
	countedRuns.Add(1)
	if string(b) == "2" || string(b) == "null" {
		return errors.New("counted: not 2, not null")
	}
	return json.Unmarshal(b, &c.V)
}

type countedArgs struct {
	C counted `json:"c"`
}

type countedTagged struct {
	C counted `json:"c"`
	N int     `json:"n,omitempty" validate:"max=5"`
}

// How often Decide runs a type's own method per call, as
// docs/how-it-works.md ("How often a method runs") states it: once for a
// call the binder reads, with validate tags or without (once more when the
// compiled constraints cannot judge the call from its text, here a null the
// binder drops for an int), once for one it fails on (the one pass of
// each binder decodes the value alone, and names the argument from that
// decode); a null the method fails on costs one run under Std, not two.
func TestDecide_UsersMethodRuns_AsDocumented(t *testing.T) {
	for _, tc := range []struct {
		binder bind.Binder
		tagged bool
		args   string
		runs   int64
	}{
		{bind.Std, false, `{"c":1}`, 1},
		{bind.Std, true, `{"c":1}`, 1},
		{bind.Std, true, `{"c":1,"n":null}`, 2},
		{bind.Std, false, `{"c":2}`, 1},
		{bind.Std, false, `{"c":null}`, 1},
		{jsonv2.Binder, false, `{"c":1}`, 1},
		{jsonv2.Binder, true, `{"c":1}`, 1},
		{jsonv2.Binder, true, `{"c":1,"n":null}`, 2},
		{jsonv2.Binder, false, `{"c":2}`, 1},
		{segmentio.Binder, false, `{"c":1}`, 1},
		{segmentio.Binder, true, `{"c":1}`, 1},
		{segmentio.Binder, true, `{"c":1,"n":null}`, 2},
		{segmentio.Binder, false, `{"c":2}`, 1},
	} {
		reg := typereg.New(typereg.WithBinder(tc.binder))
		var err error
		if tc.tagged {
			err = typereg.Register[countedTagged](reg, "t")
		} else {
			err = typereg.Register[countedArgs](reg, "t")
		}
		if err != nil {
			t.Fatal(err)
		}
		countedRuns.Store(0)
		refuse.Decide(reg, "t", []byte(tc.args))
		if got := countedRuns.Load(); got != tc.runs {
			t.Errorf("%s tagged=%v %s: the method ran %d times, want %d", tc.binder.Name(), tc.tagged, tc.args, got, tc.runs)
		}
	}
}

var countedKeyRuns atomic.Int64

// countedKey is a map key read by its UnmarshalText, which fails on "2"
// and counts its runs.
type countedKey string

func (k *countedKey) UnmarshalText(b []byte) error {
	countedKeyRuns.Add(1)
	if string(b) == "2" {
		return errors.New("countedKey: not 2")
	}
	*k = countedKey(b)
	return nil
}

type countedKeyArgs struct {
	M map[countedKey]int `json:"m"`
	I int                `json:"i"`
}

// How often Decide runs a map key type's UnmarshalText per call, as
// docs/how-it-works.md ("How often a method runs") states it: under Std,
// once per key in the binder's decode and, of a map it reads, once more
// per key as the check tells them apart; under V2 and SegmentIO, by the one pass, none on a repeated name
// under V2 (which fails on it first) and none past the argument's first
// failure, where the binder stops.
func TestDecide_KeyMethodRuns_AsDocumented(t *testing.T) {
	for _, tc := range []struct {
		binder bind.Binder
		args   string
		runs   int64
	}{
		{bind.Std, `{"m":{"a":1,"b":1}}`, 4},
		{bind.Std, `{"m":{"a":1,"a":1}}`, 4},
		{bind.Std, `{"m":{"2":1,"b":1}}`, map[bool]int64{false: 1, true: 2}[jsonv2Build]}, // encoding/json on v2 reads on past the key it fails on
		{jsonv2.Binder, `{"m":{"a":1,"b":1}}`, 2},
		{jsonv2.Binder, `{"m":{"2":1,"b":1,"c":1}}`, 1},
		{jsonv2.Binder, `{"m":{"a":1,"a":1}}`, 1},
		{segmentio.Binder, `{"m":{"a":1,"b":1}}`, 2},
		{segmentio.Binder, `{"m":{"2":1,"b":1,"c":1}}`, 1},
		{segmentio.Binder, `{"m":{"a":1,"a":1}}`, 2},
	} {
		reg := typereg.New(typereg.WithBinder(tc.binder))
		if err := typereg.Register[countedKeyArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		countedKeyRuns.Store(0)
		refuse.Decide(reg, "t", []byte(tc.args))
		if got := countedKeyRuns.Load(); got != tc.runs {
			t.Errorf("%s %s: the method ran %d times, want %d", tc.binder.Name(), tc.args, got, tc.runs)
		}
	}
}
