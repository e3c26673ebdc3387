package bind

import (
	"reflect"
	"sync"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The loss walk: what a binder mirrored by trial reads without failing but
// changes or drops, found by walking the text of a call the binder reads
// against a tree of the positions the tool's struct has, built from the
// binder's own field rules. It was the trial check's walk before the clean
// mode (clean.go) read those calls with the checker; it stays here as the
// oracle the clean mode is held to (trialLosses, set below, makes the
// tests' trial check list what it finds).

// lossRules are the losses that only some binders mirrored by trial have;
// the others fail instead. Every one of them has NullForValue, RoundedNumber and
// UnknownField, and FoldedKey where a field's tag asks for folding.
type lossRules struct {
	duplicates bool // a repeated key is read at each occurrence, so the last wins (DuplicateKey)
	arrays     bool // a fixed-size array drops extra elements and leaves missing ones zero (ArrayLength)
	replaces   bool // invalid UTF-8 and lone surrogate escapes become U+FFFD (ReplacedText)
	nullQuoted bool // a ,string value holding null reads as null
	wraps      bool // a whole number past a 64-bit integer may be read as another (WrappedNumber, see segIntVerdict)
}

type lossKind uint8

const (
	lSkip   lossKind = iota // read whole, by a method called on null too, or kept raw: nothing to check
	lScalar                 // bool, integers, time.Time, json.Number...: only null is lost
	lString                 // a string kind: null is lost, invalid text replaced
	lText                   // read from a JSON string by UnmarshalText: as lString
	lFloat                  // float32, float64: an integer it cannot hold is rounded
	lQuoted                 // a ,string field: its value is a JSON string holding the text
	lAny                    // an empty interface: what the binder puts in it decides
	lPtr
	lSlice
	lArray
	lMap
	lStruct
)

// A lossNode is one position of the tool's struct.
type lossNode struct {
	kind     lossKind
	typ      reflect.Type
	nullLoss bool      // null for it is lost: the binder leaves the zero value of a type that has no nil
	bits     int       // lFloat, and lQuoted of a float: 32 or 64
	intBits  int       // lScalar and lQuoted of an integer kind, lMap of an integer key: its size
	signed   bool      // with intBits: a signed kind
	str      bool      // lQuoted: of a string kind
	elem     *lossNode // lPtr, lSlice, lArray, lMap: the element; lStruct: the fallback's values, or nil
	length   int       // lArray
	key      lossKey   // lMap
	fields   map[string]int
	folds    map[string][]int // fields a key binds to once folded (V2's case:ignore), by folded name
	nodes    []*lossNode      // lStruct: per field, in the order fields indexes
}

var (
	goString   = reflect.TypeFor[string]()
	goAnyMap   = reflect.TypeFor[map[string]any]()
	goAnySlice = reflect.TypeFor[[]any]()

	// What the binders put in an empty interface.
	lossAny       = &lossNode{kind: lAny, typ: goAny}
	lossAnyString = &lossNode{kind: lString, typ: goAny}
	lossAnyFloat  = &lossNode{kind: lFloat, typ: goAny, bits: 64}
	lossAnyMap    = &lossNode{kind: lMap, typ: goAnyMap, elem: lossAny}
	lossAnySlice  = &lossNode{kind: lSlice, typ: goAnySlice, elem: lossAny}
)

// A lossField is a field as a binder binds it.
type lossField struct {
	name   string
	typ    reflect.Type
	quoted bool // read through the ,string option
	fold   bool // a key binds to it once folded (V2's case:ignore)
	shadow bool // no key binds to it: another field of its name takes them
	id     int  // V2's breadth-first order of the field (its field id)
}

// lossSpec is what building the tree needs to know of a binder.
type lossSpec interface {
	// leaf returns the node for a type the binder reads whole (by a method,
	// or natively), or nil.
	leaf(t reflect.Type) *lossNode
	// fields lists the fields the binder binds keys to in struct type st,
	// and the type of its fallback taking every other key, or nil.
	fields(st reflect.Type) ([]lossField, reflect.Type)
}

type lossBuild struct {
	spec lossSpec
	memo map[reflect.Type]*lossNode
}

func buildLoss(spec lossSpec, t reflect.Type) *lossNode {
	b := &lossBuild{spec: spec, memo: map[reflect.Type]*lossNode{}}
	return b.node(t)
}

func (b *lossBuild) node(t reflect.Type) *lossNode {
	if n := b.memo[t]; n != nil {
		return n
	}
	if n := b.spec.leaf(t); n != nil {
		b.memo[t] = n
		return n
	}
	n := &lossNode{typ: t, nullLoss: !nilable(t.Kind())}
	b.memo[t] = n // before the children: a struct may reach itself through a pointer
	switch t.Kind() {
	case reflect.Pointer:
		n.kind, n.elem = lPtr, b.node(t.Elem())
	case reflect.Interface:
		n.kind = lAny
	case reflect.Bool:
		n.kind = lScalar
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n.kind = lScalar
		n.intBits, n.signed = intSize(t)
	case reflect.Float32:
		n.kind, n.bits = lFloat, 32
	case reflect.Float64:
		n.kind, n.bits = lFloat, 64
	case reflect.String:
		n.kind = lString
	case reflect.Slice:
		// A []byte's string is base64 (skipped); an array, which segmentio
		// reads, is a list of uint8, a null element left 0.
		n.kind, n.elem = lSlice, b.node(t.Elem())
	case reflect.Array:
		n.kind, n.length, n.elem = lArray, t.Len(), b.node(t.Elem())
	case reflect.Map:
		n.kind, n.elem = lMap, b.node(t.Elem())
		n.intBits, n.signed = intSize(t.Key())
		switch t.Key().Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n.key = keyByInt
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n.key = keyByUint
		}
		if b.spec.leaf(t.Key()) != nil {
			n.key, n.intBits = keyByText, 0 // read by its own method
			if textKeyType(t.Key()) {
				n.key = keyByMethod
			}
		}
	case reflect.Struct:
		n.kind = lStruct
		fs, fallback := b.spec.fields(t)
		n.fields = make(map[string]int, len(fs))
		for i, f := range fs {
			if !f.shadow {
				n.fields[f.name] = i
			}
			if f.fold {
				if n.folds == nil {
					n.folds = map[string][]int{}
				}
				k := string(v2Fold([]byte(f.name)))
				if c := n.folds[k]; len(c) == 1 && !v2AmbiguousFold {
					// The standard library's v2 binds a key several
					// case:ignore fields fold to to the first in
					// breadth-first order (see v2FoldFirst): a fold.
					if f.id < fs[c[0]].id {
						c[0] = i
					}
				} else {
					n.folds[k] = append(n.folds[k], i)
				}
			}
			if f.quoted {
				n.nodes = append(n.nodes, b.quotedNode(f.typ))
			} else {
				n.nodes = append(n.nodes, b.node(f.typ))
			}
		}
		if fallback != nil {
			n.elem = &lossNode{kind: lSkip, typ: fallback} // jsontext.Value: kept raw
			if fallback.Kind() == reflect.Map {
				n.elem = b.node(fallback.Elem())
			}
		}
	default:
		n.kind = lSkip
	}
	return n
}

// quotedNode is the node of a field of type t read through the ,string
// option: pointers hold null, and the rest reads a JSON string holding
// the text. A number the binder reads may be rounded or wrapped; one a
// type's own method reads (UnmarshalJSON, UnmarshalText: the binder
// hands it the text) is the method's, as under Std, and no loss.
func (b *lossBuild) quotedNode(t reflect.Type) *lossNode {
	if t.Kind() == reflect.Pointer {
		elem := b.quotedNode(t.Elem())
		elem.nullLoss = false // the text null sets the pointer nil, as null does
		return &lossNode{kind: lPtr, typ: t, elem: elem}
	}
	n := &lossNode{kind: lQuoted, typ: t, nullLoss: true}
	if l := b.spec.leaf(t); l == nil || l.kind != lSkip && l.kind != lText {
		n.intBits, n.signed = intSize(t)
		switch t.Kind() {
		case reflect.Float32:
			n.bits = 32
		case reflect.Float64:
			n.bits = 64
		}
	}
	n.str = t.Kind() == reflect.String
	return n
}

// intSize returns the size of integer type t and whether it is signed,
// or 0 for a type of another kind.
func intSize(t reflect.Type) (int, bool) {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return t.Bits(), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return t.Bits(), false
	}
	return 0, false
}

// match returns the field struct node n binds the raw key to, or -1, and
// whether it binds only once folded.
func (n *lossNode) match(raw []byte) (int, bool) {
	var buf [64]byte
	key := keyText(buf[:0], raw)
	if i, ok := n.fields[string(key)]; ok {
		return i, false
	}
	if n.folds != nil {
		var fb [64]byte
		if c := n.folds[string(appendV2Fold(fb[:0], key))]; len(c) == 1 {
			return c[0], true
		}
	}
	return -1, false
}

// A lossWalk looks for silent losses in a call the binder reads.
type lossWalk struct {
	data   []byte
	rules  lossRules
	param  int // the argument being walked
	issues []Issue
	nested map[reflect.Type][]string // the fields each struct must be sent (see Plan.WithRequired)
	// The steps from the argument's value to the one being walked, for
	// the paths of issues.
	steps pathStack

	n0    int    // len(issues) at the start of the Check
	tally *tally // which issues are listed, and the count of the rest
}

// report records a loss; its Path leads to the value being walked (for a
// key, to the member's value).
func (w *lossWalk) report(is Issue) {
	if !w.tally.admit(w.issues[w.n0:], is.Kind, w.param) {
		return
	}
	is.Param = w.param
	is.Path = w.steps.path(w.data, "")
	w.issues = append(w.issues, is)
}

// value walks the valid JSON value at data[i] read into n's position, and
// returns its end.
func (w *lossWalk) value(n *lossNode, i int) int {
	d := w.data
	k := jsonlex.KindAt(d, i)
	if k == jsonlex.KindNull {
		if n.nullLoss {
			w.report(Issue{Kind: NullForValue, Start: i, End: i + 4, Type: n.typ})
		}
		return i + 4
	}
	switch n.kind {
	case lPtr:
		return w.value(n.elem, i)
	case lString, lText:
		if k == jsonlex.KindString {
			end := stringEnd(d, i)
			if w.rules.replaces && replaces(d[i:end]) {
				w.report(Issue{Kind: ReplacedText, Start: i, End: end, Type: n.typ})
			}
			return end
		}
	case lScalar:
		if k == jsonlex.KindNumber && n.intBits != 0 && w.rules.wraps {
			end := numberEnd(d, i)
			if segWrapped(d[i:end], n.intBits, n.signed) {
				w.report(Issue{Kind: WrappedNumber, Start: i, End: end, Type: n.typ})
			}
			return end
		}
	case lFloat:
		if k == jsonlex.KindNumber {
			end := numberEnd(d, i)
			if rounds(d[i:end], n.bits) {
				w.report(Issue{Kind: RoundedNumber, Start: i, End: end, Type: n.typ})
			}
			return end
		}
	case lQuoted:
		if k == jsonlex.KindString {
			end := stringEnd(d, i)
			w.quoted(n, i, end)
			return end
		}
	case lAny:
		switch k {
		case jsonlex.KindString:
			return w.value(lossAnyString, i)
		case jsonlex.KindNumber:
			return w.value(lossAnyFloat, i)
		case jsonlex.KindArray:
			return w.array(lossAnySlice, i)
		case jsonlex.KindObject:
			return w.mapObject(lossAnyMap, i)
		}
	case lSlice, lArray:
		if k == jsonlex.KindArray {
			return w.array(n, i)
		}
	case lMap:
		if k == jsonlex.KindObject {
			return w.mapObject(n, i)
		}
	case lStruct:
		if k == jsonlex.KindObject {
			return w.structObject(n, i)
		}
	}
	switch k { // skip it
	case jsonlex.KindString:
		return stringEnd(d, i)
	case jsonlex.KindNumber:
		return numberEnd(d, i)
	case jsonlex.KindTrue:
		return i + 4
	case jsonlex.KindFalse:
		return i + 5
	}
	end, _, _ := scanValue(d, i, 0, 0)
	return end
}

// quoted checks the ,string value data[s:e], a JSON string.
func (w *lossWalk) quoted(n *lossNode, s, e int) {
	var buf [64]byte
	inner, _ := jsonlex.Unquote(buf[:0], w.data[s:e])
	is := Issue{Start: s, End: e, Type: n.typ, Quoted: true}
	switch {
	case w.rules.nullQuoted && nullText(inner):
		if !n.nullLoss {
			return
		}
		is.Kind = NullForValue
	case n.bits != 0 && rounds(inner, n.bits):
		is.Kind = RoundedNumber
	case n.intBits != 0 && w.rules.wraps && segWrapped(trimZeros(inner), n.intBits, n.signed):
		is.Kind = WrappedNumber
	case n.str && w.rules.replaces && (replaces(w.data[s:e]) || len(inner) >= 2 && jsonlex.KindAt(inner, 0) == jsonlex.KindString && replaces(inner)):
		is.Kind = ReplacedText
	default:
		return
	}
	w.report(is)
}

// array walks the array at data[i] read into slice or array node n.
func (w *lossWalk) array(n *lossNode, i int) int {
	d := w.data
	length := -1
	if n.kind == lArray {
		length = n.length
	}
	j, more, _ := jsonlex.Open(d, i)
	// The elements are counted as they are read: counting them first would
	// read the array twice, and nested arrays once more per level.
	k := 0
	end := j
	if more {
		for ; ; k++ {
			var e int
			if length >= 0 && k >= length {
				e, _, _ = scanValue(d, j, 0, 0) // dropped
			} else {
				outer := w.steps.push(step{k, -1})
				e = w.value(n.elem, j)
				w.steps.pop(outer)
			}
			if j, more, _ = jsonlex.Next(d, e, jsonlex.KindArray); !more {
				k++
				end = j
				break
			}
		}
	}
	if length >= 0 && w.rules.arrays && k != length {
		w.report(Issue{Kind: ArrayLength, Start: i, End: end, Type: n.typ, N: k})
	}
	return end
}

// member reads the key at data[j] and returns its end and where the value
// starts.
func (w *lossWalk) member(j int) (ke, vs int) {
	key, _, vs, _ := jsonlex.Key(w.data, j)
	work(key.Len())
	return key.End, vs
}

// next steps past the member value ending at end: it returns the next
// key's start, or -1 and the end of the object.
func (w *lossWalk) next(end int) (int, int) {
	j, more, _ := jsonlex.Next(w.data, end, jsonlex.KindObject)
	if !more {
		return -1, j
	}
	return j, 0
}

// mapObject walks the object at data[i] read into map node n.
func (w *lossWalk) mapObject(n *lossNode, i int) int {
	d := w.data
	j, more, _ := jsonlex.Open(d, i)
	if !more {
		return j
	}
	var keys lossKeySet
	for {
		ke, vs := w.member(j)
		outer := w.steps.push(step{j, ke})
		if w.rules.replaces && (n.key == keyByText || n.key == keyByMethod) && replaces(d[j:ke]) {
			w.report(Issue{Kind: ReplacedText, Start: j, End: ke, Type: n.typ.Key()})
		}
		if w.rules.wraps && n.intBits != 0 && keyWraps(d[j:ke], n.intBits, n.signed) {
			w.report(Issue{Kind: WrappedNumber, Start: j, End: ke, Type: n.typ.Key()})
		}
		if w.rules.wraps && n.intBits != 0 && keyNull(d[j:ke]) {
			w.report(Issue{Kind: NullForValue, Start: j, End: ke, Type: n.typ.Key()})
		}
		if w.rules.duplicates && keys.add(d, j, ke, n) {
			w.report(Issue{Kind: DuplicateKey, Start: j, End: ke, Type: n.elem.typ})
		}
		end := w.value(n.elem, vs)
		w.steps.pop(outer)
		if j, end = w.next(end); j < 0 {
			return end
		}
	}
}

// structObject walks the object at data[i] read into struct node n.
func (w *lossWalk) structObject(n *lossNode, i int) int {
	d := w.data
	var seen boundSet
	j, more, _ := jsonlex.Open(d, i)
	if !more {
		w.missingFields(n, &seen, i, j)
		return j
	}
	for {
		ke, vs := w.member(j)
		f, folded := n.match(d[j:ke])
		outer := w.steps.push(step{j, ke})
		var end int
		switch {
		case f >= 0:
			ft := n.nodes[f].typ
			if folded {
				w.report(Issue{Kind: FoldedKey, Start: j, End: ke, Type: ft})
			}
			if w.rules.replaces && replaces(d[j:ke]) {
				w.report(Issue{Kind: ReplacedText, Start: j, End: ke, Type: goString})
			}
			if seen.add(f) && w.rules.duplicates {
				w.report(Issue{Kind: DuplicateKey, Start: j, End: ke, Type: ft})
			}
			end = w.value(n.nodes[f], vs)
		case n.elem != nil:
			end = w.value(n.elem, vs) // the fallback keeps it
		default:
			w.report(Issue{Kind: UnknownField, Start: j, End: ke, Type: n.typ})
			end, _, _ = scanValue(d, vs, 0, 0)
		}
		w.steps.pop(outer)
		if j, end = w.next(end); j < 0 {
			w.missingFields(n, &seen, i, end)
			return end
		}
	}
}

// missingFields reports a MissingField issue for each field of struct node n
// that must be sent and that the object at data[start:end], whose keys
// bound the fields in seen, does not name. Its path leads to where the
// field would be.
func (w *lossWalk) missingFields(n *lossNode, seen *boundSet, start, end int) {
	for _, name := range w.nested[n.typ] {
		f, ok := n.fields[name]
		if !ok || seen.has(f) {
			continue
		}
		if !w.tally.admit(w.issues[w.n0:], MissingField, w.param) {
			continue
		}
		w.issues = append(w.issues, Issue{Kind: MissingField, Param: w.param, Start: start, End: end, Type: n.nodes[f].typ,
			Path: w.steps.path(w.data, name)})
	}
}

// A boundSet is the fields an object's keys bound so far.
type boundSet struct {
	low  uint64
	more map[int]bool
}

// has reports whether field f is in the set.
func (s *boundSet) has(f int) bool {
	if f < 64 {
		return s.low&(1<<f) != 0
	}
	return s.more[f]
}

// add adds field f and reports whether it was there.
func (s *boundSet) add(f int) bool {
	if f < 64 {
		had := s.low&(1<<f) != 0
		s.low |= 1 << f
		return had
	}
	if s.more == nil {
		s.more = map[int]bool{}
	}
	had := s.more[f]
	s.more[f] = true
	return had
}

// A lossKeySet is the keys of one map object seen so far: the first few by
// their spans, compared one by one, the rest in a map; keys told by the
// value their type's method reads, by that value.
type lossKeySet struct {
	spans   [16][2]int
	n       int
	more    map[string]bool
	byValue methodKeys
}

// add adds the key data[s:e] of an object read into map n and reports
// whether it was there.
func (ks *lossKeySet) add(d []byte, s, e int, n *lossNode) bool {
	kind := n.key
	if kind == keyByMethod {
		return ks.byValue.add(n.typ.Key(), d[s:e])
	}
	var buf [64]byte
	key := keyIdentity(buf[:0], d[s:e], kind)
	for _, sp := range ks.spans[:ks.n] {
		var ob [64]byte
		if string(keyIdentity(ob[:0], d[sp[0]:sp[1]], kind)) == string(key) {
			return true
		}
	}
	if ks.more != nil && ks.more[string(key)] {
		return true
	}
	if ks.n < len(ks.spans) {
		ks.spans[ks.n] = [2]int{s, e}
		ks.n++
		return false
	}
	if ks.more == nil {
		ks.more = map[string]bool{}
	}
	ks.more[string(key)] = true
	return false
}

// keyNull reports whether segmentio reads the raw key, a JSON string,
// into an integer key type as it reads null: the key "null", space after
// it or not, which it reads as 0.
func keyNull(raw []byte) bool {
	var buf [64]byte
	text := keyText(buf[:0], raw)
	return string(text[:segSpaced(text)]) == "null"
}

// keyWraps reports whether segmentio reads the raw key, a JSON string,
// into an integer key type of the given size as another number.
func keyWraps(raw []byte, bits int, signed bool) bool {
	var buf [64]byte
	text := keyText(buf[:0], raw)
	return segWrapped(text[:segSpaced(text)], bits, signed)
}

// losses walks the members of a call the binder reads for silent losses:
// in the top-level keys (a repeated or folded one), and in each value.
func (o *lossOracle) losses(p *trialPlan, w *lossWalk, ms []member) {
	var seen boundSet
	for _, m := range ms {
		if m.param < 0 {
			continue
		}
		w.param, w.steps = m.param, pathStack{arg: step{m.ks, m.ke}}
		if o.root.folds != nil {
			if _, folded := o.root.match(w.data[m.ks:m.ke]); folded {
				w.report(Issue{Kind: FoldedKey, Start: m.ks, End: m.ke, Type: p.params[m.param].Type})
			}
		}
		if o.rules.replaces && replaces(w.data[m.ks:m.ke]) {
			w.report(Issue{Kind: ReplacedText, Start: m.ks, End: m.ke, Type: goString})
		}
		if o.rules.duplicates && seen.add(m.param) {
			w.report(Issue{Kind: DuplicateKey, Start: m.ks, End: m.ke, Type: p.params[m.param].Type})
		}
		w.value(o.root.nodes[m.param], m.vs)
	}
}

// v2Loss is what V2's silent losses need to know of its rules.
type v2Loss struct{}

func (v2Loss) leaf(t reflect.Type) *lossNode {
	switch {
	case t == goTime, t == goDuration: // read natively, whatever their methods
		return &lossNode{kind: lScalar, typ: t, nullLoss: true}
	case isJSONTextValue(t):
		return &lossNode{kind: lSkip, typ: t}
	}
	if !v2Custom(t) {
		return nil
	}
	return selfLossNode(t, v2Self(t))
}

func (v2Loss) fields(st reflect.Type) ([]lossField, reflect.Type) {
	fs := v2StructFields(st)
	out := make([]lossField, len(fs.flattened))
	for i, f := range fs.flattened {
		base := f.typ
		for base.Kind() == reflect.Pointer && !v2Custom(base) {
			base = base.Elem()
		}
		out[i] = lossField{name: f.name, typ: f.typ, quoted: f.str && numberKind(base) && !v2Custom(base), fold: f.casing == caseIgnore, id: f.id}
	}
	if fs.fallback != nil {
		return out, v2Indirect(fs.fallback.typ)
	}
	return out, nil
}

// segLoss is what SegmentIO's silent losses need to know of its rules.
type segLoss struct{}

func (segLoss) leaf(t reflect.Type) *lossNode {
	switch t {
	case goDuration:
		// A number is read with parseInt: it may wrap (see segIntVerdict).
		return &lossNode{kind: lScalar, typ: t, nullLoss: true, intBits: 64, signed: true}
	case goNumber, goTime:
		return &lossNode{kind: lScalar, typ: t, nullLoss: true}
	case goRawMessage:
		return &lossNode{kind: lSkip, typ: t}
	}
	if !segCustom(t) {
		return nil
	}
	return selfLossNode(t, segSelf(t))
}

func (segLoss) fields(st reflect.Type) ([]lossField, reflect.Type) {
	fields := segStructFields(st, map[reflect.Type]*segStruct{}).fields
	idx := segIndex(fields)
	out := make([]lossField, len(fields))
	for i, f := range fields {
		base := f.typ
		if base.Kind() == reflect.Pointer {
			base = base.Elem()
		}
		out[i] = lossField{
			name:   f.name,
			typ:    f.typ,
			quoted: f.stringify && (numberKind(base) || base.Kind() == reflect.Bool || base.Kind() == reflect.String),
			shadow: idx[f.name] != i,
		}
	}
	return out, nil
}

// selfLossNode is the leaf of a type a binder reads by its own method,
// as the binder's self rule (l) says.
func selfLossNode(t reflect.Type, l *selfLeaf) *lossNode {
	if l.text {
		return &lossNode{kind: lText, typ: t, nullLoss: l.nullLoss}
	}
	return &lossNode{kind: lSkip, typ: t, nullLoss: l.nullLoss}
}

// A lossOracle is the loss walk's tree of one trial plan's struct, and the
// losses its binder has.
type lossOracle struct {
	root  *lossNode
	rules lossRules
}

var lossOracles sync.Map // *trialPlan -> *lossOracle

// oracleFor returns p's loss walk tree, built on first use.
func oracleFor(p *trialPlan) *lossOracle {
	if o, ok := lossOracles.Load(p); ok {
		return o.(*lossOracle)
	}
	o := &lossOracle{}
	switch p.binder.(type) {
	case segmentioBinder:
		o.root = buildLoss(segLoss{}, p.typ)
		o.rules = lossRules{duplicates: true, arrays: true, replaces: true, nullQuoted: true, wraps: true}
	default:
		o.root = buildLoss(v2Loss{}, p.typ)
	}
	got, _ := lossOracles.LoadOrStore(p, o)
	return got.(*lossOracle)
}

func init() {
	trialLosses = func(p *trialPlan, args []byte, ms []member, tl *tally, n0 int, issues []Issue, nested map[reflect.Type][]string) []Issue {
		o := oracleFor(p)
		w := lossWalk{data: args, rules: o.rules, tally: tl, n0: n0, issues: issues, nested: nested}
		o.losses(p, &w, ms)
		return w.issues
	}
}

// stringEnd returns the end of the valid JSON string at d[i].
func stringEnd(d []byte, i int) int {
	end, _, _ := jsonlex.String(d, i)
	work(end - i)
	return end
}

// numberEnd returns the end of the valid JSON number at d[i].
func numberEnd(d []byte, i int) int {
	end, _, _ := jsonlex.Number(d, i)
	work(end - i)
	return end
}
