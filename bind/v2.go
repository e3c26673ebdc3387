package bind

import (
	"cmp"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/bindguard/bindguard/internal/decoders"
)

// v2Binder is github.com/go-json-experiment/json with its default
// options, exported as bind/jsonv2.Binder, whose doc says how it reads and
// how Check mirrors it. Its rules (field set, tag options, losses) are
// here, by reflection; its calls into go-json-experiment (Unmarshal, its
// method types, its errors) are internal/v2dec's (internal/decoders.V2),
// which only a program importing bind/jsonv2 links.

type v2Binder struct{}

func (v2Binder) Name() string                       { return "v2" }
func (v2Binder) Unmarshal(data []byte, v any) error { return decoders.V2.Unmarshal(data, v) }
func (v2Binder) sealed()                            {}

// v2Types are the types V2 treats apart, which name go-json-experiment's
// own: read from internal/decoders.V2 when the first V2 plan is compiled.
type v2Types struct {
	unmarshalers     []reflect.Type // UnmarshalerFrom, Unmarshaler, encoding.TextUnmarshaler
	jsonUnmarshalers []reflect.Type // UnmarshalerFrom, Unmarshaler
	methods          []reflect.Type // every marshaler and unmarshaler V2 calls
	value            reflect.Type   // jsontext.Value
	dropped          reflect.Type   // struct{ F jsontext.Value `json:"F"` }
}

var v2T = sync.OnceValue(func() *v2Types {
	d := decoders.V2
	t := &v2Types{jsonUnmarshalers: d.JSONUnmarshalers, value: d.Value}
	t.dropped = reflect.StructOf([]reflect.StructField{{Name: "F", Type: d.Value, Tag: `json:"F"`}})
	t.unmarshalers = append(slices.Clip(d.JSONUnmarshalers), reflect.TypeFor[encoding.TextUnmarshaler]())
	t.methods = append(append(slices.Clip(d.JSONMarshalers), reflect.TypeFor[encoding.TextAppender](), reflect.TypeFor[encoding.TextMarshaler]()), t.unmarshalers...)
	return t
})

var (
	goDuration   = reflect.TypeFor[time.Duration]()
	goTime       = reflect.TypeFor[time.Time]()
	goNumber     = reflect.TypeFor[json.Number]()
	goRawMessage = reflect.TypeFor[json.RawMessage]()
	goIsZeroer   = reflect.TypeFor[interface{ IsZero() bool }]()
)

// isJSONTextValue reports whether t is go-json-experiment's
// jsontext.Value (the standard library's, of which it is an alias, under
// GOEXPERIMENT=jsonv2), told by its package path and name, which are one
// type's in a program: bind does not import the package, and a program
// that never imports it holds no such type.
func isJSONTextValue(t reflect.Type) bool {
	if t.Name() != "Value" {
		return false
	}
	switch t.PkgPath() {
	case "github.com/go-json-experiment/json/jsontext", "encoding/json/jsontext":
		return true
	}
	return false
}

// implementsAnyOf reports whether t or *t implements one of the interfaces.
func implementsAnyOf(t reflect.Type, ifaces []reflect.Type) bool {
	for _, it := range ifaces {
		if t.Implements(it) || reflect.PointerTo(t).Implements(it) {
			return true
		}
	}
	return false
}

// v2Custom reports that V2 reads values of t with a method of t's own.
func v2Custom(t reflect.Type) bool { return implementsAnyOf(t, v2T().unmarshalers) }

func (b v2Binder) Compile(t reflect.Type) (*Plan, error) {
	if t == nil || t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("bind: tool parameters must be a struct type, not %v", t)
	}
	if v2Custom(t) {
		return nil, fmt.Errorf("bind: %v decodes itself (it has an UnmarshalJSON, UnmarshalJSONFrom or UnmarshalText method), so its parameters cannot be recorded", t)
	}
	c := &typeWalk{root: t, seen: map[reflect.Type]bool{}, custom: v2Custom, mapKey: v2MapKey}
	c.structType = c.v2Struct
	if err := c.walk(t); err != nil {
		return nil, err
	}
	fs := v2StructFields(t)
	if fs.fallback != nil {
		return nil, &FieldError{Type: t, Field: fieldPath(t, fs.fallback.index, true), Why: "it is an embedded fallback, which takes every key no other field takes, so the tool's parameters cannot be listed"}
	}
	m := &v2Mirror{byName: map[string]int{}, byFold: map[string][]int{}}
	p := &trialPlan{binder: b, typ: t, maxDepth: v2MaxDepth, hooks: m}
	for i, f := range fs.flattened {
		sf := t.FieldByIndex(f.index) // reachable: no field is promoted through a nil pointer here
		base := f.typ
		for base.Kind() == reflect.Pointer && !v2Custom(base) {
			base = base.Elem()
		}
		p.params = append(p.params, Param{
			Name:      f.name,
			GoName:    fieldPath(t, f.index, true),
			Type:      f.typ,
			Index:     f.index,
			Tag:       sf.Tag,
			Quoted:    f.str && numberKind(base) && !v2Custom(base),
			OmitEmpty: f.omitempty,
		})
		tag := `json:` + strconv.Quote("F"+f.tagRest)
		p.trials = append(p.trials, reflect.StructOf([]reflect.StructField{{Name: "F", Type: f.typ, Tag: reflect.StructTag(tag)}}))
		m.byName[f.name] = i
		if f.casing == caseIgnore {
			k := string(v2Fold([]byte(f.name)))
			m.byFold[k] = append(m.byFold[k], i)
		}
	}
	v2FoldFirst(m.byFold, fs.flattened)
	return p.plan(v2Rules)
}

// v2MapKey reports whether V2 reads object keys into kt: as a string, a
// number inside a string, or by kt's own method.
func v2MapKey(kt reflect.Type) bool {
	return v2Custom(kt) || kt.Kind() == reflect.String || numberKind(kt)
}

// v2Struct checks a struct type V2 reaches: V2 must read {} into it (it
// reports errors in the field set itself at decode time, for every
// object), and every field it binds must be of a type it can decode into.
func (c *typeWalk) v2Struct(t reflect.Type) error {
	fs := v2StructFields(t)
	if err := decoders.V2.Unmarshal([]byte("{}"), reflect.New(t).Interface()); err != nil {
		field := ""
		if at := fs.errAt; at != nil {
			field = fieldPath(t, at, true)
		} else if at := fs.formatAt; at != nil {
			field = fieldPath(t, at, true)
		}
		return c.fail(field, "the binder fails on every object for %v: %v", t, err)
	}
	for _, f := range fs.flattened {
		name := fieldPath(t, f.index, true)
		if through := unexportedPointerOn(t, f.index, true); through != "" {
			return c.fail(name, "it is promoted through the embedded pointer %s to an unexported struct type, which the binder cannot allocate, so every value sent for %q fails", through, f.name)
		}
		if err := c.field(name, f.typ); err != nil {
			return err
		}
	}
	if fs.fallback != nil {
		return c.field(fieldPath(t, fs.fallback.index, true), fs.fallback.typ)
	}
	return nil
}

// v2Mirror is V2's part of a trial plan.
type v2Mirror struct {
	byName map[string]int   // param index by exact name
	byFold map[string][]int // case:ignore params by folded name
	// structs holds, by struct type, the field sets field reads (a
	// reflect.Type to its *v2Fields), each built once: a call of
	// thousands of failing members walked each one's path anew. Its own,
	// read only: no Param shares its slices.
	structs sync.Map
}

// structFields returns v2StructFields(t), built once for m.
func (m *v2Mirror) structFields(t reflect.Type) *v2Fields {
	if fs, ok := m.structs.Load(t); ok {
		return fs.(*v2Fields)
	}
	fs := v2StructFields(t)
	v, _ := m.structs.LoadOrStore(t, &fs)
	return v.(*v2Fields)
}

// match binds a key as V2's struct decoder does: the exact name, else the
// one case:ignore field whose name folds alike.
func (m *v2Mirror) match(raw []byte) int {
	var buf [64]byte
	key := keyText(buf[:0], raw)
	if i, ok := m.byName[string(key)]; ok {
		return i
	}
	if len(m.byFold) == 0 {
		return -1
	}
	var fb [64]byte
	switch c := m.byFold[string(appendV2Fold(fb[:0], key))]; len(c) {
	case 0:
		return -1
	case 1:
		return c[0]
	}
	return ambiguousKey
}

func (m *v2Mirror) tooDeep([]byte) int { return -1 }

// offset: V2 decodes the members in order, each into a field no earlier
// member set (a second one fails at its name), and stops at its first
// error, whose offset it gives.
func (m *v2Mirror) offset(err error) int {
	// err may hold the error a type's own method returned: look into it
	// only within contain's bounds.
	if e, ok := decoders.V2.ReadError(err); ok {
		return int(e.Offset)
	}
	return -1
}

// keyIssues reports what V2 fails on in the set of keys: a key that binds
// a field an earlier key bound, a dropped key repeated, a key that fits two
// case:ignore fields (AmbiguousArgument). V2 reports the first two as
// syntax errors (duplicate object member names).
func (m *v2Mirror) keyIssues(args []byte, ms []member, err error, add func(Issue)) {
	at := m.offset(err) // where V2 stopped, when on a key
	// Each repeated name (and each ambiguous key) is one issue, however
	// often it is repeated: the count of problems past the issue cap
	// stays the count of names.
	seen := map[int]int{}         // per param, the times a key bound it
	names := map[string]int{}     // per dropped key's text, the times it was sent
	ambiguous := map[string]int{} // per ambiguous key's text, the times it was sent
	for _, mb := range ms {
		n := 0
		switch {
		case mb.param >= 0:
			seen[mb.param]++
			n = seen[mb.param] - 1 // the first is no repeat
		case mb.param == -1 && replaces(args[mb.ks:mb.ke]):
			continue // text V2 fails on as it reads it: never a name, nor a repeat of one
		case mb.param == -1:
			key := string(keyText(nil, args[mb.ks:mb.ke]))
			names[key]++
			n = names[key] - 1
		default:
			key := string(keyText(nil, args[mb.ks:mb.ke]))
			ambiguous[key]++
			n = ambiguous[key] // every occurrence fails: the first is the one
		}
		if n == 1 {
			is := Issue{Kind: AmbiguousArgument, Param: -1, Start: mb.ks, End: mb.ke}
			if mb.param != ambiguousKey {
				is.Kind = InvalidJSON
				// A repeated name: the issue spans the key and carries
				// V2's jsontext.ErrDuplicateName, so that it can be told
				// from text that is not JSON; a key that binds a
				// parameter is that argument's issue.
				is.End, is.Err = mb.ke, decoders.V2.ErrDuplicateName
				if mb.param >= 0 {
					is.Kind, is.Param = InvalidValue, mb.param
					is.Path = argPath(args, mb.ks, mb.ke)
				}
			}
			if at == mb.ks {
				is.Err = err
			}
			add(is)
		}
	}
}

// dropped reads the value of a key V2 drops as V2 skips it: validated,
// UTF-8 and duplicate names included.
func (m *v2Mirror) dropped(value []byte) error {
	return trialDecode(v2Binder{}, value, reflect.New(v2T().dropped).Interface(), v2T().value)
}

func (m *v2Mirror) explain(err error) failure {
	// err may hold the error a type's own method returned: ReadError
	// looks into it only within contain's bounds.
	e, ok := decoders.V2.ReadError(err)
	switch {
	case !ok:
		return failure{kind: InvalidValue, at: -1}
	case e.Syntactic:
		f := failure{path: pointerPath(e.Pointer), kind: InvalidValue, at: int(e.Offset)}
		if e.Duplicate && len(f.path) > 0 {
			f.path = f.path[:len(f.path)-1] // the object holding the repeated name
		}
		return f
	}
	f := failure{path: pointerPath(e.Pointer), at: int(e.Offset)}
	switch {
	case e.Ambiguous: // the path ends at the key (see trialPlan.issue)
		f.kind = AmbiguousField
	case e.Kind: // a JSON kind the Go type does not read
		f.kind = WrongType
	case e.Number:
		// a number that does not fit, or a string V2 read as one (a
		// ,string field, at any depth): judged from the text
		f.number = true
	default:
		f.kind = InvalidValue
	}
	return f
}

// pointerPath is a JSON pointer into a trial's one-field object, as the
// path from the field's value.
func pointerPath(p []string) []string {
	var path []string
	first := true
	for _, tok := range p {
		if first {
			first = false
			if tok == "F" {
				continue
			}
			return nil // not inside the field's value
		}
		path = append(path, tok)
	}
	return path
}

func (m *v2Mirror) whole(args []byte, ms []member, err error) Issue {
	at := 0
	if e, ok := decoders.V2.ReadError(err); ok {
		at = int(e.Offset)
	}
	at = min(max(at, 0), len(args))
	return Issue{Kind: InvalidJSON, Param: -1, Start: at, End: at, Err: err}
}

func (m *v2Mirror) custom(t reflect.Type) bool { return v2Custom(t) }

func (m *v2Mirror) byteArrayText() bool { return true }

// repeatFields: V2 fails on a key sent again in one object, so a failure
// path never needs to tell two of its values apart.
func (m *v2Mirror) repeatFields(reflect.Type) func(string) (reflect.Type, bool, bool, bool) {
	return nil
}

func (m *v2Mirror) field(st reflect.Type, key string) reflect.Type {
	fs := m.structFields(st)
	for _, f := range fs.flattened {
		if f.name == key {
			return f.typ
		}
	}
	var hit reflect.Type
	n, id := 0, 0
	fk := string(v2Fold([]byte(key)))
	for _, f := range fs.flattened {
		if f.casing == caseIgnore && string(v2Fold([]byte(f.name))) == fk {
			if n == 0 || f.id < id {
				hit, id = f.typ, f.id
			}
			n++
		}
	}
	if n == 1 || n > 1 && !v2AmbiguousFold {
		return hit
	}
	if fs.fallback != nil && fs.fallback.typ.Kind() == reflect.Map {
		return fs.fallback.typ.Elem()
	}
	return nil
}

// v2Fold folds a name as V2's case:ignore matching does: case folded,
// dashes and underscores dropped.
func v2Fold(in []byte) []byte { return appendV2Fold(nil, in) }

func appendV2Fold(out, in []byte) []byte {
	for i := 0; i < len(in); {
		if c := in[i]; c < utf8.RuneSelf {
			if c != '_' && c != '-' {
				if 'a' <= c && c <= 'z' {
					c -= 'a' - 'A'
				}
				out = append(out, c)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRune(in[i:])
		out = utf8.AppendRune(out, foldRune(r))
		i += n
	}
	return out
}

// The field set, as V2's makeStructFields (fields.go) builds it: a
// breadth-first walk through embedded structs, names from the json tag,
// the dominant field for each name, and the first structural error.

const (
	caseIgnore = 1
	caseStrict = 2
)

type v2Field struct {
	index     []int
	typ       reflect.Type
	name      string
	hasName   bool
	casing    int8
	embed     bool
	str       bool
	omitempty bool
	omitzero  bool
	format    string
	tagRest   string // the json tag after the name: the options
	id        int
}

// plainEmbed reports that the field's tag holds no option but embed (and
// no name), as V2 requires of an embedded field.
func (f v2Field) plainEmbed() bool {
	return !f.hasName && f.casing == 0 && !f.str && !f.omitempty && !f.omitzero && f.format == ""
}

type v2Fields struct {
	flattened []v2Field
	fallback  *v2Field
	bad       bool  // V2 reports a structural error for this field set
	errAt     []int // the index of the field the first error is about (the struct's own, for a field-set error)
	formatAt  []int // the first field with a format: tag option, which V2 refuses unless told otherwise
}

func v2StructFields(root reflect.Type) (fs v2Fields) {
	fail := func(at []int) { // the first structural error V2 would report
		if !fs.bad {
			fs.bad, fs.errAt = true, at
		}
	}
	type entry struct {
		typ           reflect.Type
		index         []int
		visitChildren bool
	}
	queue := []entry{{root, nil, true}}
	seen := map[reflect.Type]bool{root: true}
	var all, fallbacks []v2Field
	for qi := 0; qi < len(queue); qi++ {
		qe := queue[qi]
		t := qe.typ
		fallbackIndex := -1
		namesIndex := map[string]bool{}
		var anyTag, anyField bool
		for i := range t.NumField() {
			sf := t.Field(i)
			at := append(slices.Clone(qe.index), i)
			_, hasTag := sf.Tag.Lookup("json")
			anyTag = anyTag || hasTag
			f, ignored, bad := v2FieldOptions(sf)
			if bad {
				fail(at)
			}
			if ignored {
				continue
			}
			anyField = true
			f.index, f.typ = at, sf.Type
			if sf.Anonymous && !f.hasName {
				if v2Indirect(f.typ).Kind() != reflect.Struct {
					fail(at)
				} else {
					f.embed = true
				}
			}
			var handleField func()
			handleEmbed := func() {
				if !f.plainEmbed() {
					fail(at)
					if f.hasName {
						if !v2IgnoreBadEmbed {
							handleField() // treated as a regular field (the standard library's v2 ignores it)
						}
						return
					}
					f.casing, f.str, f.omitempty, f.omitzero, f.format = 0, false, false, false, ""
				}
				tf := v2Indirect(f.typ)
				if implementsAnyOf(tf, v2T().methods) && !isJSONTextValue(tf) {
					fail(at)
				}
				if tf.Kind() == reflect.Struct {
					if qe.visitChildren {
						queue = append(queue, entry{tf, f.index, !seen[tf]})
					}
					seen[tf] = true
					return
				} else if !sf.IsExported() {
					fail(at)
					return
				}
				switch {
				case isJSONTextValue(tf):
				case tf.Kind() == reflect.Map && tf.Key().Kind() == reflect.String:
					if implementsAnyOf(tf.Key(), v2T().methods) {
						fail(at)
						if !v2IgnoreBadEmbed {
							handleField() // treated as a regular field (the standard library's v2 ignores it)
						}
						return
					}
				default:
					fail(at)
					if !v2IgnoreBadEmbed {
						handleField() // treated as a regular field (the standard library's v2 ignores it)
					}
					return
				}
				if fallbackIndex >= 0 {
					fail(at)
				}
				fallbackIndex = i
				fallbacks = append(fallbacks, f)
			}
			handleField = func() {
				if !sf.IsExported() {
					tf := v2Indirect(f.typ)
					if !(sf.Anonymous && tf.Kind() == reflect.Struct) {
						fail(at)
						return
					}
					if implementsAnyOf(tf, v2T().methods) || f.omitzero && implementsAnyOf(tf, []reflect.Type{goIsZeroer}) {
						fail(at)
						return
					}
				}
				if namesIndex[f.name] {
					fail(at) // two fields of one name in one struct
				}
				namesIndex[f.name] = true
				f.id = len(all)
				all = append(all, f)
				if f.format != "" && fs.formatAt == nil && !v2FormatSupported {
					fs.formatAt = at
				}
			}
			if f.embed {
				handleEmbed()
			} else {
				handleField()
			}
		}
		if t.NumField() != 0 && !anyTag && !anyField {
			fail(qe.index)
		}
	}

	slices.SortStableFunc(all, func(x, y v2Field) int {
		return cmp.Or(strings.Compare(x.name, y.name), cmp.Compare(len(x.index), len(y.index)), v2BoolsCompare(!x.hasName, !y.hasName))
	})
	for len(all) > 0 {
		n := 1
		for n < len(all) && all[n-1].name == all[n].name {
			n++
		}
		if n == 1 || len(all[0].index) != len(all[1].index) || all[0].hasName != all[1].hasName {
			fs.flattened = append(fs.flattened, all[0])
		}
		all = all[n:]
	}
	slices.SortFunc(fs.flattened, func(x, y v2Field) int { return slices.Compare(x.index, y.index) })
	if n := len(fallbacks); n == 1 || n > 1 && len(fallbacks[0].index) != len(fallbacks[1].index) {
		fs.fallback = &fallbacks[0]
	}
	return fs
}

func v2BoolsCompare(x, y bool) int {
	switch {
	case !x && y:
		return -1
	case x && !y:
		return +1
	}
	return 0
}

// v2Indirect unwraps one unnamed pointer, as Go embedding allows *T.
func v2Indirect(t reflect.Type) reflect.Type {
	if t.Kind() == reflect.Pointer && t.Name() == "" {
		return t.Elem()
	}
	return t
}

// v2FieldOptions reads a field's json tag as V2's parseFieldOptions does;
// bad reports a tag V2 rejects.
func v2FieldOptions(sf reflect.StructField) (out v2Field, ignored, bad bool) {
	tag, hasTag := sf.Tag.Lookup("json")
	if tag == "-" {
		return v2Field{}, true, false
	}
	if !sf.IsExported() && !sf.Anonymous {
		return v2Field{}, true, hasTag // a tag on an unexported field is an error
	}
	out.name = sf.Name
	if len(tag) > 0 && !strings.HasPrefix(tag, ",") {
		n := len(tag) - len(strings.TrimLeftFunc(tag, func(r rune) bool { return !strings.ContainsRune(",\\'\"`", r) }))
		name := tag[:n]
		var err2 error
		if !strings.HasPrefix(tag[n:], ",") && len(name) != len(tag) {
			name, n, err2 = v2TagOption(tag, v2QuotedOptions)
			if err2 != nil {
				bad = true
			}
		}
		if !utf8.ValidString(name) {
			bad = true
			name = string([]rune(name))
		}
		if jsonv2Build && name == "-" && tag[0] == '-' {
			bad = true // json:"-," names the key "-", but is an error to the standard library's v2
		}
		if err2 == nil {
			out.hasName = true
			out.name = name
		}
		tag = tag[n:]
	}
	out.tagRest = tag
	var wasFormat bool
	seenOpts := map[string]bool{}
	for len(tag) > 0 {
		if !strings.HasPrefix(tag, ",") {
			bad = true
		} else {
			tag = tag[len(","):]
			if len(tag) == 0 {
				bad = true
				break
			}
		}
		opt, n, err2 := v2TagOption(tag, v2QuotedOptions)
		if err2 != nil {
			bad = true
		}
		rawOpt := tag[:n]
		tag = tag[n:]
		switch {
		case wasFormat:
			bad = true
		case strings.HasPrefix(rawOpt, "'") && strings.TrimFunc(opt, v2LetterOrDigit) == "":
			bad = true
		}
		switch opt {
		case "case":
			if !strings.HasPrefix(tag, ":") {
				bad = true
				break
			}
			tag = tag[len(":"):]
			opt, n, err2 := v2TagOption(tag, v2QuotedOptions)
			if err2 != nil {
				bad = true
				break
			}
			rawOpt := tag[:n]
			tag = tag[n:]
			if strings.HasPrefix(rawOpt, "'") {
				bad = true
			}
			switch opt {
			case "ignore":
				out.casing |= caseIgnore
			case "strict":
				out.casing |= caseStrict
			default:
				bad = true
			}
		case v2EmbedOption, v2UnknownOption:
			out.embed = true
		case "omitzero":
			out.omitzero = true
		case "omitempty":
			out.omitempty = true
		case "string":
			out.str = true
		case "format":
			if !strings.HasPrefix(tag, ":") {
				bad = true
				break
			}
			tag = tag[len(":"):]
			opt, n, err2 := v2TagOption(tag, true)
			if err2 != nil || opt == "" && !v2FormatSupported {
				bad = true
				break
			}
			tag = tag[n:]
			out.format = opt
			wasFormat = true
		default:
			if v2KnownOption(strings.ReplaceAll(strings.ToLower(opt), "_", "")) {
				bad = true
			}
		}
		switch {
		case out.casing == caseIgnore|caseStrict:
			bad = true
		case seenOpts[opt]:
			bad = true
		}
		seenOpts[opt] = true
	}
	return out, false, bad
}

// v2TagOption is V2's: the next option, a Go identifier or a
// single-quoted string.
var errBadTagOption = errors.New("bad tag option")

func v2TagOption(in string, allowQuoted bool) (string, int, error) {
	i := strings.Index(in, ",")
	if i < 0 {
		i = len(in)
	}
	switch r, _ := utf8.DecodeRuneInString(in); {
	case r == '_' || unicode.IsLetter(r):
		n := len(in) - len(strings.TrimLeftFunc(in, v2LetterOrDigit))
		return in[:n], n, nil
	case r == '\'':
		if !allowQuoted {
			return in[:i], i, errBadTagOption
		}
		var inEscape bool
		b := []byte{'"'}
		n := len(`'`)
		for len(in) > n {
			r, rn := utf8.DecodeRuneInString(in[n:])
			switch {
			case inEscape:
				if r == '\'' {
					b = b[:len(b)-1]
				}
				inEscape = false
			case r == '\\':
				inEscape = true
			case r == '"':
				b = append(b, '\\')
			case r == '\'':
				b = append(b, '"')
				n += len(`'`)
				out, err := strconv.Unquote(string(b))
				if err != nil {
					return in[:i], i, errBadTagOption
				}
				return out, n, nil
			}
			b = append(b, in[n:][:rn]...)
			n += rn
		}
		return in[:i], i, errBadTagOption
	case len(in) == 0:
		return in[:i], i, io.ErrUnexpectedEOF
	default:
		return in[:i], i, errBadTagOption
	}
}

func v2LetterOrDigit(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}
