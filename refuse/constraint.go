package refuse

import (
	"encoding"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/go-playground/validator/v10"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
	"github.com/bindguard/bindguard/typereg"
)

// validate checks the tools' own constraints. A *validator.Validate is safe
// for concurrent use, and caches what it reads of each type. It is built on
// first use: a program whose tools have no validate tags never builds it.
var validate = sync.OnceValue(func() *validator.Validate { return validator.New() })

// hasConstraints reports whether tool t's parameters carry validate tags.
func hasConstraints(t *typereg.Tool) bool { return t.Constrained() }

// constraintProblems decodes args for tool t with its binder and runs the
// validator on the result: the tool's own constraints (its validate tags,
// which typereg has published in the schema). It returns a Constraint
// problem for each argument that breaks them, in parameter order, naming
// the constraint in Takes ("a whole number from 1 to 168"), quoting the
// argument in Sent and, when the fault lies inside it (a list's element, a
// map's value, under dive), the element in Element with its Path. A
// parameter the call leaves out and whose zero value breaks its
// constraints is missing (MissingArgument), unless issues report it so
// already. issues are what else was found: an argument with an issue that
// is not a silent loss is not checked again. The arguments must be ones the
// binder reads; ms are their members, as Check read them.
func constraintProblems(t *typereg.Tool, args []byte, ms *bindcap.Members, issues []bind.Issue) (ps []Problem) {
	if ps, ok := compiledProblems(t, args, ms, issues); ok {
		return ps
	}
	return decodedProblems(t, args, ms, issues)
}

// decodedProblems is constraintProblems by decoding args with the binder
// and running the validator on the result: for a call the compiled checks
// cannot judge from its text (see compiledProblems).
func decodedProblems(t *typereg.Tool, args []byte, ms *bindcap.Members, issues []bind.Issue) (ps []Problem) {
	v := reflect.New(t.Type())
	var errs validator.ValidationErrors
	func() {
		defer func() {
			if recover() != nil { // a decoder or the validator panics: not ours to refuse
				errs = nil
			}
		}()
		if contain.Decode(t.Plan().Binder(), args, v.Interface()) != nil {
			return
		}
		if err := validate().Struct(v.Interface()); err != nil && !errors.As(err, &errs) {
			errs = nil
		}
	}()
	if len(errs) == 0 {
		return nil
	}
	failed := make([]bool, len(recParams(t)))
	for _, fe := range errs {
		if i := paramOf(t, fe.StructNamespace()); i >= 0 {
			failed[i] = true
		}
	}
	for _, is := range issues {
		if is.Param >= 0 && is.Param < len(failed) && is.Kind.Class() != bind.SilentLoss {
			failed[is.Param] = false
		}
	}
	w := wordsFor(t)
	read := sentValues(t, args, ms)
	for i, p := range recParams(t) {
		if !failed[i] {
			continue
		}
		if read[i].Value.End == 0 {
			ps = append(ps, Problem{Code: MissingArgument, Argument: p.Name, Takes: w.param(i)})
			continue
		}
		pr := Problem{Code: Constraint, Argument: p.Name, Takes: w.param(i), Sent: quoteSent(args[read[i].Value.Start:read[i].Value.End])}
		pr.Pointer = jsonpath.ArgPath(args[read[i].Key.Start:read[i].Key.End]).Pointer()
		fv := v.Elem().FieldByIndex(fieldIndex(t, i))
		// The value read is in the member read; where members merge, the
		// value inside that breaks the tags may be in one before it: the
		// last member that sends it.
		// The value read is in the member read; where members merge (objects,
		// lists), the value inside that breaks the tags may be in one before
		// it, the last that sends it; a null that leaves a value as it was
		// is passed over (the value read was sent before it), then, where
		// none is found, looked at as the value sent.
		lvls := levels(p.Validate)
		find := func(mb bindcap.Member, skipNull bool) bool {
			a := argText{raw: args[mb.Value.Start:mb.Value.End], skipNull: skipNull}
			a.ends = jsonlex.IndexEnds(a.raw)
			path, elem, ok := breach(t.Plan(), fv, &a, jsonlex.Span{End: len(a.raw)}, lvls, jsonpath.ArgPath(args[mb.Key.Start:mb.Key.End]))
			if ok && path.Inside() {
				pr.Path, pr.Pointer, pr.Element, pr.Sent = path.String(), path.Pointer(), quoteSent(elem), quoteSent(a.raw)
			}
			return ok
		}
		// The search runs the validator on the values inside, and user
		// code through the binder (a key type's UnmarshalText): contained,
		// as the decode and the first run are. Should it panic, the problem
		// is the argument's, as sent.
		whole := pr
		if p, _ := contain.Run(func() error {
			if !find(read[i], true) && !slices.ContainsFunc(mergedBefore(args, ms, t.Plan(), i, read[i]), func(mb bindcap.Member) bool { return find(mb, true) }) {
				find(read[i], false)
			}
			return nil
		}); p != nil {
			pr = whole
		}
		ps = append(ps, pr)
	}
	return ps
}

// constraints adds the constraint problems ps, one per argument: an
// argument with a problem already keeps it.
func (b *problems) constraints(ps []Problem) {
	for _, p := range ps {
		if b.claim(paramIndex(b.t, p.Argument)) {
			b.add(p)
		}
	}
}

func paramIndex(t *typereg.Tool, name string) int {
	for i, p := range recParams(t) {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// fieldIndex returns parameter i's index sequence in t.Type(): the
// record's own, which no caller can change (the plan's Params are handed
// out).
func fieldIndex(t *typereg.Tool, i int) []int {
	return fieldIndexOf(&recParams(t)[i])
}

// paramOf returns the index of the parameter a validator error's struct
// namespace (Type.Field, Type.Embedded.Field[2]...) lies in, or -1.
func paramOf(t *typereg.Tool, ns string) int {
	ns = strings.TrimPrefix(ns, t.Type().Name()+".")
	for i, p := range recParams(t) {
		if rest, ok := strings.CutPrefix(ns, p.GoName); ok && (rest == "" || rest[0] == '[' || rest[0] == '.') {
			return i
		}
	}
	return -1
}

// sentValues returns, per parameter, the member of the top-level object
// args (whose members are ms) the binder reads it from (the last member
// bound to it, by the binder's own matching, or the last not null where
// its type reads null as nothing: nullLeaves); a zero Member where the
// call does not send it.
func sentValues(t *typereg.Tool, args []byte, ms *bindcap.Members) []bindcap.Member {
	rules := rulesOf(t)
	last, nonNull := readMembers(t, args, ms, rules)
	read := last // per parameter, the member read: the last, or the last not null where null leaves it
	for i := range read {
		if nonNull[i] >= 0 && rules.nullLeaves(i) {
			read[i] = nonNull[i]
		}
	}
	out := make([]bindcap.Member, len(read))
	for k, m := range eachMember(args, ms, t.Plan()) {
		if i := m.Binds(); i >= 0 && i < len(read) && read[i] == k {
			out[i] = m
		}
	}
	return out
}

// mergedBefore returns, from the last, the members of args bound to
// parameter i other than read whose values are objects or arrays, where
// read's is one: those the binder merges the value read with. Scalars do
// not merge, and a call of a scalar sent again and again reads no member
// twice here.
func mergedBefore(args []byte, ms *bindcap.Members, plan *bind.Plan, i int, read bindcap.Member) []bindcap.Member {
	if k := jsonlex.KindAt(args, read.Value.Start); k != jsonlex.KindObject && k != jsonlex.KindArray {
		return nil
	}
	var out []bindcap.Member
	for _, m := range eachMember(args, ms, plan) {
		if k := jsonlex.KindAt(args, m.Value.Start); m.Binds() == i && m.Value != read.Value && (k == jsonlex.KindObject || k == jsonlex.KindArray) {
			out = append(out, m)
		}
	}
	slices.Reverse(out)
	return out
}

// nullLeaves reports whether the binder reads null for a value of type t
// as nothing, leaving the value a member before it set: t has no nil (not a
// pointer, list, map or interface) and no decoder of its own.
func nullLeaves(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return false
	}
	return !ownDecoder(t)
}

// levels splits a validate tag at each dive: the tags each level of the
// value is held to.
func levels(tag string) []string {
	var out []string
	var cur []string
	for tok := range strings.SplitSeq(tag, ",") {
		if tok == "dive" {
			out = append(out, strings.Join(cur, ","))
			cur = nil
			continue
		}
		cur = append(cur, tok)
	}
	return append(out, strings.Join(cur, ","))
}

// readsAs reports whether the binder reads raw alone as v: a value found
// in a member other than the one read, or past a null, is quoted only if
// it is the value read there.
func readsAs(plan *bind.Plan, raw []byte, v reflect.Value) bool {
	p := reflect.New(v.Type())
	if contain.Decode(plan.Binder(), raw, p.Interface()) != nil {
		return false
	}
	return reflect.DeepEqual(p.Elem().Interface(), v.Interface())
}

// An argText is an argument's value as sent, with where each of its
// arrays and objects ends: breach looks at every member of a level before
// it enters one, and steps past each by the index (a chain of objects
// read again at each level cost its length squared: 3 s for 108 KB).
type argText struct {
	raw  []byte
	ends jsonlex.Ends
	// skipNull: a null for a value the binder reads null as nothing for
	// is no breach (the value read was sent in another member), and a
	// breach found is one only where its text reads as the value read
	// (readsAs).
	skipNull bool
}

// breach finds where value v (sent as a.raw[at.Start:at.End]) first breaks
// its levels of constraint, in the order sent: the path to it inside the
// argument and its raw text. It runs the validator on each level, as dive
// does.
func breach(plan *bind.Plan, v reflect.Value, a *argText, at jsonlex.Span, lvls []string, path jsonpath.Path) (jsonpath.Path, []byte, bool) {
	if a.skipNull && jsonlex.KindAt(a.raw, at.Start) == jsonlex.KindNull && nullLeaves(v.Type()) {
		return jsonpath.Path{}, nil, false
	}
	if lvls[0] != "" && validate().Var(v.Interface(), lvls[0]) != nil {
		if a.skipNull && !readsAs(plan, a.raw[at.Start:at.End], v) {
			return jsonpath.Path{}, nil, false // a value made new since (a map's element, a pointer or list set to nil): not the one read
		}
		return path, a.raw[at.Start:at.End], true
	}
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return jsonpath.Path{}, nil, false
		}
		v = v.Elem()
	}
	if len(lvls) == 1 {
		if v.Kind() != reflect.Struct {
			return jsonpath.Path{}, nil, false
		}
		if jsonlex.KindAt(a.raw, at.Start) == jsonlex.KindNull {
			// null leaves the struct as it was (zero, here): where that
			// breaks its fields' tags, the null is what was sent there
			if validate().Struct(v.Interface()) != nil {
				return path, a.raw[at.Start:at.End], true
			}
			return jsonpath.Path{}, nil, false
		}
		return fieldBreach(plan, v, a, at, path)
	}
	var (
		where jsonpath.Path
		elem  []byte
		found bool
	)
	switch v.Kind() {
	case reflect.Slice:
		i := 0
		for e := range a.ends.Elements(a.raw, at.Start) {
			if found || i >= v.Len() {
				break
			}
			where, elem, found = breach(plan, v.Index(i), a, e, lvls[1:], path.Index(i))
			i++
		}
	case reflect.Map:
		// The binder keeps the last value of a key sent again: look at
		// that one. Keys are told as the map tells them, by the Go key
		// read (the same text escaped or not, "1" and "01" of an integer
		// key type, two texts a key type's UnmarshalText reads alike).
		kt := v.Type().Key()
		var keys []any // each member's Go key, nil where the map reads none
		last := map[any]int{}
		for m := range a.ends.Members(a.raw, at.Start) {
			mk, ok := mapKey(kt, unquoteKey(a.raw[m.Key.Start:m.Key.End]))
			var k any
			if ok {
				i := len(keys)
				contain.Run(func() error { // a key holding what Go cannot hash panics, as in the binder's map
					last[mk.Interface()] = i
					k = mk.Interface()
					return nil
				})
			}
			keys = append(keys, k)
		}
		n := 0
		for m := range a.ends.Members(a.raw, at.Start) {
			k := keys[n]
			n++
			if found {
				break
			}
			if k == nil || last[k] != n-1 {
				continue
			}
			mv := v.MapIndex(reflect.ValueOf(k))
			if !mv.IsValid() {
				continue
			}
			where, elem, found = breach(plan, mv, a, m.Value, lvls[1:], path.Name(unquoteKey(a.raw[m.Key.Start:m.Key.End])))
		}
	}
	return where, elem, found
}

// fieldBreach finds where nested struct v (sent as the object raw) first
// breaks its fields' tags, in the order sent, as the validator walks into
// it: a field's own tag, or the structs inside an untagged field. A key
// binds a field as plan's binder binds it (bindcap.Field), by
// encoding/json's rule where the plan has none (fieldNamed).
func fieldBreach(plan *bind.Plan, v reflect.Value, a *argText, at jsonlex.Span, path jsonpath.Path) (jsonpath.Path, []byte, bool) {
	t := v.Type()
	var (
		where jsonpath.Path
		elem  []byte
		found bool
	)
	// The binder keeps the last value of a field's key sent again: look
	// at that one.
	type bound struct {
		index []int
		tag   reflect.StructTag
	}
	var fields []*bound // each member's field, or nil
	last := map[string]int{}
	for m := range a.ends.Members(a.raw, at.Start) {
		key := a.raw[m.Key.Start:m.Key.End]
		var b *bound
		index, tag, ok, known := bindcap.Field(plan, t, key)
		if !known {
			if i := fieldNamed(t, unquoteKey(key)); i >= 0 {
				b = &bound{[]int{i}, t.Field(i).Tag}
			}
		} else if ok {
			b = &bound{index, tag}
		}
		if b != nil {
			k := indexKey(b.index)
			if _, before := last[k]; !before || jsonlex.KindAt(a.raw, m.Value.Start) != jsonlex.KindNull || !nullLeaves(t.FieldByIndex(b.index).Type) {
				last[k] = len(fields) // null after a value leaves a number, a string, a struct as it was
			}
		}
		fields = append(fields, b)
	}
	n := 0
	for m := range a.ends.Members(a.raw, at.Start) {
		b := fields[n]
		n++
		if found {
			break
		}
		if b == nil || last[indexKey(b.index)] != n-1 {
			continue
		}
		fv, err := v.FieldByIndexErr(b.index)
		if err != nil {
			continue // through a nil embedded pointer: nothing decoded there
		}
		lvls := []string{""}
		if tag := b.tag.Get("validate"); tag != "" && tag != "-" {
			lvls = levels(tag)
		}
		where, elem, found = breach(plan, fv, a, m.Value, lvls, path.Name(unquoteKey(a.raw[m.Key.Start:m.Key.End])))
	}
	return where, elem, found
}

// indexKey is a field's index sequence as a map key.
func indexKey(index []int) string {
	var b []byte
	for _, i := range index {
		b = strconv.AppendInt(append(b, '.'), int64(i), 10)
	}
	return string(b)
}

// fieldNamed returns the index of the field of nested struct type t that
// the JSON key binds (by its json name, exactly, or else ignoring case), or
// -1.
func fieldNamed(t reflect.Type, key string) int {
	fold := -1
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
		if name == key {
			return i
		}
		if fold < 0 && strings.EqualFold(name, key) {
			fold = i
		}
	}
	return fold
}

// mapKey reads a JSON object key as a map of key type kt does: by the key
// type's UnmarshalText where it has one (called under recovery: false
// where it fails or panics), else by its kind.
func mapKey(kt reflect.Type, key string) (reflect.Value, bool) {
	if p := reflect.New(kt); reflect.PointerTo(kt).Implements(textUnmarshalerType) {
		u := p.Interface().(encoding.TextUnmarshaler)
		panicked, err := contain.Run(func() error { return u.UnmarshalText([]byte(key)) })
		return p.Elem(), panicked == nil && err == nil
	}
	k := reflect.New(kt).Elem()
	switch kt.Kind() {
	case reflect.String:
		k.SetString(key)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(key, 10, 64)
		if err != nil || k.OverflowInt(n) {
			return k, false
		}
		k.SetInt(n)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, err := strconv.ParseUint(key, 10, 64)
		if err != nil || k.OverflowUint(n) {
			return k, false
		}
		k.SetUint(n)
	default:
		return k, false
	}
	return k, true
}
