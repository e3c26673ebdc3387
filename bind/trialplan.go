package bind

import (
	"bytes"
	"fmt"
	"hash/maphash"
	"math"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The trial plan: the check of binders mirrored by trial decodes with the
// binder itself (V2, SegmentIO), shared by both.

// A trialPlan reads arguments for a binder mirrored by trial: the binder
// decodes the whole arguments once, so the verdict is its own; only when it
// fails is each argument decoded alone, to name the ones it fails on. When
// it passes, a walk of the text against the struct's positions (loss)
// reports the silent losses the binder has (rules), without allocating on
// a clean call. Required params no top-level key binds are MissingArgument either
// way, unless the text is unreadable.
type trialPlan struct {
	binder   Binder
	typ      reflect.Type
	params   []Param
	trials   []reflect.Type // per param: the one-field struct its value is decoded into alone
	maxDepth int            // the binder's limit on nested arrays and objects, for the scan (0: none)
	hooks    trialHooks
	loss     *lossNode // the tool's struct, for the silent losses; its fields are the params
	rules    lossRules
}

// trialHooks are what a trial plan needs to know of its binder.
type trialHooks interface {
	// match returns the index of the param the binder binds the raw key
	// token to, -1 when it drops the key, or ambiguousKey when it fails on
	// the key itself.
	match(raw []byte) int
	// tooDeep returns the offset of the first bracket past a depth limit
	// the binder checks before it decodes, or -1.
	tooDeep(args []byte) int
	// offset returns the byte offset in the arguments where the binder's
	// error err says it stopped, reading the members in order, or -1.
	offset(err error) int
	// keyIssues gives add what the binder fails on in the set of top-level
	// keys (repeated keys, ambiguous keys), one issue at a time (a call may
	// repeat a key a million times); err is its error.
	keyIssues(args []byte, ms []member, err error, add func(Issue))
	// dropped reads the value of a dropped key as the binder skips it.
	dropped(value []byte) error
	// explain says where inside the value a trial failure lies.
	explain(err error) failure
	// whole is the issue for a failure no argument has alone.
	whole(args []byte, ms []member, err error) Issue
	// custom reports that values of t are read by a method of t's own.
	custom(t reflect.Type) bool
	// byteArrayText reports that the binder reads a string (base64) into
	// a fixed-size array of bytes, as V2 does; segmentio reads only a list.
	byteArrayText() bool
	// field returns the type of the field of struct type st that the
	// binder binds key to, or nil.
	field(st reflect.Type, key string) reflect.Type
	// repeatFields returns, for an object read into struct type st, the
	// field a key binds (only a key of a field's exact name: the binder
	// drops any other), whether it is a ,string field, and whether the
	// binder fails on a value of it sent again as on that value alone
	// (fresh: the field's type reads into what an earlier value left as
	// into a fresh one: no interface of a name, no method of its own);
	// ok false for a key that binds none. nil where a failure's path
	// never names two members of one struct's object (V2 fails on a key
	// sent again). The judge of a failure's path reads it (see judgeFor).
	repeatFields(st reflect.Type) func(key string) (t reflect.Type, quoted, fresh, ok bool)
}

// A failure is where a trial decode failed, as the binder's error says.
type failure struct {
	path   []string // from the argument's value to the offending one: array indexes and object keys
	dotted bool     // the path is segmentio's dotted Field: one key may span several tokens
	kind   Code     // 0: judged from the offending text and its Go type
	at     int      // the binder's byte offset in the trial's text, or -1
	number bool     // the binder read the offending text as a number and failed (V2's strconv.ErrSyntax / ErrRange)
}

const ambiguousKey = -2

// v2MaxDepth is V2's limit on nested arrays and objects (jsontext's
// maxNestingDepth).
const v2MaxDepth = 10000

// trialPrefix opens the one-field object a value is decoded in alone.
const trialPrefix = `{"F":`

type member struct {
	ks, ke int // the key, quotes included
	vs, ve int // the value
	param  int
}

var mirrorBufs = sync.Pool{New: func() any { return new([]byte) }}

// trialDecode decodes value with binder b as the value of the field of the
// one-field struct *out points to. A panic in a decoding method is
// returned as a *PanicError for type t.
func trialDecode(b Binder, value []byte, out any, t reflect.Type) (err error) {
	work(len(value) + len(trialPrefix) + 1)
	bp := mirrorBufs.Get().(*[]byte)
	buf := append(append(append((*bp)[:0], trialPrefix...), value...), '}')
	defer func() {
		if cap(buf) <= 1<<16 {
			*bp = buf[:0]
			mirrorBufs.Put(bp)
		}
	}()
	return run(t, func() error { return unmarshal(b, buf, out) })
}

func (p *trialPlan) decode(args []byte) error {
	work(len(args))
	return run(p.typ, func() error { return unmarshal(p.binder, args, reflect.New(p.typ).Interface()) })
}

// check has Plan.Check's contract; required marks the params to report
// MissingArgument, and nested lists the fields each struct type below the top
// level must be sent (see Plan.WithRequired).
func (p *trialPlan) check(args []byte, required []bool, nested map[reflect.Type][]string, issues []Issue, out *bindcap.Members) []Issue {
	if len(args) == 0 {
		return p.missing(args, nil, required, issues) // no arguments read as {}, which Compile tried
	}
	return p.checkDecoded(args, p.decode(args), required, nested, issues, out)
}

// checkDecoded is check, given err, the binder's decode of args.
func (p *trialPlan) checkDecoded(args []byte, err error, required []bool, nested map[reflect.Type][]string, issues []Issue, out *bindcap.Members) []Issue {
	if len(args) == 0 {
		return p.missing(args, nil, required, issues)
	}
	var buf [8]member
	sc := scanArgs(args, p.maxDepth, buf[:0])
	if err != nil {
		if at := p.hooks.tooDeep(args); at >= 0 {
			return append(issues, p.tooDeep(args, sc, at, err))
		}
	}
	switch {
	case err == nil && sc.kind != '{':
		return p.missing(args, nil, required, issues) // null (the binder reads nothing else into a struct)
	case sc.kind == 0 && sc.deep:
		return append(issues, p.tooDeep(args, sc, sc.start, err))
	case sc.kind == 0, sc.kind == 'n':
		return append(issues, Issue{Kind: InvalidJSON, Param: -1, Start: sc.start, End: sc.start, Err: err})
	case sc.kind != '{':
		return append(issues, Issue{Kind: NotAnObject, Param: -1, Start: sc.start, End: sc.end, Err: err})
	}
	n0 := len(issues)
	tl := tally{nparams: len(p.params)}
	add := func(is Issue) {
		if tl.admit(issues[n0:], is.Kind, is.Param) {
			issues = append(issues, is)
		}
	}
	failed := 0 // issues other than UnknownArgument
	ms := sc.members
	suspect := 0 // the first member the binder may have failed on
	if err != nil {
		suspect = p.suspect(ms, err)
	}
	var tried triedValues
	for i := range ms {
		m := &ms[i]
		m.param = p.hooks.match(args[m.ks:m.ke])
		switch {
		case m.param >= 0 && err != nil && i < suspect:
			// Read by the binder before it failed: it reads it alone too.
		case m.param == -1:
			if err != nil && i >= suspect {
				if e := tried.decode(p, args, ms, i); e != nil {
					at := m.vs
					if f := p.hooks.explain(e); f.at >= len(trialPrefix) && f.at-len(trialPrefix) <= m.ve-m.vs {
						at = m.vs + f.at - len(trialPrefix)
					}
					add(Issue{Kind: InvalidJSON, Param: -1, Start: at, End: at, Err: e})
					failed++
				}
			}
			add(Issue{Kind: UnknownArgument, Param: -1, Start: m.ks, End: m.ke})
		case m.param >= 0 && err != nil:
			if e := tried.decode(p, args, ms, i); e != nil {
				add(p.issue(args, *m, e))
				failed++
			}
		}
	}
	addMembers(out, args, ms, p.folded)
	if err != nil {
		named := false // an issue keyIssues listed carries err
		p.hooks.keyIssues(args, ms, err, func(is Issue) {
			add(is)
			failed++
			named = named || is.Err == err
		})
		if failed == 0 || !named && p.inKey(ms, err) {
			// The binder's own error: where it stopped on a key's text
			// (V2: invalid UTF-8), listed whatever fails after it.
			add(p.hooks.whole(args, ms, err))
		}
	} else {
		w := lossWalk{data: args, rules: p.rules, tally: &tl, n0: n0, issues: issues, nested: nested}
		p.losses(&w, ms)
		issues = w.issues
	}
	for _, is := range p.missing(args, ms, required, nil) {
		add(is)
	}
	return tl.omitted(issues)
}

// inKey reports whether the binder's error err lies in the text of a
// top-level key of ms.
func (p *trialPlan) inKey(ms []member, err error) bool {
	at := p.hooks.offset(err)
	for _, m := range ms {
		if m.ks <= at && at < m.ke {
			return true
		}
	}
	return false
}

// folded reports whether the binder binds the top-level key raw only by
// folding its case.
func (p *trialPlan) folded(raw []byte) bool {
	if p.loss.folds == nil {
		return false
	}
	_, folded := p.loss.match(raw)
	return folded
}

// suspect returns the index of the first member of ms the binder's error
// err may lie in: the binder reads the members in order and stops at its
// first failure, so every member whose text ends before the error's offset
// (the next member starts at or before it) was read without one.
func (p *trialPlan) suspect(ms []member, err error) int {
	at := p.hooks.offset(err)
	if at < 0 {
		return 0
	}
	i := 0
	for i+1 < len(ms) && ms[i+1].ks <= at {
		i++
	}
	return i
}

// triedValues remembers the verdict of each value decoded alone, by param
// and text: the same text for the same param is decoded once however often
// it is sent (a key repeated a million times costs one decode, not a
// million). Allocated on the second value only.
type triedValues struct {
	first    int // the first member decoded, +1 (0: none)
	firstErr error
	seen     map[uint64]triedValue
}

type triedValue struct {
	member int
	err    error
}

var triedSeed = maphash.MakeSeed()

// decode decodes the value of member i of ms alone with the binder, as
// the value of its param, or returns the verdict of a same value decoded
// before.
func (tv *triedValues) decode(p *trialPlan, args []byte, ms []member, i int) error {
	m := ms[i]
	same := func(j int) bool {
		o := ms[j]
		return o.param == m.param && bytes.Equal(args[o.vs:o.ve], args[m.vs:m.ve])
	}
	if tv.first == 0 {
		tv.first, tv.firstErr = i+1, p.decodeAlone(args, m)
		return tv.firstErr
	}
	if same(tv.first - 1) {
		return tv.firstErr
	}
	work(m.ve - m.vs)
	var h maphash.Hash
	h.SetSeed(triedSeed)
	h.WriteByte(byte(m.param + 1))
	h.WriteByte(byte((m.param + 1) >> 8))
	h.Write(args[m.vs:m.ve])
	key := h.Sum64()
	if t, ok := tv.seen[key]; ok && same(t.member) {
		return t.err
	}
	err := p.decodeAlone(args, m)
	if tv.seen == nil {
		tv.seen = map[uint64]triedValue{}
	}
	if _, ok := tv.seen[key]; !ok { // a different value of the same hash is decoded each time
		tv.seen[key] = triedValue{i, err}
	}
	return err
}

// decodeAlone decodes member m's value alone with the binder, into a fresh
// one-field struct of its param's type and options, or, for a key the
// binder drops, as the binder skips it.
func (p *trialPlan) decodeAlone(args []byte, m member) error {
	if m.param < 0 {
		return p.hooks.dropped(args[m.vs:m.ve])
	}
	w := reflect.New(p.trials[m.param]).Interface()
	return trialDecode(p.binder, args[m.vs:m.ve], w, p.params[m.param].Type)
}

// missing appends a MissingArgument issue for each required param no member of
// ms binds.
func (p *trialPlan) missing(args []byte, ms []member, required []bool, issues []Issue) []Issue {
	for i, req := range required {
		if !req || slices.ContainsFunc(ms, func(m member) bool { return m.param == i }) {
			continue
		}
		issues = append(issues, Issue{Kind: MissingArgument, Param: i})
	}
	return issues
}

// losses walks the members of a call the binder reads for silent losses:
// in the top-level keys (a repeated or folded one), and in each value.
func (p *trialPlan) losses(w *lossWalk, ms []member) {
	var seen boundSet
	for _, m := range ms {
		if m.param < 0 {
			continue
		}
		w.param, w.steps = m.param, pathStack{arg: step{m.ks, m.ke}}
		if p.loss.folds != nil {
			if _, folded := p.loss.match(w.data[m.ks:m.ke]); folded {
				w.report(Issue{Kind: FoldedKey, Start: m.ks, End: m.ke, Type: p.params[m.param].Type})
			}
		}
		if p.rules.replaces && replaces(w.data[m.ks:m.ke]) {
			w.report(Issue{Kind: ReplacedText, Start: m.ks, End: m.ke, Type: goString})
		}
		if p.rules.duplicates && seen.add(m.param) {
			w.report(Issue{Kind: DuplicateKey, Start: m.ks, End: m.ke, Type: p.params[m.param].Type})
		}
		w.value(p.loss.nodes[m.param], m.vs)
	}
}

// judgeFor sets j, for a failure's dotted path (segmentio's) through an
// object read into base, a map, an empty interface or a struct: the
// binder reads each value of a map or an empty interface into a fresh
// element, so of two members the path names alike (a key sent again, two
// keys a key type's method reads alike, a key holding a dot), the first
// whose value fails decoded alone into the element's type is the one the
// binder failed on. In an object read into a struct, only a member whose
// key is a field's name is a match (j.field: segmentio drops the others,
// a key holding a dot too unless a field's name does); a field sent once
// fails as its value alone, and one sent again is decoded into what the
// value before it left (see segMirror.whole), which fails where its
// value alone does but for a field of a type repeatFields does not call
// fresh, whose members the judge does not tell apart (the first stands;
// the pass declines such a call: see fieldAgain). So for an int sent 128,
// then 1.0, segmentio fails on the second, and the judge names it (the
// first match, 128, was named before, "too large"). j is zero for
// another path, or another base.
func (p *trialPlan) judgeFor(j *judge, base reflect.Type, dotted bool) {
	j.decode, j.field = nil, nil
	if !dotted || base == nil {
		return
	}
	decodeAs := func(t reflect.Type, quoted bool, v []byte) bool {
		return trialDecode(p.binder, v, reflect.New(wrapper(t, quoted)).Interface(), t) != nil
	}
	switch base.Kind() {
	case reflect.Map:
		elem := base.Elem()
		j.decode = func(_, v []byte, _ bool) (bool, bool) { return decodeAs(elem, false, v), true }
	case reflect.Interface:
		j.decode = func(_, v []byte, _ bool) (bool, bool) { return decodeAs(goAny, false, v), true }
	case reflect.Struct:
		look := p.hooks.repeatFields(base)
		if look == nil {
			return
		}
		j.field = func(key []byte) bool {
			_, _, _, ok := look(string(key))
			return ok
		}
		j.decode = func(key, v []byte, again bool) (bool, bool) {
			t, quoted, fresh, ok := look(string(key))
			if !ok || again && !fresh {
				return false, false
			}
			return decodeAs(t, quoted, v), true
		}
	}
}

// tooDeep is the issue for nesting past the binder's limit at offset at:
// in the argument whose value holds it, if any.
func (p *trialPlan) tooDeep(args []byte, sc scan, at int, err error) Issue {
	is := Issue{Kind: TooDeep, Param: -1, Start: at, End: at, Err: err}
	for _, m := range sc.members {
		if m.vs <= at && (at < m.ve || m.ve < 0) {
			if i := p.hooks.match(args[m.ks:m.ke]); i >= 0 {
				is.Param, is.Start = i, m.vs
			}
			break
		}
	}
	return is
}

// issue describes the trial failure err of member m's value: it follows
// the failure's path into the value as far as the text and the Go types
// allow, so the issue names the innermost offending element.
func (p *trialPlan) issue(args []byte, m member, err error) Issue {
	param := p.params[m.param]
	f := p.hooks.explain(err)
	if _, panicked := err.(*PanicError); panicked { // trialDecode's own, never wrapped
		f = failure{kind: InvalidValue, at: -1}
	}
	s := m.vs
	ks, ke := -1, -1
	t := param.Type
	var holder reflect.Type // the type of the container the element is in
	path := pathStack{arg: step{m.ks, m.ke}}
	jd := judge{budget: 2*(len(args)-m.vs) + 4096} // see judge
	rest := f.path
	for len(rest) > 0 {
		base := t
		for base != nil && base.Kind() == reflect.Pointer && !p.hooks.custom(base) {
			base = base.Elem()
		}
		if base != nil && p.hooks.custom(base) {
			break // the type's own method owns the bytes inside
		}
		var kt reflect.Type
		if base != nil && base.Kind() == reflect.Map {
			kt = base.Key()
		}
		p.judgeFor(&jd, base, f.dotted)
		cs, cks, cke, used, ok := child(args, s, rest, f.dotted, pathKey(base, f.dotted), kt, &jd)
		if !ok {
			break
		}
		holder, t = base, nil
		if base != nil {
			switch base.Kind() {
			case reflect.Slice, reflect.Array:
				if jsonlex.KindAt(args, s) == jsonlex.KindArray {
					t = base.Elem()
				}
			case reflect.Map:
				if jsonlex.KindAt(args, s) == jsonlex.KindObject {
					t = base.Elem()
				}
			case reflect.Struct:
				if jsonlex.KindAt(args, s) == jsonlex.KindObject {
					t = p.hooks.field(base, strings.Join(rest[:used], "."))
				}
			case reflect.Interface:
				t = base // inside an empty interface, everything is one too
			}
		}
		if cks < 0 {
			idx, _ := strconv.Atoi(rest[0]) // child read it
			path.push(step{idx, -1})
		} else {
			path.push(step{cks, cke})
		}
		s, ks, ke = cs, cks, cke
		rest = rest[used:]
	}
	// segmentio's dotted path drops a last key that is empty
	// (prependField): where it ends at an object read into a map or an
	// empty interface, the failure may lie below a member of key "" (as
	// the Go key prints), at any depth; follow the one whose value fails
	// alone, as child tells it.
	for f.dotted {
		base := t
		for base != nil && base.Kind() == reflect.Pointer && !p.hooks.custom(base) {
			base = base.Elem()
		}
		if base == nil || p.hooks.custom(base) || jsonlex.KindAt(args, s) != jsonlex.KindObject ||
			base.Kind() != reflect.Interface && (base.Kind() != reflect.Map || base.Key().Kind() != reflect.String && !textKeyType(base.Key())) {
			break
		}
		var kt reflect.Type
		if base.Kind() == reflect.Map {
			kt = base.Key()
		}
		p.judgeFor(&jd, base, true)
		cs, cks, cke, _, ok := child(args, s, []string{""}, true, pathKey(base, true), kt, &jd)
		if !ok {
			break
		}
		ce, _, _ := scanValue(args, cs, 0, 0)
		if failed, known := jd.fails(nil, args[cs:ce], false); !failed || !known {
			break
		}
		holder, t = base, base
		if base.Kind() == reflect.Map {
			t = base.Elem()
		}
		path.push(step{cks, cke})
		s, ks, ke = cs, cks, cke
	}
	e, _, _ := scanValue(args, s, 0, 0)
	is := Issue{Kind: f.kind, Param: m.param, Start: s, End: e, Path: path.path(args, ""), Err: err}
	quoted := param.Quoted && s == m.vs
	if f.kind == AmbiguousField {
		if len(rest) == 0 && ks >= 0 && holder != nil && holder.Kind() == reflect.Struct {
			is.Start, is.End, is.Type = ks, ke, holder // the key, in the struct its object is read into
			return is
		}
		is.Kind = InvalidValue // a path not followed to the key: the value that holds it
	}
	if off := m.vs + f.at - len(trialPrefix); f.at >= 0 && ks >= 0 && off == ks && holder != nil && holder.Kind() == reflect.Map {
		// The failure is the member's key: the map's key type does not read it.
		is.Kind, is.Start, is.End, t = InvalidKey, ks, ke, holder.Key()
		quoted = false
	} else if is.Kind == "" {
		// A string V2 read as a number failed as one at any depth (a
		// ,string field): judged from its text as an argument's own.
		asNumber := quoted || f.number && jsonlex.KindAt(args, s) == jsonlex.KindString
		is.Kind = textKind(t, args[s:e], asNumber, p.hooks)
	}
	for t != nil && t.Kind() == reflect.Pointer && !p.hooks.custom(t) {
		t = t.Elem()
	}
	if holder != nil && holder.Kind() == reflect.Interface {
		t = nil // a value inside an empty interface has no declared type
	}
	is.Type, is.Quoted = t, quoted
	return is
}

// textKind judges why a value of Go type t failed from its JSON text:
// a number a numeric type cannot hold is not whole, too large or too
// small; a JSON kind the type does not read is of the wrong type; any other
// failure is the type's decoder rejecting text of the right kind.
func textKind(t reflect.Type, text []byte, quoted bool, h trialHooks) Code {
	custom := h.custom
	for t != nil && t.Kind() == reflect.Pointer && !custom(t) {
		t = t.Elem()
	}
	if t == nil || custom(t) || len(text) == 0 {
		return InvalidValue
	}
	j := jsonlex.KindAt(text, 0)
	num := j == jsonlex.KindNumber
	numeric := numberKind(t) && t != goDuration
	if quoted && numeric {
		if j != jsonlex.KindString {
			return WrongType
		}
		s, ok := jsonlex.Unquote(nil, text)
		if !ok || !isValidNumber(s) {
			return WrongType
		}
		return numberVerdict(s, t)
	}
	if numeric && num {
		return numberVerdict(text, t)
	}
	if t.Kind() == reflect.Interface && num { // a number an empty interface reads as a float64
		return numberVerdict(text, reflect.TypeFor[float64]())
	}
	if reads(t, j, h.byteArrayText()) {
		return InvalidValue
	}
	return WrongType
}

func numberKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	}
	return false
}

// numberVerdict is why a valid JSON number fails for numeric type t.
func numberVerdict(num []byte, t reflect.Type) Code {
	neg := num[0] == '-'
	if t.Kind() != reflect.Float32 && t.Kind() != reflect.Float64 && bytes.ContainsAny(num, ".eE") {
		return NotWholeNumber
	}
	if neg {
		return TooSmall
	}
	return TooLarge
}

// reads reports whether a type reads JSON values of kind j.
func reads(t reflect.Type, j jsonlex.Kind, byteArrays bool) bool {
	num := j == jsonlex.KindNumber
	switch t {
	case goTime:
		return j == jsonlex.KindString
	case goDuration:
		return j == jsonlex.KindString || num
	case goNumber:
		return num
	case goRawMessage:
		return true
	}
	if isJSONTextValue(t) {
		return true
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Bool:
		return j == jsonlex.KindTrue || j == jsonlex.KindFalse
	case reflect.String:
		return j == jsonlex.KindString
	case reflect.Slice:
		return j == jsonlex.KindArray || j == jsonlex.KindString && t.Elem().Kind() == reflect.Uint8
	case reflect.Array:
		return j == jsonlex.KindArray || j == jsonlex.KindString && byteArrays && t.Elem().Kind() == reflect.Uint8
	case reflect.Map, reflect.Struct:
		return j == jsonlex.KindObject
	}
	return numberKind(t) && num
}

// child finds, inside the valid JSON array or object at data[s], the
// element the first path tokens name: an array index, or an object key
// (its first member of that key). With dotted, a key may hold dots, each
// starting a new token. It returns where the element starts, the member's
// key (-1 in an array), and the number of tokens it used. It reads only the
// elements before the one it finds, so following a path costs one pass.
// intKey says how the path names a member (see pathKey).
//
// Where a key is sent again, or two keys are read alike, or a key holds a
// dot, more than one member may match. With a judge (j), the member is the
// first whose value fails decoded alone (the binder stops at the first
// failure, and reads each value of a map, and of a struct's field of a
// type repeatField takes, as it reads it alone): child reads the rest of
// the object for other matches, and decodes the ones before the last,
// each charged to the judge's budget; past the budget, or with no judge,
// it is the first that matches.
func child(data []byte, s int, path []string, dotted bool, intKey lossKey, kt reflect.Type, j *judge) (cs, ks, ke, used int, ok bool) {
	k := jsonlex.KindAt(data, s)
	i, more, open := jsonlex.Open(data, s)
	switch {
	case !open || !more:
		return
	case k == jsonlex.KindArray:
		idx, err := strconv.Atoi(path[0])
		if err != nil || idx < 0 {
			return
		}
		for n := 0; more; n++ {
			if n == idx {
				return i, -1, -1, 1, true
			}
			end, _, _ := scanValue(data, i, 0, 0)
			if i, more, open = jsonlex.Next(data, end, jsonlex.KindArray); !open {
				return
			}
		}
	case k == jsonlex.KindObject:
		// The members are read to the object's end, marking the matches
		// (a bit a member, from the second match on); where there are
		// two or more, they are read again to decode each match but the
		// last in turn. A key sent a million times costs no candidate
		// list, and no key is read twice but the one returned (its path
		// tokens: a key type's method runs once more, on it alone).
		var last candidate // the last match
		var marks []uint64 // bit m: member m matches
		matches, first := 0, 0
		for m := 0; more; m++ {
			tok, _, v, isKey := jsonlex.Key(data, i)
			work(v - i)
			if !isKey {
				break
			}
			n, key, match := pathMatch(data[tok.Start:tok.End], path, dotted, intKey, kt)
			match = match && (j == nil || j.field == nil || j.field(key))
			if match && !ok {
				cs, ks, ke, used, ok = v, tok.Start, tok.End, n, true
				if !j.affords(0) {
					return
				}
			}
			end, _, _ := scanValue(data, v, 0, 0)
			if ok && !j.charge(end-v) {
				return cs, ks, ke, used, ok // past the budget: the first
			}
			if match {
				if matches++; matches == 1 {
					first = m
				} else {
					for len(marks) <= m/64 {
						marks = append(marks, 0)
					}
					marks[first/64] |= 1 << (first % 64)
					marks[m/64] |= 1 << (m % 64)
				}
				last = candidate{v, end, tok.Start, tok.End, n}
			}
			if i, more, open = jsonlex.Next(data, end, jsonlex.KindObject); !open {
				break
			}
		}
		if matches < 2 {
			return
		}
		i, more, _ = jsonlex.Open(data, s)
		var sent map[string]bool // the matches' keys judged: a member of one binds the field again
		for m, judged := 0, 0; more && judged < matches-1; m++ {
			tok, _, v, _ := jsonlex.Key(data, i)
			work(v - i)
			end, _, _ := scanValue(data, v, 0, 0)
			if marks[m/64]&(1<<(m%64)) != 0 {
				judged++
				n, key, _ := pathMatch(data[tok.Start:tok.End], path, dotted, intKey, kt)
				if sent == nil {
					sent = map[string]bool{}
				}
				again := sent[string(key)]
				sent[string(key)] = true
				failed, known := j.fails(key, data[v:end], again)
				if !known {
					return cs, ks, ke, used, ok // past the budget, or not told apart: the first
				}
				if failed {
					return v, tok.Start, tok.End, n, true
				}
			}
			i, more, _ = jsonlex.Next(data, end, jsonlex.KindObject)
		}
		return last.vs, last.ks, last.ke, last.used, true // the others read: the binder failed on it
	}
	return
}

// pathMatch reports whether path names the member of key raw (quoted),
// and how many of path's tokens the key takes (a dotted path's key may
// hold dots), with the key as the path names it: intKey says how (see
// pathKey), kt is the map's key type for keyByMethod.
func pathMatch(raw []byte, path []string, dotted bool, intKey lossKey, kt reflect.Type) (n int, key []byte, match bool) {
	switch intKey {
	case keyByText:
		key = keyText(nil, raw)
	case keyByMethod:
		if kv, read := methodKey(kt, raw); read {
			if name, ok := keyName(kv); ok {
				key = []byte(name) // the Go key, as fmt.Sprint writes it
			}
		}
	default:
		key = keyIdentity(nil, raw, intKey) // the integer read, as fmt.Sprint writes it
	}
	n = 1
	if dotted {
		n = bytes.Count(key, []byte(".")) + 1
	}
	return n, key, key != nil && n <= len(path) && string(key) == strings.Join(path[:n], ".")
}

// A candidate is a member a path names: its value's span, its key's, and
// the path tokens it used.
type candidate struct{ vs, ve, ks, ke, used int }

// A judge tells which of the members a failure's path names the binder
// failed on (see child), for one failure: decode says whether a value
// read into the object's element type (a struct's field, where a value
// sent again reads as sent once: see judgeFor) fails alone, or is nil
// where the first must do (any other object read into a struct, a path
// not segmentio's);
// budget is the bytes it may still read and decode past a first match,
// linear in the argument's size, so following a path stays linear
// however many of its keys repeat.
type judge struct {
	decode func(key, value []byte, again bool) (failed, known bool)
	budget int
	// field: the object is a struct's (see judgeFor), and only a member
	// whose key (its text) it reports binds a field is a match.
	field func(key []byte) bool
}

// affords reports whether the judge may read n more bytes.
func (j *judge) affords(n int) bool { return j != nil && j.decode != nil && j.budget >= n }

// charge spends n bytes of the budget, reporting false past it: then the
// budget is spent, and the judge reads nothing more (a child already read
// past it reads no further than its object).
func (j *judge) charge(n int) bool {
	if !j.affords(n) {
		if j != nil {
			j.budget = -1
		}
		return false
	}
	j.budget -= n
	return true
}

// fails decodes value, of the member of key key (its text; again: a
// member of that key came before it), alone into the element type:
// whether it fails, and whether the budget afforded telling and the
// judge tells it.
func (j *judge) fails(key, value []byte, again bool) (failed, known bool) {
	if !j.charge(len(value)) {
		return false, false
	}
	return j.decode(key, value, again)
}

// pathKey is how a binder's error path names a member of the object
// read into base: segmentio's (dotted) by the integer a map of integer
// keys reads ("null" as 0, "1 " as 1, a wrapped key the number it wraps
// to: decodeMap's fmt.Sprint of the key), any other by the key's text.
func pathKey(base reflect.Type, dotted bool) lossKey {
	if !dotted || base == nil || base.Kind() != reflect.Map {
		return keyByText
	}
	if textKeyType(base.Key()) || base.Key().Kind() == reflect.String && formats(base.Key()) {
		return keyByMethod // decodeMap's fmt.Sprint of the key its UnmarshalText read, or of its text
	}
	switch base.Key().Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return keyByInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return keyByUint
	}
	return keyByText
}

// keyText appends the text of the raw JSON string raw (quotes included)
// to dst, or returns raw's inside when it holds no escapes and only ASCII.
func keyText(dst, raw []byte) []byte {
	work(len(raw))
	if _, f, _ := jsonlex.String(raw, 0); f != 0 {
		t, _ := jsonlex.Unquote(dst, raw)
		return t
	}
	return raw[1 : len(raw)-1]
}

// keyEscaped reports whether the raw JSON string raw holds an escape.
func keyEscaped(raw []byte) bool {
	_, f, _ := jsonlex.String(raw, 0)
	return f&jsonlex.Escaped != 0
}

func skipWS(d []byte, i int) int { return jsonlex.Space(d, i) }

// A scan is what scanArgs found.
type scan struct {
	kind       byte // '{' an object, 'n' null, 'v' another value, 0 invalid text
	start, end int  // the value ('n', 'v'); for invalid text, start is the first byte that makes it so
	deep       bool // invalid: nested past the limit
	members    []member
}

// scanArgs reads args by the JSON grammar (RFC 8259; UTF-8 validity is the
// binder's business), with at most maxDepth nested arrays and objects when
// maxDepth > 0, and lists the top-level object's members, appended to ms.
// When the text is invalid inside a member's value, that member is listed
// last, with ve -1.
func scanArgs(d []byte, maxDepth int, ms []member) scan {
	i := jsonlex.Space(d, 0)
	if i >= len(d) {
		return scan{start: i}
	}
	if jsonlex.KindAt(d, i) != jsonlex.KindObject {
		ve, bad, deep := scanValue(d, i, 0, maxDepth)
		if bad >= 0 {
			return scan{start: bad, deep: deep}
		}
		if j := jsonlex.Space(d, ve); j != len(d) {
			return scan{start: j}
		}
		if jsonlex.KindAt(d, i) == jsonlex.KindNull {
			return scan{kind: 'n', start: i, end: ve}
		}
		return scan{kind: 'v', start: i, end: ve}
	}
	start := i
	i, more, ok := jsonlex.Open(d, i)
	if !ok {
		return scan{start: i, members: ms}
	}
	for more {
		key, _, vs, ok := jsonlex.Key(d, i)
		work(vs - i)
		if !ok {
			return scan{start: vs, members: ms}
		}
		ve, bad, deep := scanValue(d, vs, 1, maxDepth)
		if bad >= 0 {
			return scan{start: bad, deep: deep, members: append(ms, member{ks: key.Start, ke: key.End, vs: vs, ve: -1})}
		}
		ms = append(ms, member{ks: key.Start, ke: key.End, vs: vs, ve: ve})
		if i, more, ok = jsonlex.Next(d, ve, jsonlex.KindObject); !ok {
			return scan{start: i, members: ms}
		}
	}
	if j := jsonlex.Space(d, i); j != len(d) {
		return scan{start: j, members: ms}
	}
	return scan{kind: '{', start: start, end: i, members: ms}
}

// scanValue reads the JSON value at d[i] (no space before it), inside
// depth open arrays and objects, and returns its end; bad >= 0 is the offset
// of the first byte that makes it invalid, and deep says it opens an array
// or object past maxDepth (none when maxDepth is 0). jsonlex.Skip keeps its
// own stack, so no nesting exhausts the goroutine's.
func scanValue(d []byte, i, depth, maxDepth int) (end, bad int, deep bool) {
	limit := math.MaxInt
	if maxDepth > 0 {
		limit = maxDepth - depth
	}
	end, err := jsonlex.Skip(d, i, limit)
	work(end - i)
	if err != nil {
		return 0, err.Offset, err.Deep
	}
	return end, -1, false
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

// A typeWalk visits every type a binder reaches from a tool's struct and
// fails, naming the field, on one the binder cannot decode into.
type typeWalk struct {
	root       reflect.Type
	seen       map[reflect.Type]bool
	path       []string
	custom     func(reflect.Type) bool
	structType func(reflect.Type) error // the binder's own checks of a struct type and its fields
	mapKey     func(reflect.Type) bool  // reports whether the binder reads object keys into a map key type
}

func (c *typeWalk) fail(field, why string, args ...any) error {
	path := slices.Clone(c.path)
	if field != "" {
		path = append(path, field)
	}
	return &FieldError{Type: c.root, Field: strings.Join(path, "."), Why: fmt.Sprintf(why, args...)}
}

// field walks the type of the field named name (a Go field path).
func (c *typeWalk) field(name string, t reflect.Type) error {
	c.path = append(c.path, name)
	err := c.walk(t)
	c.path = c.path[:len(c.path)-1]
	return err
}

func (c *typeWalk) walk(t reflect.Type) error {
	if c.seen[t] || c.custom(t) || t == goTime || t == goDuration {
		return nil
	}
	c.seen[t] = true
	fail := func(why string, args ...any) error {
		return &FieldError{Type: c.root, Field: strings.Join(c.path, "."), Why: fmt.Sprintf(why, args...)}
	}
	switch t.Kind() {
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return fail("the binder cannot decode into %v; only null would be read, if anything", t)
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return fail("the binder cannot decode into interface type %v (it has methods); only null would be read", t)
		}
	case reflect.Pointer:
		if selfPointer(t) {
			return fail(selfPointerWhy, t)
		}
		return c.walk(t.Elem())
	case reflect.Slice, reflect.Array:
		return c.field("[]", t.Elem())
	case reflect.Map:
		kt := t.Key()
		if !c.mapKey(kt) {
			return fail("the binder cannot decode an object into %v: it cannot read its keys as %v", t, kt)
		}
		return c.field("[]", t.Elem())
	case reflect.Struct:
		return c.structType(t)
	}
	return nil
}

// fieldPath is the Go field path of the field at index in struct type t,
// through embedded structs ("Inner.Limit"). unnamedOnly: only unnamed
// pointers are followed, as V2 embeds them.
func fieldPath(t reflect.Type, index []int, unnamedOnly bool) string {
	var names []string
	for _, i := range index {
		for t.Kind() == reflect.Pointer && (!unnamedOnly || t.Name() == "") {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			break
		}
		sf := t.Field(i)
		names = append(names, sf.Name)
		t = sf.Type
	}
	return strings.Join(names, ".")
}

// unexportedPointerOn returns the type of an unexported embedded pointer
// the field at index is promoted through (a binder cannot allocate it), or
// "".
func unexportedPointerOn(t reflect.Type, index []int, unnamedOnly bool) string {
	for k, i := range index {
		for t.Kind() == reflect.Pointer && (!unnamedOnly || t.Name() == "") {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return ""
		}
		sf := t.Field(i)
		if k < len(index)-1 && sf.Type.Kind() == reflect.Pointer && !sf.IsExported() {
			return sf.Type.String()
		}
		t = sf.Type
	}
	return ""
}

// Silent losses: what a binder mirrored by trial reads without failing but
// changes or drops. Check looks for them only on a call the binder reads
// (the trial decode passed), by walking the text against a tree of the
// positions the tool's struct has, built once by Compile from the binder's
// own field rules.

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

// lossKey says when two keys of a map are the same key.
type lossKey uint8

const (
	keyByText lossKey = iota // the same text, once unquoted (string kinds)
	keyByInt                 // the same integer: "-0" is "0"
	keyByUint
	keyByMethod // the same Go value, as the key type's UnmarshalText reads it (see methodKeys); a path names it by fmt.Sprint of that
)

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

// nilable reports that a value of kind k can be nil, so null holds.
func nilable(k reflect.Kind) bool {
	switch k {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
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
		n.kind = lSkip // []byte: base64
		if t.Elem().Kind() != reflect.Uint8 || b.spec.leaf(t.Elem()) != nil {
			n.kind, n.elem = lSlice, b.node(t.Elem())
		}
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

// nullText reports whether the text of a ,string value reads as null to
// segmentio: null, then only white space (decodeFromString skips what
// follows the literal; its integers fail on anything after it first).
func nullText(text []byte) bool {
	return len(text) >= 4 && string(text[:4]) == "null" && jsonlex.Space(text, 4) == len(text)
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

// keyIdentity appends to dst what makes the raw key the key it is in a
// map of key kind kind.
func keyIdentity(dst, raw []byte, kind lossKey) []byte {
	text := keyText(dst, raw)
	if kind != keyByText {
		text = text[:segSpaced(text)] // segmentio reads "1 " as 1; the others fail on it
	}
	if kind != keyByText && string(text) == "null" {
		// SegmentIO (and encoding/json under GOEXPERIMENT=jsonv2) reads
		// the key null as 0; a binder that fails on it fails the call.
		text = append(dst[:0], '0') // text may be raw's own bytes
	}
	switch kind {
	case keyByInt:
		if v, err := strconv.ParseInt(string(text), 10, 64); err == nil {
			return strconv.AppendInt(dst[:0], v, 10)
		}
		if segWrapped(text, 64, true) { // segmentio's key is the number it wraps to
			v, _ := segWrap(text, true)
			return strconv.AppendUint(dst[:0], v, 10)
		}
	case keyByUint:
		if v, err := strconv.ParseUint(string(text), 10, 64); err == nil {
			return strconv.AppendUint(dst[:0], v, 10)
		}
		if segWrapped(text, 64, false) {
			v, _ := segWrap(text, false)
			return strconv.AppendUint(dst[:0], v, 10)
		}
	}
	return text
}

// trimZeros drops the leading zeros of a ,string field's text before a
// digit, as segmentio does before it parses an integer there (a sign is
// kept, and then the binder fails on it).
func trimZeros(s []byte) []byte {
	for len(s) > 1 && s[0] == '0' && '0' <= s[1] && s[1] <= '9' {
		s = s[1:]
	}
	return s
}

// keyWraps reports whether segmentio reads the raw key, a JSON string,
// into an integer key type of the given size as another number.
func keyWraps(raw []byte, bits int, signed bool) bool {
	var buf [64]byte
	text := keyText(buf[:0], raw)
	return segWrapped(text[:segSpaced(text)], bits, signed)
}

// replaces reports whether the binder replaces anything in the JSON string
// raw (quotes included) with U+FFFD: invalid UTF-8, or a \u escape of a
// surrogate that is not the first of a pair followed by the second.
func replaces(raw []byte) bool {
	_, f, _ := jsonlex.String(raw, 0)
	return jsonlex.Replaced(raw, f)
}

// rounds reports whether the JSON number lit is an integer a float of the
// given bits cannot hold exactly (and can hold at all: past its range the
// binder fails).
func rounds(lit []byte, bits int) bool {
	digits := lit
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) == 0 {
		return false
	}
	for _, c := range digits {
		if c < '0' || c > '9' {
			return false
		}
	}
	if bits == 64 && len(digits) <= 15 || bits == 32 && len(digits) <= 7 {
		return false // below 2^53 (2^24): exact
	}
	f, err := strconv.ParseFloat(string(lit), bits)
	if err != nil || math.IsInf(f, 0) {
		return false
	}
	got, acc := new(big.Float).SetFloat64(f).Int(nil)
	want, ok := new(big.Int).SetString(string(lit), 10)
	return acc != big.Exact || !ok || got.Cmp(want) != 0
}
