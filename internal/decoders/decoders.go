// Package decoders holds the entry points into the decoders bind mirrors
// beside encoding/json (go-json-experiment, segmentio), which bind calls
// but does not import, so that a program links only the binders it
// selects. internal/v2dec and internal/segdec install them when they
// initialize; bind/jsonv2 and bind/segmentio import them and export the
// binder bind publishes here. Nothing here imports a decoder.
package decoders

import "reflect"

// V2 is go-json-experiment's side of bind's V2 binder, installed by
// internal/v2dec; nil until a program imports it.
var V2 *V2Decoder

// SegmentIO is segmentio's side of bind's SegmentIO binder, installed by
// internal/segdec; nil until a program imports it.
var SegmentIO *SegmentIODecoder

// V2Binder and SegmentIOBinder are bind's binders (bind.Binder values,
// sealed), published by bind when it initializes for bind/jsonv2 and
// bind/segmentio to export.
var V2Binder, SegmentIOBinder any

// A V2Decoder is what bind asks of github.com/go-json-experiment/json.
type V2Decoder struct {
	// Unmarshal is json.Unmarshal with its default options.
	Unmarshal func(data []byte, v any) error
	// GuardUnmarshal is Unmarshal with the errors of a type's own methods
	// tamed (see contain.V2Unmarshal): what the guard runs on a call.
	GuardUnmarshal func(data []byte, v any) error
	// JSONUnmarshalers are json.UnmarshalerFrom and json.Unmarshaler.
	JSONUnmarshalers []reflect.Type
	// JSONMarshalers are json.MarshalerTo and json.Marshaler.
	JSONMarshalers []reflect.Type
	// Value is jsontext.Value.
	Value reflect.Type
	// ErrDuplicateName is jsontext.ErrDuplicateName.
	ErrDuplicateName error
	// ReadError reads an error V2 returned (a *jsontext.SyntacticError or
	// a *json.SemanticError, looked into within contain's bounds).
	ReadError func(err error) (V2Error, bool)
	// DuplicateName reports whether err is V2 refusing a repeated object
	// member name (jsontext.ErrDuplicateName, bare or in a
	// *jsontext.SyntacticError, never unwrapped), and the name when the
	// error holds it.
	DuplicateName func(err error) (name string, ok bool)
	// DuplicateError is the error V2 fails with on the repeated object
	// member name (a *jsontext.SyntacticError with ErrDuplicateName, its
	// pointer's one token the name), for a verdict bind's pass gives
	// without V2.
	DuplicateError func(name string) error
	// AppendQuote is jsontext.AppendQuote.
	AppendQuote func(dst []byte, s string) []byte
}

// A V2Error is what an error of V2's says.
type V2Error struct {
	// Syntactic: a *jsontext.SyntacticError; else a *json.SemanticError.
	Syntactic bool
	// Offset is the error's ByteOffset.
	Offset int64
	// Pointer is the tokens of the error's JSONPointer.
	Pointer []string
	// Duplicate: a syntactic error whose Err is jsontext.ErrDuplicateName.
	Duplicate bool
	// Kind: a semantic error with no Err, a JSON kind the Go type does
	// not read.
	Kind bool
	// Number: a semantic error whose Err holds strconv.ErrSyntax or
	// strconv.ErrRange, a number that does not fit.
	Number bool
	// Ambiguous: a semantic error whose Err is go-json-experiment's
	// errAmbiguousName, an object member name that fits two or more
	// case:ignore fields and none exactly; Pointer ends at the name.
	Ambiguous bool
}

// A SegmentIODecoder is what bind asks of
// github.com/segmentio/encoding/json and github.com/segmentio/asm.
type SegmentIODecoder struct {
	// Valid is json.Valid.
	Valid func(data []byte) bool
	// Parse is json.Parse with DontMatchCaseInsensitiveStructFields.
	Parse func(data []byte, v any) error
	// Decode runs a json.Decoder set to
	// DontMatchCaseInsensitiveStructFields on data once, and returns its
	// InputOffset.
	Decode func(data []byte, v any) (offset int64, err error)
	// KeysetFirst reports whether segmentio's struct decoder looks up
	// these field names with its keyset (which finds the first of two
	// alike) rather than its map (the last): keyset.New(keys) is not
	// empty.
	KeysetFirst func(keys [][]byte) bool
}
