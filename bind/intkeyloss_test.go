package bind_test

import (
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// TestCheck_IntegerKeyReadAsAnother: for every binder, a key of a map of
// integer keys that the binder reads as an integer other than the one its
// text spells (segmentio's "null", read as 0 as under GOEXPERIMENT=jsonv2
// encoding/json's is; a wrapped one) is a silent loss at the key, and one
// it reads as the integer spelt (space after it, a '+' or leading zeros
// where the binder takes them) is none. The oracle is the key the binder
// decoded, not the check's rules: the check said nothing of "null" under
// segmentio before (FuzzCheck_CleanCallsRoundTrip found it).
func TestCheck_IntegerKeyReadAsAnother(t *testing.T) {
	type keyed struct {
		S map[int64]int `json:"s"`
		U map[uint8]int `json:"u"`
	}
	keys := append(slices.Clone(segIntKeys), "21000000000000000000", "-9223372036854775809", "null\t", "1  ", "nu\\u006cl", "+1", "00")
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[keyed]())
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range keys {
			for _, field := range []string{"s", "u"} {
				args := `{"` + field + `":{"` + k + `":1}}`
				var v keyed
				if b.Unmarshal([]byte(args), &v) != nil {
					continue // the binder fails: a failure, held elsewhere
				}
				var read string
				for key := range v.S {
					read = fmt.Sprint(key)
				}
				for key := range v.U {
					read = fmt.Sprint(key)
				}
				var text string
				if json.Unmarshal([]byte(`"`+k+`"`), &text) != nil {
					t.Fatalf("%q: not a JSON string's text", k)
				}
				spelt, ok := new(big.Int).SetString(strings.TrimRight(text, " \t\r\n"), 10)
				want := !ok || spelt.String() != read
				issues := plan.Check([]byte(args), nil)
				got := len(issues) == 1 && issues[0].Kind.Class() == bind.SilentLoss &&
					issues[0].Start == len(field)+5 && issues[0].End == len(field)+7+len(k)
				if got != want || !want && len(issues) != 0 {
					t.Errorf("%s %s: %s reads the key as %s; Check says %v, want a loss at the key: %v", b.Name(), args, b.Name(), read, issues, want)
				}
			}
		}
	}
}
