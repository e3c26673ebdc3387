package bind

import (
	"reflect"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The clean reading. A V2 or SegmentIO call the proving pass declines is
// decoded once by the binder. Where the binder reads it (no error), the
// same walker reads it again in clean mode (checker.clean): the call holds
// no failure, so what the pass declines for not knowing where or whether
// the binder fails does not arise, and the verdict is the losses, the
// unknown keys and the missing parameters, read from the text as the pass
// reads them. Where the binder fails, the trial check places the failures
// (trialplan.go).
//
// In clean mode a position the proving compile declines (kDecline, of no
// segmentio rule) is read by what the binder reads there: null by the
// position's null rule (node.cleanNull: lost where the binder leaves a
// value that has no nil as it was), any other value by the node compiled
// for it (node.clean: a map's or a fixed array's elements, a pointer's
// element, an empty interface's value as any's), or whole, where the binder reads it by a rule of its own (a
// format: option, a method, a kind the pass does not read) and nothing in
// it can be lost. Besides, what the pass asks the binder it does not ask
// again: a value that decodes itself, or a list of them, is not decoded
// alone (its losses are its text's: selfValue, segQuotedSelf, batchOpen),
// a segmentio ,string value holding a control character is read (its
// parseString read it), and a field of a stale type sent again needs no
// checker.reads. A failure the walk finds in a value is none (issueN lists
// none in clean mode): the binder read the value by a rule the pass does
// not port (the standard library's v2 reads the numbers inside a ,string
// struct quoted), and the loss walk reads such a value as lossless, so
// the walk goes on past it. A failure recorded otherwise (text that is not
// JSON, a method's own error) makes it decline, and the trial check lists
// the unknown keys and the missing parameters (see trialLosses); no call
// is known to.

// cleanFor fills the clean reading of kDecline position n, of type t (see
// above): how null reads into it, and the node its other values read into,
// if any.
func (c *compiler) cleanFor(n *node, t reflect.Type) error {
	n.cleanNull = c.cleanNull(t)
	if c.rules.self != nil && c.rules.self(t) != nil {
		return nil // read by its own method, or a rule of the binder's: whole
	}
	var err error
	switch t.Kind() {
	case reflect.Pointer:
		if selfPointer(t) {
			return nil // Compile refuses it before (see typeWalk); never followed forever
		}
		e := &node{kind: kDecline, typ: t.Elem()}
		if err = c.cleanFor(e, t.Elem()); err == nil {
			n.clean = &node{kind: kPtr, typ: t, elem: e}
		}
	case reflect.Map:
		m := &node{kind: kMap, typ: t, key: kString}
		kt := t.Key()
		if c.rules.self == nil || c.rules.self(kt) == nil {
			switch kt.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				m.key, m.bits = segKeyKind(c.rules, kInt), kt.Bits()
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				m.key, m.bits = segKeyKind(c.rules, kUint), kt.Bits()
			}
		}
		if m.elem, err = c.node(t.Elem(), false); err == nil {
			n.clean = m
		}
	case reflect.Array:
		a := &node{kind: kArray, typ: t, length: t.Len()}
		if a.elem, err = c.node(t.Elem(), false); err == nil {
			n.clean = a
		}
	case reflect.Slice:
		// bytes: a string is base64, read whole; an array (which V2 reads
		// for a named byte, segmentio for any) is a list of its elements,
		// a null one left 0.
		s := &node{kind: kSlice, typ: t, bytes: t.Elem().Kind() == reflect.Uint8}
		if s.elem, err = c.node(t.Elem(), false); err == nil {
			n.clean = s
		}
	case reflect.Float32, reflect.Float64:
		n.clean = &node{kind: kFloat, typ: t, bits: t.Bits()}
	case reflect.Struct:
		n.clean, err = c.node(t, false)
	case reflect.Interface:
		// An empty interface (Compile refuses one with methods) the binder
		// reads as any (the standard library's v2 reads a ,string one as
		// without the option): what it holds loses what an any's does.
		n.clean = &node{kind: kAny, typ: t}
	}
	return err
}

// cleanNull reports whether the binder, reading null into a value of type
// t, leaves a value that has no nil as it was: a loss (NullForValue). A
// type read by a method of its own loses null where the method leaves the
// value zero (see the rules' self).
func (c *compiler) cleanNull(t reflect.Type) bool {
	if c.rules.self != nil {
		if l := c.rules.self(t); l != nil {
			return l.nullLoss
		}
	}
	return !nilable(t.Kind())
}

// declinedNode returns a kDecline position of type t (quoted: under the
// ,string option, which the clean reading reads as the binder does: see
// cleanFor) with its clean reading.
func (c *compiler) declinedNode(t reflect.Type, quoted bool) (*node, error) {
	n := &node{kind: kDecline, typ: t, quoted: quoted}
	if err := c.cleanFor(n, t); err != nil {
		return nil, err
	}
	return n, nil
}

// cleanDeclined reads, in clean mode, the value at c.pos into kDecline
// position n (see above).
func (c *checker) cleanDeclined(n *node) bool {
	start := c.pos
	k := jsonlex.KindAt(c.data, start)
	if k == jsonlex.KindNull {
		if !c.literal("null") {
			return false
		}
		if n.cleanNull {
			c.keyIssue(NullForValue, n.typ, start, c.pos, start)
		}
		return true
	}
	if n.clean != nil && cleanFits(n.clean, k) {
		return c.value(n.clean)
	}
	end, err := jsonlex.Skip(c.data, start, c.depthLimit-c.depth)
	if err != nil {
		return c.decline()
	}
	c.pos = end
	return true
}

// cleanFits reports whether a value of JSON kind k reads into clean node
// n by n's kind; one that does not the binder read by a rule of its own
// (a [N]byte in base64, a float's "NaN"), whole.
func cleanFits(n *node, k jsonlex.Kind) bool {
	switch n.kind {
	case kPtr:
		return n.elem.clean == nil || cleanFits(n.elem.clean, k)
	case kMap, kStruct:
		return k == jsonlex.KindObject
	case kArray, kSlice:
		return k == jsonlex.KindArray
	case kFloat:
		return k == jsonlex.KindNumber
	}
	return true
}

// cleanVerdict is the verdict of a call the binder reads that the proving
// pass declined (see above): the clean mode's, with checker c (zero but
// for its members), and true; or false where the clean mode declines too.
func (p *Plan) cleanVerdict(c *checker, args []byte, issues []Issue) ([]Issue, bool) {
	c.clean = true
	return p.native(c, args, issues)
}

// declinedCheck is Check's verdict, with the members recorded in ms (nil:
// none), of a call the proving pass of p, on checker pass, declined: the
// binder decodes it once (the pass may have: checker.reads); where it
// reads it, the clean mode gives the verdict, and where it fails, the
// trial check.
func (p *Plan) declinedCheck(args []byte, issues []Issue, ms *bindcap.Members, pass *checker) []Issue {
	err := pass.decodeErr
	if !pass.decoded {
		err = p.trial.decode(args)
	}
	if err == nil {
		var c checker // set field by field: a composite literal this size is built, then copied
		c.record, c.members = ms != nil, ms
		if v, ok := p.cleanVerdict(&c, args, issues); ok {
			return v
		}
		if ms != nil {
			ms.Reset()
		}
	}
	return p.trial.checkDecoded(args, err, p.required, p.nested, issues, ms) // the failures; or, where the clean mode declined, the unknown keys and the missing
}
