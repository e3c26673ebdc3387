//go:build goexperiment.jsonv2

package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	bindv2 "github.com/bindguard/bindguard/bind/jsonv2"
)

// TestV2_AmbiguousFoldIsLost holds, under GOEXPERIMENT=jsonv2, the
// verdict of a key two case:ignore fields fold alike to the standard
// library's v2's own decode: it binds the key to one of them (the first
// in breadth-first order) without failing, by folding its case, so the
// handler gets a value the caller sent under another name: a FoldedKey
// loss, as for a key one case:ignore field folds to.
func TestV2_AmbiguousFoldIsLost(t *testing.T) {
	plan, err := bindv2.Binder.Compile(reflect.TypeFor[nativeFolds]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"AB":1}`, `{"ab":1,"c":2}`, `{"a-b":1}`, `{"ID":1}`} {
		var v nativeFolds
		if err := bindv2.Binder.Unmarshal([]byte(args), &v); err != nil {
			t.Fatalf("%s: v2 fails: %v", args, err)
		}
		if v.A == 0 && v.B == 0 && v.ID == 0 {
			t.Fatalf("%s: v2 binds no field: %+v", args, v)
		}
		checkProven(t, plan, []byte(args))
		got := kindsOf(plan.Check([]byte(args), nil))
		if len(got) != 1 || got[0] != bind.FoldedKey {
			t.Errorf("%s: v2 reads %+v; the guard says %v, want [%s]", args, v, got, bind.FoldedKey)
		}
	}
}
