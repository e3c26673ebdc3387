package bind

import (
	"encoding/json"
	"reflect"

	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/decoders"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// Types that decode themselves, in the proving pass of V2 and SegmentIO: a
// position whose type the binder reads by a method of the type's own
// (UnmarshalJSON, V2's UnmarshalJSONFrom, UnmarshalText; json.RawMessage
// under V2, which reads it by its UnmarshalJSON) or, time.Time, by a rule
// of its own for it, is a kTrial node, as under Std: the pass has the
// binder decode that value alone, in a one-field wrapper (decodeTrial),
// and gives the verdict the trial check gives, which decodes each
// argument alone and follows the binder's error into it (trialPlan.issue):
//
//   - the value decoded, the loss walk of a call the binder reads
//     finds what the binder's self rule says (selfLeaf, rules.self): null
//     lost where the node says so (NullForValue: the type has no nil and
//     the binder leaves the zero value, or a time.Time), and, under
//     segmentio, a string an UnmarshalText reads with invalid text
//     replaced (ReplacedText);
//   - the value failing, the trial check's issue lies at the value where
//     the binder's error locates it there or inside it (V2: a
//     SemanticError or SyntacticError whose JSON pointer runs through the
//     wrapper's field; segmentio: its own *json.UnmarshalTypeError, whose
//     dotted Field it prefixes on the way out), of the kind the error or
//     the value's text says (textKind: InvalidValue for a type of its own
//     methods; V2's WrongType for a JSON kind its time.Time does not
//     read); otherwise (a method's own error under segmentio, an error V2
//     does not locate, a panic, which is a *PanicError) at the
//     argument's value, of the kind its text says for the parameter's
//     type, as the trial check's issue has no path into the argument
//     then. Each argument's first failure only: the binder stops there.
//
// The method's error is the issue's Err (the trial check's is the
// argument's: the same error, but for the path V2 puts in it). The pass
// declines a self-decoding value with a constraint on it, one whose text
// is not JSON or nests past the limit, and one whose error segmentio
// wraps its UnmarshalTypeError in (whose Field it leaves as the method
// set it, which the trial check follows from the argument's value).

// selfLoss is what the loss walk finds in a self-decoding value
// the binder reads.
type selfLoss uint8

const (
	selfNullLost selfLoss = 1 << iota // null is lost (selfLeaf.nullLoss)
	selfText                          // read by UnmarshalText from a string: invalid text is replaced under segmentio (selfLeaf.text)
)

// A selfLeaf is how a binder reads a value of a type it reads by the
// type's own method (or, for time.Time, a rule of its own): whole, with
// null lost or not.
type selfLeaf struct {
	nullLoss bool // null leaves a value that has no nil as it was (NullForValue)
	text     bool // read by UnmarshalText from a JSON string's text, which segmentio replaces invalid text in first
}

// v2Self is V2's rules.self: the types it reads by their own methods, but
// jsontext.Value (kRaw, see v2Own), and time.Time.
func v2Self(t reflect.Type) *selfLeaf {
	switch {
	case t == goTime:
		return &selfLeaf{nullLoss: true} // read natively, whatever its methods
	case !v2Custom(t) || isJSONTextValue(t):
		return nil
	case implementsAnyOf(t, v2T().jsonUnmarshalers):
		// Its method reads null too: a loss when it leaves the zero value.
		return &selfLeaf{nullLoss: !nilable(t.Kind()) && nullLeavesZeroType(v2Binder{}, t)}
	}
	// UnmarshalText reads the text of a JSON string; null sets the zero
	// value without it.
	return &selfLeaf{nullLoss: !nilable(t.Kind()), text: true}
}

// segSelf is SegmentIO's rules.self: the types it reads by their own
// methods, and time.Time.
func segSelf(t reflect.Type) *selfLeaf {
	switch {
	case t == goTime:
		return &selfLeaf{nullLoss: true}
	case !segCustom(t):
		return nil
	case reflect.PointerTo(t).Implements(goUnmarshaler):
		// UnmarshalJSON reads null too: a loss when it leaves the zero value.
		return &selfLeaf{nullLoss: !nilable(t.Kind()) && nullLeavesZeroType(segmentioBinder{}, t)}
	}
	// UnmarshalText reads the text of a JSON string (replaced first); null
	// leaves the value as it was.
	return &selfLeaf{nullLoss: !nilable(t.Kind()), text: true}
}

// selfNode fills position n of type t as a self-decoding value, for a
// proving pass whose binder reads t so (rules.self), and reports whether
// it did.
func (c *compiler) selfNode(n *node, t reflect.Type) bool {
	if c.rules.self == nil {
		return false
	}
	ln := c.rules.self(t)
	if ln == nil {
		return false
	}
	n.kind, n.trial = kTrial, wrapper(t, false)
	if ln.nullLoss {
		n.self |= selfNullLost
	}
	if ln.text {
		n.self |= selfText
	}
	return true
}

// selfQuoted is, for V2's proving pass, the position of a field of type t
// under the ,string option, where t decodes itself: V2 hands the value to
// the type's method as sent (a time.Time it fails on), which the binder's
// decode of the value in a wrapper with the option decides; nil for any
// other field. (Segmentio reads the text inside the string with the
// type's codec, for a bool, number or string kind, which the pass decodes
// so too, see segQuotedSelf; of any other kind it ignores the option.)
func (c *compiler) selfQuoted(t reflect.Type, quoted bool) *node {
	if !quoted || !c.rules.prove || c.rules.segReads || c.rules.self == nil {
		return nil
	}
	n := &node{typ: t}
	if !c.selfNode(n, t) {
		return nil
	}
	n.trial = wrapper(t, true)
	return n
}

// selfValue reads the value at c.pos into self-decoding position n, for a
// proving pass: the binder decodes it alone (see above).
func (c *checker) selfValue(n *node) bool {
	if c.cons.next != nil {
		return c.decline() // a constraint on it: the checks read the text
	}
	start := c.pos
	end, serr := jsonlex.Skip(c.data, start, c.depthLimit-c.depth)
	if serr != nil {
		return c.decline()
	}
	c.pos = end
	if c.param >= 0 && c.failedIn == c.steps.arg.ks+1 {
		return true // the binder stopped at the argument's first failure, and a call that fails lists no loss
	}
	k := jsonlex.KindAt(c.data, start)
	if c.dupDropped && (k == jsonlex.KindObject || k == jsonlex.KindArray) {
		c.self.composite = true // see native
	}
	var err error
	if !c.batched(n) && !c.clean { // batched: the binder read the whole list (batchOpen); clean: the whole call (clean.go)
		work(end - start) // decoded again, with the binder
		err = c.self.decode(c, n, start, end)
	}
	switch {
	case err != nil:
		c.selfFailed(n, start, end, err)
	case k == jsonlex.KindNull:
		if n.self&selfNullLost != 0 {
			c.issue(NullForValue, n, start, end)
		}
	case k == jsonlex.KindString && n.self&selfText != 0 && c.replaces:
		if replaces(c.data[start:end]) {
			c.issue(ReplacedText, n, start, end)
		}
	}
	return true
}

// selfMemo is what a proving pass holds of the self-decoding values it
// decoded: whether it met one, and the last one decoded, so that a value
// sent again, as a repeated key's, is decoded once (as the trial check
// decodes each distinct value once). (Under segmentio, which decodes a
// repeated field's value into what the one before left, a call with a
// field of such a type sent again the pass declines: see fieldAgain.)
type selfMemo struct {
	met        bool
	composite  bool // V2's pass decoded an object or array alone (see native)
	n          *node
	start, end int
	err        error
}

// decode decodes the value data[start:end] into position n with the
// binder, or returns the verdict of the same value decoded last.
func (m *selfMemo) decode(c *checker, n *node, start, end int) error {
	if m.met && m.n == n && string(c.data[m.start:m.end]) == string(c.data[start:end]) {
		return m.err
	}
	m.met, m.n, m.start, m.end = true, n, start, end
	m.err = decodeTrial(c.binder, n, c.data[start:end])
	return m.err
}

// selfFailed records the trial check's issue for the self-decoding value
// data[start:end] of position n, which the binder failed on with err.
func (c *checker) selfFailed(n *node, start, end int, err error) {
	var h trialHooks
	at := false // the trial check's issue is at the value
	kind := Code("")
	switch c.binder.(type) {
	case v2Binder:
		h = (*v2Mirror)(nil)
		if e, ok := decoders.V2.ReadError(err); ok && len(e.Pointer) > 0 && e.Pointer[0] == "F" {
			at, kind = true, h.explain(err).kind
		} else if ok {
			kind = h.explain(err).kind
		} else {
			kind = InvalidValue // explain's verdict of an error it cannot read
		}
	case segmentioBinder:
		h = (*segMirror)(nil)
		if _, direct := err.(*json.UnmarshalTypeError); direct {
			at = true // segmentio's own, its Field prefixed with the path
		} else if _, wrapped := contain.As[*json.UnmarshalTypeError](err); wrapped {
			c.decline() // its Field the method's, which the trial check follows from the argument
			return
		}
	default:
		c.decline()
		return
	}
	if _, panicked := err.(*PanicError); panicked {
		at, kind = false, InvalidValue
	}
	if at {
		if kind == "" {
			kind = textKind(n.typ, c.data[start:end], false, h)
		}
		before := len(c.issues)
		c.issue(kind, n, start, end)
		if len(c.issues) > before {
			c.issues[len(c.issues)-1].Err = err
		}
		return
	}
	c.selfArgFailed(kind, err, h)
}

// selfArgFailed records the trial check's issue for an argument whose
// value failed with err where the binder's error does not locate the
// failure: at the argument's value, of kind (or, "", the kind its text
// says for the parameter's type), the type the parameter's with its
// pointers taken off (but one that decodes itself).
func (c *checker) selfArgFailed(kind Code, err error, h trialHooks) {
	if c.param < 0 || c.argNode == nil {
		c.decline()
		return
	}
	if !c.firstFailure() {
		return // the binder stops at an argument's first failure
	}
	end := c.argAt
	if e, serr := jsonlex.Skip(c.data, c.argAt, MaxDepth); serr == nil {
		end = e
	}
	t := c.argNode.typ
	quoted := c.argNode.quoted
	if kind == "" {
		kind = textKind(t, c.data[c.argAt:end], quoted, h)
	}
	if !c.admit(kind, c.param) {
		return
	}
	for t.Kind() == reflect.Pointer && !h.custom(t) {
		t = t.Elem()
	}
	c.issues = append(c.issues, Issue{Kind: kind, Param: c.param, Start: c.argAt, End: end, Type: t, Quoted: quoted,
		Path: argPath(c.data, c.steps.arg.ks, c.steps.arg.ke), Err: err})
}
