package bind_test

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	segjson "github.com/segmentio/encoding/json"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segKeyMaps holds maps of integer keys, as arguments, in a list, in a
// map and with a struct for a value.
type segKeyMaps struct {
	MI map[int]int `json:"mi"`
	MS map[int]struct {
		A int `json:"a"`
	} `json:"ms"`
	MM map[int]map[int8]int `json:"mm"`
	S  []map[uint]bool      `json:"s"`
	P  *map[int64]string    `json:"p"`
}

// TestSegmentIO_IntKeyValueFailures: a value segmentio fails on under an
// integer key whose text is not the integer it reads ("null" is 0, "-0"
// 0, "1 " 1, a 20-digit key the number it wraps to) is the one pass's
// verdict, the trial check's, at the value the call sent: held to
// segmentio's own error, whose path names the key by the integer read
// (fmt.Sprint) and whose type is the value's.
func TestSegmentIO_IntKeyValueFailures(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[segKeyMaps]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args    string
		pointer string // the issue's path
		field   string // the end of segmentio's error path
		kind    bind.Code
	}{
		{`{"mi":{"null":"x"}}`, "/mi/null", "mi.0", bind.WrongType},
		{`{"mi":{"-0":"x"}}`, "/mi/-0", "mi.0", bind.WrongType},
		{`{"mi":{"1 ":"x"}}`, "/mi/1 ", "mi.1", bind.WrongType},
		{`{"mi":{"7\t\n":1.5}}`, "/mi/7\t\n", "mi.7", bind.NotWholeNumber},
		{`{"mi":{"21000000000000000000":"x"}}`, "/mi/21000000000000000000", "mi.2553255926290448384", bind.WrongType},
		{`{"mi":{"2":1,"null":true,"3":"y"}}`, "/mi/null", "mi.0", bind.WrongType},
		{`{"ms":{"null":{"a":"x"}}}`, "/ms/null/a", "ms.0.a", bind.WrongType},
		{`{"mm":{"null":{"1 ":"x"}}}`, "/mm/null/1 ", "mm.0.1", bind.WrongType},
		{`{"mm":{"1":{"-0":9223372036854775808}}}`, "/mm/1/-0", "mm.1.0", bind.TooLarge},
		{`{"s":[{},{"2 ":1}]}`, "/s/1/2 ", "s.1.2", bind.WrongType},
		{`{"p":{"null":1}}`, "/p/null", "p.0", bind.WrongType},
		{`{"mi":{"null":1},"ms":{"-0 ":{"a":[]}}}`, "/ms/-0 /a", "ms.0.a", bind.WrongType},
	} {
		args := []byte(tc.args)
		issues, ok := decidedProven(t, plan, args)
		if !ok {
			continue
		}
		var v segKeyMaps
		var te *segjson.UnmarshalTypeError
		if err := segmentio.Binder.Unmarshal(args, &v); !errors.As(err, &te) {
			t.Fatalf("%q: segmentio: %v, want a type error", tc.args, err)
		}
		if te.Field != tc.field && !strings.HasSuffix(te.Field, "."+tc.field) {
			t.Fatalf("%q: segmentio's path is %q, want it to end %q", tc.args, te.Field, tc.field)
		}
		if len(issues) != 1 || issues[0].Kind != tc.kind || issues[0].Path.Pointer() != tc.pointer || issues[0].Type != te.Type {
			t.Errorf("%q: %s; want %s at %q, of segmentio's type %v", tc.args, brief(issues), tc.kind, tc.pointer, te.Type)
		}
	}
}
