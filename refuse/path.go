package refuse

import (
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
)

// spanPath returns the path to the value at inside the argument whose key
// is d[key] and whose value is s: "[i]" per element, a key's step per
// member, bounded as every path is. Each level is read once, up to the
// element or member holding at.
func spanPath(d []byte, key, s, at jsonlex.Span) jsonpath.Path {
	path := jsonpath.ArgPath(d[key.Start:key.End])
	inside := func(e jsonlex.Span) bool { return e.Start <= at.Start && at.End <= e.End }
	for s != at && s.Start < len(d) {
		next := s
		switch d[s.Start] {
		case '[':
			i := 0
			for e := range jsonlex.Elements(d, s.Start) {
				if inside(e) {
					path, next = path.Index(i), e
					break
				}
				i++
			}
		case '{':
			for m := range jsonlex.Members(d, s.Start) {
				if inside(m.Value) {
					path, next = path.Key(d[m.Key.Start:m.Key.End]), m.Value
					break
				}
			}
		}
		if next == s {
			break // at is not inside s: the path so far
		}
		s = next
	}
	return path
}
