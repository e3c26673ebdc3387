package bind

// firstKey puts off holding an object's first key (repeated's work: its
// reading, its hash, an entry of the checker's or the key table's) until a
// second key comes: a first key repeats none, and an object of one key,
// such as each level of `{"a":{"a":...}}`, then holds nothing, nor takes
// an entry from the objects inside it. It reports whether ks is the
// object's first key, noted in s.first (its offset + 1); at a later key it
// holds the noted one, as repeated would have then (s.first -1: held).
func (c *checker) firstKey(s *keySet, kind nodeKind, ks int) bool {
	switch {
	case s.first > 0:
		at := s.first - 1
		s.first = -1
		c.repeated(s, kind, at, strEnd(c.data, at)) // a first key: no repeat
	case s.first == 0 && s.n == 0 && !s.big:
		s.first = ks + 1
		return true
	}
	return false
}
