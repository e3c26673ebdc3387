package refuse_test

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// valuesAt walks the RFC 6901 pointer ptr through the JSON text doc,
// read generically (a key matches by its decoded text, as any decoder
// reads it), and returns the value of every place it leads to, decoded
// (numbers as json.Number): more than one where an object repeats a key,
// for which RFC 6901 names no one member.
func valuesAt(t *testing.T, doc, ptr string) []any {
	if ptr == "" || ptr[0] != '/' {
		return nil
	}
	d := []byte(doc)
	at := []jsonlex.Span{{Start: jsonlex.Space(d, 0)}}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		var next []jsonlex.Span
		for _, v := range at {
			switch d[v.Start] {
			case '{':
				for m := range jsonlex.Members(d, v.Start) {
					if key, _ := jsonlex.Unquote(nil, d[m.Key.Start:m.Key.End]); string(key) == tok {
						next = append(next, m.Value)
					}
				}
			case '[':
				i, err := strconv.Atoi(tok)
				if err != nil || strconv.Itoa(i) != tok {
					continue
				}
				n := 0
				for e := range jsonlex.Elements(d, v.Start) {
					if n == i {
						next = append(next, e)
					}
					n++
				}
			}
		}
		at = next
	}
	var vs []any
	for _, v := range at {
		vs = append(vs, decodeGeneric(t, doc[v.Start:v.End]))
	}
	return vs
}

func decodeGeneric(t *testing.T, s string) any {
	t.Helper()
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return v
}

// keyCodes are the codes whose offending text is a key: the pointer leads
// to its member, and its last token is the key quoted.
var keyCodes = map[refuse.Code]bool{
	refuse.UnknownArgument: true, refuse.FoldedKey: true, refuse.DuplicateKey: true,
	refuse.UnknownField: true, refuse.InvalidKey: true, refuse.DuplicateName: true,
	refuse.AmbiguousArgument: true, refuse.AmbiguousField: true,
}

// checkPointer checks what a problem's Pointer promises in the document
// sent: it leads to the value the problem quotes (Element, or Sent), or,
// for a key, to the member of the key it quotes, or, for a missing field,
// to the object without it.
func checkPointer(t *testing.T, name, args string, p refuse.Problem) {
	t.Helper()
	checkPointerIn(t, name, args, p, true)
}

// checkPointerIn is checkPointer; unless strict, a quote cut short or
// with an invalid byte escaped (not JSON) is not compared, only the place.
func checkPointerIn(t *testing.T, name, args string, p refuse.Problem, strict bool) {
	t.Helper()
	quoted := p.Element
	if quoted == "" {
		quoted = p.Sent
	}
	last := p.Pointer[strings.LastIndexByte(p.Pointer, '/')+1:]
	last = strings.ReplaceAll(strings.ReplaceAll(last, "~1", "/"), "~0", "~")
	switch {
	case p.Code == refuse.MissingField:
		var field string
		if json.Unmarshal([]byte(p.Element), &field) != nil || field != last {
			t.Errorf("%s: %s: the pointer %q does not end at the field %s", name, p.Code, p.Pointer, p.Element)
		}
		objs := valuesAt(t, args, p.Pointer[:strings.LastIndexByte(p.Pointer, '/')])
		without := false
		for _, o := range objs {
			if m, ok := o.(map[string]any); ok {
				_, has := m[field]
				without = without || !has
			}
		}
		if !without {
			t.Errorf("%s: %s: the pointer %q leads to no object without %s", name, p.Code, p.Pointer, p.Element)
		}
	case p.Code == refuse.ReplacedText && decodesTo(quoted, last):
		// Replaced text in a key: the pointer leads to its member, named
		// by the key as the binder reads it.
		if len(valuesAt(t, args, p.Pointer)) == 0 {
			t.Errorf("%s: %s: the pointer %q leads to no member", name, p.Code, p.Pointer)
		}
	case keyCodes[p.Code]:
		key := p.Sent
		if p.Code == refuse.UnknownField || p.Code == refuse.AmbiguousField || p.Code == refuse.InvalidKey || p.Code == refuse.DuplicateName && p.Element != "" {
			key = p.Element
		}
		var k string
		if err := json.Unmarshal([]byte(key), &k); (err == nil || strict) && k != last {
			t.Errorf("%s: %s: the pointer %q does not end at the key %s", name, p.Code, p.Pointer, key)
		}
		if len(valuesAt(t, args, p.Pointer)) == 0 {
			t.Errorf("%s: %s: the pointer %q leads to no member", name, p.Code, p.Pointer)
		}
	default:
		got := valuesAt(t, args, p.Pointer)
		if len(got) == 0 {
			t.Errorf("%s: %s: the pointer %q leads nowhere", name, p.Code, p.Pointer)
			return
		}
		if !strict && !json.Valid([]byte(quoted)) {
			return
		}
		want := decodeGeneric(t, quoted)
		if !slices.ContainsFunc(got, func(v any) bool { return reflect.DeepEqual(v, want) }) {
			t.Errorf("%s: %s: the pointer %q leads to %v, want the value quoted, %s", name, p.Code, p.Pointer, got, quoted)
		}
	}
}

// decodesTo reports whether the JSON string quoted reads as s.
func decodesTo(quoted, s string) bool {
	var got string
	return json.Unmarshal([]byte(quoted), &got) == nil && got == s
}

type ptrItem struct {
	N int    `json:"n"`
	S string `json:"s,omitempty"`
}

type ptrNode struct {
	Me *ptrNode `json:"me,omitempty"`
	N  int      `json:"n"`
}

type ptrTool struct {
	Slash  map[string]int     `json:"a/b"`
	Tilde  []int              `json:"m~n"`
	Accent *ptrNode           `json:"é"`
	List   []ptrItem          `json:"list"`
	Hours  int                `json:"hours_back" jsonschema:"minimum=1,maximum=168"`
	Fixed  [2]int             `json:"fixed"`
	ByName map[string]ptrItem `json:"by_name"`
	Limit  int                `json:"limit" validate:"omitempty,min=1,max=10"`
	IDs    []int              `json:"ids" validate:"omitempty,dive,min=1"`
}

var long41 = strings.Repeat("k", 41)

// pointerCalls are calls with a problem in each place a pointer can lead:
// escapes in keys, indexes, folded keys, keys of a map, deep and long.
var pointerCalls = []struct {
	name, args string
	// bounded: the first problem's path is cut by its bounds, so it has
	// no pointer.
	bounded bool
}{
	{name: "slash in the key", args: `{"a/b":{"x":"1"}}`},
	{name: "tilde in the key", args: `{"m~n":[1,"2"]}`},
	{name: "escaped key", args: `{"\u00e9":{"n":"x"}}`},
	{name: "escapes in a map's key", args: `{"by_name":{"a/b~c\"d'":{"n":1.5}}}`},
	{name: "array index", args: `{"list":[{"n":1},{"n":true}]}`},
	{name: "folded argument", args: `{"HOURS_BACK":"x"}`},
	{name: "folded field", args: `{"list":[{"N":1}]}`},
	{name: "unknown field", args: `{"list":[{"zz":1}]}`},
	{name: "unknown argument", args: `{"hours":1}`},
	{name: "unknown argument with a slash", args: `{"x/y~z":1}`},
	{name: "argument's own value", args: `{"hours_back":"x"}`},
	{name: "null for an argument", args: `{"hours_back":null}`},
	{name: "fixed array", args: `{"fixed":[1,2,3]}`},
	{name: "repeated key in a map", args: `{"by_name":{"k":{"n":1},"k":{"n":2}}}`},
	{name: "repeated argument", args: `{"hours_back":1,"hours_back":2}`},
	{name: "constraint", args: `{"limit":50}`},
	{name: "constraint on an element", args: `{"ids":[1,0]}`},
	{name: "key of 40", args: `{"by_name":{"` + long41[:40] + `":{"n":"x"}}}`},
	{name: "key of 41", args: `{"by_name":{"` + long41 + `":{"n":"x"}}}`, bounded: true},
	{name: "deep, within the bound", args: `{"é":` + strings.Repeat(`{"me":`, 10) + `{"n":"x"}` + strings.Repeat(`}`, 11)},
	{name: "deep, elided", args: `{"é":` + strings.Repeat(`{"me":`, 20) + `{"n":"x"}` + strings.Repeat(`}`, 21), bounded: true},
	{name: "several problems", args: `{"hours_back":"x","list":[{"n":"y"}],"m~n":[true],"zz":1}`},
}

// TestPointer_ResolvesToTheValue: for every binder, every problem with a
// place in the arguments carries a JSON Pointer, and it leads, in the
// document sent, to the value the problem quotes (or the member of the key
// it quotes); a problem whose path a bound cuts short has none, and names
// the place by its readable path alone.
func TestPointer_ResolvesToTheValue(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b), typereg.WithStrict(true))
		if err := typereg.Register[ptrTool](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, c := range pointerCalls {
			name := b.Name() + " " + c.name
			d := refuse.Decide(reg, "t", json.RawMessage(c.args))
			ps := problemsOf(d)
			if len(ps) == 0 {
				t.Errorf("%s: no problem", name)
				continue
			}
			for i, p := range ps {
				switch {
				case i == 0 && c.bounded:
					if p.Pointer != "" || p.Path == "" {
						t.Errorf("%s: %s at %q: pointer %q, want none", name, p.Code, p.Path, p.Pointer)
					}
				case p.Pointer == "":
					if p.Code != refuse.MissingArgument || p.Sent != "" {
						t.Errorf("%s: %s at %s%s: no pointer", name, p.Code, p.Argument, p.Path)
					}
				default:
					checkPointer(t, name, c.args, p)
				}
			}
		}
	}
}

// TestPointer_InTheJSONForm: the JSON form carries the pointer; the text
// keeps the readable path.
func TestPointer_InTheJSONForm(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[ptrTool](reg, "t"); err != nil {
		t.Fatal(err)
	}
	r := refuse.Refuse(reg, "t", json.RawMessage(`{"m~n":[1,"x"]}`))
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte(`"path":"[1]","pointer":"/m~0n/1"`)) {
		t.Errorf("JSON %s: no pointer", out)
	}
	if !strings.Contains(r.Error(), `at m~n[1]`) || strings.Contains(r.Error(), "/m~0n") {
		t.Errorf("text %q: want the readable path, not the pointer", r.Error())
	}
}

// ptrSchema is a schema tool with the same places as ptrTool.
const ptrSchema = `{"type":"object","properties":{
	"a/b":{"type":"object","additionalProperties":{"type":"integer"}},
	"m~n":{"type":"array","items":{"type":"integer"}},
	"é":{"$ref":"#/$defs/node"},
	"list":{"type":"array","items":{"type":"object","properties":{"n":{"type":"integer"},"s":{"type":"string"}},"required":["n"],"additionalProperties":false}},
	"hours_back":{"type":"integer","minimum":1,"maximum":168},
	"by_name":{"type":"object","additionalProperties":{"type":"object","properties":{"n":{"type":"integer"}}}}
},"$defs":{"node":{"type":"object","properties":{"me":{"$ref":"#/$defs/node"},"n":{"type":"integer"}}}}}`

var schemaPointerCalls = []struct {
	name, args string
	bounded    bool
}{
	{name: "slash in the key", args: `{"a/b":{"x":"1"}}`},
	{name: "tilde in the key", args: `{"m~n":[1,"2"]}`},
	{name: "escaped key", args: `{"\u00e9":{"n":"x"}}`},
	{name: "escapes in a map's key", args: `{"by_name":{"a/b~c\"d'":{"n":1.5}}}`},
	{name: "array index", args: `{"list":[{"n":1},{"n":true}]}`},
	{name: "unknown field", args: `{"list":[{"n":1,"zz":1}]}`},
	{name: "missing field", args: `{"list":[{"s":"x"}]}`},
	{name: "unknown argument", args: `{"x/y~z":1}`},
	{name: "argument's own value", args: `{"hours_back":500}`},
	{name: "repeated key", args: `{"by_name":{"k":{"n":1},"k":{"n":2}}}`},
	{name: "repeated top-level key", args: `{"hours_back":1,"hours_back":2}`},
	{name: "repeated key in an argument's object", args: `{"a/b":{"k":1,"k":2}}`},
	{name: "replaced key in an argument's object", args: `{"a/b":{"\ud800":1}}`},
	{name: "rounded", args: `{"m~n":[9007199254740993]}`},
	{name: "key of 41", args: `{"by_name":{"` + long41 + `":{"n":"x"}}}`, bounded: true},
	{name: "deep, within the bound", args: `{"é":` + strings.Repeat(`{"me":`, 10) + `{"n":"x"}` + strings.Repeat(`}`, 11)},
	{name: "deep, elided", args: `{"é":` + strings.Repeat(`{"me":`, 20) + `{"n":"x"}` + strings.Repeat(`}`, 21), bounded: true},
}

// TestPointer_SchemaTool_ResolvesToTheValue: a tool recorded from its
// schema gives the same pointers, from schemacheck's own paths.
func TestPointer_SchemaTool_ResolvesToTheValue(t *testing.T) {
	reg := typereg.New(typereg.WithStrict(true))
	if err := reg.RegisterSchema("t", json.RawMessage(ptrSchema)); err != nil {
		t.Fatal(err)
	}
	for _, c := range schemaPointerCalls {
		name := "schema " + c.name
		ps := problemsOf(refuse.Decide(reg, "t", json.RawMessage(c.args)))
		if len(ps) == 0 {
			t.Errorf("%s: no problem", name)
			continue
		}
		for i, p := range ps {
			switch {
			case i == 0 && c.bounded:
				if p.Pointer != "" || p.Path == "" {
					t.Errorf("%s: %s at %q: pointer %q, want none", name, p.Code, p.Path, p.Pointer)
				}
			case p.Pointer == "":
				t.Errorf("%s: %s at %s%s: no pointer", name, p.Code, p.Argument, p.Path)
			default:
				checkPointer(t, name, c.args, p)
			}
		}
	}
}

// TestPointer_SchemaTool_TopLevelKeys: a schema tool's problem with a
// top-level key (sent twice; replaced text in a key the root's
// additionalProperties reads) leads to the key's member, once: it led to
// "/n/n", the key's path with the key added again.
func TestPointer_SchemaTool_TopLevelKeys(t *testing.T) {
	reg := typereg.New(typereg.WithStrict(true))
	if err := reg.RegisterSchema("t", json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":{"type":"integer"}}`)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ args, pointer string }{
		{`{"n":1,"n":2}`, "/n"},
		{`{"zz":1,"zz":2}`, "/zz"},
		{`{"n":1,"\ud800":1}`, "/\ufffd"},
	} {
		ps := problemsOf(refuse.Decide(reg, "t", json.RawMessage(c.args)))
		if len(ps) != 1 {
			t.Errorf("%s: problems %+v, want one", c.args, ps)
			continue
		}
		if want, _ := strconv.Unquote(`"` + c.pointer + `"`); ps[0].Pointer != want {
			t.Errorf("%s: %s at %q, want %q", c.args, ps[0].Code, ps[0].Pointer, want)
		}
	}
}

// TestSchemaTool_ReplacedKeyInAnArgument_NamesTheKeyInTheValue: a key
// with a lone surrogate inside an argument of a schema tool is worded as
// a struct tool's is: the argument's value sent, the key at its path. It
// quoted the key alone as what the call sent, with no path.
func TestSchemaTool_ReplacedKeyInAnArgument_NamesTheKeyInTheValue(t *testing.T) {
	reg := typereg.New(typereg.WithStrict(true))
	if err := reg.RegisterSchema("t", json.RawMessage(ptrSchema)); err != nil {
		t.Fatal(err)
	}
	ps := problemsOf(refuse.Decide(reg, "t", json.RawMessage(`{"a/b":{"\ud800":1}}`)))
	want := refuse.Problem{Argument: "a/b", Path: "[\"\ufffd\"]", Pointer: "/a~1b/\ufffd", Code: refuse.ReplacedText,
		Takes: ps[0].Takes, Sent: `{"\ud800":1}`, Element: `"\ud800"`, Becomes: "\"\ufffd\""}
	if len(ps) != 1 || ps[0] != want {
		t.Errorf("problems %+v, want %+v", ps, want)
	}
}

// TestPointer_AliasesLeadToTheKeySent: a problem in an argument sent under
// an alias, or under a key folded to its name beside another, points at
// the key the call sent, not at the parameter's name.
func TestPointer_AliasesLeadToTheKeySent(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[ptrTool](reg, "t", typereg.WithAlias("hours", "hours_back"), typereg.WithAlias("items", "list")); err != nil {
			t.Fatal(err)
		}
		for _, args := range []string{
			`{"hours":"x"}`,
			`{"items":[{"n":1},{"n":"x"}]}`,
			`{"zz":1,"items":[{"n":"x"}],"hours":true}`,
			`{"hours":1,"hours_back":"x"}`,
			`{"hours_back":1,"HOURS_BACK":"x"}`,
		} {
			for _, p := range problemsOf(refuse.Decide(reg, "t", json.RawMessage(args))) {
				if p.Pointer == "" {
					if p.Code != refuse.MissingArgument && p.Code != refuse.AliasConflict {
						t.Errorf("%s %s: %s: no pointer", b.Name(), args, p.Code)
					}
					continue
				}
				checkPointer(t, b.Name()+" "+args, args, p)
			}
		}
	}
}
