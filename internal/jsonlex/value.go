package jsonlex

import "iter"

// MaxDepth is encoding/json's limit on nested arrays and objects: its
// scanner fails on text nested deeper.
const MaxDepth = 10000

// MaxStack is how many levels of nesting Skip follows without allocating.
const MaxStack = 1024

// A SyntaxError says where text stops being valid JSON.
type SyntaxError struct {
	// Offset is the offset of the first byte that makes the text invalid
	// (len of the text when it ends too soon).
	Offset int
	// Deep reports that the text nests arrays and objects past the depth
	// limit it was read with: Offset is where the level past it opens.
	Deep bool
}

func (e *SyntaxError) Error() string {
	if e.Deep {
		return "jsonlex: nested too deep at offset " + itoa(e.Offset)
	}
	return "jsonlex: invalid JSON at offset " + itoa(e.Offset)
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// Skip reads the one JSON value that starts at d[i] (no white space
// before it) and returns the offset just past it. It fails on text that
// is not a valid value, and on arrays and objects nested more than
// maxDepth deep (encoding/json's limit is MaxDepth), whichever comes
// first in the text. It keeps its own stack of open arrays and objects:
// its cost is one step a byte, whatever the nesting.
func Skip(d []byte, i, maxDepth int) (end int, err *SyntaxError) {
	var fixed [MaxStack / 64]uint64
	stack := fixed[:]
	depth := 0 // open arrays and objects; bit depth-1 of stack is set for an object
	push := func(obj bool) bool {
		if depth >= maxDepth {
			return false
		}
		if depth/64 >= len(stack) {
			grown := make([]uint64, 2*len(stack))
			copy(grown, stack)
			stack = grown
		}
		w, b := depth/64, uint(depth%64)
		if obj {
			stack[w] |= 1 << b
		} else {
			stack[w] &^= 1 << b
		}
		depth++
		return true
	}
	inObject := func() bool {
		w, b := (depth-1)/64, uint((depth-1)%64)
		return stack[w]&(1<<b) != 0
	}
	fail := func(at int) (int, *SyntaxError) { return at, &SyntaxError{Offset: at} }

	for {
		// A value starts at d[i].
		if i >= len(d) {
			return fail(i)
		}
		switch c := d[i]; {
		case c == '{' || c == '[':
			if !push(c == '{') {
				return i, &SyntaxError{Offset: i, Deep: true}
			}
			i = Space(d, i+1)
			closer := byte(']')
			if c == '{' {
				closer = '}'
			}
			if i < len(d) && d[i] == closer {
				depth--
				i++
				break
			}
			if c == '{' {
				var ok bool
				if _, _, i, ok = Key(d, i); !ok {
					return fail(i)
				}
			}
			continue // the first element or member's value
		case c == '"':
			var ok bool
			if i, _, ok = String(d, i); !ok {
				return fail(i)
			}
		case c == '-' || '0' <= c && c <= '9':
			var ok bool
			if i, _, ok = Number(d, i); !ok {
				return fail(i)
			}
		case c == 't':
			var ok bool
			if i, ok = Literal(d, i, "true"); !ok {
				return fail(i)
			}
		case c == 'f':
			var ok bool
			if i, ok = Literal(d, i, "false"); !ok {
				return fail(i)
			}
		case c == 'n':
			var ok bool
			if i, ok = Literal(d, i, "null"); !ok {
				return fail(i)
			}
		default:
			return fail(i)
		}
		// A value ended at d[i]: close what it completes.
		for {
			if depth == 0 {
				return i, nil
			}
			i = Space(d, i)
			if i >= len(d) {
				return fail(i)
			}
			obj := inObject()
			switch d[i] {
			case ',':
				i = Space(d, i+1)
				if obj {
					var ok bool
					if _, _, i, ok = Key(d, i); !ok {
						return fail(i)
					}
				}
			case '}', ']':
				if (d[i] == '}') != obj {
					return fail(i)
				}
				depth--
				i++
				continue
			default:
				return fail(i)
			}
			break // the next element or member's value
		}
	}
}

// Valid reports whether d is one valid JSON value, with white space
// around it allowed, nested at most maxDepth deep.
func Valid(d []byte, maxDepth int) bool {
	i := Space(d, 0)
	end, err := Skip(d, i, maxDepth)
	return err == nil && Space(d, end) == len(d)
}

// A Member is one member of an object: its key (the string token, quotes
// included) and its value.
type Member struct{ Key, Value Span }

// Members yields the members of the valid JSON object that starts at d[i],
// in order. It reads only what it yields and what lies between: stopping
// early costs nothing more. Text that is not a valid object ends the
// sequence at the first byte that does not fit.
func Members(d []byte, i int) iter.Seq[Member] { return MembersTo(d, i, MaxDepth) }

// MembersTo is Members with the values read up to maxDepth levels deep
// (Skip's limit), not encoding/json's: for a text a binder refuses only for
// its nesting, whose members are read all the same.
func MembersTo(d []byte, i, maxDepth int) iter.Seq[Member] {
	return members(d, i, func(j int) (int, bool) {
		end, err := Skip(d, j, maxDepth)
		return end, err == nil
	})
}

// Elements yields the elements of the valid JSON array that starts at
// d[i], in order, as Members does for an object.
func Elements(d []byte, i int) iter.Seq[Span] {
	return elements(d, i, func(j int) (int, bool) { return skipOK(d, j) })
}

// members yields the members of the object at d[i], each value's end
// found by end.
func members(d []byte, i int, end func(int) (int, bool)) iter.Seq[Member] {
	return func(yield func(Member) bool) {
		if KindAt(d, i) != KindObject {
			return
		}
		i, more, ok := Open(d, i)
		for ok && more {
			var m Member
			if m.Key, _, m.Value.Start, ok = Key(d, i); !ok {
				return
			}
			if m.Value.End, ok = end(m.Value.Start); !ok || !yield(m) {
				return
			}
			i, more, ok = Next(d, m.Value.End, KindObject)
		}
	}
}

// elements yields the elements of the array at d[i], each one's end found
// by end.
func elements(d []byte, i int, end func(int) (int, bool)) iter.Seq[Span] {
	return func(yield func(Span) bool) {
		if KindAt(d, i) != KindArray {
			return
		}
		i, more, ok := Open(d, i)
		for ok && more {
			e := Span{Start: i}
			if e.End, ok = end(i); !ok || !yield(e) {
				return
			}
			i, more, ok = Next(d, e.End, KindArray)
		}
	}
}

func skipOK(d []byte, i int) (int, bool) {
	end, err := Skip(d, i, MaxDepth)
	return end, err == nil
}
