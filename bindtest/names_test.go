package bindtest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/internal/probe"
)

// Each probe parameter's type is named as the vocabulary writes it.
func TestTypeName_ProbeVocabulary(t *testing.T) {
	want := map[string]string{
		"int": "int", "int_ptr": "*int", "strings": "[]string", "names": "map[int]string", "pair": "[2]int",
		"number": "json.Number", "raw": "json.RawMessage", "any": "interface {}", "time": "time.Time",
		"duration": "time.Duration", "time_ptr": "*time.Time", "nested": "Nested", "nested_ptr": "*Nested",
		"color": "Color", "flex": "Flex", "int_string": "IntString", "colors": "[]Color", "int_ptrs": "[]*int",
		"bytes": "[]uint8",
	}
	typ := reflect.TypeFor[probe.Args]()
	for i := range typ.NumField() {
		f := typ.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		w, ok := want[name]
		if !ok {
			continue
		}
		if got := typeName(f.Type, typ.PkgPath()); got != w {
			t.Errorf("%s: typeName = %q, want %q", name, got, w)
		}
		delete(want, name)
	}
	if len(want) > 0 {
		t.Errorf("no probe parameter named %v", want)
	}
}

func TestCanonical(t *testing.T) {
	for in, want := range map[string]string{
		"any":                     "interface {}",
		"interface{}":             "interface {}",
		"interface {}":            "interface {}",
		"[]byte":                  "[]uint8",
		"map[string][]byte":       "map[string][]uint8",
		"[]any":                   "[]interface {}",
		"map[rune]any":            "map[int32]interface {}",
		" int ":                   "int",
		"pkg.byte":                "pkg.byte",
		"bytes.Buffer":            "bytes.Buffer",
		"*json.Number":            "*json.Number",
		"map[string]interface{}":  "map[string]interface {}",
		"[2]int":                  "[2]int",
		"anything":                "anything",
		"byteOrder":               "byteOrder",
		"map[Color]IntString":     "map[Color]IntString",
		"[]*time.Time":            "[]*time.Time",
		"map[string]*probe.Color": "map[string]*probe.Color",
	} {
		if got := canonical(in); got != want {
			t.Errorf("canonical(%q) = %q, want %q", in, got, want)
		}
	}
}
