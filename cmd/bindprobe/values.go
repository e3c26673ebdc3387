package main

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// A schema is the part of a JSON Schema that bindprobe reads: enough to
// know what kind of value a parameter takes and to make a valid one.
type schema struct {
	Type             schemaType         `json:"type"`
	Enum             []json.RawMessage  `json:"enum"`
	Const            json.RawMessage    `json:"const"`
	Default          json.RawMessage    `json:"default"`
	Examples         []json.RawMessage  `json:"examples"`
	Format           string             `json:"format"`
	Minimum          json.RawMessage    `json:"minimum"`
	Maximum          json.RawMessage    `json:"maximum"`
	ExclusiveMinimum json.RawMessage    `json:"exclusiveMinimum"`
	ExclusiveMaximum json.RawMessage    `json:"exclusiveMaximum"`
	MinLength        *int               `json:"minLength"`
	MinItems         *int               `json:"minItems"`
	Items            *schema            `json:"items"`
	Properties       map[string]*schema `json:"properties"`
	Required         []string           `json:"required"`
	AnyOf            []*schema          `json:"anyOf"`
	OneOf            []*schema          `json:"oneOf"`
	AllOf            []*schema          `json:"allOf"`
	Ref              string             `json:"$ref"`
	Defs             map[string]*schema `json:"$defs"`
	Definitions      map[string]*schema `json:"definitions"`
}

// schemaType is a schema's type: one name, or a list of them.
type schemaType []string

func (t *schemaType) UnmarshalJSON(b []byte) error {
	var one string
	if err := json.Unmarshal(b, &one); err == nil {
		*t = schemaType{one}
		return nil
	}
	var many []string
	if err := json.Unmarshal(b, &many); err != nil {
		return err
	}
	*t = many
	return nil
}

// readSchema reads a tool's input schema as the client decoded it.
func readSchema(v any) (*schema, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var s schema
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

// resolve follows s's $ref within root, a few steps at most; a reference it
// cannot follow (another document, a pointer it does not read) resolves to
// an empty schema, which takes anything.
func (root *schema) resolve(s *schema) *schema {
	for range 8 {
		if s == nil || s.Ref == "" {
			break
		}
		var defs map[string]*schema
		name, ok := strings.CutPrefix(s.Ref, "#/$defs/")
		if ok {
			defs = root.Defs
		} else if name, ok = strings.CutPrefix(s.Ref, "#/definitions/"); ok {
			defs = root.Definitions
		}
		if s = defs[name]; s == nil {
			return &schema{}
		}
	}
	if s == nil {
		return &schema{}
	}
	return s
}

// The kinds of value a parameter takes, from its schema's type.
const (
	kindInteger = "integer"
	kindNumber  = "number"
	kindString  = "string"
	kindBoolean = "boolean"
	kindArray   = "array"
	kindObject  = "object"
	kindAny     = "any" // no type, or one bindprobe does not know
)

// kind is the kind of value s takes: its type, the first that is not null
// when it lists several, that of its first alternative when it has none of
// its own (anyOf, oneOf, allOf), or that of its enum's first member.
func (root *schema) kind(s *schema) string { return root.kindAt(s, 0) }

// maxKindDepth bounds how many alternatives deep kind looks: a $ref may
// lead back to the schema it is in.
const maxKindDepth = 16

func (root *schema) kindAt(s *schema, depth int) string {
	s = root.resolve(s)
	for _, t := range s.Type {
		switch t {
		case kindInteger, kindNumber, kindString, kindBoolean, kindArray, kindObject:
			return t
		}
	}
	if depth < maxKindDepth {
		for _, alts := range [][]*schema{s.AllOf, s.AnyOf, s.OneOf} {
			for _, a := range alts {
				if k := root.kindAt(a, depth+1); k != kindAny {
					return k
				}
			}
		}
	}
	if len(s.Enum) > 0 {
		return jsonKind(s.Enum[0])
	}
	return kindAny
}

// jsonKind is the kind of a JSON value.
func jsonKind(v json.RawMessage) string {
	i := jsonlex.Space(v, 0)
	switch jsonlex.KindAt(v, i) {
	case jsonlex.KindString:
		return kindString
	case jsonlex.KindTrue, jsonlex.KindFalse:
		return kindBoolean
	case jsonlex.KindArray:
		return kindArray
	case jsonlex.KindObject:
		return kindObject
	case jsonlex.KindNumber:
		if _, n, _ := jsonlex.Number(v, i); n.Frac || n.Exp {
			return kindNumber
		}
		return kindInteger
	}
	return kindAny // null, or no value
}

// sources names, for each kind, the table types whose rows are sent to a
// parameter of that kind: the first is the kind's main type, whose rows are
// all taken; of the others only the rows encoding/json refuses are, for
// their edges (3000000000 for an int32, -1 for a uint).
var sources = map[string][]string{
	kindInteger: {"int", "int32", "uint", "int8", "uint8", "int16", "uint16", "uint32", "int64", "uint64", "*int", "time.Duration"},
	kindNumber:  {"float64", "float32", "*float64", "json.Number"},
	kindString:  {"string", "*string"},
	kindBoolean: {"bool", "*bool"},
	kindArray:   {"[]int", "[]string", "[]*int", "[2]int", "[]Color"},
	kindObject:  {"map[string]int", "Nested", "map[int]string", "*Nested"},
	kindAny:     {"any", "json.RawMessage"},
}

// valuesFor returns at most n values to send for a parameter of schema s,
// as JSON text: values drawn alternately from the rows of the kind's main
// type and from the refused rows of its other types (see sources), without
// repeats, in the table's order. A parameter with a text enum gets its
// first member, and that member with its case changed, first, and the rows
// of the table's own text enum (Color) as its main ones; a string of format
// date-time takes time.Time as its main type; an array of strings takes
// []string.
func (root *schema) valuesFor(s *schema, table []bindtest.Row, n int) []string {
	s = root.resolve(s)
	k := root.kind(s)
	types := sources[k]
	var first []string
	switch {
	case k == kindString && len(s.Enum) > 0:
		types = append([]string{"Color"}, types...)
		if m := s.Enum[0]; jsonKind(m) == kindString {
			first = append(first, string(m))
			var member string
			if json.Unmarshal(m, &member) == nil {
				if swapped := swapCase(member); swapped != member {
					b, _ := json.Marshal(swapped)
					first = append(first, string(b))
				}
			}
		}
	case k == kindString && s.Format == "date-time":
		types = append([]string{"time.Time"}, types...)
	case k == kindArray && root.kind(s.Items) == kindString:
		types = []string{"[]string", "[]Color", "[]int", "[]*int", "[2]int"}
	}

	var main, others []string
	for _, r := range table {
		if r.Type == types[0] {
			main = append(main, r.Value)
		}
	}
	for _, t := range types[1:] {
		for _, r := range table {
			if r.Type == t && r.Refused {
				others = append(others, r.Value)
			}
		}
	}

	var out []string
	seen := map[string]bool{}
	add := func(v string) {
		if len(out) < n && !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, v := range first {
		add(v)
	}
	for i := 0; len(out) < n && (i < len(main) || i < len(others)); i++ {
		if i < len(main) {
			add(main[i])
		}
		if i < len(others) {
			add(others[i])
		}
	}
	return out
}

// swapCase changes the case of every letter of s.
func swapCase(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsUpper(r) {
			return unicode.ToLower(r)
		}
		return unicode.ToUpper(r)
	}, s)
}

// maxFillDepth bounds how deep valid fills nested objects.
const maxFillDepth = 4

// valid returns a value s takes, as JSON text: its const, its first enum
// member, its default or its first example when it has one; else a value of its kind (a whole
// number within its minimum and maximum, 1 when they allow; 1.5 or a
// number within them; "x", or a text of its format or minimum length; true;
// an array of its minimum number of valid items; an object with its
// required properties filled, depth permitting).
func (root *schema) valid(s *schema, depth int) string {
	s = root.resolve(s)
	switch {
	case s.Const != nil:
		return string(s.Const)
	case len(s.Enum) > 0:
		return string(s.Enum[0])
	case s.Default != nil && string(s.Default) != "null":
		return string(s.Default)
	case len(s.Examples) > 0 && string(s.Examples[0]) != "null":
		return string(s.Examples[0])
	}
	switch root.kind(s) {
	case kindInteger:
		return strconv.FormatInt(integerWithin(s), 10)
	case kindNumber:
		lo, hi := bounds(s)
		switch {
		case lo <= 1.5 && 1.5 <= hi:
			return "1.5"
		case !math.IsInf(lo, -1) && !math.IsInf(hi, 1):
			return strconv.FormatFloat(lo+(hi-lo)/2, 'g', -1, 64)
		case !math.IsInf(lo, -1):
			return strconv.FormatFloat(lo+1, 'g', -1, 64)
		default:
			return strconv.FormatFloat(hi-1, 'g', -1, 64)
		}
	case kindString:
		text := "x"
		switch s.Format {
		case "date-time":
			text = "2024-01-02T03:04:05Z"
		case "date":
			text = "2024-01-02"
		case "time":
			text = "03:04:05Z"
		case "email":
			text = "someone@example.com"
		case "uri", "url", "iri":
			text = "https://example.com/"
		case "uuid":
			text = "00000000-0000-4000-8000-000000000000"
		case "ipv4":
			text = "192.0.2.1"
		case "ipv6":
			text = "2001:db8::1"
		case "hostname":
			text = "example.com"
		case "duration":
			text = "PT1S"
		}
		if s.MinLength != nil && utf8.RuneCountInString(text) < *s.MinLength {
			text += strings.Repeat("x", *s.MinLength-utf8.RuneCountInString(text))
		}
		b, _ := json.Marshal(text)
		return string(b)
	case kindBoolean:
		return "true"
	case kindArray:
		if s.MinItems == nil || *s.MinItems <= 0 || depth >= maxFillDepth {
			return "[]"
		}
		item := root.valid(s.Items, depth+1)
		return "[" + strings.Repeat(item+",", min(*s.MinItems, 100)-1) + item + "]"
	case kindObject:
		if depth >= maxFillDepth {
			return "{}"
		}
		var b strings.Builder
		b.WriteByte('{')
		for i, name := range s.Required {
			if i > 0 {
				b.WriteByte(',')
			}
			key, _ := json.Marshal(name)
			b.Write(key)
			b.WriteByte(':')
			b.WriteString(root.valid(s.Properties[name], depth+1))
		}
		b.WriteByte('}')
		return b.String()
	}
	return `"x"`
}

// bounds are s's minimum and maximum, exclusive ones included, as floats;
// infinite where it gives none.
func bounds(s *schema) (lo, hi float64) {
	lo, hi = math.Inf(-1), math.Inf(1)
	for _, b := range []struct {
		raw       json.RawMessage
		low, excl bool
	}{{s.Minimum, true, false}, {s.ExclusiveMinimum, true, true}, {s.Maximum, false, false}, {s.ExclusiveMaximum, false, true}} {
		f, err := strconv.ParseFloat(string(b.raw), 64)
		if err != nil {
			continue // absent, or a boolean (draft 4's exclusive flags)
		}
		if b.excl {
			if b.low {
				f = math.Nextafter(f, math.Inf(1))
			} else {
				f = math.Nextafter(f, math.Inf(-1))
			}
		}
		if b.low {
			lo = max(lo, f)
		} else {
			hi = min(hi, f)
		}
	}
	return lo, hi
}

// integerWithin is 1 when s's bounds allow it, else the whole number
// nearest to 1 within them.
func integerWithin(s *schema) int64 {
	lo, hi := bounds(s)
	switch {
	case lo > 1:
		if lo >= math.MaxInt64 {
			return math.MaxInt64
		}
		return int64(math.Ceil(lo))
	case hi < 1:
		if hi <= math.MinInt64 {
			return math.MinInt64
		}
		return int64(math.Floor(hi))
	}
	return 1
}
