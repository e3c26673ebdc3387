package jsonlex

import (
	"iter"
	"slices"
)

// Ends knows where each array and object of a text ends, from one read of
// the whole text (IndexEnds), so that a walker that steps past a value it
// does not enter, level after level, reads no byte twice: stepping past an
// array or object costs a search in the index, not a read of its text.
// Without it, a walker that looks at each level's members (Members
// skips each value) before entering one reads a chain of n objects n times
// over.
type Ends struct {
	starts, ends []int // by start, ascending: each array's and object's span
}

// IndexEnds reads d once and records where each array and object ends. It
// reads d as valid JSON (a text a binder decoded): on text that is not,
// End may find an end where Skip finds the text invalid.
func IndexEnds(d []byte) Ends {
	var e Ends
	var open []int // the indexes in e of the arrays and objects open
	for i := 0; i < len(d); {
		switch d[i] {
		case '"':
			end, _, ok := String(d, i)
			if !ok {
				return e
			}
			i = end
			continue
		case '{', '[':
			open = append(open, len(e.starts))
			e.starts, e.ends = append(e.starts, i), append(e.ends, -1)
		case '}', ']':
			if n := len(open); n > 0 {
				e.ends[open[n-1]] = i + 1
				open = open[:n-1]
			}
		}
		i++
	}
	return e
}

// End returns the offset just past the value that starts at d[i], the
// text IndexEnds read: an array's or object's from the index, any other
// value's read (Skip). ok is false where the value is not valid.
func (e *Ends) End(d []byte, i int) (end int, ok bool) {
	if k := KindAt(d, i); k == KindObject || k == KindArray {
		if j, found := slices.BinarySearch(e.starts, i); found && e.ends[j] > i {
			return e.ends[j], true
		}
	}
	end, err := Skip(d, i, MaxDepth)
	return end, err == nil
}

// Members is the package's Members over the text IndexEnds read, stepping
// past each value by End.
func (e *Ends) Members(d []byte, i int) iter.Seq[Member] {
	return members(d, i, func(j int) (int, bool) { return e.End(d, j) })
}

// Elements is the package's Elements over the text IndexEnds read,
// stepping past each element by End.
func (e *Ends) Elements(d []byte, i int) iter.Seq[Span] {
	return elements(d, i, func(j int) (int, bool) { return e.End(d, j) })
}
