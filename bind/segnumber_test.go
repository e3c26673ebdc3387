package bind_test

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segQuotedNumbers holds json.Numbers under ,string: at the top level,
// behind a pointer, nested.
type segQuotedNumbers struct {
	N json.Number  `json:"n,string"`
	P *json.Number `json:"p,string"`
	I struct {
		N json.Number `json:"n,string"`
	} `json:"i"`
}

// TestSegmentIO_QuotedNumber: segmentio reads a ,string json.Number as
// decodeFromString with decodeNumber: a JSON string whose text is a JSON
// number (any, of no range, kept as its text) or null, then only space.
// The pass's verdict is the trial check's, held to segmentio's own decode:
// the guard fails exactly when segmentio does (checkProven), and what it
// reads is the number sent.
func TestSegmentIO_QuotedNumber(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[segQuotedNumbers]())
	if err != nil {
		t.Fatal(err)
	}
	values := append([]string{"1e400", "-0.0", "01", "1 ", " 1", "1x", "x", "", `"1"`, "[1]", `{"a":1}`, "null "}, genFloats...)
	for _, v := range values {
		q := strconv.Quote(v)
		for _, args := range []string{`{"n":` + q + `}`, `{"n":` + v + `}`, `{"p":` + q + `}`, `{"i":{"n":` + q + `}}`, `{"i":{"n":` + v + `}}`} {
			checkProven(t, plan, []byte(args))
			if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok {
				t.Errorf("%s: the pass declines", args)
			}
			var got segQuotedNumbers
			if err := segmentio.Binder.Unmarshal([]byte(args), &got); err == nil && isValidNum(v) {
				if n := string(got.N) + string(got.I.N); n != v && got.P == nil {
					t.Errorf("%s: segmentio reads %q", args, n)
				}
			}
		}
	}
}

// isValidNum reports whether s is a JSON number, no space around it.
func isValidNum(s string) bool {
	var n json.Number
	return s != "" && (s[0] == '-' || '0' <= s[0] && s[0] <= '9') && strings.TrimSpace(s) == s && json.Unmarshal([]byte(s), &n) == nil
}
