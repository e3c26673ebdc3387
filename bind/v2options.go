package bind

import (
	"bytes"
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"reflect"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// V2's own readings of options and types, for its one pass: the ,string
// option, time.Duration, json.Number, jsontext.Value and [N]byte, each as
// go-json-experiment (arshal_default.go, arshal_time.go) reads it with its
// default options, and under GOEXPERIMENT=jsonv2 as the standard library's
// encoding/json/v2 does where the two agree (the pass declines the rest).
// A position read so is a kOwn node (ownKind says which rule), or a node
// of a kind the checker reads already (kRaw, kString).

// ownKind says by which of the binder's own rules a kOwn position reads
// its value.
type ownKind uint8

const (
	// ownQuoted: an integer or float under the ,string option (V2): a
	// JSON string holding a JSON number of the type's range, as
	// arshal_default.go's int, uint and float decoders read one
	// (jsonwire.ParseUint, strconv.ParseFloat); null sets zero; anything
	// else fails (see v2QuotedVerdict).
	ownQuoted ownKind = iota + 1
	// ownFails: V2 fails on every value, null too, before it reads it:
	// a time.Duration with no format: option ("no default
	// representation"), and, in this build of go-json-experiment, a
	// field of any other kind under ,string ("invalid use of `string`
	// tag option"). A pointer to one reads null as nil first. base is
	// not 0 for a type of a number kind under ,string (a Duration), whose
	// failure at an argument's value the trial check marks Quoted.
	ownFails
	// ownBytes: a [N]byte or []byte of plain bytes: a JSON string of
	// standard, padded base64 (RFC 4648, section 4, no line breaks)
	// decoding to exactly N bytes, any number for a slice (length -1)
	// (makeBytesArshaler); null sets zero (an array's, a loss) or nil.
	ownBytes
	// ownNonfinite: a float under format:nonfinite (the standard
	// library's v2): also the strings "NaN", "Infinity", "-Infinity";
	// elem is the plain float position that reads the rest.
	ownNonfinite
)

// v2Own fills n for type t where V2 reads it by a rule of its own the pass
// models (rules.own), and reports whether it did.
func v2Own(n *node, t reflect.Type) bool {
	switch {
	case v2Custom(t) && !isJSONTextValue(t):
		return false
	case t == goDuration:
		n.kind, n.own = kOwn, ownFails
	case isJSONTextValue(t):
		n.kind = kRaw // any valid value, which V2 validates as it does a dropped one
	case t == goNumber && !jsonv2Build:
		n.kind = kString // a string type to go-json-experiment (the standard library's v2 reads it as a number)
	case t.Kind() == reflect.Array && t.Elem().Kind() == reflect.Uint8 && t.Elem().PkgPath() == "":
		n.kind, n.own, n.length = kOwn, ownBytes, t.Len()
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && t.Elem().PkgPath() == "":
		n.kind, n.own, n.length = kOwn, ownBytes, -1 // (a slice of a named byte type V2 reads as a list: declined)
	default:
		return false
	}
	return true
}

// provedQuoted compiles, for a proving pass, the position of a field of
// type t under the ,string option: by the binder's own rule where the
// pass models it (rules.quoted), else a position it declines.
func (c *compiler) provedQuoted(t reflect.Type) (*node, error) {
	if c.rules.quoted != nil && !selfPointer(t) {
		if n := c.rules.quoted(t); n != nil {
			return n, nil
		}
	}
	return c.declinedNode(t, true)
}

// v2Quoted is V2's ,string option for a field of type t (rules.quoted), or
// nil where the pass declines it. The option reaches through pointers
// (null sets a pointer nil first); it quotes an integer or a float, and
// fails on every value of any other kind (in go-json-experiment; the
// standard library's v2 reads bools and strings as it does without the
// option, and quotes numbers inside slices, maps and structs: declined).
func v2Quoted(t reflect.Type) *node {
	if t.Kind() == reflect.Pointer && !v2Custom(t) {
		e := v2Quoted(t.Elem())
		if e == nil {
			return nil
		}
		return &node{kind: kPtr, typ: t, elem: e}
	}
	switch {
	case v2Custom(t), t == goTime, t == goNumber, isJSONTextValue(t):
		return nil
	case t == goDuration:
		if jsonv2Build {
			return nil
		}
		return &node{kind: kOwn, own: ownFails, typ: t, base: kInt} // base: of a number kind, as the trial check marks it quoted
	case numberKind(t):
		n := &node{kind: kOwn, own: ownQuoted, typ: t, bits: t.Bits(), base: kFloat}
		switch t.Kind() {
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n.base = kInt
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n.base = kUint
		}
		return n
	case jsonv2Build:
		return nil
	}
	return &node{kind: kOwn, own: ownFails, typ: t}
}

// own reads the value at c.pos, of JSON kind k, into kOwn position n: the
// verdict the trial check gives V2's decode of it (see ownKind). A value
// held to compiled constraints it declines (the constraints read a
// position by Std's kinds).
func (c *checker) own(n *node, k jsonlex.Kind) bool {
	if c.cons.next != nil {
		return c.decline()
	}
	start := c.pos
	top := c.param >= 0 && start == c.argAt // the argument's own value
	if n.own == ownFails {
		// V2 fails before it reads the value, then skips it: validated,
		// as a dropped value. What V2's skip then finds inside (invalid
		// text, a repeated name) the pass does not model behind this
		// failure: it declines.
		before, found := len(c.issues), c.found
		c.v2.failing = true // no repeated name inside is V2's error (v2First)
		if !c.dropped(k) {
			return false
		}
		if len(c.issues) != before || c.found != found {
			return c.decline()
		}
		c.quotedIssue(InvalidValue, n, start, top && n.base != 0)
		return true
	}
	if n.own == ownNonfinite && k != jsonlex.KindString && k != jsonlex.KindNull {
		return c.value(n.elem)
	}
	switch k {
	case jsonlex.KindString:
		if n.own == ownNonfinite {
			return c.nonfinite(n, start)
		}
		if n.own == ownBytes {
			return c.bytesString(n, start)
		}
		return c.quotedString(n, start, top)
	case jsonlex.KindNull:
		if !c.literal("null") {
			return false
		}
		if n.typ.Kind() != reflect.Slice {
			c.issue(NullForValue, n, start, c.pos) // V2 sets zero: the value before is lost
		}
		return true
	case jsonlex.KindObject, jsonlex.KindArray:
		// A kind the position does not read: WrongType once V2 has read
		// it whole (the wrong-kind reading of object and array).
		var ok bool
		before := len(c.issues)
		if k == jsonlex.KindObject {
			ok = c.object(n, false)
		} else {
			ok = c.array(n)
		}
		if ok && top && n.own == ownQuoted && len(c.issues) > before {
			if is := &c.issues[len(c.issues)-1]; is.Kind == WrongType && is.Start == start {
				is.Quoted = true // the trial check's issue at an argument's ,string value
			}
		}
		return ok
	}
	if !c.dropped(k) {
		return false
	}
	c.quotedIssue(WrongType, n, start, top && n.own == ownQuoted)
	return true
}

// dropped reads the value at c.pos, of JSON kind k, as V2 reads one it
// drops: validated only.
func (c *checker) dropped(k jsonlex.Kind) bool {
	switch k {
	case jsonlex.KindObject:
		return c.object(nil, false)
	case jsonlex.KindArray:
		return c.array(nil)
	case jsonlex.KindString:
		return c.stringValue(nil)
	case jsonlex.KindNumber:
		return c.number(nil)
	case jsonlex.KindTrue:
		return c.literal("true")
	case jsonlex.KindFalse:
		return c.literal("false")
	case jsonlex.KindNull:
		return c.literal("null")
	}
	return c.fail(c.pos)
}

// v2Raw reads, for V2's pass, the value at c.pos of kind k into a raw
// position (jsontext.Value): any value, validated as a dropped one. V2's
// failure on text inside it (invalid UTF-8, a repeated name) is an issue of
// the raw type at a place the pass does not model: it declines.
func (c *checker) v2Raw(k jsonlex.Kind) bool {
	before, found := len(c.issues), c.found
	if !c.dropped(k) {
		return false
	}
	if len(c.issues) != before || c.found != found {
		return c.decline()
	}
	return true
}

// quotedIssue records an issue with the value at data[start:c.pos] read
// into n, marked as read through the ,string option when quoted (the
// trial check marks its issue at an argument's own ,string value, and its
// RoundedNumber losses).
func (c *checker) quotedIssue(kind Code, n *node, start int, quoted bool) {
	before := len(c.issues)
	c.issue(kind, n, start, c.pos)
	if quoted && len(c.issues) > before {
		c.issues[len(c.issues)-1].Quoted = true
	}
}

// v2Text reads the JSON string at data[start] that V2 reads by its text,
// leaving c.pos past it: the text, unquoted onto buf when it holds an
// escape; invalid, when V2 fails on the text first (invalid UTF-8, a lone
// surrogate escape: see textVerdict). ok is false on a syntax error.
func (c *checker) v2Text(start int, buf []byte) (text []byte, invalid, ok bool) {
	end, f, ok := jsonlex.String(c.data, start)
	if !ok {
		return nil, false, c.fail(end)
	}
	c.pos = end
	esc, hi := f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0
	if (esc || hi) && replacedText(c.data[start:end], esc, hi) {
		return nil, true, true
	}
	text = c.data[start+1 : end-1]
	if esc {
		text, _ = jsonlex.Unquote(buf, c.data[start:end])
	}
	return text, false, true
}

// quotedString reads the JSON string at data[start] into ,string number
// position n (ownQuoted); top: it is an argument's own value.
func (c *checker) quotedString(n *node, start int, top bool) bool {
	var buf [64]byte
	text, invalid, ok := c.v2Text(start, buf[:0])
	if !ok {
		return false
	}
	if invalid {
		c.quotedIssue(InvalidValue, n, start, top) // V2 fails on the text first (see textVerdict)
		return true
	}
	if kind := v2QuotedVerdict(text, n.base, n.bits); kind != "" {
		c.quotedIssue(kind, n, start, top)
		return true
	}
	if n.base == kFloat && quotedLoss(text, n) == RoundedNumber {
		c.quotedIssue(RoundedNumber, n, start, true)
	}
	return true
}

// v2QuotedVerdict judges the text s of the JSON string sent for a ,string
// integer or float (base, of bits) as V2 reads it: a JSON number, no space
// around it, no quoted null; for an integer, one of no fraction or
// exponent in the type's range (jsonwire.ParseUint: no sign for an
// unsigned type, not even "-0"), for a float one strconv.ParseFloat
// reads in range. The kind of a failure is the trial check's (textKind,
// quoted): WrongType for text that is no JSON number, then NotWholeNumber,
// TooLarge, TooSmall.
func v2QuotedVerdict(s []byte, base nodeKind, bits int) Code {
	if !isValidNumber(s) {
		return WrongType
	}
	if base == kFloat {
		return floatVerdict(s, bits)
	}
	neg := s[0] == '-'
	digits := s
	if neg {
		digits = s[1:]
	}
	if bytes.ContainsAny(digits, ".eE") {
		return NotWholeNumber
	}
	return intVerdict(neg, digits, bits, base == kInt)
}

// bytesString reads the JSON string at data[start] into [N]byte position
// or []byte position n (ownBytes): InvalidValue unless its text is
// base64 of exactly N bytes (any number for a slice), as V2 decodes it.
func (c *checker) bytesString(n *node, start int) bool {
	end, f, ok := jsonlex.String(c.data, start)
	if !ok {
		return c.fail(end)
	}
	c.pos = end
	esc, hi := f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0
	var buf [64]byte
	text := c.data[start+1 : end-1]
	if esc {
		text, _ = jsonlex.Unquote(buf[:0], c.data[start:end])
	}
	// Text past ASCII is no base64, and invalid text V2 fails on first:
	// InvalidValue either way.
	if l, ok := v2EncodedLen(text, n.bits); hi || !ok || n.length >= 0 && l != n.length {
		c.issue(InvalidValue, n, start, end)
	}
	return true
}

// v2Base64Len returns the length of what s decodes to as standard, padded
// base64 (base64.StdEncoding, as V2 decodes it: whole quanta of four
// letters of the alphabet, the last of which may end in "=" or "=="; a
// line break, which the decoder skips, V2 then rejects), and false where
// V2 fails on it.
func v2Base64Len(s []byte) (int, bool) {
	if len(s)%4 != 0 {
		return 0, false
	}
	pad := 0
	if len(s) > 0 && s[len(s)-1] == '=' {
		pad = 1
		if s[len(s)-2] == '=' {
			pad = 2
		}
	}
	for _, ch := range s[:len(s)-pad] {
		switch {
		case 'A' <= ch && ch <= 'Z', 'a' <= ch && ch <= 'z', '0' <= ch && ch <= '9', ch == '+', ch == '/':
		default:
			return 0, false
		}
	}
	return len(s)/4*3 - pad, true
}

// provedFormat compiles, for a proving pass, the position of struct type
// t's field p where the field has a format: option the binder reads
// natively and the pass models (rules.format); nil, and no error, for a
// field with none (the fields a pass declines are marked so before).
func (c *compiler) provedFormat(t reflect.Type, p Param) (*node, error) {
	if !c.rules.prove || c.rules.format == nil {
		return nil, nil
	}
	if f := c.rules.formatOf(t, p); f != "" {
		if n := c.rules.format(p.Type, f); n != nil {
			return n, nil
		}
		return c.declinedNode(p.Type, false)
	}
	return nil, nil
}

// v2FormatOf is the format: option V2 reads for struct type t's field p
// (rules.formatOf).
func v2FormatOf(t reflect.Type, p Param) string {
	f, _, _ := v2FieldOptions(t.FieldByIndex(p.Index))
	return f.format
}

// Byte encodings of a format: option (ownBytes' bits).
const (
	bytesBase64 = iota
	bytesBase64URL
	bytesBase32
	bytesBase32Hex
	bytesBase16
)

// v2FormatNode is the position of a field of type t under the format:
// option format where V2 reads it natively (the standard library's v2
// under GOEXPERIMENT=jsonv2; go-json-experiment fails on every object of
// a struct with one, unless the process turns the option on, which the
// pass does not follow), or nil where the pass declines it (rules.format):
// a []byte or [N]byte in base64, base64url, base32, base32hex, base16 or
// hex, a [N]byte as an array, a float with nonfinite. The format passes
// through pointers.
func v2FormatNode(t reflect.Type, format string) *node {
	if !v2FormatSupported {
		return nil
	}
	if t.Kind() == reflect.Pointer && !v2Custom(t) && !selfPointer(t) {
		e := v2FormatNode(t.Elem(), format)
		if e == nil {
			return nil
		}
		return &node{kind: kPtr, typ: t, elem: e}
	}
	if v2Custom(t) || t == goDuration {
		return nil
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		if format != "nonfinite" {
			return nil
		}
		return &node{kind: kOwn, own: ownNonfinite, typ: t, elem: &node{kind: kFloat, bits: t.Bits(), typ: t}}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() != reflect.Uint8 || t.Elem().PkgPath() != "" {
			return nil
		}
	default:
		return nil
	}
	n := &node{kind: kOwn, own: ownBytes, typ: t, length: -1}
	if t.Kind() == reflect.Array {
		n.length = t.Len()
	}
	switch format {
	case "base64":
		n.bits = bytesBase64
	case "base64url":
		n.bits = bytesBase64URL
	case "base32":
		n.bits = bytesBase32
	case "base32hex":
		n.bits = bytesBase32Hex
	case "base16", "hex":
		n.bits = bytesBase16
	case "array":
		if t.Kind() != reflect.Array {
			return nil // the loss walk reads a []byte as base64 text
		}
		return &node{kind: kArray, typ: t, length: t.Len(), elem: &node{kind: kUint, bits: 8, typ: t.Elem()}}
	default:
		return nil
	}
	return n
}

// nonfinite reads the JSON string at data[start] into float position n
// under format:nonfinite (ownNonfinite): "NaN", "Infinity" and
// "-Infinity" are read, any other string is of the wrong kind.
func (c *checker) nonfinite(n *node, start int) bool {
	var buf [64]byte
	text, invalid, ok := c.v2Text(start, buf[:0])
	if !ok {
		return false
	}
	if invalid {
		c.issue(InvalidValue, n, start, c.pos) // V2 fails on the text first (see textVerdict)
		return true
	}
	switch string(text) {
	case "NaN", "Infinity", "-Infinity":
	default:
		c.issue(WrongType, n, start, c.pos)
	}
	return true
}

// v2EncodedLen returns the length of what s decodes to in byte encoding
// enc (bytesBase64...), as V2 decodes it (the encoding's decoder, then its
// length check: no line break, which the base32 and base64 decoders skip,
// nothing past base32's padding), and false where
// V2 fails on it. The text is decoded in chunks of whole quanta into a
// buffer on the stack: padding is only ever in the last.
func v2EncodedLen(s []byte, enc int) (int, bool) {
	if enc == bytesBase64 {
		return v2Base64Len(s)
	}
	if bytes.ContainsAny(s, "\r\n") {
		return 0, false
	}
	var buf [v2Chunk]byte
	total, sent := 0, len(s)
	for len(s) > 0 {
		chunk := s[:min(v2Chunk, len(s))]
		s = s[len(chunk):]
		if len(s) > 0 && bytes.IndexByte(chunk, '=') >= 0 {
			return 0, false // padding before the end
		}
		var n int
		var err error
		switch enc {
		case bytesBase64URL:
			n, err = base64.URLEncoding.Decode(buf[:], chunk)
		case bytesBase32:
			n, err = base32.StdEncoding.Decode(buf[:], chunk)
		case bytesBase32Hex:
			n, err = base32.HexEncoding.Decode(buf[:], chunk)
		default:
			n, err = hex.Decode(buf[:], chunk)
		}
		if err != nil {
			return 0, false
		}
		total += n
	}
	// V2's own check: the text is exactly as long as the bytes encode to
	// (the decoders skip line breaks, and base32's stops at its padding).
	var encoded int
	switch enc {
	case bytesBase64URL:
		encoded = base64.URLEncoding.EncodedLen(total)
	case bytesBase32:
		encoded = base32.StdEncoding.EncodedLen(total)
	case bytesBase32Hex:
		encoded = base32.HexEncoding.EncodedLen(total)
	default:
		encoded = hex.EncodedLen(total)
	}
	return total, encoded == sent
}

// v2Chunk is the text v2EncodedLen decodes at once: whole quanta of every
// encoding (4 letters of base64, 8 of base32, 2 of hex), at most as many
// bytes decoded.
const v2Chunk = 192

// v2IntKeys reports a map type whose keys V2 reads as integers by its own
// rule (v2Key): of an integer kind, uintptr too, with no methods.
func v2IntKeys(t reflect.Type) bool {
	if t.Kind() != reflect.Map || v2Custom(t) {
		return false
	}
	kt := t.Key()
	switch kt.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return kt.NumMethod() == 0 && reflect.PointerTo(kt).NumMethod() == 0
	}
	return false
}

// v2Key reports whether V2 reads key, the text of a key of integer map
// n (rules.v2Keys): as it reads a ,string integer (v2QuotedVerdict: a
// JSON integer in the key type's range, no '+', no leading zero, no
// space, no sign for an unsigned type). On any other it fails: InvalidKey
// at the key, where the trial check places its error; it then skips the
// key's value, so a value holding an issue the pass declines (see
// object). Two keys of one value ("0" and "-0") V2 fails on as a repeated
// name, which the pass declines as it does any repeated key.
func v2Key(key []byte, n *node) bool {
	return v2QuotedVerdict(key, n.key, n.bits) == ""
}
