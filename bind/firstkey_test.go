package bind

import (
	"github.com/bindguard/bindguard/internal/bindcap"
	"reflect"
	"strings"
	"testing"
)

// TestFirstKey_OneKeyObjectsHoldNoKeys: an object of one key repeats
// none, so 900 objects of one key nested in an any move no object's keys
// to the key table (they took a hash and a table entry each, past the
// checker's own 48 entries, before), with every binder; and the verdicts
// still find a repeat at any depth, in an object of one key before it or
// of two, once an object inside it has closed.
func TestFirstKey_OneKeyObjectsHoldNoKeys(t *testing.T) {
	type tree struct {
		A any `json:"a"`
	}
	nest := func(n int, inner string) []byte {
		return []byte(`{"a":` + strings.Repeat(`{"k":`, n) + inner + strings.Repeat("}", n) + `}`)
	}
	for _, b := range []Binder{Std, V2, SegmentIO} {
		p, err := b.Compile(reflect.TypeFor[tree]())
		if err != nil {
			t.Fatal(err)
		}
		var c checker
		c.record, c.members = true, new(bindcap.Members)
		args := nest(900, `{}`)
		if p.check != nil {
			if is, ok := p.native(&c, args, nil); !ok || len(is) != 0 {
				t.Fatalf("%s: %v %v", b.Name(), is, ok)
			}
		} else if is := p.checkStd(&c, args, nil); len(is) != 0 {
			t.Fatalf("%s: %v", b.Name(), is)
		}
		if c.keyObjs != 0 {
			t.Errorf("%s: %d objects of one key moved their keys to the key table, want 0", b.Name(), c.keyObjs)
		}
		for _, tc := range []struct {
			name string
			args []byte
		}{
			{"innermost, two keys", nest(900, `{"r":1,"r":2}`)},
			{"innermost, past an object", nest(900, `{"r":{"s":{}},"r":2}`)},
			{"at level 300, past 600 levels", []byte(`{"a":` + strings.Repeat(`{"k":`, 300) + string(nest(600, "0"))[5:len(nest(600, "0"))-1] + `,"k":1` + strings.Repeat("}", 300) + `}`)},
		} {
			is := p.Check(tc.args, nil)
			if len(is) != 1 || is[0].Kind != DuplicateKey && is[0].Kind != InvalidValue {
				t.Errorf("%s, %s: %v, want the one repeat", b.Name(), tc.name, is)
			}
		}
	}
}
