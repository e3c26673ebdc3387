package typereg

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-playground/validator/v10"
	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/internal/constraint"
	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/schemas"
)

// validate is the registry's own validator, run on zero values at
// registration. It is safe for concurrent use, and built on first use: a
// program whose tools have no validate tags never builds it.
var validate = sync.OnceValue(func() *validator.Validate { return validator.New() })

// A rule is one validate tag that is not omitempty, required or dive.
type rule struct{ name, param string }

// A level is the part of a validate tag before a dive, or between two.
type level struct {
	omitEmpty, required bool
	rules               []rule
	tag                 string // the level's whole tag, as validator.Var reads it
	rulesTag            string // the rules alone
}

// parseValidate splits a validate tag into its levels, failing on a tag
// the registry does not translate.
func parseValidate(tag string) ([]level, error) {
	var levels []level
	cur, tokens, rules := level{}, []string{}, []string{}
	flush := func() {
		cur.tag, cur.rulesTag = strings.Join(tokens, ","), strings.Join(rules, ",")
		levels = append(levels, cur)
		cur, tokens, rules = level{}, []string{}, []string{}
	}
	for tok := range strings.SplitSeq(tag, ",") {
		if strings.Contains(tok, "|") {
			return nil, fmt.Errorf("%q: alternatives (|) are not supported", tok)
		}
		name, param, hasParam := strings.Cut(tok, "=")
		param = strings.ReplaceAll(strings.ReplaceAll(param, "0x2C", ","), "0x7C", "|")
		switch name {
		case "dive":
			if hasParam {
				return nil, fmt.Errorf("%q: dive takes no value", tok)
			}
			flush()
			continue
		case "omitempty", "required":
			if hasParam {
				return nil, fmt.Errorf("%q: %s takes no value", tok, name)
			}
			if name == "omitempty" {
				if len(tokens) > 0 {
					return nil, fmt.Errorf("%q: omitempty must come first", tok)
				}
				cur.omitEmpty = true
			} else {
				cur.required = true
			}
		case "min", "max", "gte", "lte", "gt", "lt", "len", "eq", "ne", "oneof":
			if !hasParam || param == "" {
				return nil, fmt.Errorf("%q: %s needs a value", tok, name)
			}
			// The validator holds a value to every rule; a schema states
			// one value per keyword. ne alone adds up (not one of them).
			if name != "ne" && slices.ContainsFunc(cur.rules, func(r rule) bool { return r.name == name }) {
				return nil, fmt.Errorf("%s=%s: %s is stated twice in one level: state it once", name, param, name)
			}
			cur.rules = append(cur.rules, rule{name, param})
			rules = append(rules, tok)
		case "":
			return nil, fmt.Errorf("%q: an empty tag", tag)
		default:
			return nil, fmt.Errorf("%q is not a tag the registry can publish in the schema (it translates omitempty, required, min, max, gte, lte, gt, lt, len, eq, ne, oneof and dive)", name)
		}
		tokens = append(tokens, tok)
	}
	flush()
	return levels, nil
}

var (
	timeType            = reflect.TypeFor[time.Time]()
	durationType        = reflect.TypeFor[time.Duration]()
	numberType          = reflect.TypeFor[json.Number]()
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	errorType           = reflect.TypeFor[error]()
	oneofSplit          = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`'[^']*'|\S+`) }) // the validator's own split of oneof values
)

// constrain reads the validate tags of struct type t, whose parameters are
// params (by index), translates each parameter's into its property of
// schema, marks required the parameters whose zero value breaks their
// constraints, and returns them compiled (see compileTags); nil when no
// parameter is constrained.
func constrain(t reflect.Type, params []Param, schema *jsonschema.Schema) (*constraint.Tool, map[reflect.Type][]string, error) {
	if err := strayTags(t, params); err != nil {
		return nil, nil, err
	}
	for _, p := range params {
		if p.Validate == "" && !hasNestedTags(p.Type, map[reflect.Type]bool{}) {
			continue
		}
		// Before anything runs the validator on a zero value.
		if n := zeroWalk(t, map[reflect.Type]int{}); n > maxZeroWalk {
			return nil, nil, fmt.Errorf("validate tags on a struct whose zero value holds more than %d structs (by value, however deep): the validator walks each of them on every call it checks", maxZeroWalk)
		}
		break
	}
	checks := &constraint.Tool{Params: make([]constraint.Param, len(params))}
	constrained := false
	walked, nestedRequired := map[reflect.Type]bool{}, map[reflect.Type][]string{}
	for i := range params {
		p := &params[i]
		nested := hasNestedTags(p.Type, map[reflect.Type]bool{})
		if p.Validate == "" && !nested {
			continue
		}
		constrained = true
		var levels []level
		if p.Validate != "" {
			var err error
			if levels, err = parseValidate(p.Validate); err != nil {
				return nil, nil, fmt.Errorf("field %s: validate tag %q: %w", p.GoName, p.Validate, err)
			}
			if err := translate(levels, p.Type, p.schema, schema.Definitions); err != nil {
				return nil, nil, fmt.Errorf("field %s: validate tag %q: %w", p.GoName, p.Validate, err)
			}
		}
		if err := publishNested(p.Type, levels, p.schema, schema.Definitions, p.GoName, walked, nestedRequired); err != nil {
			return nil, nil, err
		}
		if n, ok := compileTags(levels, p.Type); ok {
			n.Seal() // ready for the walk, before any call reads it
			checks.Params[i].Root = n
		} else {
			checks.Decode = true
		}
	}
	for _, p := range params {
		if err := nestedTags(p.Type, p.GoName, walked, map[reflect.Type]bool{}); err != nil {
			return nil, nil, err
		}
	}
	if !constrained {
		return nil, nil, nil
	}
	// The validator itself says which parameters a call that leaves them
	// out breaks: those are required.
	var errs validator.ValidationErrors
	if err := safeStruct(reflect.New(t).Interface()); err != nil && !errors.As(err, &errs) {
		return nil, nil, err
	}
	for _, fe := range errs {
		i := paramOf(t, params, fe.StructNamespace())
		if i < 0 {
			return nil, nil, fmt.Errorf("the validator reports %s, which is no parameter", fe.StructNamespace())
		}
		checks.Params[i].ZeroFails = true
		if !slices.Contains(schema.Required, params[i].Name) {
			schema.Required = append(schema.Required, params[i].Name)
		}
	}
	// Keep the schema's required list in parameter order.
	var required []string
	for _, p := range params {
		if slices.Contains(schema.Required, p.Name) {
			required = append(required, p.Name)
		}
	}
	schema.Required = required
	return checks, nestedRequired, nil
}

// safeStruct runs the validator on v, turning a panic into an error.
func safeStruct(v any) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the validator panics: %s", contain.Sprint(r))
		}
	}()
	return validate().Struct(v)
}

// safeVar runs the validator on one value with tag, turning a panic into an
// error.
func safeVar(v any, tag string) (ok bool, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("the validator panics: %s", contain.Sprint(r))
		}
	}()
	return validate().Var(v, tag) == nil, nil
}

// paramOf returns the index of the parameter a validator error's struct
// namespace (Type.Field, Type.Embedded.Field[2]...) lies in, or -1.
func paramOf(t reflect.Type, params []Param, ns string) int {
	ns = strings.TrimPrefix(ns, t.Name()+".")
	for i, p := range params {
		if rest, ok := strings.CutPrefix(ns, p.GoName); ok && (rest == "" || rest[0] == '[' || rest[0] == '.') {
			return i
		}
	}
	return -1
}

// strayTags fails on a validate tag the validator reads but that is not a
// parameter's own: on a field the binder does not bind, on an embedded
// struct, through an embedded pointer, or inside a parameter's value.
func strayTags(t reflect.Type, params []Param) error {
	own := map[string]bool{}
	for _, p := range params {
		own[fmt.Sprint(p.index)] = true
	}
	// onPath: the structs being walked. One met again inside itself (through
	// an embedded pointer) adds no parameter: its fields are the ones
	// already walked, promoted from deeper, so no key binds them and the
	// binder never allocates the pointer for the validator to follow.
	onPath := map[reflect.Type]bool{}
	var walk func(t reflect.Type, index []int, prefix string, viaPointer bool) error
	walk = func(t reflect.Type, index []int, prefix string, viaPointer bool) error {
		if onPath[t] {
			return nil
		}
		onPath[t] = true
		defer delete(onPath, t)
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			idx := append(slices.Clone(index), i)
			name := prefix + f.Name
			tag := f.Tag.Get("validate")
			ft := f.Type
			if f.Anonymous {
				ptr := ft.Kind() == reflect.Pointer
				if ptr {
					ft = ft.Elem()
				}
				if ft.Kind() == reflect.Struct {
					if tag != "" && tag != "-" {
						return fmt.Errorf("field %s: validate tag %q on an embedded struct: put constraints on its fields", name, tag)
					}
					if err := walk(ft, idx, name+".", viaPointer || ptr); err != nil {
						return err
					}
					continue
				}
			}
			if tag == "" || tag == "-" {
				continue
			}
			switch {
			case !own[fmt.Sprint(idx)]:
				return fmt.Errorf("field %s: validate tag %q on a field that is not a parameter (the binder does not bind it)", name, tag)
			case viaPointer:
				return fmt.Errorf("field %s: validate tag %q on a field promoted through an embedded pointer, which the validator skips while the pointer is nil", name, tag)
			}
		}
		return nil
	}
	if err := walk(t, nil, "", false); err != nil {
		return err
	}
	return nil
}

// nestedTags fails on a validate tag on a field of a struct inside a
// parameter's value that the validator does not walk into (one not in
// walked: inside a list or a map the tag does not dive into).
func nestedTags(t reflect.Type, where string, walked, seen map[reflect.Type]bool) error {
	for !seen[t] && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
		seen[t] = true // a type may hold itself: type Tree []Tree
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct || seen[t] {
		return nil
	}
	seen[t] = true
	for i := range t.NumField() {
		f := t.Field(i)
		if tag := f.Tag.Get("validate"); tag != "" && tag != "-" && (f.IsExported() || f.Anonymous) && !walked[t] {
			return fmt.Errorf("field %s: validate tag %q on field %s of %v, inside the parameter where the validator does not check it (a list or a map the parameter's tag does not dive into): add dive, or move the tag", where, tag, f.Name, t)
		}
		if err := nestedTags(f.Type, where, walked, seen); err != nil {
			return err
		}
	}
	return nil
}

// kindOf names what a level's rules are about, for a Go type stripped of
// pointers; "" for a type the registry does not translate rules for.
func kindOf(t reflect.Type) string {
	switch {
	case t == timeType, t == durationType, t == numberType:
		return ""
	case decodesItselfType(t):
		return ""
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "int"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "uint"
	case reflect.Float32, reflect.Float64:
		return "float"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "bool"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "" // base64 text
		}
		return "slice"
	case reflect.Map:
		return "map"
	}
	return ""
}

// translate publishes levels, the validate tag of a value of Go type t,
// in its schema s.
func translate(levels []level, t reflect.Type, s *jsonschema.Schema, defs jsonschema.Definitions) error {
	lv := levels[0]
	orig := t
	pointer := t.Kind() == reflect.Pointer
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	kind := kindOf(t)
	if s == nil || s == jsonschema.TrueSchema || s == jsonschema.FalseSchema {
		return fmt.Errorf("the schema has no place for the constraint on %v", t)
	}
	if kind == "" && (len(lv.rules) > 0 || len(levels) > 1 || (lv.required && !pointer && !nullableKind(t))) {
		if decodesItselfType(t) && t != timeType {
			return fmt.Errorf("the registry does not publish constraints on %v, which decodes itself (UnmarshalJSON, UnmarshalJSONFrom or UnmarshalText): its rules would hold on what its method reads, not on the text sent", t)
		}
		return fmt.Errorf("the registry does not publish constraints on %v", t)
	}
	frag := &jsonschema.Schema{}
	for _, r := range lv.rules {
		if err := ruleInto(frag, r, kind, t); err != nil {
			return err
		}
	}
	if kind != "" && !pointer && kind != "slice" && kind != "map" {
		// The zero value: omitempty lets it through, required stops it,
		// whatever the rules say. The validator decides both.
		zero := reflect.Zero(t).Interface()
		zeroAll, err := safeVar(zero, lv.tag)
		if err != nil {
			return err
		}
		zeroRules := true
		if lv.rulesTag != "" {
			if zeroRules, err = safeVar(zero, lv.rulesTag); err != nil {
				return err
			}
		}
		switch {
		case !zeroAll && zeroRules:
			if kind == "string" && frag.MinLength == nil {
				frag.MinLength = ptrTo(uint64(1))
			} else if kind != "string" {
				if frag.Not == nil {
					frag.Not = &jsonschema.Schema{}
				}
				frag.Not.Enum = append(frag.Not.Enum, zeroJSON(kind))
			}
		case zeroAll && !zeroRules:
			frag = &jsonschema.Schema{AnyOf: []*jsonschema.Schema{{Const: zeroJSON(kind)}, frag}}
		}
	}
	if kind != "" {
		if err := agree(lv, orig, kind, frag); err != nil {
			return err
		}
	}
	if s.Ref != "" {
		if !emptyFrag(frag) {
			return fmt.Errorf("the schema refers to %v by $ref, and the registry does not publish constraints there", t)
		}
	} else if err := merge(s, frag); err != nil {
		return err
	}
	if len(levels) == 1 {
		return nil
	}
	switch kind {
	case "slice":
		return translate(levels[1:], t.Elem(), s.Items, defs)
	case "map":
		switch t.Key().Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		default:
			return fmt.Errorf("dive into a map keyed by %v is not supported", t.Key())
		}
		return translate(levels[1:], t.Elem(), schemas.MapValues(s), defs)
	}
	return fmt.Errorf("dive on %v, which is not a slice or a map", t)
}

func nullableKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

func ptrTo[T any](v T) *T { return &v }

func zeroJSON(kind string) any {
	switch kind {
	case "string":
		return ""
	case "bool":
		return false
	}
	return json.Number("0")
}

// ruleInto sets the schema keywords rule r states on a value of kind (Go
// type t), failing on a rule the validator would panic on or that the
// registry does not translate for that kind.
func ruleInto(s *jsonschema.Schema, r rule, kind string, t reflect.Type) error {
	set := func(dst *json.Number, v json.Number, what string) error {
		if *dst != "" {
			return fmt.Errorf("%s=%s: the %s is stated twice", r.name, r.param, what)
		}
		*dst = v
		return nil
	}
	setLen := func(dst **uint64, n int64, what string) error {
		if n < 0 {
			return fmt.Errorf("%s=%s admits no length", r.name, r.param)
		}
		if *dst != nil {
			return fmt.Errorf("%s=%s: the %s length is stated twice", r.name, r.param, what)
		}
		*dst = ptrTo(uint64(n))
		return nil
	}
	switch kind {
	case "int", "uint", "float":
		if r.name == "oneof" {
			if kind == "float" {
				return fmt.Errorf("oneof=%s: the validator does not take oneof on a float", r.param)
			}
			for _, v := range oneofValues(r.param) {
				n, err := number(v, kind, t)
				if err != nil || string(n) != v {
					return fmt.Errorf("oneof=%s: %q is not a whole number as the validator writes one (base 10, no sign +, no leading zero)", r.param, v)
				}
				if err := fits(n, t); err != nil {
					return fmt.Errorf("oneof=%s: %w", r.param, err)
				}
				s.Enum = append(s.Enum, n)
			}
			return nil
		}
		n, err := number(r.param, kind, t)
		if err == nil {
			err = fits(n, t)
		}
		if err != nil {
			return fmt.Errorf("%s=%s: %w", r.name, r.param, err)
		}
		switch r.name {
		case "min", "gte":
			return set(&s.Minimum, n, "lower bound")
		case "max", "lte":
			return set(&s.Maximum, n, "upper bound")
		case "gt":
			return set(&s.ExclusiveMinimum, n, "lower bound")
		case "lt":
			return set(&s.ExclusiveMaximum, n, "upper bound")
		case "eq", "len":
			if s.Const != nil {
				return fmt.Errorf("%s=%s: the value is stated twice", r.name, r.param)
			}
			s.Const = n
		case "ne":
			if s.Not == nil {
				s.Not = &jsonschema.Schema{}
			}
			s.Not.Enum = append(s.Not.Enum, n)
		}
		return nil
	case "string":
		switch r.name {
		case "oneof":
			for _, v := range oneofValues(r.param) {
				s.Enum = append(s.Enum, v)
			}
			return nil
		case "eq":
			if s.Const != nil {
				return fmt.Errorf("%s=%s: the value is stated twice", r.name, r.param)
			}
			s.Const = r.param
			return nil
		case "ne":
			if s.Not == nil {
				s.Not = &jsonschema.Schema{}
			}
			s.Not.Enum = append(s.Not.Enum, r.param)
			return nil
		}
		return lengthRule(r, &s.MinLength, &s.MaxLength, setLen)
	case "slice":
		return lengthRule(r, &s.MinItems, &s.MaxItems, setLen)
	case "map":
		return lengthRule(r, &s.MinProperties, &s.MaxProperties, setLen)
	case "bool":
		if r.name != "eq" && r.name != "ne" {
			break
		}
		b, err := strconv.ParseBool(r.param)
		if err != nil {
			return fmt.Errorf("%s=%s: not true or false", r.name, r.param)
		}
		if r.name == "eq" {
			s.Const = b
		} else {
			if s.Not == nil {
				s.Not = &jsonschema.Schema{}
			}
			s.Not.Enum = append(s.Not.Enum, b)
		}
		return nil
	}
	return fmt.Errorf("%s=%s: the validator does not take %s on %v", r.name, r.param, r.name, t)
}

// lengthRule sets a length bound (of text, a slice or a map).
func lengthRule(r rule, min, max **uint64, set func(**uint64, int64, string) error) error {
	if r.name == "oneof" || r.name == "ne" {
		return fmt.Errorf("%s=%s: the registry does not publish %s on a length", r.name, r.param, r.name)
	}
	n, err := strconv.ParseInt(r.param, 0, 64)
	if err != nil {
		return fmt.Errorf("%s=%s: a length must be a whole number", r.name, r.param)
	}
	switch r.name {
	case "min", "gte":
		return set(min, n, "least")
	case "max", "lte":
		return set(max, n, "greatest")
	case "gt":
		return set(min, n+1, "least")
	case "lt":
		return set(max, n-1, "greatest")
	}
	// len, eq
	if err := set(min, n, "least"); err != nil {
		return err
	}
	return set(max, n, "greatest")
}

// number parses a bound as the validator does for a value of kind (Go type
// t), and writes it as JSON.
func number(p, kind string, t reflect.Type) (json.Number, error) {
	switch kind {
	case "int":
		n, err := strconv.ParseInt(p, 0, 64)
		if err != nil {
			return "", errors.New("not a whole number the validator reads")
		}
		return json.Number(strconv.FormatInt(n, 10)), nil
	case "uint":
		n, err := strconv.ParseUint(p, 0, 64)
		if err != nil {
			return "", errors.New("not a whole number of at least 0 the validator reads")
		}
		return json.Number(strconv.FormatUint(n, 10)), nil
	}
	bits := 64
	if t.Kind() == reflect.Float32 {
		bits = 32
	}
	f, err := strconv.ParseFloat(p, bits)
	if err != nil {
		return "", errors.New("not a number the validator reads")
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "", errors.New("not a finite number: JSON, and so the schema, has no NaN nor infinity")
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, bits)), nil
}

// fits fails on a whole number n that integer type t cannot hold: such a
// bound constrains nothing the binder lets through, and a refusal would
// state it as the tool's range beside the type's own limit ("from 1 to
// 1000, and the call sent 200, which is too large").
func fits(n json.Number, t reflect.Type) error {
	v := reflect.New(t).Elem()
	var lo, hi string
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(string(n), 10, 64)
		if err == nil && !v.OverflowInt(i) {
			return nil
		}
		bits := t.Bits()
		lo, hi = strconv.FormatInt(-1<<(bits-1), 10), strconv.FormatInt(1<<(bits-1)-1, 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		u, err := strconv.ParseUint(string(n), 10, 64)
		if err == nil && !v.OverflowUint(u) {
			return nil
		}
		lo, hi = "0", strconv.FormatUint(1<<t.Bits()-1, 10)
	default:
		return nil
	}
	return fmt.Errorf("%v cannot hold %s (it holds %s to %s): a bound the type cannot hold constrains nothing", t, n, lo, hi)
}

// oneofValues splits oneof's value as the validator does.
func oneofValues(p string) []string {
	vals := oneofSplit().FindAllString(p, -1)
	for i, v := range vals {
		vals[i] = strings.ReplaceAll(v, "'", "")
	}
	return vals
}

func emptyFrag(f *jsonschema.Schema) bool {
	b, _ := json.Marshal(f)
	return string(b) == "{}" || string(b) == "true"
}

// merge adds frag's keywords to s, failing when s (from jsonschema tags)
// already states one of them otherwise, or states a bound frag does not.
func merge(s, frag *jsonschema.Schema) error {
	nums := []struct {
		name     string
		dst, src *json.Number
	}{
		{"minimum", &s.Minimum, &frag.Minimum}, {"maximum", &s.Maximum, &frag.Maximum},
		{"exclusiveMinimum", &s.ExclusiveMinimum, &frag.ExclusiveMinimum}, {"exclusiveMaximum", &s.ExclusiveMaximum, &frag.ExclusiveMaximum},
	}
	for _, n := range nums {
		if *n.dst != "" && !sameNumber(*n.dst, *n.src) {
			return twoRanges(n.name, *n.dst, *n.src)
		}
		*n.dst = *n.src
	}
	lens := []struct {
		name     string
		dst, src **uint64
	}{
		{"minLength", &s.MinLength, &frag.MinLength}, {"maxLength", &s.MaxLength, &frag.MaxLength},
		{"minItems", &s.MinItems, &frag.MinItems}, {"maxItems", &s.MaxItems, &frag.MaxItems},
		{"minProperties", &s.MinProperties, &frag.MinProperties}, {"maxProperties", &s.MaxProperties, &frag.MaxProperties},
	}
	for _, l := range lens {
		if *l.dst != nil && (*l.src == nil || **l.dst != **l.src) {
			return twoRanges(l.name, show(*l.dst), show(*l.src))
		}
		*l.dst = *l.src
	}
	if len(s.Enum) > 0 && !sameList(s.Enum, frag.Enum) {
		return twoRanges("enum", s.Enum, frag.Enum)
	}
	s.Enum = frag.Enum
	if s.Const != nil && fmt.Sprint(s.Const) != fmt.Sprint(frag.Const) {
		return twoRanges("const", s.Const, frag.Const)
	}
	s.Const = frag.Const
	for _, x := range []struct {
		name     string
		dst, src any
	}{{"not", s.Not, frag.Not}, {"anyOf", s.AnyOf, frag.AnyOf}} {
		if !reflect.ValueOf(x.dst).IsNil() && !reflect.ValueOf(x.src).IsNil() {
			return fmt.Errorf("the jsonschema tags state %s already, and so does the validate tag", x.name)
		}
	}
	if frag.Not != nil {
		s.Not = frag.Not
	}
	if frag.AnyOf != nil {
		if s.Minimum != "" || s.Maximum != "" || s.ExclusiveMinimum != "" || s.ExclusiveMaximum != "" ||
			s.MinLength != nil || s.MaxLength != nil || len(s.Enum) > 0 || s.Const != nil || s.Not != nil {
			return errors.New("the jsonschema tags state a bound that omitempty lets the zero value past")
		}
		s.AnyOf = frag.AnyOf
	}
	return nil
}

func show(p *uint64) any {
	if p == nil {
		return "none"
	}
	return *p
}

func twoRanges(name string, tagged, validated any) error {
	if v, ok := validated.(json.Number); ok && v == "" {
		validated = "none"
	}
	if v, ok := validated.([]any); ok && len(v) == 0 {
		validated = "none"
	}
	return fmt.Errorf("the jsonschema tags state %s %v, and the validate tag states %v: one parameter, two ranges", name, tagged, validated)
}

func sameNumber(a, b json.Number) bool {
	x, ok1 := new(big.Rat).SetString(string(a))
	y, ok2 := new(big.Rat).SetString(string(b))
	return ok1 && ok2 && x.Cmp(y) == 0
}

func sameList(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if fmt.Sprint(a[i]) != fmt.Sprint(b[i]) {
			return false
		}
	}
	return true
}
