package bind

import (
	"reflect"
	"time"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// SegmentIO's ,string fields, read by the one pass (rules.segReads), as
// segmentio v0.5.4 reads them (codec.go's constructStructType, decode.go's
// decodeFromString and decodeFromStringToInt):
//
//   - the option applies to a field whose type, through one pointer, is
//     of integer, float, bool or string kind; any other kind (a slice, a
//     map, a struct, a pointer to a pointer, an interface, an array) reads
//     as without it;
//   - null (unquoted) is read as without the option: a pointer is set nil,
//     any other is left as it was (NullForValue, not Quoted, as the trial
//     check gives it);
//   - any other value must be a JSON string; its text, unquoted (invalid
//     UTF-8 replaced), is read by the kind's own decoder:
//     an integer (decodeFromStringToInt): not "", its leading zeros
//     trimmed after a sign, then "null" or a whole number in range, no
//     sign but '-' (none for an unsigned one), nothing after it (not even
//     space); a number of 20 digits or more as parseInt reads it (see
//     segIntVerdict: it may wrap, WrappedNumber);
//     a float, a bool or a string (decodeFromString): "null", a JSON
//     number strconv.ParseFloat takes in range (a float), true or false
//     (a bool), a JSON string (a string), each with only space after it;
//   - the text "null" (and, but for an integer, which fails on it, "null"
//     then white space) sets a pointer nil and leaves any other value as
//     it was (NullForValue), a whole number a float cannot hold exactly is
//     rounded (RoundedNumber), a string's invalid text replaced
//     (ReplacedText), as the loss walk lists them.
//
// A failure of an argument's own ,string value the trial check places at
// the value, of the kind its text says (see segQuotedFailure); a failure
// of one inside an argument by the kind of segmentio's error: an
// UnmarshalTypeError at the field, of the kind its type says of the text
// read without the option (see segQuotedTyped), any other at the
// argument's value (segArgFailed). Text opening with a string that holds
// a control character and no backslash segmentio reads or not by the
// call's bytes (its validAsciiPrint flag, see segQuotedControl): a string
// reads it where the call is printable ASCII; where only the argument is,
// segmentio fails on the call and the trial check, decoding the argument
// alone, in none (InvalidJSON, no argument); where the argument is not, it
// fails on it (segArgFailed). A float or a bool fails on it as on any
// string (WrongType at the field); text of another value holding such a
// string, read by parseValue as the argument's bytes say, the pass
// declines. A json.Number's text it reads as a float's, of no range and
// no rounding (decodeNumber: any JSON number, kept as its text; an
// argument's own unquoted number InvalidValue, as the trial check says of
// a number a json.Number reads), a uintptr's as a uint64's (decodeUintptr
// is decodeUint64's parseUint); a time.Duration's as decodeDuration reads
// it under decodeFromStringToInt, by rules of its own (see
// segQuotedDuration: an integer's text, "null", or a JSON string
// time.ParseDuration takes; a failure an argument's own at the value,
// InvalidValue but for an unquoted value of another kind, WrongType, as
// the trial check reads a Duration's text, and one inside an argument at
// the field or at the argument's value by the kind of segmentio's error).
// A field of a type that decodes itself, of one of those kinds, has its
// text read by the type's own codec, which the binder decodes alone (see
// segQuotedSelf).

// kSegQuoted is segRules' position (node.seg, of a kDecline node) of a
// ,string field: base is the kind segmentio reads the text as (kBool,
// kInt, kUint, kFloat, kString), bits its size, typ the field's type (a
// pointer, or not).
const kSegQuoted = kDecline + 1

// segQuotedNode compiles, under segmentio's rules, the position of a
// field of type t with the ,string option.
func (c *compiler) segQuotedNode(t reflect.Type) (*node, error) {
	base := t
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	kind := quotedKind(base.Kind())
	if base.Kind() == reflect.String {
		kind = kString
	}
	if kind == 0 {
		return c.node(t, false) // segmentio ignores the option
	}
	if base == goNumber {
		// decodeFromString with decodeNumber: a float's text, of no range
		// (bits 0: see segQuotedNumber).
		return &node{kind: kDecline, seg: kSegQuoted, base: kFloat, typ: t, quoted: true}, nil
	}
	if base == goDuration {
		// decodeFromStringToInt with decodeDuration: an integer's text
		// by rules of its own (see segQuotedDuration).
		return &node{kind: kDecline, seg: kSegQuoted, base: kInt, bits: 64, dur: true, typ: t, quoted: true}, nil
	}
	n := &node{kind: kDecline, seg: kSegQuoted, base: kind, typ: t, quoted: true}
	if kind != kBool && kind != kString {
		n.bits = base.Bits()
	}
	if segCustom(base) {
		// decodeFromString (decodeFromStringToInt) with the type's own
		// codec: the binder decodes the value alone (see segQuotedSelf).
		n.trial = wrapper(t, true)
		return n, nil
	}
	if c.rules.declines(base) {
		return c.declinedNode(t, true)
	}
	return n, nil
}

// segQuoted reads the value at c.pos into ,string position n (see above).
func (c *checker) segQuoted(n *node) bool {
	if n.trial != nil {
		return c.segQuotedSelf(n)
	}
	start := c.pos
	k := jsonlex.KindAt(c.data, start)
	if !c.value(nil) {
		return false
	}
	if c.param >= 0 && c.failedIn == c.steps.arg.ks+1 {
		return true // the binder stopped at the argument's first failure
	}
	ptr := n.typ.Kind() == reflect.Pointer
	base := n.typ
	if ptr {
		base = base.Elem()
	}
	raw := c.data[start:c.pos]
	if k == jsonlex.KindNull {
		if !ptr {
			c.issue(NullForValue, &node{typ: base}, start, c.pos)
		}
		return true
	}
	var buf [128]byte
	var text []byte
	ok, ctl := false, false
	if k == jsonlex.KindString {
		text, _ = jsonlex.Unquote(buf[:0], raw)
		if end := segQuotedControl(n, text); end > 0 {
			// parseString reads the string whole where the call's bytes
			// are printable (and then only space may follow); the trial
			// check decodes the argument alone where the call fails.
			ctl = true
			switch {
			case jsonlex.Space(text, end) != len(text) || !c.segPrint.arg(c, start):
			case c.segPrint.whole(c.data):
				ok = true
			default:
				c.segPrint.hidden = true // segmentio fails on the call, and reads the argument alone
				return true
			}
		} else {
			ok = segQuotedReads(n, raw, text)
		}
	}
	if !ok && c.clean {
		ok = true // the binder reads the call: the value is read (a control character in it as the call's bytes say)
	}
	if !ok {
		switch {
		case start == c.argAt:
			kind := segQuotedFailure(n.base, k, text)
			switch {
			case segQuotedNumber(n) && k == jsonlex.KindNumber:
				kind = InvalidValue // the trial check's: a json.Number reads a number
			case n.dur:
				kind = durationKind(k) // a Duration's text is no JSON number to the trial check
			}
			c.issue(kind, &node{typ: base, quoted: true}, start, c.pos)
		case ctl:
			c.segArgFailed() // a syntax error: no path
		case n.base != kInt && n.base != kUint && segControl(text) && c.segPrint.arg(c, start):
			// parseValue reads a string opening the text whole (see
			// segQuotedControl), in the argument decoded alone: a type
			// error, as for any string; a value holding one it reads as
			// the call's bytes say, which the pass does not model.
			if segControlString(text) == 0 {
				return c.decline()
			}
			c.issue(WrongType, &node{typ: base}, start, c.pos)
		case segQuotedTyped(n, k, raw, text):
			kind := WrongType // of the field, as read without the option (textKind)
			switch {
			case n.dur:
				kind = durationKind(k)
			case k == jsonlex.KindNumber:
				kind = NotWholeNumber
			case n.base == kString:
				kind = InvalidValue
			}
			c.issue(kind, &node{typ: base}, start, c.pos)
		default:
			c.segArgFailed() // segmentio's error names no path
		}
		return true
	}
	if loss := segQuotedLoss(n, raw, text); loss != "" {
		c.issue(loss, &node{typ: base, quoted: true}, start, c.pos)
	}
	return true
}

// segQuotedSelf reads the value at c.pos into ,string position n of a
// type that decodes itself (n.trial), which segmentio reads as it reads
// any ,string field of the type's kind, but for the text inside the
// string: that the type's own codec reads (its UnmarshalJSON is handed
// the text as JSON, its UnmarshalText the text of a JSON string there,
// and then only space may follow). The binder decodes the value alone,
// in a wrapper of the field's type and option, and gives the verdict as
// for any self-decoding value (see selfdec.go): a failure at the value
// where its error is segmentio's own UnmarshalTypeError (its Quoted for an
// argument's own value only, as the trial check marks it), otherwise at
// the argument's value; decoded, the losses the loss walk lists
// by the text, as for a ,string field of the kind (segQuotedLoss), and a
// null lost but in a pointer. Text holding a control character it
// declines: the codec's parseString reads it or not by the call's bytes
// (see segQuotedControl).
func (c *checker) segQuotedSelf(n *node) bool {
	if c.cons.next != nil {
		return c.decline() // a constraint on it: the checks read the text
	}
	start := c.pos
	k := jsonlex.KindAt(c.data, start)
	if !c.value(nil) {
		return false
	}
	if c.param >= 0 && c.failedIn == c.steps.arg.ks+1 {
		return true // the binder stopped at the argument's first failure
	}
	raw := c.data[start:c.pos]
	var buf [128]byte
	var text []byte
	if k == jsonlex.KindString {
		text, _ = jsonlex.Unquote(buf[:0], raw)
		if segControl(text) && !c.clean {
			return c.decline()
		}
	}
	base := n.typ
	if base.Kind() == reflect.Pointer {
		base = base.Elem()
	}
	var err error
	if !c.clean { // in clean mode the binder read it: its losses are the text's
		work(len(raw)) // decoded again, with the binder
		err = c.self.decode(c, n, start, c.pos)
	}
	switch {
	case err != nil:
		c.selfFailed(&node{typ: base, quoted: start == c.argAt}, start, c.pos, err)
	case k == jsonlex.KindNull:
		if n.typ.Kind() != reflect.Pointer {
			c.issue(NullForValue, &node{typ: base}, start, c.pos)
		}
	default:
		// The method reads the number in the text: segmentio rounds and
		// wraps none of it (as the loss walk reads it: lossoracle_test.go).
		if loss := segQuotedLoss(n, raw, text); loss != "" && loss != RoundedNumber && loss != WrappedNumber {
			c.issue(loss, &node{typ: base, quoted: true}, start, c.pos)
		}
	}
	return true
}

// segQuotedReads reports whether segmentio reads text, the unquoted text
// of the JSON string raw, into ,string position n.
func segQuotedReads(n *node, raw, text []byte) bool {
	switch n.base {
	case kInt, kUint:
		if n.dur {
			reads, _ := segQuotedDuration(raw, text)
			return reads
		}
		if len(raw) == 2 {
			return false // "": decodeFromStringToInt's own error
		}
		if string(text) == "null" {
			return true
		}
		if len(text) == 0 || text[0] == '+' {
			return false // parseInt and parseUint read no '+'
		}
		neg := text[0] == '-'
		digits := text
		if neg {
			if n.base == kUint {
				return false
			}
			digits = text[1:]
		}
		digits = trimZeros(digits) // decodeFromStringToInt trims them after the sign
		if len(digits) == 0 {
			return false
		}
		for _, ch := range digits {
			if ch < '0' || ch > '9' {
				return false
			}
		}
		switch {
		case neg:
			return intVerdict(true, digits, n.bits, true) == ""
		case len(digits) < 20:
			return intVerdict(false, digits, n.bits, n.base == kInt) == ""
		}
		return segIntVerdict(digits, n.bits, n.base == kInt) != TooLarge
	}
	// decodeFromString: the kind's decoder reads a prefix of the text,
	// then only space may follow.
	if len(text) >= 4 && string(text[:4]) == "null" {
		return jsonlex.Space(text, 4) == len(text)
	}
	switch n.base {
	case kFloat:
		end := len(text)
		for end > 0 && jsonlex.Space(text, end-1) == len(text) {
			end--
		}
		return isValidNumber(text[:end]) && (segQuotedNumber(n) || floatVerdict(text[:end], n.bits) == "")
	case kBool:
		rest := -1
		switch {
		case len(text) >= 4 && string(text[:4]) == "true":
			rest = 4
		case len(text) >= 5 && string(text[:5]) == "false":
			rest = 5
		}
		return rest >= 0 && jsonlex.Space(text, rest) == len(text)
	default: // kString
		if jsonlex.KindAt(text, 0) != jsonlex.KindString {
			return false
		}
		end, _, ok := jsonlex.String(text, 0)
		return ok && jsonlex.Space(text, end) == len(text)
	}
}

// segQuotedControl returns, for text, the text of a ,string string, the
// end of the JSON string that opens it where that string holds a control
// character and no backslash up to its first quote, or 0. segmentio's
// parseString reads such a string whole, without looking at its bytes,
// where the whole call but its surrounding space is printable ASCII (its
// validAsciiPrint flag: the control character came from an escape), and
// fails on it otherwise, as on any string with a control character.
func segQuotedControl(n *node, text []byte) int {
	if n.base != kString {
		return 0
	}
	return segControlString(text)
}

// segControlString returns the end of the JSON string opening text where
// it holds a control character and no backslash up to its first quote, or
// 0 (see segQuotedControl).
func segControlString(text []byte) int {
	if jsonlex.KindAt(text, 0) != jsonlex.KindString || !segControl(text) {
		return 0
	}
	// The string with its control characters made printable: its end is
	// its first quote where it holds no backslash.
	var buf [128]byte
	clean := append(buf[:0], text...)
	for i, ch := range clean {
		if ch < 0x20 {
			clean[i] = 'x'
		}
	}
	end, f, ok := jsonlex.String(clean, 0)
	if !ok || f&jsonlex.Escaped != 0 || !segControl(text[:end]) {
		return 0
	}
	return end
}

// segPrint is, for one check, whether segmentio's validAsciiPrint flag
// is set (internalParseFlags: every byte but the surrounding space in
// 0x20..0x7e) for the whole call and for the argument last asked about,
// each found once (0 not yet, 1 set, 2 not); hidden, that a ,string
// string segmentio fails on in the call it reads in its argument alone
// (see segQuotedControl).
type segPrint struct {
	call, argOf int8
	argAt       int
	hidden      bool
}

// whole reports whether data, the call, is printable ASCII.
func (p *segPrint) whole(data []byte) bool {
	if p.call == 0 {
		s := jsonlex.Space(data, 0)
		p.call = printFlag(data[s:max(s, segSpaced(data))])
	}
	return p.call == 1
}

// arg reports whether the value of the argument c reads, holding the
// value at data[start:c.pos], is printable ASCII: the trial check decodes
// it alone.
func (p *segPrint) arg(c *checker, start int) bool {
	if c.param < 0 {
		return p.whole(c.data)
	}
	if p.argOf == 0 || p.argAt != c.argAt {
		end := c.pos
		if start != c.argAt {
			e, err := jsonlex.Skip(c.data, c.argAt, MaxDepth)
			if err != nil {
				e = c.argAt
			}
			end = e
		}
		p.argAt, p.argOf = c.argAt, printFlag(c.data[c.argAt:end])
	}
	return p.argOf == 1
}

// printFlag is 1 where every byte of b is printable ASCII, 2 where not.
func printFlag(b []byte) int8 {
	work(len(b))
	for _, ch := range b {
		if ch < 0x20 || ch > 0x7e {
			return 2
		}
	}
	return 1
}

// segQuotedTyped reports whether segmentio's error for the ,string value
// raw (JSON kind k; text, its text for a string) it fails on inside an
// argument is an UnmarshalTypeError, which names the field's path: the
// trial check places it at the field, of the kind the field's type says
// of the text as read without the option. Any other error (a syntax
// error, decodeFromStringToInt's own) names no path (segArgFailed).
func segQuotedTyped(n *node, k jsonlex.Kind, raw, text []byte) bool {
	if k != jsonlex.KindString {
		// decodeFromStringToInt types only a number of a fraction or an
		// exponent strconv.ParseFloat fails on; decodeFromString none.
		return (n.base == kInt || n.base == kUint) && k == jsonlex.KindNumber && floatVerdict(raw, 64) != "" && !isWholeText(raw)
	}
	if n.dur {
		_, typed := segQuotedDuration(raw, text)
		return typed
	}
	if n.base == kInt || n.base == kUint {
		if len(raw) == 2 {
			return false // ""
		}
		v := text
		neg := len(v) > 0 && v[0] == '-'
		if neg {
			v = v[1:]
		}
		v = trimZeros(v)
		switch {
		case neg, len(v) > 0 && '0' <= v[0] && v[0] <= '9':
			return true // parseInt's errors past a digit, and any after '-'
		case len(v) >= 4 && string(v[:4]) == "null":
			return true // text after null
		}
		return false
	}
	// decodeFromString: the kind's decoder types what it does not read,
	// where it is a JSON value (parseValue); text after what it reads is
	// a syntax error.
	if len(text) >= 4 && string(text[:4]) == "null" {
		return false
	}
	switch n.base {
	case kFloat:
		if end, _, ok := jsonlex.Number(text, 0); ok && isValidNumber(text[:end]) {
			return !segQuotedNumber(n) && floatVerdict(text[:end], n.bits) != "" // ParseFloat's range
		}
	case kBool:
		if len(text) >= 4 && string(text[:4]) == "true" || len(text) >= 5 && string(text[:5]) == "false" {
			return false
		}
	case kString:
		if jsonlex.KindAt(text, 0) == jsonlex.KindString {
			return false
		}
	}
	_, err := jsonlex.Skip(text, 0, MaxDepth)
	return len(text) > 0 && err == nil
}

// segQuotedDuration reports whether segmentio reads text, the unquoted
// text of the JSON string raw, into a ,string time.Duration, and, where it
// fails, whether its error is an UnmarshalTypeError (typed: the trial check
// places it at the field; any other names no path). decodeFromStringToInt
// trims the leading zeros after a sign and hands the text to
// decodeDuration, which reads "null", a JSON string ParseDuration takes
// (its raw bytes up to the first quote), or else an integer with
// parseInt; whatever either leaves after it is typed, and of their
// errors, any on text opening with '-' and any past a JSON number's
// start (a digit: a fraction or an exponent, a range) are typed, the
// rest not ("", '+', text no digit starts, a string ParseDuration does not
// take).
func segQuotedDuration(raw, text []byte) (reads, typed bool) {
	if len(raw) == 2 {
		return false, false // "": decodeFromStringToInt's own error
	}
	sign := 0
	if text[0] == '-' || text[0] == '+' {
		sign = 1
	}
	v := trimZeros(text[sign:])
	switch {
	case sign == 1 && text[0] == '+':
		return false, false // parseInt reads no '+': a syntax error
	case sign == 1:
		// parseInt's own errors, and text after the integer: typed, as
		// decodeFromStringToInt types every syntax error after '-'.
		if len(v) == 0 || jsonlex.Digits(v, 0) != len(v) {
			return false, true
		}
		return intVerdict(true, v, 64, true) == "", true
	case len(v) >= 4 && string(v[:4]) == "null":
		return len(v) == 4, true
	case jsonlex.KindAt(v, 0) == jsonlex.KindString:
		// ParseDuration takes no backslash and no control character, so
		// a string the lexer fails on or finds an escape in it does not
		// take up to its first quote either.
		end, f, ok := jsonlex.String(v, 0)
		if !ok || f&jsonlex.Escaped != 0 {
			return false, false
		}
		// A copy: ParseDuration keeps its text (in its error), and the
		// callers' text is on their stacks (a string in a string is rare).
		if _, err := time.ParseDuration(string(v[1 : end-1])); err != nil {
			return false, false
		}
		return end == len(v), true
	}
	d := jsonlex.Digits(v, 0)
	if d == 0 {
		return false, false // parseInt reads no digit
	}
	overflow := false
	if d < 20 {
		overflow = intVerdict(false, v[:d], 64, true) != ""
	} else {
		overflow = segIntVerdict(v[:d], 64, true) == TooLarge
	}
	if overflow || d < len(v) && (v[d] == '.' || v[d] == 'e' || v[d] == 'E') {
		// parseInt's error; decodeFromStringToInt keeps it where the text
		// opens with a JSON number (parseNumber), and types none else.
		_, _, ok := jsonlex.Number(v, 0)
		return false, ok
	}
	return d == len(v), true
}

// durationKind is the kind the trial check gives a ,string Duration's
// failure, from the value's JSON kind (textKind: a Duration reads a
// string and a number, unquoted).
func durationKind(k jsonlex.Kind) Code {
	if k == jsonlex.KindString || k == jsonlex.KindNumber {
		return InvalidValue
	}
	return WrongType
}

// segQuotedNumber reports whether ,string position n is a json.Number's
// (base kFloat, bits 0): segmentio's decodeNumber reads any JSON number,
// as its text, of no range and no rounding.
func segQuotedNumber(n *node) bool { return n.base == kFloat && n.bits == 0 }

// isWholeText reports whether a JSON number has no fraction and no
// exponent.
func isWholeText(num []byte) bool {
	for _, ch := range num {
		if ch == '.' || ch == 'e' || ch == 'E' {
			return false
		}
	}
	return true
}

// segControl reports whether text holds a control character.
func segControl(text []byte) bool {
	for _, ch := range text {
		if ch < 0x20 {
			return true
		}
	}
	return false
}

// segQuotedFailure is the kind the trial check gives a ,string argument
// segmentio fails on, from the value's JSON kind k and, for a string, its
// text (textKind, quoted): a number kind wants a string holding a JSON
// number (WrongType), one past the type's range or not whole; a bool
// reads true and false unquoted as the wrong text of the right kind
// (InvalidValue); a string any string.
func segQuotedFailure(base nodeKind, k jsonlex.Kind, text []byte) Code {
	switch base {
	case kBool:
		if k == jsonlex.KindTrue || k == jsonlex.KindFalse {
			return InvalidValue
		}
		return WrongType
	case kString:
		if k == jsonlex.KindString {
			return InvalidValue
		}
		return WrongType
	}
	if k != jsonlex.KindString || !isValidNumber(text) {
		return WrongType
	}
	for _, ch := range text {
		if base != kFloat && (ch == '.' || ch == 'e' || ch == 'E') {
			return NotWholeNumber
		}
	}
	if text[0] == '-' {
		return TooSmall
	}
	return TooLarge
}

// segQuotedLoss is the silent loss of a ,string value segmentio reads,
// the JSON string raw of text text, as the loss walk
// (lossWalk.quoted, lossoracle_test.go) lists it, or "".
func segQuotedLoss(n *node, raw, text []byte) Code {
	switch {
	case nullText(text) || n.base == kString:
		return stringInStringLoss(n.typ, raw, text) // the text null sets a pointer nil, as null does
	case n.base == kFloat && !segQuotedNumber(n) && rounds(text, n.bits):
		return RoundedNumber
	case (n.base == kInt || n.base == kUint) && segWrapped(trimZeros(text), n.bits, n.base == kInt):
		return WrappedNumber
	}
	return ""
}
