package bind

import (
	"encoding"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// Map keys of a string kind with methods, and of any kind with
// UnmarshalText, in the proving pass of V2 and SegmentIO. Both binders
// read a key of a string kind as a plain string unless a decoding method
// of its type's says otherwise, and a key of any kind by its UnmarshalText
// where it has one (V2's arshal_default.go and arshal_methods.go, its
// method arshaler called on the key's name; segmentio's constructMapCodec
// and decodeTextUnmarshaler): on a fresh zero key, the name's text
// unquoted, before the key's value is read. The pass calls the method as
// they do, once per key (textKey), under recovery, and gives the trial
// check's verdict, which decodes each argument alone and follows the
// binder's error:
//
//   - the method fails: V2 stops at the key, InvalidKey at it, of the key
//     type, the path to its member; segmentio returns the method's own
//     error, which names no place, so InvalidValue (the kind the
//     argument's text says for the parameter's type) at the argument's
//     value (selfArgFailed). The method's error is the issue's Err (the
//     trial check's, under V2, is V2's error around it). Each argument's
//     first failure only: both stop there.
//   - the method panics: InvalidValue at the argument's value, a
//     *PanicError for the parameter's type, under both.
//   - the name repeats one of its object's (its text, unquoted): V2 fails
//     on the name before it calls the method (v2Repeat); segmentio calls
//     it, and keeps the last value (DuplicateKey). A key of invalid text
//     V2 fails on as it reads the name (v2KeyText); segmentio replaces
//     it (each invalid byte and lone surrogate escape with U+FFFD), hands
//     the method the replaced text, and the key's ReplacedText is listed
//     at it (segKeyText).
//   - the method reads the name into a Go key read before (a value
//     receiver's leaves every key zero, a method may fold case): the
//     binder's map tells keys by the Go key, so V2 fails on the second
//     name, as on a repeated one (v2Repeat), and segmentio keeps the last
//     value (DuplicateKey); the pass and the trial check tell them so
//     (methodKeys).
//   - null for a value, and the values' own issues, as in a map of string
//     keys: a call that fails lists no loss.
//
// The pass declines, under segmentio, a method's error
// holding an *json.UnmarshalTypeError (segmentio turns one into a syntax
// error, and the trial check follows the Field of one wrapped); a key of
// a map a validate constraint watches; and every key type that V2 reads
// by UnmarshalJSONFrom (which it calls on keys too). A key type V2 reads
// by UnmarshalJSON (v2JSONKeyType) the pass reads under V2 as one read by
// UnmarshalText, the method called on the name's token as sent.

var (
	goStringer  = reflect.TypeFor[fmt.Stringer]()
	goError     = reflect.TypeFor[error]()
	goFormatter = reflect.TypeFor[fmt.Formatter]()
)

// v2MapKeys is V2's rules.mapKeys: a key type of a string kind V2 reads
// as a string (no decoding method) or by its UnmarshalText alone.
func v2MapKeys(kt reflect.Type) bool {
	return (kt.Kind() == reflect.String || textKeyType(kt)) && !implementsAnyOf(kt, v2T().jsonUnmarshalers) || v2JSONKeyType(kt)
}

// v2JSONKeyType reports a map key type V2 reads by its UnmarshalJSON,
// called on the name's token as sent, quotes and escapes and all
// (arshal_methods.go): it has one (V2 calls it before UnmarshalText), and
// no UnmarshalJSONFrom, which V2 would call instead (the pass declines
// that).
func v2JSONKeyType(kt reflect.Type) bool {
	jt := v2T().jsonUnmarshalers // UnmarshalerFrom, Unmarshaler
	return implementsAnyOf(kt, jt[1:]) && !implementsAnyOf(kt, jt[:1])
}

// segMapKeys is SegmentIO's rules.mapKeys: a key type of a string kind
// segmentio reads as a string (decodeString: it has neither MarshalText
// nor UnmarshalText; its UnmarshalJSON segmentio does not call on keys) or
// by its UnmarshalText. One that formats itself (String, Error, Format)
// segmentio's error path names by fmt.Sprint of the Go key, and so does
// the trial check's (pathKey, keyName).
func segMapKeys(kt reflect.Type) bool {
	return (kt.Kind() == reflect.String || textKeyType(kt)) && segMapKey(kt)
}

// formats reports whether fmt prints a value of key type kt by a method
// of its own rather than as its kind.
func formats(kt reflect.Type) bool {
	return kt.Implements(goStringer) || kt.Implements(goError) || kt.Implements(goFormatter)
}

// textKeyType reports a map key type the binder reads by its UnmarshalText:
// the pointer to it has one (a value receiver's is the pointer's too).
func textKeyType(kt reflect.Type) bool { return reflect.PointerTo(kt).Implements(goTextUnmarshaler) }

// textKey reads, for a proving pass, the key data[ks:ke] (esc: it holds
// an escape; hi: a byte past ASCII) of an object read into map n, whose
// key type the binder reads by its UnmarshalText (n.tkey), as the binder
// does (see above); the caller judges a repeat of its text first under V2.
// It reports whether the Go key read is one of those mk holds, the object's
// keys read so far (the binder's map tells keys by it), and adds it; ok is
// false where the pass declines.
func (c *checker) textKey(n *node, ks, ke int, esc, hi bool, mk *methodKeys) (ok, again bool) {
	if c.cons.next != nil {
		return false, false // a constraint on the map: the checks read the text
	}
	if c.param >= 0 && c.failedIn == c.steps.arg.ks+1 {
		return true, false // the binder stopped at the argument's first failure, and a call that fails lists no loss
	}
	if c.textKeys && (esc || hi) && replacedText(c.data[ks:ke], esc, hi) {
		return true, false // V2 fails on the name before the method (v2KeyText)
	}
	var buf [64]byte
	text := c.data[ks+1 : ke-1]
	if esc || hi {
		text, _ = jsonlex.Unquote(buf[:0], c.data[ks:ke]) // segmentio's replaced text too (segKeyText)
	}
	work(ke - ks)
	kt := n.typ.Key()
	unmarshal := unmarshalKey
	if n.jkey {
		text, unmarshal = c.data[ks:ke], unmarshalJSONKey // the name's token (V2)
	}
	key, panicked, err := unmarshal(kt, text)
	if panicked == nil && err == nil {
		return true, mk.addValue(key) // the binder's map tells keys by the Go key read
	}
	var h trialHooks
	switch c.binder.(type) {
	case v2Binder:
		h = (*v2Mirror)(nil)
		if panicked == nil {
			before := len(c.issues)
			c.issue(InvalidKey, &node{typ: kt}, ks, ke)
			if len(c.issues) > before {
				c.issues[len(c.issues)-1].Err = contain.Tame(err) // as V2 gets it (contain.V2Unmarshal)
			}
			return true, false
		}
	case segmentioBinder:
		h = (*segMirror)(nil)
		if _, typed := contain.As[*json.UnmarshalTypeError](err); typed && panicked == nil {
			return false, false
		}
	default:
		return false, false
	}
	kind := Code("") // segmentio's error is the method's own: at the argument's value, of the kind its text says
	if panicked != nil {
		if c.argNode == nil {
			return false, false
		}
		kind, err = InvalidValue, &PanicError{Type: c.argNode.typ, Value: panicked}
	}
	c.selfArgFailed(kind, err, h)
	return !c.declined, false
}

// Map keys read by their type's UnmarshalText, outside a proving pass
// (Std's checker). The binder decides such a map
// whole (a kTrial node), but what it reads can lose what was sent, as any
// map can: a key sent again, or a value's own losses. The binder's map
// tells keys apart by the Go value the method reads, not by their text: a
// value receiver's method leaves every key zero, a method may fold case,
// and two keys it reads alike are one key, the last value kept. So once
// the binder reads the object, the checker walks it (textMap's node) for
// the losses, and tells repeated keys as the binder does (methodKeys):
// encoding/json calls the method on the key's text unquoted, as
// segmentio does.

// textMap is the walk of a map of type t whose key type's UnmarshalText
// reads each key, for a kTrial node under Std, or nil where the walk does
// not model the binder: a key type encoding/json reads by its UnmarshalJSON
// (it calls that on the key's quoted text), or an element type the walk
// cannot compile (the binder fails on every value of it).
func (c *compiler) textMap(t reflect.Type) *node {
	if c.rules.prove || reflect.PointerTo(t.Key()).Implements(unmarshalerType) {
		return nil
	}
	c.path = append(c.path, "[]")
	e, err := c.node(t.Elem(), false)
	c.path = c.path[:len(c.path)-1]
	if err != nil {
		return nil
	}
	return &node{kind: kMap, typ: t, key: kString, tkey: true, elem: e}
}

// methodKeys is the keys of one object read into a map whose key type's
// UnmarshalText reads each, as the map tells them: by the Go value read.
type methodKeys map[any]struct{}

// add reads the key raw (its JSON string, quotes included) as the binder
// does (methodKey) and reports whether a key read before is that value. A
// key the method fails or panics on is no repeat: the binder fails on it.
func (s *methodKeys) add(kt reflect.Type, raw []byte) (again bool) {
	key, ok := methodKey(kt, raw)
	if !ok {
		return false
	}
	return s.addValue(key)
}

// addValue adds the Go key read and reports whether it was there.
func (s *methodKeys) addValue(key reflect.Value) (again bool) {
	contain.Run(func() error { // a key Go cannot hash (an interface field's) panics, as it does in the binder's map
		v := key.Interface()
		if *s == nil {
			*s = methodKeys{}
		}
		_, again = (*s)[v]
		(*s)[v] = struct{}{}
		return nil
	})
	return again
}

// methodKey reads the key raw (its JSON string, quotes included) into a
// new value of key type kt by its UnmarshalText, on the key's text
// unquoted, under recovery, and returns it; false when the method fails
// or panics. A key type of a string kind without the method holds the
// text.
func methodKey(kt reflect.Type, raw []byte) (reflect.Value, bool) {
	var buf [64]byte
	text := keyText(buf[:0], raw)
	if !textKeyType(kt) {
		if kt.Kind() != reflect.String {
			return reflect.Value{}, false
		}
		key := reflect.New(kt).Elem()
		key.SetString(string(text))
		return key, true
	}
	key, panicked, err := unmarshalKey(kt, text)
	return key, panicked == nil && err == nil
}

// unmarshalKey reads the key text (unquoted) into a new value of key type
// kt, whose pointer has UnmarshalText, by that method on a copy of the
// text (what the method does to it stays there), under recovery.
func unmarshalKey(kt reflect.Type, text []byte) (key reflect.Value, panicked any, err error) {
	in := append([]byte(nil), text...)
	p := reflect.New(kt)
	u := p.Interface().(encoding.TextUnmarshaler)
	panicked, err = contain.Run(func() error { return u.UnmarshalText(in) })
	return p.Elem(), panicked, err
}

// unmarshalJSONKey is unmarshalKey for a key type V2 reads by its
// UnmarshalJSON (v2JSONKeyType), on the name's token.
func unmarshalJSONKey(kt reflect.Type, token []byte) (key reflect.Value, panicked any, err error) {
	in := append([]byte(nil), token...)
	p := reflect.New(kt)
	u := p.Interface().(json.Unmarshaler)
	panicked, err = contain.Run(func() error { return u.UnmarshalJSON(in) })
	return p.Elem(), panicked, err
}

// keyName is the Go map key kv as segmentio's error path names it:
// fmt.Sprint of it (decodeMap), whole, its own String, Error or Format
// run under recovery (fmt recovers a panic in them itself, and writes it
// as segmentio's path does); false where that panics all the same.
func keyName(kv reflect.Value) (string, bool) {
	if kv.Kind() == reflect.String && !formats(kv.Type()) {
		return kv.String(), true // its text, as fmt prints it
	}
	var s string
	panicked, _ := contain.Run(func() error {
		s = fmt.Sprint(kv.Interface())
		return nil
	})
	return s, panicked == nil
}
