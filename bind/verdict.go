package bind

import (
	"bytes"
	"cmp"
	"slices"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The native verdict of V2 and SegmentIO: their one pass (the checker,
// under the binder's rules) gives the verdict of every call whose issues
// are of the classes it models, the same verdict the trial check gives
// (trialPlan.check), and declines every other call to it.
//
// The trial check, when the binder fails, lists in the members' order each
// unknown key (UnknownArgument) and, for each argument, the first failure the
// binder meets decoding its value alone (the binder stops there, or, V2,
// goes on and reports its first), then the MissingArgument parameters; when it
// reads the call, the unknown keys, then what its walk of the values finds
// (the silent losses, UnknownField, a nested struct's MissingField), then the
// MissingArgument parameters. The pass reads the members in the same order and
// keeps, per argument, its first failure; it drops the losses and the
// nested policy issues of a call that fails, and lists a clean one's
// unknown keys first (the tally bounds each class on its own, so the
// order between classes leaves what it lists and counts as it is). So the
// lists are the same when it models every issue of the call; what it
// models:
//
//   - a number its position cannot hold (NotWholeNumber, TooLarge, TooSmall):
//     both binders parse integers whole (segmentio with its own overflow
//     check, see segIntVerdict), and floats with strconv.ParseFloat, as
//     Std does;
//   - a JSON kind its position does not read (WrongType); an array or
//     object of the wrong kind is read for what V2 fails on first inside
//     it (a name repeated in one of its objects, a string with an escape
//     or a byte past ASCII: the pass declines those), a string of the
//     wrong kind must be plain ASCII;
//   - a top-level key the binder binds to no parameter (UnknownArgument), whose
//     value is not a string with an escape or a byte past ASCII; V2
//     validates a dropped value (its UTF-8, its repeated names), which the
//     pass reads for as for a wrong-kind array or object;
//   - a required parameter no key names, or a nested struct's field its
//     object does not name (MissingArgument);
//   - null for a position with no nil (NullForValue), a whole number a float
//     cannot hold exactly (RoundedNumber, as Std: both binders use
//     strconv.ParseFloat), and a key inside a nested struct's object that
//     no field takes (UnknownField, with a plain value as for UnknownArgument,
//     no case:ignore field in the struct, and under V2 not sent twice);
//   - under segmentio, a key repeated in one object (DuplicateKey, the
//     last value kept), where its value holds no issue (the trial check
//     lists the key's first) and the call does not fail (segmentio
//     decodes a repeat into what the value before left). V2 fails on it,
//     with an error refuse reads: the pass declines.
//
//   - arguments that are JSON but not an object (NotAnObject);
//   - nesting past the binder's limit, met before anything the pass
//     declines: the one TooDeep issue, as the trial check gives it (see
//     tooDeep);
//   - under V2, keys with escapes or bytes past ASCII, which V2 binds by
//     their text, where that text is valid UTF-8 (see plainKey).
//
//   - under segmentio, a string value with invalid UTF-8 or a lone
//     surrogate escape, which it replaces with U+FFFD (ReplacedText; V2
//     fails on it, and the pass declines).
//
//   - under segmentio, a fixed-size array sent more elements (dropped) or
//     fewer (left zero) than it has, but none (ArrayLength; segmentio
//     fails on [] there, and V2 reads no other length: the pass declines).
//
//   - under segmentio, a whole number past a 64-bit integer's range whose
//     wrap its overflow check misses, read as another number
//     (WrappedNumber, see segIntVerdict; V2 fails on it, TooLarge).
//
// It declines every kind of issue not listed (FoldedKey among them), and whatever the proving rules decline (see
// rules.prove).

// native runs the one pass of p, a plan mirrored by trial, with checker c
// (zero but for c.record): its verdict appended to issues, and true; or
// false when it declines and the trial check decides.
func (p *Plan) native(c *checker, args []byte, issues []Issue) ([]Issue, bool) {
	c.data, c.binder, c.issues, c.param, c.n0 = args, p.binder, issues, -1, len(issues)
	c.prove, c.depthLimit = true, p.rules.depth
	c.foldsMore, c.dupDropped, c.dottedPaths = p.root.fields.foldsMore, p.rules.dupDropped, p.rules.dottedPaths
	c.dupLoss, c.wrapsInts, c.textKeys = p.rules.dupLoss, p.rules.wrapsInts, p.rules.textKeys
	c.replaces, c.arrays = p.rules.replaces, p.rules.arrays
	c.tally.nparams = len(p.params)
	c.nested = p.nestedStd
	c.run(p.root)
	c.keysDone()
	if c.bad && c.deep && !c.declined {
		return c.tooDeep(issues)
	}
	if c.bad || c.declined || c.failed && c.dups {
		return issues, false
	}
	if c.failed {
		c.onlyFailures()
	} else {
		// The trial check lists the unknown keys first, as it reads the
		// members, then what its walk of the values finds.
		slices.SortStableFunc(c.issues[c.n0:], func(a, b Issue) int {
			return cmp.Compare(unknownLast(a.Kind), unknownLast(b.Kind))
		})
	}
	if !c.notObject {
		for i, req := range p.required {
			if req && !c.rootSeen.has(i) && c.tally.admit(c.issues[c.n0:], MissingArgument, i) {
				c.issues = append(c.issues, Issue{Kind: MissingArgument, Param: i})
			}
		}
	}
	return c.tally.omitted(c.issues), true
}

// tooDeep is the verdict of a call nested past the binder's limit, which
// the pass met before anything it declines: as the trial check's, the one
// TooDeep issue, in the argument whose value holds it (at the value's
// start) or in none (at the bracket), no path, and no member.
func (c *checker) tooDeep(issues []Issue) ([]Issue, bool) {
	if c.param < 0 && c.foldsMore {
		return issues, false // the member's key may bind a case:ignore field
	}
	is := Issue{Kind: TooDeep, Param: c.param, Start: c.badAt, End: c.badAt}
	if c.param >= 0 {
		is.Start = c.argAt
	}
	c.members = bindcap.Members{}
	return append(issues, is), true
}

// prove reports whether the pass of p proves the call clean: its verdict
// is no issue at all.
func (p *Plan) prove(c *checker, args []byte) bool {
	is, ok := p.native(c, args, nil)
	return ok && len(is) == 0
}

// models reports whether the native verdict models issues of kind (see
// above); one it does not model makes the pass decline.
func (c *checker) models(kind Code) bool {
	switch kind {
	case WrongType, NotWholeNumber, TooLarge, TooSmall, UnknownArgument, UnknownField, MissingArgument, MissingField, NullForValue, RoundedNumber, NotAnObject:
		return true
	case DuplicateKey:
		return c.dupLoss
	case ReplacedText:
		return c.replaces // a string value's: keys with such text the pass declines
	case ArrayLength:
		return c.arrays
	case WrappedNumber:
		return c.wrapsInts
	}
	return false
}

// repeatKey checks, for the native verdict, a repeated key whose value
// the pass has just read, found the count of issues before it: the
// trial check lists a key's loss before what the walk of its value finds,
// the pass after, so the two agree when the value held none. It notes the
// repeat: segmentio decodes a repeated key's value into what the one
// before left, so a call that fails may fail only on the pair, which the
// pass declines (see native).
func (c *checker) repeatKey(found int) bool {
	c.dups = true
	return c.found == found
}

// firstFailure reports whether a failure of the binder found now is the
// first in the argument being read: the trial check lists only that one
// (see above). The argument is told by its key's offset.
func (c *checker) firstFailure() bool {
	at := c.steps.arg.ks + 1
	if c.param < 0 || c.failedIn == at {
		return c.param < 0
	}
	c.failedIn, c.failed = at, true
	return true
}

// unknownKey checks, for the native verdict, the top-level key at
// data[ks:ke] that binds no field exactly, whose value is data[vs:c.pos]:
// the binder must bind it to no parameter either (V2's case:ignore fields
// fold; V2 fails on one sent twice), and drop its value without a failure the pass does not read for.
func (c *checker) unknownKey(ks, ke, vs int) bool {
	if c.foldsMore {
		return false // V2 may bind it to a case:ignore field
	}
	if _, f, _ := jsonlex.String(c.data, ks); f&(jsonlex.Escaped|jsonlex.NonASCII) != 0 {
		return false // droppedRepeat compares the keys' raw text
	}
	if c.dupDropped && c.droppedRepeat() {
		return false // V2 fails on the repeated name
	}
	return c.plainDropped(vs)
}

// plainDropped reports whether the dropped value at data[vs] is one the
// binders skip without a failure the pass does not read for: a string of
// plain ASCII, or any other value. V2 validates a dropped value's strings
// (their UTF-8) and its objects' names, which the pass reads for (under
// V2 it declines any escape or byte past ASCII in a dropped string, and a
// name repeated in a dropped object).
func (c *checker) plainDropped(vs int) bool {
	switch jsonlex.KindAt(c.data, vs) {
	case jsonlex.KindString:
		_, f, _ := jsonlex.String(c.data, vs)
		return f&(jsonlex.Escaped|jsonlex.NonASCII) == 0
	}
	return true
}

// pathKey notes, for a binder whose errors give a dotted path, whether
// the key at data[ks:ke] of the member an object reads now is one such a
// path loses (empty, or holding a dot): a failure below it the pass
// declines. odd is the object's note for its member before.
func (c *checker) pathKey(odd *bool, ks, ke int) {
	if *odd {
		c.oddKeys--
	}
	*odd = ke-ks == 2 || bytes.IndexByte(c.data[ks:ke], '.') >= 0
	if *odd {
		c.oddKeys++
	}
}

// droppedRepeat reports whether the dropped top-level key just read
// (plain text: its bytes are its name) was sent before: topKey told it,
// from the checker's key table.
func (c *checker) droppedRepeat() bool { return c.top.repeat }

// unknownLast orders UnknownArgument issues before the others.
func unknownLast(k Code) int {
	if k == UnknownArgument {
		return 0
	}
	return 1
}

// onlyFailures leaves, of the issues the pass found in a call the binder
// fails on, what the trial check lists then: the failures and the unknown
// keys, in their order, and the counts of those past MaxIssues. The
// losses and the policy issues below the top level it lists only for a
// call the binder reads.
func (c *checker) onlyFailures() {
	kept := c.issues[:c.n0]
	for _, is := range c.issues[c.n0:] {
		if is.Kind == UnknownArgument || is.Kind.Class() == BinderFailure {
			kept = append(kept, is)
		}
	}
	c.issues = kept
	c.tally.keepCounts(func(k omitKey) bool {
		return k.kind == UnknownArgument || k.kind.Class() == BinderFailure
	})
}

// unknownField checks, for the native verdict, the key at data[ks:ke] of
// an object read into struct node n that binds no field exactly, whose
// value is data[vs:c.pos]: the binder must bind it to no field either
// (V2's case:ignore fields fold; V2 fails on a name sent twice in one
// object), and drop its value without a failure the pass does not read
// for (see unknownKey).
func (c *checker) unknownField(n *node, keys *keySet, ks, ke, vs int) bool {
	if n.fields.foldsMore || c.dupDropped && c.repeated(keys, kString, ks, ke) {
		return false
	}
	return c.plainDropped(vs)
}

// segIntVerdict judges a positive whole number of 20 digits or more (no
// sign, fraction or exponent, no leading zero) for an integer type of the
// given size as segmentio v0.5.4 (as v0.3.5) reads it (parseInt,
// parseUint, then decodeInt8...): digit by digit, in wrapping 64-bit
// arithmetic, failing only where the next value is below the last. Where
// that check misses the wrap and the value fits the type, segmentio reads
// another number without error: WrappedNumber, a silent loss. Since the
// values it reads never decrease and a wrap needs one of 2^64/10 or more,
// a wrapped value is always past the largest 32-bit one: only the 64-bit
// kinds (int, int64, uint, uint64, uintptr, and time.Duration from a
// number) ever read one; the smaller ones fail (TooLarge). Shorter
// numbers and negative ones it reads exactly (its negative path checks
// before each step), as it does 20 digits up to 18446744073709551615 into
// a uint64.
func segIntVerdict(digits []byte, bits int, signed bool) Code {
	v, ok := segWrap(digits, signed)
	switch {
	case !ok:
		return TooLarge
	case signed && bits < 64 && v > 1<<(bits-1)-1, !signed && bits < 64 && v>>bits != 0:
		return TooLarge
	case intVerdict(false, digits, bits, signed) != "":
		return WrappedNumber // the number is past the type, its wrap is not
	}
	return ""
}

// segWrap returns the value segmentio's parseInt (signed) or parseUint
// reads for the whole number digits (no sign), and false where it fails on
// it (its overflow check catches the wrap).
func segWrap(digits []byte, signed bool) (uint64, bool) {
	var v uint64
	for _, ch := range digits {
		next := v*10 + uint64(ch-'0')
		if signed && int64(next) < int64(v) || !signed && next < v {
			return 0, false
		}
		v = next
	}
	return v, true
}

// segWrapped reports whether segmentio reads the text of a number (a
// JSON number, a ,string field's text with its leading zeros trimmed as
// segmentio trims them, a map key) into an integer type of the given size
// as another number (see segIntVerdict).
func segWrapped(text []byte, bits int, signed bool) bool {
	if len(text) < 20 || text[0] < '1' || text[0] > '9' {
		return false
	}
	for _, ch := range text {
		if ch < '0' || ch > '9' {
			return false
		}
	}
	return segIntVerdict(text, bits, signed) == WrappedNumber
}

// plainKey reports, for a key at data[ks:ke] with an escape (esc) or a
// byte past ASCII (hi), whether the pass reads it as the binder does: V2
// binds a key by its text, unquoted, and fails on one whose text is not
// valid UTF-8 (invalid bytes, a lone surrogate escape), which the pass
// declines. For segmentio it declines every such key.
func (c *checker) plainKey(ks, ke int, esc, hi bool) bool {
	return c.textKeys && !replacedText(c.data[ks:ke], esc, hi)
}
