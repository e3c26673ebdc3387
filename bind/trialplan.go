package bind

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// The trial plan: the check of binders mirrored by trial decodes with the
// binder itself (V2, SegmentIO), shared by both.

// A trialPlan reads arguments for a binder mirrored by trial: the binder
// decodes the whole arguments once, so the verdict is its own; only when it
// fails is each argument decoded alone, to name the ones it fails on.
type trialPlan struct {
	binder   Binder
	typ      reflect.Type
	params   []Param
	trials   []reflect.Type // per param: the one-field struct its value is decoded into alone
	maxDepth int            // the binder's limit on nested arrays and objects, for the scan (0: none)
	hooks    trialHooks
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
	// keyIssues returns what the binder fails on in the set of top-level
	// keys (repeated keys, ambiguous keys); err is its error.
	keyIssues(args []byte, ms []member, err error) []Issue
	// dropped reads the value of a dropped key as the binder skips it.
	dropped(value []byte) error
	// explain says where inside the value a trial failure lies.
	explain(err error) failure
	// whole is the issue for a failure no argument has alone.
	whole(args []byte, ms []member, err error) Issue
	// custom reports that values of t are read by a method of t's own.
	custom(t reflect.Type) bool
	// field returns the type of the field of struct type st that the
	// binder binds key to, or nil.
	field(st reflect.Type, key string) reflect.Type
}

// A failure is where a trial decode failed, as the binder's error says.
type failure struct {
	path   []string  // from the argument's value to the offending one: array indexes and object keys
	dotted bool      // the path is segmentio's dotted Field: one key may span several tokens
	kind   IssueKind // 0: judged from the offending text and its Go type
	at     int       // the binder's byte offset in the trial's text, or -1
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
	bp := mirrorBufs.Get().(*[]byte)
	buf := append(append(append((*bp)[:0], trialPrefix...), value...), '}')
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Type: t, Value: r}
		}
		if cap(buf) <= 1<<16 {
			*bp = buf[:0]
			mirrorBufs.Put(bp)
		}
	}()
	return b.Unmarshal(buf, out)
}

func (p *trialPlan) decode(args []byte) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Type: p.typ, Value: r}
		}
	}()
	return p.binder.Unmarshal(args, reflect.New(p.typ).Interface())
}

// check has Plan.Check's contract.
func (p *trialPlan) check(args []byte, issues []Issue) []Issue {
	if len(args) == 0 {
		return issues // no arguments read as {}, which Compile tried
	}
	err := p.decode(args)
	var buf [8]member
	sc := scanArgs(args, p.maxDepth, buf[:0])
	if err != nil {
		if at := p.hooks.tooDeep(args); at >= 0 {
			return append(issues, p.tooDeep(args, sc, at, err))
		}
	}
	switch {
	case err == nil && sc.kind != '{':
		return issues // null (the binder reads nothing else into a struct)
	case sc.kind == 0 && sc.deep:
		return append(issues, p.tooDeep(args, sc, sc.start, err))
	case sc.kind == 0, sc.kind == 'n':
		return append(issues, Issue{Kind: Syntax, Param: -1, Start: sc.start, End: sc.start, Err: err})
	case sc.kind != '{':
		return append(issues, Issue{Kind: NotObject, Param: -1, Start: sc.start, End: sc.end, Err: err})
	}
	limit, omitted := len(issues)+MaxIssues, 0
	add := func(is Issue) {
		if len(issues) >= limit {
			omitted++
			return
		}
		issues = append(issues, is)
	}
	failed := 0 // issues other than UnknownKey
	ms := sc.members
	for i := range ms {
		m := &ms[i]
		m.param = p.hooks.match(args[m.ks:m.ke])
		switch {
		case m.param == -1:
			if err != nil {
				if e := p.hooks.dropped(args[m.vs:m.ve]); e != nil {
					at := m.vs
					if f := p.hooks.explain(e); f.at >= len(trialPrefix) && f.at-len(trialPrefix) <= m.ve-m.vs {
						at = m.vs + f.at - len(trialPrefix)
					}
					add(Issue{Kind: Syntax, Param: -1, Start: at, End: at, Err: e})
					failed++
				}
			}
			add(Issue{Kind: UnknownKey, Param: -1, Start: m.ks, End: m.ke})
		case m.param >= 0 && err != nil:
			w := reflect.New(p.trials[m.param]).Interface()
			if e := trialDecode(p.binder, args[m.vs:m.ve], w, p.params[m.param].Type); e != nil {
				if len(issues) < limit {
					add(p.issue(args, *m, e))
				} else {
					omitted++
				}
				failed++
			}
		}
	}
	if err != nil {
		for _, is := range p.hooks.keyIssues(args, ms, err) {
			add(is)
			failed++
		}
		if failed == 0 {
			add(p.hooks.whole(args, ms, err))
		}
	}
	if omitted > 0 {
		issues = append(issues, Issue{Kind: Omitted, Param: -1, N: omitted})
	}
	return issues
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
	var pe *PanicError
	if errors.As(err, &pe) {
		f = failure{kind: Rejected, at: -1}
	}
	s := m.vs
	ks, ke := -1, -1
	t := param.Type
	var holder reflect.Type // the type of the container the element is in
	var path strings.Builder
	for rest := f.path; len(rest) > 0; {
		base := t
		for base != nil && base.Kind() == reflect.Pointer && !p.hooks.custom(base) {
			base = base.Elem()
		}
		if base != nil && p.hooks.custom(base) {
			break // the type's own method owns the bytes inside
		}
		cs, cks, cke, used, ok := child(args, s, rest, f.dotted)
		if !ok {
			break
		}
		holder, t = base, nil
		if base != nil {
			switch base.Kind() {
			case reflect.Slice, reflect.Array:
				if args[s] == '[' {
					t = base.Elem()
				}
			case reflect.Map:
				if args[s] == '{' {
					t = base.Elem()
				}
			case reflect.Struct:
				if args[s] == '{' {
					t = p.hooks.field(base, strings.Join(rest[:used], "."))
				}
			case reflect.Interface:
				t = base // inside an empty interface, everything is one too
			}
		}
		if cks < 0 {
			path.WriteString("[" + rest[0] + "]")
		} else if key := keyText(nil, args[cks:cke]); isIdent(key) {
			path.WriteString("." + string(key))
		} else {
			path.WriteString("[" + strconv.Quote(cutKey(key)) + "]")
		}
		s, ks, ke = cs, cks, cke
		rest = rest[used:]
	}
	e, _, _ := scanValue(args, s, 0, 0)
	is := Issue{Kind: f.kind, Param: m.param, Start: s, End: e, Path: path.String(), Err: err}
	quoted := param.Quoted && s == m.vs
	if off := m.vs + f.at - len(trialPrefix); f.at >= 0 && ks >= 0 && off == ks && holder != nil && holder.Kind() == reflect.Map {
		// The failure is the member's key: the map's key type does not read it.
		is.Kind, is.Start, is.End, t = BadKey, ks, ke, holder.Key()
		quoted = false
	} else if is.Kind == 0 {
		is.Kind = textKind(t, args[s:e], quoted, p.hooks.custom)
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
func textKind(t reflect.Type, text []byte, quoted bool, custom func(reflect.Type) bool) IssueKind {
	for t != nil && t.Kind() == reflect.Pointer && !custom(t) {
		t = t.Elem()
	}
	if t == nil || custom(t) || len(text) == 0 {
		return Rejected
	}
	j := text[0]
	num := j == '-' || '0' <= j && j <= '9'
	numeric := numberKind(t) && t != goDuration
	if quoted && numeric {
		if j != '"' {
			return WrongType
		}
		s, ok := unquote(nil, text)
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
	if reads(t, j) {
		return Rejected
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
func numberVerdict(num []byte, t reflect.Type) IssueKind {
	neg := num[0] == '-'
	if t.Kind() != reflect.Float32 && t.Kind() != reflect.Float64 && bytes.ContainsAny(num, ".eE") {
		return NotWhole
	}
	if neg {
		return TooSmall
	}
	return TooLarge
}

// reads reports whether a type reads JSON values that start with j.
func reads(t reflect.Type, j byte) bool {
	num := j == '-' || '0' <= j && j <= '9'
	switch t {
	case goTime:
		return j == '"'
	case goDuration:
		return j == '"' || num
	case goNumber:
		return num
	case goRawMessage, goJSONTextValue:
		return true
	}
	switch t.Kind() {
	case reflect.Interface:
		return true
	case reflect.Bool:
		return j == 't' || j == 'f'
	case reflect.String:
		return j == '"'
	case reflect.Slice, reflect.Array:
		return j == '[' || j == '"' && t.Elem().Kind() == reflect.Uint8
	case reflect.Map, reflect.Struct:
		return j == '{'
	}
	return numberKind(t) && num
}

// child finds, inside the valid JSON array or object at data[s], the
// element the first path tokens name: an array index, or an object key
// (its first member of that key). With dotted, a key may hold dots, each
// starting a new token. It returns where the element starts, the member's
// key (-1 in an array), and the number of tokens it used. It reads only the
// elements before the one it finds, so following a path costs one pass.
func child(data []byte, s int, path []string, dotted bool) (cs, ks, ke, used int, ok bool) {
	i := skipWS(data, s+1)
	switch data[s] {
	case '[':
		idx, err := strconv.Atoi(path[0])
		if err != nil || idx < 0 {
			return
		}
		for k := 0; i < len(data) && data[i] != ']'; k++ {
			if k == idx {
				return i, -1, -1, 1, true
			}
			end, _, _ := scanValue(data, i, 0, 0)
			if i = skipWS(data, end); i >= len(data) || data[i] != ',' {
				return
			}
			i = skipWS(data, i+1)
		}
	case '{':
		for i < len(data) && data[i] == '"' {
			kend, _, _ := scanString(data, i)
			v := skipWS(data, skipWS(data, kend)+1) // past ':'
			key := keyText(nil, data[i:kend])
			n := 1
			if dotted {
				n = bytes.Count(key, []byte(".")) + 1
			}
			if n <= len(path) && string(key) == strings.Join(path[:n], ".") {
				return v, i, kend, n, true
			}
			end, _, _ := scanValue(data, v, 0, 0)
			if i = skipWS(data, end); i >= len(data) || data[i] != ',' {
				return
			}
			i = skipWS(data, i+1)
		}
	}
	return
}

// keyText appends the text of the raw JSON string raw (quotes included)
// to dst, or returns raw's inside when it holds no escapes and only ASCII.
func keyText(dst, raw []byte) []byte {
	in := raw[1 : len(raw)-1]
	for _, c := range in {
		if c == '\\' || c >= utf8.RuneSelf {
			t, _ := unquote(dst, raw)
			return t
		}
	}
	return in
}

func skipWS(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

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
	i := skipWS(d, 0)
	if i >= len(d) {
		return scan{start: i}
	}
	if d[i] != '{' {
		ve, bad, deep := scanValue(d, i, 0, maxDepth)
		if bad >= 0 {
			return scan{start: bad, deep: deep}
		}
		if j := skipWS(d, ve); j != len(d) {
			return scan{start: j}
		}
		if string(d[i:ve]) == "null" {
			return scan{kind: 'n', start: i, end: ve}
		}
		return scan{kind: 'v', start: i, end: ve}
	}
	start := i
	i = skipWS(d, i+1)
	if i < len(d) && d[i] == '}' {
		i++
	} else {
		for {
			if i >= len(d) || d[i] != '"' {
				return scan{start: i, members: ms}
			}
			ke, _, bad := scanString(d, i)
			if bad >= 0 {
				return scan{start: bad, members: ms}
			}
			ks := i
			i = skipWS(d, ke)
			if i >= len(d) || d[i] != ':' {
				return scan{start: i, members: ms}
			}
			vs := skipWS(d, i+1)
			ve, bad, deep := scanValue(d, vs, 1, maxDepth)
			if bad >= 0 {
				return scan{start: bad, deep: deep, members: append(ms, member{ks: ks, ke: ke, vs: vs, ve: -1})}
			}
			ms = append(ms, member{ks: ks, ke: ke, vs: vs, ve: ve})
			i = skipWS(d, ve)
			if i < len(d) && d[i] == ',' {
				i = skipWS(d, i+1)
				continue
			}
			if i < len(d) && d[i] == '}' {
				i++
				break
			}
			return scan{start: i, members: ms}
		}
	}
	if j := skipWS(d, i); j != len(d) {
		return scan{start: j, members: ms}
	}
	return scan{kind: '{', start: start, end: i, members: ms}
}

// scanValue reads the JSON value at d[i] (no space before it), inside
// depth open arrays and objects, and returns its end; bad >= 0 is the offset
// of the first byte that makes it invalid, and deep says it opens an array
// or object past maxDepth. It keeps its own stack, so no nesting exhausts
// the goroutine's.
func scanValue(d []byte, i, depth, maxDepth int) (end, bad int, deep bool) {
	var buf [64]byte
	stack := buf[:0]
	for {
		if i >= len(d) {
			return 0, i, false
		}
		switch c := d[i]; {
		case c == '{' || c == '[':
			if maxDepth > 0 && depth+len(stack)+1 > maxDepth {
				return 0, i, true
			}
			stack = append(stack, c)
			i = skipWS(d, i+1)
			if i < len(d) && d[i] == c+2 { // '}' or ']'
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if c == '{' {
				if i, bad = scanKey(d, i); bad >= 0 {
					return 0, bad, false
				}
			}
			continue
		case c == '"':
			if i, _, bad = scanString(d, i); bad >= 0 {
				return 0, bad, false
			}
		case c == 't' || c == 'f' || c == 'n':
			lit := "null"
			if c == 't' {
				lit = "true"
			} else if c == 'f' {
				lit = "false"
			}
			for k := 0; k < len(lit); k++ {
				if i+k >= len(d) || d[i+k] != lit[k] {
					return 0, i + k, false
				}
			}
			i += len(lit)
		case c == '-' || '0' <= c && c <= '9':
			if i, bad = scanNumber(d, i); bad >= 0 {
				return 0, bad, false
			}
		default:
			return 0, i, false
		}
		// After a value: close containers, or go on to the next element.
		for {
			if len(stack) == 0 {
				return i, -1, false
			}
			i = skipWS(d, i)
			if i >= len(d) {
				return 0, i, false
			}
			top := stack[len(stack)-1]
			if d[i] == top+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if d[i] != ',' {
				return 0, i, false
			}
			i = skipWS(d, i+1)
			if top == '{' {
				if i, bad = scanKey(d, i); bad >= 0 {
					return 0, bad, false
				}
			}
			break
		}
	}
}

// scanKey reads an object key and its colon, and returns where the value
// starts.
func scanKey(d []byte, i int) (int, int) {
	if i >= len(d) || d[i] != '"' {
		return 0, i
	}
	end, _, bad := scanString(d, i)
	if bad >= 0 {
		return 0, bad
	}
	i = skipWS(d, end)
	if i >= len(d) || d[i] != ':' {
		return 0, i
	}
	return skipWS(d, i+1), -1
}

// scanString reads the JSON string at d[i]; esc reports a backslash.
func scanString(d []byte, i int) (end int, esc bool, bad int) {
	i++
	for {
		for i < len(d) && plainByte[d[i]] {
			i++
		}
		if i >= len(d) {
			return 0, esc, i
		}
		switch d[i] {
		case '"':
			return i + 1, esc, -1
		case '\\':
			esc = true
			i++
			if i >= len(d) {
				return 0, esc, i
			}
			switch d[i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				i++
			case 'u':
				for k := 1; k <= 4; k++ {
					if i+k >= len(d) || !hexDigit(d[i+k]) {
						return 0, esc, i + k
					}
				}
				i += 5
			default:
				return 0, esc, i
			}
		default: // a control character
			return 0, esc, i
		}
	}
}

// scanNumber reads the JSON number at d[i].
func scanNumber(d []byte, i int) (end, bad int) {
	if d[i] == '-' {
		i++
	}
	switch {
	case i >= len(d):
		return 0, i
	case d[i] == '0':
		i++
	case '1' <= d[i] && d[i] <= '9':
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	default:
		return 0, i
	}
	if i < len(d) && d[i] == '.' {
		i++
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return 0, i
		}
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	}
	if i < len(d) && (d[i] == 'e' || d[i] == 'E') {
		i++
		if i < len(d) && (d[i] == '+' || d[i] == '-') {
			i++
		}
		if i >= len(d) || d[i] < '0' || d[i] > '9' {
			return 0, i
		}
		for i < len(d) && '0' <= d[i] && d[i] <= '9' {
			i++
		}
	}
	return i, -1
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
