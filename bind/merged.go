package bind

import (
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
)

// A key sent twice in one object is read by encoding/json and segmentio
// into the same place, one value over the other: two objects for a
// struct merge, field by field, so that {"w":{"from":1},"w":{"to":2}}
// reads w as {from:1, to:2}. The pass reads each object alone, and
// reports a required field one of them leaves out (MissingField) even
// where another fills it. filledMissing reads the call again where that
// can happen, once for every such issue, and keeps only the ones the
// value the binder reads leaves out.
//
// Where values go, per the binders' own code (encoding/json's decode.go:
// object, array, literalStore; segmentio's decodeStruct, decodeSlice,
// decodeArray, decodeMap, decodePointer):
//   - an object for a struct, or a pointer to one already set, merges
//     into what is there; null leaves a struct as it is, and sets a
//     pointer, a map or a list to nil (what was below is gone);
//   - a map keeps its other keys, and each key's value is read into a
//     new, zero element: nothing below it merges;
//   - a list's elements are read into the ones already there, past its
//     length too (the backing array keeps them, and a list that grows
//     copies them), so that [{"from":1}] then [{"to":2}] reads one element
//     {from:1, to:2}; its length is the last list's. An empty list is a
//     new one under encoding/json, the same backing under segmentio
//     (rules.staleLists);
//   - a fixed array reads its elements in place; encoding/json zeroes the
//     ones past the elements sent, segmentio keeps them (rules.staleLists).
//
// V2 fails on a name sent twice, so its plans never merge (dupDropped).

func init() {
	bindcap.FilledMissing = filledMissing
}

// filledMissing returns issues, the verdict of plan p on args, without
// the MissingField issues the value the binder reads does not bear out:
// its object holds the field after all, or is not in that value (a later
// null, an empty list or a shorter one replaced it), where the argument
// holds a key sent twice. Every other issue it keeps, in order, and so it
// does a MissingField it cannot place, and every one of an argument some
// of whose MissingField issues were only counted (past MaxIssues: one of
// those may be the one that stands). It reads the call twice, following
// only the arguments that hold both a MissingField issue and a repeated
// key, in time linear in the call's size.
func filledMissing(p *Plan, args []byte, issues []Issue) []Issue {
	if p.rules == nil || p.root == nil || p.rules.dupDropped {
		return issues // no rules to read by; V2: a repeated name fails
	}
	var missing, repeated, counted []int // params
	for _, is := range issues {
		switch {
		case is.Param < 0:
		case is.Kind == MissingField:
			missing = append(missing, is.Param)
		case is.Kind == Omitted && is.Of == MissingField:
			counted = append(counted, is.Param)
		case is.Kind == DuplicateKey, is.Kind == Omitted && is.Of == DuplicateKey:
			repeated = append(repeated, is.Param)
		}
	}
	if len(missing) == 0 || len(repeated) == 0 {
		return issues
	}
	slices.Sort(repeated) // a flood lists a thousand of each: no pair is compared
	m := merger{p: p, data: args, issues: issues, counted: counted}
	for _, prm := range missing {
		if _, ok := slices.BinarySearch(repeated, prm); ok {
			m.params = append(m.params, prm)
		}
	}
	if len(m.params) == 0 {
		return issues
	}
	slices.Sort(m.params)
	m.params = slices.Compact(m.params)
	for i, is := range issues {
		if is.Kind == MissingField && m.tracked(is.Param) {
			m.order = append(m.order, i)
		}
	}
	slices.SortStableFunc(m.order, func(a, b int) int { return issues[a].Start - issues[b].Start })
	m.root = &mslot{}
	m.at = []*mslot{m.root}
	m.locate = true
	if !m.top() {
		return issues
	}
	m.locate = false
	if !m.top() {
		return issues
	}
	m.root.settle()
	drop := make([]bool, len(issues))
	for _, s := range m.found {
		for _, i := range s.issues {
			drop[i] = !s.stands(issues[i])
		}
	}
	// Where issues were counted, every object was placed: the argument's
	// verdict is its objects', listed or not. One that lacks a field when
	// none listed stands is listed in their stead; none lacking, the count
	// goes too.
	var more []Issue
	for _, prm := range m.counted {
		if !m.tracked(prm) {
			continue
		}
		stands := false
		for i, is := range issues {
			stands = stands || is.Kind == MissingField && is.Param == prm && !drop[i]
		}
		if stands {
			continue
		}
		if is, ok := m.lacking(prm); ok {
			more = append(more, is)
			continue
		}
		for i, is := range issues {
			drop[i] = drop[i] || is.Kind == Omitted && is.Of == MissingField && is.Param == prm
		}
	}
	out := issues[:0]
	for i, is := range issues {
		if !drop[i] {
			out = append(out, is)
		}
	}
	clear(issues[len(out):]) // the pooled room holds no stale issue
	return append(out, more...)
}

// lacking returns a MissingField issue of an object of param prm, placed
// whole, that the value the binder reads holds and that leaves out a
// required field: the first such object, in the order first read.
func (m *merger) lacking(prm int) (Issue, bool) {
	for _, s := range m.found {
		if !s.live || !s.exists || s.st == nil || s.param != prm {
			continue
		}
		for _, f := range m.p.nestedStd[s.st] {
			if f < len(s.has) && s.has[f] {
				continue
			}
			is := Issue{Kind: MissingField, Param: prm, Start: s.span.Start, End: s.span.End, Type: s.st.fields.nodes[f].typ}
			is.Path = Path{p: s.path(m.data, m.keys[prm]).Name(s.st.fields.params[f].Name)}
			return is, true
		}
	}
	return Issue{}, false
}

// A merger reads the arguments of the tracked params twice: first to
// place each MissingField issue's object (locate: the slot its steps lead
// to, the same for every object read into the same place), then to
// follow what the binder reads into those slots, in order.
type merger struct {
	p       *Plan
	data    []byte
	issues  []Issue
	params  []int                // the params read, sorted
	counted []int                // the params some of whose MissingField issues were counted (past MaxIssues)
	order   []int                // the MissingField issues in them, by Start
	next    int                  // locate: the first of order not placed yet
	whole   bool                 // locate: the param read is counted, and every object of it placed
	keys    map[int]jsonlex.Span // the last key sent for each counted param
	locate  bool
	path    []mstep  // locate: the steps to the value read
	at      []*mslot // locate: the slot of each prefix of path, nil where none was made
	root    *mslot
	found   []*mslot // the slots that hold issues
	slab    []mslot  // room for the slots yet to be made
}

// An mstep leads from a place to one below it: a field or an element by
// index, a map's element by key.
type mstep struct {
	i     int
	key   string
	isKey bool
}

// An mslot is a place the binder reads values into, on the way to an
// issue's object, and what was read there since it was last made new.
type mslot struct {
	parent  *mslot
	at      mstep
	kids    map[mstep]*mslot
	gen     uint32       // bumped when the value here is made new: the slots below are stale
	upGen   uint32       // parent.gen when this slot was last made new
	exists  bool         // an object was read here since
	list    bool         // lists are read here
	length  int          // the last list's length
	st      *node        // the struct read here
	has     []bool       // by field index: named by a key read here since
	written []*mslot     // a fixed array's elements read since it last zeroed them
	listed  bool         // in its parent's written
	live    bool         // settle: the object read here is in the value the binder reads
	param   int          // the param it lies in
	key     jsonlex.Span // the key it was last read by, as sent (none for an element)
	span    jsonlex.Span // the last object read here
	issues  []int        // the issues whose object was read here
	placed  bool         // in merger.found
}

func (m *merger) tracked(param int) bool {
	_, ok := slices.BinarySearch(m.params, param)
	return ok
}

// top reads the arguments object, each member of a tracked param into
// its place; it reports false on text it cannot read (the binder fails
// on it, and the verdict stands as it is).
func (m *merger) top() bool {
	i, more, ok := jsonlex.Open(m.data, jsonlex.Space(m.data, 0))
	for ok && more {
		key, f, vs, kok := jsonlex.Key(m.data, i)
		if !kok {
			return false
		}
		end := -1
		if pi, _ := m.p.root.fields.lookupKey(m.data[key.Start:key.End], f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0); pi >= 0 && m.tracked(pi) {
			if m.whole = slices.Contains(m.counted, pi); m.whole && !m.locate {
				if m.keys == nil {
					m.keys = map[int]jsonlex.Span{}
				}
				m.keys[pi] = key
			}
			end = m.descend(vs, m.p.root.fields.nodes[pi], m.root, mstep{i: pi}, key)
		} else {
			end = m.skip(vs)
		}
		if end < 0 {
			return false
		}
		i, more, ok = jsonlex.Next(m.data, end, jsonlex.KindObject)
	}
	return ok
}

// descend reads the value at vs into the place one step below s, by the
// key at key (none for an element).
func (m *merger) descend(vs int, n *node, s *mslot, st mstep, key jsonlex.Span) int {
	if m.locate {
		var kid *mslot
		if up := m.at[len(m.at)-1]; up != nil {
			kid = up.kids[st]
		}
		m.path, m.at = append(m.path, st), append(m.at, kid)
		end := m.value(vs, n, nil)
		m.path, m.at = m.path[:len(m.path)-1], m.at[:len(m.at)-1]
		return end
	}
	kid := s.kid(st)
	if kid != nil {
		kid.key = key
	}
	return m.value(vs, n, kid)
}

// skip returns the end of the value at i, or -1.
func (m *merger) skip(i int) int {
	end, err := jsonlex.Skip(m.data, i, jsonlex.MaxDepth)
	if err != nil {
		return -1
	}
	return end
}

// value reads the value at i into place s (nil: a place no issue lies
// in, when not locating) as node n, and returns its end, or -1.
func (m *merger) value(i int, n *node, s *mslot) int {
	k := jsonlex.KindAt(m.data, i)
	for n.kind == kPtr {
		if k == jsonlex.KindNull {
			s.renew()
			return m.skip(i)
		}
		n = n.elem
	}
	if n.kind == kTrial && n.elem != nil && n.elem.kind == kMap {
		n = n.elem // Std: a map whose key type's UnmarshalText reads each key (textMap)
	}
	if !m.locate && s == nil {
		return m.skip(i)
	}
	switch {
	case k == jsonlex.KindNull && (n.kind == kSlice || n.kind == kMap):
		s.renew() // nil; a struct and an array stay as they are
	case k == jsonlex.KindObject && n.kind == kStruct:
		return m.object(i, n, s)
	case k == jsonlex.KindObject && n.kind == kMap:
		return m.mapObject(i, n, s)
	case k == jsonlex.KindArray && (n.kind == kSlice && !n.bytes || n.kind == kArray):
		return m.array(i, n, s)
	}
	return m.skip(i)
}

// object reads an object into struct node n at place s.
func (m *merger) object(at int, n *node, s *mslot) int {
	if m.locate {
		m.place(at)
	} else {
		s.exists, s.st, s.span.Start = true, n, at
		if len(s.has) < len(n.fields.params) {
			s.has = make([]bool, len(n.fields.params))
		}
	}
	i, more, ok := jsonlex.Open(m.data, at)
	for ok && more {
		key, f, vs, kok := jsonlex.Key(m.data, i)
		if !kok {
			return -1
		}
		var end int
		if fi, _ := n.fields.lookupKey(m.data[key.Start:key.End], f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0); fi >= 0 {
			if s != nil {
				s.has[fi] = true
			}
			end = m.descend(vs, n.fields.nodes[fi], s, mstep{i: fi}, key)
		} else {
			end = m.skip(vs)
		}
		if end < 0 {
			return -1
		}
		i, more, ok = jsonlex.Next(m.data, end, jsonlex.KindObject)
	}
	if !ok {
		return -1
	}
	if s != nil {
		s.span.End = i
	}
	return i
}

// mapObject reads an object into map node n at place s: each key's
// value into a new element.
func (m *merger) mapObject(at int, n *node, s *mslot) int {
	var buf [64]byte
	i, more, ok := jsonlex.Open(m.data, at)
	for ok && more {
		key, _, vs, kok := jsonlex.Key(m.data, i)
		if !kok {
			return -1
		}
		text, tok := jsonlex.Unquote(buf[:0], m.data[key.Start:key.End])
		if !tok {
			return -1
		}
		name, kok := mapKey(n, m.data[key.Start:key.End], text)
		if !kok {
			return -1
		}
		st := mstep{key: name, isKey: true}
		var end int
		if m.locate {
			end = m.descend(vs, n.elem, nil, st, key)
		} else {
			kid := s.kid(st)
			if kid != nil {
				kid.renew()
				kid.key = key
			}
			end = m.value(vs, n.elem, kid)
		}
		if end < 0 {
			return -1
		}
		i, more, ok = jsonlex.Next(m.data, end, jsonlex.KindObject)
	}
	if !ok {
		return -1
	}
	return i
}

// mapKey returns the slot of a map's element the binder reads the key
// raw (quoted, as sent; text, unquoted) into: a key type's UnmarshalText's
// Go key where it has the method ("K" and "k" are one key for a method
// that folds case), an integer key's value ("01" and "1" are one), any
// other key's text. ok is false where the method fails (the binder fails
// on the map). A Go key of no basic kind is told by its text: two texts
// read alike are then two slots, and an issue in one the other
// overwrites is kept, never one the value read bears out dropped (the
// last text read decides its slot's object).
func mapKey(n *node, raw, text []byte) (key string, ok bool) {
	if kt := n.typ.Key(); textKeyType(kt) {
		v, ok := methodKey(kt, raw)
		if !ok {
			return "", false
		}
		switch v.Kind() {
		case reflect.String:
			return "s" + v.String(), true
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			return "i" + strconv.FormatInt(v.Int(), 10), true
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			return "u" + strconv.FormatUint(v.Uint(), 10), true
		case reflect.Bool:
			return "b" + strconv.FormatBool(v.Bool()), true
		}
		return "t" + string(text), true
	}
	switch n.key {
	case kInt:
		if v, err := strconv.ParseInt(string(text), 10, 64); err == nil {
			return "i" + strconv.FormatInt(v, 10), true
		}
	case kUint:
		if v, err := strconv.ParseUint(string(text), 10, 64); err == nil {
			return "u" + strconv.FormatUint(v, 10), true
		}
	}
	return "t" + string(text), true
}

// array reads an array into list or fixed array node n at place s.
func (m *merger) array(at int, n *node, s *mslot) int {
	zeroes := n.kind == kArray && !m.p.rules.staleLists && s != nil
	i, more, ok := jsonlex.Open(m.data, at)
	j := 0
	for ok && more {
		var end int
		switch {
		case n.kind == kArray && j >= n.length:
			end = m.skip(i) // past a fixed array's length: dropped
		case zeroes:
			st := mstep{i: j}
			if kid := s.kid(st); kid != nil && !kid.listed {
				s.written, kid.listed = append(s.written, kid), true
			}
			end = m.descend(i, n.elem, s, st, jsonlex.Span{})
		default:
			end = m.descend(i, n.elem, s, mstep{i: j}, jsonlex.Span{})
		}
		if end < 0 {
			return -1
		}
		j++
		i, more, ok = jsonlex.Next(m.data, end, jsonlex.KindArray)
	}
	if !ok {
		return -1
	}
	switch {
	case s == nil:
	case n.kind == kSlice:
		if j == 0 && !m.p.rules.staleLists {
			s.renew() // encoding/json: a new, empty list
		}
		s.list, s.length = true, j
	case zeroes:
		// The elements past those sent are zeroed. Those read since the
		// last time are the only ones not zero already: each is looked at
		// once more here, after it was read, so the arrays cost what
		// their elements do.
		kept := s.written[:0]
		for _, kid := range s.written {
			if kid.at.i < j {
				kept = append(kept, kid)
				continue
			}
			kid.listed = false
			if kid.upGen == s.gen {
				kid.renew()
			}
		}
		clear(s.written[len(kept):])
		s.written = kept
	}
	return i
}

// place makes the slot of the object at offset at, for every issue whose
// object it is: the slots on the way that no issue's object made yet, each
// once.
func (m *merger) place(at int) {
	for m.next < len(m.order) && m.issues[m.order[m.next]].Start < at {
		m.next++ // an object the walk did not reach as an object: kept
	}
	if (m.next == len(m.order) || m.issues[m.order[m.next]].Start != at) && !m.whole {
		return
	}
	k := len(m.at) - 1
	for m.at[k] == nil {
		k--
	}
	for ; k+1 < len(m.at); k++ {
		up, st := m.at[k], m.path[k]
		if up.kids == nil {
			up.kids = map[mstep]*mslot{}
		}
		if len(m.slab) == 0 {
			m.slab = make([]mslot, 64) // slots in blocks: an argument placed whole has one an object
		}
		kid := &m.slab[0]
		m.slab = m.slab[1:]
		kid.parent, kid.at, kid.param = up, st, up.param
		if up == m.root {
			kid.param = st.i
		}
		up.kids[st] = kid
		m.at[k+1] = kid
	}
	s := m.at[len(m.at)-1]
	if !s.placed {
		s.placed = true
		m.found = append(m.found, s)
	}
	for ; m.next < len(m.order) && m.issues[m.order[m.next]].Start == at; m.next++ {
		s.issues = append(s.issues, m.order[m.next])
	}
}

// kid returns the slot one step below s, made new if s was since it was
// last read (nil: no issue lies there).
func (s *mslot) kid(st mstep) *mslot {
	kid := s.kids[st]
	if kid != nil && kid.upGen != s.gen {
		kid.renew()
		kid.upGen, kid.listed = s.gen, false
	}
	return kid
}

// renew makes the value at s new: zero, with nothing read below it.
func (s *mslot) renew() {
	if s == nil {
		return
	}
	s.gen++
	s.exists, s.length = false, 0
	clear(s.has)
	clear(s.written)
	s.written = s.written[:0]
}

// path returns the path to the object read at s: each key as last sent
// (the argument's, key), an element by its index.
func (s *mslot) path(data []byte, key jsonlex.Span) jsonpath.Path {
	var steps []*mslot
	for c := s; c.parent != nil && c.parent.parent != nil; c = c.parent {
		steps = append(steps, c)
	}
	p := jsonpath.ArgPath(data[key.Start:key.End])
	for i := len(steps) - 1; i >= 0; i-- {
		if c := steps[i]; c.key.End > c.key.Start {
			p = p.Key(data[c.key.Start:c.key.End])
		} else {
			p = p.Index(c.at.i)
		}
	}
	return p
}

// settle marks, from s down, the slots whose object is in the value the
// binder reads: read since the slot above was last made new, within the
// last list's length, and read as an object.
func (s *mslot) settle() {
	s.live = true
	stack := []*mslot{s}
	for len(stack) > 0 {
		up := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, kid := range up.kids {
			kid.live = up.live && kid.upGen == up.gen && !(up.list && kid.at.i >= up.length)
			stack = append(stack, kid)
		}
	}
}

// stands reports whether MissingField issue is, whose object was read at
// s, stands in the value the binder reads: the object is in it (settle)
// and lacks the field. An issue whose field it cannot tell stands.
func (s *mslot) stands(is Issue) bool {
	if !s.live || !s.exists || s.st == nil {
		return false
	}
	last, ok := is.Path.p.Last()
	if !ok || !last.IsKey {
		return true
	}
	field := -1
	for i, prm := range s.st.fields.params {
		if prm.Name == last.Key || last.Cut && strings.HasPrefix(prm.Name, last.Key) {
			if field >= 0 {
				return true // a cut name two fields start with
			}
			field = i
		}
	}
	return field < 0 || !s.has[field]
}
