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
// binder itself (V2, SegmentIO), shared by both, for the calls their
// proving pass declines and the binder fails on.

// A trialPlan reads arguments for a binder mirrored by trial: the binder
// decodes the whole arguments once, so the verdict is its own; when it
// fails, each argument is decoded alone, to name the ones it fails on.
// When it reads them, the clean mode gives the verdict (see clean.go):
// the trial check then lists the unknown keys and the missing parameters
// only (the tests add the loss walk's losses: trialLosses). Required params
// no top-level key binds are MissingArgument either way, unless the text
// is unreadable.
type trialPlan struct {
	binder   Binder
	typ      reflect.Type
	params   []Param
	trials   []reflect.Type // per param: the one-field struct its value is decoded into alone
	maxDepth int            // the binder's limit on nested arrays and objects, for the scan (0: none)
	hooks    trialHooks
	root     *node // the plan's positions (see nativeRoot), for the keys bound by a fold
}

// plan returns the Plan of trial plan p, whose proving pass and clean
// mode read by rules r.
func (p *trialPlan) plan(r *rules) (*Plan, error) {
	root, err := nativeRoot(p.binder, r, p.typ, p.params)
	if err != nil {
		return nil, err
	}
	p.root = root
	return &Plan{binder: p.binder, typ: p.typ, params: p.params, check: p.check, match: p.hooks.match, rules: r, root: root, trial: p}, nil
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
	if wholeDecodes != nil {
		wholeDecodes.Add(1)
	}
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
				if is, path := p.issue(args, *m, e); tl.admit(issues[n0:], is.Kind, is.Param) {
					is.Path = path.path(args, "") // written only for an issue listed
					issues = append(issues, is)
				}
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
	} else if trialLosses != nil {
		issues = trialLosses(p, args, ms, &tl, n0, issues, nested)
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
// folding its case (V2's case:ignore).
func (p *trialPlan) folded(raw []byte) bool {
	if p.root == nil {
		return false
	}
	_, f, _ := jsonlex.String(raw, 0)
	_, folded := p.root.fields.lookupKey(raw, f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0)
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
// allow, so the issue names the innermost offending element. It returns
// the path apart, unwritten (the issue's Path is zero): a caller writes it
// (pathStack.path) where it lists the issue, and one it only counts (past
// MaxIssues) builds none.
func (p *trialPlan) issue(args []byte, m member, err error) (Issue, pathStack) {
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
	is := Issue{Kind: f.kind, Param: m.param, Start: s, End: e, Err: err}
	quoted := param.Quoted && s == m.vs
	if f.kind == AmbiguousField {
		if len(rest) == 0 && ks >= 0 && holder != nil && holder.Kind() == reflect.Struct {
			is.Start, is.End, is.Type = ks, ke, holder // the key, in the struct its object is read into
			return is, path
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
	return is, path
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

// lossKey says when two keys of a map are the same key.
type lossKey uint8

const (
	keyByText lossKey = iota // the same text, once unquoted (string kinds)
	keyByInt                 // the same integer: "-0" is "0"
	keyByUint
	keyByMethod // the same Go value, as the key type's UnmarshalText reads it (see methodKeys); a path names it by fmt.Sprint of that
)

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

// nilable reports that a value of kind k can be nil, so null holds.
func nilable(k reflect.Kind) bool {
	switch k {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// nullText reports whether the text of a ,string value reads as null to
// segmentio: null, then only white space (decodeFromString skips what
// follows the literal; its integers fail on anything after it first).
func nullText(text []byte) bool {
	return len(text) >= 4 && string(text[:4]) == "null" && jsonlex.Space(text, 4) == len(text)
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

// replaces reports whether the binder replaces anything in the JSON string
// raw (quotes included) with U+FFFD: invalid UTF-8, or a \u escape of a
// surrogate that is not the first of a pair followed by the second. Raw
// may go on past the token in white space, as the text of a segmentio
// ,string field does (segQuotedReads); raw that is not one valid token so
// replaces nothing: the binder reads no such text, and jsonlex.Replaced
// reads only whole tokens.
func replaces(raw []byte) bool {
	end, f, ok := jsonlex.String(raw, 0)
	return ok && jsonlex.Space(raw, end) == len(raw) && jsonlex.Replaced(raw[:end], f)
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

// trialLosses, where set, lists the silent losses of a call the binder
// reads that the clean mode declined (see clean.go; no call is known to
// reach it): the tests set it to their oracle, the loss walk, which the
// clean mode's verdicts are held to. Unset, such a call lists its unknown
// keys and missing parameters only.
var trialLosses func(p *trialPlan, args []byte, ms []member, tl *tally, n0 int, issues []Issue, nested map[reflect.Type][]string) []Issue
