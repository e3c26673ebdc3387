package bind_test

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	segjson "github.com/segmentio/encoding/json"

	"github.com/bindguard/bindguard/bind"
	bindv2 "github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// FuzzCheck_CleanCallsRoundTrip: over FuzzNativeValues's shapes and
// calls, on every binder, when the binder reads a call and Check finds
// nothing in it but top-level keys no parameter takes, the struct the
// binder decoded holds everything the call sent: marshalled back by the
// same binder's library, every member sent reads as what was sent.
//
// The oracle is each binder's own decode and encode, and the sent text
// read by jsontext with its strings unescaped here, invalid UTF-8 and
// lone surrogates kept as sent: it shares no code with the check, so a
// loss the check and the trial check both miss (a rounded or wrapped
// number, replaced text, a null left as a zero, an array cut or padded, a
// key dropped or repeated, a case fold) fails it, which
// FuzzNative/FuzzNativeValues, holding the pass to the trial check, cannot
// see. FuzzCheck_NoLossRoundTrips is its first form: encoding/json and one
// struct.
//
// What the comparison allows, each a reading that loses nothing: a member
// the encoder leaves out whose value sent was a zero (omitempty,
// omitzero), a key matched to the field's name ignoring case, '_' and '-'
// under V2 (case:ignore, no loss; encoding/json's fold is FoldedKey,
// which the check must report, and segmentio does not fold), or an
// integer map key of another spelling ("01" for 1, "1 " for 1); null read back as
// an empty list or object under V2 (a nil slice or map, which V2 encodes
// so); a ,string value's text read back in another spelling of the same
// value; a fraction read back at a float32's precision; a time, a
// duration or bytes in another of the spellings the binders read and
// write (ownSpelling); under V2, null read back as "" (a nil []byte). Types
// that decode or encode themselves, but time.Time, are left out: their
// text is theirs.
func FuzzCheck_CleanCallsRoundTrip(f *testing.F) {
	f.Add([]byte{0}, []byte{})
	f.Add([]byte{1}, []byte{0, 0, 0, 5, 0, 0, 1})
	f.Add([]byte{2}, []byte{0, 0, 0, 0, 0, 0, 0, 0, 4, 2})
	f.Add([]byte{5}, []byte{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{1, 18, 2, 0, 8, 1, 8}, []byte{})
	f.Add([]byte{70, 2, 2, 200, 3, 1, 9, 4, 0}, []byte{0, 0, 7})
	for i := range nativeFixed {
		f.Add([]byte{byte(i)}, make([]byte, 40))
	}
	f.Fuzz(func(t *testing.T, shape, choices []byte) {
		forEachPlan(shape, choices, func(b bind.Binder, plan *bind.Plan, args []byte) {
			roundTrips(t, b, plan, args)
		})
	})
}

// roundTrips is FuzzCheck_CleanCallsRoundTrip's property for one plan and
// one call.
func roundTrips(t *testing.T, b bind.Binder, plan *bind.Plan, args []byte) {
	t.Helper()
	if !plainType(plan.Type(), map[reflect.Type]bool{}, b == segmentio.Binder) {
		return
	}
	v := reflect.New(plan.Type())
	if b.Unmarshal(args, v.Interface()) != nil {
		return
	}
	c := rtCompare{v2: b == bindv2.Binder, unknown: map[int]bool{}}
	for _, is := range plan.Check(args, nil) {
		if is.Kind != bind.UnknownArgument {
			return // a failure, a loss, a policy's issue: the call is not clean
		}
		c.unknown[is.Start] = true
	}
	var out []byte
	var err error
	switch b {
	case bindv2.Binder:
		out, err = jsonv2.Marshal(v.Interface())
	case segmentio.Binder:
		out, err = segjson.Marshal(v.Interface())
	default:
		out, err = json.Marshal(v.Interface())
	}
	if err != nil {
		return // a type the encoder refuses (V2: ,string on a struct's field): no text to compare
	}
	sent, ok := parseSent(args)
	if !ok || sent.kind != '{' {
		return // null: no arguments
	}
	back, ok := parseSent(out)
	if !ok {
		t.Fatalf("%s %v: the encoder wrote %q", b.Name(), plan.Type(), out)
	}
	if why := c.object(sent, back, true); why != "" {
		t.Fatalf("%s %v %q: Check finds no loss, but it reads back as %s: %s", b.Name(), plan.Type(), args, out, why)
	}
}

var (
	jsonUnmarshaler   = reflect.TypeFor[json.Unmarshaler]()
	jsonMarshaler     = reflect.TypeFor[json.Marshaler]()
	textUnmarshaler   = reflect.TypeFor[encoding.TextUnmarshaler]()
	textMarshaler     = reflect.TypeFor[encoding.TextMarshaler]()
	v2UnmarshalerFrom = reflect.TypeFor[jsonv2.UnmarshalerFrom]()
	v2MarshalerTo     = reflect.TypeFor[jsonv2.MarshalerTo]()
)

// plainType reports whether every value of t round-trips through each
// binder's decode and encode as the text of the same value: no type of
// its own methods (but time.Time, whose spellings ownSpelling reads);
// with distinct, no two fields of one struct of one name (segmentio
// decodes into one and encodes both).
func plainType(t reflect.Type, seen map[reflect.Type]bool, distinct bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	if t == reflect.TypeFor[time.Time]() {
		return true
	}
	for _, m := range []reflect.Type{jsonUnmarshaler, jsonMarshaler, textUnmarshaler, textMarshaler, v2UnmarshalerFrom, v2MarshalerTo} {
		if t.Implements(m) || reflect.PointerTo(t).Implements(m) {
			return false
		}
	}
	switch t.Kind() {
	case reflect.Pointer:
		return plainType(t.Elem(), seen, distinct)
	case reflect.Slice, reflect.Array:
		return plainType(t.Elem(), seen, distinct)
	case reflect.Map:
		return plainType(t.Key(), seen, distinct) && plainType(t.Elem(), seen, distinct)
	case reflect.Struct:
		for i := range t.NumField() {
			if f := t.Field(i); (f.IsExported() || f.Anonymous) && !plainType(f.Type, seen, distinct) {
				return false
			}
		}
		return !distinct || uniqueNames(t, map[string]bool{})
	case reflect.Interface:
		return t.NumMethod() == 0
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return false
	}
	return true
}

// uniqueNames adds the JSON names of struct t's fields, those of the
// structs it embeds untagged included, to names, and reports whether
// none was there.
func uniqueNames(t reflect.Type, names map[string]bool) bool {
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case f.Tag.Get("json") == "-":
			continue
		case f.Anonymous && name == "" && ft.Kind() == reflect.Struct:
			if !uniqueNames(ft, names) {
				return false
			}
			continue
		case !f.IsExported():
			continue
		case name == "":
			name = f.Name
		}
		if names[name] {
			return false
		}
		names[name] = true
	}
	return true
}

// A jnode is a JSON value as sent: kind is jsontext's ('n', 't', 'f', '0',
// '"', '[', '{').
type jnode struct {
	kind  jsontext.Kind
	text  string  // a number's text; a string's, unescaped, invalid UTF-8 and lone surrogates kept
	at    int     // the offset of its first byte
	names []jnode // an object's names, in the order sent, repeats kept
	elems []jnode // an array's elements; an object's values, names[i]'s at i
}

// parseSent reads one JSON value, false if data is none. jsontext finds
// the structure; strings are unescaped by rawText, which keeps what a
// binder would replace.
func parseSent(data []byte) (jnode, bool) {
	dec := jsontext.NewDecoder(bytes.NewReader(data), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	var read func() (jnode, bool)
	read = func() (jnode, bool) {
		before := dec.InputOffset()
		tok, err := dec.ReadToken()
		if err != nil {
			return jnode{}, false
		}
		raw := bytes.TrimLeft(data[before:dec.InputOffset()], " \t\r\n,:")
		n := jnode{kind: tok.Kind(), at: int(dec.InputOffset()) - len(raw)}
		switch n.kind {
		case '"':
			n.text, _ = rawText(raw)
		case '0':
			n.text = string(raw)
		case '[', '{':
			for dec.PeekKind() != ']' && dec.PeekKind() != '}' {
				if n.kind == '{' {
					name, ok := read()
					if !ok {
						return n, false
					}
					n.names = append(n.names, name)
				}
				e, ok := read()
				if !ok {
					return n, false
				}
				n.elems = append(n.elems, e)
			}
			if _, err := dec.ReadToken(); err != nil {
				return n, false
			}
		}
		return n, true
	}
	n, ok := read()
	return n, ok && dec.PeekKind() == 0
}

// rawText unescapes the JSON string token raw: every byte not escaped as
// sent, so invalid UTF-8 (and a control character) stays, and a \u escape
// of a surrogate not paired as the surrogate's own three bytes, which no
// valid text holds. It reports false for an escape cut short.
func rawText(raw []byte) (string, bool) {
	s := raw[1 : len(raw)-1]
	var b []byte
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' {
			b = append(b, s[i])
			continue
		}
		i++
		if i == len(s) || s[i] == 'u' && i+4 >= len(s) {
			return "", false
		}
		switch s[i] {
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, _ := strconv.ParseUint(string(s[i+1:i+5]), 16, 16)
			i += 4
			if utf16.IsSurrogate(rune(r)) && i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
				r2, _ := strconv.ParseUint(string(s[i+3:i+7]), 16, 16)
				if d := utf16.DecodeRune(rune(r), rune(r2)); d != utf8.RuneError {
					b = utf8.AppendRune(b, d)
					i += 6
					continue
				}
			}
			if utf16.IsSurrogate(rune(r)) {
				b = append(b, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
				continue
			}
			b = utf8.AppendRune(b, rune(r))
		default: // '"', '\\', '/'
			b = append(b, s[i])
		}
	}
	return string(b), true
}

// innerValue reads the text of a ,string field's value: a JSON value; a
// number of leading zeros, which encoding/json and segmentio read as the
// number; or a string holding a control character, which segmentio reads
// as the string it spells.
func innerValue(text string) (jnode, bool) {
	if n, ok := parseSent([]byte(text)); ok {
		return n, true
	}
	if _, ok := new(big.Rat).SetString(text); ok && strings.Trim(text, "+-0123456789.eE") == "" {
		return jnode{kind: '0', text: text}, true
	}
	if len(text) < 2 || text[0] != '"' || text[len(text)-1] != '"' || strings.Count(text, `"`) != strings.Count(text, `\"`)+2 {
		return jnode{}, false
	}
	s, ok := rawText([]byte(text))
	return jnode{kind: '"', text: s}, ok
}

// rtCompare compares what a call sent with what its decoded struct
// encodes as.
type rtCompare struct {
	v2      bool         // V2 encodes a nil slice or map as empty, a nil []byte as ""
	unknown map[int]bool // the offsets of the top-level keys Check says no parameter takes
}

// same says how back (encoded from the decoded struct) differs from sent,
// "" if it holds the same value.
func (c *rtCompare) same(sent, back jnode) string {
	if back.kind == '"' && sent.kind != '"' && sent.kind != '[' && sent.kind != '{' {
		// A ,string field's value encoded in a string (the encoders
		// quote a nil pointer's null too), which it reads unquoted.
		if inner, ok := innerValue(back.text); ok && inner.kind != '"' && c.same(sent, inner) == "" {
			return ""
		}
	}
	switch sent.kind {
	case 'n':
		if back.kind == 'n' || c.v2 && (back.kind == '[' || back.kind == '{') && len(back.elems) == 0 {
			return ""
		}
		if c.v2 && back.kind == '"' && back.text == "" {
			return "" // a nil []byte, which V2 encodes as "" (a string's null left "" is lost to this oracle)
		}
	case 't', 'f':
		if back.kind == sent.kind {
			return ""
		}
	case '0':
		if back.kind == '0' && numbersAgree(sent.text, back.text) {
			return ""
		}
	case '"':
		if back.kind == '"' && back.text == sent.text {
			return ""
		}
		// A ,string field's value: its text read back in the spelling the
		// encoder gives it.
		if inner, ok := innerValue(sent.text); ok && utf8.ValidString(sent.text) {
			if back.kind == '"' {
				if binner, ok := innerValue(back.text); ok && c.same(inner, binner) == "" {
					return ""
				}
			} else if c.same(inner, back) == "" {
				return ""
			}
		}
	case '[':
		if back.kind == '[' && len(back.elems) == len(sent.elems) {
			for i := range sent.elems {
				if why := c.same(sent.elems[i], back.elems[i]); why != "" {
					return "[" + strconv.Itoa(i) + "]: " + why
				}
			}
			return ""
		}
	case '{':
		if back.kind == '{' {
			return c.object(sent, back, false)
		}
	}
	if ownSpelling(sent, back) {
		return ""
	}
	return fmt.Sprintf("%s became %s", sent, back)
}

// ownSpelling reports whether back spells the value of sent as a type of
// the binders' own rules writes it: the same time, the same duration (a
// number of nanoseconds or time.ParseDuration's text), the same bytes
// (base64, padded or not, or a list of byte values).
func ownSpelling(sent, back jnode) bool {
	if sent.kind == '"' && back.kind == '"' {
		a, err1 := time.Parse(time.RFC3339Nano, sent.text)
		b, err2 := time.Parse(time.RFC3339Nano, back.text)
		if err1 == nil && err2 == nil && a.Equal(b) {
			return true
		}
	}
	if da, ok := duration(sent); ok {
		if db, ok := duration(back); ok && da == db {
			return true
		}
	}
	if ba, ok := byteList(sent); ok {
		if bb, ok := byteList(back); ok && bytes.Equal(ba, bb) {
			return true
		}
	}
	return false
}

// duration reads n as a time.Duration: a whole number of nanoseconds, or
// text time.ParseDuration takes.
func duration(n jnode) (time.Duration, bool) {
	switch n.kind {
	case '0':
		d, err := strconv.ParseInt(n.text, 10, 64)
		return time.Duration(d), err == nil
	case '"':
		d, err := time.ParseDuration(n.text)
		return d, err == nil
	}
	return 0, false
}

// byteList reads n as bytes: base64 text (padded or not, line breaks
// let be, as encoding/json reads it), or a list of byte values.
func byteList(n jnode) ([]byte, bool) {
	switch n.kind {
	case '"':
		text := strings.NewReplacer("\r", "", "\n", "").Replace(n.text)
		if b, err := base64.StdEncoding.DecodeString(text); err == nil {
			return b, true
		}
		b, err := base64.RawStdEncoding.DecodeString(text)
		return b, err == nil
	case '[':
		var b []byte
		for _, e := range n.elems {
			v, err := strconv.ParseUint(e.text, 10, 8)
			if e.kind != '0' || err != nil {
				return nil, false
			}
			b = append(b, byte(v))
		}
		return b, true
	}
	return nil, false
}

// object compares two objects member by member: each member sent must be
// in back under its name (or one it folds to), but for a zero the encoder
// leaves out; a name sent twice must have been sent the same both times.
func (c *rtCompare) object(sent, back jnode, top bool) string {
	bound := map[int]int{} // back's member index -> the last sent member read into it
	for i, name := range sent.names {
		if top && c.unknown[name.at] {
			continue
		}
		j, folded := matchName(name.text, back.names, zero(sent.elems[i]))
		switch {
		case j == -2:
			continue // two fit, or none and it was a zero the encoder leaves out
		case j < 0:
			return fmt.Sprintf("member %q is gone", name.text)
		case folded && !c.v2:
			// encoding/json folds case: FoldedKey, a loss the check
			// reports; segmentio does not fold. V2 folds only for
			// case:ignore, which is no loss.
			return fmt.Sprintf("member %q read as %q by folding", name.text, back.names[j].text)
		}
		if k, ok := bound[j]; ok && c.same(sent.elems[k], sent.elems[i]) != "" {
			return fmt.Sprintf("member %q sent again (as %q): its first value %s is gone", sent.names[k].text, name.text, sent.elems[k])
		}
		bound[j] = i
	}
	for j, i := range bound {
		if why := c.same(sent.elems[i], back.elems[j]); why != "" {
			return strconv.Quote(sent.names[i].text) + ": " + why
		}
	}
	return ""
}

// matchName is the index of the name in names that name is read into: the
// same text; else -2 for a zero (the encoder may have left its field out,
// and another name fold like it); else the one name it folds to (case,
// '_' and '-' ignored, valid text only) or the one integer of the same
// value; -1 for none, -2 for more than one. folded: found by folding.
func matchName(name string, names []jnode, zero bool) (j int, folded bool) {
	for j, n := range names {
		if n.text == name {
			return j, false
		}
	}
	if zero && utf8.ValidString(name) {
		return -2, false
	}
	found := -1
	for j, n := range names {
		if match, f := loose(name, n.text); match {
			if found >= 0 {
				return -2, false
			}
			found, folded = j, f
		}
	}
	return found, folded
}

// loose reports whether the key a is read as b, another text: as the
// same integer, or folded (case, '_' and '-' ignored).
func loose(a, b string) (match, folded bool) {
	if x, ok := new(big.Int).SetString(strings.TrimRight(a, " \t\r\n"), 10); ok { // "1 " is the key 1 to segmentio
		y, ok := new(big.Int).SetString(b, 10)
		return ok && x.Cmp(y) == 0, false
	}
	if !utf8.ValidString(a) || !utf8.ValidString(b) {
		return false, false
	}
	strip := strings.NewReplacer("_", "", "-", "")
	return strings.EqualFold(strip.Replace(a), strip.Replace(b)), true
}

// zero reports whether n is a value omitempty or omitzero may leave out.
func zero(n jnode) bool {
	switch n.kind {
	case 'n', 'f':
		return true
	case '0':
		r, ok := new(big.Rat).SetString(n.text)
		return ok && r.Sign() == 0
	case '"':
		return n.text == ""
	case '[', '{': // a fixed-size array of zeros is zero to omitzero
		for _, e := range n.elems {
			if !zero(e) {
				return false
			}
		}
		return true
	}
	return false
}

// numbersAgree: sameNumber, or a number that reads back as the same
// float32: a fraction (a float32 position holds it at that precision, not
// a loss the check reports), or a whole number it holds exactly.
func numbersAgree(sent, held string) bool {
	if sent == held || sameNumber(sent, held) { // json.Number keeps 1e309 as sent
		return true
	}
	b, err := strconv.ParseFloat(held, 32)
	if err != nil {
		return false
	}
	if !strings.ContainsAny(sent, ".eE") {
		// A whole number a float32 holds exactly, written back as the
		// shortest text that reads as that float32 (70000112 as
		// 7.000011e+07).
		r, ok := new(big.Rat).SetString(sent)
		return ok && r.Cmp(new(big.Rat).SetFloat64(b)) == 0
	}
	a, err := strconv.ParseFloat(sent, 32)
	return err == nil && a == b
}

func (n jnode) String() string {
	switch n.kind {
	case 'n':
		return "null"
	case 't':
		return "true"
	case 'f':
		return "false"
	case '0':
		return n.text
	case '"':
		return strconv.Quote(n.text)
	case '[':
		var parts []string
		for _, e := range n.elems {
			parts = append(parts, e.String())
		}
		return "[" + strings.Join(parts, ",") + "]"
	}
	var parts []string
	for i, e := range n.elems {
		parts = append(parts, n.names[i].String()+":"+e.String())
	}
	return "{" + strings.Join(parts, ",") + "}"
}
