package bind

import (
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/constraint"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
	"github.com/bindguard/bindguard/internal/pool"
)

// Constraints in the walk: a tool's validate tags, compiled at
// registration (internal/constraint, by typereg), are held to each value
// as the checker reads it, at the position it reads it: a string's runes
// when its quote closes, a number's value when its digits end, a list's
// or a map's count when it closes and each element as it is read, a
// nested struct's fields as their members are. A clean call is one pass;
// refuse reads each member's verdict (bindcap.Member.Judged) and the
// breaches (bindcap.Members.Breaches), never the values again. The path
// is unexported, reached through internal/bindcap: it is refuse's, not
// the API's.

func init() {
	bindcap.CheckConstrained = checkConstrained
}

// consInline is how many lists, maps and structs inside one another the
// walk holds to constraints in the checker itself, which every call
// zeroes, tagged or not (512 bytes): eight is past what tags reach in
// practice (a map of lists of structs of lists is four). A value nested
// deeper (a recursive type's, whose nodes make a cycle, followed as deep
// as the binder reads) holds the states past them in a pooled stack
// (consStack), so that it is judged in the walk at any depth, at the
// walk's cost, and never decoded for the validator for its depth.
const consInline = 8

// A consStack holds the states of the constrained values nested past
// consInline, for one check; consStacks pools them.
type consStack struct{ s []consState }

var consStacks pool.Pool[consStack]

// consWalk is the checker's state of the constraints in the walk: next is
// the node the value about to be read is held to, set by its container
// (nil: none); v, at and path are the verdict of the last value so held,
// set by its reader.
type consWalk struct {
	tool *constraint.Tool // the tool's compiled tags; nil: none checked
	next *constraint.Node
	v    constraint.Verdict
	at   jsonlex.Span          // on Fail: where (End < 0: the value itself, ending at c.pos)
	path jsonpath.Path         // on Fail: the path to at
	root bool                  // a top-level value is being held to its parameter's tags
	st   [consInline]consState // in place: a pointer from the checker would move them to the heap
	deep *consStack            // the states past consInline (nil: none taken)
	n    int
	// failing counts the lists and maps being held whose verdict is Fail
	// (see consBreach).
	failing int
	// held are the parameters (the first 64) whose top-level value was
	// judged to hold its tags; broke, that one was judged otherwise, or
	// twice, or is past 64 (see consHeld).
	held  uint64
	broke bool
}

// consState is one list, map or struct being held to node n as it is
// read: its elements so far (count), a struct's fields sent, and the
// verdict of its elements so far.
type consState struct {
	n       *constraint.Node
	count   int64
	sent    uint64
	at      jsonlex.Span
	path    jsonpath.Path
	v       constraint.Verdict
	stop    bool // a struct's verdict is its member's: no other is held
	pending bool // the element being read is held to n.Elem (or a field's node)
}

// checkConstrained is checkMembers that also holds each top-level value to
// its parameter's compiled tags in cs as the walk reads it (see
// bindcap.CheckConstrained), and reads each top-level key against the
// tool's policy top: the unknown keys counted, an alias found
// (bindcap.Members.Counted). A pass that does not walk the values (a trial
// check, a reader) leaves the members NotJudged.
//
// It is checkMembers when cs is nil (or not compiled whole), and is the
// one a caller on the hot path calls, with ms from bindcap.GetMembers:
// the members are recorded in ms, which must be empty, in place (returned
// by value, they were copied at each layer between the walk and the
// caller).
//
// A long list of issues takes pooled room (see roomForIssue), and so do
// many members: the caller hands them back (bindcap.ReleaseIssues,
// bindcap.PutMembers).
func checkConstrained(p *Plan, args []byte, issues []Issue, cs *constraint.Tool, top bindcap.TopKeys, ms *bindcap.Members) []Issue {
	var c checker
	out := c.checkConstrained(p, args, issues, cs, top, ms)
	c.cons.release()
	return out
}

// checkConstrained is the function checkConstrained's walk, on c, a
// checker of its own; the function hands back the room c took.
func (c *checker) checkConstrained(p *Plan, args []byte, issues []Issue, cs *constraint.Tool, top bindcap.TopKeys, ms *bindcap.Members) []Issue {
	c.members, c.record, c.poolIssues = ms, true, true
	c.top.policy, c.top.root, c.top.aliases = top, p.root, len(top.Aliases) > 0
	if cs != nil && !cs.Decode && len(cs.Params) == len(p.params) {
		c.cons.tool = cs
	}
	if p.check != nil {
		if p.root != nil {
			if verdict, ok := p.native(c, args, issues); ok {
				ms.Counted = ms.Object // every top-level key was read by topKey
				ms.Held = c.consHeld()
				return c.verdict(verdict) // the one pass, by the binder's own rules
			}
		}
		c.verdict(nil) // the pass's list: the clean mode or the trial check lists anew
		if c.top.stopped {
			return issues // at an alias it does not bind (TopKeys.BindAliases)
		}
		ms.Reset() // recorded anew
		if p.root != nil {
			return p.declinedCheck(args, issues, ms, c)
		}
		return p.check(args, p.required, p.nested, issues, ms)
	}
	if out := p.checkStd(c, args, issues); !c.top.stopped {
		issues = out
	}
	ms.Counted = ms.Object
	ms.Held = c.consHeld()
	return c.verdict(issues)
}

// verdict returns out, the list of issues the check returns, having
// handed back the pooled room the checker's own list took (see
// roomForIssue) where out is not that list: a verdict built anew (text
// that is not JSON, nesting too deep, a trial check's) leaves it behind.
func (c *checker) verdict(out []Issue) []Issue {
	if !sameArray(out, c.issues) {
		releaseIssues(c.issues) // where it is a pooled buffer
	}
	return out
}

// sameArray reports whether a and b are slices of one array, at its end.
func sameArray(a, b []Issue) bool {
	return cap(a) > 0 && cap(b) > 0 && &a[:cap(a)][cap(a)-1] == &b[:cap(b)][cap(b)-1]
}

// consHeld reports whether the walk, read to the end of the top-level
// object, found the call to keep the tool's compiled tags
// (bindcap.Members.Held): every value it judged holds, none judged twice,
// and every parameter whose zero value breaks its tags judged, so sent. A
// tool of 64 parameters or more is never held: its members are read
// again (refuse's compiledProblems).
func (c *checker) consHeld() bool {
	cs := c.cons.tool
	if cs == nil || c.cons.broke || !c.members.Object || c.members.Cut || c.top.stopped {
		return false
	}
	zero, ok := cs.ZeroFailing()
	return ok && zero&^c.cons.held == 0
}

// consSelf records verdict v of the value that starts at start, as a
// whole.
func (c *checker) consSelf(v constraint.Verdict, start int) {
	c.cons.v = v
	if v == constraint.Fail {
		c.consBreach(start)
	}
}

// consBreach records where the value that starts at start, which breaks
// its tags, lies. Kept apart (and out of line) so that the path's builder
// is in no frame but a breach's.
//
//go:noinline
func (c *checker) consBreach(start int) {
	c.cons.at, c.cons.path = jsonlex.Span{Start: start, End: -1}, jsonpath.Path{}
	if c.cons.failing > 0 {
		// A list or map around the value broke its tags already: the
		// first breach is its verdict's (consAfter), and this one's path
		// is never read. (A list of a million breaches built a million
		// paths; counted, not looked for, so that a breach at every level
		// of a deep value costs no more than one.)
		return
	}
	if !c.record || c.members.Len() >= bindcap.MaxMembers {
		// The top-level member this value is in is not recorded, and
		// neither is its breach (consJudged): its path is never read. (A
		// key sent a million times, its nested value breaking its tags,
		// built a million paths.)
		return
	}
	c.cons.path = c.pathFor().p
}

// consFirst holds the value at c.pos, whose first byte is b, to the node
// it is read into, as far as b tells (see constraint.Node.First); the rest
// is the reader's.
func (c *checker) consFirst(b byte) {
	if v, done := c.cons.next.First(b); done {
		c.cons.next = nil
		c.consSelf(v, c.pos)
	}
}

// consString holds the string token the checker has just read, from
// start, to its node: esc and hi are the lexer's facts of it.
func (c *checker) consString(start int, esc, hi bool) {
	n := c.cons.next
	c.cons.next = nil
	c.consSelf(n.Text(c.data[start:c.pos], esc, hi), start)
}

// consNumber holds the number the checker has just read, from start, to
// its node: whole and below 20 digits, its sign and magnitude as the lexer
// read them; otherwise (long) its literal is parsed.
func (c *checker) consNumber(start int, neg bool, m uint64, long bool) {
	n := c.cons.next
	c.cons.next = nil
	lit := c.data[start:c.pos]
	if long {
		c.consSelf(n.Number(lit), start)
		return
	}
	c.consSelf(n.Whole(neg, m, lit), start)
}

// consOpen starts holding the list, map or struct starting at start to its
// node (c.cons.next, not nil), and returns its state's index.
func (c *checker) consOpen(start int) int {
	n := c.cons.next
	c.cons.next = nil
	i := c.cons.n
	c.cons.n++
	if i >= consInline {
		c.cons.grow(i)
	}
	*c.cons.state(i) = consState{n: n}
	return i
}

// state returns state i, of the c.cons.n held.
func (w *consWalk) state(i int) *consState {
	if i < consInline {
		return &w.st[i]
	}
	return &w.deep.s[i-consInline]
}

// grow makes room for state i, past consInline.
func (w *consWalk) grow(i int) {
	if w.deep == nil {
		w.deep = consStacks.Get()
	}
	if k := i - consInline; k >= len(w.deep.s) {
		w.deep.s = append(w.deep.s, consState{})
	}
}

// release hands back the stack of the states past consInline, if the walk
// took one: the check is over.
func (w *consWalk) release() {
	if d := w.deep; d != nil {
		clear(d.s) // the nodes and paths it holds
		d.s = d.s[:0]
		consStacks.Put(d)
		w.deep = nil
	}
}

// consElem starts an element of the list or a member of the map of state
// i: it is held to the node's Elem, unless an element before it is
// Undecided.
func (c *checker) consElem(i int) {
	st := c.cons.state(i)
	st.count++
	if st.pending = st.n.Dives() && st.v != constraint.Unknown; st.pending {
		c.cons.next = st.n.Elem
	}
}

// consMember starts the member of key data[ks:ke] of the object of state
// i: a map's element, or a struct's field.
func (c *checker) consMember(i, ks, ke int) {
	st := c.cons.state(i)
	if st.n.Kind != constraint.Struct {
		c.consElem(i)
		return
	}
	if st.stop {
		return
	}
	j, ok := st.n.Field(c.data[ks:ke], &st.sent)
	switch {
	case !ok:
		st.stop, st.v = true, constraint.Unknown
	case j >= 0 && st.n.Fields[j].Node != nil:
		st.pending = true
		c.cons.next = st.n.Fields[j].Node
	}
}

// consValue returns the verdict of the value just read, ending at c.pos,
// that its container held to a node.
func (c *checker) consValue() (constraint.Verdict, jsonlex.Span, jsonpath.Path) {
	if c.cons.next != nil { // not read by a reader that holds it: not judged
		c.cons.next = nil
		return constraint.Unknown, jsonlex.Span{}, jsonpath.Path{}
	}
	at := c.cons.at
	if at.End < 0 {
		at.End = c.pos
	}
	return c.cons.v, at, c.cons.path
}

// consAfter takes the verdict of the element or member of state i just
// read: a list's or a map's first breach, unless one is Undecided; a
// struct's first field that does not pass.
func (c *checker) consAfter(i int) {
	st := c.cons.state(i)
	if !st.pending {
		return
	}
	st.pending = false
	if c.cons.next == nil && c.cons.v == constraint.Pass {
		return // the common case: nothing to take
	}
	v, at, path := c.consValue()
	switch {
	case st.n.Kind == constraint.Struct:
		if v != constraint.Pass {
			st.stop, st.v, st.at, st.path = true, v, at, path
		}
	case v == constraint.Unknown || v == constraint.Fail && st.v == constraint.Pass:
		c.cons.failing += failCount(v) - failCount(st.v)
		st.v, st.at, st.path = v, at, path
	}
}

// failCount is 1 for Fail, 0 for any other verdict: a list's or a map's
// share of consWalk.failing.
func failCount(v constraint.Verdict) int {
	if v == constraint.Fail {
		return 1
	}
	return 0
}

// consClose ends state i, of the value that started at start and ends at
// c.pos: a list or a map is held to its own rules (checked before its
// elements, as the validator checks a level before it dives), a struct to
// the fields it must be sent.
func (c *checker) consClose(i, start int) {
	c.cons.n--
	st := c.cons.state(i)
	if st.n.Kind == constraint.Struct {
		switch {
		case st.stop:
			c.cons.v, c.cons.at, c.cons.path = st.v, st.at, st.path
		case st.n.Missing(st.sent):
			c.consSelf(constraint.Unknown, start)
		default:
			c.consSelf(constraint.Pass, start)
		}
		return
	}
	c.cons.failing -= failCount(st.v)
	if v := st.n.Level(st.count); v != constraint.Pass || st.v == constraint.Pass {
		c.consSelf(v, start)
		return
	}
	c.cons.v, c.cons.at, c.cons.path = st.v, st.at, st.path
}

// consRoot starts the top-level value of the parameter c.param: it is held
// to the parameter's tags.
func (c *checker) consRoot() {
	ps := c.cons.tool.Params
	if uint(c.param) >= uint(len(ps)) {
		return
	}
	if n := ps[c.param].Root; n != nil {
		c.cons.next, c.cons.root = n, true
	}
}

// consJudged returns what the walk found of the top-level value just read,
// held to its parameter's tags (c.cons.root), and records a breach as the
// member the checker records next.
func (c *checker) consJudged() bindcap.Judged {
	c.cons.root = false
	if c.cons.next == nil && c.cons.v == constraint.Pass {
		// The common case: it holds (consValue's Pass), and no path is
		// taken.
		if bit := uint64(1) << uint(c.param); bit != 0 && c.cons.held&bit == 0 {
			c.cons.held |= bit
		} else {
			c.cons.broke = true // judged twice, or a parameter past 64 (bit 0)
		}
		return bindcap.Holds
	}
	c.cons.broke = true
	switch v, at, path := c.consValue(); v {
	case constraint.Fail:
		// Past MaxMembers a member is not recorded (Cut), and neither is
		// its breach: a key sent a million times breaking its tags costs
		// at most MaxMembers breaches.
		if n := c.members.Len(); n < bindcap.MaxMembers {
			c.members.Breaches = append(c.members.Breaches, bindcap.Breach{Member: n, At: at, Path: path})
		}
		return bindcap.Breaks
	}
	return bindcap.Undecided
}
