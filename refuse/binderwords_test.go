package refuse_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type perBinderArgs struct {
	N json.Number   `json:"n"`
	D time.Duration `json:"d"`
	Q time.Duration `json:"q,string"`
}

// takesOf returns what a refusal of {} under binder b says each
// parameter of perBinderArgs takes.
func takesOf(t *testing.T, b bind.Binder) map[string]string {
	t.Helper()
	reg := typereg.New(typereg.WithBinder(b))
	if err := typereg.Register[perBinderArgs](reg, "t"); err != nil {
		t.Fatalf("%s: %v", b.Name(), err)
	}
	r := refuse.Refuse(reg, "t", json.RawMessage(`{}`))
	if r == nil {
		t.Fatalf("%s: {} not refused", b.Name())
	}
	got := map[string]string{}
	for _, p := range r.Problems {
		got[p.Argument] = p.Takes
	}
	return got
}

// TestWords_PerBinder_FromItsCapabilities pins the words of the types
// binders read differently (json.Number, time.Duration), as each binder
// reads them, and that a bind.Reader words them as encoding/json whatever
// its name: words follow what a binder reads, never what it is called. It
// failed before binders had capabilities: a Reader named "v2" or
// "segmentio" was refused at registration, because words told binders
// apart by name.
func TestWords_PerBinder_FromItsCapabilities(t *testing.T) {
	std := map[string]string{
		"n": "a number",
		"d": "a whole number of nanoseconds",
		"q": `a whole number inside a JSON string, as in "42"`,
	}
	v2Number := "text (a JSON string)"
	if jsonv2Build {
		v2Number = "a number"
	}
	want := map[string]map[string]string{
		"std": std,
		"v2": {
			"n": v2Number,
			"d": "no value: go-json-experiment reads a time.Duration only under a format tag option",
			"q": "no value: go-json-experiment reads a time.Duration only under a format tag option",
		},
		"segmentio": {
			"n": "a number (not a JSON string)",
			"d": `a whole number of nanoseconds, or a duration as text such as "1s"`,
			"q": `a whole number inside a JSON string, as in "42"`,
		},
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		check := func(who string, got, want map[string]string) {
			for k, w := range want {
				if got[k] != w {
					t.Errorf("%s, %s: takes %q, want %q", who, k, got[k], w)
				}
			}
		}
		check(b.Name(), takesOf(t, b), want[b.Name()])
		check("a Reader named "+b.Name(), takesOf(t, bind.Reader(b.Name(), json.Unmarshal)), std)
	}
}
