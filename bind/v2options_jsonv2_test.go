//go:build goexperiment.jsonv2

package bind_test

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
)

// v2OwnStrings: the standard library's v2 reads ,string on bools and
// strings as without it, quotes numbers inside slices, and reads
// json.Number as a number: the pass declines those.
const v2OwnStrings = false

// v2Formats has format: options the standard library's v2 reads natively
// (go-json-experiment fails on every object of such a struct).
type v2Formats struct {
	Hex  []byte   `json:"hex,format:hex"`
	B16  [2]byte  `json:"b16,format:base16"`
	URL  []byte   `json:"url,format:base64url"`
	B32  *[5]byte `json:"b32,format:base32"`
	B32H []byte   `json:"b32h,format:base32hex"`
	B64  [3]byte  `json:"b64,format:base64"`
	Arr  [2]byte  `json:"arr,format:array"`
	NF   float64  `json:"nf,format:nonfinite"`
	NF32 *float32 `json:"nf32,format:nonfinite"`
	SA   []byte   `json:"sa,format:array"`
	X    int      `json:"x"`
}

// TestNative_V2Formats: under GOEXPERIMENT=jsonv2 the pass gives the
// verdict of format: fields V2 reads natively, the trial check's, with
// the kinds each row wants; a format it does not model it declines.
func TestNative_V2Formats(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[v2Formats]())
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("00", 300)
	for _, tc := range []struct {
		args string
		want []bind.Code
	}{
		{`{"hex":"00ff` + long + `","b16":"0A0b","url":"-_8=","b32":"MFRGGZDF","b32h":"C5H66===","b64":"AAEC","arr":[1,2],"x":1}`, nil},
		{`{"nf":"NaN","nf32":"-Infinity"}`, nil},
		{`{"nf":1.5,"nf32":null,"hex":null,"b32":null}`, nil},
		{`{"nf":"N\u0061N"}`, nil},
		{`{"hex":"0"}`, []bind.Code{bind.InvalidValue}},
		{`{"hex":"zz"}`, []bind.Code{bind.InvalidValue}},
		{`{"hex":"` + long + `0"}`, []bind.Code{bind.InvalidValue}},
		{`{"b16":"00"}`, []bind.Code{bind.InvalidValue}},
		{`{"url":"+/8="}`, []bind.Code{bind.InvalidValue}},
		{`{"b32":"MFRGGZD="}`, []bind.Code{bind.InvalidValue}},
		{`{"b32":"MFRG"}`, []bind.Code{bind.InvalidValue}},
		{`{"b32h":"C5H66===C5H66==="}`, []bind.Code{bind.InvalidValue}},
		{`{"b32h":"C5H6\n6==="}`, []bind.Code{bind.InvalidValue}},
		{`{"b64":"AAE="}`, []bind.Code{bind.InvalidValue}},
		{`{"arr":[1,2,3]}`, []bind.Code{bind.InvalidValue}},
		{`{"arr":"AAE="}`, []bind.Code{kWrong}},
		{`{"arr":[1,256]}`, []bind.Code{kLarge}},
		{`{"hex":[1]}`, []bind.Code{kWrong}},
		{`{"nf":"nan"}`, []bind.Code{kWrong}},
		{`{"nf":"1.5"}`, []bind.Code{kWrong}},
		{`{"nf":1e400}`, []bind.Code{kLarge}},
		{`{"nf":9007199254740993}`, []bind.Code{kRounded}},
		{`{"nf":null}`, []bind.Code{kNull}},
		{`{"nf32":true}`, []bind.Code{kWrong}},
	} {
		args := []byte(tc.args)
		checkProven(t, plan, args)
		got, _, ok := bind.NativeVerdict(plan, args)
		if !ok {
			t.Errorf("%.60q: the pass declines (trial: %v)", tc.args, kindsOf(bind.TrialCheck(plan, args, nil)))
			continue
		}
		if kinds := kindsOf(got); !slices.Equal(kinds, tc.want) {
			t.Errorf("%.60q: %v, want %v", tc.args, kinds, tc.want)
		}
	}
	for _, args := range []string{`{"sa":[1,2]}`} { // a []byte as an array: the loss walk reads it as base64 text
		checkProven(t, plan, []byte(args))
		if _, _, ok := bind.NativeVerdict(plan, []byte(args)); ok {
			t.Errorf("%q: the pass gives a verdict", args)
		}
	}
}
