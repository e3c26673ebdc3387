package bind

import (
	"reflect"
	"strconv"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// SegmentIO's maps of integer keys, read by the one pass (rules.jsonKeys),
// as segmentio v0.5.4 reads them (codec.go's constructMapCodec: a key is
// read by decodeFromString with the key type's integer decoder):
//
//   - a key is "null" (read as null is, the key type's zero:
//     NullForValue at the key) or a JSON integer in the key type's range,
//     no sign but '-' and never under an unsigned type, no leading zero,
//     then only space; one of 20 digits or more as parseInt reads it
//     (see segIntVerdict: it may wrap, WrappedNumber at the key, space
//     after it or not);
//   - on any other key segmentio fails with an error that names no path:
//     the trial check places it at the argument's value, InvalidValue in
//     the argument's type, wherever the map is in the argument (see
//     segKeyFailed);
//   - a failure in a value of such a map segmentio's error places by a
//     path that names the key by the integer read (decodeMap's
//     fmt.Sprint of it: "null" and "-0" are 0, "1 " is 1, a wrapped key
//     the number it wraps to); the trial check follows it to the first
//     member read as that integer (child, pathKey), which is the member
//     failed on: one read as the same integer before it is a repeat, and
//     a call that fails with a repeat the pass declines. So the pass's
//     issue, at the value by the key's text, stands. A loss in such a
//     value the loss walk places by the key's text too;
//   - two keys are one key where segmentio reads them as one, as the loss
//     walk tells them (keyIdentity: the text but the space after
//     it, "null" as 0, an integer its value, a wrapped one the number it
//     wraps to; see segKeyIdentity).

// kSegInt and kSegUint are segRules' key kinds of a map of signed and of
// unsigned integer keys (node.key), which segKey reads.
const (
	kSegInt = kSegBytes + 1 + iota
	kSegUint
)

// segKeyKind is, under rules r, the key kind of a map whose integer key
// kind is kind (kInt, kUint).
func segKeyKind(r *rules, kind nodeKind) nodeKind {
	switch {
	case !r.prove || !r.jsonKeys:
		return kind
	case kind == kInt:
		return kSegInt
	}
	return kSegUint
}

// segKey reports whether segmentio reads key, the text of a key at
// data[ks:ke] of integer map n (see above), and lists what it finds: the
// failure (segKeyFailed), or a wrapped key's loss.
func (c *checker) segKey(key []byte, n *node, ks, ke int) bool {
	d := key[:segSpaced(key)]
	if string(d) == "null" {
		c.issue(NullForValue, &node{typ: n.typ.Key()}, ks, ke) // read as null is: the key type's zero
		return true
	}
	signed := n.key == kSegInt
	neg := len(d) > 0 && d[0] == '-'
	if neg {
		if !signed {
			return c.segKeyFailed()
		}
		d = d[1:]
	}
	if len(d) == 0 || d[0] < '0' || d[0] > '9' || d[0] == '0' && len(d) > 1 {
		return c.segKeyFailed()
	}
	for _, b := range d {
		if b < '0' || b > '9' {
			return c.segKeyFailed()
		}
	}
	var kind Code
	switch {
	case neg:
		kind = intVerdict(true, d, n.bits, true)
	case len(d) < 20:
		kind = intVerdict(false, d, n.bits, signed)
	default:
		kind = segIntVerdict(d, n.bits, signed)
	}
	switch kind {
	case "":
	case WrappedNumber:
		c.issue(WrappedNumber, &node{typ: n.typ.Key()}, ks, ke)
	default:
		return c.segKeyFailed()
	}
	return true
}

// segSpaced returns the length of key but the space after its text.
func segSpaced(key []byte) int {
	end := len(key)
	for end > 0 && jsonlex.Space(key, end-1) == len(key) {
		end--
	}
	return end
}

// segKeyFailed lists, for a key of an integer map segmentio fails on,
// the trial check's issue (segArgFailed), and returns false.
func (c *checker) segKeyFailed() bool {
	c.segArgFailed()
	return false
}

// segArgFailed lists, for a failure segmentio's error names no path for
// (a key of an integer map, text that is not base64, some of a ,string
// field's), the trial check's issue: InvalidValue at the argument's
// value, in the argument's type, where it is the argument's first
// failure (segmentio stops there: the failures the pass finds past it in
// the argument firstFailure drops, and the call's losses onlyFailures).
func (c *checker) segArgFailed() {
	if c.param < 0 || !c.firstFailure() || !c.admit(InvalidValue, c.param) {
		return
	}
	end := c.argAt
	if e, err := jsonlex.Skip(c.data, c.argAt, MaxDepth); err == nil {
		end = e
	}
	t := c.argNode.typ
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	c.issues = append(c.issues, Issue{Kind: InvalidValue, Param: c.param, Start: c.argAt, End: end, Type: t,
		Path: argPath(c.data, c.steps.arg.ks, c.steps.arg.ke)})
}

// segKeyIdentity appends to dst what makes the raw key of a map of
// integer keys (signed or not) the key it is, as the loss walk
// tells two keys apart (keyIdentity), without allocating.
func segKeyIdentity(dst, raw []byte, signed bool) []byte {
	text := keyText(dst, raw)
	text = text[:segSpaced(text)] // "1 " is 1
	if string(text) == "null" {
		return append(dst[:0], '0')
	}
	if v, ok := decimal(text, signed); ok { // as strconv.ParseInt or ParseUint, with no error to allocate
		if signed {
			return strconv.AppendInt(dst[:0], int64(v), 10)
		}
		return strconv.AppendUint(dst[:0], v, 10)
	}
	if segWrapped(text, 64, signed) {
		v, _ := segWrap(text, signed)
		return strconv.AppendUint(dst[:0], v, 10)
	}
	return text
}

// segKeyText reports, for a proving pass under segmentio, whether it reads
// the key at data[ks:ke] of an object read into position n (nil: a value
// dropped), whose text is not valid UTF-8 (invalid bytes, a lone surrogate
// escape: plainKey leaves it), as segmentio does. segmentio's
// parseStringUnquote replaces that text as encoding/json does, each
// invalid byte (appendCoerceInvalidUTF8) and each surrogate escape not
// paired with the escape after it with U+FFFD, then binds the key by the
// text: the pass reads the key by the same text (lookupKey, repeatedKey),
// where it binds no field of a struct (UnknownArgument, UnknownField), in
// a map of string keys or in any (ReplacedText, at the key; where the key
// type's UnmarshalText reads it, the method gets the replaced text: see
// textKey), in a map of
// integer keys (segKey: decodeFromString fails on the text, as U+FFFD is
// no digit nor space, InvalidValue at the argument's value), and in an
// object segmentio reads no key of (dropped, or of the wrong kind:
// parseValue checks a key's syntax only). A failure below such a key
// segmentio's path names by the text, and the trial check follows it to
// the first member of that text whose value fails alone, the one failed
// on (see judgeFor). It declines a key a field binds by its replaced text (the
// loss walk lists a ReplacedText for it), which no key is: no field's name
// holds U+FFFD, which segmentio's tag names, as encoding/json's, refuse
// (the field keeps its Go name). Where the value under a key
// of a map or any holds an issue, the key's ReplacedText is listed before
// the value's issues, as the trial check lists it (keyLossesFirst).
func (c *checker) segKeyText(n *node, ks, ke int, esc, hi bool) bool {
	if !c.replaces {
		return false
	}
	switch {
	case n == nil:
		return true
	case n.kind == kStruct:
		i, _ := n.fields.lookupKey(c.data[ks:ke], esc, hi)
		return i < 0
	}
	return true // a map (its key type's UnmarshalText handed the replaced text: textKey), any, or an object of the wrong kind
}
