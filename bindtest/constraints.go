package bindtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/bindguard/bindguard/internal/schemas"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"
	gschema "github.com/google/jsonschema-go/jsonschema"
	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// Constraints reports, as a test error for each, every value on which the
// published schema and the tool's own constraints disagree, for every
// parameter of every tool in reg that has a validate tag or whose schema
// states a bound or an enum: a server whose tools pass it states one range
// per parameter, not two.
//
// The values are made from both the schema and the validate tag: each
// bound, one below and one above it (and halves between, for floats); each
// value of an enum or a oneof, and one that is none of them; texts of
// lengths around each length bound, written with two-byte characters so
// that characters and bytes differ; lists and objects of sizes around each
// size bound, and, under dive, each such value as an element; for a
// nested struct, an object of good values for its fields with each field's
// own such values in turn (and each field the schema does not require left
// out); and the parameter left out. Each value the binder reads is sent as the only
// argument of a call, and three verdicts must agree: the published schema
// (the parameter's property, validated by github.com/google/jsonschema-go),
// the validator (validator.Struct on the decoded call, failing on that
// parameter), and the guard (refuse.Decide: a Constraint, MissingArgument
// or MissingField problem for that parameter, refused or warned; not
// checked when the tool's mode is Off). Left out, a parameter is its zero
// value to the validator: when that breaks its constraints, the schema
// must list it as required and the guard must refuse the call (a schema
// may require a parameter whose zero value passes: presence is not a
// range).
func Constraints(t testing.TB, reg *typereg.Registry) {
	t.Helper()
	for _, f := range constraintFindings(reg) {
		t.Error("bindtest: " + f)
	}
}

var census = validator.New()

// constraintFindings returns every disagreement Constraints reports.
func constraintFindings(reg *typereg.Registry) []string {
	var out []string
	for _, tl := range reg.Tools() {
		if schemaTool(tl) {
			continue // no validate tags: its constraints are the schema's own
		}
		schema := tl.Schema()
		for _, p := range tl.Params() {
			if p.Validate == "" && !bounded(p.Schema(), schema.Definitions, 0) {
				continue
			}
			out = append(out, paramFindings(reg, tl, schema, p)...)
		}
	}
	return out
}

func paramFindings(reg *typereg.Registry, tl *typereg.Tool, schema *jsonschema.Schema, p typereg.Param) []string {
	defs := schema.Definitions
	prop, err := resolveSchema(p.Schema(), defs)
	if err != nil {
		return []string{fmt.Sprintf("tool %q, parameter %q: the published schema does not resolve: %v", tl.Name(), p.Name, err)}
	}
	var out []string
	verdicts := func(value string) {
		call := "{}"
		if value != "" {
			key, _ := json.Marshal(p.Name)
			call = "{" + string(key) + ":" + value + "}"
		}
		v := reflect.New(tl.Type())
		if reg.Binder().Unmarshal([]byte(call), v.Interface()) != nil {
			return // the binder's matter, not a constraint's
		}
		var schemaOK bool
		if value == "" {
			schemaOK = !slices.Contains(schema.Required, p.Name)
		} else {
			var inst any
			_ = json.Unmarshal([]byte(value), &inst)
			schemaOK = prop.Validate(inst) == nil
		}
		validatorOK, panicked := validatorPasses(tl, p, v.Interface())
		guardOK := guardPasses(reg, tl, p, call)
		what := value
		if what == "" {
			what = "(left out)"
		}
		disagree := schemaOK != validatorOK || tl.Policy().Mode != typereg.Off && guardOK != validatorOK
		if value == "" {
			// Left out, the parameter is its zero value to the validator;
			// the schema and the guard may require it whatever its
			// constraints say, but must when the zero breaks them.
			disagree = !validatorOK && (schemaOK || tl.Policy().Mode != typereg.Off && guardOK)
		}
		switch {
		case panicked != "":
			out = append(out, fmt.Sprintf("tool %q, parameter %q, value %s: the validator panics: %s", tl.Name(), p.Name, short(what, 60), panicked))
		case disagree:
			out = append(out, fmt.Sprintf("tool %q, parameter %q (validate:%q), value %s: the published schema %s it, the validator %s it, the guard %s it",
				tl.Name(), p.Name, p.Validate, short(what, 60), verb(schemaOK), verb(validatorOK), verb(guardOK)))
		}
	}
	verdicts("")
	for _, v := range probes(p.Type, p.Schema(), defs, levelTags(p.Validate)) {
		verdicts(v)
	}
	return out
}

func verb(ok bool) string {
	if ok {
		return "accepts"
	}
	return "refuses"
}

// validatorPasses runs the validator on the decoded call v and reports
// whether it finds nothing wrong with parameter p.
func validatorPasses(tl *typereg.Tool, p typereg.Param, v any) (ok bool, panicked string) {
	defer func() {
		if r := recover(); r != nil {
			panicked = contain.Sprint(r) // printed under recovery: it may be hostile
		}
	}()
	err := census.Struct(v)
	var errs validator.ValidationErrors
	if err != nil && !errors.As(err, &errs) {
		return false, err.Error()
	}
	for _, fe := range errs {
		ns := strings.TrimPrefix(fe.StructNamespace(), tl.Type().Name()+".")
		if rest, ok := strings.CutPrefix(ns, p.GoName); ok && (rest == "" || rest[0] == '[' || rest[0] == '.') {
			return false, ""
		}
	}
	return true, ""
}

// guardPasses reports whether the guard finds no constraint problem (nor a
// missing argument) in parameter p of call.
func guardPasses(reg *typereg.Registry, tl *typereg.Tool, p typereg.Param, call string) bool {
	d := refuse.Decide(reg, tl.Name(), json.RawMessage(call))
	var ps []refuse.Problem
	if d.Refusal != nil {
		ps = append(ps, d.Refusal.Problems...)
	}
	if d.Warnings != nil {
		ps = append(ps, d.Warnings.Problems...)
	}
	for _, pr := range ps {
		if pr.Argument == p.Name && (pr.Code == refuse.Constraint || pr.Code == refuse.MissingArgument || pr.Code == refuse.MissingField) {
			return false
		}
	}
	return true
}

// resolveSchema turns an advertised (invopop) schema, with the tool's
// definitions, into one github.com/google/jsonschema-go validates with.
func resolveSchema(s *jsonschema.Schema, defs jsonschema.Definitions) (*gschema.Resolved, error) {
	if s == nil {
		s = &jsonschema.Schema{}
	}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	if m == nil { // true
		m = map[string]any{}
	}
	if len(defs) > 0 {
		d, err := json.Marshal(defs)
		if err != nil {
			return nil, err
		}
		var dm any
		_ = json.Unmarshal(d, &dm)
		m["$defs"] = dm
	}
	b, _ = json.Marshal(m)
	var gs gschema.Schema
	if err := json.Unmarshal(b, &gs); err != nil {
		return nil, err
	}
	return gs.Resolve(nil)
}

func deref(s *jsonschema.Schema, defs jsonschema.Definitions) *jsonschema.Schema {
	for i := 0; s != nil && s.Ref != "" && i < 8; i++ {
		name, ok := strings.CutPrefix(s.Ref, "#/$defs/")
		if !ok {
			return nil
		}
		s = defs[name]
	}
	return s
}

// bounded reports whether schema s states a bound, a size, an enum, a
// const or a not, at its level or in its items or values.
func bounded(s *jsonschema.Schema, defs jsonschema.Definitions, depth int) bool {
	s = deref(s, defs)
	if s == nil || depth > 8 {
		return false
	}
	if s.Minimum != "" || s.Maximum != "" || s.ExclusiveMinimum != "" || s.ExclusiveMaximum != "" ||
		s.MinLength != nil || s.MaxLength != nil || s.MinItems != nil || s.MaxItems != nil ||
		s.MinProperties != nil || s.MaxProperties != nil || len(s.Enum) > 0 || s.Const != nil || s.Not != nil || len(s.AnyOf) > 0 {
		return true
	}
	if s.Properties != nil {
		for pair := s.Properties.Oldest(); pair != nil; pair = pair.Next() {
			if bounded(pair.Value, defs, depth+1) {
				return true
			}
		}
	}
	return bounded(s.Items, defs, depth+1) || bounded(schemas.MapValues(s), defs, depth+1)
}

// levelTags splits a validate tag at each dive.
func levelTags(tag string) [][]string {
	out := [][]string{nil}
	if tag == "" {
		return out
	}
	for tok := range strings.SplitSeq(tag, ",") {
		if tok == "dive" {
			out = append(out, nil)
			continue
		}
		out[len(out)-1] = append(out[len(out)-1], tok)
	}
	return out
}

// seeds gathers the numbers and texts a level states: the schema's
// keywords (in anyOf alternatives too) and the tag's values.
func seeds(s *jsonschema.Schema, tags []string) (nums []*big.Rat, texts []string, lens []int64) {
	addNum := func(v any) {
		if r, ok := new(big.Rat).SetString(fmt.Sprint(v)); ok {
			nums = append(nums, r)
		}
	}
	var walk func(s *jsonschema.Schema, depth int)
	walk = func(s *jsonschema.Schema, depth int) {
		if s == nil || depth > 3 {
			return
		}
		for _, n := range []json.Number{s.Minimum, s.Maximum, s.ExclusiveMinimum, s.ExclusiveMaximum} {
			if n != "" {
				addNum(n)
			}
		}
		for _, l := range []*uint64{s.MinLength, s.MaxLength, s.MinItems, s.MaxItems, s.MinProperties, s.MaxProperties} {
			if l != nil {
				lens = append(lens, int64(min(*l, 1<<20)))
			}
		}
		vals := slices.Clone(s.Enum)
		if s.Const != nil {
			vals = append(vals, s.Const)
		}
		for _, v := range vals {
			if str, ok := v.(string); ok {
				texts = append(texts, str)
			} else {
				addNum(v)
			}
		}
		walk(s.Not, depth+1)
		for _, a := range s.AnyOf {
			walk(a, depth+1)
		}
	}
	walk(s, 0)
	for _, tok := range tags {
		name, param, ok := strings.Cut(tok, "=")
		if !ok {
			continue
		}
		for _, v := range strings.Fields(param) {
			v = strings.Trim(v, "'")
			texts = append(texts, v)
			if n, err := strconv.ParseInt(v, 0, 64); err == nil {
				nums = append(nums, new(big.Rat).SetInt64(n))
				lens = append(lens, n)
			} else if r, ok := new(big.Rat).SetString(v); ok {
				nums = append(nums, r)
			}
		}
		if name == "oneof" || name == "eq" || name == "ne" {
			texts = append(texts, param)
		}
	}
	return nums, texts, lens
}

// maxProbeLen bounds the lengths probes are made with.
const maxProbeLen = 300

// probes makes the JSON values to send for a value of Go type t whose
// published schema is s and whose validate tag's levels are lv.
func probes(t reflect.Type, s *jsonschema.Schema, defs jsonschema.Definitions, lv [][]string) []string {
	return probesIn(t, s, defs, lv, nil)
}

// probesIn is probes for a value inside values of the types within: a type
// met again (type Tree []Tree) is probed with its empty value only.
func probesIn(t reflect.Type, s *jsonschema.Schema, defs jsonschema.Definitions, lv [][]string, within []reflect.Type) []string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if slices.Contains(within, t) {
		switch t.Kind() {
		case reflect.Slice, reflect.Array:
			return []string{"[]"}
		case reflect.Map, reflect.Struct:
			return []string{"{}"}
		}
		return nil
	}
	within = append(within[:len(within):len(within)], t)
	s = deref(s, defs)
	var tags []string
	if len(lv) > 0 {
		tags = lv[0]
	}
	nums, texts, lens := seeds(s, tags)
	var out []string
	add := func(v string) {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	lengths := func() []int64 {
		ls := []int64{0, 1, 2}
		for _, l := range lens {
			ls = append(ls, l-1, l, l+1)
		}
		var ok []int64
		for _, l := range ls {
			if l >= 0 && l <= maxProbeLen && !slices.Contains(ok, l) {
				ok = append(ok, l)
			}
		}
		return ok
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		float := t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64
		steps := []*big.Rat{big.NewRat(-1, 1), big.NewRat(0, 1), big.NewRat(1, 1)}
		if float {
			steps = append(steps, big.NewRat(-1, 2), big.NewRat(1, 2))
		}
		for _, n := range append(nums, big.NewRat(0, 1)) {
			for _, d := range steps {
				v := new(big.Rat).Add(n, d)
				if v.IsInt() {
					add(v.Num().String())
				} else if float {
					add(v.FloatString(6))
				}
			}
		}
	case reflect.String:
		for _, l := range lengths() {
			add(strconv.Quote(strings.Repeat("é", int(l))))
		}
		for _, x := range append(texts, "zz-none-of-these") {
			b, _ := json.Marshal(x)
			add(string(b))
		}
	case reflect.Bool:
		add("true")
		add("false")
	case reflect.Struct:
		// A nested struct's fields, each with its own tag (see typereg,
		// Constraints): an object of every field's first value its
		// published property accepts, then that object with each field
		// sent each of its probes instead, or left out.
		if s == nil || s.Properties == nil {
			break
		}
		type field struct {
			key    string
			probes []string
		}
		var fields []field
		good := map[string]string{}
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || f.Anonymous {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			ps, ok := s.Properties.Get(name)
			if !ok {
				continue
			}
			var lvf [][]string
			if tag := f.Tag.Get("validate"); tag != "" && tag != "-" {
				lvf = levelTags(tag)
			}
			key, _ := json.Marshal(name)
			fp := probesIn(f.Type, ps, defs, lvf, within)
			fields = append(fields, field{string(key), fp})
			if g := goodElement(fp, ps, defs); g != "" {
				good[string(key)] = g
			}
		}
		object := func(swap string, value string) string {
			var ms []string
			for _, f := range fields {
				v, ok := good[f.key]
				if f.key == swap {
					v, ok = value, value != ""
				}
				if ok {
					ms = append(ms, f.key+":"+v)
				}
			}
			return "{" + strings.Join(ms, ",") + "}"
		}
		// A field the schema requires is sent in every probe (presence is
		// not a range: the schema may require a field whose zero value
		// passes); without a good value for one, there is no good object.
		required := func(key string) bool {
			var name string
			_ = json.Unmarshal([]byte(key), &name)
			return slices.Contains(s.Required, name)
		}
		for _, f := range fields {
			if _, ok := good[f.key]; !ok && required(f.key) {
				return out
			}
		}
		add(object("", ""))
		for _, f := range fields {
			if !required(f.key) {
				add(object(f.key, ""))
			}
			for _, v := range f.probes {
				add(object(f.key, v))
			}
		}
	case reflect.Slice, reflect.Map:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			break
		}
		var es *jsonschema.Schema
		if s != nil {
			es = s.Items
			if t.Kind() == reflect.Map {
				es = schemas.MapValues(s)
			}
		}
		var rest [][]string
		if len(lv) > 1 {
			rest = lv[1:]
		}
		elems := probesIn(t.Elem(), es, defs, rest, within)
		good := goodElement(elems, es, defs)
		if good == "" {
			break
		}
		minSize := int64(1)
		if s != nil && s.MinItems != nil {
			minSize = max(minSize, int64(*s.MinItems))
		}
		if s != nil && s.MinProperties != nil {
			minSize = max(minSize, int64(*s.MinProperties))
		}
		minSize = min(minSize, maxProbeLen)
		build := func(vals []string) string {
			var b strings.Builder
			if t.Kind() == reflect.Slice {
				b.WriteString("[" + strings.Join(vals, ",") + "]")
				return b.String()
			}
			b.WriteString("{")
			for i, v := range vals {
				if i > 0 {
					b.WriteString(",")
				}
				key := `"k` + strconv.Itoa(i) + `"`
				if k := t.Key().Kind(); k != reflect.String {
					key = `"` + strconv.Itoa(i+1) + `"`
				}
				b.WriteString(key + ":" + v)
			}
			b.WriteString("}")
			return b.String()
		}
		for _, l := range lengths() {
			add(build(slices.Repeat([]string{good}, int(l))))
		}
		for _, e := range elems {
			vals := slices.Repeat([]string{good}, int(minSize))
			vals[len(vals)-1] = e
			add(build(vals))
		}
	}
	return out
}

// goodElement returns the first of elems that the element's published
// schema accepts, or "" when none is.
func goodElement(elems []string, es *jsonschema.Schema, defs jsonschema.Definitions) string {
	r, err := resolveSchema(es, defs)
	if err != nil {
		return ""
	}
	for _, e := range elems {
		var inst any
		if json.Unmarshal([]byte(e), &inst) == nil && r.Validate(inst) == nil {
			return e
		}
	}
	return ""
}
