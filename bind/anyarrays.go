package bind

import "github.com/bindguard/bindguard/internal/jsonlex"

// anyArrays reads the array at c.pos in position n, nil or any, where no
// constraint watches: as array does, an element in position n each, but
// with nothing else to judge (no length, no kind, no constraint state), so
// an array inside it is opened in the same frame, up to anyLevels deep,
// instead of in two more (value's, array's). Deep nesting is what it is
// for: `[[[...]]]` costs a loop step a level, not two calls. An object
// inside it value reads, in anyNest's frame (which holds arrays as well).
func (c *checker) anyArrays(n *node) bool {
	if anyFrames != nil {
		anyFrames.Add(1)
	}
	var (
		outer    [anyLevels]step // what each open array's push displaced
		at       [anyLevels]int  // each open array's element
		d        = -1            // the innermost open array
		more, ok bool
	)
	if n != nil {
		n = anyNode // each element's position, as array gives it
	}
open: // c.pos is at '['
	c.depth++
	if c.depth > c.depthLimit {
		c.deep = !c.bad // a proving pass gives the trial check's TooDeep (see native)
		return c.fail(c.pos)
	}
	c.pos++ // [
	d++
	outer[d], at[d] = c.steps.push(step{ke: -1}), 0
	if c.pos, more, ok = jsonlex.First(c.data, c.pos, jsonlex.KindArray); !ok {
		return c.fail(c.pos)
	}
	if !more {
		goto close
	}
element: // c.pos is at element at[d] of array d
	c.steps.set(step{at[d], -1})
	if d+1 < anyLevels && jsonlex.KindAt(c.data, c.pos) == jsonlex.KindArray {
		goto open
	}
	if !c.value(n) {
		return false
	}
next: // c.pos is past element at[d] of array d
	if c.pos, more, ok = jsonlex.Next(c.data, c.pos, jsonlex.KindArray); !ok {
		return c.fail(c.pos)
	}
	if more {
		at[d]++
		goto element
	}
close: // c.pos is past array d's ']'
	c.steps.pop(outer[d])
	c.depth--
	if d--; d >= 0 {
		goto next
	}
	return true
}
