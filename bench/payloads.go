// Package bench measures bindguard's Refuse against the JSON binder it
// mirrors (encoding/json, "bind") and against the rival ways a Go MCP server
// can check tool arguments before its handler runs.
//
// It is a separate module so that the rivals' dependencies (mcp-go, go-sdk,
// santhosh-tekuri/jsonschema, segmentio/encoding) never enter bindguard's own
// go.mod. See docs/performance.md in the parent module for the results and
// how to reproduce them.
package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/typereg"
)

// Typical is the eight-field arguments struct: an int32, an int, a
// string, a []string, a float64, a bool, a *string and a nested struct of
// two fields.
type Typical struct {
	Count  int32    `json:"count"`
	Limit  int      `json:"limit"`
	Query  string   `json:"query"`
	Tags   []string `json:"tags"`
	Score  float64  `json:"score"`
	Exact  bool     `json:"exact"`
	Cursor *string  `json:"cursor"`
	Window Window   `json:"window"`
}

// Window is Typical's nested struct of two fields.
type Window struct {
	From string `json:"from"`
	To   string `json:"to"`
}

// Strings takes a list of strings (the 200-element []string call).
type Strings struct {
	Items []string `json:"items"`
}

// Text takes one string (the 1 MB string call).
type Text struct {
	Text string `json:"text"`
}

// Number takes one int (the 1,000,000-digit number call).
type Number struct {
	N int `json:"n"`
}

// Ints takes a list of ints (the 100,000-element []int call).
type Ints struct {
	Values []int `json:"values"`
}

// Nested takes any JSON value (the deeply nested arrays call).
type Nested struct {
	Tree any `json:"tree"`
}

// Keys takes a map from names to counts (the 10,000-key object call); the
// parameter is optional, so a call of unknown keys alone is refused for
// them only.
type Keys struct {
	Counts map[string]int `json:"counts,omitempty"`
}

// A Payload is one benchmarked call: a tool, its parameter struct and the
// arguments sent.
type Payload struct {
	// Name is the benchmark's name (BenchmarkName).
	Name string
	// Tool is the tool's name in the registry.
	Tool string
	// Type is the tool's parameter struct.
	Type reflect.Type
	// Args are the arguments, a JSON object.
	Args []byte
	// BindOK reports whether encoding/json reads Args into Type. Refuse must
	// return nil exactly when it does.
	BindOK bool
	// Refused is the problem code Refuse names: when BindOK is false, the
	// binder's failure; when Policy is set, the policy's.
	Refused string
	// Policy reports that the binder reads Args but Refuse refuses them by
	// a policy (unknown keys), so Refuse's verdict is Refuses with every
	// binder, whatever the binder's.
	Policy bool
}

// New returns a fresh pointer to a zero value of the payload's struct.
func (p *Payload) New() any { return reflect.New(p.Type).Interface() }

// The tools, one per parameter struct.
const (
	ToolTypical = "typical"
	ToolStrings = "strings"
	ToolText    = "text"
	ToolNumber  = "number"
	ToolInts    = "ints"
	ToolNested  = "nested"
	ToolKeys    = "keys"
)

// Registry returns a registry with every benchmarked tool registered through
// bind.Std (encoding/json).
func Registry() *typereg.Registry { return RegistryFor(bind.Std) }

// RegistryFor returns a registry with every benchmarked tool registered
// through binder b.
func RegistryFor(b bind.Binder) *typereg.Registry {
	reg := typereg.New(typereg.WithBinder(b))
	must(typereg.Register[Typical](reg, ToolTypical))
	must(typereg.Register[Strings](reg, ToolStrings))
	must(typereg.Register[Text](reg, ToolText))
	must(typereg.Register[Number](reg, ToolNumber))
	must(typereg.Register[Ints](reg, ToolInts))
	must(typereg.Register[Nested](reg, ToolNested))
	must(typereg.Register[Keys](reg, ToolKeys))
	return reg
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

// TypicalArgs is the typical call: every field of Typical, 200 bytes.
const TypicalArgs = `{"count":12,"limit":50,"query":"quarterly revenue by region and product line",` +
	`"tags":["finance","emea","2024"],"score":0.75,"exact":false,"cursor":"c2VjdGlvbi0xMg==",` +
	`"window":{"from":"2024-01-01","to":"2024-03-31"}}`

// StringsArgs returns a call with an n-element []string.
func StringsArgs(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"items":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"item-%04d"`, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// TextArgs returns a call whose one string holds n bytes of plain text (no
// escapes).
func TextArgs(n int) []byte {
	const words = "the quick brown fox jumps over the lazy dog "
	b := make([]byte, 0, n+16)
	b = append(b, `{"text":"`...)
	for len(b)-9 < n {
		b = append(b, words[:min(len(words), n-(len(b)-9))]...)
	}
	return append(b, `"}`...)
}

// NumberArgs returns a call whose int argument is a number of n digits: far
// past any int, so the binder fails on it (too large).
func NumberArgs(n int) []byte {
	b := make([]byte, 0, n+8)
	b = append(b, `{"n":`...)
	for i := range n {
		b = append(b, byte('1'+i%9))
	}
	return append(b, '}')
}

// IntsArgs returns a call with an n-element []int.
func IntsArgs(n int) []byte {
	b := make([]byte, 0, 8*n+16)
	b = append(b, `{"values":[`...)
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(i*7919%1000003), 10)
	}
	return append(b, `]}`...)
}

// NestedArgs returns a call whose any argument is n nested arrays: with the
// arguments object, n+1 levels. encoding/json reads at most 10,000 levels,
// so NestedArgs(9999) is the deepest call the binder reads.
func NestedArgs(n int) []byte {
	return []byte(`{"tree":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `}`)
}

// NestedObjectsArgs returns a call whose any parameter holds n objects
// nested one in another under the key "a", the innermost empty.
func NestedObjectsArgs(n int) []byte {
	return []byte(`{"tree":` + strings.Repeat(`{"a":`, n-1) + `{}` + strings.Repeat("}", n-1) + `}`)
}

// KeysArgs returns a call whose map parameter holds n keys ("k00000":0,
// ...), all distinct: the binder reads it, and so does Refuse.
func KeysArgs(n int) []byte {
	b := make([]byte, 0, 12*n+16)
	b = append(b, `{"counts":{`...)
	b = appendKeys(b, n)
	return append(b, `}}`...)
}

// UnknownKeysArgs returns a call of n top-level keys no parameter takes
// ("k00000":0, ...): the binder ignores them and reads the call, Refuse
// refuses it (unknown keys are refused by default).
func UnknownKeysArgs(n int) []byte {
	b := make([]byte, 0, 12*n+16)
	b = append(b, '{')
	b = appendKeys(b, n)
	return append(b, '}')
}

func appendKeys(b []byte, n int) []byte {
	for i := range n {
		if i > 0 {
			b = append(b, ',')
		}
		b = fmt.Appendf(b, `"k%05d":%d`, i, i%1000)
	}
	return b
}

// Payloads returns every benchmarked call, in the order of the issue. The
// payloads are built once and shared: do not modify them.
func Payloads() []*Payload { return payloads() }

var payloads = sync.OnceValue(func() []*Payload {
	return []*Payload{
		{Name: "Typical", Tool: ToolTypical, Type: reflect.TypeFor[Typical](), Args: []byte(TypicalArgs), BindOK: true},
		{Name: "Strings200", Tool: ToolStrings, Type: reflect.TypeFor[Strings](), Args: StringsArgs(200), BindOK: true},
		{Name: "Text1MB", Tool: ToolText, Type: reflect.TypeFor[Text](), Args: TextArgs(1 << 20), BindOK: true},
		{Name: "Number100kDigits", Tool: ToolNumber, Type: reflect.TypeFor[Number](), Args: NumberArgs(100_000), Refused: "too_large"},
		{Name: "Number1MDigits", Tool: ToolNumber, Type: reflect.TypeFor[Number](), Args: NumberArgs(1_000_000), Refused: "too_large"},
		{Name: "Ints10k", Tool: ToolInts, Type: reflect.TypeFor[Ints](), Args: IntsArgs(10_000), BindOK: true},
		{Name: "Ints100k", Tool: ToolInts, Type: reflect.TypeFor[Ints](), Args: IntsArgs(100_000), BindOK: true},
		{Name: "Nest999", Tool: ToolNested, Type: reflect.TypeFor[Nested](), Args: NestedArgs(999), BindOK: true},
		{Name: "Nest9999", Tool: ToolNested, Type: reflect.TypeFor[Nested](), Args: NestedArgs(9999), BindOK: true},
		{Name: "NestObjects999", Tool: ToolNested, Type: reflect.TypeFor[Nested](), Args: NestedObjectsArgs(999), BindOK: true},
		{Name: "Keys10k", Tool: ToolKeys, Type: reflect.TypeFor[Keys](), Args: KeysArgs(10_000), BindOK: true},
		{Name: "UnknownKeys10k", Tool: ToolKeys, Type: reflect.TypeFor[Keys](), Args: UnknownKeysArgs(10_000), BindOK: true, Policy: true, Refused: "unknown_argument"},
	}
})

// PayloadNamed returns the payload named name, or panics.
func PayloadNamed(name string) *Payload {
	for _, p := range Payloads() {
		if p.Name == name {
			return p
		}
	}
	panic("bench: no payload " + name)
}

// Binders lists the binders Refuse is measured with: "refuse" is Refuse
// with bind.Std, measured against "bind" (encoding/json); for each other
// binder, "refuse-NAME" is Refuse with it and "bind-NAME" is that binder's
// own Unmarshal into the struct, the decode a server using it runs.
var Binders = []bind.Binder{bind.Std, segmentio.Binder, jsonv2.Binder}

// RefuseRival returns the sub-benchmark name of Refuse with binder b.
func RefuseRival(b bind.Binder) string {
	if b == bind.Std {
		return RivalRefuse
	}
	return RivalRefuse + "-" + b.Name()
}

// BindRival returns the sub-benchmark name of binder b's Unmarshal.
func BindRival(b bind.Binder) string {
	if b == bind.Std {
		return RivalBind
	}
	return RivalBind + "-" + b.Name()
}

// BinderOf returns the binder of a "bind", "refuse", "bind-NAME" or
// "refuse-NAME" sub-benchmark.
func BinderOf(rival string) (bind.Binder, bool) {
	for _, b := range Binders {
		if rival == RefuseRival(b) || rival == BindRival(b) {
			return b, true
		}
	}
	return nil, false
}

// Bind is the server's binder: encoding/json into the tool's struct.
func Bind(p *Payload) error { return json.Unmarshal(p.Args, p.New()) }
