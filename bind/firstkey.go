package bind

// firstKey puts off holding an object's first key (repeated's work: its
// reading, its hash, an entry of the checker's or the key table's) until a
// second key comes: a first key repeats none, and an object of one key,
// such as each level of `{"a":{"a":...}}`, then holds nothing, nor takes
// an entry from the objects inside it. It reports whether ks is the
// object's first key, noted in s.first (its offset + 1); at a later key it
// holds the noted one, as repeated would have then (s.first -1: held).
func (c *checker) firstKey(s *keySet, kind nodeKind, ks int) bool {
	if s.first > 0 {
		at := s.first - 1
		s.first = -1
		c.repeated(s, kind, at, strEnd(c.data, at)) // a first key: no repeat
		return false
	}
	return s.takeFirst(ks)
}

// takeFirst notes ks as s's first key, where s holds none yet (firstKey's
// first case, which a caller may take before calling repeatedKey), and
// reports whether it did.
func (s *keySet) takeFirst(ks int) bool {
	if s.first == 0 && s.n == 0 && !s.big {
		s.first = ks + 1
		return true
	}
	return false
}
