package typereg_test

import (
	"regexp"
	"testing"

	"github.com/bindguard/bindguard/bind"
	bindjsonv2 "github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// textKey is a map key read by its UnmarshalText, an integer kind.
type textKey int

func (k *textKey) UnmarshalText(b []byte) error { *k = textKey(len(b)); return nil }

// keyTree reaches itself through a map of integer keys.
type keyTree struct {
	V    int             `json:"v"`
	Kids map[int]keyTree `json:"kids,omitempty"`
}

type mapKeyArgs struct {
	I  map[int]string      `json:"i,omitempty"`
	U  map[uint8]int       `json:"u,omitempty"`
	T  map[textKey]string  `json:"t,omitempty"`
	S  map[string]int      `json:"s,omitempty"`
	A  map[int]any         `json:"a,omitempty"`
	R  keyTree             `json:"r"`
	LT []map[int8]keyTree  `json:"lt,omitempty"`
	P  map[int]*textStruct `json:"p,omitempty"`
}

// TestSchema_MapKeysAsTheBindersReadThem: a map's keys are published as
// every binder reads them: integers in JSON's grammar for an integer key
// type, negative ones too for a signed one (invopop's "^[0-9]+$" left out
// "-1", which every binder reads, and took "007", which V2 fails on; an
// unsigned key type took any key, "x" too), and any key for a key type
// with UnmarshalText (invopop took only digits). Types that reach
// themselves through such maps are published once, by $ref.
func TestSchema_MapKeysAsTheBindersReadThem(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, bindjsonv2.Binder, segmentio.Binder} {
		raw, s, resolve := publishedSchema[mapKeyArgs](t, b)
		// takes reports whether the schema of a map takes key k.
		takes := func(p map[string]any, k string) bool {
			p = resolve(p)
			if pp, ok := p["patternProperties"].(map[string]any); ok {
				for re := range pp {
					if regexp.MustCompile(re).MatchString(k) {
						return true
					}
				}
			}
			return p["additionalProperties"] != false
		}
		for _, tc := range []struct {
			prop, key string
			want      bool
		}{
			{"i", "-1", true}, {"i", "12", true}, {"i", "007", false}, {"i", "x", false}, {"i", "+1", false},
			{"u", "0", true}, {"u", "255", true}, {"u", "-1", false}, {"u", "x", false},
			{"t", "x", true}, {"t", "-1", true},
			{"s", "x", true}, {"a", "-3", true}, {"a", "x", false}, {"p", "x", false},
		} {
			if got := takes(s.Properties[tc.prop], tc.key); got != tc.want {
				t.Errorf("%s: %s takes key %q: %v, want %v: %s", b.Name(), tc.prop, tc.key, got, tc.want, raw)
			}
		}
		// A key the schema takes, the binder reads (within the type's range).
		var v mapKeyArgs
		if err := b.Unmarshal([]byte(`{"i":{"-1":"a","12":"b"},"u":{"0":1,"255":2},"t":{"x":"y"},"r":{"v":1,"kids":{"-2":{"v":2}}}}`), &v); err != nil {
			t.Errorf("%s: keys the schema takes: %v", b.Name(), err)
		}
		if _, ok := s.Defs["keyTree"]; !ok {
			t.Errorf("%s: keyTree is not defined once: %s", b.Name(), raw)
		}
	}
}
