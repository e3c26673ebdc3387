package bind

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/bindguard/bindguard/internal/contain"
)

// trialBufs holds the buffers trial decodes build their one-field objects in.
var trialBufs = sync.Pool{New: func() any { return new([]byte) }}

// A PanicError reports that a type's own decoding method panicked while the
// guard tried a value. The binder would have panicked on the same value.
type PanicError struct {
	Type  reflect.Type
	Value any // what the method panicked with
}

// Error says what panicked, and with what: Value formatted by fmt, cut
// to a few hundred bytes, and a panic while formatting it caught.
func (e *PanicError) Error() string {
	return fmt.Sprintf("bind: decoding into %v panicked: %s", e.Type, contain.Sprint(e.Value))
}

// run makes one call into a type's own methods, f: a panic is returned as
// a *PanicError for type t.
func run(t reflect.Type, f func() error) error {
	p, err := contain.Run(f)
	if p != nil {
		return &PanicError{Type: t, Value: p}
	}
	return err
}

// unmarshal is b.Unmarshal as the guard runs it on a call: under V2, the
// errors of a type's own methods reach V2 tamed (contain.V2Unmarshal), as
// V2 itself would spin or overflow the stack on some. Run it in run.
func unmarshal(b Binder, data []byte, v any) error {
	if _, ok := b.(v2Binder); ok {
		return contain.V2Unmarshal(data, v)
	}
	return b.Unmarshal(data, v)
}

// trial decodes the value text[start:end] with the binder into a fresh
// value of n's type, as the binder decodes a field of that type (n.trial
// wraps the type in a one-field struct), and records an issue if it fails.
// It reports whether the binder read the value: it did not fail, and null
// was not lost.
//
// A null the type's own decoding leaves at its zero value (time.Time's
// UnmarshalJSON ignores null; encoding/json does not hand null to an
// UnmarshalText at all) is a NullForValue: the value sent is lost, as for any
// other type that cannot hold null. A type whose decoding makes something
// of null (an optional type recording that null was sent) loses nothing,
// nor does a map (whose keys decode themselves), which null sets nil.
func (c *checker) trial(n *node, start, end int) (read bool) {
	value := c.data[start:end]
	if string(value) == "null" && n.typ.Kind() == reflect.Map && !decodesItself(n.typ) {
		return false // null sets a map nil, as the binder reads it: no loss (a map whose keys decode themselves)
	}
	if string(value) == "null" {
		// One decode answers both questions: {"F":null} is the trial's
		// own text for null.
		zero, err := c.nullRead(n)
		if err == nil && zero {
			c.issue(NullForValue, n, start, end)
			return false
		}
		c.trialFailed(n, start, end, err)
		return err == nil
	}
	if c.batched(n) {
		return true // the binder read the whole list (batchOpen)
	}
	work(end - start) // decoded again, with the binder
	err := decodeTrial(c.binder, n, value)
	c.trialFailed(n, start, end, err)
	return err == nil
}

// trialFailed records the issue for a trial decode of the value
// text[start:end] that ended in err, if not nil.
func (c *checker) trialFailed(n *node, start, end int, err error) {
	if err != nil {
		kind := InvalidValue
		if _, ok := contain.As[*json.UnmarshalTypeError](err); ok {
			kind = WrongType
		}
		n0 := len(c.issues)
		c.issue(kind, n, start, end)
		if len(c.issues) > n0 {
			c.issues[n0].Err = err
		}
	}
}

func decodeTrial(b Binder, n *node, value []byte) (err error) {
	return decodeWrapped(b, n.typ, n.trial, value)
}

// decodeWrapped decodes value with binder b as the value of the field of
// a new value of the one-field struct type w, whose field is of type t. A
// panic in a decoding method is returned as a *PanicError for type t.
func decodeWrapped(b Binder, t, w reflect.Type, value []byte) (err error) {
	bp := trialBufs.Get().(*[]byte)
	buf := append(append(append((*bp)[:0], `{"F":`...), value...), '}')
	defer func() {
		if cap(buf) <= 1<<16 { // keep small buffers only
			*bp = buf[:0]
			trialBufs.Put(bp)
		}
	}()
	return run(t, func() error { return unmarshal(b, buf, reflect.New(w).Interface()) })
}

// nullLeavesZero decodes null as the binder decodes a field of n's type,
// and reports whether the field is still its zero value after.
func nullLeavesZero(b Binder, n *node) (zero bool, err error) {
	v := reflect.New(n.trial)
	err = run(n.typ, func() error {
		if err := unmarshal(b, []byte(`{"F":null}`), v.Interface()); err != nil {
			return err
		}
		zero = v.Elem().Field(0).IsZero() // IsZero may call the type's own IsZero method
		return nil
	})
	return zero && err == nil, err
}

// nullLeavesZeroType reports whether binder b, decoding null into a field
// of type t, leaves the field at its zero value: whether null is lost there.
// A type whose decoding fails on null, or panics, loses nothing (the call
// is refused instead).
func nullLeavesZeroType(b Binder, t reflect.Type) (zero bool) {
	w := reflect.StructOf([]reflect.StructField{{Name: "F", Type: t, Tag: `json:"F"`}})
	v := reflect.New(w)
	err := run(t, func() error {
		if err := unmarshal(b, []byte(`{"F":null}`), v.Interface()); err != nil {
			return err
		}
		zero = v.Elem().Field(0).IsZero()
		return nil
	})
	return zero && err == nil
}
