package bind

import (
	"slices"
	"strconv"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
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

// mergeBudget bounds the steps filledMissing records to find the issues'
// objects again (the places, summed over the issues): past it, the
// issues left are kept as the pass reported them. An issue's path is as
// deep as its object, so the steps could otherwise grow as the issues
// times the depth. The places a fixed array zeroes, each time it is read,
// count too, up to twice the budget: past that, every issue is kept.
const mergeBudget = 1 << 14

// filledMissing returns issues, the verdict of plan p on args, without
// the MissingField issues whose field the value the binder reads holds
// after all, or whose object is not in that value (a later null, an
// empty list or a shorter one replaced it), where the argument holds a
// key sent twice. Every other issue it keeps, in order, and so it does
// a MissingField it cannot place. It reads args only for the arguments
// that hold both a MissingField issue and a repeated key.
func filledMissing(p *Plan, args []byte, issues []Issue) []Issue {
	if p.rules == nil || p.root == nil || p.rules.dupDropped {
		return issues // no rules to read by; V2: a repeated name fails
	}
	var missing, repeated []int // params, sorted and distinct after
	for _, is := range issues {
		switch {
		case is.Param < 0:
		case is.Kind == MissingField:
			missing = append(missing, is.Param)
		case is.Kind == DuplicateKey, is.Kind == Omitted && is.Of == DuplicateKey:
			repeated = append(repeated, is.Param)
		}
	}
	if len(missing) == 0 || len(repeated) == 0 {
		return issues
	}
	slices.Sort(repeated)
	m := merger{p: p, data: args, issues: issues}
	for _, is := range issues {
		if _, ok := slices.BinarySearch(repeated, is.Param); ok && is.Kind == MissingField {
			m.params = append(m.params, is.Param)
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
	m.locate = true
	if !m.top() {
		return issues
	}
	m.locate = false
	if !m.top() {
		return issues
	}
	drop := make([]bool, len(issues))
	for _, s := range m.found {
		for _, i := range s.issues {
			drop[i] = s.filled(issues[i])
		}
	}
	out := issues[:0]
	for i, is := range issues {
		if !drop[i] {
			out = append(out, is)
		}
	}
	clear(issues[len(out):]) // the pooled room holds no stale issue
	return out
}

// A merger reads the arguments of the tracked params twice: first to
// place each MissingField issue's object (locate: the steps that lead to
// it, the same for every object read into the same place), then to
// follow what the binder reads into those places, in order.
type merger struct {
	p      *Plan
	data   []byte
	issues []Issue
	params []int // the params read, sorted
	order  []int // the MissingField issues in them, by Start
	next   int   // locate: the first of order not placed yet
	locate bool
	path   []mstep // locate: the steps to the value read
	budget int     // locate: the steps recorded so far
	root   *mslot
	found  []*mslot // the slots that hold issues
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
	parent *mslot
	at     mstep
	kids   map[mstep]*mslot
	gen    uint32 // bumped when the value here is made new: the slots below are stale
	upGen  uint32 // parent.gen when this slot was last made new
	exists bool   // an object was read here since
	list   bool   // lists are read here
	length int    // the last list's length
	st     *node  // the struct read here
	has    []bool // by field index: named by a key read here since
	issues []int  // the issues whose object was read here
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
			end = m.descend(vs, m.p.root.fields.nodes[pi], m.root, mstep{i: pi})
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

// descend reads the value at vs into the place one step below s.
func (m *merger) descend(vs int, n *node, s *mslot, st mstep) int {
	if m.locate {
		m.path = append(m.path, st)
		end := m.value(vs, n, nil)
		m.path = m.path[:len(m.path)-1]
		return end
	}
	return m.value(vs, n, s.kid(st))
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
	if !m.locate && s == nil {
		return m.skip(i)
	}
	switch {
	case k == jsonlex.KindNull && (n.kind == kSlice || n.kind == kMap):
		s.renew() // nil; a struct and an array stay as they are
	case k == jsonlex.KindObject && n.kind == kStruct:
		return m.object(i, n, s)
	case k == jsonlex.KindObject && n.kind == kMap && !n.tkey && !n.jkey:
		return m.mapObject(i, n, s)
	case k == jsonlex.KindArray && (n.kind == kSlice && !n.bytes || n.kind == kArray):
		return m.array(i, n, s)
	}
	return m.skip(i)
}

// object reads an object into struct node n at place s.
func (m *merger) object(at int, n *node, s *mslot) int {
	if m.locate {
		if !m.place(at) {
			return -1
		}
	} else {
		s.exists, s.st = true, n
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
			end = m.descend(vs, n.fields.nodes[fi], s, mstep{i: fi})
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
		name, known := mapKey(n, text)
		if !tok || !known {
			return -1 // a key the binder may read otherwise: the verdict stands
		}
		st := mstep{key: name, isKey: true}
		var end int
		if m.locate {
			end = m.descend(vs, n.elem, nil, st)
		} else {
			kid := s.kid(st)
			kid.renew()
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

// mapKey returns the map key the binder reads from a key's text: the
// text for a string key, the number for an integer one ("01" and "1"
// are one key), and whether it can tell.
func mapKey(n *node, text []byte) (string, bool) {
	switch n.key {
	case kString:
		return string(text), true
	case kInt:
		v, err := strconv.ParseInt(string(text), 10, 64)
		return strconv.FormatInt(v, 10), err == nil
	case kUint:
		v, err := strconv.ParseUint(string(text), 10, 64)
		return strconv.FormatUint(v, 10), err == nil
	}
	return "", false
}

// array reads an array into list or fixed array node n at place s.
func (m *merger) array(at int, n *node, s *mslot) int {
	i, more, ok := jsonlex.Open(m.data, at)
	j := 0
	for ok && more {
		var end int
		if n.kind == kSlice || j < n.length {
			end = m.descend(i, n.elem, s, mstep{i: j})
		} else {
			end = m.skip(i) // past a fixed array's length: dropped
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
	if s == nil {
		return i
	}
	stale := m.p.rules.staleLists
	switch {
	case n.kind == kSlice:
		if j == 0 && !stale {
			s.renew() // encoding/json: a new, empty list
		}
		s.list, s.length = true, j
	case !stale:
		if m.budget += len(s.kids); m.budget > 2*mergeBudget {
			return -1 // an array read again and again: the verdict stands
		}
		for st, kid := range s.kids {
			if st.i >= j && kid.upGen == s.gen {
				kid.renew() // zeroed
			}
		}
	}
	return i
}

// place records the steps to the object at offset at for every issue
// whose object it is.
func (m *merger) place(at int) bool {
	for m.next < len(m.order) && m.issues[m.order[m.next]].Start < at {
		m.next++ // an object the walk did not reach as an object: kept
	}
	if m.next == len(m.order) || m.issues[m.order[m.next]].Start != at {
		return true
	}
	if m.budget += len(m.path); m.budget > mergeBudget {
		m.next = len(m.order) // the rest are kept
		return true
	}
	s := m.root
	for _, st := range m.path {
		kid := s.kids[st]
		if kid == nil {
			if s.kids == nil {
				s.kids = map[mstep]*mslot{}
			}
			kid = &mslot{parent: s, at: st}
			s.kids[st] = kid
		}
		s = kid
	}
	if len(s.issues) == 0 {
		m.found = append(m.found, s)
	}
	for ; m.next < len(m.order) && m.issues[m.order[m.next]].Start == at; m.next++ {
		s.issues = append(s.issues, m.order[m.next])
	}
	return true
}

// kid returns the slot one step below s, made new if s was since it was
// last read (nil: no issue lies there).
func (s *mslot) kid(st mstep) *mslot {
	kid := s.kids[st]
	if kid != nil && kid.upGen != s.gen {
		kid.renew()
		kid.upGen = s.gen
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
}

// filled reports whether the value the binder reads leaves issue is (a
// MissingField whose object was read at s) without cause: the object is
// not in it, or holds the field.
func (s *mslot) filled(is Issue) bool {
	for c := s; c.parent != nil; c = c.parent {
		if c.upGen != c.parent.gen || c.parent.list && c.at.i >= c.parent.length {
			return true // made new since, or past the list's end
		}
	}
	if !s.exists || s.st == nil {
		return true
	}
	last, ok := is.Path.p.Last()
	if !ok || !last.IsKey || last.Cut {
		return false
	}
	for i, prm := range s.st.fields.params {
		if prm.Name == last.Key {
			return s.has[i]
		}
	}
	return false
}
