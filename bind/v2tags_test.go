package bind_test

import (
	"fmt"
	"reflect"
	"testing"

	bindjsonv2 "github.com/bindguard/bindguard/bind/jsonv2"
	jsonv2 "github.com/go-json-experiment/json"
)

// V2's field rules on tags the two V2s (go-json-experiment itself, and the
// standard library's encoding/json/v2 it aliases under GOEXPERIMENT=jsonv2)
// read differently: single-quoted names and options, a dash name, embed
// and inline, unknown, format:. In each build, Compile refuses exactly the
// types V2 fails on for every object, and a compiled plan drops exactly
// the keys V2 drops.
func TestV2_TagsAsThisBuildsV2ReadsThem(t *testing.T) {
	tags := []string{`'a,b'`, `a,case:'ignore'`, `-,`, `'-'`, `x,inline`, `x,embed`, `x,unknown`, `,inline`, `,embed`,
		`,unknown`, `a,format:''`, `a,format:unix`, `a,omitempty,inline`}
	types := []reflect.Type{reflect.TypeFor[int](), reflect.TypeFor[map[string]int](), reflect.TypeFor[V2Inner]()}
	keys := []string{"a", "A", "a,b", "'a,b'", "-", "'-'", "x", "X", "F", "deep", "plain", "zz"}
	for _, tag := range tags {
		for _, ft := range types {
			typ := reflect.StructOf([]reflect.StructField{
				{Name: "Limit", Type: reflect.TypeFor[int](), Tag: `json:"limit"`},
				{Name: "F", Type: ft, Tag: reflect.StructTag(`json:"` + tag + `"`)},
			})
			v2Fails := jsonv2.Unmarshal([]byte(`{}`), reflect.New(typ).Interface()) != nil
			plan, err := bindjsonv2.Binder.Compile(typ)
			if err != nil {
				if !v2Fails {
					t.Logf("json:%q on %v: Compile says %v; V2 reads {}", tag, ft, err) // an embedded fallback is refused on purpose
				}
				continue
			}
			if v2Fails {
				t.Errorf("json:%q on %v: Compile takes it, V2 fails on every object", tag, ft)
				continue
			}
			for _, k := range keys {
				for _, v := range []string{`1`, `{}`, `null`} {
					args := []byte(fmt.Sprintf(`{%s:%s}`, jsonString(k), v))
					issues := checkAgainst(t, plan, args)
					if jsonv2.Unmarshal(args, reflect.New(typ).Interface()) == nil {
						if got, want := unknownKeys(issues), droppedByV2(plan, args); got != want {
							t.Errorf("json:%q on %v, %s: %d UnknownKey issues; V2 drops %d", tag, ft, args, got, want)
						}
					}
				}
			}
		}
	}
}
