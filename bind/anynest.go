package bind

import (
	"sync/atomic"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// anyLevels is how many arrays anyArrays, and arrays and objects anyNest,
// open in one frame.
const anyLevels = 32

// In the package's tests only: slowAny turns anyNest and anyArrays off, so
// that a test holds their verdicts to object's and array's loops, a call
// of each (and of value) a level; anyFrames (nil otherwise) counts the
// frames that open an object or an array (object's, array's, anyNest's
// and anyArrays').
var (
	slowAny   bool
	anyFrames *atomic.Int64
)

// anyNests reports whether anyNest reads a value in position n (nil or
// any) as it reads those inside it: where no constraint watches.
func (c *checker) anyNests(n *node) bool {
	return (n == nil || n.kind == kAny) && c.cons.next == nil && !slowAny
}

// anyLevel is the state of one array or object anyNest holds open.
type anyLevel struct {
	outer step   // what its push displaced (see pathStack)
	start int    // where it starts
	at    int    // an array's element being read; -1 for an object
	keys  keySet // an object's keys held so far (see repeated)
}

// anyNest reads the object at c.pos in position n, nil or any, where no
// constraint watches (see anyNests), as anyArrays reads an array there.
// Inside it every value's position is the same, in: nil, or anyNode, as
// object and array give each member's and element's. Nothing is judged of
// an array (no length, no kind), nor of an object but its keys, so an
// object or an array inside it is opened in the same frame, up to
// anyLevels deep, instead of in two more (value's, and object's or
// array's). Deep nesting is what it is for: `{"a":{"a":...}}`, and
// objects and arrays in turn, cost a loop step a level, not two calls.
// (A call of arrays alone anyArrays reads, whose frame is smaller.)
//
// A member does what object's loop does for it in such a position, in its
// order: the key's text (a proving pass declines text it does not read as
// the binder does, and under V2 notes V2's failure on invalid text,
// v2KeyText), the key's step of the path and pathKey's note, the colon;
// then, in position any, the key's loss (ReplacedText, where the binder
// replaces its invalid text) and its repeat of a key the object held
// before (DuplicateKey; under V2's pass no loss but V2's failure on the
// name, v2Repeat), and in position nil, under V2's pass, a repeated name
// too (V2 reads a dropped object for them). A member whose key has a loss
// reads its value by value (in a frame of its own, which may be
// anyNest's again) and records the loss after it, as object does
// (anyLoss); any other member's object or array is opened here. An
// object's close ends V2's note of a repeated name in it (v2Closed, with
// n's type for the outermost); an array's holds none.
func (c *checker) anyNest(n *node) bool {
	if anyFrames != nil {
		anyFrames.Add(1)
	}
	var (
		lv              [anyLevels]anyLevel
		l               *anyLevel
		d               = -1 // the innermost open array or object
		more, ok        bool
		ks, ke, end     int
		f               jsonlex.StringFlags
		esc, hi         bool
		keyLoss, repeat Code
	)
	in := n
	if n != nil {
		in = anyNode
	}
	names := c.prove && c.dupDropped // V2's pass: V2 fails on a name repeated in any object
	goto object
array: // c.pos is at '[', in position in
	c.depth++
	if c.depth > c.depthLimit {
		c.deep = !c.bad // a proving pass gives the trial check's TooDeep (see native)
		return c.fail(c.pos)
	}
	d++
	l = &lv[d]
	l.at = 0
	l.outer = c.steps.push(step{ke: -1})
	if c.pos, more, ok = jsonlex.First(c.data, c.pos+1, jsonlex.KindArray); !ok {
		return c.fail(c.pos)
	}
	if !more {
		goto closeArray
	}
element: // c.pos is at element l.at of array l
	c.steps.set(step{l.at, -1})
	if d+1 < anyLevels {
		switch jsonlex.KindAt(c.data, c.pos) {
		case jsonlex.KindArray:
			goto array
		case jsonlex.KindObject:
			goto object
		}
	}
	if !c.value(in) {
		return false
	}
nextElement: // c.pos is past element l.at of array l
	if c.pos, more, ok = jsonlex.Next(c.data, c.pos, jsonlex.KindArray); !ok {
		return c.fail(c.pos)
	}
	if more {
		l.at++
		goto element
	}
closeArray: // c.pos is past array l's ']'
	// No V2 note ends here (see v2Closed): a repeated name's is an
	// object's, a wrong kind's that of a value no position any holds
	// (anyArrays calls none either).
	c.steps.pop(l.outer)
	c.depth--
up: // level d is closed
	if d--; d < 0 {
		return true
	}
	l = &lv[d]
	if l.at >= 0 {
		goto nextElement
	}
	goto nextMember
object: // c.pos is at '{', in position n (d = -1) or in
	c.depth++
	if c.depth > c.depthLimit {
		c.deep = !c.bad
		return c.fail(c.pos)
	}
	d++
	l = &lv[d]
	l.at, l.start, l.keys = -1, c.pos, keySet{base: c.keyN}
	l.outer = c.steps.push(step{})
	if c.pos, more, ok = jsonlex.First(c.data, c.pos+1, jsonlex.KindObject); !ok {
		return c.fail(c.pos)
	}
	if !more {
		goto closeObject
	}
member: // c.pos is at a member's key in object l
	if jsonlex.KindAt(c.data, c.pos) != jsonlex.KindString {
		return c.nameCut(d == 0 && namedInterface(n)) // V2 reads an any's value whole; a named interface's object member by member
	}
	ks = c.pos
	if end, f, ok = jsonlex.String(c.data, ks); !ok {
		return c.fail(end)
	}
	c.pos, ke = end, end
	esc, hi = f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0
	if c.prove && (esc || hi) && !c.plainKey(ks, ke, esc, hi) && !c.v2KeyText(in, false, l.start, ks, ke, f) && !c.segKeyText(in, ks, ke, esc, hi) {
		return c.decline()
	}
	c.steps.set(step{ks, ke}) // an interface's keys, empty or dotted, the trial check's path follows (see judgeFor)
	if c.pos, ok = jsonlex.Colon(c.data, c.pos); !ok {
		return c.keyCut(in, false, false, in == nil && names, nil, &l.keys, l.start, ks, ke, esc, hi) // no struct's: no fields
	}
	if in == nil {
		// V2 reads a dropped object for repeated names, and fails on one.
		if names && !l.keys.takeFirst(ks) && c.repeatedKey(&l.keys, kString, ks, ke, !esc && !hi) && !c.v2Repeat(nil, l.start, ks, ke) {
			return c.decline()
		}
	} else {
		keyLoss, repeat = "", ""
		if (esc || hi) && !c.textKeys && replacedText(c.data[ks:ke], esc, hi) {
			keyLoss = ReplacedText // V2 fails on the key instead (see v2KeyText)
		}
		if !l.keys.takeFirst(ks) && c.repeatedKey(&l.keys, kString, ks, ke, !esc && !hi) {
			repeat = c.boundAgain(in, false, l.start, ks, ke)
		}
		if keyLoss != "" || repeat != "" {
			if !c.anyLoss(keyLoss, repeat, ks, ke) {
				return false
			}
			goto nextMember
		}
	}
	if d+1 < anyLevels {
		switch jsonlex.KindAt(c.data, c.pos) {
		case jsonlex.KindArray:
			goto array
		case jsonlex.KindObject:
			goto object
		}
	}
	if !c.value(in) {
		return false
	}
nextMember: // c.pos is past a member of object l
	if c.pos, more, ok = jsonlex.Next(c.data, c.pos, jsonlex.KindObject); !ok {
		return c.fail(c.pos)
	}
	if more {
		goto member
	}
closeObject: // c.pos is past object l's '}'
	c.keyN = l.keys.base
	c.steps.pop(l.outer)
	if c.v2.skim|c.v2.dupAt != 0 {
		at := in
		if d == 0 {
			at = n
		}
		c.v2Closed(at, l.start)
	}
	c.depth--
	goto up
}

// anyLoss reads, for anyNest, the value at c.pos of a member of an object
// in position any whose key data[ks:ke] has a loss (keyLoss: ReplacedText;
// repeat: DuplicateKey), and records the loss as object does: for a
// proving pass before the value (keyLossesFirst), for Std's after it.
func (c *checker) anyLoss(keyLoss, repeat Code, ks, ke int) bool {
	vs := c.pos
	if c.prove {
		keyLoss, repeat = c.keyLossesFirst(anyNode, anyNode, false, keyLoss, repeat, ks, ke, vs)
	}
	if !c.value(anyNode) {
		return false // its key judged before the value (boundAgain)
	}
	if keyLoss == ReplacedText {
		c.issue(keyLoss, &node{typ: stringType}, ks, ke)
	}
	if repeat == DuplicateKey {
		c.keyIssue(repeat, anyNode.typ, ks, ke, vs)
	}
	return true
}
