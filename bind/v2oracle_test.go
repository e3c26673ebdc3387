package bind_test

import (
	"errors"
	"reflect"
	"strconv"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

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

// TestV2_BadKeyErrorListed holds the verdict of a call with a top-level
// key V2 fails on (invalid UTF-8, a lone surrogate escape) to
// go-json-experiment's own error: V2 stops at the first thing it fails
// on, so where that is the key (nothing before it fails), its error,
// InvalidJSON at the byte V2's error names, is listed whatever fails
// after it; where something before it fails, V2 never reads the key and
// its error is not listed.
func TestV2_BadKeyErrorListed(t *testing.T) {
	for _, tc := range []struct {
		fixed int // index in nativeFixed
		args  string
	}{
		{1, "{\"\xff\":1,\"i\":\"x\"}"},
		{1, `{"\ud800":1,"i":"x"}`},
		{1, `{"i":1,"\ud800":1,"s":5,"n":{"x":"y"}}`},
		{1, `{"\ud800":{"a":"\ud800"},"i":"x"}`},
		{1, `{"\ud800":1}`},
		{1, `{"i":"x","\ud800":1}`},
		{1, `{"i":1,"i":2,"\ud800":1}`},
		{0, `{"\ud800":1,"count":1,"count":2}`},
	} {
		plan, err := bindv2.Binder.Compile(nativeFixed[tc.fixed])
		if err != nil {
			t.Fatal(err)
		}
		args := []byte(tc.args)
		decErr := jsonv2.Unmarshal(args, reflect.New(plan.Type()).Interface())
		if decErr == nil {
			t.Fatalf("%s: go-json-experiment reads it", args)
		}
		var at int64 = -1
		var syn *jsontext.SyntacticError
		if errors.As(decErr, &syn) {
			at = syn.ByteOffset
		}
		atKey := at >= 0 && at < int64(len(args)) && args[at] != '"' && !(args[at] >= '0' && args[at] <= '9')
		checkProven(t, plan, args)
		listed := false
		for _, is := range plan.Check(args, nil) {
			listed = listed || is.Kind == bind.InvalidJSON && int64(is.Start) == at && is.Param < 0
		}
		if listed != atKey {
			t.Errorf("%s: go-json-experiment fails at %d (%v); the guard lists InvalidJSON there: %v, want %v (%s)", args, at, decErr, listed, atKey, brief(plan.Check(args, nil)))
		}
		if _, _, ok := bind.NativeVerdict(plan, args); !ok {
			t.Errorf("%s: the pass declines", args)
		}
	}
}
