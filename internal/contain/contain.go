// Package contain runs the server's own code (a type's UnmarshalJSON or
// UnmarshalText, and the methods of the error it returns) so that nothing
// it does can crash or hang the guard: a panic is caught and reported, an
// error's tree is walked within a fixed budget, and an error's text is cut
// to a fixed length.
//
// Every call the guard makes into such code goes through this package:
// the binder's decoding (which calls the methods), Unwrap when the guard
// looks for the binder's own error types inside a failure, and Error when
// an adapter words a failure. The guard never calls an error's Is or As
// method: it compares errors and asserts their types itself.
package contain

import (
	"fmt"
	"unicode/utf8"
)

const (
	// MaxDepth is how many Unwrap steps below the error Find goes.
	MaxDepth = 16
	// MaxNodes is how many errors of one tree Find looks at, the error
	// itself included: Unwrap runs at most that many times.
	MaxNodes = 64
	// MaxText is the longest text, in bytes, Text returns.
	MaxText = 512
)

// Run calls f and returns its error. When f panics, Run returns what f
// panicked with, and a nil error (a nil panic arrives as the runtime's
// *runtime.PanicNilError, so a panic is never nil).
func Run(f func() error) (panicked any, err error) {
	defer func() {
		if r := recover(); r != nil {
			panicked, err = r, nil
		}
	}()
	return nil, f()
}

// Find returns the first error of err's tree for which match reports true,
// or nil. It walks the tree as errors.As does (err, then depth first
// through Unwrap() error and Unwrap() []error), but looks at no more than
// MaxNodes errors and goes no deeper than MaxDepth, so an Unwrap that
// returns its own error, a cycle, or a tree of a million errors cost a
// bounded walk. An Unwrap, or match, that panics ends the walk of that
// branch.
func Find(err error, match func(error) bool) error {
	budget := MaxNodes
	return find(err, match, 0, &budget)
}

func find(err error, match func(error) bool, depth int, budget *int) (found error) {
	if err == nil || *budget <= 0 {
		return nil
	}
	*budget--
	defer func() {
		if recover() != nil {
			found = nil
		}
	}()
	if match(err) {
		return err
	}
	if depth >= MaxDepth {
		return nil
	}
	switch u := err.(type) {
	case interface{ Unwrap() error }:
		return find(u.Unwrap(), match, depth+1, budget)
	case interface{ Unwrap() []error }:
		for _, e := range u.Unwrap() {
			if *budget <= 0 {
				return nil
			}
			if f := find(e, match, depth+1, budget); f != nil {
				return f
			}
		}
	}
	return nil
}

// As returns the first error of type E in err's tree, as errors.As finds
// it (without calling As methods), within Find's budget.
func As[E error](err error) (E, bool) {
	f := Find(err, func(e error) bool { _, ok := e.(E); return ok })
	e, ok := f.(E)
	return e, ok
}

// Is reports whether target is in err's tree, as errors.Is finds it
// (without calling Is methods), within Find's budget. target must be of
// a comparable type, as the sentinel errors are.
func Is(err, target error) bool {
	return Find(err, func(e error) bool { return e == target }) != nil
}

// Text returns err's text, err.Error(), cut to at most MaxText bytes on a
// character boundary and marked as cut; when Error panics, a text saying
// so.
func Text(err error) (s string) {
	if err == nil {
		return "<nil>"
	}
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("(the Error method of %T panicked)", err)
		}
	}()
	return Cut(err.Error())
}

// Sprint formats v with %v, as fmt does, cut as Text cuts; a panic while
// formatting (fmt recovers one in a String or Error method, not a second
// one inside the first) is a text saying so.
func Sprint(v any) (s string) {
	defer func() {
		if recover() != nil {
			s = fmt.Sprintf("(formatting a %T panicked)", v)
		}
	}()
	return Cut(fmt.Sprint(v))
}

// Cut cuts s to at most MaxText bytes on a character boundary, ending it
// with an ellipsis when cut.
func Cut(s string) string {
	if len(s) <= MaxText {
		return s
	}
	n := MaxText - len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}
