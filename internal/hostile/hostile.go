// Package hostile holds parameter types whose own decoding methods fail
// with errors that misbehave: an Unwrap that panics, returns its own error,
// forms a cycle or a million-wide tree; an Error that panics or returns
// 10 MB; a method that panics with such an error. The tests of the guard
// and of the adapters send calls to tools taking them, to show that no
// user method can crash or hang the host.
package hostile

import (
	"errors"
	"strings"
)

// A Fault is how a hostile type's method fails.
type Fault interface{ fail() error }

// The faults.
type (
	UnwrapPanics struct{} // Unwrap() error panics
	UnwrapSelf   struct{} // Unwrap() error returns the error itself
	UnwrapCycle  struct{} // two errors whose Unwrap returns the other
	UnwrapWide   struct{} // Unwrap() []error returns 1,000,000 errors, each as wide
	ErrorPanics  struct{} // Error panics (and so does Unwrap)
	ErrorHuge    struct{} // Error returns 10 MB
	IsAsPanic    struct{} // Is and As panic, and Unwrap returns the error itself
	PanicsWith   struct{} // the method panics with an error whose Error and Unwrap panic
	WrapsSelf    struct{} // a wrapped *SelfErr (fmt.Errorf %w) under a standard wrapper
)

func (UnwrapPanics) fail() error { return unwrapPanics{} }
func (UnwrapSelf) fail() error   { return &selfErr{} }
func (UnwrapCycle) fail() error {
	a, b := &cycleErr{}, &cycleErr{}
	a.next, b.next = b, a
	return a
}
func (UnwrapWide) fail() error  { return wide }
func (ErrorPanics) fail() error { return errorPanics{} }
func (ErrorHuge) fail() error   { return errorHuge{} }
func (IsAsPanic) fail() error   { return &isAsPanic{} }
func (PanicsWith) fail() error  { panic(errorPanics{}) }
func (WrapsSelf) fail() error   { return errors.Join(errors.New("wrapped"), &selfErr{}) }

type unwrapPanics struct{}

func (unwrapPanics) Error() string { return "hostile: unwrap panics" }
func (unwrapPanics) Unwrap() error { panic("hostile: Unwrap") }

type selfErr struct{}

func (e *selfErr) Error() string { return "hostile: unwraps to itself" }
func (e *selfErr) Unwrap() error { return e }

type cycleErr struct{ next *cycleErr }

func (e *cycleErr) Error() string { return "hostile: a cycle" }
func (e *cycleErr) Unwrap() error { return e.next }

type wideErr struct{}

// wide is one error whose Unwrap returns a million errors, each of them
// wide itself: errors.As would look at them forever.
var wide = &wideErr{}

var wideKids = func() []error {
	kids := make([]error, 1_000_000)
	for i := range kids {
		kids[i] = wide
	}
	return kids
}()

func (*wideErr) Error() string     { return "hostile: a million wide" }
func (*wideErr) Unwrap() []error   { return wideKids }
func (errorPanics) Error() string  { panic("hostile: Error") }
func (errorPanics) Unwrap() error  { panic("hostile: Unwrap") }
func (errorHuge) Error() string    { return huge }
func (e *isAsPanic) Error() string { return "hostile: Is and As panic" }
func (e *isAsPanic) Unwrap() error { return e }
func (e *isAsPanic) Is(error) bool { panic("hostile: Is") }
func (e *isAsPanic) As(any) bool   { panic("hostile: As") }

type (
	errorPanics struct{}
	errorHuge   struct{}
	isAsPanic   struct{}
)

var huge = strings.Repeat("x", 10<<20)

// JSON is a value whose UnmarshalJSON fails as F says on every value but
// the number 1.
type JSON[F Fault] struct{ V int }

func (j *JSON[F]) UnmarshalJSON(b []byte) error {
	if string(b) == "1" {
		j.V = 1
		return nil
	}
	var f F
	return f.fail()
}

// Text is a value whose UnmarshalText fails as F says on every text but
// "ok".
type Text[F Fault] struct{ S string }

func (t *Text[F]) UnmarshalText(b []byte) error {
	if string(b) == "ok" {
		t.S = "ok"
		return nil
	}
	var f F
	return f.fail()
}

// Args are a tool's parameters: one of each hostile kind, and a plain
// bounded number.
type Args[F Fault] struct {
	J JSON[F] `json:"j,omitempty"`
	T Text[F] `json:"t,omitempty"`
	N int     `json:"n,omitempty" validate:"max=5"`
}
