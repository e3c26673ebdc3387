package bind

import (
	"cmp"
	"reflect"
	"slices"
	"time"

	"github.com/bindguard/bindguard/internal/decoders"
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
//     it (a name repeated in one of its objects, see v2Repeat; a string's
//     invalid text, see v2DroppedText); a string of the wrong kind is
//     WrongType whatever its text, but V2's failure on invalid text (see
//     textVerdict);
//   - a top-level key the binder binds to no parameter (UnknownArgument),
//     whatever its value: segmentio skips a dropped string of any text,
//     checking its syntax only (see plainDropped); V2 validates a dropped
//     value (its UTF-8, its repeated names), which the pass reads for
//     (v2DroppedText, v2Repeat);
//   - a required parameter no key names, or a nested struct's field its
//     object does not name (MissingArgument);
//   - null for a position with no nil (NullForValue), a whole number a float
//     cannot hold exactly (RoundedNumber, as Std: both binders use
//     strconv.ParseFloat), and a key inside a nested struct's object that
//     no field takes (UnknownField, with a plain value as for UnknownArgument,
//     no two case:ignore fields of the struct folding alike);
//   - under segmentio, a key repeated in one object (DuplicateKey, the
//     last value kept, in a call that does not fail), listed before what
//     its value holds, as the trial check lists it (keyLossesFirst); in a
//     call that fails, each argument's first failure, in whichever value
//     of the key it lies: segmentio reads a map's and an any's values
//     into a fresh element, and a struct's field sent again into what the
//     value before left, which fails where that value alone would, but
//     for a field of a type segFresh does not take (a named interface, a
//     type of its own methods, a list or a struct of them), whose value
//     sent again may fail only after the one before, or not: the pass
//     asks segmentio whether it reads such a call, and declines it where
//     it does not, or where the pass finds a failure (see fieldAgain).
//   - under V2, a top-level key repeated (a parameter bound again, a
//     dropped name sent again), which V2 fails on: after the members'
//     failures and unknown keys, each name repeated once, InvalidValue
//     in its argument or InvalidJSON, with V2's ErrDuplicateName, which
//     refuse words (see nameRepeated; any number of names).
//   - under V2, a name repeated inside a value, which V2 fails on as it
//     reads the name: InvalidValue at the object holding it, in an
//     argument, with V2's error naming the name, which refuse reads;
//     InvalidJSON at the name, in a dropped value (see v2Repeat).
//
//   - under V2, a key no field names exactly that binds a case:ignore
//     field by V2's fold (FoldedKey, see lookupV2), listed before what its
//     value holds, as the trial check lists it (see keyLossesFirst); a
//     key of the fold two case:ignore fields of one struct share the pass
//     declines (see sharedFold);
//   - arguments that are JSON but not an object (NotAnObject);
//   - arguments that are not JSON (InvalidJSON), met before anything the
//     pass declines: the one issue, at the first byte that makes the text
//     invalid (see notJSON; under segmentio, TooDeep where the text nests
//     past go-sdk's limit after it), with, under V2, V2's error where it is a
//     repeated name met before anything else fails (see v2First), which
//     refuse words as one;
//   - nesting past the binder's limit, met before anything the pass
//     declines: the one TooDeep issue, as the trial check gives it (see
//     tooDeep; its error as for text that is not JSON);
//   - keys with escapes or bytes past ASCII, which both binders bind by
//     their text, where that text is valid UTF-8 (see plainKey; under V2
//     but a dropped one). A failure below a key of any text segmentio's
//     dotted path names as the trial check follows it (judgeFor): a key
//     of a struct's object binds a field by its whole text, a dot in it
//     or not, and the members it names alike are told apart by the first
//     whose value fails alone.
//
//   - a string value with invalid UTF-8 or a lone surrogate escape, read
//     into a position: segmentio replaces the text with U+FFFD
//     (ReplacedText); V2 fails on it, whatever the position's kind
//     (InvalidValue at the string, as the trial check gives V2's
//     syntactic error; see textVerdict), and in a value it drops or reads
//     whole for a wrong kind (InvalidValue at the string, of no type, in
//     an argument; InvalidJSON at the first invalid byte in a value
//     dropped at the top level; see v2DroppedText). In a key, segmentio
//     binds the replaced text (see segKeyText: the pass declines a field
//     it binds); V2 fails on it as on a repeated name (see
//     v2KeyText), at the top level on the first such key, which is no
//     name: no key repeats it, nor does it repeat one (see v2Dropped).
//
//   - under segmentio, a fixed-size array sent more elements (dropped) or
//     fewer (left zero) than it has, but none (ArrayLength); [] for an
//     array of one element or more it fails on (decodeArray hands the
//     element's decoder the ']': a syntax error, which names no path,
//     InvalidValue at the argument's value, see segArgFailed), and a [0]T
//     it reads; under V2, which fails on
//     any other length, InvalidValue at the array (see v2Array; where the
//     argument's first failure is inside the array, that failure, as V2
//     stops there; in an element past its length, which V2 skips
//     validating it, that failure typed as the trial check types it:
//     by the array's element at the element itself, of no type inside
//     one of a scalar or empty interface type, and inside one of any
//     other type the pass declines).
//
//   - under segmentio, a whole number past a 64-bit integer's range whose
//     wrap its overflow check misses, read as another number
//     (WrappedNumber, see segIntVerdict; V2 fails on it, TooLarge).
//
//   - under segmentio, a time.Duration's value (see durationText): a
//     whole number read as an int64 (WrappedNumber where it wraps), a
//     string time.ParseDuration takes, no escape in it; InvalidValue for
//     any other number or string, as decodeDuration fails on them.
//
//   - under segmentio, a map of integer keys (see segkeys.go): a key is
//     read as a ,string integer, "null" (0: NullForValue at the key) or
//     a JSON integer in the key type's range, space after it, 20 digits
//     or more as parseInt wraps them (WrappedNumber at the key); on any other segmentio fails,
//     InvalidValue at the argument's value, wherever the map is in it; a
//     failure in a value of such a map whose key's text is not the
//     integer read (segmentio's error names the key by the integer) the
//     pass declines.
//
//   - under segmentio, a ,string field's value (see segstring.go): the
//     losses of one it reads (NullForValue, RoundedNumber, WrappedNumber,
//     ReplacedText); a failure of an argument's own at the value, of the
//     kind the trial check reads from its text, of one inside an argument
//     at the field (segmentio's UnmarshalTypeError, see segQuotedTyped)
//     or at the argument's value, InvalidValue (any other error, which
//     names no path: segArgFailed); text with a control character where
//     segmentio's verdict depends on the whole text's bytes the pass
//     declines.
//
//   - under segmentio, a json.Number's value (a JSON number; WrongType
//     for any other, NullForValue for null), a raw value's (any), and a
//     []byte's (see segtypes.go): base64 in a string, InvalidValue at the
//     argument's value where the text is not base64 (base64's error names
//     no path), or a list of bytes read as uint8s, null left zero.
//
//   - under V2, the options and types it reads by rules of its own (see
//     v2options.go): a ,string integer or float (its text a JSON number
//     in the type's range; below an argument's value every failure is
//     WrongType, as the trial check judges it), a ,string field of any
//     other kind and a time.Duration with no format: option (V2 fails on
//     every value: InvalidValue), a [N]byte or []byte (base64, of N bytes
//     for an array),
//     json.Number (a string type to go-json-experiment), jsontext.Value,
//     a map of integer keys (a key as a ,string integer, InvalidKey at
//     any other, see v2Key; V2 skips its value, which the pass reads as a
//     dropped one, declining where it repeats a name or holds invalid
//     text);
//     under GOEXPERIMENT=jsonv2, the format: options the standard
//     library's v2 reads natively for bytes (base64, base64url, base32,
//     base32hex, base16, hex; array for a [N]byte) and floats
//     (nonfinite: "NaN", "Infinity", "-Infinity" too).
//
//   - under both, a value of a type that decodes itself, which the binder
//     decodes alone (see selfdec.go): the losses the loss walk
//     finds in it, or its failure where the trial check places it.
//
// It declines every kind of issue not listed, and whatever the proving
// rules decline (see rules.prove).

// durationString reads the string at data[start:c.pos] into Duration
// position n (rules.durations): InvalidValue unless segmentio's
// decodeDuration reads it.
func (c *checker) durationString(n *node, start int, esc bool) bool {
	if c.param >= 0 && c.failedIn == c.steps.arg.ks+1 {
		return true // the binder stopped at the argument's first failure: no error built past it
	}
	if !durationText(c.data[start+1:c.pos-1], esc) {
		c.issue(InvalidValue, n, start, c.pos)
	}
	return true
}

// durationText reports whether segmentio's decodeDuration reads a
// Duration from the JSON string whose text between the quotes is s, esc
// when it holds an escape. It parses, with time.ParseDuration, the raw
// bytes up to the first quote: an escape leaves a backslash there, which
// no duration holds, and the bytes are not checked as UTF-8 first.
func durationText(s []byte, esc bool) bool {
	if esc {
		return false
	}
	_, err := time.ParseDuration(unsafeString(s))
	return err == nil
}

// native runs the one pass of p, a plan mirrored by trial, with checker c
// (zero but for c.record): its verdict appended to issues, and true; or
// false when it declines and the trial check decides.
func (p *Plan) native(c *checker, args []byte, issues []Issue) ([]Issue, bool) {
	c.data, c.binder, c.issues, c.param, c.n0 = args[:len(args):len(args)], p.binder, issues, -1, len(issues) // no read past args (see nextSlot.named)
	c.prove, c.depthLimit = true, p.rules.depth
	c.foldsMore, c.dupDropped = p.root.fields.foldsMore, p.rules.dupDropped
	c.dupLoss, c.wrapsInts, c.textKeys = p.rules.dupLoss, p.rules.wrapsInts, p.rules.textKeys
	c.replaces, c.arrays, c.durations = p.rules.replaces, p.rules.arrays, p.rules.durations
	c.jsonKeys = p.rules.jsonKeys
	c.v2Keys = p.rules.v2Keys
	c.tally.nparams = len(p.params)
	c.nested = p.nestedStd
	c.run(p.root)
	c.keysDone()
	if len(c.repeats) > 0 && (c.bad || c.tally.listed[classPolicy]+len(p.params) >= MaxIssues) {
		// Past MaxIssues, whether the tally lists the MissingArgument
		// issues depends on what it listed of their class before (the
		// trial check: nothing, in a call that fails). In text that is
		// not JSON, the verdict is the text's (below).
		c.repeatsDone()
		if !c.bad {
			return issues, false
		}
	}
	if c.bad && c.deep && !c.declined {
		return c.tooDeep(issues, c.badAt)
	}
	if c.bad && c.self.composite {
		// V2 reads the names inside an object or array it hands a type's
		// method first, so which error of the call's its whole decode
		// meets first is not the one value's decode (FuzzNative's
		// 0a9ea24ba8930f86, in the GOEXPERIMENT=jsonv2 build).
		return issues, false
	}
	if c.bad && !c.declined {
		return p.notJSON(c, issues)
	}
	if c.clean && (c.failed || c.segPrint.hidden) {
		return issues, false // the binder reads the call: the trial check decides
	}
	if c.bad || c.declined || c.staleDups && !c.clean && (c.failed || c.segPrint.hidden || !c.reads(p, args)) {
		// A struct's field sent again, of a type whose value segmentio may
		// fail on in what the value before left and not alone (see
		// fieldAgain): where the binder reads the call, the pass's verdict
		// (the losses, read from the text) stands; where it fails, the
		// trial check places the failure.
		return issues, false
	}
	badKey := c.v2BadKeyFails()
	if len(c.repeats) > 0 {
		c.listRepeats()
	} else if c.failed || c.segPrint.hidden { // v2BadKeyFails may set failed
		c.onlyFailures()
		if !c.failed && c.tally.admit(c.issues[c.n0:], InvalidJSON, -1) {
			// segmentio fails on the call, and reads each argument alone
			// (see segQuotedControl): the trial check's failure in none.
			c.issues = append(c.issues, Issue{Kind: InvalidJSON, Param: -1})
		}
	} else if len(c.issues)-c.n0 > 1 && !unknownsFirst(c.issues[c.n0:]) {
		// The trial check lists the unknown keys first, as it reads the
		// members, then what its walk of the values finds.
		slices.SortStableFunc(c.issues[c.n0:], func(a, b Issue) int {
			return cmp.Compare(unknownLast(a.Kind), unknownLast(b.Kind))
		})
	}
	if badKey {
		c.v2BadKeyIssue()
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

// reads reports whether p's binder decodes args into the tool's struct
// without an error (under recovery: a panic is one), as the trial check's
// decode, and keeps the decode's verdict in c (decodeErr) for the check
// of a call the pass then declines (declinedCheck): the call is decoded
// once.
func (c *checker) reads(p *Plan, args []byte) bool {
	c.decoded, c.decodeErr = true, p.trial.decode(args)
	return c.decodeErr == nil
}

// tooDeep is the verdict of a call nested past the binder's limit at
// data[at], which the pass met before anything it declines: as the trial
// check's, the one TooDeep issue, in the argument whose value holds it
// (at the value's start) or in none (at the bracket), no path, and no
// member.
func (c *checker) tooDeep(issues []Issue, at int) ([]Issue, bool) {
	is := Issue{Kind: TooDeep, Param: c.param, Start: at, End: at, Err: c.v2FirstErr()}
	if c.param >= 0 {
		is.Start = c.argAt
	}
	c.clearMembers() // the verdict is not the renamed call's: refuse reads it again
	return append(issues, is), true
}

// clearMembers leaves the members recorded none, but for AliasBound, and
// hands back the room they took.
func (c *checker) clearMembers() {
	if !c.record {
		return
	}
	ab := c.members.AliasBound
	c.members.Reset()
	c.members.AliasBound = ab
}

// nameRepeated notes, under V2, the top-level key at data[ks:ke] that
// repeats a name of the arguments: one that binds a parameter a key
// before bound (exactly or by a fold; c.param), or a dropped key sent
// before (c.param < 0). V2 fails on it, as it reads the name, and stops
// there; the trial check then lists (see v2Mirror.keyIssues), after the
// members' issues, each name repeated once, at its second key: for a
// parameter, InvalidValue in that argument, the path to it; for a
// dropped key, InvalidJSON in none; each with V2's ErrDuplicateName,
// which refuse words (DuplicateName). It returns "": the repeat is no
// DuplicateKey loss. Each name is told listed in constant time, and the
// pass holds the repeats the tally may list (see v2Repeats.add).
func (c *checker) nameRepeated(ks, ke int) Code {
	if c.repeatedAgain(ks, ke) {
		return "" // a name repeated again: listed once
	}
	is := Issue{Kind: InvalidJSON, Param: -1, Start: ks, End: ke, Err: decoders.V2.ErrDuplicateName}
	if c.param >= 0 {
		is.Kind, is.Param, is.Path = InvalidValue, c.param, argPath(c.data, ks, ke)
	}
	c.addRepeat(is)
	c.failed = true
	return ""
}

// listRepeats leaves, of the issues the pass found in a call with names
// V2 fails on repeated at the top level, what the trial check lists then:
// V2 reports its first error, a failure or a repeat, and the trial check
// decodes alone each value from that member on (so every failure the pass
// lists, each argument's first), lists the unknown keys, and then the
// repeats (see nameRepeated), through the tally after the failures (past
// MaxIssues it counts a repeat in an argument whose failure it listed).
func (c *checker) listRepeats() {
	c.onlyFailures()
	for _, r := range c.repeats {
		if c.tally.admit(c.issues[c.n0:], r.Kind, r.Param) {
			c.issues = append(c.issues, r)
		}
	}
	r := &c.v2.repeats
	more := [2]struct {
		kind Code
		n    int
	}{{InvalidJSON, r.moreRepeats}, {AmbiguousArgument, r.moreAmbiguous}}
	if r.ambiguousFirst {
		more[0], more[1] = more[1], more[0]
	}
	for _, m := range more { // past what it may list: counted, each kind as the trial check first meets it
		for range m.n {
			c.tally.admit(c.issues[c.n0:], m.kind, -1)
		}
	}
	c.repeatsDone()
}

// notJSON is the verdict of a call that is not JSON, which the pass met
// before anything it declines: as the trial check's, the one InvalidJSON
// issue at the first byte that makes the text invalid (the trial check's
// scan finds the same byte; the binder's own error places it otherwise
// where it checks UTF-8 first, V2, which the verdict does not follow), in
// no argument, and no member. Under segmentio, go-sdk first refuses text
// nested past its limit anywhere, valid or not (rules.textDepth): TooDeep
// at the first bracket past it, in the argument the trial check's scan
// finds it in (the one whose value the failure cut). Under V2, which stops at its first error,
// the binder's error is a repeated name where V2 meets one before
// anything else fails, which refuse tells from the text that is not JSON
// (DuplicateName): the issue carries it (v2First). The pass judges each
// name as V2 reads it, before its value: a member's key whose value is
// cut or whose colon is missing (keyCut) too, and an array or object
// where V2 wants a name, which it reads whole (nameCut).
func (p *Plan) notJSON(c *checker, issues []Issue) ([]Issue, bool) {
	c.clearMembers() // as tooDeep's
	if p.rules.textDepth {
		if at := jsonlex.DeepAt(c.data, p.rules.depth); at >= 0 {
			// Past the failure (the pass met no such nesting before it),
			// in the argument whose value the failure cut, if any.
			return c.tooDeep(issues, at)
		}
	}
	return append(issues, Issue{Kind: InvalidJSON, Param: -1, Start: c.badAt, End: c.badAt, Err: c.v2FirstErr()}), true
}

// namedInterface reports whether n is the position of an empty interface
// of a name of its own (not any).
func namedInterface(n *node) bool {
	return n != nil && n.kind == kAny && n.typ != nil && n.typ != anyNode.typ
}

// nameCut is Check's failure where a member name of an object should
// start and does not. Where V2 decodes the object member by member
// (decoded: a struct's, a map's, or an empty interface's of a name of its
// own, which V2 reads as a map; not any's, which it reads whole, nor one
// inside a value it skips) and an array or object stands there, V2 reads
// that whole, as a value it skips, before it fails on it being no name:
// under V2's pass, so does the pass, for the name repeated in it that
// V2's error may be (v2First); the verdict stays the text's failure at
// the name.
func (c *checker) nameCut(decoded bool) bool {
	at := c.pos
	c.fail(at)
	if c.prove && c.dupDropped && decoded {
		switch jsonlex.KindAt(c.data, at) {
		case jsonlex.KindObject, jsonlex.KindArray:
			if c.param < 0 {
				c.v2.dropKs = at // the value's failures are a dropped member's (droppedFailure)
			}
			c.value(nil)
		}
	}
	return false
}

// keyCut is Check's failure on the key data[ks:ke] (esc, hi: the lexer's
// facts of it) of the object at data[start], read into position n
// (wrong: of another kind; dropRepeats: one V2 reads for repeated names,
// but does not bind), not followed by a colon; fields and keys are what
// the object's members bound and held before it (root: the arguments').
// V2 fails on a name that repeats one of its object's as it reads the
// name, before the colon: under V2's pass the key is judged as object
// judges one followed by its value (v2First), apart from object's loop,
// so that a call with its colons pays nothing for it.
func (c *checker) keyCut(n *node, root, wrong, dropRepeats bool, fields *fieldBits, keys *keySet, start, ks, ke int, esc, hi bool) bool {
	c.fail(c.pos)
	if !c.prove || !c.dupDropped {
		return false
	}
	plain := !esc && !hi
	switch {
	case dropRepeats:
		if c.repeatedKey(keys, kString, ks, ke, plain) && !c.v2Repeat(n, start, ks, ke) {
			return c.decline()
		}
	case wrong || n == nil:
	case n.kind == kStruct:
		i, _ := n.fields.lookupKey(c.data[ks:ke], esc, hi)
		switch {
		case i >= 0:
			if fields.add(i) {
				c.boundAgain(n, root, start, ks, ke)
			}
		case n.fields.foldsMore && n.fields.sharedFold(c.data[ks:ke], esc, hi):
			return c.decline()
		case root:
			switch {
			case !c.topKey(ks, ke, i, esc, hi):
				return false
			case c.top.alias: // an alias bound (TopKeys.BindAliases)
				if fields.add(c.top.param) {
					c.boundAgain(n, root, start, ks, ke)
				}
			default:
				c.v2Dropped(ks, ke)
			}
		default:
			c.unknownName(n, keys, start, ks, ke)
		}
	case n.kind == kAny || n.kind == kMap && n.key == kString && !n.tkey:
		if c.repeatedKey(keys, kString, ks, ke, plain) {
			c.boundAgain(n, false, start, ks, ke)
		}
	default:
		return c.decline() // a map of keys V2 reads otherwise: the trial check decides
	}
	return false
}

// models reports whether the native verdict models issues of kind (see
// above); one it does not model makes the pass decline.
func (c *checker) models(kind Code) bool {
	switch kind {
	case WrongType, NotWholeNumber, TooLarge, TooSmall, UnknownArgument, UnknownField, MissingArgument, MissingField, NullForValue, RoundedNumber, NotAnObject:
		return true
	case FoldedKey:
		return true // V2's case:ignore folds (lookupV2); segmentio binds exact names only
	case DuplicateKey:
		return c.dupLoss
	case ReplacedText:
		return c.replaces // a string value's: keys with such text the pass declines
	case InvalidValue:
		// V2's failure on a string value's invalid text (textVerdict);
		// segmentio's on a Duration's value (durationText) and on a map
		// of integer keys (segKey).
		return !c.replaces || c.durations || c.jsonKeys
	case InvalidKey:
		return c.v2Keys // V2's failure on a key of an integer map (v2Key)
	case ArrayLength:
		return c.arrays
	case WrappedNumber:
		return c.wrapsInts
	}
	return false
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
// data[ks:ke] that binds no field, exactly or by V2's fold, whose value is
// data[vs:c.pos]: the binder binds it to no parameter either (a key two
// case:ignore fields fold to the pass declines as it reads it: see
// sharedFold; V2 fails on one sent twice), and must drop its value
// without a failure the pass does not read for.
func (c *checker) unknownKey(ks, ke, vs int) bool {
	if c.dupDropped && c.top.repeat { // judged before the value (v2Dropped)
		c.nameRepeated(ks, ke) // V2 fails on the repeated name
	}
	return c.plainDropped(vs)
}

// plainDropped reports whether the dropped value at data[vs] is one the
// binders skip without a failure the pass does not read for: a string of
// plain ASCII, or any other value. V2 validates a dropped value's strings
// (their UTF-8) and its objects' names, which the pass reads for
// (v2DroppedText; a name repeated in a dropped object is v2Repeat's).
// segmentio's parseValue skips a dropped string checking its syntax only,
// as the lexer does (any byte past ASCII, valid UTF-8 or not, any escape,
// a lone surrogate too), and replaces nothing in it: the loss
// walk lists no loss in it, so any dropped string is plain to it.
func (c *checker) plainDropped(vs int) bool {
	if c.dupDropped {
		return true // V2's pass read the value's text as V2 does (v2DroppedText)
	}
	if c.replaces {
		return true // segmentio's: see above
	}
	switch jsonlex.KindAt(c.data, vs) {
	case jsonlex.KindString:
		_, f, _ := jsonlex.String(c.data, vs)
		return f&(jsonlex.Escaped|jsonlex.NonASCII) == 0
	}
	return true
}

// droppedRepeat reports whether the dropped top-level key just read,
// data[ks:ke], was sent before, as V2 tells it (and the trial check): by
// its text. topKey told it from the checker's key table by its bytes as
// sent, which are its text but for an escape. From the first escaped one
// on, each dropped key is told by its text (topText), the keys before it
// copied there, and so is each repeat listed (see repeatedAgain).
func (c *checker) droppedRepeat(ks, ke int) bool {
	if !c.top.escaped && !c.v2.textKeys {
		return c.top.repeat
	}
	return c.textRepeat(ks, ke)
}

// textRepeat is droppedRepeat's by the key's text.
func (c *checker) textRepeat(ks, ke int) bool {
	if !c.v2.textKeys {
		c.v2.textKeys = true
		c.tableFirstUnknown()
		c.keyTab.byText(c, topObj, topText, ks)
		c.keyTab.byText(c, topRepeats, topTextRepeats, -1)
	}
	return c.addText(topText, ks, ke)
}

// unknownsFirst reports whether issues list every unknown key before any
// other issue: sorted by unknownLast already, as most calls' are (sorting
// them costs a copy of two issues a comparison).
func unknownsFirst(issues []Issue) bool {
	for i := 1; i < len(issues); i++ {
		if unknownLast(issues[i].Kind) < unknownLast(issues[i-1].Kind) {
			return false
		}
	}
	return true
}

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
// an object read into struct node n that binds no field, exactly or by
// V2's fold, whose value is data[vs:c.pos]: the binder binds it to no
// field either (see unknownKey), and must drop its value without a
// failure the pass does not read for.
func (c *checker) unknownField(n *node, keys *keySet, ks, ke, vs int) bool {
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

// v2Array judges, for V2, the fixed-size array of node n just read at
// data[start:c.pos], sent elements: V2 fails on another length, too few
// or too many (a semantic error once the array is read, which the trial
// check gives as InvalidValue at the array, in its type, the path to it).
// V2 reads the elements in order and stops at the first failure (every
// error is fatal to it), so where the argument's first failure was
// listed inside the array (failedIn is the argument failed before the
// array, headFailed once the elements it holds were read) it never
// reaches the length: that failure is the verdict. An element past the
// length V2 skips (jsontext validates it: its text's UTF-8, its objects'
// repeated names), which the pass reads as a dropped value: where the
// argument's first failure is in one (at data[pastAt]), that failure
// (see v2Past). It returns false when it declines.
func (c *checker) v2Array(n *node, start, sent, failedIn, headFailed, pastAt int) bool {
	switch {
	case sent == n.length:
		return true
	case headFailed != failedIn:
		return true // V2 stopped at the argument's first failure, in an element the array holds
	case c.failedIn != failedIn:
		return c.v2Past(n, pastAt) // in an element past its length
	}
	c.issue(InvalidValue, n, start, c.pos)
	return true
}

// v2Past types, as the trial check does, the failure the pass listed in
// the element at data[pastAt] past the length of fixed-size array n,
// which it read as a dropped value (InvalidValue of no type, the path to
// the string or the object V2 fails in): the trial check follows V2's
// error's path by the Go types, so one at the element itself is of the
// array's element type (its pointers taken off), and one inside it of no
// type where that type has no fields or elements (a scalar, an empty
// interface); inside an element of any other type, or one that decodes
// itself (the trial check stops its path there), the pass declines. Past
// MaxIssues (the failure counted, not listed) its type is no matter.
func (c *checker) v2Past(n *node, pastAt int) bool {
	et := n.typ.Elem()
	for et.Kind() == reflect.Pointer && !v2Custom(et) {
		et = et.Elem()
	}
	if v2Custom(et) || pastAt < 0 {
		return c.decline()
	}
	for i := len(c.issues) - 1; i >= c.n0; i-- {
		if is := &c.issues[i]; is.Param == c.param && is.Kind == InvalidValue && is.Start >= pastAt {
			if is.Start == pastAt {
				is.Type = et
				return true
			}
			break
		}
	}
	switch et.Kind() {
	case reflect.Struct, reflect.Slice, reflect.Array, reflect.Map:
		return c.decline()
	}
	return true
}

// textVerdict judges, for a proving pass, the string value at
// data[start:c.pos] with an escape (esc) or a byte past ASCII (hi), read
// into a position (not dropped), which the checker judged kind: where its
// text is not valid UTF-8 (invalid bytes, a lone surrogate escape), V2,
// which reads the string before it looks at the position's kind, fails
// on it (a syntactic error the trial check gives as InvalidValue at the
// string, in the position's type), and segmentio replaces it
// (ReplacedText, kind already). A string of the wrong kind is the wrong
// kind whatever its text is (WrongType, kind already): segmentio's
// inputError reads it whole first (parseValue, which takes any escape
// the lexer does and any bytes), then fails on its kind; V2 on its kind
// once it has read valid text.
func (c *checker) textVerdict(kind Code, start int, esc, hi bool) Code {
	if !c.replaces && replacedText(c.data[start:c.pos], esc, hi) {
		return InvalidValue
	}
	return kind
}

// lookupV2 returns the field the key (its text) binds by V2's case:ignore
// folding, as V2 binds a name no field has exactly: the one case:ignore
// field whose name folds alike (a fold two fields share is left out, and
// the pass declines a key of it: sharedFold), and true; or -1.
func (fs *fieldSet) lookupV2(key []byte) (int, bool) {
	if fs.v2folded == nil {
		return -1, false
	}
	var fb [64]byte
	i, ok := fs.v2folded[string(appendV2Fold(fb[:0], key))]
	if !ok || i < 0 {
		return -1, false // no fold, or one shared (see sharedFold)
	}
	return i, true
}

// sharedFold reports whether the key raw (esc, hi: the lexer's facts of
// it), which no field of fs names exactly nor binds by a fold of one,
// folds as V2 folds (case:ignore) to a name two or more case:ignore
// fields share: V2 fails on it (go-json-experiment) or binds the first
// (GOEXPERIMENT=jsonv2), which the pass does not model. Any other key
// such a struct is sent binds what it binds elsewhere, or none.
func (fs *fieldSet) sharedFold(raw []byte, esc, hi bool) bool {
	var buf, fb [64]byte
	key := raw[1 : len(raw)-1]
	if esc || hi {
		key, _ = jsonlex.Unquote(buf[:0], raw)
	}
	i, ok := fs.v2folded[string(appendV2Fold(fb[:0], key))]
	return ok && i < 0
}

// plainKey reports, for a key at data[ks:ke] with an escape (esc) or a
// byte past ASCII (hi), whether the pass reads it as the binder does:
// both bind a key by its text, unquoted (segmentio's parseStringUnquote,
// its keyset or map of names and its length check), where that text is
// valid UTF-8. V2 fails on a key whose text is not (invalid bytes, a lone
// surrogate escape; see v2KeyText), segmentio replaces it: segKeyText
// reads segmentio's.
func (c *checker) plainKey(ks, ke int, esc, hi bool) bool {
	return (c.textKeys || c.replaces) && !replacedText(c.data[ks:ke], esc, hi)
}
