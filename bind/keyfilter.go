package bind

import "sync/atomic"

// A nameFilter tells, from a key's length and its first and last bytes,
// most keys that no field of a struct takes, before the field set's
// lookup hashes the key and folds its case: a call of many unknown keys
// then costs little more per key than reading it. It holds the folds of
// the fields' names the lookup matches a key's fold with: encoding/json's
// (foldName) of every name, which also tell its exact names, and V2's
// (appendV2Fold) of its case:ignore fields. A key that none may fold to
// names no field exactly and binds none by folding.
type nameFilter struct {
	lens uint64 // bit n: a plain key of n bytes (63: of 63 or more) may match
	// ends holds, per byte a key starts or ends with, bit firstByte: a
	// key that starts with it may match (its fold starts as a name's
	// fold does), and bit lastByte: one that ends with it. Both ASCII
	// cases of a letter are set alike, and every byte past ASCII, part of
	// a rune that may fold to anything.
	ends [256]uint8
	// longest bounds the text of a key that may match, in bytes: a fold
	// is a third of its text at least (K, three bytes, folds to K); -1
	// for no bound, where V2's fold drops any number of '_' and '-'.
	longest int
}

const (
	firstByte = 1 << iota
	lastByte
)

// add notes the field name name.
func (nf *nameFilter) add(name string) {
	f := foldName(nil, []byte(name))
	nf.lens |= 1 << min(len(f), 63)
	if nf.longest >= 0 {
		nf.longest = max(nf.longest, len(name), 3*len(f))
	}
	nf.note(f)
}

// addV2 notes fold, the fold of a case:ignore field's name as V2 folds
// it: without '_' and '-', which a key may hold anywhere, so that a key
// that starts or ends with one, or is longer, may fold to it too.
func (nf *nameFilter) addV2(fold string) {
	nf.lens |= ^uint64(0) << min(len(fold), 63)
	nf.longest = -1
	nf.note([]byte(fold))
	for _, b := range []byte("_-") {
		nf.ends[b] |= firstByte | lastByte
	}
}

// note notes the first and last bytes of fold f, in either case, and
// every byte past ASCII.
func (nf *nameFilter) note(f []byte) {
	for b := 0x80; b < 0x100; b++ {
		nf.ends[b] = firstByte | lastByte
	}
	if len(f) == 0 {
		return
	}
	for _, e := range [...]struct {
		b   byte
		bit uint8
	}{{f[0], firstByte}, {f[len(f)-1], lastByte}} {
		nf.ends[e.b] |= e.bit
		if 'A' <= e.b && e.b <= 'Z' {
			nf.ends[e.b+'a'-'A'] |= e.bit
		}
	}
}

// may reports whether the key text key (plain: it is all ASCII) may be a
// field's name or fold to one's. A fold keeps an ASCII byte's place at
// either end of the text (a rune past ASCII folds whole), and the length
// of an ASCII text; past ASCII a fold may be shorter (ſ folds to S), so
// the length is told only of a plain key.
func (nf *nameFilter) may(key []byte, plain bool) bool {
	if plain && nf.lens&(1<<min(len(key), 63)) == 0 {
		return false
	}
	return len(key) == 0 || nf.ends[key[0]]&firstByte != 0 && nf.ends[key[len(key)-1]]&lastByte != 0
}

// tooLong reports whether the key raw (quoted, with an escape) is too
// long for its text to match: an escape is at most six bytes for one of
// text, so it is not unquoted.
func (nf *nameFilter) tooLong(raw []byte) bool {
	return nf.longest >= 0 && len(raw)-2 > 6*nf.longest
}

// keyLookups counts, in the package's tests only (it is nil otherwise),
// the keys the field sets' lookup reads past their filter.
var keyLookups *atomic.Int64

// lookedUp counts a key the filter lets through.
func lookedUp() {
	if keyLookups != nil {
		keyLookups.Add(1)
	}
}
