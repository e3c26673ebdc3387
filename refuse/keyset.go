package refuse

import (
	"bytes"
	"hash/maphash"
)

// A keySet is a set of keys of one call, each held as its span in the
// call's text: the first few in place, compared by their text, then a hash
// table with open addressing, so that a key costs no allocation of its
// own. A set of at most fewKeys keys allocates nothing; a table sized with
// presize for as many keys as are added never grows: one allocation in all.
type keySet struct {
	few   [fewKeys]keySpan // the first keys, while slots is nil
	seed  maphash.Seed
	slots []keySlot // a power of two of them, at most half full
	n     int
}

// fewKeys is how many keys a keySet holds before it hashes them: a call
// refused for an unknown key or two reads them in place.
const fewKeys = 4

type keySpan struct{ start, end int }

type keySlot struct {
	hash       uint64
	start, end int // end == 0: an empty slot (a key token is never at 0)
}

// presize makes room for n keys in a table, when the set holds none yet.
func (s *keySet) presize(n int) {
	if s.slots == nil && s.n == 0 {
		s.table(nil, n)
	}
}

// table moves the set to a hash table with room for n keys, the keys it
// holds in place, of the call d, with it.
func (s *keySet) table(d []byte, n int) {
	size := 8
	for size < 2*n {
		size *= 2
	}
	s.seed = maphash.MakeSeed()
	s.slots = make([]keySlot, size)
	mask := uint64(size - 1)
	for _, k := range s.few[:s.n] {
		h := maphash.Bytes(s.seed, d[k.start:k.end])
		i := h & mask
		for s.slots[i].end != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = keySlot{h, k.start, k.end}
	}
}

// add adds the key d[start:end], and reports whether it was not there.
func (s *keySet) add(d []byte, start, end int) bool {
	if s.slots == nil {
		for _, k := range s.few[:s.n] {
			if bytes.Equal(d[k.start:k.end], d[start:end]) {
				return false
			}
		}
		if s.n < fewKeys {
			s.few[s.n] = keySpan{start, end}
			s.n++
			return true
		}
		s.table(d, 2*fewKeys)
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	h := maphash.Bytes(s.seed, d[start:end])
	mask := uint64(len(s.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		sl := &s.slots[i]
		if sl.end == 0 {
			*sl = keySlot{h, start, end}
			s.n++
			return true
		}
		if sl.hash == h && bytes.Equal(d[sl.start:sl.end], d[start:end]) {
			return false
		}
	}
}

func (s *keySet) grow() {
	old := s.slots
	s.slots = make([]keySlot, 2*len(old))
	mask := uint64(len(s.slots) - 1)
	for _, sl := range old {
		if sl.end == 0 {
			continue
		}
		i := sl.hash & mask
		for s.slots[i].end != 0 {
			i = (i + 1) & mask
		}
		s.slots[i] = sl
	}
}

// each yields the span of every key in the set.
func (s *keySet) each(yield func(start, end int)) {
	if s.slots == nil {
		for _, k := range s.few[:s.n] {
			yield(k.start, k.end)
		}
		return
	}
	for _, sl := range s.slots {
		if sl.end != 0 {
			yield(sl.start, sl.end)
		}
	}
}
