//go:build goexperiment.jsonv2

package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
)

// cleanQuotedStruct has a struct under the ,string option, which the
// standard library's v2 reads as without it at the struct, and its
// numbers inside as quoted too (FuzzNativeValues' f55bc410d6019aa4): a
// declined position whose clean reading (the struct's own node) meets a
// string where it reads a number.
type cleanQuotedStruct struct {
	L *nativeLeaf `json:"l,string"`
	N float32     `json:"n"`
}

// TestClean_QuotedStructUnderJSONv2: the clean mode reads a value the
// binder read by a rule the pass does not port (a quoted number inside a
// ,string struct) as the loss walk does, losing nothing there, and goes
// on: the call's other losses are listed, as the trial check's oracle
// lists them; it declined the call before.
func TestClean_QuotedStructUnderJSONv2(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[cleanQuotedStruct]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"l":{"v":"1","f":"16777217","s":"x"},"n":16777217}`,
		`{"l":{"v":1,"next":{"v":"2","f":16777217}},"n":1}`,
	} {
		checkProven(t, plan, []byte(args))
		if _, _, ok := bind.CleanVerdict(plan, []byte(args)); !ok {
			t.Errorf("%s: the clean mode declines it", args)
		}
	}
}

// cleanQuotedAny has an empty interface under the ,string option, which
// the standard library's v2 reads as without it: a declined position the
// binder reads as any (FuzzNativeValues' f3e2b5c3b0e21832).
type cleanQuotedAny struct {
	P *any           `json:"x_y,string"`
	A any            `json:"a,string"`
	N namedAny       `json:"n,string"`
	M map[string]any `json:"m"`
}

// TestClean_QuotedAnyUnderJSONv2: the clean mode reads such a value as an
// any, with the losses of what an any holds (a number its float64
// rounds, at any depth), as the trial check's oracle does. It read it
// whole before, listing none: the first row failed so (Check said
// nothing, the trial check rounded_number).
func TestClean_QuotedAnyUnderJSONv2(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[cleanQuotedAny]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"x_y":9007199254740993}`, `{"x_y":[1,{"k":9007199254740993}]}`, `{"a":9007199254740993,"x_y":null}`,
		`{"n":{"k":[9007199254740993]}}`, `{"x_y":"9007199254740993","a":true,"n":null}`, `{"m":{"k":1},"a":1.5}`,
	} {
		checkProven(t, plan, []byte(args))
		if _, _, ok := bind.CleanVerdict(plan, []byte(args)); !ok {
			t.Errorf("%s: the clean mode declines it", args)
		}
	}
}
