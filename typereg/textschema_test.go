package typereg_test

import (
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	bindjsonv2 "github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/typereg"
	"github.com/invopop/jsonschema"
)

// textStruct, textInt and textList are read by their UnmarshalText alone:
// from a JSON string, whatever their kind.
type textStruct struct{ v string }

func (s *textStruct) UnmarshalText(b []byte) error { s.v = string(b); return nil }

type textInt int

func (n *textInt) UnmarshalText(b []byte) error { *n = textInt(len(b)); return nil }

type textList []string

func (l *textList) UnmarshalText(b []byte) error { *l = strings.Split(string(b), ","); return nil }

// jsonFirst has both methods: UnmarshalJSON reads it, from anything.
type jsonFirst struct {
	A int `json:"a"`
}

func (j *jsonFirst) UnmarshalJSON([]byte) error { return nil }
func (j *jsonFirst) UnmarshalText([]byte) error { return nil }

// textOwnSchema has UnmarshalText and a schema of its own, which wins.
type textOwnSchema struct{ v string }

func (s *textOwnSchema) UnmarshalText(b []byte) error { s.v = string(b); return nil }
func (textOwnSchema) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Format: "own"}
}

// textEnum is read by UnmarshalText, a struct kind, and lists its values
// by JSONSchemaExtend, which extends the string it is published as.
type textEnum struct{ v string }

func (e *textEnum) UnmarshalText(b []byte) error { e.v = string(b); return nil }
func (textEnum) JSONSchemaExtend(s *jsonschema.Schema) {
	s.Enum = []any{"debug", "info"}
}

type textArgs struct {
	S  textStruct            `json:"s"`
	I  textInt               `json:"i"`
	L  textList              `json:"l"`
	P  *textStruct           `json:"p,omitempty"`
	LS []textStruct          `json:"ls,omitempty"`
	M  map[string]textInt    `json:"m,omitempty"`
	J  jsonFirst             `json:"j,omitempty"`
	IP net.IP                `json:"ip,omitempty"`
	O  textOwnSchema         `json:"o,omitempty"`
	MS map[string]textStruct `json:"ms,omitempty"`
	E  textEnum              `json:"e,omitempty"`
}

// A schemaDoc is a published schema, decoded.
type schemaDoc struct {
	Defs       map[string]map[string]any `json:"$defs"`
	Properties map[string]map[string]any `json:"properties"`
}

// publishedSchema registers T as a tool under binder b and returns the
// schema it publishes: as JSON, decoded, and resolve, which follows a
// property's $ref into its definition.
func publishedSchema[T any](t *testing.T, b bind.Binder) ([]byte, schemaDoc, func(map[string]any) map[string]any) {
	t.Helper()
	reg := typereg.New(typereg.WithBinder(b))
	if err := typereg.Register[T](reg, "t"); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool("t")
	raw, err := json.Marshal(tool.Schema())
	if err != nil {
		t.Fatal(err)
	}
	var s schemaDoc
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return raw, s, func(p map[string]any) map[string]any {
		if ref, ok := p["$ref"].(string); ok {
			return s.Defs[strings.TrimPrefix(ref, "#/$defs/")]
		}
		return p
	}
}

// TestSchema_TextTypesAreStrings: a type read by its UnmarshalText alone
// is published as a string, as every binder reads it, not as invopop
// renders its kind (an object of no properties for textStruct, which
// every binder fails on: a caller following the schema could never send
// a value the tool reads; an integer for textInt, an array for textList).
// A type whose UnmarshalJSON reads it, net.IP (invopop's string of a
// format) and a type with a schema of its own keep theirs.
func TestSchema_TextTypesAreStrings(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, bindjsonv2.Binder, segmentio.Binder} {
		raw, s, resolve := publishedSchema[textArgs](t, b)
		typeOf := func(p map[string]any) any { return resolve(p)["type"] }
		for _, name := range []string{"s", "i", "l", "p"} {
			if got := typeOf(s.Properties[name]); got != "string" {
				t.Errorf("%s: %s is published as %v: %s", b.Name(), name, got, raw)
			}
		}
		if items := resolve(s.Properties["ls"])["items"].(map[string]any); typeOf(items) != "string" {
			t.Errorf("%s: ls's items are %v", b.Name(), items)
		}
		for _, name := range []string{"m", "ms"} {
			if ap := resolve(s.Properties[name])["additionalProperties"].(map[string]any); typeOf(ap) != "string" {
				t.Errorf("%s: %s's values are %v", b.Name(), name, ap)
			}
		}
		if got := typeOf(s.Properties["j"]); got != "object" {
			t.Errorf("%s: j, read by its UnmarshalJSON, is published as %v", b.Name(), got)
		}
		if p := resolve(s.Properties["ip"]); p["type"] != "string" || p["format"] != "ipv4" {
			t.Errorf("%s: ip is published as %v", b.Name(), p)
		}
		if p := resolve(s.Properties["e"]); p["type"] != "string" || fmt.Sprint(p["enum"]) != "[debug info]" {
			t.Errorf("%s: e, extended, is published as %v", b.Name(), p)
		}
		if p := resolve(s.Properties["o"]); p["format"] != "own" {
			t.Errorf("%s: o's own schema is not published: %v", b.Name(), p)
		}
		// What the schema says is what the binder reads.
		var v textArgs
		if err := b.Unmarshal([]byte(`{"s":"x","i":"12","l":"a,b","p":"y","ls":["z"],"m":{"k":"v"}}`), &v); err != nil {
			t.Errorf("%s: strings for every text type: %v", b.Name(), err)
		}
		for _, bad := range []string{`{"s":{}}`, `{"i":12}`, `{"l":["a"]}`} {
			if err := b.Unmarshal([]byte(bad), new(textArgs)); err == nil {
				t.Errorf("%s: %s: the binder reads what the schema no longer takes", b.Name(), bad)
			}
		}
	}
}
