package bind

import (
	"reflect"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The types segmentio v0.5.4 reads by rules of its own, read by the one
// pass (rules.segReads), as decode.go reads them:
//
//   - json.Number (decodeNumber): a JSON number, kept as its text; null
//     leaves it as it was (NullForValue); any other value fails, a string
//     too (WrongType, where the trial check places segmentio's
//     UnmarshalTypeError, by its path);
//   - json.RawMessage (decodeRawMessage): any value, kept as sent; null
//     too (kRaw);
//   - []byte (decodeBytes): null sets nil; a string is unquoted (invalid
//     UTF-8 replaced) and decoded as base64.StdEncoding decodes it; an
//     array is read as a list of uint8, a null element left 0
//     (NullForValue, as encoding/json's); any other value fails
//     (WrongType). Text that is not base64 fails with base64's own error,
//     which names no path: the trial check places it at the argument's
//     value, InvalidValue (see segArgFailed), which for a []byte argument
//     is the value itself.

// kSegNumber and kSegBytes are segRules' positions (node.seg) of a
// json.Number and a []byte (elem: the list of uint8 it reads an array as).
const (
	kSegNumber = kSegQuoted + 1 + iota
	kSegBytes
)

// segTypeNode compiles, under segmentio's rules, n of type t when t is
// json.Number or []byte, and reports whether it did.
func (c *compiler) segTypeNode(n *node, t reflect.Type) (bool, error) {
	switch t {
	case goNumber:
		n.kind, n.seg = kDecline, kSegNumber
		return true, nil
	case goBytes:
		b, err := c.node(t.Elem(), false)
		if err != nil {
			return true, err
		}
		n.kind, n.seg = kDecline, kSegBytes
		n.elem = &node{kind: kSlice, typ: t, elem: b} // a null element is left 0: NullForValue
		return true, nil
	}
	return false, nil
}

// segValue reads the value at c.pos into kDecline position n: one
// segmentio reads by rules of its own the pass ports (n.seg: a ,string
// field, a json.Number, a []byte), or one the pass declines. (Kept in
// kDecline's case, so the walker's switch on a position's kind costs the
// values of other kinds nothing.)
func (c *checker) segValue(n *node) bool {
	switch n.seg {
	case kSegQuoted:
		return c.segQuoted(n)
	case kSegNumber:
		return c.segNumber(n)
	case kSegBytes:
		return c.segBytes(n)
	}
	if c.clean {
		return c.cleanDeclined(n)
	}
	return c.decline()
}

// segNumber reads the value at c.pos into json.Number position n.
func (c *checker) segNumber(n *node) bool {
	start := c.pos
	k := jsonlex.KindAt(c.data, start)
	if !c.value(nil) {
		return false
	}
	switch k {
	case jsonlex.KindNumber:
	case jsonlex.KindNull:
		c.issue(NullForValue, n, start, c.pos)
	default:
		c.issue(WrongType, n, start, c.pos)
	}
	return true
}

// segBytes reads the value at c.pos into []byte position n.
func (c *checker) segBytes(n *node) bool {
	if jsonlex.KindAt(c.data, c.pos) != jsonlex.KindString {
		return c.value(n.elem) // null, a list of bytes, or the wrong kind
	}
	start := c.pos
	if !c.value(nil) {
		return false
	}
	if c.param >= 0 && c.failedIn == c.steps.arg.ks+1 {
		return true // the binder stopped at the argument's first failure
	}
	_, f, _ := jsonlex.String(c.data, start)
	if withText(c.data[start:c.pos], f&jsonlex.Escaped != 0, base64Valid) {
		return true
	}
	if start != c.argAt {
		c.segArgFailed() // base64's error names no path
		return true
	}
	c.issue(InvalidValue, n, start, c.pos)
	return true
}
