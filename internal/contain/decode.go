package contain

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"

	"github.com/bindguard/bindguard/internal/bindcap"
)

// A Binder is a decoder the guard mirrors (bind.Binder).
type Binder interface {
	Unmarshal(data []byte, v any) error
}

// A Panic is a decode that panicked: a type's own method, most likely.
type Panic struct{ Value any }

func (p *Panic) Error() string { return "json: decoding panicked: " + Sprint(p.Value) }

// Decode decodes data into v with b, as the guard runs the binder on a
// call: a panic is returned as a *Panic, and under V2 a type's own
// decoding methods are called as V2 calls them, but the error one returns
// reaches V2 tamed (see V2Unmarshal). The verdict is b's own.
func Decode(b Binder, data []byte, v any) error {
	p, err := Run(func() error {
		if bindcap.Of(b).V2Unmarshal {
			return V2Unmarshal(data, v)
		}
		return b.Unmarshal(data, v)
	})
	if p != nil {
		return &Panic{Value: p}
	}
	return err
}

// V2Unmarshal is jsonv2.Unmarshal(data, v) with its default options, but
// for what V2 itself does with the error a type's own UnmarshalJSONFrom,
// UnmarshalJSON or UnmarshalText returns: V2 calls errors.Is on it, which
// spins forever on an Unwrap that returns its own error, overflows the
// stack on a tree a million wide, and panics with Unwrap or Is. Here each
// method is called from an unmarshal function (jsonv2.WithUnmarshalers)
// that reads the value as V2 would, calls the method, and hands V2 a
// *methodError in place of the method's error: one whose text is the
// method's error's, cut, and which unwraps to nothing of the method's.
// Whether the method fails, and so the verdict, is unchanged; so are the
// position V2 reports and the value it decodes.
func V2Unmarshal(data []byte, v any) error {
	return jsonv2.Unmarshal(data, v, v2Methods)
}

var goTime = reflect.TypeFor[time.Time]()

// native reports a type V2 reads natively whatever its methods.
func native(p any) bool { return reflect.TypeOf(p).Elem() == goTime }

var v2Methods = jsonv2.WithUnmarshalers(jsonv2.JoinUnmarshalers(
	jsonv2.UnmarshalFromFunc(func(dec *jsontext.Decoder, u jsonv2.UnmarshalerFrom) error {
		if native(u) {
			return skip
		}
		err := u.UnmarshalJSONFrom(dec)
		if err != nil && methodMaySkip && Is(err, errors.ErrUnsupported) {
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

// A methodError stands for the error a type's own method returned.
type methodError struct {
	err error // the method's, looked into only through this package
	is  error // strconv.ErrSyntax or ErrRange when err holds one, else nil
}

func (e *methodError) Error() string { return Text(e.err) }
func (e *methodError) Unwrap() error { return e.is }

func tame(err error) error {
	if err == nil {
		return nil
	}
	m := &methodError{err: err}
	switch {
	case Is(err, strconv.ErrSyntax):
		m.is = strconv.ErrSyntax
	case Is(err, strconv.ErrRange):
		m.is = strconv.ErrRange
	}
	if Is(err, errors.ErrUnsupported) {
		// V2 refuses a method that returns it (once the value is read):
		// say so, without handing V2 the method's error.
		return fmt.Errorf("%w (the method returned errors.ErrUnsupported)", m)
	}
	return m
}
