package bind

import (
	"sync/atomic"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// In the package's tests only: slowDrops turns droppedRun off, so that a
// test holds its verdicts to object's loop's; droppedRead (nil otherwise)
// counts the members it reads.
var (
	slowDrops   bool
	droppedRead *atomic.Int64
)

// droppedRun reads, from c.pos, the run of top-level members of struct
// n's object that bind no parameter, as object's loop reads them: each a
// plain key (no escape, no byte past ASCII) that no parameter's name nor
// fold matches and that is no alias, and a number, a literal or a plain
// string for its value, followed by a comma or the closing brace. Such a
// member costs its lexing, the name filter and the key table's probe,
// not the loop's checks for what it cannot hold: a call of many unknown
// keys is read at about the pace of json.Valid (bench/'s UnknownKeys10k).
//
// It does for each member what the loop does, in the loop's order
// (topKey's count, unknownArg, the value, V2's repeated name, member), and stops
// before the first member that is not one, having changed nothing for it:
// the loop reads that one. read reports whether it read any; more, after
// one, is jsonlex.Next's for the last (false: the object is closed, at
// c.pos).
//
// object calls it after a member of an unknown key the loop read, where
// dropsFast holds, so a call of known keys never pays for it, and each
// member it stops at is one the loop reads next: every member is lexed at
// most twice.
func (c *checker) droppedRun(n *node) (more, read bool) {
	d := c.data
	for {
		ks := c.pos
		if jsonlex.KindAt(d, ks) != jsonlex.KindString {
			return true, read
		}
		ke, f, ok := jsonlex.String(d, ks)
		if !ok || f != 0 {
			return true, read
		}
		raw := d[ks:ke]
		vs, ok := jsonlex.Colon(d, ke)
		if !ok || vs >= len(d) {
			return true, read
		}
		if i, _ := n.fields.lookupKey(raw, false, false); i >= 0 {
			return true, read
		}
		if c.top.aliases && (c.top.policy.BindAliases || !c.members.Aliased) && c.top.policy.Alias(raw, false) {
			return true, read // topKey notes it, binds it or stops at it
		}
		var ve int
		switch jsonlex.KindAt(d, vs) {
		case jsonlex.KindNumber:
			ve, _, ok = jsonlex.Number(d, vs)
		case jsonlex.KindString:
			ve, f, ok = jsonlex.String(d, vs)
			ok = ok && f == 0 // V2 reads a dropped string's text (v2DroppedText); segmentio's plainDropped
		case jsonlex.KindTrue:
			ve, ok = jsonlex.Literal(d, vs, "true")
		case jsonlex.KindFalse:
			ve, ok = jsonlex.Literal(d, vs, "false")
		case jsonlex.KindNull:
			ve, ok = jsonlex.Literal(d, vs, "null")
		default:
			ok = false
		}
		if !ok {
			return true, read
		}
		next, more, ok := jsonlex.Next(d, ve, jsonlex.KindObject)
		if !ok {
			return true, read
		}
		// The member is one: read it as the loop does.
		c.top.repeat, c.top.plain, c.top.escaped = false, true, false // topKey's, its alias judged above
		if c.record || c.dupDropped {
			c.countUnknown(ks, ke, raw, false)
		}
		c.unknownArg(ks, ke)
		c.v2.dropKs = ks
		c.argNode = nil
		c.pos = ve
		if c.prove && c.dupDropped && c.droppedRepeat(ks, ke) {
			c.v2First(ks, ke)
			c.nameRepeated(ks, ke) // V2 fails on the repeated name (see unknownKey)
		}
		if c.record {
			c.member(ks, ke, vs, false)
		}
		c.param = -1
		c.pos, read = next, true
		if droppedRead != nil {
			droppedRead.Add(1)
		}
		if !more {
			return false, true
		}
	}
}

// dropsFast reports whether object, reading the top-level object of a
// struct, may hand its members to droppedRun: no constraint is being
// judged, and no key may fold to two of V2's case:ignore fields (where
// the pass declines).
func (c *checker) dropsFast() bool {
	return !slowDrops && c.cons.next == nil && !c.cons.root && !c.foldsMore
}
