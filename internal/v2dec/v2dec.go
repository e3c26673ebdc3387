// Package v2dec is bind's V2 binder's use of
// github.com/go-json-experiment/json: its Unmarshal, the guard's run of it
// with a type's own methods contained, its method types and its errors.
// It installs itself into internal/decoders when it initializes, and
// imports no package of bindguard's above internal/contain, so bind links
// go-json-experiment only for a program that imports bind/jsonv2.
package v2dec

import (
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/decoders"
)

func init() {
	decoders.V2 = &decoders.V2Decoder{
		Unmarshal:        func(data []byte, v any) error { return jsonv2.Unmarshal(data, v) },
		GuardUnmarshal:   guardUnmarshal,
		JSONUnmarshalers: methodTypes[:2:2],
		JSONMarshalers: []reflect.Type{
			reflect.TypeFor[jsonv2.MarshalerTo](),
			reflect.TypeFor[jsonv2.Marshaler](),
		},
		Value:            reflect.TypeFor[jsontext.Value](),
		ErrDuplicateName: jsontext.ErrDuplicateName,
		ReadError:        readError,
		DuplicateName:    duplicateName,
		DuplicateError: func(name string) error {
			return &jsontext.SyntacticError{JSONPointer: jsontext.Pointer("").AppendToken(name), Err: jsontext.ErrDuplicateName}
		},
		AppendQuote: func(dst []byte, s string) []byte {
			dst, _ = jsontext.AppendQuote(dst, s)
			return dst
		},
	}
}

// readError reads err as V2's: it may hold the error a type's own method
// returned, so it is looked into only within contain's bounds.
func readError(err error) (decoders.V2Error, bool) {
	if se, ok := contain.As[*jsontext.SyntacticError](err); ok {
		return decoders.V2Error{
			Syntactic: true,
			Offset:    se.ByteOffset,
			Pointer:   tokens(se.JSONPointer),
			Duplicate: contain.Is(se.Err, jsontext.ErrDuplicateName),
		}, true
	}
	if me, ok := contain.As[*jsonv2.SemanticError](err); ok {
		return decoders.V2Error{
			Offset:    me.ByteOffset,
			Pointer:   tokens(me.JSONPointer),
			Kind:      me.Err == nil,
			Number:    me.Err != nil && (contain.Is(me.Err, strconv.ErrSyntax) || contain.Is(me.Err, strconv.ErrRange)),
			Ambiguous: me.Err != nil && me.Err == errAmbiguousName,
		}, true
	}
	return decoders.V2Error{}, false
}

// errAmbiguousName is go-json-experiment's own (unexported) error for an
// object member name that fits two case:ignore fields and none exactly,
// taken from the error V2 returns for one: compared by identity, so that
// no message is read. It is nil where V2 binds such a name (the standard
// library's v2, of which go-json-experiment is an alias under
// GOEXPERIMENT=jsonv2, binds the first field).
var errAmbiguousName = func() error {
	var v struct {
		A int `json:"a,case:ignore"`
		B int `json:"A,case:ignore"`
	}
	if se, ok := jsonv2.Unmarshal([]byte(`{"_a":0}`), &v).(*jsonv2.SemanticError); ok {
		return se.Err
	}
	return nil
}()

func tokens(p jsontext.Pointer) []string {
	var out []string
	for tok := range p.Tokens() {
		out = append(out, tok)
	}
	return out
}

// duplicateName unwraps nothing: the error may hold a user method's.
func duplicateName(err error) (string, bool) {
	if err == jsontext.ErrDuplicateName {
		return "", true
	}
	if se, isSE := err.(*jsontext.SyntacticError); isSE && se.Err == jsontext.ErrDuplicateName {
		return se.JSONPointer.LastToken(), true
	}
	return "", false
}

// guardUnmarshal is jsonv2.Unmarshal(data, v) with its default options,
// but for what V2 itself does with the error a type's own
// UnmarshalJSONFrom, UnmarshalJSON or UnmarshalText returns: V2 calls
// errors.Is on it, which spins forever on an Unwrap that returns its own
// error, overflows the stack on a tree a million wide, and panics with
// Unwrap or Is. Here each method is called from an unmarshal function
// (jsonv2.WithUnmarshalers) that reads the value as V2 would, calls the
// method, and hands V2 a tamed error in place of the method's (see
// contain.Tame). Whether the method fails, and so the verdict, is
// unchanged; so are the position V2 reports and the value it decodes.
//
// A value of no type with such a method (V2's own time.Time aside) has no
// method to tame: it is decoded with V2's default options alone, as the
// functions would only pass it on, at a cost (each value V2 offers them
// is converted to their interface: two allocations a time.Time).
func guardUnmarshal(data []byte, v any) error {
	if methodFree(reflect.TypeOf(v)) {
		return jsonv2.Unmarshal(data, v)
	}
	return jsonv2.Unmarshal(data, v, v2Methods)
}

// methodFreeTypes holds methodFree's answer for each type asked.
var methodFreeTypes sync.Map // reflect.Type → bool

// methodFree reports whether V2, decoding into a value of type t, reaches
// no method v2Methods would call: no type in t (its elements, keys,
// fields, at any depth) but time.Time has an UnmarshalJSONFrom,
// UnmarshalJSON or UnmarshalText, and no interface in it has methods.
// json.RawMessage's UnmarshalJSON counts as none: it copies the value and
// returns nil (its one error is for a nil receiver, which V2 never hands
// it), so there is no error to tame.
func methodFree(t reflect.Type) bool {
	if t == nil {
		return false
	}
	if free, ok := methodFreeTypes.Load(t); ok {
		return free.(bool)
	}
	free := freeOfMethods(t, map[reflect.Type]bool{})
	methodFreeTypes.Store(t, free)
	return free
}

func freeOfMethods(t reflect.Type, seen map[reflect.Type]bool) bool {
	if t == goTime || t == rawMessage || seen[t] {
		return true // V2's own, or a method that cannot fail; or being looked at, below
	}
	seen[t] = true
	if t.Kind() == reflect.Interface {
		return t.NumMethod() == 0 // V2 decodes into any by its own rules
	}
	pt := reflect.PointerTo(t)
	for _, m := range methodTypes {
		if pt.Implements(m) {
			return false
		}
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return freeOfMethods(t.Elem(), seen)
	case reflect.Map:
		return freeOfMethods(t.Key(), seen) && freeOfMethods(t.Elem(), seen)
	case reflect.Struct:
		for i := range t.NumField() {
			if !freeOfMethods(t.Field(i).Type, seen) {
				return false
			}
		}
	}
	return true
}

// methodTypes are the methods v2Methods calls: V2's JSON unmarshalers
// (decoders.V2Decoder.JSONUnmarshalers, the first two), then
// UnmarshalText.
var methodTypes = []reflect.Type{
	reflect.TypeFor[jsonv2.UnmarshalerFrom](),
	reflect.TypeFor[jsonv2.Unmarshaler](),
	reflect.TypeFor[encoding.TextUnmarshaler](),
}

var (
	goTime     = reflect.TypeFor[time.Time]()
	rawMessage = reflect.TypeFor[json.RawMessage]()
)

// native reports a type V2 reads natively whatever its methods.
func native(p any) bool { return reflect.TypeOf(p).Elem() == goTime }

var v2Methods = jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
	jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, u jsonv2.UnmarshalerFrom) error {
		if native(u) {
			return skip
		}
		err := u.UnmarshalJSONFrom(dec)
		if err != nil && methodMaySkip && contain.Is(err, errors.ErrUnsupported) {
			return skip // V2 falls back when nothing was read, else fails
		}
		return tame(err)
	}),
	jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, u jsonv2.Unmarshaler) error {
		if native(u) {
			return skip
		}
		val, err := dec.ReadValue()
		if err != nil {
			return err
		}
		return tame(u.UnmarshalJSON(val))
	}),
	jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, u encoding.TextUnmarshaler) error {
		if native(u) || dec.PeekKind() != '"' {
			return skip // V2's own: null sets zero, another kind fails, neither calls the method
		}
		val, err := dec.ReadValue()
		if err != nil {
			return err
		}
		text, err := jsontext.AppendUnquote(nil, val)
		if err != nil {
			return err
		}
		return tame(u.UnmarshalText(text))
	}),
))

// tame is contain.Tame, and says so when the method returned
// errors.ErrUnsupported, which V2 refuses of a method (once the value is
// read), without handing V2 the method's error.
func tame(err error) error {
	m := contain.Tame(err)
	if m != nil && contain.Is(err, errors.ErrUnsupported) {
		return fmt.Errorf("%w (the method returned errors.ErrUnsupported)", m)
	}
	return m
}
