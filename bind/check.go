package bind

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/maphash"
	"math"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// An Issue is one thing the binder fails on, drops (UnknownArgument,
// UnknownField) or changes without a word (the losses), or a required
// parameter (MissingArgument) or nested field (MissingField) the arguments
// leave out.
type Issue struct {
	// Kind is what is wrong, as the code package refuse publishes for it
	// (see Code): refuse takes it as it is, but for the two codes bind
	// does not tell (NotOneOf, DuplicateName; see their documentation).
	Kind Code
	// Of is, for Omitted, the code of the issues it counts.
	Of Code
	// Param indexes Plan.Params: the argument the issue is in (for
	// MissingArgument, the parameter left out), or -1 when it is in none
	// (InvalidJSON, NotAnObject, UnknownArgument).
	Param int
	// Start and End delimit the offending text in the arguments: the value;
	// the key, for UnknownArgument, UnknownField, FoldedKey, DuplicateKey,
	// InvalidKey, and ReplacedText in a key. For InvalidJSON, Start is the
	// offset of the first byte that makes the text invalid. For
	// MissingArgument, both are 0 (or span the null sent); for
	// MissingField, they span the object that leaves the field out, and
	// Path ends at the field.
	Start, End int
	// Path leads to the offending value: its String from the argument's
	// value in, as in "[2].name" (empty when the argument itself is the
	// offending value), its Pointer from the arguments' root ("/a/2/name");
	// for an issue with a key, to that key's member. It is set for every
	// issue in an argument (Param >= 0) but MissingArgument, and bounded
	// (see Path and the package documentation's Cost).
	Path Path
	// Type is the Go type the offending value was read into (for
	// InvalidKey and ReplacedText in a key, the key's type; for
	// UnknownField, the struct the key is in; for FoldedKey and
	// DuplicateKey, the type the key's value is read into, nil when it is
	// dropped), or nil.
	Type reflect.Type
	// Quoted reports that the value was read through the ,string option.
	Quoted bool
	// Err is the binder's own error, where the verdict came from a trial
	// decode with the binder.
	Err error
	// N is, for Omitted, how many issues of code Of in argument Param
	// (-1: in none) Check found and did not list; for ArrayLength, how many
	// elements the array was sent.
	N int
}

// MaxIssues bounds the issues of each class one Check lists (the binder's
// failures, unknown keys, the other policy issues MissingArgument,
// MissingField and UnknownField, the silent losses), so that a call with a
// hundred thousand bad keys costs a bounded answer. Past it, Check still lists the first
// issue of each class in each argument (of each of MissingArgument,
// MissingField and UnknownField, which a policy may let through one
// without the others), and the first failure in none,
// so a flood of issues hides no argument's most serious one; the rest it
// only counts, in Omitted issues at the end of the list, one per argument
// and code (Of).
const MaxIssues = 1000

// MaxDepth is encoding/json's limit on nested arrays and objects: it fails
// on text nested deeper, and so does Check, with a TooDeep issue.
const MaxDepth = 10000

// Check reads args once, as the binder would, and appends to issues what
// the binder would fail on, plus each top-level key it would drop
// (UnknownArgument). Empty args read as {}; null reads as no arguments.
// When args are not valid JSON, the result holds a single InvalidJSON
// issue. Check
// allocates nothing when it finds nothing, for Std, and for V2 and
// SegmentIO on a call their one pass proves clean; those two give the
// verdict of a call with issues from the one pass too, where it models
// them, and on any other call decode the arguments once with the binder
// (see V2 and the package documentation).
//
// For Std, Check also reports what the binder reads without failing but
// not as sent (see the package documentation for the rules): each
// required parameter (WithRequired) no top-level key names, as
// MissingArgument (none when the text is not an object), and each required
// field of a nested struct its object does not name, as MissingField; each
// key inside a nested
// struct's object that no field takes, as UnknownField; and the silent
// losses, only where the binder reads the value (not inside dropped
// ones): NullForValue, FoldedKey, DuplicateKey, ArrayLength, RoundedNumber
// and ReplacedText. The MissingArgument issues come last, before the
// Omitted issues (see MaxIssues).
//
// An issue's Path may read args after Check returns: they must not
// change while it is used (see Path).
func (p *Plan) Check(args []byte, issues []Issue) []Issue {
	if p.check != nil {
		var c checker
		if p.root != nil {
			if verdict, ok := p.native(&c, args, issues); ok {
				return verdict // the one pass, by the binder's own rules
			}
			return p.declinedCheck(args, issues, nil, &c)
		}
		return p.check(args, p.required, p.nested, issues, nil)
	}
	var c checker // set field by field: a composite literal this size is built, then copied
	return p.checkStd(&c, args, issues)
}

// checkStd is Check for the binders the checker mirrors natively, with
// checker c, zero but for c.record.
func (p *Plan) checkStd(c *checker, args []byte, issues []Issue) []Issue {
	c.data, c.binder, c.issues, c.param, c.n0 = args[:len(args):len(args)], p.binder, issues, -1, len(issues) // no read past args (see nextSlot.named)
	c.depthLimit = MaxDepth
	c.tally.nparams = len(p.params)
	c.nested = p.nestedStd
	n0 := len(issues)
	c.run(p.root)
	c.keysDone()
	if c.bad && c.record {
		c.members.Object = false
	}
	switch {
	case c.bad && c.deep:
		is := Issue{Kind: TooDeep, Param: c.param, Start: c.badAt, End: c.badAt}
		if c.param >= 0 {
			is.Start = c.argAt
			is.Path = argPath(c.data, c.steps.arg.ks, c.steps.arg.ke)
		}
		return append(c.issues[:n0], is)
	case c.bad:
		return append(c.issues[:n0], Issue{Kind: InvalidJSON, Param: -1, Start: c.badAt, End: c.badAt})
	}
	if !c.notObject {
		for i, req := range p.required {
			if req && !c.rootSeen.has(i) {
				c.add(Issue{Kind: MissingArgument, Param: i})
			}
		}
	}
	return c.tally.omitted(c.issues)
}

type checker struct {
	data   []byte
	pos    int
	depth  int
	binder Binder
	issues []Issue
	param  int // the argument being read, or -1
	argAt  int // where its value starts
	bad    bool
	badAt  int
	deep   bool // the syntax error is nesting past MaxDepth

	// depthLimit is the deepest nesting read (see rules.depth); prove,
	// that the pass only proves a call clean for its binder (see
	// rules.prove): declined, that it does not.
	depthLimit int
	prove      bool
	declined   bool
	clean      bool // a proving pass of a call the binder reads (see clean.go)
	// For a proving pass's verdict (see native): foldsMore, that the
	// binder may bind a top-level key no field names exactly
	// (fieldSet.foldsMore); failedIn, the key offset+1 of the argument
	// whose first failure is listed last.
	foldsMore  bool
	failedIn   int
	failed     bool // a failure is listed or counted: the binder fails
	found      int  // the issues a proving pass found so far, listed or counted
	dupLoss    bool // a repeated key is a loss, the last value kept (segmentio)
	staleDups  bool // a struct's key was repeated whose failure the pass may place otherwise than segmentio (see fieldAgain)
	decoded    bool // the binder decoded the whole call (see reads), with decodeErr
	decodeErr  error
	repeats    []Issue  // V2's repeated top-level names, listed after the members' issues (see nameRepeated)
	wrapsInts  bool     // the binder reads long integers as segmentio does (see segIntVerdict)
	durations  bool     // the binder reads time.Duration as segmentio does (see durationText)
	jsonKeys   bool     // the binder reads integer map keys as segmentio does (see segKey)
	v2Keys     bool     // the binder reads integer map keys as V2 does (see v2Key)
	argNode    *node    // in a proving pass, the argument's position
	textKeys   bool     // the binder reads an escaped or non-ASCII key by its text (V2; see plainKey)
	replaces   bool     // the binder replaces invalid text with U+FFFD, a loss (segmentio)
	arrays     bool     // a fixed-size array sent another length is a loss (segmentio)
	dupDropped bool     // the binder fails on a dropped top-level key sent twice (V2)
	top        topState // the top-level keys that bind no parameter (see topKey)

	n0    int   // len(issues) at the start: the issues before are the caller's
	tally tally // which issues are listed, and the count of the rest

	notObject bool            // the arguments are valid JSON, but not an object
	rootSeen  fieldBits       // the parameters the top-level object names
	nested    map[*node][]int // per struct node, the fields an object must name (see Plan.WithRequired)

	record     bool             // record the top-level members in members (see checkMembers)
	poolIssues bool             // a long list of issues takes a pooled buffer, which the caller hands back (see roomForIssue)
	members    *bindcap.Members // the caller's (see checkConstrained), where record; nil where not

	// keys holds, for the objects of maps and of empty interfaces being
	// read, the keys each has held so far (see keySet); keyN are in use.
	keys    [keyStack]keyEntry
	keyN    int
	keyTab  *keyTable // the keys of the objects past keySmall keys or past keyStack in all (see keyTable), pooled
	keyObjs uint32    // the objects that have moved their keys to keyTab

	// steps are the arrays and objects open inside the argument being
	// read, and in each the element or member being read: an issue's path
	// is built from them rather than by reading the argument again from
	// its start, which costs a wide object's every member per issue.
	steps pathStack

	cons consWalk // the compiled constraints held in the walk (see checkConstrained)

	v2 v2Keys // V2's names repeated inside a value (see v2Repeat)

	self selfMemo // the self-decoding values a proving pass decoded (see selfValue)

	batch batchList // the list of self-decoding values being read that the binder reads whole (see batchOpen)
	nulls nullMemo  // null read into the last self-decoding position that met one (see nullRead)

	segPrint segPrint // segmentio's validAsciiPrint of the call and of an argument (see segQuotedControl)
}

// pathFor returns the path from the argument to the value the checker is
// reading (or to the member whose key it is reading).
func (c *checker) pathFor() Path { return c.steps.path(c.data, "") }

// add records an issue, or counts it past MaxIssues.
func (c *checker) add(is Issue) {
	if c.admit(is.Kind, is.Param) {
		c.issues = append(c.issues, is)
	}
}

// admit reports whether an issue of kind in argument param is listed, and
// counts it when it is not.
func (c *checker) admit(kind Code, param int) bool {
	if c.prove {
		if !c.models(kind) {
			c.declined = true // an issue the pass does not model: the trial check decides
			c.fail(c.pos)
			return false
		}
		c.found++
	}
	if !c.tally.admit(c.issues[c.n0:], kind, param) {
		return false
	}
	c.roomForIssue()
	return true
}

// decline ends a proving pass that meets what it does not model.
func (c *checker) decline() bool {
	c.declined = true
	return c.fail(c.pos)
}

var anyNode = &node{kind: kAny, typ: reflect.TypeFor[any]()}

var stringType = reflect.TypeFor[string]()

func (c *checker) fail(at int) bool {
	if !c.bad {
		c.bad, c.badAt = true, at
	}
	return false
}

func (c *checker) issue(kind Code, n *node, start, end int) {
	c.issueN(kind, n, start, end, 0)
}

// issueN records an issue with the value at data[start:end], read into
// position n, with a count.
func (c *checker) issueN(kind Code, n *node, start, end, count int) {
	if c.clean && kind.Class() == BinderFailure {
		return // the binder read the call: it read this value by a rule the pass does not port, losing nothing the pass can tell (see clean.go)
	}
	if c.prove && kind.Class() == BinderFailure {
		if !c.firstFailure() {
			return // the binder stops at an argument's first failure
		}
	}
	if !c.admit(kind, c.param) {
		return
	}
	is := Issue{Kind: kind, Param: c.param, Start: start, End: end, N: count}
	if n != nil {
		is.Type = n.typ
		is.Quoted = n.quoted
	}
	if c.prove && n == anyNode && kind.Class() == BinderFailure {
		is.Type = nil // a failure inside an empty interface: no declared type
	}
	if c.param >= 0 {
		is.Path = c.pathFor()
	}
	c.issues = append(c.issues, is)
}

// missingFields records a MissingField issue for each field of struct node n
// that must be named and that the object at data[start:c.pos], whose keys
// bound fields, does not name. Its path leads to where the field would be.
func (c *checker) missingFields(n *node, fields *fieldBits, start int) {
	for _, i := range c.nested[n] {
		if fields.has(i) {
			continue
		}
		if !c.admit(MissingField, c.param) {
			continue
		}
		is := Issue{Kind: MissingField, Param: c.param, Start: start, End: c.pos, Type: n.fields.nodes[i].typ}
		if c.param >= 0 {
			is.Path = c.steps.path(c.data, n.fields.params[i].Name)
		}
		c.issues = append(c.issues, is)
	}
}

// replacedKeyType is the Go type of a key of an object read into n whose
// text the binder replaces (ReplacedText): the map's key type, or string.
func replacedKeyType(n *node) reflect.Type {
	if n.kind == kMap {
		return n.typ.Key()
	}
	return stringType
}

// keyIssue records an issue with the key at data[ks:ke], whose value
// starts at vs: its path leads to that value.
func (c *checker) keyIssue(kind Code, typ reflect.Type, ks, ke, vs int) {
	if !c.admit(kind, c.param) {
		return
	}
	is := Issue{Kind: kind, Param: c.param, Start: ks, End: ke, Type: typ}
	if c.param >= 0 {
		is.Path = c.pathFor()
	}
	c.issues = append(c.issues, is)
}

func (c *checker) run(root *node) {
	work(len(c.data)) // the one pass
	if len(c.data) == 0 {
		return // no arguments: {}
	}
	c.ws()
	switch jsonlex.KindAt(c.data, c.pos) {
	case jsonlex.KindInvalid:
		c.fail(c.pos)
		return
	case jsonlex.KindObject:
		if !c.object(root, true) {
			return
		}
	case jsonlex.KindNull:
		if !c.value(nil) {
			return
		}
	default:
		start := c.pos
		if !c.value(nil) {
			return
		}
		c.notObject = true
		c.add(Issue{Kind: NotAnObject, Param: -1, Start: start, End: c.pos})
	}
	c.ws()
	if c.pos != len(c.data) {
		c.fail(c.pos)
	}
}

func (c *checker) ws() { c.pos = jsonlex.Space(c.data, c.pos) }

// value reads the value at c.pos into position n (nil: anything goes, the
// text need only be valid) and leaves c.pos after it. It returns false on a
// syntax error.
func (c *checker) value(n *node) bool {
	if c.pos >= len(c.data) {
		return c.fail(c.pos)
	}
	k := jsonlex.KindAt(c.data, c.pos) // KindInvalid fails below, past the node's own verdicts
	if c.cons.next != nil {
		c.consFirst(c.data[c.pos])
	}
	for n != nil && n.kind == kPtr {
		if k == jsonlex.KindNull {
			return c.literal("null") // null sets the pointer to nil
		}
		n = n.elem
	}
	if n != nil {
		switch n.kind {
		case kDecline:
			return c.segValue(n) // segmentio's own rules (node.seg), or a decline
		case kTrial:
			if c.prove {
				return c.selfValue(n) // the binder decodes the value alone (selfdec.go)
			}
			start := c.pos
			if !c.value(nil) {
				return false
			}
			if !c.trial(n, start, c.pos) {
				return true
			}
			switch {
			case n.self&selfText != 0 && jsonlex.KindAt(c.data, start) == jsonlex.KindString && replaces(c.data[start:c.pos]):
				c.issue(ReplacedText, n, start, c.pos) // UnmarshalText was handed U+FFFD (see stdReadsText)
			case n.elem != nil && jsonlex.KindAt(c.data, start) == jsonlex.KindObject:
				end := c.pos // the binder reads the map: walk it for its losses (see textMap)
				c.pos = start
				if !c.object(n.elem, false) {
					return false
				}
				c.pos = end
			case n.base == kString:
				c.stringInString(n, start, c.pos)
			}
			return true
		case kRaw:
			if c.prove && c.dupDropped {
				return c.v2Raw(k)
			}
			n = nil
		case kOwn:
			return c.own(n, k)
		}
	}
	switch k {
	case jsonlex.KindObject:
		return c.object(n, false)
	case jsonlex.KindArray:
		return c.array(n)
	case jsonlex.KindString:
		return c.stringValue(n)
	case jsonlex.KindTrue, jsonlex.KindFalse:
		start := c.pos
		lit := "true"
		if k == jsonlex.KindFalse {
			lit = "false"
		}
		if !c.literal(lit) {
			return false
		}
		if n != nil && n.kind != kBool && n.kind != kAny {
			c.issue(WrongType, n, start, c.pos)
		}
		return true
	case jsonlex.KindNull:
		// null leaves every other kind as it was: a loss, where the
		// position cannot hold null.
		start := c.pos
		if !c.literal("null") {
			return false
		}
		if n != nil && !holdsNull(n) {
			c.issue(NullForValue, n, start, c.pos)
		}
		return true
	case jsonlex.KindNumber:
		return c.number(n)
	}
	return c.fail(c.pos)
}

func (c *checker) literal(lit string) bool {
	end, ok := jsonlex.Literal(c.data, c.pos, lit)
	if !ok {
		return c.fail(end)
	}
	c.pos = end
	return true
}

func (c *checker) object(n *node, root bool) bool {
	if !root && c.anyNests(n) {
		return c.anyNest(n) // nothing but the keys to judge
	}
	if anyFrames != nil {
		anyFrames.Add(1)
	}
	start := c.pos
	c.depth++
	if c.depth > c.depthLimit {
		c.deep = !c.bad // a proving pass gives the trial check's TooDeep (see native)
		return c.fail(c.pos)
	}
	c.pos++  // {
	ci := -1 // the constraints' state of the object (see consOpen)
	if c.cons.next != nil && !root {
		ci = c.consOpen(start)
	}
	wrong := false
	var child *node
	var keyKind nodeKind // how a repeated key is told: kString, kInt, kUint (kSegInt, kSegUint); 0 for none
	switch {
	case n == nil:
	case n.kind == kAny:
		child, keyKind = anyNode, kString
	case n.kind == kStruct:
	case n.kind == kMap:
		child, keyKind = n.elem, n.key
	default:
		wrong = true
	}
	// V2 reads a dropped object for repeated names, and fails on one.
	dropRepeats := (wrong || n == nil) && c.prove && c.dupDropped
	if wrong && dropRepeats {
		c.v2Wrong(n)
	}
	// The fields a struct's keys have bound so far, and the keys a map's or
	// an interface's object has held: a key bound or held before is a
	// repeat, and the binder keeps its last value.
	var fields fieldBits
	if !wrong && n != nil && n.kind == kStruct {
		fields.init(len(n.fields.nodes))
	}
	batching := n != nil && n.kind == kMap && n.batch != nil && ci < 0 && !c.clean // the values decode themselves: the map is decoded whole first (the clean mode decodes none: clean.go)
	var outerBatch batchList
	if batching {
		outerBatch = c.batchOpen(n, start)
	}
	keys := keySet{base: c.keyN}
	var mkeys methodKeys // the Go keys a key type's UnmarshalText read (see textKey, textMap)
	var outer step       // what this object's step displaces (see pathStack)
	if !root {
		outer = c.steps.push(step{})
	}
	var more, ok bool
	if c.pos, more, ok = jsonlex.First(c.data, c.pos, jsonlex.KindObject); !ok {
		return c.fail(c.pos)
	}
	dropping := false // the member just read is a top-level key bound to no parameter: droppedRun may read those after it
	guess := 0        // the field the next key most likely binds (see lookupNext)
	// plainMembers may read the members (at the top level, of a tool
	// without aliases: topKey's facts are then a plain key's).
	plain := !slowPlain && !wrong && n != nil && n.kind == kStruct && (!root || !c.top.aliases)
	// plainMapMembers may read the members of a map's (or an interface's)
	// object whose keys no method reads; mapPlain: after a plain key (the
	// loop's last), so that each key is lexed at most twice.
	mapOK := !slowPlain && keyKind == kString && !n.tkey && !root
	mapPlain := mapOK
	if more {
		for {
			if dropping && c.dropsFast() {
				dropping = false
				if more, read := c.droppedRun(n); read && !more {
					break
				}
			}
			if plain {
				more, read, ok := c.plainMembers(n, root, &fields, &guess, ci)
				if !ok {
					return false
				}
				if !more {
					break
				}
				dropping = dropping && !read
			}
			if mapPlain {
				more, ok := c.plainMapMembers(child, &keys, ci)
				if !ok {
					return false
				}
				if !more {
					break
				}
			}
			if jsonlex.KindAt(c.data, c.pos) != jsonlex.KindString {
				return c.nameCut(n != nil && !wrong && (n.kind != kAny || namedInterface(n)))
			}
			ks := c.pos
			end, f, ok := jsonlex.String(c.data, ks)
			if !ok {
				return c.fail(end)
			}
			c.pos = end
			esc, hi := f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0
			mapPlain = mapOK && !esc && !hi
			ke := c.pos
			if c.prove && (esc || hi) && !c.plainKey(ks, ke, esc, hi) && !c.v2KeyText(n, root, start, ks, ke, f) && !c.segKeyText(n, ks, ke, esc, hi) {
				return c.decline()
			}
			if !root {
				c.steps.set(step{ks, ke})
			}
			if c.pos, ok = jsonlex.Colon(c.data, c.pos); !ok {
				return c.keyCut(n, root, wrong, dropRepeats, &fields, &keys, start, ks, ke, esc, hi)
			}
			vs := c.pos
			if dropRepeats && c.repeatedKey(&keys, kString, ks, ke, !esc && !hi) && !c.v2Repeat(n, start, ks, ke) {
				return c.decline() // V2 fails on the repeated name (see v2Repeat)
			}
			badKey, amb := false, false // amb: a top-level key V2 fails on as ambiguous (see ambiguousArg)
			var keyLoss, keyLoss2 Code  // found on the key, recorded once the value is read
			if !wrong && n != nil {
				switch n.kind {
				case kStruct:
					i, folded := n.fields.lookupNext(c.data[ks:ke], esc, hi, guess)
					if i >= 0 {
						guess = i + 1 // a key bound to no field leaves the guess where the last one bound put it
					}
					if i < 0 && n.fields.foldsMore && c.prove && n.fields.sharedFold(c.data[ks:ke], esc, hi) {
						if !root {
							return c.decline() // a key two of V2's case:ignore fields fold to, inside an argument
						}
						amb, i = true, ambiguousKey
					}
					if root {
						if c.factsOnly(i) {
							c.top.topKeyFacts = keyFacts(esc, hi)
						} else if !c.topKey(ks, ke, i, esc, hi) {
							return false
						}
					}
					child = nil
					switch {
					case i >= 0:
						child = n.fields.nodes[i]
						if root {
							c.param, c.argAt = i, c.pos
							c.steps.arg = step{ks, ke}
						}
						if folded {
							keyLoss = FoldedKey
						}
						if fields.add(i) {
							keyLoss2 = c.fieldAgain(n, root, i, start, ks, ke)
						}
					case amb && c.top.alias:
						return c.decline() // an alias the renamed call sends as its parameter's name
					case amb:
						c.ambiguousArg(ks, ke)
						c.v2.dropKs = 0 // its value is no dropped member's: V2 never reads it
					case root && c.top.alias: // bound to its parameter, as its name is (see bindAlias)
						i = c.top.param
						child = n.fields.nodes[i]
						c.param, c.argAt = i, c.pos
						c.steps.arg = step{ks, ke}
						if fields.add(i) {
							keyLoss2 = c.fieldAgain(n, root, i, start, ks, ke)
						}
					case root:
						c.unknownArg(ks, ke)
						c.v2.dropKs = ks
						dropping = true
						if c.prove && c.dupDropped {
							c.v2Dropped(ks, ke)
						}
					default:
						keyLoss = c.unknownName(n, &keys, start, ks, ke)
					}
				case kMap, kAny:
					badKey = keyKind != kString && !c.mapKey(n, ks, ke, esc)
					if badKey && c.dupDropped {
						c.v2.failing = true // V2 fails on the key before its value
					}
					if badKey && c.v2Keys {
						child = nil // V2 skips the value, validating its text and names alone (see v2Key)
					}
					if keyKind == kString && (esc || hi) && !c.textKeys && replacedText(c.data[ks:ke], esc, hi) {
						keyLoss = ReplacedText // V2 fails on the key instead (see v2KeyText)
					}
					var again bool
					switch {
					case n.tkey && !c.prove: // a kTrial's walk: the binder tells keys by the Go value read (see textMap)
						again = mkeys.add(n.typ.Key(), c.data[ks:ke])
					default:
						again = !badKey && c.repeatedKey(&keys, keyKind, ks, ke, !esc && !hi)
						// The key type's UnmarshalText reads the key, but a
						// repeated name, which V2 fails on first (v2Repeat);
						// two names it reads alike are one key to the map.
						if n.tkey && !(again && c.dupDropped) {
							ok, alike := c.textKey(n, ks, ke, esc, hi, &mkeys)
							if !ok {
								return c.decline()
							}
							again = again || alike
						}
					}
					if again {
						keyLoss2 = c.boundAgain(n, false, start, ks, ke)
					}
				}
			}
			switch {
			case ci >= 0:
				c.consMember(ci, ks, ke)
			case root && c.cons.tool != nil:
				c.consRoot()
			}
			if c.prove && (keyLoss != "" || keyLoss2 != "") {
				keyLoss, keyLoss2 = c.keyLossesFirst(n, child, root, keyLoss, keyLoss2, ks, ke, vs)
			}
			found := c.found
			if root {
				c.argNode = child
			}
			if !c.value(child) {
				return false // under V2, its key judged before the value (v2First)
			}
			if amb && c.found != found {
				return c.decline() // V2 fails on the key, and reads no further: the trial check judges the value's text alone
			}
			if ci >= 0 {
				c.consAfter(ci)
			}
			lossy := keyLoss != "" || keyLoss2 != "" // the key had a loss: most have none, and skip its checks
			if lossy && keyLoss2 == DuplicateKey && root && c.dupDropped {
				keyLoss2 = c.nameRepeated(ks, ke) // V2 fails on it (see native)
			}
			if root && c.prove && c.param < 0 && !amb && !c.unknownKey(ks, ke, vs) {
				return c.decline()
			}
			if lossy && keyLoss == UnknownField && c.prove && !c.unknownField(n, &keys, ks, ke, vs) {
				return c.decline()
			}
			// Recorded once the value is read, so the path to it is whole.
			if badKey && !c.jsonKeys { // segKey listed segmentio's failure
				if c.v2Keys && c.found != found {
					return c.decline() // V2 fails on a name repeated or text invalid in the value it skips (see v2Key)
				}
				c.issue(InvalidKey, &node{typ: n.typ.Key()}, ks, ke)
			}
			if lossy {
				for _, k := range [2]Code{keyLoss, keyLoss2} {
					switch k {
					case "", foldListed, dupListed, replacedListed:
					case UnknownField:
						c.keyIssue(k, n.typ, ks, ke, vs)
					case ReplacedText:
						c.issue(k, &node{typ: replacedKeyType(n)}, ks, ke)
					default:
						var vt reflect.Type
						if child != nil {
							vt = child.typ
						}
						c.keyIssue(k, vt, ks, ke, vs)
					}
				}
			}
			if root {
				if amb {
					c.param = ambiguousKey // the member binds none, and V2 fails on it
				}
				if c.record {
					c.member(ks, ke, vs, keyLoss == FoldedKey || keyLoss == foldListed)
				}
				c.param = -1
			}
			if c.pos, more, ok = jsonlex.Next(c.data, c.pos, jsonlex.KindObject); !ok {
				return c.fail(c.pos)
			}
			if !more {
				break
			}
		}
	}
	c.keyN = keys.base
	if batching {
		c.batch = outerBatch
	}
	if root {
		c.rootSeen = fields
		if c.record {
			c.members.Object = true
		}
	} else {
		c.steps.pop(outer)
		if !wrong && n != nil && n.kind == kStruct && c.nested != nil {
			c.missingFields(n, &fields, start)
		}
		if ci >= 0 {
			c.consClose(ci, start)
		}
	}
	if c.v2.skim|c.v2.dupAt != 0 {
		c.v2Closed(n, start)
	}
	c.depth--
	if wrong {
		c.issue(WrongType, n, start, c.pos)
	}
	return true
}

// fieldBits is a set of a struct's field indexes: in one word for up to 64
// fields, allocated only for larger structs.
type fieldBits struct {
	small uint64
	big   []uint64
}

func (b *fieldBits) init(n int) {
	if n > 64 {
		b.big = make([]uint64, (n+63)/64)
	}
}

// add adds i and reports whether it was there already.
func (b *fieldBits) add(i int) bool {
	w, bit := &b.small, uint64(1)<<(i%64)
	if b.big != nil {
		w = &b.big[i/64]
	}
	had := *w&bit != 0
	*w |= bit
	return had
}

func (b *fieldBits) has(i int) bool {
	if b.big != nil {
		return b.big[i/64]&(1<<(i%64)) != 0
	}
	return i < 64 && b.small&(1<<i) != 0
}

// keyStack bounds the keys the objects being read keep in the checker
// itself (the objects nested deeper, and any past keySmall keys, keep
// theirs in the pooled key table, so that neither depth nor width costs an
// allocation); keySmall, the keys one object keeps there before it moves
// them to the table.
const (
	keyStack = 48
	keySmall = 16
)

// A keyEntry is a key an object has held: the low half of the hash of
// what the binder reads of it (the text, or an integer key's value), and
// where it starts. Eight bytes, so the checker's few are cheap to clear.
type keyEntry struct {
	h  uint32
	ks uint32
}

// A keySet is the keys one object of a map or an empty interface has held
// so far: the checker's entries keys[base:base+n] while there are few,
// then (big) the object's share of the checker's key table, as object
// number obj.
type keySet struct {
	base, n int
	big     bool
	obj     uint32
	first   int // see firstKey
}

var keySeed = maphash.MakeSeed()

// repeated adds the key at data[ks:ke] to s and reports whether s held
// the same key before (by the binder's reading of it: the text, or for an
// integer key type, the value). Keys are compared by hash first, then by
// what they read as, so the answer is exact: two keys of one hash are
// both held.
func (c *checker) repeated(s *keySet, kind nodeKind, ks, ke int) bool {
	return c.repeatedKey(s, kind, ks, ke, false)
}

// repeatedKey is repeated for a key the caller has lexed: plain, a key
// with no escape and no byte past ASCII, whose text is its bytes inside
// the quotes (read without lexing it again).
func (c *checker) repeatedKey(s *keySet, kind nodeKind, ks, ke int, plain bool) bool {
	if c.firstKey(s, kind, ks) {
		return false
	}
	var key []byte
	if plain && kind == kString {
		key = c.data[ks+1 : ke-1]
	} else {
		var buf [64]byte // cleared only for a key read otherwise than as sent
		key = readKey(buf[:0], c.data[ks:ke], kind)
	}
	h := maphash.Bytes(keySeed, key)
	if !s.big {
		for j := s.base; j < s.base+s.n; j++ {
			if e := c.keyAt(j); e.h == uint32(h) && c.sameKey(key, int(e.ks), kind) {
				return true
			}
		}
		if s.n < keySmall && c.keyN == s.base+s.n && c.keyN < keyStack && ks <= math.MaxUint32 {
			c.keys[c.keyN] = keyEntry{uint32(h), uint32(ks)}
			s.n++
			c.keyN++
			return false
		}
		// The object outgrows the checker's entries (or they are taken by
		// an object inside it, or by the objects around it): its keys
		// move to the key table.
		if c.keyTab == nil {
			c.keyTab = getKeyTable(len(c.data))
		}
		c.keyObjs++
		s.big, s.obj = true, c.keyObjs
		var held [64]byte
		for j := s.base; j < s.base+s.n; j++ {
			e := c.keyAt(j)
			end := strEnd(c.data, int(e.ks))
			k := readKey(held[:0], c.data[e.ks:end], kind)
			c.keyTab.add(c, s.obj, maphash.Bytes(keySeed, k), k, int(e.ks), kind)
		}
		c.keyN = s.base
		s.n = 0
	}
	return c.keyTab.add(c, s.obj, h, key, ks, kind)
}

// keysDone hands the checker's key table, if it took one, back to the
// pool: the walk is over.
func (c *checker) keysDone() {
	if c.keyTab != nil {
		putKeyTable(c.keyTab)
		c.keyTab = nil
	}
	c.top.unknownSeen, c.top.firstUnknown = false, jsonlex.Span{} // its keys' (see countUnknown)
}

// A keyTable holds, for one check, the keys of every object of a map or
// an empty interface that outgrew the checker's own entries: open
// addressing on the hash of what the binder reads of each key, with the
// object's number, so that one table serves every such object of the
// call, nested or not, and grows (doubling) with the keys they hold in
// all: memory in the call's size, time constant per key. Tables are
// pooled, and a slot belongs to the check only when it carries the
// table's current generation, so a table is reused without clearing it.
// A call's cost is in its own keys, never in the room a wider call left:
// a check's slots are the first of the room, as many as its size calls
// for (see getKeyTable), so a small call's keys stay close together; what
// reads every key of the check reads used, not the slots. A call with a
// 10,000-key map allocates nothing once a table that size has served one.
type keyTable struct {
	room  []keySlot // pooled; slots is its first len(slots)
	slots []keySlot // the check's table (a power of two)
	used  []int     // the slots of generation gen in use, in the order filled
	moved []keySlot // grow's: the check's slots, moved out of the way
	gen   uint32    // the current check's generation; slots of others are free
}

type keySlot struct {
	h   uint64 // the hash of the key as the binder reads it
	at  int    // where the key starts in the arguments
	obj uint32 // the object that holds it (keySet.obj)
	gen uint32 // the check that put it there (keyTable.gen)
}

// maxPooledKeys bounds the room of a table the pool keeps (24 MiB, with
// 4 MiB of its used list and 6 MiB of grow's copy, a quarter of the room):
// a bigger one, for a call of more than half a million keys in big
// objects, is left to the garbage collector. maxHeldKeys bounds the one
// table kept outside the pool (6 MiB, 1 MiB and 1.5 MiB, for up to 131,072
// keys; see lastKeyTable): what a process keeps after its widest call.
const (
	maxPooledKeys = 1 << 20
	maxHeldKeys   = 1 << 18
)

// keyTablesTaken counts the key tables checks take, in the package's
// tests only (it is nil otherwise).
var keyTablesTaken *atomic.Int64

// keyTables pools the tables; lastKeyTable holds the one put back last
// when it is small enough, so that a table is reused whatever processor
// the next check runs on (a pool's fast path is per processor) and a
// garbage collection does not drop it.
var (
	keyTables    = sync.Pool{New: func() any { return new(keyTable) }}
	lastKeyTable atomic.Pointer[keyTable]
)

// getKeyTable returns a table for the check of size bytes of arguments:
// its first slots are at least a quarter of size (the room allowing),
// holding an eighth of size in keys, so that a small call reads a few
// cache lines whatever room the table has. A member takes at least five
// bytes, and V2 copies top-level keys by their text, so a call of short
// keys may still fill them and grow (see grow, which keeps its copy for
// the next such call).
func getKeyTable(size int) *keyTable {
	if keyTablesTaken != nil {
		keyTablesTaken.Add(1)
	}
	t := lastKeyTable.Swap(nil)
	if t == nil {
		t = keyTables.Get().(*keyTable)
	}
	t.nextGen()
	n := 64
	for n < size/4 && n < len(t.room) {
		n *= 2
	}
	t.slots = t.room[:min(n, len(t.room))]
	t.used = t.used[:0]
	return t
}

// nextGen starts a generation: every slot is free.
func (t *keyTable) nextGen() {
	t.gen++
	if t.gen == 0 { // wrapped: a slot's old generation could read as current
		clear(t.room)
		t.gen = 1
	}
}

func putKeyTable(t *keyTable) {
	switch {
	case len(t.room) <= maxHeldKeys && lastKeyTable.CompareAndSwap(nil, t):
	case len(t.room) <= maxPooledKeys:
		keyTables.Put(t)
	}
}

// add adds the key (what the binder reads of it: key, at data[at:]) of
// object obj, of hash h, and reports whether obj held it before.
func (t *keyTable) add(c *checker, obj uint32, h uint64, key []byte, at int, kind nodeKind) bool {
	if 2*(len(t.used)+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := keySlotOf(h, obj) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen {
			*s = keySlot{h: h, at: at, obj: obj, gen: t.gen}
			t.used = append(t.used, int(i))
			return false
		}
		if s.h == h && s.obj == obj && c.sameKey(key, s.at, kind) {
			return true
		}
	}
}

// byText adds to object to the text of each key of object from, but the
// key at data[skip] and keys of text V2 fails on, which are no names (see
// droppedRepeat, v2Dropped).
func (t *keyTable) byText(c *checker, from, to uint32, skip int) {
	// add may grow the table, which moves each slot and says where in
	// used, in the same order; the slots it fills go past n, and are to's.
	n := len(t.used)
	work(n)
	for k := range n {
		if s := t.slots[t.used[k]]; s.obj == from && s.at != skip {
			if end := strEnd(c.data, s.at); !replaces(c.data[s.at:end]) {
				c.addText(to, s.at, end)
			}
		}
	}
}

// grow doubles the check's slots (to 64 at first), moving its keys: into
// the room past them where the table has it (under a new generation, the
// slots of the old one free), else into new room.
func (t *keyTable) grow() {
	size := max(64, 2*len(t.slots))
	moved := t.moved[:0]
	if cap(moved) < len(t.used) {
		// Exactly the keys: a quarter of the room this grow leaves (its
		// slots are full at half their number, and double), kept for the
		// next check of this shape, which grows the same way.
		moved = make([]keySlot, 0, len(t.used))
	}
	for _, i := range t.used {
		moved = append(moved, t.slots[i])
	}
	if size <= len(t.room) {
		t.nextGen()
		t.slots = t.room[:size]
	} else {
		t.room = make([]keySlot, size) // no slot of generation gen
		t.slots = t.room
	}
	mask := uint64(size - 1)
	for k, s := range moved {
		s.gen = t.gen
		i := keySlotOf(s.h, s.obj) & mask
		for t.slots[i].gen == t.gen {
			i = (i + 1) & mask
		}
		t.slots[i] = s
		t.used[k] = int(i)
	}
	t.moved = moved[:0]
}

// keySlotOf is where a table's probe for key hash h of object obj starts.
func keySlotOf(h uint64, obj uint32) uint64 {
	return h ^ uint64(obj)*0x9e3779b97f4a7c15
}

// keyAt returns the j-th key the open objects hold (j < keyStack).
func (c *checker) keyAt(j int) *keyEntry { return &c.keys[j] }

// sameKey reports whether the key starting at data[at] reads as key.
func (c *checker) sameKey(key []byte, at int, kind nodeKind) bool {
	var buf [64]byte
	end := strEnd(c.data, at)
	work(end - at)
	return string(readKey(buf[:0], c.data[at:end], kind)) == string(key)
}

// readKey appends to dst what the binder reads of the key raw (quoted):
// its text, or for an integer key type the value's eight bytes; for kRaw,
// raw itself (a key told apart as sent, see topKey).
func readKey(dst, raw []byte, kind nodeKind) []byte {
	if kind == kRaw {
		return raw
	}
	text := keyText(dst, raw)
	switch kind {
	case kSegInt, kSegUint:
		return segKeyIdentity(dst, raw, kind == kSegInt)
	case kInt, kUint:
		// As strconv.ParseInt or ParseUint reads it, with no error to
		// allocate where the key is one (a key they fail on reads as
		// they read it).
		v, ok := decimal(text, kind == kInt)
		switch {
		case ok:
		case kind == kInt:
			iv, _ := strconv.ParseInt(unsafeString(text), 10, 64)
			v = uint64(iv)
		default:
			v, _ = strconv.ParseUint(unsafeString(text), 10, 64)
		}
		return binary.LittleEndian.AppendUint64(dst[:0], v)
	}
	return text
}

// strEnd returns the end of the valid JSON string starting at data[at].
func strEnd(data []byte, at int) int {
	end, _, _ := jsonlex.String(data, at)
	return end
}

// mapKey reports whether the integer key type of map n reads the key.
func (c *checker) mapKey(n *node, ks, ke int, esc bool) bool {
	raw := c.data[ks:ke]
	var buf [64]byte
	key := raw[1 : len(raw)-1]
	if esc || !ascii(key) {
		key, _ = jsonlex.Unquote(buf[:0], raw)
	}
	s := unsafeString(key)
	if c.jsonKeys {
		return c.segKey(key, n, ks, ke)
	}
	if c.v2Keys {
		return v2Key(key, n)
	}
	if stdNullKey && s == "null" {
		c.issue(NullForValue, &node{typ: n.typ.Key()}, ks, ke) // the key 0 (readKey reads it so)
		return true
	}
	// decimal reads it as strconv.ParseInt or ParseUint (base 10, 64
	// bits) would, without the error they allocate for a key they fail on.
	if n.key == kInt {
		u, ok := decimal(key, true)
		high := int64(u) >> (n.bits - 1) // 0 or -1 exactly when the value fits in bits
		return ok && (high == 0 || high == -1)
	}
	v, ok := decimal(key, false)
	return ok && (n.bits == 64 || v>>n.bits == 0)
}

func (c *checker) array(n *node) bool {
	if (n == nil || n.kind == kAny) && c.cons.next == nil && !slowAny {
		return c.anyArrays(n) // nothing but the elements to judge
	}
	if anyFrames != nil {
		anyFrames.Add(1)
	}
	start := c.pos
	failedIn := c.failedIn // the argument whose failure a proving pass listed last, before the array
	c.depth++
	if c.depth > c.depthLimit {
		c.deep = !c.bad // a proving pass gives the trial check's TooDeep (see native)
		return c.fail(c.pos)
	}
	c.pos++  // [
	ci := -1 // the constraints' state of the list (see consOpen)
	if c.cons.next != nil {
		ci = c.consOpen(start)
	}
	wrong := false
	fixed := n != nil && n.kind == kArray // a fixed-size array: its length is judged
	var child *node
	switch {
	case n == nil:
	case n.kind == kAny:
		child = anyNode
	case n.kind == kSlice || fixed:
		child = n.elem
	default:
		wrong = true
		if c.prove && c.dupDropped {
			c.v2Wrong(n)
		}
	}
	batching := n != nil && n.batch != nil && ci < 0 && !c.clean // the elements decode themselves: the list is decoded whole first (not in the clean mode)
	elemTyp := droppedElem(n)                                    // each element typed so where V2 fails in it (see droppedElem)
	outerAt, outerTyp := c.v2.elemAt, c.v2.elemTyp
	var outerBatch batchList
	if batching {
		outerBatch = c.batchOpen(n, start)
	}
	sent := 0              // elements
	headFailed := failedIn // c.failedIn once the elements a fixed-size array holds are read
	pastAt := -1           // where the element past a fixed-size array's length its argument failed in starts
	outer := c.steps.push(step{ke: -1})
	var more, ok bool
	if c.pos, more, ok = jsonlex.First(c.data, c.pos, jsonlex.KindArray); !ok {
		return c.fail(c.pos)
	}
	if more {
		for i := 0; ; i++ {
			sent++
			c.steps.set(step{i, -1})
			el := child
			if fixed && i >= n.length {
				el = nil // dropped, but still read
				if i == n.length {
					headFailed = c.failedIn
				}
			}
			if ci >= 0 {
				c.consElem(ci)
			}
			if elemTyp != nil {
				c.v2.elemAt, c.v2.elemTyp = c.pos+1, elemTyp
			}
			if el == nil && fixed { // past the length: where the element its argument fails in starts
				at, before := c.pos, c.failedIn
				if !c.value(nil) {
					return false
				}
				if c.failedIn != before && pastAt < 0 {
					pastAt = at
				}
			} else if !c.value(el) {
				return false
			}
			if ci >= 0 {
				c.consAfter(ci)
			}
			if c.pos, more, ok = jsonlex.Next(c.data, c.pos, jsonlex.KindArray); !ok {
				return c.fail(c.pos)
			}
			if !more {
				break
			}
		}
	}
	c.steps.pop(outer)
	c.v2.elemAt, c.v2.elemTyp = outerAt, outerTyp
	if batching {
		c.batch = outerBatch
	}
	if ci >= 0 {
		c.consClose(ci, start)
	}
	if c.v2.skim|c.v2.dupAt != 0 {
		c.v2Closed(nil, start)
	}
	c.depth--
	if wrong {
		c.issue(WrongType, n, start, c.pos)
	}
	if fixed && c.prove && !c.arrays {
		if sent <= n.length {
			headFailed = c.failedIn
		}
		return c.v2Array(n, start, sent, failedIn, headFailed, pastAt) // V2 fails on another length
	}
	if fixed && sent == 0 && n.length > 0 && c.prove {
		// segmentio's decodeArray hands the first element's decoder the
		// ']', on which each fails with inputError's syntax error, which
		// names no path: the argument's value (a [0]T reads []).
		c.segArgFailed()
		return true
	}
	if fixed && sent != n.length {
		// Extra elements are dropped; missing ones are left zero.
		c.issueN(ArrayLength, n, start, c.pos, sent)
	}
	return true
}

// replacedText reports whether encoding/json, reading the string token
// raw as text, replaces some of it with U+FFFD (jsonlex.Replaced): esc, raw
// holds escapes; hi, bytes past ASCII.
func replacedText(raw []byte, esc, hi bool) bool {
	var f jsonlex.StringFlags
	if esc {
		f |= jsonlex.Escaped
	}
	if hi {
		f |= jsonlex.NonASCII
	}
	return jsonlex.Replaced(raw, f)
}

// stringInString judges, under Std, the text of the ,string field of a
// string kind at data[start:end] the binder read: it unquotes the text
// inside again, so the text null leaves the field as it was (but a
// pointer, which it sets nil), and invalid UTF-8 or a lone surrogate in
// either the text or the string inside is replaced (stringInStringLoss).
func (c *checker) stringInString(n *node, start, end int) {
	raw := c.data[start:end]
	var buf [64]byte
	text, ok := jsonlex.Unquote(buf[:0], raw)
	if !ok {
		return
	}
	work(len(raw))
	if kind := stringInStringLoss(n.typ, raw, text); kind != "" {
		c.issue(kind, n, start, end)
	}
}

// stringInStringLoss is the silent loss, if any, of the ,string field of
// a string kind of type t sent as the JSON string raw, whose text is text: the text
// null leaves the field as it was (but a pointer, which it sets nil), and
// text replaced in raw, or in the string text holds, is replaced.
func stringInStringLoss(t reflect.Type, raw, text []byte) Code {
	switch {
	case nullText(text):
		if t.Kind() == reflect.Pointer {
			return ""
		}
		return NullForValue
	case replaces(raw) || len(text) >= 2 && jsonlex.KindAt(text, 0) == jsonlex.KindString && replaces(text):
		return ReplacedText
	}
	return ""
}

func (c *checker) stringValue(n *node) bool {
	start := c.pos
	end, f, ok := jsonlex.String(c.data, start)
	if !ok {
		return c.fail(end)
	}
	c.pos = end
	esc, hi := f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0
	if c.cons.next != nil {
		c.consString(start, esc, hi)
	}
	if n == nil {
		if c.prove && c.dupDropped && (esc || hi) {
			c.v2DroppedText(start, esc, hi) // V2 fails on a dropped string's invalid UTF-8
		}
		return true
	}
	if n.dur {
		return c.durationString(n, start, esc)
	}
	var kind Code
	switch n.kind {
	case kString, kAny:
		if (esc || hi) && replacedText(c.data[start:c.pos], esc, hi) {
			kind = ReplacedText
		}
	case kNumber:
		if !withText(c.data[start:c.pos], esc, isValidNumber) {
			kind = InvalidValue
		}
	case kSlice:
		if !n.bytes {
			kind = WrongType
		} else if !c.clean && !withText(c.data[start:c.pos], esc, base64Valid) {
			kind = InvalidValue // (the clean mode reads a call the binder read: no base64 to judge)
		}
	case kQuoted:
		var buf [64]byte
		content := c.data[start+1 : c.pos-1]
		if esc {
			content, ok = jsonlex.Unquote(buf[:0], c.data[start:c.pos])
			if !ok {
				kind = WrongType
				break
			}
		}
		kind = quotedVerdictOf(content, n.base, n.bits)
		if kind == "" {
			kind = quotedLoss(content, n)
		}
	default:
		kind = WrongType
	}
	if c.prove && (esc || hi) {
		kind = c.textVerdict(kind, start, esc, hi) // V2 fails on the text's UTF-8 first
	}
	if kind != "" {
		c.issue(kind, c.lossAt(n, kind), start, c.pos)
	}
	return true
}

// withText runs ok on the text of the raw JSON string s.
func withText(s []byte, esc bool, ok func([]byte) bool) bool {
	if !esc {
		return ok(s[1 : len(s)-1])
	}
	var buf [64]byte
	t, _ := jsonlex.Unquote(buf[:0], s)
	return ok(t)
}

func (c *checker) number(n *node) bool {
	d := c.data
	start := c.pos
	i, intEnd, m, shape, ok := jsonlex.NumberInt(d, start) // m: the integer part's value, below 20 digits
	if !ok {
		return c.fail(i)
	}
	neg, frac, exp := shape&jsonlex.NumNeg != 0, shape&jsonlex.NumFrac != 0, shape&jsonlex.NumExp != 0
	digits := start // the integer part's first digit
	if neg {
		digits++
	}
	c.pos = i
	if c.cons.next != nil {
		c.consNumber(start, neg, m, frac || exp || intEnd-digits >= 20)
	}
	if n == nil {
		return true
	}
	var kind Code
	switch n.kind {
	case kNumber:
	case kInt, kUint:
		switch {
		case frac || exp:
			kind = NotWholeNumber
		case intEnd-digits < 20:
			kind = intBounds(neg, m, n.bits, n.kind == kInt)
		default:
			kind = intVerdict(neg, d[digits:intEnd], n.bits, n.kind == kInt)
			if c.wrapsInts && !neg {
				kind = segIntVerdict(d[digits:intEnd], n.bits, n.kind == kInt)
			}
		}
		if n.dur && kind != "" && kind != WrappedNumber {
			kind = InvalidValue // decodeDuration's parseInt failed (see durationText)
		}
	case kFloat:
		kind = floatVerdict(d[start:i], n.bits)
		if kind == "" && !frac && !exp && !exactFloat(d[digits:intEnd], n.bits) {
			kind = RoundedNumber
		}
	case kAny:
		kind = floatVerdict(d[start:i], 64)
		if kind == "" && !frac && !exp && !exactFloat(d[digits:intEnd], 64) {
			kind = RoundedNumber
		}
	default:
		kind = WrongType
	}
	if kind != "" {
		c.issue(kind, c.lossAt(n, kind), start, i)
	}
	return true
}

// intVerdict judges a whole number by its sign and its digits (leading
// zeros trimmed): more than 20 digits is past every integer type, shorter
// runs are compared with the type's bounds. It agrees with
// strconv.ParseInt/ParseUint and reflect's overflow checks, which the binder
// uses.
func intVerdict(neg bool, digits []byte, bits int, signed bool) Code {
	past := TooLarge
	if neg {
		past = TooSmall
	}
	if len(digits) > 20 {
		return past
	}
	if len(digits) < 20 { // below 10^19: no overflow
		return intBounds(neg, smallInt(digits), bits, signed)
	}
	var m uint64
	for _, ch := range digits {
		d := uint64(ch - '0')
		if m > (math.MaxUint64-d)/10 {
			return past
		}
		m = m*10 + d
	}
	return intBounds(neg, m, bits, signed)
}

// smallInt is the value of digits, a run of fewer than 20 ASCII digits
// (below 10^19: no overflow).
func smallInt(digits []byte) uint64 {
	var m uint64
	for _, ch := range digits {
		m = m*10 + uint64(ch-'0')
	}
	return m
}

// intBounds judges the whole number of sign neg and magnitude m for an
// integer type of the given size.
func intBounds(neg bool, m uint64, bits int, signed bool) Code {
	past := TooLarge
	if neg {
		past = TooSmall
	}
	if signed {
		limit := uint64(1) << (bits - 1)
		if neg && m > limit || !neg && m >= limit {
			return past
		}
		return ""
	}
	if neg {
		return TooSmall // even -0: ParseUint takes no sign
	}
	if bits < 64 && m>>bits != 0 {
		return TooLarge
	}
	return ""
}

// floatVerdict judges a JSON number for a float of the given size by its
// order of magnitude: below 10^38 (10^308 for a float64) it cannot pass the
// largest float, from 10^39 (10^309) on it does, and only a number between
// is left to strconv.ParseFloat, as the binder reads it. A number too small
// for the float is read as zero, never an error. So a long number costs a
// scan, and no copy.
func floatVerdict(num []byte, bits int) Code {
	neg := num[0] == '-'
	s := num
	if neg {
		s = s[1:]
	}
	i := jsonlex.Digits(s, 0)
	intPart, rest := s[:i], s[i:]
	var frac []byte
	if len(rest) > 0 && rest[0] == '.' {
		j := jsonlex.Digits(rest, 1)
		frac, rest = rest[1:j], rest[j:]
	}
	exp, huge := 0, false
	if len(rest) > 0 { // e or E, an optional sign, digits
		e := rest[1:]
		eneg := e[0] == '-'
		if e[0] == '+' || e[0] == '-' {
			e = e[1:]
		}
		for len(e) > 1 && e[0] == '0' {
			e = e[1:]
		}
		if len(e) > 9 {
			huge = true
		} else {
			for _, c := range e {
				exp = exp*10 + int(c-'0')
			}
		}
		if eneg {
			if huge {
				return "" // vanishingly small: read as zero
			}
			exp = -exp
		}
	}
	var mag int // the power of ten of the first significant digit
	if k := firstNonZero(intPart); k >= 0 {
		mag = len(intPart) - 1 - k + exp
	} else if k := firstNonZero(frac); k >= 0 {
		mag = -(k + 1) + exp
	} else {
		return "" // zero, whatever the exponent
	}
	limit := 308
	if bits == 32 {
		limit = 38
	}
	past := TooLarge
	if neg {
		past = TooSmall
	}
	switch {
	case huge || mag > limit:
		return past
	case mag < limit:
		return ""
	}
	if _, err := strconv.ParseFloat(unsafeString(num), bits); err != nil {
		return past
	}
	return ""
}

// exactFloat reports whether a float of the given size holds exactly the
// whole number of the given decimal digits (a sign aside), which is past
// neither float's largest value. Up to 15 digits (7 for a float32) always
// fit the mantissa; a longer number is parsed as the binder parses it and
// written back whole.
func exactFloat(digits []byte, bits int) bool {
	for len(digits) > 1 && digits[0] == '0' {
		digits = digits[1:]
	}
	if len(digits) <= 7 || bits == 64 && len(digits) <= 15 {
		return true
	}
	f, err := strconv.ParseFloat(unsafeString(digits), bits)
	if err != nil {
		return true // past the largest float: not a rounding
	}
	var buf [320]byte
	return bytes.Equal(strconv.AppendFloat(buf[:0], f, 'f', 0, bits), digits)
}

// quotedLoss judges, for a ,string field, text the binder reads without
// error (quotedVerdict found nothing): "null" leaves a field that is not a
// pointer as it was, and a whole number a float cannot hold exactly is
// rounded.
func quotedLoss(s []byte, n *node) Code {
	if string(s) == "null" {
		if n.typ.Kind() != reflect.Pointer {
			return NullForValue
		}
		return ""
	}
	if n.base != kFloat {
		return ""
	}
	digits := s
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') { // '+' is read under GOEXPERIMENT=jsonv2
		digits = digits[1:]
	}
	if len(digits) == 0 || len(digits) > 400 {
		return "" // nothing, or past the largest float
	}
	for _, ch := range digits {
		if ch < '0' || ch > '9' {
			return ""
		}
	}
	if !exactFloat(digits, n.bits) {
		return RoundedNumber
	}
	return ""
}

// holdsNull reports whether position n reads null as a value of its own
// (nil), where any other kind is left as it was: null is a loss there.
// Pointers and types that decode themselves are decided before.
func holdsNull(n *node) bool {
	switch n.kind {
	case kAny, kRaw, kSlice, kMap, kPtr, kTrial:
		return true
	case kQuoted:
		return n.typ.Kind() == reflect.Pointer
	}
	return false
}

func firstNonZero(digits []byte) int {
	for i, c := range digits {
		if c != '0' {
			return i
		}
	}
	return -1
}

// quotedVerdict judges the text inside the JSON string sent for a ,string
// field of bool, integer or float kind, as encoding/json's literalStore
// reads it with fromQuoted set.
func quotedVerdict(s []byte, base nodeKind, bits int) Code {
	if len(s) == 0 {
		return WrongType
	}
	switch s[0] {
	case 'n':
		if string(s) == "null" {
			return ""
		}
		return WrongType
	case 't', 'f':
		if base == kBool && (string(s) == "true" || string(s) == "false") {
			return ""
		}
		return WrongType
	}
	if s[0] != '-' && (s[0] < '0' || s[0] > '9') || base == kBool {
		return WrongType
	}
	switch base {
	case kFloat:
		f, err := strconv.ParseFloat(unsafeString(s), bits)
		if err == nil {
			return ""
		}
		if errors.Is(err, strconv.ErrRange) {
			if f < 0 {
				return TooSmall
			}
			return TooLarge
		}
		if isValidNumber(s) {
			return NotWholeNumber // unreachable: ParseFloat reads every JSON number
		}
		return WrongType
	default: // kInt, kUint
		neg := s[0] == '-'
		digits := s
		if neg {
			digits = s[1:]
		}
		if len(digits) == 0 {
			return WrongType
		}
		for _, ch := range digits {
			if ch < '0' || ch > '9' {
				if isValidNumber(s) {
					return NotWholeNumber
				}
				return WrongType
			}
		}
		for len(digits) > 0 && digits[0] == '0' {
			digits = digits[1:]
		}
		return intVerdict(neg, digits, bits, base == kInt)
	}
}

func ascii(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// lookup returns the index of the field the key raw (quoted; esc: with
// escapes) binds to, or -1, and whether it binds only by case folding.
func (fs *fieldSet) lookup(raw []byte, esc bool) (int, bool) {
	return fs.lookupKey(raw, esc, !ascii(raw[1:len(raw)-1]))
}

// lookupKey is lookup for a key the lexer read: esc, it holds an escape;
// hi, a byte past ASCII.
func (fs *fieldSet) lookupKey(raw []byte, esc, hi bool) (int, bool) {
	if esc || hi {
		return fs.lookupOdd(raw)
	}
	key := raw[1 : len(raw)-1]
	if !fs.names.may(key, true) {
		return -1, false // no field's name, nor a fold of one
	}
	return fs.lookupText(key)
}

// lookupNext is lookupKey for the key raw of a struct's object whose last
// key bound the field of index guess-1: a key that names field guess
// exactly (the next declared, as most calls send them) binds it, as the
// table would find; any other is looked up.
func (fs *fieldSet) lookupNext(raw []byte, esc, hi bool, guess int) (int, bool) {
	if !esc && !hi && guess < len(fs.order) {
		if s := &fs.order[guess]; s.i != 0 && s.named(raw) {
			lookedUp()
			return guess, false
		}
	}
	return fs.lookupKey(raw, esc, hi)
}

// lookupOdd is lookupKey for a key with escapes, or UTF-8 the binder may
// replace: read by its text. (Apart, so that a plain key's lookup, most
// keys', clears no room for the text.)
func (fs *fieldSet) lookupOdd(raw []byte) (int, bool) {
	if fs.names.tooLong(raw) {
		return -1, false // its text is longer than any that may match
	}
	var buf [64]byte
	key, _ := jsonlex.Unquote(buf[:0], raw)
	if !fs.names.may(key, false) {
		return -1, false // no field's name, nor a fold of one
	}
	return fs.lookupText(key)
}

// lookupText is lookupKey for the key's text, past the filter.
func (fs *fieldSet) lookupText(key []byte) (int, bool) {
	lookedUp()
	if i := fs.find(key); i >= 0 {
		return i, false
	}
	if fs.folded == nil {
		return fs.lookupV2(key) // the binder binds exact names only, or by V2's case:ignore
	}
	return fs.lookupFolded(key)
}

// lookupFolded is lookupText for a key no field names exactly, under
// encoding/json's case folding.
func (fs *fieldSet) lookupFolded(key []byte) (int, bool) {
	var fb [128]byte
	if f, ok := foldNameMax(fb[:0], key, fs.maxFold); ok {
		if i, ok := fs.folded[string(f)]; ok {
			return i, true
		}
	}
	return -1, false
}
