package bind_test

import (
	"encoding/json"
	"math/big"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
)

// A ,string float's text that the binder reads but cannot hold exactly is
// Rounded, whatever the build lets through: under GOEXPERIMENT=jsonv2
// encoding/json also reads a plus sign and leading zeros there.
func TestStd_QuotedFloatRoundedInEveryBuild(t *testing.T) {
	type args struct {
		F float64 `json:"f,string"`
	}
	plan, err := bind.Std.Compile(reflect.TypeFor[args]())
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"9007199254740993", "+9007199254740993", "-9007199254740993", "009007199254740993",
		"+009007199254740993", "9007199254740992", "+9007199254740992", "+7", "+0"} {
		raw := []byte(`{"f":"` + text + `"}`)
		var v args
		if json.Unmarshal(raw, &v) != nil {
			continue // refused in this build: not a loss
		}
		want, _ := new(big.Int).SetString(strings.TrimPrefix(text, "+"), 10)
		got, _ := big.NewFloat(v.F).Int(nil)
		rounded := got.Cmp(want) != 0
		var has bool
		for _, is := range plan.Check(raw, nil) {
			if is.Kind == bind.RoundedNumber {
				has = true
			}
		}
		if has != rounded {
			t.Errorf("%s: Rounded reported %v; the binder read %v", raw, has, v.F)
		}
	}
}
