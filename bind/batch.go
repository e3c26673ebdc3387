package bind

import (
	"reflect"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// Lists of values that decode themselves. A position whose type decodes
// itself (kTrial) is decoded by the binder, the value alone in a one-field
// wrapper, for the binder's verdict on it; a list of a thousand of them,
// a thousand decodes, each with its wrapper, its buffer and the binder's
// own set-up (encoding/json: five allocations a value, and a microsecond).
// The binder reads a list's elements one by one, each into a zero value,
// and fails on the list exactly when it fails on one of them alone: so the
// pass first has it decode the whole list, once, into a one-field wrapper
// of the list's type (node.batch). When that passes, every element passes
// alone, and none is decoded again (batched); when it fails, each is
// decoded alone as before, to find the one the binder fails on and what
// it says. Either way the verdict is the binder's on each element.
//
// Only a slice's elements (a fixed array drops those past its length
// unread, and they are read alone as nothing) and a map's values (of
// string keys: a key type's own method or number is the pass's to judge),
// behind pointers or not, and only where no constraint is held to them
// (the checks read the elements' text, and the pass declines a
// self-decoding value with one).

// noBatch turns batchOpen off, for the tests that hold the verdict with
// lists decoded whole to the verdict with each element decoded alone.
var noBatch bool

// batchList is the list whose elements a whole decode found the binder
// reads: its element position, its depth, and its text's span.
type batchList struct {
	n          *node
	depth      int
	start, end int
}

// batchOpen decodes the list (or map) at start, of position n whose
// elements decode themselves, whole, and, when the binder reads it, marks
// its elements read (batched). It returns what the walk restores as it
// leaves the list (array, object): the list enclosing it, if any.
func (c *checker) batchOpen(n *node, start int) batchList {
	outer := c.batch
	if noBatch {
		return outer
	}
	end, err := jsonlex.Skip(c.data, start, c.depthLimit-c.depth+1)
	if err != nil {
		return outer // the walk meets what the binder fails on
	}
	work(end - start) // decoded, with the binder
	if decodeWrapped(c.binder, n.typ, n.batch, c.data[start:end]) == nil {
		c.batch = batchList{n: n.batchElem, depth: c.depth, start: start, end: end}
	}
	return outer
}

// batched reports whether the value at c.pos, of position n, is an element
// of the list batchOpen found the binder reads whole: read without error
// alone too.
func (c *checker) batched(n *node) bool {
	b := &c.batch
	return b.n == n && b.depth == c.depth && b.start < c.pos && c.pos < b.end
}

// nullRead is nullLeavesZero for position n: the answer is the same for
// every null of n's type in the call, so it is decoded once for each of the
// last few positions that met one (a list of objects of several such
// fields meets them in turn).
func (c *checker) nullRead(n *node) (zero bool, err error) {
	m := &c.nulls
	for i := range m.n {
		if m.n[i] == n {
			return m.zero[i], m.err[i]
		}
	}
	i := m.next
	m.next = (m.next + 1) % len(m.n)
	m.zero[i], m.err[i] = nullLeavesZero(c.binder, n)
	m.n[i] = n
	return m.zero[i], m.err[i]
}

// nullMemo is nullRead's last answers, a few positions' (see nullRead).
type nullMemo struct {
	n    [4]*node
	zero [4]bool
	err  [4]error
	next int
}

// batchType returns the wrapper a list or map of type t, whose elements
// are read by position e, is decoded whole into, and the self-decoding
// position each element reaches (e, or what e points to), or nil where it
// is not decoded whole (see above): a slice, or a map of string keys
// (the binder decodes each value into a zero value too), whose elements
// decode themselves, behind pointers or not.
func batchType(t reflect.Type, e *node) (reflect.Type, *node) {
	switch t.Kind() {
	case reflect.Slice:
	case reflect.Map:
		if t.Key().Kind() != reflect.String || decodesItself(t.Key()) {
			return nil, nil
		}
	default:
		return nil, nil
	}
	for range 8 { // a pointer to a pointer ... to one (a type of its own pointer is no plan's)
		if e == nil || e.kind != kPtr {
			break
		}
		e = e.elem
	}
	if e == nil || e.kind != kTrial || e.quoted || e.trial == nil {
		return nil, nil
	}
	return wrapper(t, false), e
}
