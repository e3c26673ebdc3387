package bind

import (
	"encoding"
	"hash/maphash"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
	"github.com/bindguard/bindguard/internal/pool"
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
//
// What the reading costs is in the call's size, and so is what it holds,
// but not what it allocates: a call placed whole (past MaxIssues) has a
// slot for each of its objects. The slots lie in one slab, told by
// number, and hold no pointer; the slots below one are listed in the
// order made, so that a value read again in the order first read (as a
// merge sends it) finds each right after the one before, and those below
// a slot of many are in one open-addressing table besides, keyed by the
// slot above and the step; a struct's fields read are bits in one shared
// slab; a map's key is told by its hash and its text in the call (or the
// Go key its type's method reads), with no string made for it. Each slab
// doubles as it fills, and the merger that holds them is pooled (see
// mergers), so that a call allocates nothing once one of its size has
// been read, and a few times for each doubling of a slab where it is the
// widest yet.

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
	var missing, repeated bool
	for _, is := range issues {
		switch {
		case is.Param < 0:
		case is.Kind == MissingField:
			missing = true
		case is.Kind == DuplicateKey, is.Kind == Omitted && is.Of == DuplicateKey:
			repeated = true
		}
	}
	if !missing || !repeated {
		return issues // most calls: nothing to read, nothing taken from the pool
	}
	m := mergers.Get()
	defer m.release()
	m.p, m.data, m.issues = p, args, issues
	for _, is := range issues {
		switch {
		case is.Param < 0:
		case is.Kind == MissingField:
			m.params = append(m.params, is.Param)
		case is.Kind == Omitted && is.Of == MissingField:
			m.counted = append(m.counted, is.Param)
		case is.Kind == DuplicateKey, is.Kind == Omitted && is.Of == DuplicateKey:
			m.repeated = append(m.repeated, is.Param)
		}
	}
	slices.Sort(m.repeated) // a flood lists a thousand of each: no pair is compared
	kept := m.params[:0]    // the params of MissingField issues, kept where repeated
	for _, prm := range m.params {
		if _, ok := slices.BinarySearch(m.repeated, prm); ok {
			kept = append(kept, prm)
		}
	}
	m.params = kept
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
	m.placed = slices.Grow(m.placed[:0], len(m.order))[:len(m.order)]
	clear(m.placed)
	m.keys = slices.Grow(m.keys[:0], len(m.counted))[:len(m.counted)]
	clear(m.keys)
	m.begin()
	m.locate = true
	m.path = append(m.path, mpath{at: mroot})
	if !m.top() {
		return issues
	}
	m.locate = false
	if !m.top() {
		return issues
	}
	m.settle()
	drop := slices.Grow(m.drop[:0], len(issues))[:len(issues)]
	m.drop = drop
	clear(drop)
	for k, i := range m.order {
		if s := m.placed[k]; s != 0 {
			drop[i] = !m.stands(s, issues[i])
		}
	}
	// Where issues were counted, every object was placed: the argument's
	// verdict is its objects', listed or not. One that lacks a field when
	// none listed stands is listed in their stead; none lacking, the count
	// goes too.
	more := m.more[:0]
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
	m.more = more
	out := issues[:0]
	for i, is := range issues {
		if !drop[i] {
			out = append(out, is)
		}
	}
	clear(issues[len(out):]) // the pooled room holds no stale issue
	out = append(out, more...)
	clear(more) // the merger's room holds no issue's path
	return out
}

// lacking returns a MissingField issue of an object of param prm, placed
// whole, that the value the binder reads holds and that leaves out a
// required field: the first such object, in the order first read.
func (m *merger) lacking(prm int) (Issue, bool) {
	for _, si := range m.found {
		s := &m.slots[si]
		if !s.live || !s.exists || s.st == 0 || int(s.param) != prm {
			continue
		}
		st := m.structs[s.st-1]
		for _, f := range m.p.nestedStd[st] {
			if m.has(s, f) {
				continue
			}
			is := Issue{Kind: MissingField, Param: prm, Start: s.start, End: m.skip(s.start), Type: st.fields.nodes[f].typ}
			is.Path = Path{p: m.slotPath(si, m.keys[slices.Index(m.counted, prm)]).Name(st.fields.params[f].Name)}
			return is, true
		}
	}
	return Issue{}, false
}

// A merger reads the arguments of the tracked params twice: first to
// place each MissingField issue's object (locate: the slot its steps lead
// to, the same for every object read into the same place), then to
// follow what the binder reads into those slots, in order. Its slices are
// room kept from one call to the next (see mergers); each call uses their
// first elements only, so that a small call after a wide one costs what
// it reads.
type merger struct {
	p        *Plan
	data     []byte
	issues   []Issue
	params   []int          // the params read, sorted
	repeated []int          // the params that hold a repeated key, sorted
	counted  []int          // the params some of whose MissingField issues were counted (past MaxIssues)
	keys     []jsonlex.Span // for each of counted: the last key sent for it
	order    []int          // the MissingField issues in them, by Start
	placed   []int32        // for each of order: the slot of its object, 0 where none was placed
	next     int            // locate: the first of order not placed yet
	whole    bool           // locate: the param read is counted, and every object of it placed
	locate   bool
	path     []mpath // locate: the steps to the value read, each with the slot it leads to (0 where none was made yet)

	slots   []mslot  // slots[0] is none, slots[mroot] the arguments object
	room    []mkid   // the kids table's room; kids is its first len(kids)
	kids    []mkid   // the slots below a slot of many (indexed), by the slot above and the step (a power of two, at most half full)
	nkids   int      // the entries of kids in use
	indexed []int32  // the slots whose slots below are in kids
	bits    []uint64 // the field flags of every struct slot (mslot.has)

	structs  []*node         // the struct nodes read, by mslot.st-1
	structOf map[*node]int32 // structs, by node: mslot.st
	strs     []string        // the Go keys of string kind a key type's method read (mstep.v)
	found    []int32         // the slots that hold issues, in the order first placed
	chain    []int32         // slotPath's
	drop     []bool
	more     []Issue

	text, held []byte   // a key's text unquoted: the one read, the one a slot holds
	in         []byte   // the text handed to a key type's UnmarshalText
	keyVals    []keyVal // a zero key of each key type a method reads into, reused
}

// mroot is the slot of the arguments object; slot 0 is none, as nil is.
const mroot = 1

// An mpath is one step of the way to the value read, while locating.
type mpath struct {
	st  mstep
	str string // st's Go key, for a key of kind 's'
	at  int32  // the slot it leads to; 0 where none was made
}

// An mstep leads from a place to one below it: a field or an element by
// index, a map's element by key (mapKey).
type mstep struct {
	v    uint64       // a field's or an element's index; a map key's value (kinds 'i', 'u', 'b'), or its Go key's index in merger.strs ('s')
	h    uint64       // kinds 's' and 't': the hash of the key's Go string or text (the others are told by v)
	key  jsonlex.Span // the key as sent, none for an element: for a slot, the key it was last read by; for kind 't', whose text is the key
	kind byte         // 0: a field or an element; else a map key, by what tells it (see mapKey)
}

// index is the step's index: 0 for a map's key, as the element one step
// below a list is told from the rest.
func (st *mstep) index() int {
	if st.kind != 0 {
		return 0
	}
	return int(st.v)
}

// An mslot is a place the binder reads values into, on the way to an
// issue's object, and what was read there since it was last made new. It
// holds no pointer (its struct is told by number), so that the garbage
// collector does not read the slab; the slots below it are listed in the
// order made (firstKid, nextSib), found in that list where they are few
// and by the kids table where they are many.
type mslot struct {
	at       mstep
	start    int // where the last object read here starts
	length   int // the last list's length
	idxEnd   int // past the greatest index of the slots below it told by index
	parent   int32
	nkids    int32  // the slots one step below it
	firstKid int32  // the first of them made (0: none), then each's nextSib
	lastKid  int32  // the last of them made
	nextSib  int32  // the slot made next below its parent
	cursor   int32  // the slot below it found or made last: a value read again in the order first read finds the next one after it
	written  int32  // a fixed array's: the first of its elements read since it last zeroed them (0: none), then each's nextW
	nextW    int32  // the next of its parent's written
	has      int32  // the first of its words in merger.bits: by field index, named by a key read here since (st set)
	param    int32  // the param it lies in
	st       int32  // the struct read here, merger.structs[st-1]; 0 none
	gen      uint32 // bumped when the value here is made new: the slots below are stale
	upGen    uint32 // parent's gen when this slot was last made new
	exists   bool   // an object was read here since
	list     bool   // lists are read here
	listed   bool   // in its parent's written
	live     bool   // settle: the object read here is in the value the binder reads
	isFound  bool   // in merger.found
	indexed  bool   // the slots below it are in the kids table
}

// An mkid is one entry of the kids table: a slot (0: the entry is free)
// and its hash (stepHash, with its parent's).
type mkid struct {
	h    uint64
	slot int32
}

// A keyVal is a zero key of a key type a method reads, and its method.
type keyVal struct {
	typ reflect.Type
	ptr reflect.Value
}

// maxPooledSlots bounds the room of a merger the pool keeps: 2^17 slots
// of 128 bytes (16 MiB, with at most 4 MiB of kids table and 1.5 MiB of
// field words and found slots: the size of keyTable's pooled room), for
// calls of up to some hundred thousand objects placed. A wider call's
// room is left to the garbage collector, and such a call allocates
// again, a few times for each doubling of each slab (some 70 times for a
// call of 200,000 objects placed).
const maxPooledSlots = 1 << 17

// mergers pools the mergers: a call allocates nothing once one of its
// size has been read (a pool.Pool holds the one put back last apart from
// the garbage collector and the race detector, which tests count on).
var mergers pool.Pool[merger]

// release hands the merger back to the pool, holding nothing of the call
// (the strings the key methods read included), unless its room is too big
// to keep.
func (m *merger) release() {
	m.p, m.data, m.issues = nil, nil, nil
	clear(m.path[:cap(m.path)]) // its steps' strings; as deep as the deepest call
	clear(m.strs)
	clear(m.keyVals)
	clear(m.structs)
	clear(m.structOf)
	m.structs = m.structs[:0]
	m.params, m.repeated, m.counted, m.order = m.params[:0], m.repeated[:0], m.counted[:0], m.order[:0]
	m.strs, m.keyVals, m.path, m.found = m.strs[:0], m.keyVals[:0], m.path[:0], m.found[:0]
	m.slots, m.bits, m.kids, m.nkids, m.indexed = m.slots[:0], m.bits[:0], nil, 0, m.indexed[:0]
	m.next, m.whole, m.locate = 0, false, false
	if cap(m.slots) <= maxPooledSlots && cap(m.text)+cap(m.held)+cap(m.in) <= 1<<16 {
		mergers.Put(m)
	}
}

// grown returns s with room for n more, its room doubled (at least) where
// it has not: append grows a long slice by a quarter, which a slab of a
// wide call paid for in copies and allocations, and to no power of two.
func grown[T any](s []T, n int) []T {
	if len(s)+n <= cap(s) {
		return s
	}
	t := make([]T, len(s), max(len(s)+n, 2*cap(s), 64))
	copy(t, s)
	return t
}

// begin makes the root slot and an empty kids table.
func (m *merger) begin() {
	m.slots = append(grown(m.slots[:0], 2), mslot{}, mslot{})
	m.bits = m.bits[:0]
	m.useKids(64)
	if m.structOf == nil {
		m.structOf = map[*node]int32{}
	}
}

// useKids makes the kids table size entries (a power of two), free, in
// the room where it fits.
func (m *merger) useKids(size int) {
	if cap(m.room) < size {
		m.room = make([]mkid, size)
	}
	m.kids = m.room[:size]
	clear(m.kids)
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
			c := slices.Index(m.counted, pi)
			if m.whole = c >= 0; m.whole && !m.locate {
				m.keys[c] = key
			}
			end = m.descend(vs, m.p.root.fields.nodes[pi], mroot, mstep{v: uint64(pi), key: key}, "")
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

// descend reads the value at vs into the place one step st below slot s
// (str: st's Go key, for kind 's').
func (m *merger) descend(vs int, n *node, s int32, st mstep, str string) int {
	if m.locate {
		var kid int32
		if up := m.path[len(m.path)-1].at; up != 0 {
			kid = m.lookup(up, &st, str)
		}
		m.path = append(m.path, mpath{st: st, str: str, at: kid})
		end := m.value(vs, n, 0)
		m.path = m.path[:len(m.path)-1]
		return end
	}
	kid := m.kid(s, &st, str)
	if kid != 0 {
		m.slots[kid].at.key = st.key
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

// value reads the value at i into slot s (0: a place no issue lies in,
// when not locating) as node n, and returns its end, or -1.
func (m *merger) value(i int, n *node, s int32) int {
	k := jsonlex.KindAt(m.data, i)
	for n.kind == kPtr {
		if k == jsonlex.KindNull {
			m.renew(s)
			return m.skip(i)
		}
		n = n.elem
	}
	if n.kind == kTrial && n.elem != nil && n.elem.kind == kMap {
		n = n.elem // Std: a map whose key type's UnmarshalText reads each key (textMap)
	}
	if !m.locate && s == 0 {
		return m.skip(i)
	}
	switch {
	case k == jsonlex.KindNull && (n.kind == kSlice || n.kind == kMap):
		m.renew(s) // nil; a struct and an array stay as they are
	case k == jsonlex.KindObject && n.kind == kStruct:
		return m.object(i, n, s)
	case k == jsonlex.KindObject && n.kind == kMap:
		return m.mapObject(i, n, s)
	case k == jsonlex.KindArray && (n.kind == kSlice && !n.bytes || n.kind == kArray):
		return m.array(i, n, s)
	}
	return m.skip(i)
}

// object reads an object into struct node n at slot s.
func (m *merger) object(at int, n *node, s int32) int {
	if m.locate {
		m.place(at)
	} else {
		m.readStruct(s, n)
		m.slots[s].start = at
	}
	i, more, ok := jsonlex.Open(m.data, at)
	for ok && more {
		key, f, vs, kok := jsonlex.Key(m.data, i)
		if !kok {
			return -1
		}
		var end int
		if fi, _ := n.fields.lookupKey(m.data[key.Start:key.End], f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0); fi >= 0 {
			if s != 0 {
				m.setHas(s, fi)
			}
			end = m.descend(vs, n.fields.nodes[fi], s, mstep{v: uint64(fi), key: key}, "")
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

// readStruct marks an object read at slot s as struct n: its field flags
// are words of their own in bits from the first object on.
func (m *merger) readStruct(s int32, n *node) {
	sl := &m.slots[s]
	sl.exists = true
	if sl.st != 0 && m.structs[sl.st-1] == n {
		return
	}
	if sl.st == 0 || fieldWords(n) > fieldWords(m.structs[sl.st-1]) {
		sl.has = int32(len(m.bits))
		m.bits = append(grown(m.bits, fieldWords(n)), make([]uint64, fieldWords(n))...)
	}
	st, ok := m.structOf[n]
	if !ok {
		m.structs = append(m.structs, n)
		st = int32(len(m.structs))
		m.structOf[n] = st
	}
	sl.st = st
}

// fieldWords is how many words of bits the fields of struct n take.
func fieldWords(n *node) int { return (len(n.fields.params) + 63) / 64 }

// setHas marks field f of the struct read at slot s named.
func (m *merger) setHas(s int32, f int) {
	m.bits[int(m.slots[s].has)+f/64] |= 1 << (f % 64)
}

// has reports whether field f of the struct read at slot s was named
// since the slot was last made new (false for a field past its words).
func (m *merger) has(s *mslot, f int) bool {
	if s.st == 0 || f >= 64*fieldWords(m.structs[s.st-1]) {
		return false
	}
	return m.bits[int(s.has)+f/64]&(1<<(f%64)) != 0
}

// mapObject reads an object into map node n at slot s: each key's
// value into a new element.
func (m *merger) mapObject(at int, n *node, s int32) int {
	method := textKeyType(n.typ.Key())
	i, more, ok := jsonlex.Open(m.data, at)
	for ok && more {
		key, f, vs, kok := jsonlex.Key(m.data, i)
		if !kok {
			return -1
		}
		var end int
		if m.locate {
			st, str, kok := m.mapKey(n, method, key, f)
			if !kok {
				return -1
			}
			end = m.descend(vs, n.elem, 0, st, str)
		} else {
			var kid int32
			if method || m.slots[s].nkids > 0 {
				// Only a slot with slots below it tells its keys; a
				// key type's method runs on every key, as in locating,
				// since the binder fails where it does.
				st, str, kok := m.mapKey(n, method, key, f)
				if !kok {
					return -1
				}
				kid = m.kid(s, &st, str)
			}
			if kid != 0 {
				m.renew(kid)
				m.slots[kid].at.key = key
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

// mapKey returns the step to the element of map n the key (f: its
// flags) is read into, by what the binder reads of the key: a key type's
// UnmarshalText's Go key where it has the method (method: "K" and "k"
// are one key for a method that folds case), an integer key's value
// ("01" and "1" are one), any other key's text. ok is false where the
// method fails (the binder fails on the map). A Go key of no basic kind
// is told by its text: two texts read alike are then two slots, and an
// issue in one the other overwrites is kept, never one the value read
// bears out dropped (the last text read decides its slot's object).
//
// Kinds: 's' a Go key of a string kind (str, returned), 'i' and 'u' an
// integer's, 'b' a bool's (v), 't' the text (the key's, in the call).
func (m *merger) mapKey(n *node, method bool, key jsonlex.Span, f jsonlex.StringFlags) (st mstep, str string, ok bool) {
	st.key = key
	text := m.keyText(&m.text, key, f)
	if method {
		v, ok := m.methodKey(n.typ.Key(), text)
		if !ok {
			return st, "", false
		}
		switch v.Kind() {
		case reflect.String:
			str = v.String()
			st.kind, st.h = 's', maphash.String(keySeed, str)
			return st, str, true
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			st.kind, st.v = 'i', uint64(v.Int())
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			st.kind, st.v = 'u', v.Uint()
		case reflect.Bool:
			st.kind = 'b'
			if v.Bool() {
				st.v = 1
			}
		default:
			st.kind, st.h = 't', maphash.Bytes(keySeed, text)
		}
		return st, "", true
	}
	switch n.key {
	case kInt:
		if v, ok := decimal(text, true); ok {
			st.kind, st.v = 'i', v
			return st, "", true
		}
	case kUint:
		if v, ok := decimal(text, false); ok {
			st.kind, st.v = 'u', v
			return st, "", true
		}
	}
	st.kind, st.h = 't', maphash.Bytes(keySeed, text)
	return st, "", true
}

// keyText returns the text of the key at span key (f: its flags): its
// bytes inside the quotes where it is plain, else unquoted into *buf
// (invalid UTF-8 read as U+FFFD, as the binders read it).
func (m *merger) keyText(buf *[]byte, key jsonlex.Span, f jsonlex.StringFlags) []byte {
	raw := m.data[key.Start:key.End]
	if f == 0 {
		return raw[1 : len(raw)-1]
	}
	*buf, _ = jsonlex.Unquote((*buf)[:0], raw) // a key the walk read is valid
	return *buf
}

// decimal reads text as strconv.ParseInt(text, 10, 64) (signed; the
// value's bits) or strconv.ParseUint(text, 10, 64) does, and reports
// whether they read it, without the error either allocates where not:
// digits alone, a sign before them for ParseInt only, within range.
func decimal(text []byte, signed bool) (uint64, bool) {
	neg := false
	if signed && len(text) > 0 && (text[0] == '+' || text[0] == '-') {
		neg, text = text[0] == '-', text[1:]
	}
	if len(text) == 0 {
		return 0, false
	}
	var u uint64
	for _, c := range text {
		if c < '0' || c > '9' || u > math.MaxUint64/10 {
			return 0, false
		}
		d := uint64(c - '0')
		if u*10 > math.MaxUint64-d {
			return 0, false
		}
		u = u*10 + d
	}
	switch {
	case !signed:
		return u, true
	case !neg && u > math.MaxInt64, neg && u > 1<<63:
		return 0, false
	case neg:
		return -u, true
	}
	return u, true
}

// methodKey reads the key text (unquoted) as the binder does: into a
// zero key of type kt by its UnmarshalText, on a copy of the text (what
// the method does to it stays there), under recovery. It returns the key
// read, which holds until the next call; false when the method fails or
// panics. The key and the copy are the merger's own, reused: a key is
// read for every key of a map the walk reads, twice, and making one each
// time cost allocations in the call's size.
func (m *merger) methodKey(kt reflect.Type, text []byte) (reflect.Value, bool) {
	var ptr reflect.Value
	for _, kv := range m.keyVals {
		if kv.typ == kt {
			ptr = kv.ptr
		}
	}
	if !ptr.IsValid() {
		ptr = reflect.New(kt)
		m.keyVals = append(m.keyVals, keyVal{typ: kt, ptr: ptr})
	}
	key := ptr.Elem()
	key.SetZero()
	m.in = append(m.in[:0], text...)
	u := ptr.Interface().(encoding.TextUnmarshaler)
	panicked, err := contain.Run(func() error { return u.UnmarshalText(m.in) })
	return key, panicked == nil && err == nil
}

// array reads an array into list or fixed array node n at slot s.
func (m *merger) array(at int, n *node, s int32) int {
	zeroes := n.kind == kArray && !m.p.rules.staleLists && s != 0
	i, more, ok := jsonlex.Open(m.data, at)
	j := 0
	for ok && more {
		var end int
		switch {
		case n.kind == kArray && j >= n.length:
			end = m.skip(i) // past a fixed array's length: dropped
		case zeroes:
			st := mstep{v: uint64(j)}
			if kid := m.kid(s, &st, ""); kid != 0 && !m.slots[kid].listed {
				m.slots[kid].nextW, m.slots[kid].listed = m.slots[s].written, true
				m.slots[s].written = kid
			}
			end = m.descend(i, n.elem, s, st, "")
		default:
			end = m.descend(i, n.elem, s, mstep{v: uint64(j)}, "")
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
	case s == 0:
	case n.kind == kSlice:
		if j == 0 && !m.p.rules.staleLists {
			m.renew(s) // encoding/json: a new, empty list
		}
		m.slots[s].list, m.slots[s].length = true, j
	case zeroes:
		// The elements past those sent are zeroed. Those read since the
		// last time are the only ones not zero already: each is looked at
		// once more here, after it was read, so the arrays cost what
		// their elements do.
		var kept int32
		for kid := m.slots[s].written; kid != 0; {
			k := &m.slots[kid]
			next := k.nextW
			if int(k.at.v) < j {
				k.nextW, kept = kept, kid
			} else {
				k.listed, k.nextW = false, 0
				if k.upGen == m.slots[s].gen {
					m.renew(kid)
				}
			}
			kid = next
		}
		m.slots[s].written = kept
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
	k := len(m.path) - 1
	for m.path[k].at == 0 {
		k--
	}
	for ; k+1 < len(m.path); k++ {
		up, step := m.path[k].at, &m.path[k+1]
		st := step.st
		if st.kind == 's' {
			st.v = uint64(len(m.strs))
			m.strs = append(grown(m.strs, 1), step.str)
		}
		param := m.slots[up].param
		if up == mroot {
			param = int32(st.v)
		}
		kid := int32(len(m.slots))
		m.slots = append(grown(m.slots, 1), mslot{at: st, parent: up, param: param})
		m.addKid(up, kid)
		step.at = kid
	}
	s := m.path[len(m.path)-1].at
	if !m.slots[s].isFound {
		m.slots[s].isFound = true
		m.found = append(grown(m.found, 1), s)
	}
	for ; m.next < len(m.order) && m.issues[m.order[m.next]].Start == at; m.next++ {
		m.placed[m.next] = s
	}
}

// stepHash is where the kids table's probe for step st below slot
// parent starts: st's hash (seeded where the call chooses the key's
// text; an index or an integer key is mixed with a seed too), the kind
// and the parent mixed in.
func stepHash(parent int32, st *mstep) uint64 {
	h := st.v
	if st.kind == 's' || st.kind == 't' {
		h = st.h
	}
	h ^= mergeSeed ^ uint64(st.kind)<<56
	h ^= uint64(parent) * 0x9e3779b97f4a7c15
	h ^= h >> 31
	h *= 0xbf58476d1ce4e5b9
	h ^= h >> 29
	h *= 0x94d049bb133111eb
	return h ^ h>>32
}

// mergeSeed is the process's seed for stepHash.
var mergeSeed = maphash.String(keySeed, "merged")

// smallKids is the most slots below one that are found by their list
// alone: a struct's fields, a short list's elements. Past it, they go in
// the kids table.
const smallKids = 8

// addKid lists slot kid, just made, below slot up.
func (m *merger) addKid(up, kid int32) {
	if m.slots[up].indexed {
		m.reserve(1)
	}
	u, k := &m.slots[up], &m.slots[kid]
	if u.lastKid != 0 {
		m.slots[u.lastKid].nextSib = kid
	} else {
		u.firstKid = kid
	}
	u.lastKid, u.cursor = kid, kid
	u.nkids++
	if k.at.kind == 0 {
		u.idxEnd = max(u.idxEnd, int(k.at.v)+1)
	}
	if u.indexed {
		m.putKid(kid)
	}
}

// index puts the slots below slot up in the kids table, and those made
// below it from then on.
func (m *merger) index(up int32) {
	m.reserve(int(m.slots[up].nkids))
	m.slots[up].indexed = true
	m.indexed = append(grown(m.indexed, 1), up)
	for k := m.slots[up].firstKid; k != 0; k = m.slots[k].nextSib {
		m.putKid(k)
	}
}

// reserve makes room in the kids table for n more slots: it doubles, and
// the slots below each indexed slot are put in again (none copied), where
// it would be more than half full.
func (m *merger) reserve(n int) {
	if 2*(m.nkids+n) <= len(m.kids) {
		return
	}
	size := len(m.kids)
	for 2*(m.nkids+n) > size {
		size *= 2
	}
	m.useKids(size)
	m.nkids = 0
	for _, up := range m.indexed {
		for k := m.slots[up].firstKid; k != 0; k = m.slots[k].nextSib {
			m.putKid(k)
		}
	}
}

func (m *merger) putKid(kid int32) {
	sl := &m.slots[kid]
	h := stepHash(sl.parent, &sl.at)
	mask := uint64(len(m.kids) - 1)
	i := h & mask
	for m.kids[i].slot != 0 {
		i = (i + 1) & mask
	}
	m.kids[i] = mkid{h: h, slot: kid}
	m.nkids++
}

// lookup returns the slot one step st below slot up (str: st's Go key,
// for kind 's'), or 0. It looks first at the slot made after the one
// found last (or the first one): a list, an object or a map read again
// in the order first read, as a merge does, finds each slot so, near the
// last in the slab. Then a step told by index past the greatest one below
// up is none; a few slots below up are looked at in turn; many are found
// in the kids table.
func (m *merger) lookup(up int32, st *mstep, str string) int32 {
	u := &m.slots[up]
	if u.nkids == 0 {
		return 0
	}
	c := u.firstKid
	if next := m.slots[u.cursor].nextSib; next != 0 {
		c = next
	}
	if m.sameStep(&m.slots[c].at, st, str) {
		u.cursor = c
		return c
	}
	if st.kind == 0 && int(st.v) >= u.idxEnd {
		return 0
	}
	var found int32
	if u.nkids <= smallKids {
		for k := u.firstKid; k != 0; k = m.slots[k].nextSib {
			if m.sameStep(&m.slots[k].at, st, str) {
				found = k
				break
			}
		}
	} else {
		if !u.indexed {
			m.index(up)
		}
		found = m.probe(up, st, str)
	}
	if found != 0 {
		m.slots[up].cursor = found
	}
	return found
}

// probe finds the slot one step st below slot up in the kids table.
func (m *merger) probe(up int32, st *mstep, str string) int32 {
	h := stepHash(up, st)
	mask := uint64(len(m.kids) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		e := m.kids[i]
		if e.slot == 0 {
			return 0
		}
		if e.h == h && m.slots[e.slot].parent == up && m.sameStep(&m.slots[e.slot].at, st, str) {
			return e.slot
		}
	}
}

// sameStep reports whether a slot's step, held, is step st (str: its Go
// key, for kind 's'): one field, element or key, as the binder reads it.
func (m *merger) sameStep(held, st *mstep, str string) bool {
	if held.kind != st.kind || held.v != st.v && st.kind != 's' || held.h != st.h {
		return false
	}
	switch st.kind {
	case 's':
		return m.strs[held.v] == str
	case 't':
		a, b := m.data[held.key.Start:held.key.End], m.data[st.key.Start:st.key.End]
		if string(a) == string(b) {
			return true
		}
		_, fa, _ := jsonlex.String(a, 0)
		_, fb, _ := jsonlex.String(b, 0)
		if fa == 0 && fb == 0 {
			return false // plain: the text is the bytes
		}
		return string(m.keyText(&m.held, held.key, fa)) == string(m.keyText(&m.text, st.key, fb))
	}
	return true
}

// kid returns the slot one step st below slot s (str: st's Go key, for
// kind 's'), made new if s was since it was last read (0: no issue lies
// there).
func (m *merger) kid(s int32, st *mstep, str string) int32 {
	kid := m.lookup(s, st, str)
	if kid != 0 && m.slots[kid].upGen != m.slots[s].gen {
		m.renew(kid)
		m.slots[kid].upGen, m.slots[kid].listed = m.slots[s].gen, false
	}
	return kid
}

// renew makes the value at slot s new: zero, with nothing read below it.
func (m *merger) renew(s int32) {
	if s == 0 {
		return
	}
	sl := &m.slots[s]
	sl.gen++
	sl.exists, sl.length = false, 0
	if sl.st != 0 {
		clear(m.bits[sl.has : int(sl.has)+fieldWords(m.structs[sl.st-1])])
	}
	sl.written = 0
}

// slotPath returns the path to the object read at slot s: each key as
// last sent (the argument's, key), an element by its index.
func (m *merger) slotPath(s int32, key jsonlex.Span) jsonpath.Path {
	steps := m.chain[:0]
	for c := s; m.slots[c].parent != 0 && m.slots[m.slots[c].parent].parent != 0; c = m.slots[c].parent {
		steps = append(steps, c)
	}
	m.chain = steps
	p := jsonpath.ArgPath(m.data[key.Start:key.End])
	for i := len(steps) - 1; i >= 0; i-- {
		if c := &m.slots[steps[i]]; c.at.key.End > c.at.key.Start {
			p = p.Key(m.data[c.at.key.Start:c.at.key.End])
		} else {
			p = p.Index(c.at.index())
		}
	}
	return p
}

// settle marks the slots whose object is in the value the binder reads:
// read since the slot above was last made new, within the last list's
// length, and read as an object. A slot comes after the one above it.
func (m *merger) settle() {
	m.slots[mroot].live = true
	for k := mroot + 1; k < len(m.slots); k++ {
		s := &m.slots[k]
		up := &m.slots[s.parent]
		s.live = up.live && s.upGen == up.gen && !(up.list && s.at.index() >= up.length)
	}
}

// stands reports whether MissingField issue is, whose object was read at
// slot si, stands in the value the binder reads: the object is in it
// (settle) and lacks the field. An issue whose field it cannot tell
// stands.
func (m *merger) stands(si int32, is Issue) bool {
	s := &m.slots[si]
	if !s.live || !s.exists || s.st == 0 {
		return false
	}
	last, ok := is.Path.p.Last()
	if !ok || !last.IsKey {
		return true
	}
	field := -1
	for i, prm := range m.structs[s.st-1].fields.params {
		if prm.Name == last.Key || last.Cut && strings.HasPrefix(prm.Name, last.Key) {
			if field >= 0 {
				return true // a cut name two fields start with
			}
			field = i
		}
	}
	return field < 0 || !m.has(s, field)
}
