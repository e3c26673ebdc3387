package bind_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// TestCheck_NullByteElement: a null element of a list read into a []byte
// (segmentio and encoding/json read a list of byte values as well as
// base64), a list of a named byte (V2 too) or a byte array is left 0, a
// silent loss (NullForValue) at the null, on every binder that reads the
// call; the decoded value is the oracle (the element is 0). Under
// segmentio the pass read a []byte's null elements as a pointer's, and
// the clean mode read a named byte's list whole: both said nothing.
func TestCheck_NullByteElement(t *testing.T) {
	type bytesArgs struct {
		B  []byte            `json:"b"`
		NB []cleanByte       `json:"nb"`
		A  [2]byte           `json:"a"`
		P  *[]byte           `json:"p"`
		L  [][]byte          `json:"l"`
		M  map[string][]byte `json:"m"`
		NP []*cleanByte      `json:"np"` // a pointer holds null: no loss
	}
	rows := []string{
		`{"b":[null]}`, `{"b":[1,null,2]}`, `{"nb":[null]}`, `{"nb":[7,null]}`, `{"a":[null,1]}`,
		`{"p":[3,null]}`, `{"l":[[1],[null]]}`, `{"m":{"k":[null]}}`, `{"np":[null]}`, `{"b":[1,2]}`,
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[bytesArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range rows {
			var v bytesArgs
			if b.Unmarshal([]byte(args), &v) != nil {
				continue // V2 reads no list into a []byte
			}
			var want []string
			if at := strings.Index(args, "null"); at >= 0 && !strings.Contains(args, `"np"`) {
				want = append(want, fmt.Sprintf("%s [%d,%d)", bind.NullForValue, at, at+4))
			}
			var got []string
			for _, is := range plan.Check([]byte(args), nil) {
				got = append(got, fmt.Sprintf("%s [%d,%d)", is.Kind, is.Start, is.End))
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s %s: read as %+v; Check says %v, want %v", b.Name(), args, v, got, want)
			}
		}
	}
}
