package schemacheck

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
)

// FuzzCheck_LossesAgreeWithBind: for a value read into any (as the map
// reader reads every value), Check finds the map reader's failures, the
// text it replaces and the whole numbers it rounds exactly where package
// bind's checker of an `any` field does (past a repeated key, whose
// earlier values are dropped, only the failures).
func FuzzCheck_LossesAgreeWithBind(f *testing.F) {
	for _, v := range []string{`"\ud800"`, `"\ud800\udc00"`, "\"\xff\"", `9007199254740993`, `[1e400]`, `{"a":"\udfff","a":2}`, `-0`, `"\u00e9"`, `123456789012345678901234567890`} {
		f.Add(v)
	}
	plan, err := bind.Std.Compile(reflect.TypeFor[struct {
		S any `json:"s"`
	}]())
	if err != nil {
		f.Fatal(err)
	}
	s, err := Compile([]byte(`{"type":"object","properties":{"s":{}}}`))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, v string) {
		args := []byte(`{"s":` + v + `}`)
		var bf, br, bl, dup, other bool
		for _, is := range plan.Check(args, nil) {
			switch {
			case is.Kind == bind.UnknownArgument:
				// v closed the object and sent a key of its own: the
				// struct drops it, the map reader reads it (its text
				// replaced, its number rounded), so only the failures
				// compare.
				other = true
			case is.Kind == bind.DuplicateKey || is.Of == bind.DuplicateKey:
				// A repeated key's earlier values are dropped whole: the
				// loss is the key, whatever else they lose.
				dup = true
			case is.Kind.Class() == bind.BinderFailure:
				bf = true
			case is.Kind == bind.ReplacedText || is.Of == bind.ReplacedText:
				br = true
			case is.Kind == bind.RoundedNumber || is.Of == bind.RoundedNumber:
				bl = true
			}
		}
		var sf, sr, sl bool
		res := s.Check(args)
		for _, is := range res.Issues {
			switch {
			case is.Class() == bind.BinderFailure:
				sf = true
			case is.Code == bind.ReplacedText:
				sr = true
			case is.Code == bind.RoundedNumber:
				sl = true
			}
		}
		if bf != sf {
			t.Fatalf("%s: fails: bind %v, schemacheck %v (%+v)", args, bf, sf, res.Issues)
		}
		if bf || dup || other {
			return
		}
		if br != sr || bl != sl {
			t.Fatalf("%s: replaced bind %v schemacheck %v; rounded bind %v schemacheck %v", args, br, sr, bl, sl)
		}
	})
}
