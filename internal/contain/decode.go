package contain

import (
	"strconv"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/decoders"
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
// stack on a tree a million wide, and panics with Unwrap or Is. Each
// method is called from an unmarshal function that reads the value as V2
// would, calls the method, and hands V2 the method's error tamed (Tame).
// Whether the method fails, and so the verdict, is unchanged; so are the
// position V2 reports and the value it decodes. A value of no type with
// such a method (but time.Time, which V2 reads by its own rules, and
// json.RawMessage, whose method cannot fail) is decoded by V2 alone.
//
// It is internal/v2dec's (installed into internal/decoders), which links
// go-json-experiment: it panics in a program that does not import it,
// which holds no V2 binder to run.
func V2Unmarshal(data []byte, v any) error {
	return decoders.V2.GuardUnmarshal(data, v)
}

// A methodError stands for the error a type's own method returned.
type methodError struct {
	err error // the method's, looked into only through this package
	is  error // strconv.ErrSyntax or ErrRange when err holds one, else nil
}

func (e *methodError) Error() string { return Text(e.err) }
func (e *methodError) Unwrap() error { return e.is }

// Tame returns an error standing for err, the error a type's own method
// returned, for a decoder that looks into it: its text is err's, cut, and
// it unwraps to strconv.ErrSyntax or strconv.ErrRange when err holds one,
// else to nothing. Tame(nil) is nil.
func Tame(err error) error {
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
	return m
}
