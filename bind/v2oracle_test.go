package bind_test

import (
	"errors"
	"reflect"
	"strconv"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/bindguard/bindguard/bind"
	bindv2 "github.com/bindguard/bindguard/bind/jsonv2"
)

// TestV2_QuotedNumberKindIsV2s holds the kind the guard gives a ,string
// number V2 fails on to go-json-experiment's own error, nested or not: V2
// parses the quoted text as a number at any depth and says why it failed
// (strconv.ErrRange: a number out of range, TooLarge / TooSmall;
// strconv.ErrSyntax: text it does not read as the integer, which, when
// the text is a JSON number with a fraction or exponent, is
// NotWholeNumber, and else WrongType). The same text gets the same kind
// in an argument's own value and in a nested struct's field, from the
// pass and the trial check alike.
func TestV2_QuotedNumberKindIsV2s(t *testing.T) {
	plan, err := bindv2.Binder.Compile(reflect.TypeFor[v2Opts]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		text string
		want bind.Code
	}{
		{`"1.5"`, kNotWhole},
		{`"1e2"`, kNotWhole},
		{`"300000000000000000000"`, kLarge},
		{`"-300000000000000000000"`, kSmall},
		{`"x"`, kWrong},
		{`"007"`, kWrong},
	} {
		for _, args := range []string{`{"i":` + tc.text + `}`, `{"in":{"q":` + tc.text + `}}`} {
			var v v2Opts
			decErr := jsonv2.Unmarshal([]byte(args), &v)
			var se *jsonv2.SemanticError
			if !errors.As(decErr, &se) {
				t.Fatalf("%s: go-json-experiment: %v, want a semantic error", args, decErr)
			}
			ranged := errors.Is(se.Err, strconv.ErrRange)
			if !ranged && !errors.Is(se.Err, strconv.ErrSyntax) {
				t.Fatalf("%s: go-json-experiment's error %v is no number's", args, decErr)
			}
			if ranged != (tc.want == kLarge || tc.want == kSmall) {
				t.Fatalf("%s: go-json-experiment says out of range: %v; the row wants %s", args, ranged, tc.want)
			}
			checkProven(t, plan, []byte(args))
			got := kindsOf(plan.Check([]byte(args), nil))
			if len(got) != 1 || got[0] != tc.want {
				t.Errorf("%s: the guard says %v, want %s (go-json-experiment: %v)", args, got, tc.want, decErr)
			}
		}
	}
}
