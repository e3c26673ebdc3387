package bind

import (
	"cmp"
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode"

	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/decoders"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// SegmentIOMaxDepth is the deepest nesting of arrays and objects SegmentIO
// reads. segmentio's decoder has no limit of its own and recurses once per
// level: about 2,500,000 nested arrays overflow the goroutine's stack, a
// fatal error no recover catches. SegmentIO.Unmarshal checks the depth
// before segmentio runs, with the limit and the scan the go-sdk (v1.8.0)
// applies before it decodes tool arguments, so the guard refuses exactly
// the nesting the server refuses.
const SegmentIOMaxDepth = 1000

// segmentioBinder is github.com/segmentio/encoding/json (v0.5.4) as the
// MCP go-sdk decodes tool arguments with it, exported as
// bind/segmentio.Binder, whose doc says how it reads and how Check mirrors
// it. Its rules (field list, losses, depth) are here; its calls into
// segmentio are internal/segdec's (internal/decoders.SegmentIO), which
// only a program importing bind/segmentio links.

type segmentioBinder struct{}

func (segmentioBinder) Name() string { return "segmentio" }
func (segmentioBinder) sealed()      {}

var errSegmentIOTooDeep = fmt.Errorf("json: exceeded maximum nesting depth of %d", SegmentIOMaxDepth)

// A trailingDataError reports bytes after the JSON value.
type trailingDataError struct{ c byte }

func (e trailingDataError) Error() string {
	return fmt.Sprintf("json: invalid character %q after top-level value", e.c)
}

func (segmentioBinder) Unmarshal(data []byte, v any) error {
	if segmentioTooDeep(data) >= 0 {
		return errSegmentIOTooDeep
	}
	seg := decoders.SegmentIO
	if seg.Valid(data) {
		// One valid value and space: what the Decoder does, validate it
		// whole then Parse it with its flags, without its 32 KiB buffer.
		return seg.Parse(data, v)
	}
	off, err := seg.Decode(data, v)
	if err != nil {
		return err
	}
	if rest := data[skipWS(data, int(min(off, int64(len(data))))):]; len(rest) != 0 {
		return trailingDataError{rest[0]}
	}
	return nil
}

// segmentioTooDeep returns the offset of the first '[' or '{' that opens
// more than SegmentIOMaxDepth arrays and objects, or -1. It scans as
// go-sdk's checkMaxDepth does: brackets count outside strings, a closing
// one never below zero, and the text need not be valid JSON.
func segmentioTooDeep(data []byte) int { return jsonlex.DeepAt(data, SegmentIOMaxDepth) }

var (
	goBytes           = reflect.TypeFor[[]byte]()
	goAny             = reflect.TypeFor[any]()
	goUnmarshaler     = reflect.TypeFor[json.Unmarshaler]()
	goTextUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
	goTextMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
)

// segCustom reports that segmentio reads values of t with a method of t's
// own: *t has UnmarshalJSON or UnmarshalText, and t is none of the types
// segmentio reads natively whatever their methods.
func segCustom(t reflect.Type) bool {
	switch t {
	case goNumber, goBytes, goDuration, goTime, goAny, goRawMessage:
		return false
	}
	if t.Kind() == reflect.Pointer {
		return false
	}
	p := reflect.PointerTo(t)
	return p.Implements(goUnmarshaler) || p.Implements(goTextUnmarshaler)
}

// segMapKey reports whether segmentio reads object keys into kt.
func segMapKey(kt reflect.Type) bool {
	if kt.Implements(goTextMarshaler) || reflect.PointerTo(kt).Implements(goTextUnmarshaler) {
		return reflect.PointerTo(kt).Implements(goTextUnmarshaler) // else it panics on every key
	}
	switch kt.Kind() {
	case reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

func (b segmentioBinder) Compile(t reflect.Type) (*Plan, error) {
	if t == nil || t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("bind: tool parameters must be a struct type, not %v", t)
	}
	if segCustom(t) {
		return nil, fmt.Errorf("bind: %v decodes itself (it has an UnmarshalJSON or UnmarshalText method), so its parameters cannot be recorded", t)
	}
	c := &typeWalk{root: t, seen: map[reflect.Type]bool{}, custom: segCustom, mapKey: segMapKey}
	c.structType = c.segStruct
	if err := c.walk(t); err != nil {
		return nil, err
	}
	if err := segLoop(t); err != nil {
		return nil, err
	}
	if err := b.Unmarshal([]byte("{}"), reflect.New(t).Interface()); err != nil {
		return nil, fmt.Errorf("bind: the binder fails on {} for %v: %w", t, err)
	}
	fields := segStructFields(t, map[reflect.Type]*segStruct{}).fields
	m := &segMirror{exact: segIndex(fields)}
	p := &trialPlan{binder: b, typ: t, hooks: m}
	for _, f := range fields {
		base := f.typ
		if base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		tag := `json:"F"`
		if f.stringify {
			tag = `json:"F,string"`
		}
		p.params = append(p.params, Param{
			Name:      f.name,
			GoName:    fieldPath(t, f.index, false),
			Type:      f.typ,
			Index:     f.index,
			Tag:       t.FieldByIndex(f.index).Tag,
			Quoted:    f.stringify && (numberKind(base) || base.Kind() == reflect.Bool || base.Kind() == reflect.String),
			OmitEmpty: f.omitempty,
		})
		p.trials = append(p.trials, reflect.StructOf([]reflect.StructField{{Name: "F", Type: f.typ, Tag: reflect.StructTag(tag)}}))
	}
	return p.plan(segRules)
}

// segLoop fails, naming the field, on a type segmentio would reach from
// struct type t that holds itself through no struct (type Tree []Tree,
// type M map[string]*M, type A [2]*A): segmentio builds a type's decoder
// by recursion (codec.go, constructCodec) that stops only at a struct it
// has already met, so on such a type it recurses until the stack
// overflows, which kills the process. Methods do not stop it: the decoder
// of a type is built before its UnmarshalJSON is looked for.
func segLoop(root reflect.Type) error {
	seen := map[reflect.Type]bool{}
	var path []string
	var walk func(t reflect.Type) error
	walk = func(t reflect.Type) error {
		if seen[t] {
			return nil
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Struct:
			if t == goTime {
				return nil
			}
			for _, f := range segStructFields(t, map[reflect.Type]*segStruct{}).fields {
				path = append(path, fieldPath(t, f.index, false))
				err := walk(f.typ)
				path = path[:len(path)-1]
				if err != nil {
					return err
				}
			}
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
				return nil // read as base64, or by the element's methods
			}
			chain := map[reflect.Type]bool{}
			for e := t; e.Kind() == reflect.Pointer || e.Kind() == reflect.Slice || e.Kind() == reflect.Array || e.Kind() == reflect.Map; e = e.Elem() {
				if chain[e] {
					return &FieldError{Type: root, Field: strings.Join(path, "."), Why: segLoopWhy(t, e)}
				}
				chain[e] = true
				if e.Kind() == reflect.Slice && e.Elem().Kind() == reflect.Uint8 {
					break
				}
			}
			if t.Kind() == reflect.Map {
				if err := walk(t.Key()); err != nil {
					return err
				}
			}
			path = append(path, "[]")
			err := walk(t.Elem())
			path = path[:len(path)-1]
			return err
		}
		return nil
	}
	return walk(root)
}

func segLoopWhy(t, loop reflect.Type) string {
	held := ""
	if loop != t {
		held = fmt.Sprintf(" %v, which holds", loop)
	}
	return fmt.Sprintf("the binder cannot decode into %v: it holds%s itself through no struct, and segmentio builds the decoder of such a type forever, until the stack overflows and kills the process", t, held)
}

// segStruct checks a struct type segmentio reaches: every field it binds
// must be settable and of a type it can decode into.
func (c *typeWalk) segStruct(t reflect.Type) error {
	for _, f := range segStructFields(t, map[reflect.Type]*segStruct{}).fields {
		name := fieldPath(t, f.index, false)
		if f.unsettable != "" {
			return c.fail(name, "it is promoted through the embedded pointer %s to an unexported struct type, which the binder cannot allocate, so every value sent for %q fails", f.unsettable, f.name)
		}
		if err := c.field(name, f.typ); err != nil {
			return err
		}
	}
	return nil
}

// segIndex maps each name to the field segmentio's struct decoder binds it
// to. Two fields of one name can both be listed; segmentio then finds the
// first with its keyset (up to 32 fields of at most 16 bytes, on CPUs it
// has the instructions for) and the last with its map.
func segIndex(fields []segField) map[string]int {
	keys := make([][]byte, len(fields))
	for i, f := range fields {
		keys[i] = []byte(f.name)
	}
	first := len(fields) <= 32 && decoders.SegmentIO.KeysetFirst(keys)
	idx := make(map[string]int, len(fields))
	for i, f := range fields {
		if _, ok := idx[f.name]; ok && first {
			continue
		}
		idx[f.name] = i
	}
	return idx
}

// The field set, as segmentio's appendStructFields (codec.go) builds it.

type segField struct {
	name       string
	tag        bool // named by its tag; false for fields promoted two levels or more
	omitempty  bool
	stringify  bool
	typ        reflect.Type
	index      []int
	order      int64  // the field's index, and its index in the embedded struct's list
	unsettable string // an unexported embedded pointer it is promoted through
}

type segStruct struct{ fields []segField }

// segStructFields is segmentio's constructStructType: seen holds the
// struct types of one decoder's construction, so a struct embedding itself
// (through a pointer) sees its own field list still empty.
func segStructFields(t reflect.Type, seen map[reflect.Type]*segStruct) *segStruct {
	st := seen[t]
	if st == nil {
		st = &segStruct{}
		seen[t] = st
		st.fields = segAppendFields(t, seen)
	}
	return st
}

func segAppendFields(t reflect.Type, seen map[reflect.Type]*segStruct) []segField {
	type embedded struct {
		i, j       int
		pointer    bool
		unexported bool
		ptrType    reflect.Type
		sub        segField
	}
	var fields []segField
	var emb []embedded
	names := map[string]bool{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, tag, omitempty, stringify := f.Name, false, false, false
		unexported := f.PkgPath != ""
		if unexported && !f.Anonymous {
			continue
		}
		parts := strings.Split(f.Tag.Get("json"), ",")
		if len(parts[0]) != 0 {
			name, tag = parts[0], true
		}
		if name == "-" && len(parts) == 1 {
			continue
		}
		if !validTagV1(name) {
			name = f.Name
		}
		for _, o := range parts[1:] {
			switch o {
			case "omitempty":
				omitempty = true
			case "string":
				stringify = true
			}
		}
		if f.Anonymous && !tag {
			typ := f.Type
			ptr := typ.Kind() == reflect.Pointer
			if ptr {
				typ = typ.Elem()
			}
			if typ.Kind() == reflect.Struct {
				for j, sf := range segStructFields(typ, seen).fields {
					emb = append(emb, embedded{i: i, j: j, pointer: ptr, unexported: unexported, ptrType: f.Type, sub: sf})
				}
				continue
			}
			if unexported {
				continue
			}
		}
		fields = append(fields, segField{name: name, tag: tag, omitempty: omitempty, stringify: stringify, typ: f.Type, index: []int{i}, order: int64(i) << 32})
		names[name] = true
	}
	ambNames, ambTags := map[string]int{}, map[string]int{}
	for name := range names {
		ambNames[name]++
		ambTags[name]++
	}
	for _, e := range emb {
		ambNames[e.sub.name]++
		if e.sub.tag {
			ambTags[e.sub.name]++
		}
	}
	for _, e := range emb {
		sub := e.sub
		if ambNames[sub.name] > 1 && (!sub.tag || ambTags[sub.name] != 1) {
			continue // ambiguous embedded field
		}
		sub.index = append([]int{e.i}, sub.index...)
		if e.pointer && e.unexported && sub.unsettable == "" {
			sub.unsettable = e.ptrType.String()
		}
		sub.tag = false
		sub.order = int64(e.i)<<32 | int64(e.j)
		fields = append(fields, sub)
	}
	slices.SortFunc(fields, func(a, b segField) int { return cmp.Compare(a.order, b.order) })
	return fields
}

// validTagV1 is encoding/json v1's rule for a usable tag name, which
// segmentio shares (encoding/json on v2, under GOEXPERIMENT=jsonv2, has its
// own: see build_jsonv2.go).
func validTagV1(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// segMirror is SegmentIO's part of a trial plan.
type segMirror struct {
	exact map[string]int
}

func (m *segMirror) match(raw []byte) int {
	var buf [64]byte
	if i, ok := m.exact[string(keyText(buf[:0], raw))]; ok {
		return i
	}
	return -1
}

func (m *segMirror) tooDeep(args []byte) int { return segmentioTooDeep(args) }

// offset: segmentio's errors give no offset in the arguments.
func (m *segMirror) offset(error) int { return -1 }

func (m *segMirror) keyIssues([]byte, []member, error, func(Issue)) {}

// dropped: the Decoder has validated every value before decoding, and a
// dropped one is only skipped.
func (m *segMirror) dropped([]byte) error { return nil }

func (m *segMirror) explain(err error) failure {
	if te, ok := contain.As[*json.UnmarshalTypeError](err); ok {
		// te.Field is the dotted path from the trial's field: "F", "F.a.1".
		if rest, ok := strings.CutPrefix(te.Field, "F."); ok {
			return failure{path: strings.Split(rest, "."), dotted: true, at: -1}
		}
		if te.Field == "F" { // the argument's value, or below its empty keys (see trialPlan.issue)
			return failure{dotted: true, at: -1}
		}
	}
	return failure{at: -1}
}

// whole: segmentio decodes a repeated key into what the earlier occurrence
// left, so a value can fail only after another; blame the repeat.
func (m *segMirror) whole(args []byte, ms []member, err error) Issue {
	seen := map[int]bool{}
	for _, mb := range ms {
		if mb.param >= 0 && seen[mb.param] {
			return Issue{Kind: InvalidValue, Param: mb.param, Start: mb.vs, End: mb.ve, Path: argPath(args, mb.ks, mb.ke), Err: err}
		}
		seen[mb.param] = true
	}
	return Issue{Kind: InvalidJSON, Param: -1, Err: err}
}

func (m *segMirror) custom(t reflect.Type) bool { return segCustom(t) }

func (m *segMirror) byteArrayText() bool { return false }

func (m *segMirror) repeatFields(st reflect.Type) func(string) (reflect.Type, bool, bool, bool) {
	fields := segStructFields(st, map[reflect.Type]*segStruct{}).fields
	idx := segIndex(fields)
	return func(key string) (reflect.Type, bool, bool, bool) {
		i, ok := idx[key]
		if !ok {
			return nil, false, false, false
		}
		return fields[i].typ, fields[i].stringify, segFresh(fields[i].typ, map[reflect.Type]bool{}), true
	}
}

// segFresh reports whether segmentio reads a value of type t into what
// an earlier value left as it reads it into a fresh one, as far as where
// it fails goes: scalars are overwritten, lists read element by element,
// a map's keys and values each into a fresh one (decodeMap), structs
// field by field, an any replaced. A named or non-empty
// interface (segmentio fails on one that holds a value: see namedany.go)
// and a type of its own methods (which may read what it holds) are not.
// seen breaks a recursive type's cycle.
func segFresh(t reflect.Type, seen map[reflect.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch t {
	case goAny, goNumber, goBytes, goDuration, goTime, goRawMessage:
		return true
	}
	if segCustom(t) {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return segFresh(t.Elem(), seen)
	case reflect.Map:
		return true // decodeMap reads each key and value into a fresh one
	case reflect.Struct:
		for _, f := range segStructFields(t, map[reflect.Type]*segStruct{}).fields {
			if !segFresh(f.typ, seen) {
				return false
			}
		}
		return true
	}
	return false
}

func (m *segMirror) field(st reflect.Type, key string) reflect.Type {
	fields := segStructFields(st, map[reflect.Type]*segStruct{}).fields
	if i, ok := segIndex(fields)[key]; ok {
		return fields[i].typ
	}
	return nil
}
