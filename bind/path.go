package bind

import (
	"strconv"
	"sync/atomic"
	"unicode/utf8"
)

// workDone counts, in the package's tests only (it is nil otherwise), the
// bytes the checkers read: their pass over the arguments, every value or
// key they scan or read again, every byte they hand the binder to decode,
// and the paths they write. It is the deterministic measure of time the
// growth tests pin to the size of the input.
var workDone *atomic.Int64

func work(n int) {
	if workDone != nil {
		workDone.Add(int64(n))
	}
}

func isIdent(s []byte) bool {
	if len(s) == 0 || len(s) > 40 {
		return false
	}
	for _, c := range s {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

// Paths. An issue's path leads from the argument to the offending value, one
// step per array or object on the way: "[2]" into an array's element,
// ".name" (or `["odd key"]`) into an object's member. A path is bounded
// whatever the nesting: past maxSteps steps, it keeps the first pathHead
// and the last pathTail, with elided between; every key is cut at 40
// characters, with "…" after it (appendQuotedStep), so a path never carries
// more of what the caller sent than a refusal quotes of a value. So a path costs the same to build at any depth,
// and never grows with the arguments.
const (
	pathHead = 4
	pathTail = 8
	maxSteps = pathHead + pathTail
	elided   = "[…]"
	// maxPathBytes bounds a path's length: each step at most a key's 40
	// characters quoted (\U0010ffff, for the unprintable ones), its cut
	// mark, brackets and quotes.
	maxPathBytes = maxSteps*(len(`[""]`)+40*len(`\U0010ffff`)+len("…")) + len(elided)
)

// A step is one step of a path: into an array's element (ke < 0, ks the
// index), or into an object's member (data[ks:ke] is its key, quoted).
type step struct{ ks, ke int }

// A pathStack holds the steps from an argument's value to the value being
// read, as far as a path shows them: the first pathHead, and the last
// pathTail of the rest, in a ring. A push returns the step it displaces
// from the ring, which its pop puts back, so the steps shown are always
// those of the arrays and objects open, at any depth, without allocating.
type pathStack struct {
	s [maxSteps]step
	n int // steps open; those shown are s's
}

func (p *pathStack) slot(d int) *step {
	if d < pathHead {
		return &p.s[d]
	}
	return &p.s[pathHead+(d-pathHead)%pathTail]
}

// push opens a step, and returns what its pop must be given.
func (p *pathStack) push(st step) step {
	sl := p.slot(p.n)
	old := *sl
	*sl = st
	p.n++
	return old
}

// pop closes the innermost step; old is what its push returned.
func (p *pathStack) pop(old step) {
	p.n--
	*p.slot(p.n) = old
}

// set replaces the innermost step: the next element or member of the
// same array or object.
func (p *pathStack) set(st step) { *p.slot(p.n - 1) = st }

// path renders the open steps of data's values, then, when field is not
// empty, the step to the member named field: bounded as Paths says.
func (p *pathStack) path(data []byte, field string) string {
	total := p.n
	if field != "" {
		total++
	}
	if total == 0 {
		return ""
	}
	var buf [maxPathBytes]byte // the longest path: no growth, one copy
	out := buf[:0]
	for d := range total {
		if total > maxSteps && d >= pathHead && d < total-pathTail {
			if d == pathHead {
				out = append(out, elided...)
			}
			continue
		}
		switch {
		case d == p.n:
			out = appendFieldStep(out, field)
		case p.slot(d).ke < 0:
			out = append(out, '[')
			out = strconv.AppendInt(out, int64(p.slot(d).ks), 10)
			out = append(out, ']')
		default:
			st := p.slot(d)
			out = appendKeyStep(out, data[st.ks:st.ke])
		}
	}
	work(len(out))
	return string(out)
}

// appendFieldStep appends the step to the member named name.
func appendFieldStep(dst []byte, name string) []byte {
	if isIdent([]byte(name)) {
		return append(append(dst, '.'), name...)
	}
	return appendQuotedStep(dst, []byte(name))
}

// appendQuotedStep appends `["key"]`, the key cut after 40 characters,
// with "…" after it.
func appendQuotedStep(dst, key []byte) []byte {
	var cb [40*utf8.UTFMax + len("…")]byte
	cut := key
	n := 0
	for i := range unsafeString(key) {
		if n == 40 {
			cut = append(append(cb[:0], key[:i]...), "…"...)
			break
		}
		n++
	}
	dst = append(dst, '[')
	dst = strconv.AppendQuote(dst, unsafeString(cut))
	return append(dst, ']')
}

// appendKeyStep appends the step to the member whose key is raw (a valid
// JSON string, quotes included). It reads only as much of the key as the
// step shows: a key of a megabyte costs what one of 41 characters does.
func appendKeyStep(dst, raw []byte) []byte {
	// Each character of the text comes from one rune of raw or one \u
	// escape (two for a surrogate pair): 2*41 of them make more than the
	// 40 characters a step keeps, whole.
	in := raw[1 : len(raw)-1]
	i := 0
	for units := 0; i < len(in) && units < 2*41; units++ {
		switch c := in[i]; {
		case c == '\\' && in[i+1] == 'u':
			i += 6
		case c == '\\':
			i += 2
		case c < utf8.RuneSelf:
			i++
		default:
			_, n := utf8.DecodeRune(in[i:])
			i += n
		}
	}
	work(i + 2)
	var kb [2*41*6 + 2]byte
	prefix := append(append(append(kb[:0], '"'), in[:i]...), '"')
	var tb [2*41*4 + 8]byte
	key := keyText(tb[:0], prefix)
	if i == len(in) && isIdent(key) {
		return append(append(dst, '.'), key...)
	}
	return appendQuotedStep(dst, key)
}
