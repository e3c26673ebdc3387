package bind

import (
	"sync/atomic"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// In the package's tests only: slowPlain turns plainMembers and
// plainMapMembers off, so that a test holds their verdicts to object's
// loop's; plainRead (nil otherwise) counts the members they read.
var (
	slowPlain bool
	plainRead *atomic.Int64
)

// plainMembers reads, from c.pos (a member's first byte, inside the
// object of the struct n that object is reading), the run of members that
// are the common case: a key whose token is, byte for byte, the plain
// name of the field guess points to (the field after the last one bound,
// see lookupNext; nextSlot.quoted tells it without lexing the key), that
// field not bound before in the object. For each it does what object's
// loop does for such a member, in the loop's order, with none of the
// loop's questions whose answer such a member fixes: root members in a
// tool without aliases only (topKey's facts are then keyFacts's for a
// plain key).
//
// It stops before the first member that is not one, having changed
// nothing for it (fields.add, where it finds the field bound, adds
// nothing): the loop reads that member. read reports whether it read any;
// more, at a stop, is true (c.pos at the member), and false at the
// object's end (c.pos past it); ok is false where a value failed.
//
// A member whose key the binder reads otherwise (an escape, a byte past
// ASCII, a name not the guess's, a fold) is never one: the loop looks it
// up. The verdict is the loop's (TestCheck_PlainMembersSameVerdict,
// FuzzCheck_PlainMembersSameVerdict and TestDecide_PlainMembersSameDecision
// hold it so, with the loops on and off), at a fraction of its
// instructions: no key lexed, and far fewer questions a member.
func (c *checker) plainMembers(n *node, root bool, fields *fieldBits, guess *int, ci int) (more, read, ok bool) {
	order := n.fields.order
	for {
		ks, i := c.pos, *guess
		if i >= len(order) || jsonlex.KindAt(c.data, ks) != jsonlex.KindString || !order[i].quoted(c.data, ks) {
			return true, read, true
		}
		ke := ks + int(order[i].qlen) + 1
		vs, ok := jsonlex.Colon(c.data, ke)
		if !ok || fields.add(i) {
			return true, read, true // the loop fails on the key, or lists the field bound again
		}
		lookedUp()
		if plainRead != nil {
			plainRead.Add(1)
		}
		*guess, c.pos, read = i+1, vs, true
		child := n.fields.nodes[i]
		if root {
			c.top.topKeyFacts = keyFacts(false, false)
			c.param, c.argAt = i, vs
			c.steps.arg = step{ks, ke}
		} else {
			c.steps.set(step{ks, ke})
		}
		switch {
		case ci >= 0:
			c.consMember(ci, ks, ke)
		case root && c.cons.tool != nil:
			c.consRoot()
		}
		if root {
			c.argNode = child
		}
		if !c.value(child) {
			return false, read, false
		}
		if ci >= 0 {
			c.consAfter(ci)
		}
		if root {
			if c.record {
				c.member(ks, ke, vs, false)
			}
			c.param = -1
		}
		if c.pos, more, ok = jsonlex.Next(c.data, c.pos, jsonlex.KindObject); !ok {
			return false, read, c.fail(c.pos)
		}
		if !more {
			return false, read, true
		}
	}
}

// plainMapMembers is plainMembers for the object of a map whose keys are
// read as text by no method (keyKind kString, no tkey), below the top
// level, whose values are in position child: the run of members whose key
// is a plain token (no escape, no byte past ASCII) not sent before in the
// object. It stops, changing nothing the loop reads (repeatedKey, finding
// the key held, holds nothing more), before the first member that is not
// one: more and ok as plainMembers's.
func (c *checker) plainMapMembers(child *node, keys *keySet, ci int) (more, ok bool) {
	for {
		ks := c.pos
		if jsonlex.KindAt(c.data, ks) != jsonlex.KindString {
			return true, true
		}
		ke, f, ok := jsonlex.String(c.data, ks)
		if !ok || f != 0 {
			return true, true
		}
		vs, ok := jsonlex.Colon(c.data, ke)
		if !ok || c.repeatedKey(keys, kString, ks, ke, true) {
			return true, true // the loop fails on the key, or lists it sent again
		}
		if plainRead != nil {
			plainRead.Add(1)
		}
		c.pos = vs
		c.steps.set(step{ks, ke})
		if ci >= 0 {
			c.consMember(ci, ks, ke)
		}
		if !c.value(child) {
			return false, false
		}
		if ci >= 0 {
			c.consAfter(ci)
		}
		if c.pos, more, ok = jsonlex.Next(c.data, c.pos, jsonlex.KindObject); !ok {
			return false, c.fail(c.pos)
		}
		if !more {
			return false, true
		}
	}
}
