package bind

import (
	"hash/maphash"
	"reflect"
	"sync"
	"sync/atomic"

	"github.com/bindguard/bindguard/internal/decoders"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// V2's repeated names inside a value, in its one pass (see native). V2
// fails on an object member name sent twice in one object as it reads the
// name (jsontext.ErrDuplicateName), and stops there: in a struct, a name
// that binds a field a name before bound (exactly or by a fold), or an
// unknown name sent before; in a map of string keys or an empty
// interface, a key sent before; in a value it skips (a dropped one, or
// the wrong kind for a position V2 reads whole: a string or a number), a
// name sent before. Names are compared by their text, unquoted. The trial
// check decodes each value alone and lists its first failure: for an
// argument, InvalidValue at the object holding the name, in that object's
// type (none inside an empty interface, a dropped value or a value of the
// wrong kind), the path to it, V2's error naming the name; for a value
// V2 drops at the top level, InvalidJSON at the name, listed before the
// member's UnknownArgument. A wrong kind for a bool, a struct, a map, a
// list or an array V2 fails on at its first token, before any name inside.

// v2Keys is the checker's state of the names V2 fails on repeated inside
// a value.
type v2Keys struct {
	dupAt      int  // the start+1 of the object whose repeated name is its argument's first failure (0: none)
	ks, ke     int  // that name's key
	firstKs    int  // the key of the repeated name V2's decode of the whole call fails on, nothing failing before it (see v2First)
	firstKe    int  // (0: none)
	failing    bool // V2 failed where the pass lists it later (a map key, before its value; an ownFails value): V2 reads nothing past it
	skim       int  // the depth of the open value of the wrong kind V2 fails on at its first token (0: none)
	dropKs     int  // the key of the top-level member being read, where it binds no parameter
	dropFailed int  // dropKs+1 of the dropped member whose value's failure is listed
	text       bool // the failure at dupAt is a key's invalid text, not a repeat
	badKs      int  // the top-level key whose text V2 fails on (0: none)
	badAt      int  // the first invalid byte in it
	badFirst   bool // nothing failed before that key: V2's error is the key's
	textKeys   bool // a top-level key with an escape was dropped: dropped keys are told by their text (see droppedRepeat)
	// elemAt is the start+1 of the element being read of an array read
	// into a byte list or array (ownBytes), which V2 reads as the wrong
	// kind (0: none); elemTyp is that list's element type, the type the
	// trial check gives a failure of that element's (see droppedElem).
	elemAt  int
	elemTyp reflect.Type

	repeats v2Repeats // the repeated top-level names (see nameRepeated)
}

// v2Wrong notes, under V2, the array or object just opened (at c.depth)
// as the wrong kind for position n: where V2 reads n by its first token,
// it fails there and reads no name inside.
func (c *checker) v2Wrong(n *node) {
	switch n.kind {
	case kBool, kSlice, kArray, kMap, kStruct:
		if c.v2.skim == 0 {
			c.v2.skim = c.depth
		}
	}
}

// droppedElem is the element type of the list n an array is read into
// where V2 reads that array as the wrong kind and only validates its
// elements (a byte list or array, ownBytes), or nil. A failure V2 meets
// there in an element itself (a repeated name, invalid text: v2Closed,
// v2DroppedText) is typed as the trial check types it, by the Go type
// its path leads to: the list's element type, one level down only.
func droppedElem(n *node) reflect.Type {
	if n != nil && n.kind == kOwn && n.own == ownBytes {
		return n.typ.Elem()
	}
	return nil
}

// v2Closed ends, under V2, the array or object opened at data[start]
// into position n (nil for none), at depth c.depth, while a wrong value
// or a failure is noted (skim, dupAt; both 0 but in V2's pass): the failure of a name
// repeated in it, when it is its argument's first, is listed now, with
// the object's span and the path to it.
func (c *checker) v2Closed(n *node, start int) {
	if c.v2.skim == c.depth {
		c.v2.skim = 0
	}
	if c.v2.dupAt != start+1 {
		return
	}
	c.v2.dupAt = 0
	if !c.admit(InvalidValue, c.param) {
		return
	}
	is := Issue{Kind: InvalidValue, Param: c.param, Start: start, End: c.pos, Path: c.pathFor()}
	if n != nil && n != anyNode {
		is.Type = n.typ
	} else if n == nil && c.v2.elemAt == start+1 {
		is.Type = c.v2.elemTyp // see droppedElem
	}
	if !c.v2.text {
		is.Err = c.v2DupError(c.v2.ks, c.v2.ke)
	}
	c.issues = append(c.issues, is)
}

// v2Repeat judges, for V2's pass, the key data[ks:ke] that repeats a name
// of the object at data[start] read into position n (nil: a value
// skipped), before its value is read. It returns false where the pass
// declines.
func (c *checker) v2Repeat(n *node, start, ks, ke int) bool {
	switch {
	case c.v2.skim > 0:
		return true // V2 failed at the first token of the value holding it
	case n != nil && n.kind != kStruct && n.kind != kMap && n.kind != kAny && !v2ReadsWhole(n.kind):
		return false
	case c.param < 0: // inside a value dropped at the top level
		if c.v2.dropKs != 0 {
			c.v2First(ks, ke)
		}
		c.droppedFailure(ks, decoders.V2.ErrDuplicateName)
		return true
	}
	c.v2First(ks, ke)
	if c.firstFailure() {
		c.v2.dupAt, c.v2.ks, c.v2.ke, c.v2.text = start+1, ks, ke, false
	}
	return true
}

// v2First notes, for V2's pass, the name at data[ks:ke] V2 fails on as a
// repeat, met as V2 meets it, before its value: where nothing failed
// before it in the call (V2 stops at its first error), V2's decode of the
// whole call fails on this name. Text that is not JSON past it is then
// refused with the name's error (see notJSON).
func (c *checker) v2First(ks, ke int) {
	if c.v2.firstKe == 0 && !c.failed && !c.v2.failing && c.v2.badKs == 0 {
		c.v2.firstKs, c.v2.firstKe = ks, ke
	}
}

// v2FirstErr is V2's error on the call where it is a repeated name
// (v2First), or nil.
func (c *checker) v2FirstErr() error {
	if c.v2.firstKe == 0 {
		return nil
	}
	return c.v2DupError(c.v2.firstKs, c.v2.firstKe)
}

// v2DupError is the error V2 fails with on the name of the key at
// data[ks:ke] repeated.
func (c *checker) v2DupError(ks, ke int) error {
	var buf [64]byte
	name, _ := jsonlex.Unquote(buf[:0], c.data[ks:ke])
	return decoders.V2.DuplicateError(string(name))
}

// v2Dropped judges, for V2's pass, the top-level key data[ks:ke] that
// binds no parameter, as V2 reads it, before its value: whether it
// repeats a key sent before (c.top.repeat; see droppedRepeat), which V2
// fails on as it reads the name (unknownKey lists it). A key of text V2
// fails on (see v2KeyText) is no name: it repeats none, nor does a later
// key repeat it (textKeys holds no such key's text: see byText).
func (c *checker) v2Dropped(ks, ke int) {
	if !c.top.plain && replaces(c.data[ks:ke]) {
		c.top.repeat = false
		return
	}
	if c.top.repeat = c.droppedRepeat(ks, ke); c.top.repeat {
		c.v2First(ks, ke)
	}
}

// v2ReadsWhole reports a kind of position V2 reads a value of the wrong
// kind for whole before it fails (ReadValue): the names inside it too.
func v2ReadsWhole(k nodeKind) bool {
	switch k {
	case kInt, kUint, kFloat, kString:
		return true
	}
	return false
}

// boundAgain is the loss of the key data[ks:ke] of the object at
// data[start], read into struct, map or interface n, that binds a field a
// key before bound or repeats a key: DuplicateKey; under V2's pass, below
// the top level (where nameRepeated judges it once the value is read;
// V2 fails on the name first: v2First), none: V2 fails on the name
// (v2Repeat).
func (c *checker) boundAgain(n *node, root bool, start, ks, ke int) Code {
	if !c.prove || !c.dupDropped {
		return DuplicateKey
	}
	if root {
		c.v2First(ks, ke) // V2 fails on the name before its value
		return DuplicateKey
	}
	c.v2Repeat(n, start, ks, ke)
	return ""
}

// fieldAgain is boundAgain for field i of struct n, bound again: under
// segmentio it notes a field whose value sent again may fail otherwise
// than alone (fieldSet.stale): the pass's verdict stands only where the
// binder reads the call (see native).
func (c *checker) fieldAgain(n *node, root bool, i, start, ks, ke int) Code {
	if n.fields.stale != nil && n.fields.stale[i] {
		c.staleDups = true
	}
	return c.boundAgain(n, root, start, ks, ke)
}

// unknownName is the issue of the key data[ks:ke] of the object at
// data[start], read into struct n, that binds no field: UnknownField;
// under V2's pass, a name sent before in the object V2 fails on
// (v2Repeat), judged before the value.
func (c *checker) unknownName(n *node, keys *keySet, start, ks, ke int) Code {
	if c.prove && c.dupDropped && c.repeated(keys, kString, ks, ke) {
		c.v2Repeat(n, start, ks, ke)
	}
	return UnknownField
}

// V2's repeated top-level names, any number of them (see nameRepeated):
// each is told listed before in constant time, a parameter by a bit, a
// dropped key by the checker's key table (as object topRepeats), and the
// pass holds only the repeats the tally may list: every parameter's (one
// each) and the first MaxIssues+1 dropped keys'; past those a dropped
// key's repeat is an InvalidJSON the tally counts (its class has listed
// MaxIssues, and the first in no argument), so it is counted only. The
// list is pooled: a call of any number of repeated names allocates
// nothing for them once a list that size has served one.

// v2Repeats is the checker's state of V2's repeated top-level names
// beyond the list (checker.repeats) itself.
type v2Repeats struct {
	params      fieldBits // the parameters whose repeat is listed
	paramsInit  bool
	dropped     int // the dropped keys' repeats held, and the ambiguous keys (ambiguousArg)
	moreRepeats int // the dropped keys' repeats past those, counted only
	// moreAmbiguous counts the ambiguous keys past them, counted only
	// (an AmbiguousArgument each); ambiguousFirst, that the first issue
	// counted only was one, which the tally counts first.
	moreAmbiguous  int
	ambiguousFirst bool
	buf            *[]Issue
}

// topRepeats is the key table's object of the dropped top-level keys
// whose repeat is listed, topText and topTextRepeats the objects of
// topObj's and topRepeats' keys by their text (see droppedRepeat): no map
// or interface object takes them (they count up from 1, and a call holds
// fewer than 2^32-4 objects; topAmbiguous is the fourth).
const (
	topRepeats     = ^uint32(0)
	topText        = ^uint32(1)
	topTextRepeats = ^uint32(2)
)

// topAmbiguous is the key table's object of the texts of the ambiguous
// top-level keys listed (see ambiguousArg).
const topAmbiguous = ^uint32(3)

// ambiguousArg notes, under go-json-experiment's V2, the top-level key at
// data[ks:ke] that names no parameter exactly and that V2 folds
// (case:ignore) to the names of two or more: V2 fails on it as it reads
// the name (errAmbiguousName), and reads no further. The trial check
// lists it as it lists a repeated name, after the members' issues
// (keyIssues): an AmbiguousArgument spanning the key, in no argument,
// once per text however often it is sent.
func (c *checker) ambiguousArg(ks, ke int) {
	if c.keyTab == nil {
		c.keyTab = getKeyTable(len(c.data))
	}
	if !c.addText(topAmbiguous, ks, ke) {
		c.addRepeat(Issue{Kind: AmbiguousArgument, Param: -1, Start: ks, End: ke})
	}
	c.failed = true
}

// repeatedAgain reports whether the top-level name at data[ks:ke], which
// repeats one (a parameter's, c.param, or a dropped key's), had its
// repeat listed before; and notes it listed.
func (c *checker) repeatedAgain(ks, ke int) bool {
	r := &c.v2.repeats
	if c.param >= 0 {
		if !r.paramsInit {
			r.params.init(c.tally.nparams)
			r.paramsInit = true
		}
		return r.params.add(c.param)
	}
	if c.v2.textKeys {
		return c.addText(topTextRepeats, ks, ke)
	}
	c.tableFirstUnknown() // the table, which a dropped key's repeat has made already
	raw := c.data[ks:ke]  // hashed as topKey hashes it, compared as sent (kRaw)
	return c.keyTab.add(c, topRepeats, maphash.Bytes(keySeed, raw), raw, ks, kRaw)
}

// addText adds the text of the key at data[ks:ke] to object obj of the
// checker's key table, and reports whether obj held it.
func (c *checker) addText(obj uint32, ks, ke int) bool {
	var buf [64]byte
	text := keyText(buf[:0], c.data[ks:ke])
	return c.keyTab.add(c, obj, maphash.Bytes(keySeed, text), text, ks, kString)
}

// addRepeat holds the repeat is, where the tally may list it.
func (c *checker) addRepeat(is Issue) {
	r := &c.v2.repeats
	if is.Param < 0 {
		if r.dropped > MaxIssues {
			if is.Kind == AmbiguousArgument {
				r.ambiguousFirst = r.ambiguousFirst || r.moreRepeats == 0 && r.moreAmbiguous == 0
				r.moreAmbiguous++
			} else {
				r.moreRepeats++
			}
			return
		}
		r.dropped++
	}
	if r.buf == nil {
		if r.buf = lastRepeats.Swap(nil); r.buf == nil {
			r.buf = repeatBufs.Get().(*[]Issue)
		}
		c.repeats = (*r.buf)[:0]
	}
	c.repeats = append(c.repeats, is)
}

// repeatsDone hands the list of repeats back to the pool.
func (c *checker) repeatsDone() {
	r := &c.v2.repeats
	if r.buf == nil {
		return
	}
	clear(c.repeats) // the issues' errors and types
	if cap(c.repeats) <= MaxIssues+1+maxPooledRepeatParams {
		*r.buf = c.repeats[:0]
		if !lastRepeats.CompareAndSwap(nil, r.buf) {
			repeatBufs.Put(r.buf)
		}
	}
	r.buf, c.repeats = nil, nil
}

// maxPooledRepeatParams bounds the parameters' repeats a pooled list
// holds past the dropped keys' (a bigger one, of a tool of more
// parameters, is left to the garbage collector).
const maxPooledRepeatParams = 1024

// repeatBufs pools the lists; lastRepeats holds the one put back last, as
// lastKeyTable holds a key table: reused whatever processor the next
// check runs on, and after a garbage collection.
var (
	repeatBufs  = sync.Pool{New: func() any { return new([]Issue) }}
	lastRepeats atomic.Pointer[[]Issue]
)

// droppedFailure lists, under V2, the failure V2 meets at data[at] in
// the value of the top-level member being read, which binds no parameter
// (c.v2.dropKs), where it is that value's first: the trial check decodes
// the value alone, as V2 skips it, and lists InvalidJSON at the byte
// V2's error names, with its error (err), before the member's
// UnknownArgument. It reports whether it was the first.
func (c *checker) droppedFailure(at int, err error) bool {
	if c.v2.dropKs == 0 || c.v2.dropFailed == c.v2.dropKs+1 {
		return false // in no member (the arguments are not an object: NotAnObject), or not the first
	}
	c.v2.dropFailed, c.failed = c.v2.dropKs+1, true
	c.found++
	if !c.tally.admit(c.issues[c.n0:], InvalidJSON, -1) {
		return true
	}
	is := Issue{Kind: InvalidJSON, Param: -1, Start: at, End: at, Err: err}
	if l := len(c.issues); l > c.n0 && c.issues[l-1].Kind == UnknownArgument && c.issues[l-1].Start == c.v2.dropKs {
		c.issues = append(c.issues, c.issues[l-1])
		c.issues[l-1] = is // the trial check lists the value's failure before the key
	} else {
		c.issues = append(c.issues, is)
	}
	return true
}

// v2DroppedText judges, for V2's pass, the string at data[start:c.pos]
// with an escape (esc) or a byte past ASCII (hi) in a value V2 reads but
// does not bind (dropped, or inside a value of the wrong kind it reads
// whole): V2 validates it, and fails on text that is not valid UTF-8
// (invalid bytes, a lone surrogate escape), a syntactic error: in an
// argument, InvalidValue at the string, of no type, the path to it (as
// the trial check's issue for V2's error there); in a value dropped at
// the top level, InvalidJSON at the first invalid byte (droppedFailure).
// Inside a value of the wrong kind V2 fails on at its first token, the
// text is no issue.
func (c *checker) v2DroppedText(start int, esc, hi bool) {
	if c.v2.skim > 0 {
		return
	}
	tok := c.data[start:c.pos]
	if !replacedText(tok, esc, hi) {
		return
	}
	if c.param >= 0 {
		n := len(c.issues)
		c.issue(InvalidValue, nil, start, c.pos)
		if len(c.issues) > n && c.v2.elemAt == start+1 {
			c.issues[n].Type = c.v2.elemTyp // see droppedElem
		}
		return
	}
	var f jsonlex.StringFlags
	if esc {
		f |= jsonlex.Escaped
	}
	if hi {
		f |= jsonlex.NonASCII
	}
	c.droppedFailure(start+jsonlex.ReplacedAt(tok, f), nil)
}

// v2KeyText judges, for V2's pass, the key data[ks:ke] (flags f) of the
// object at data[start] read into position n (root: the arguments) whose
// text is not valid UTF-8 (invalid bytes, a lone surrogate escape),
// which V2 fails on as it reads the name; it returns false where the pass
// declines. The trial check lists, as for a repeated name (v2Repeat),
// InvalidValue at the object holding the key in an argument, with no
// name; InvalidJSON at the first invalid byte inside a value dropped at
// the top level; nothing inside the wrong kind for a position V2 reads
// by its first token. A top-level key it binds to no parameter: its
// UnknownArgument, and, where nothing before it fails (V2 stops there:
// its error is the key's, whatever fails after it), V2's error,
// InvalidJSON at the first invalid byte, after the members' issues
// (v2BadKeyFails). Under other binders it returns false.
func (c *checker) v2KeyText(n *node, root bool, start, ks, ke int, f jsonlex.StringFlags) bool {
	if !c.textKeys {
		return false
	}
	at := ks + jsonlex.ReplacedAt(c.data[ks:ke], f)
	switch {
	case root:
		if c.foldsMore {
			return false
		}
		if i, _ := n.fields.lookup(c.data[ks:ke], f&jsonlex.Escaped != 0); i >= 0 {
			return false // a field named with U+FFFD
		}
		if c.v2.badKs == 0 { // V2 stops at the first
			c.v2.badKs, c.v2.badAt, c.v2.badFirst = ks, at, !c.failed
		}
		return true
	case c.v2.skim > 0:
		return true // V2 failed at the first token of the value holding it
	case n != nil && n.kind != kStruct && n.kind != kMap && n.kind != kAny && !v2ReadsWhole(n.kind):
		return false
	case c.param < 0:
		c.droppedFailure(at, nil)
		return true
	}
	if c.firstFailure() {
		c.v2.dupAt, c.v2.ks, c.v2.ke, c.v2.text = start+1, ks, ke, true
	}
	return true
}

// v2BadKeyFails reports, at the end of V2's pass, whether the trial
// check lists V2's error on a top-level key's text (see v2KeyText):
// nothing failed before the key, V2 stopped there. The call fails, so no
// loss is listed.
func (c *checker) v2BadKeyFails() bool {
	if c.v2.badKs == 0 || !c.v2.badFirst {
		return false
	}
	c.failed = true
	return true
}

// v2BadKeyIssue lists V2's error on a top-level key's text, InvalidJSON
// at its first invalid byte.
func (c *checker) v2BadKeyIssue() {
	c.found++
	if c.tally.admit(c.issues[c.n0:], InvalidJSON, -1) {
		c.issues = append(c.issues, Issue{Kind: InvalidJSON, Param: -1, Start: c.v2.badAt, End: c.v2.badAt})
	}
}

// keyLossesFirst lists, for a proving pass, the losses of the key
// data[ks:ke] of the object read into position n (root: the arguments'),
// its value at vs read into position child, before the value is read: the
// trial check lists a key's losses before what its value holds, text
// replaced (keyLoss: ReplacedText) or a fold (FoldedKey) first, then a
// repeat (keyLoss2: DuplicateKey), and so the tally, past MaxIssues,
// lists and counts what the trial check's does. It returns the codes left
// to list once the value is read: those listed stand as foldListed,
// replacedListed and dupListed; an UnknownField, whose value is read as a
// dropped one first, and V2's repeated top-level name, which V2 fails on
// (nameRepeated), are left as they are.
func (c *checker) keyLossesFirst(n, child *node, root bool, keyLoss, keyLoss2 Code, ks, ke, vs int) (Code, Code) {
	switch keyLoss {
	case FoldedKey:
		c.keyIssue(FoldedKey, childType(child), ks, ke, vs)
		keyLoss = foldListed
	case ReplacedText:
		c.keyIssue(ReplacedText, replacedKeyType(n), ks, ke, vs)
		keyLoss = replacedListed
	}
	if keyLoss2 == DuplicateKey && !(root && c.dupDropped) {
		c.keyIssue(DuplicateKey, childType(child), ks, ke, vs)
		keyLoss2 = dupListed
	}
	return keyLoss, keyLoss2
}

// foldListed stands for FoldedKey once keyLossesFirst has listed it: the
// member is still bound by a fold. dupListed and replacedListed stand for
// DuplicateKey and ReplacedText once it has listed them.
const (
	foldListed     Code = "folded_key (listed)"
	dupListed      Code = "duplicate_key (listed)"
	replacedListed Code = "replaced_text (listed)"
)

// childType is the Go type of position n, nil for none.
func childType(n *node) reflect.Type {
	if n == nil {
		return nil
	}
	return n.typ
}
