package bindcap

import "github.com/bindguard/bindguard/internal/jsonlex"

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
}

// Binds returns the index of the parameter m binds, or -1 for none.
func (m *Member) Binds() int { return max(int(m.Param), -1) }

// fixedMembers is how many members a Members holds without allocating.
const fixedMembers = 16

// Members are the members of a call's top-level object, in the order
// sent, as one Check read them: the first fixedMembers in place, the rest
// in a bounded number of allocations, together in proportion to the text
// (see grow).
type Members struct {
	// Object reports that the arguments are an object read to its closing
	// brace: the list holds every member of it. Otherwise (no arguments,
	// null, another value, text that is not JSON) it holds the members
	// read before the reading stopped, perhaps none.
	Object    bool
	estimated bool // the list has grown by the text's density (see grow)
	n         int
	fixed     [fixedMembers]Member
	more      []Member
}

// sampleMembers is how many members the list holds, doubling, before it
// grows by the density of the text they were read from.
const sampleMembers = 1024

// Len returns the number of members.
func (ms *Members) Len() int { return ms.n }

// At returns member i.
func (ms *Members) At(i int) *Member {
	if i < fixedMembers {
		return &ms.fixed[i]
	}
	return &ms.more[i-fixedMembers]
}

// Add appends m, read from a text of size bytes.
func (ms *Members) Add(m Member, size int) {
	if ms.n < fixedMembers {
		ms.fixed[ms.n] = m
		ms.n++
		return
	}
	if len(ms.more) == cap(ms.more) {
		ms.grow(m.Key.Start, size)
	}
	ms.more = append(ms.more, m)
	ms.n++
}

// grow makes room for more members of a text of size bytes, the next at
// offset at: doubling, up to sampleMembers; then for as many again as the
// text read so far holds per byte, and an eighth more; when that proves
// short, for as many as the rest can hold at all (each member after the
// first takes at least five bytes: ,"":0). So a call allocates at most
// nine times for its members, whatever their number, and in proportion to
// its size.
func (ms *Members) grow(at, size int) {
	rest := max(size-at, 0)
	room := rest/5 + 1
	switch {
	case ms.n < sampleMembers:
		room = min(room, ms.n)
	case !ms.estimated:
		ms.estimated = true
		room = min(room, int(int64(ms.n)*int64(rest)/int64(max(at, 1)))*9/8+fixedMembers)
	}
	grown := make([]Member, len(ms.more), len(ms.more)+room)
	copy(grown, ms.more)
	ms.more = grown
}

// Set replaces member i.
func (ms *Members) Set(i int, m Member) { *ms.At(i) = m }

// Truncate keeps the first n members.
func (ms *Members) Truncate(n int) {
	if n < ms.n {
		ms.n = n
		if n <= fixedMembers {
			ms.more = ms.more[:0]
		} else {
			ms.more = ms.more[:n-fixedMembers]
		}
	}
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
