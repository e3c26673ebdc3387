package refuse

import (
	"encoding"
	"encoding/json"
	"fmt"
	"github.com/bindguard/bindguard/internal/toolrec"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonpath"
	"github.com/bindguard/bindguard/internal/schemas"
	"github.com/bindguard/bindguard/typereg"
)

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberType          = reflect.TypeFor[json.Number]()
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
	timeType            = reflect.TypeFor[time.Time]()
	durationType        = reflect.TypeFor[time.Duration]()
)

// words says what values of a Go type are, in the singular ("a whole
// number") and the plural ("whole numbers"), reading enums, patterns and
// field names from the advertised schema.
type words struct {
	defs   jsonschema.Definitions
	binder bind.Binder    // a few types read differently per binder: asked of its capabilities (bindcap.Of), never its name
	within []reflect.Type // the types being described, outermost first: a type may hold itself (type Tree []Tree)
	params []string       // what each parameter of the tool takes (see wordsFor), by index in Tool.Params
}

// wordsFor returns the words of tool t: what each of its parameters
// takes ("a whole number from 1 to 168") is built once per tool record,
// not per call (derivedOf).
func wordsFor(t *typereg.Tool) words {
	w := words{defs: recSchema(t).Definitions, binder: t.Plan().Binder()}
	w.params = derivedOf(t).Words
	return w
}

// derivedOf returns what refuse derives from tool t's record once, kept in
// the record (toolrec.Derived): the words of its parameters and the rules
// of their types sent more than once. A record is read-only once
// registered, and registering again makes a new one, so they go with the
// record. typereg cannot build them at registration (refuse imports
// typereg): the first call that needs them (one whose problems are
// worded, refused or warned of, or whose key is sent twice) does, and
// every later one shares them.
func derivedOf(t *typereg.Tool) *toolrec.Derived {
	slot := recDerived(t)
	if d := slot.Load(); d != nil {
		return d
	}
	w := words{defs: recSchema(t).Definitions, binder: t.Plan().Binder()}
	ps := recParams(t)
	d := &toolrec.Derived{Words: make([]string, len(ps)), Rules: make([]uint8, len(ps))}
	names := make([]string, len(ps))
	for i, p := range ps {
		d.Words[i] = w.takes(p.Type, p.Quoted, paramSchema(&p))
		d.Rules[i] = paramRulesOf(&p)
		names[i] = p.Name
	}
	d.Names, d.Near = names, nearNames(names)
	d.Pointers = make([]string, len(ps))
	for i, name := range names {
		if tok, err := json.Marshal(name); err == nil {
			d.Pointers[i] = jsonpath.ArgPath(tok).Pointer() // as the pass's path to a value sent under its name gives it
		}
	}
	if !slot.CompareAndSwap(nil, d) {
		d = slot.Load() // another call built them first: one set per record
	}
	return d
}

// param says what parameter i of the tool takes (see takes), as built
// once for the tool by wordsFor.
func (w words) param(i int) string { return w.params[i] }

// inside returns w describing t inside the types it describes, and
// whether t is one of them already.
func (w words) inside(t reflect.Type) (words, bool) {
	if slices.Contains(w.within, t) {
		return w, true
	}
	w.within = append(w.within[:len(w.within):len(w.within)], t)
	return w, false
}

// sameShape words a value of type t inside a value of type t.
func sameShape(t reflect.Type) (one, many string) {
	switch t.Kind() {
	case reflect.Slice, reflect.Array:
		return "a list of the same shape", "lists of the same shape"
	case reflect.Map:
		return "an object of the same shape", "objects of the same shape"
	}
	return "a value of the same shape", "values of the same shape"
}

func (w words) resolve(s *jsonschema.Schema) *jsonschema.Schema {
	for i := 0; s != nil && s.Ref != "" && i < 8; i++ {
		name, ok := strings.CutPrefix(s.Ref, "#/$defs/")
		if !ok {
			return nil
		}
		s = w.defs[name]
	}
	return s
}

// at returns the schema of the value at path inside a value whose schema
// is s, or nil where it cannot tell (past an elided step or a cut key).
func (w words) at(s *jsonschema.Schema, path jsonpath.Path) *jsonschema.Schema {
	path.Steps(func(st jsonpath.Step) bool {
		if s = w.resolve(s); s == nil {
			return false
		}
		switch {
		case st.Elided, st.Cut:
			s = nil
			return false
		case !st.IsKey:
			s = s.Items
			return true
		}
		if s.Properties != nil {
			if ps, ok := s.Properties.Get(st.Key); ok {
				s = ps
				return true
			}
		}
		s = s.AdditionalProperties
		return true
	})
	return s
}

func decodesItself(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType)
}

// takes says what a value of type t takes, in the singular, with the
// tool's own constraint its schema s publishes ("a whole number from 1 to
// 168"; see limited): whatever the problem, a refusal states the range a
// value must be in when the tool has one, and never the range of a Go
// type, which is not the tool's.
func (w words) takes(t reflect.Type, quoted bool, s *jsonschema.Schema) string {
	one, _ := w.limited(t, quoted, s)
	return one
}

func (w words) describe(t reflect.Type, quoted bool, s *jsonschema.Schema) (one, many string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	w, again := w.inside(t)
	if again {
		return sameShape(t)
	}
	s = w.resolve(s)
	if s != nil && len(s.Enum) > 0 {
		list := enumList(s.Enum)
		return "one of " + list, "values, each one of " + list
	}
	reads := bindcap.Of(w.binder)
	switch {
	case t == timeType:
		return "a date and time as RFC 3339 text", "dates and times as RFC 3339 text"
	case t == numberType && reads.Number == bindcap.NumberAsText:
		return "text (a JSON string)", "texts (JSON strings)"
	case t == numberType && reads.Number == bindcap.NumberOnly:
		return "a number (not a JSON string)", "numbers (not JSON strings)"
	case t == numberType:
		return "a number", "numbers"
	case t == durationType && reads.Duration == bindcap.DurationNever:
		return "no value: go-json-experiment reads a time.Duration only under a format tag option",
			"no values: go-json-experiment reads a time.Duration only under a format tag option"
	case t == durationType && reads.Duration == bindcap.DurationNanosecondsOrText && !quoted:
		return `a whole number of nanoseconds, or a duration as text such as "1s"`,
			`whole numbers of nanoseconds, or durations as text such as "1s"`
	case t == rawMessageType:
		return "any JSON value", "JSON values"
	case t == durationType && !quoted:
		return "a whole number of nanoseconds", "whole numbers of nanoseconds"
	case decodesItself(t):
		if one, many, ok := w.fromSchema(s); ok {
			return one, many
		}
		return "a value that " + t.String() + " reads", "values that " + t.String() + " reads"
	}
	switch t.Kind() {
	case reflect.Bool:
		if quoted {
			return `true or false inside a JSON string, as in "true"`, `true or false values inside JSON strings`
		}
		return "true or false", "true or false values"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if quoted {
			return `a whole number inside a JSON string, as in "42"`, "whole numbers inside JSON strings"
		}
		return "a whole number", "whole numbers"
	case reflect.Float32, reflect.Float64:
		if quoted {
			return `a number inside a JSON string, as in "4.2"`, "numbers inside JSON strings"
		}
		return "a number", "numbers"
	case reflect.String:
		if quoted {
			return `text written as a JSON string inside a JSON string, as in "\"text\""`, "texts written as JSON strings inside JSON strings"
		}
		if s != nil && s.Pattern != "" {
			return "text matching the pattern " + s.Pattern, "texts matching the pattern " + s.Pattern
		}
		return "text", "texts"
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return "base64 text", "base64 texts"
		}
		var items *jsonschema.Schema
		if s != nil {
			items = s.Items
		}
		// A fixed-size array says no size: the binder (encoding/json) reads
		// any number of elements into it.
		_, elems := w.describe(t.Elem(), false, items)
		return "a list (a JSON array) of " + elems, "lists (JSON arrays) of " + elems
	case reflect.Map:
		var values *jsonschema.Schema
		if s != nil {
			values = s.AdditionalProperties
		}
		_, elems := w.describe(t.Elem(), false, values)
		switch t.Key().Kind() {
		case reflect.String:
			return "an object whose values are " + elems, "objects whose values are " + elems
		default:
			return "an object whose values are " + elems + ", keyed by whole numbers",
				"objects whose values are " + elems + ", keyed by whole numbers"
		}
	case reflect.Struct:
		var names []string
		if s != nil && s.Properties != nil {
			fields := fieldTypes(t)
			for p := s.Properties.Oldest(); p != nil; p = p.Next() {
				names = append(names, p.Key+w.fieldRule(fields[p.Key], p.Value))
			}
		}
		if len(names) == 0 {
			return "an object", "objects"
		}
		// The wording, kept for one field too ("with fields a").
		f := strings.Join(names, ", ")
		return "an object with fields " + f, "objects with fields " + f
	case reflect.Interface:
		return "any JSON value", "JSON values"
	}
	return "a value of type " + t.String(), "values of type " + t.String()
}

// fieldRule says, in parentheses after a nested struct's field name, the
// tool's own constraint on the field (its validate tag, as its schema s
// publishes it: " (a whole number from 1 to 65535)"), so that a refusal
// of a value inside the field says which rule it broke; "" for a field
// without one, or whose Go type (ft) is not known.
func (w words) fieldRule(ft reflect.Type, s *jsonschema.Schema) string {
	if ft == nil || !w.ruled(s, new(int)) {
		return ""
	}
	one, _, zero := w.limitedParts(ft, false, s)
	if zero != "" {
		one += ", or " + zero
	}
	return " (" + one + ")"
}

// ruled reports whether schema s, or one inside it, publishes a rule
// limited words: a bound, a length, a size, a pattern, values it must or
// must not be, the zero value omitempty lets through. It reads at most 64
// schemas (budget counts them), and past them reports true: the field's
// words are then limited's, which say no less.
func (w words) ruled(s *jsonschema.Schema, budget *int) bool {
	if s = w.resolve(s); s == nil {
		return false
	}
	if *budget++; *budget > 64 {
		return true
	}
	if s.Minimum != "" || s.Maximum != "" || s.ExclusiveMinimum != "" || s.ExclusiveMaximum != "" ||
		s.MinLength != nil || s.MaxLength != nil || s.MinItems != nil || s.MaxItems != nil ||
		s.MinProperties != nil || s.MaxProperties != nil || s.Pattern != "" || s.Const != nil || s.Not != nil ||
		len(s.Enum) > 0 || len(s.AnyOf) > 0 {
		return true
	}
	if s.Items != nil && w.ruled(s.Items, budget) || s.AdditionalProperties != nil && w.ruled(s.AdditionalProperties, budget) {
		return true
	}
	if s.Properties != nil {
		for p := s.Properties.Oldest(); p != nil; p = p.Next() {
			if w.ruled(p.Value, budget) {
				return true
			}
		}
	}
	return false
}

// fieldTypes returns the Go type of each field of struct type t by the
// name the binder reads it under (its json name, or its Go name), promoted
// fields of embedded structs among them: the shallowest of a name.
func fieldTypes(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	depth := map[string]int{}
	for _, f := range reflect.VisibleFields(t) {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			if f.Anonymous {
				continue // its fields are promoted
			}
			name = f.Name
		}
		if d, ok := depth[name]; !ok || len(f.Index) < d {
			out[name], depth[name] = f.Type, len(f.Index)
		}
	}
	return out
}

// fromSchema describes a type that decodes itself by what its schema says.
func (w words) fromSchema(s *jsonschema.Schema) (one, many string, ok bool) {
	if s == nil {
		return "", "", false
	}
	alts := s.OneOf
	if len(alts) == 0 {
		alts = s.AnyOf
	}
	if len(alts) > 0 {
		var ones, manys []string
		for _, a := range alts {
			o, m, ok := w.fromSchema(w.resolve(a))
			if !ok {
				return "", "", false
			}
			ones, manys = append(ones, o), append(manys, m)
		}
		return strings.Join(ones, " or "), strings.Join(manys, " or "), true
	}
	switch s.Type {
	case "integer":
		return "a whole number", "whole numbers", true
	case "number":
		return "a number", "numbers", true
	case "boolean":
		return "true or false", "true or false values", true
	case "string":
		switch {
		case s.Format == "date-time":
			return "a date and time as RFC 3339 text", "dates and times as RFC 3339 text", true
		case s.Pattern != "":
			return "text matching the pattern " + s.Pattern, "texts matching the pattern " + s.Pattern, true
		}
		return "text", "texts", true
	case "array":
		return "a list (a JSON array)", "lists (JSON arrays)", true
	case "object":
		return "an object", "objects", true
	}
	return "", "", false
}

func enumList(enum []any) string {
	parts := make([]string, len(enum))
	for i, e := range enum {
		if s, ok := e.(string); ok {
			parts[i] = s
		} else {
			parts[i] = fmt.Sprint(e)
		}
	}
	return strings.Join(parts, ", ")
}

// limited says what a value of type t takes with the tool's own
// constraint on it: the bounds, lengths and values its schema s publishes
// from the parameter's validate tag ("a whole number from 1 to 168",
// "text of at most 64 characters", "a list (a JSON array) of whole numbers
// from 1 to 100, with 1 to 5 elements"), and what the type takes where it
// publishes none.
func (w words) limited(t reflect.Type, quoted bool, s *jsonschema.Schema) (one, many string) {
	one, many, zero := w.limitedParts(t, quoted, s)
	if zero != "" {
		return one + " (or " + zero + ")", many + " (or " + zero + ")"
	}
	return one, many
}

// limitedParts is limited, with the zero value that passes whatever the
// rules say (omitempty: "0", "empty text") apart; "" for none.
func (w words) limitedParts(t reflect.Type, quoted bool, s *jsonschema.Schema) (one, many, zero string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if slices.Contains(w.within, t) {
		one, many = sameShape(t)
		return one, many, ""
	}
	s = w.resolve(s)
	if s == nil {
		one, many = w.describe(t, quoted, s)
		return one, many, ""
	}
	rules, zero := s, ""
	if len(s.AnyOf) == 2 && s.AnyOf[0].Const != nil {
		// omitempty: the zero value passes whatever the rules say.
		rules, zero = s.AnyOf[1], zeroWord(s.AnyOf[0].Const)
	}
	switch {
	case t.Kind() == reflect.Slice && t.Elem().Kind() != reflect.Uint8:
		inner, _ := w.inside(t)
		_, elems := inner.limited(t.Elem(), false, s.Items)
		count := countClause(rules.MinItems, rules.MaxItems, "element")
		return "a list (a JSON array) of " + elems + count, "lists (JSON arrays) of " + elems + count, ""
	case t.Kind() == reflect.Map:
		inner, _ := w.inside(t)
		_, elems := inner.limited(t.Elem(), false, schemas.MapValues(s))
		keyed := ""
		if t.Key().Kind() != reflect.String {
			keyed = ", keyed by whole numbers"
		}
		count := countClause(rules.MinProperties, rules.MaxProperties, "key")
		return "an object whose values are " + elems + keyed + count, "objects whose values are " + elems + keyed + count, ""
	case len(rules.Enum) > 0:
		list := enumList(rules.Enum)
		return "one of " + list, "values, each one of " + list, zero
	case t.Kind() == reflect.Bool && (rules.Const != nil || rules.Not != nil):
		v := rules.Const
		if v == nil && len(rules.Not.Enum) == 1 {
			b, _ := rules.Not.Enum[0].(bool)
			v = !b
		}
		if v != nil {
			return fmt.Sprint(v), fmt.Sprint(v) + " values", zero
		}
	}
	one, many = w.describe(t, quoted, s)
	if c := limits(rules, t.Kind() == reflect.String); c != "" {
		one, many = one+" "+c, many+" "+c
	}
	return one, many, zero
}

// limits words the bounds of a number, or of text's length, and the values
// it must or must not be.
func limits(s *jsonschema.Schema, text bool) string {
	var parts []string
	if text {
		switch {
		case s.MinLength != nil && s.MaxLength != nil && *s.MinLength == *s.MaxLength:
			parts = append(parts, "of exactly "+plural(*s.MinLength, "character"))
		case s.MinLength != nil && s.MaxLength != nil:
			parts = append(parts, "of "+strconv.FormatUint(*s.MinLength, 10)+" to "+plural(*s.MaxLength, "character"))
		case s.MinLength != nil:
			parts = append(parts, "of at least "+plural(*s.MinLength, "character"))
		case s.MaxLength != nil:
			parts = append(parts, "of at most "+plural(*s.MaxLength, "character"))
		}
	} else {
		if s.Minimum != "" && s.Maximum != "" {
			parts = append(parts, "from "+string(s.Minimum)+" to "+string(s.Maximum))
		} else if s.Minimum != "" {
			parts = append(parts, "at least "+string(s.Minimum))
		}
		if s.ExclusiveMinimum != "" {
			parts = append(parts, "greater than "+string(s.ExclusiveMinimum))
		}
		if s.Maximum != "" && s.Minimum == "" {
			parts = append(parts, "at most "+string(s.Maximum))
		}
		if s.ExclusiveMaximum != "" {
			parts = append(parts, "less than "+string(s.ExclusiveMaximum))
		}
	}
	if s.Const != nil {
		parts = append(parts, "equal to "+valueWord(s.Const))
	}
	if s.Not != nil && len(s.Not.Enum) > 0 {
		var vs []string
		for _, v := range s.Not.Enum {
			vs = append(vs, valueWord(v))
		}
		parts = append(parts, "other than "+strings.Join(vs, " and "))
	}
	c := strings.Join(parts, " and ")
	if strings.HasPrefix(c, "at ") {
		c = "of " + c
	}
	return c
}

// countClause words the bounds of a list's or an object's size.
func countClause(min, max *uint64, unit string) string {
	switch {
	case min != nil && max != nil && *min == *max:
		return ", with exactly " + plural(*min, unit)
	case min != nil && max != nil:
		return ", with " + strconv.FormatUint(*min, 10) + " to " + plural(*max, unit)
	case min != nil:
		return ", with at least " + plural(*min, unit)
	case max != nil:
		return ", with at most " + plural(*max, unit)
	}
	return ""
}

func plural(n uint64, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.FormatUint(n, 10) + " " + unit + "s"
}

func valueWord(v any) string {
	if s, ok := v.(string); ok {
		return strconv.Quote(s)
	}
	return fmt.Sprint(v)
}

func zeroWord(v any) string {
	if s, ok := v.(string); ok && s == "" {
		return "empty text"
	}
	return fmt.Sprint(v)
}
