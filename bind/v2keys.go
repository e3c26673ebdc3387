package bind

import (
	"github.com/bindguard/bindguard/internal/decoders"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// V2's repeated names inside a value, in its one pass (see native). V2
// fails on an object member name sent twice in one object as it reads the
// name (jsontext.ErrDuplicateName), and stops there: in a struct, a name
// that binds a field a name before bound (exactly or by a fold), or an
// unknown name sent before; in a map of string keys or an empty
// interface, a key sent before; in a value it skips (a dropped one, or
// the wrong kind for a position V2 reads whole: a string or a number), a
// name sent before. Names are compared by their text, unquoted. The trial
// check decodes each value alone and lists its first failure: for an
// argument, InvalidValue at the object holding the name, in that object's
// type (none inside an empty interface, a dropped value or a value of the
// wrong kind), the path to it, V2's error naming the name; for a value
// V2 drops at the top level, InvalidJSON at the name, listed before the
// member's UnknownArgument. A wrong kind for a bool, a struct, a map, a
// list or an array V2 fails on at its first token, before any name inside.

// v2Keys is the checker's state of the names V2 fails on repeated inside
// a value.
type v2Keys struct {
	dupAt      int  // the start+1 of the object whose repeated name is its argument's first failure (0: none)
	ks, ke     int  // that name's key
	met        bool // a repeated name was listed: text that is not JSON after it the pass declines
	skim       int  // the depth of the open value of the wrong kind V2 fails on at its first token (0: none)
	dropKs     int  // the key of the top-level member being read, where it binds no parameter
	dropFailed int  // dropKs+1 of the dropped member whose value's failure is listed
}

// v2Wrong notes, under V2, the array or object just opened (at c.depth)
// as the wrong kind for position n: where V2 reads n by its first token,
// it fails there and reads no name inside.
func (c *checker) v2Wrong(n *node) {
	switch n.kind {
	case kBool, kSlice, kArray, kMap, kStruct:
		if c.v2.skim == 0 {
			c.v2.skim = c.depth
		}
	}
}

// v2Closed ends, under V2, the array or object opened at data[start]
// into position n (nil for none), at depth c.depth: the failure of a name
// repeated in it, when it is its argument's first, is listed now, with
// the object's span and the path to it.
func (c *checker) v2Closed(n *node, start int) {
	if c.v2.skim == c.depth {
		c.v2.skim = 0
	}
	if c.v2.dupAt != start+1 {
		return
	}
	c.v2.dupAt = 0
	if !c.admit(InvalidValue, c.param) {
		return
	}
	is := Issue{Kind: InvalidValue, Param: c.param, Start: start, End: c.pos, Path: c.pathFor()}
	if n != nil && n != anyNode {
		is.Type = n.typ
	}
	var buf [64]byte
	name, _ := jsonlex.Unquote(buf[:0], c.data[c.v2.ks:c.v2.ke])
	is.Err = decoders.V2.DuplicateError(string(name))
	c.issues = append(c.issues, is)
}

// v2Repeat judges, for V2's pass, the key data[ks:ke] that repeats a name
// of the object at data[start] read into position n (nil: a value
// skipped), before its value is read. It returns false where the pass
// declines.
func (c *checker) v2Repeat(n *node, start, ks, ke int) bool {
	switch {
	case c.v2.skim > 0:
		return true // V2 failed at the first token of the value holding it
	case n != nil && n.kind != kStruct && n.kind != kMap && n.kind != kAny && !v2ReadsWhole(n.kind):
		return false
	case c.param < 0: // inside a value dropped at the top level
		if c.v2.dropFailed == c.v2.dropKs+1 {
			return true
		}
		c.v2.dropFailed, c.v2.met, c.failed = c.v2.dropKs+1, true, true
		c.found++
		if !c.tally.admit(c.issues[c.n0:], InvalidJSON, -1) {
			return true
		}
		is := Issue{Kind: InvalidJSON, Param: -1, Start: ks, End: ks, Err: decoders.V2.ErrDuplicateName}
		if l := len(c.issues); l > c.n0 && c.issues[l-1].Kind == UnknownArgument && c.issues[l-1].Start == c.v2.dropKs {
			c.issues = append(c.issues, c.issues[l-1])
			c.issues[l-1] = is // the trial check lists the value's failure before the key
		} else {
			c.issues = append(c.issues, is)
		}
		return true
	}
	if c.firstFailure() {
		c.v2.dupAt, c.v2.ks, c.v2.ke, c.v2.met = start+1, ks, ke, true
	}
	return true
}

// v2ReadsWhole reports a kind of position V2 reads a value of the wrong
// kind for whole before it fails (ReadValue): the names inside it too.
func v2ReadsWhole(k nodeKind) bool {
	switch k {
	case kInt, kUint, kFloat, kString:
		return true
	}
	return false
}

// boundAgain is the loss of the key data[ks:ke] of the object at
// data[start], read into struct, map or interface n, that binds a field a
// key before bound or repeats a key: DuplicateKey; under V2's pass, below
// the top level (where nameRepeated judges it), none: V2 fails on the
// name (v2Repeat).
func (c *checker) boundAgain(n *node, root bool, start, ks, ke int) Code {
	if root || !c.prove || !c.dupDropped {
		return DuplicateKey
	}
	c.v2Repeat(n, start, ks, ke)
	return ""
}

// unknownName is the issue of the key data[ks:ke] of the object at
// data[start], read into struct n, that binds no field: UnknownField;
// under V2's pass, a name sent before in the object V2 fails on
// (v2Repeat), judged before the value.
func (c *checker) unknownName(n *node, keys *keySet, start, ks, ke int) Code {
	if c.prove && c.dupDropped && c.repeated(keys, kString, ks, ke) {
		c.v2Repeat(n, start, ks, ke)
	}
	return UnknownField
}
