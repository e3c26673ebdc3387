package refuse

import (
	"bytes"
	"hash/maphash"
)

// A keySet is a set of keys of one call, each held as its span in the
// call's text: a hash table with open addressing, so that a key costs no
// allocation of its own. A table sized with presize for as many keys as
// are added never grows: one allocation in all.
type keySet struct {
	seed  maphash.Seed
	slots []keySlot // a power of two of them, at most half full
	n     int
}

type keySlot struct {
	hash       uint64
	start, end int // end == 0: an empty slot (a key token is never at 0)
}

// presize makes room for n keys, when the set holds none yet.
func (s *keySet) presize(n int) {
	if s.slots != nil {
		return
	}
	size := 8
	for size < 2*n {
		size *= 2
	}
	s.seed = maphash.MakeSeed()
	s.slots = make([]keySlot, size)
}

// add adds the key d[start:end], and reports whether it was not there.
func (s *keySet) add(d []byte, start, end int) bool {
	s.presize(4)
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
	for _, sl := range s.slots {
		if sl.end != 0 {
			yield(sl.start, sl.end)
		}
	}
}
