package bind

import (
	"sync/atomic"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonpath"
)

// workDone counts, in the package's tests only (it is nil otherwise), the
// bytes the checkers read: their pass over the arguments, every value or
// key they scan or read again, every byte they hand the binder to decode,
// and the paths they write. It is the deterministic measure of time the
// growth tests pin to the size of the input.
var workDone *atomic.Int64

// wholeDecodes counts, in the package's tests only (it is nil otherwise),
// the binder's decodes of a whole call (trialPlan.decode).
var wholeDecodes *atomic.Int64

func work(n int) {
	if workDone != nil {
		workDone.Add(int64(n))
	}
}

// Paths. An issue's Path leads from the arguments to the offending value:
// the argument's key as sent, then one step per array or object on the
// way inside the argument's value. Package jsonpath holds its one form
// and its one renderer, and says how it is bounded: the first 4 and the
// last 8 steps past 12, each key cut at 40 characters, so a path costs
// the same to build at any depth, and never grows with the arguments.

// A Path leads from the arguments to the offending value of an Issue.
// Its String is the readable form, from the argument's value in: "[2]"
// into an array's element, ".name" (or `["odd key"]`) into an object's
// member, "" when the argument itself is the offending value; past 12
// steps it keeps the first 4 and the last 8, with "[…]" between, and a key
// past 40 characters is cut, with "…" after it. Its Pointer is the RFC
// 6901 JSON Pointer to the same value from the root of the arguments, its
// first token the argument's key as the call sent it ("/HOURS_BACK/2"):
// "" when the path is cut short by those bounds (a pointer cannot show an
// elision or a cut) or there is no argument to lead from.
//
// A path to an argument's own value ("" as String) holds no copy of the
// argument's key: it reads the key from the arguments Check was given,
// so that the issues of a call allocate nothing. Those bytes must not
// change while the Path is used: render it first (String, Pointer), or
// check a copy. Written over, they are read as they are then, never
// with a panic.
type Path struct{ p jsonpath.Path }

// String returns the readable form of the path.
func (p Path) String() string { return p.p.String() }

// Pointer returns the path as a JSON Pointer, or "".
func (p Path) Pointer() string { return p.p.Pointer() }

func init() {
	bindcap.Path = func(p any) jsonpath.Path { return p.(Path).p }
}

// A step is one step of a path: into an array's element (ke < 0, ks the
// index), or into an object's member (data[ks:ke] is its key, quoted).
type step struct{ ks, ke int }

// A pathStack holds the steps from an argument's value to the value being
// read, as far as a path shows them: the first pathHead, and the last
// pathTail in a ring (step d at ring[d%pathTail]: any pathTail steps in a
// row are apart there). A push returns the step it displaces from the
// ring, which its pop puts back, so the steps shown are always those of
// the arrays and objects open, at any depth, without allocating; the ring
// index is a mask, so a step costs a few instructions at any depth. arg is
// the argument's key (data[arg.ks:arg.ke]; none when ke is 0).
type pathStack struct {
	arg  step
	head [pathHead]step
	ring [pathTail]step
	n    int // steps open
}

const (
	pathHead = jsonpath.Head
	pathTail = jsonpath.Tail // a power of two: the ring's index is a mask
	maxSteps = jsonpath.MaxSteps
)

// The ring's index is d&(pathTail-1): pathTail must be a power of two.
var _ [1 - 2*(pathTail&(pathTail-1))]struct{}

// push opens a step, and returns what its pop must be given.
func (p *pathStack) push(st step) step {
	d := p.n
	if d < pathHead {
		p.head[d] = st
	}
	sl := &p.ring[d&(pathTail-1)]
	old := *sl
	*sl = st
	p.n++
	return old
}

// pop closes the innermost step; old is what its push returned.
func (p *pathStack) pop(old step) {
	p.n--
	p.ring[p.n&(pathTail-1)] = old
}

// set replaces the innermost step: the next element or member of the
// same array or object.
func (p *pathStack) set(st step) {
	d := p.n - 1
	if d < pathHead {
		p.head[d] = st
	}
	p.ring[d&(pathTail-1)] = st
}

// shown returns open step d, one a path shows: d below pathHead, or among
// the last pathTail.
func (p *pathStack) shown(d int) *step {
	if d < pathHead {
		return &p.head[d]
	}
	return &p.ring[d&(pathTail-1)]
}

// path returns the path to the open steps of data's values, then, when
// field is not empty, the step to the member named field: bounded as
// Paths says.
func (p *pathStack) path(data []byte, field string) Path {
	total := p.n
	if field != "" {
		total++
	}
	if total == 0 {
		// The argument's own value: the path is its key's token, viewed
		// (as Builder.Path gives it), with no builder to clear.
		if p.arg.ke > 0 {
			return Path{jsonpath.ArgPath(data[p.arg.ks:p.arg.ke])}
		}
		return Path{}
	}
	var b jsonpath.Builder // the longest path: no growth, one copy
	if p.arg.ke > 0 {
		b.Arg(data[p.arg.ks:p.arg.ke])
	}
	// Only the steps shown are visited: a path costs the same at any depth.
	for d := 0; d < total; d++ {
		if total > maxSteps && d == pathHead {
			b.Elide()
			d = total - pathTail
		}
		switch st := p.shown(d); {
		case d == p.n:
			b.Name(field)
		case st.ke < 0:
			b.Index(st.ks)
		default:
			b.Key(data[st.ks:st.ke])
		}
	}
	work(b.Read + min(total, maxSteps))
	return Path{b.Path()}
}

// argPath is the path to the value of the argument whose key is
// data[ks:ke].
func argPath(data []byte, ks, ke int) Path {
	p := pathStack{arg: step{ks, ke}}
	return p.path(data, "")
}
