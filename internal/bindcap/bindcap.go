// Package bindcap holds what the packages above bind (typereg, refuse,
// bindtest) and beside it (contain) need to know of a binder and bind
// does not export: its capabilities, unexported methods of the sealed
// bind.Binder published here when bind initializes, so that no one tells
// binders apart by name. A binder is asked what it does, never what it
// is called: a bind.Reader may carry any name. internal/lexcheck's test
// holds the rule.
package bindcap

import (
	"reflect"

	"github.com/bindguard/bindguard/internal/jsonpath"
)

// ReadsLiteral reports whether binder b binds each value as its JSON text
// reads: true for the binders bind mirrors natively (Std, V2, SegmentIO),
// false for a server's own function (bind.Reader), whose value may differ
// from the text sent (trimmed, clamped, coerced). Checks that judge a
// value by its text hold only where it is true.
var ReadsLiteral func(b any) bool

// Of returns the capabilities of binder b: how it reads the few types
// binders read differently. A binder bind does not mirror natively (a
// bind.Reader) has the zero Caps: encoding/json's, whose parameters it
// takes.
var Of func(b any) Caps

// DuplicateName reports whether err, the Err of an issue binder b
// reported, is b refusing a key sent more than once in one object (V2:
// jsontext.ErrDuplicateName, bare or in its *jsontext.SyntacticError),
// with the key's name when the error holds one, and that name quoted as
// b writes it. It unwraps nothing: the error may hold a user method's.
var DuplicateName func(b any, err error) (name string, quoted []byte, ok bool)

// Caps are what a binder reads where binders differ in a way the words
// of a refusal say, or the guard must run it differently. The zero value
// is encoding/json's.
type Caps struct {
	// Number is what the binder reads into a json.Number.
	Number NumberReads
	// Duration is what the binder reads into a time.Duration not tagged
	// ,string.
	Duration DurationReads
	// V2Unmarshal: the binder's Unmarshal is go-json-experiment's
	// Unmarshal with its default options, which calls a type's own
	// methods and looks into the errors they return (contain.V2Unmarshal
	// runs it with those errors tamed).
	V2Unmarshal bool
}

// NumberReads is what a binder reads into a json.Number.
type NumberReads uint8

const (
	// NumberOrNumericText: a JSON number, or a JSON string holding one
	// (encoding/json; V2 under GOEXPERIMENT=jsonv2, where json.Number
	// reads itself).
	NumberOrNumericText NumberReads = iota
	// NumberAsText: a JSON string, as for any string type (V2 on its
	// own, where json.Number has no method of its own).
	NumberAsText
	// NumberOnly: a JSON number, never a string (segmentio).
	NumberOnly
)

// DurationReads is what a binder reads into a time.Duration.
type DurationReads uint8

const (
	// DurationNanoseconds: a whole number of nanoseconds, as for any
	// int64 (encoding/json).
	DurationNanoseconds DurationReads = iota
	// DurationNever: nothing; go-json-experiment reads a time.Duration
	// only under a format tag option.
	DurationNever
	// DurationNanosecondsOrText: a whole number of nanoseconds, or text
	// time.ParseDuration reads ("1s"; segmentio).
	DurationNanosecondsOrText
)

// Path returns the steps of a bind.Path, which bind exports only as text
// (String, Pointer): refuse reads a path's steps, never its text.
var Path func(p any) jsonpath.Path

// Field returns the field of struct type st, read below the top level of
// plan p's tool, that p's binder binds the object key raw (a JSON string
// as sent, quotes included) to, by the binder's own field rules (exact
// names, case folding as it folds): its index sequence and its tag; ok is
// false for a key it binds to no field. known is false where p holds no
// rules for st (a bind.Reader's plan, a type it does not read), and the
// caller must judge by encoding/json's.
var Field func(p any, st reflect.Type, raw []byte) (index []int, tag reflect.StructTag, ok, known bool)
