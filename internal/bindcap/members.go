package bindcap

import (
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/pool"
)

// CheckMembers is bind's Plan.Check that also returns the top-level
// members it read: a func(*bind.Plan, []byte, []bind.Issue)
// ([]bind.Issue, Members), set by package bind when it initializes (held
// as any, since this package cannot name bind's types). The members come
// from the same pass as the issues, so that refuse reads the verdict and
// never the arguments again.
var CheckMembers any

// How says how a top-level key binds its parameter.
type How uint8

const (
	Unbound How = iota // the key binds no parameter
	Exact              // the key is the parameter's name
	Folded             // the key binds it only by the binder's case folding
	Alias              // the key is an alias of the parameter, bound as its name (TopKeys.BindAliases)
)

// A Member is one member of a call's top-level object, as the binder
// read it.
type Member struct {
	Key   jsonlex.Span // the key, quotes included
	Value jsonlex.Span // its value
	// Param is the index in Plan.Params of the parameter the key binds
	// (what Plan.Match returns for it): -1 for none, below -1 for a key V2
	// finds ambiguous (it binds none, and fails).
	Param int32
	How   How
	// Judged is what the walk found of the value against the
	// parameter's compiled constraints (see CheckConstrained).
	Judged Judged
}

// Binds returns the index of the parameter m binds, or -1 for none.
func (m *Member) Binds() int { return max(int(m.Param), -1) }

// fixedMembers is how many members a Members holds without allocating.
const fixedMembers = 16

// MaxMembers bounds the members one Check records: past it, the list is
// cut (Members.Cut), and a reader that needs every member reads the rest
// with the lexer. A call the binder reads clean holds at most one member
// per parameter (a repeated or unknown key is an issue), so only a call
// with issues, or of an open tool, is ever cut.
const MaxMembers = 1024

// Members are the members of a call's top-level object, in the order
// sent, as one Check read them: the first fixedMembers in place, the rest
// up to MaxMembers in room taken whole from a pool (memberBufs), at most
// one allocation whatever the call's size.
type Members struct {
	// Object reports that the arguments are an object read to its closing
	// brace: the list holds every member of it, up to MaxMembers.
	// Otherwise (no arguments, null, another value, text that is not JSON)
	// it holds the members read before the reading stopped, perhaps none.
	Object bool
	// Cut reports that the object has more than MaxMembers members: the
	// list holds the first MaxMembers.
	Cut bool
	// Breaches are the members' values that break their compiled
	// constraints, as the walk found them (see CheckConstrained), in the
	// order sent, of the members the list holds (at most MaxMembers);
	// allocated only when one does.
	Breaches []Breach
	// Counted reports that the pass read every top-level key against the
	// tool's TopKeys (see CheckConstrained): Unknown, FirstUnknown and
	// Aliased hold, however many members there are (a trial check, a
	// bind.Reader and a pass that stopped leave it false). Unknown counts
	// the distinct keys, told apart as sent (by their bytes), that bind no
	// parameter and are neither exempt nor aliases (a call read as sent
	// holds its aliases as keys no parameter binds, and they are names
	// the tool takes); FirstUnknown is the first of them.
	// Aliased reports that a top-level key is one of the aliases.
	Counted bool
	Aliased bool
	// AliasBound reports that the pass bound every alias it met to its
	// parameter (TopKeys.BindAliases): the verdict is the one of the call
	// renamed, each alias to its parameter's name, with the members' spans
	// in the call as sent.
	AliasBound bool
	// Held reports that the walk judged the call whole against the
	// tool's compiled constraints and found them kept (see
	// CheckConstrained): every top-level value it held to its
	// parameter's tags holds them (Judged Holds), no parameter was
	// judged twice, and every parameter whose zero value breaks its tags
	// was judged, so was sent. Where the call has no issue, refuse reads
	// it as the compiled checks' verdict, with no member read again.
	Held         bool
	Unknown      int
	FirstUnknown jsonlex.Span
	n            int
	fixed        [fixedMembers]Member
	more         []Member
}

// Len returns the number of members.
func (ms *Members) Len() int { return ms.n }

// At returns member i.
func (ms *Members) At(i int) *Member {
	if i < fixedMembers {
		return &ms.fixed[i]
	}
	return &ms.more[i-fixedMembers]
}

// Add appends m, or cuts the list past MaxMembers.
func (ms *Members) Add(m Member) {
	if p := ms.Next(); p != nil {
		*p = m
	}
}

// Next appends a member and returns it for the caller to fill in, every
// field of it, or returns nil and cuts the list past MaxMembers. The walk
// fills its members in place: a Member built on the stack and copied in
// whole reads back, 16 bytes at a time, the words and bytes just stored
// apart, which the processor cannot forward (a stall per member; in
// place, the typical call is about 2% faster). Small enough to be
// inlined: the members past the first few are nextMore's.
func (ms *Members) Next() *Member {
	if ms.n < fixedMembers {
		ms.n++
		return &ms.fixed[ms.n-1]
	}
	return ms.nextMore()
}

func (ms *Members) nextMore() *Member {
	if ms.n >= MaxMembers {
		ms.Cut = true
		return nil
	}
	if ms.more == nil {
		ms.more = memberBufs.Get()[:0]
	}
	ms.more = append(ms.more, Member{})
	ms.n++
	return &ms.more[len(ms.more)-1]
}

// GetMembers returns an empty Members, from a pool, for a pass to record
// into (CheckConstrained); PutMembers hands it back, with its room, once
// nothing reads it. A pass that returned its members by value copied them
// twice on the way (736 bytes each time) and zeroed them once more: half
// the cost of a call of no arguments; pooled, a call pays one clear.
func GetMembers() *Members { return membersPool.Get() }

// PutMembers hands back ms, taken from GetMembers, and the room it took:
// neither ms nor any copy of it is read after.
func PutMembers(ms *Members) {
	ms.Reset()
	membersPool.Put(ms)
}

// Reset leaves ms empty, having handed back the room it took (Release):
// no copy of ms is read after.
//
// The members in place are left as they were, unread: the next Next
// hands each back for its caller to fill in whole. Clearing them too
// (740 bytes) was most of what a pooled Members cost a call.
func (ms *Members) Reset() {
	ms.Release()
	ms.Object, ms.Cut, ms.Breaches = false, false, nil
	ms.Counted, ms.Aliased, ms.AliasBound, ms.Held = false, false, false, false
	ms.Unknown, ms.FirstUnknown, ms.n = 0, jsonlex.Span{}, 0
}

var membersPool pool.Pool[Members]

// memberBufs pools the room for the members past the first fixedMembers,
// all MaxMembers of them at once (40 KB): a call of that many members is
// one with issues (a flood of unknown or repeated keys), and a list grown
// by doubling cost it six allocations, twice its size, each call.
// Release hands the room back. A Pair: a refused call of a tool with tags
// holds two at once (its members, and those kept to check the rest).
var memberBufs pool.Pair[[MaxMembers - fixedMembers]Member]

// Release hands back the room of the members past the first
// fixedMembers, if ms took it: neither ms nor any copy of it (a copy
// shares the room) is read after. Members hold no pointer, so the room is
// not cleared.
func (ms *Members) Release() {
	if ms.more != nil {
		ms.release()
	}
}

func (ms *Members) release() {
	if cap(ms.more) == MaxMembers-fixedMembers {
		memberBufs.Put((*[MaxMembers - fixedMembers]Member)(ms.more[:MaxMembers-fixedMembers]))
	}
	ms.more, ms.n = nil, 0
}

// Find returns the index of the member whose key or value holds offset
// at, or -1.
func (ms *Members) Find(at int) int {
	lo, hi := 0, ms.n
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		m := ms.At(mid)
		switch {
		case at < m.Key.Start:
			hi = mid
		case at >= m.Value.End:
			lo = mid + 1
		default:
			return mid
		}
	}
	return -1
}
