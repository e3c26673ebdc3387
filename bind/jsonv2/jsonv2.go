// Package jsonv2 selects github.com/go-json-experiment/json as the binder
// bindguard mirrors: a server that decodes its tool arguments with it
// registers its tools with Binder. Only a program that imports this
// package links go-json-experiment (a server that mirrors encoding/json,
// bind.Std, does not).
package jsonv2

import (
	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/decoders"
	_ "github.com/bindguard/bindguard/internal/v2dec" // installs go-json-experiment into bind
)

// Binder is github.com/go-json-experiment/json (v1.27.0 to v1.27.2, the design of
// encoding/json/v2) with its default options: Binder.Unmarshal(data, v) is
// json.Unmarshal(data, v), no options given. Where it differs from bind.Std:
//
//   - Keys bind by exact, case-sensitive name: HOURS_BACK is not hours_back,
//     and is dropped. A field tagged case:ignore also takes a key equal to
//     its name once case, dashes and underscores are ignored; a key that
//     fits two such fields (and names neither exactly) fails.
//   - A repeated key fails (a duplicate object member name) at any depth,
//     and so do two keys that bind one field. Std reads every occurrence.
//   - Invalid UTF-8, and an escaped surrogate without its pair, fail in keys
//     and strings alike; Std replaces them with U+FFFD.
//   - null sets any field to its zero value (Std leaves a non-pointer field
//     as it was); both read it.
//   - An integer type reads a whole JSON number ("1e2" and "1.0" fail, as in
//     Std); "-0" fails for unsigned types, as in Std.
//   - A json.Number (encoding/json's) is a plain string type to V2: it reads
//     any JSON string, and fails on a number. Std reads a number, or a
//     string holding one.
//   - time.Duration has no default representation: every value sent for it
//     fails, null included. Std reads an integer (nanoseconds).
//   - A fixed-size array takes exactly its length of elements (Std drops
//     extra ones and leaves missing ones zero); a []byte takes strict
//     base64: padding required, no newlines.
//   - The ,string option applies to number types only: on any other type
//     every value fails.
//   - Nesting is limited to 10,000 arrays and objects, as in Std.
//   - Anything but space after the value fails, as in Std.
//
// V2 fails on every object for a non-empty struct with no field it can
// represent, one whose tags it rejects (an unexported field with a json
// tag, a malformed or misspelt option, two fields of one name in one
// struct), or one with a format: tag option (V2 v1.27.2 takes those only
// once the process calls ExperimentalGlobalSupportFormatTag(true)). Compile
// refuses such a type, naming the field, as it refuses a struct with an
// embedded fallback (a map or jsontext.Value taking every key no field
// takes), whose parameters cannot be listed.
//
// On a call V2 reads, bind.Plan.Check also reports what V2 changes or drops without
// failing (the silent losses; see bind.Code), found by walking the text
// against the struct's positions as V2 binds them:
//
//   - NullForValue: null for a position that has no nil (a number, string,
//     bool, struct or fixed-size array, time.Time, a type read by
//     UnmarshalText), which V2 sets to its zero value. Not for a type
//     whose UnmarshalJSON or UnmarshalJSONFrom reads null itself.
//   - RoundedNumber: an integer, written with no fraction and no exponent,
//     that a float32, float64 or any (a float64) cannot hold exactly, which
//     V2 rounds (9007199254740993 reads as
//     9007199254740992), ,string fields included.
//   - UnknownField: a key inside a nested struct's object that binds no
//     field, which V2 drops (a nested embedded fallback keeps it: no
//     issue).
//   - FoldedKey: a key that binds a case:ignore field only once folded
//     (HOURS_BACK or hoursback for hours_back), at any depth.
//
// Under GOEXPERIMENT=jsonv2 V2 is the standard library's encoding/json/v2,
// which differs on some of the points above (json.Number, format:, the
// inline option, ambiguous folds; see the package doc).
//
// V2 has no other loss: on a repeated key, a fixed-size array of another
// length, invalid UTF-8 or a lone surrogate it fails, and Check reports the
// failure. A parameter bind.Plan.WithRequired names is MissingArgument unless a
// top-level key binds to it by V2's matching (a case:ignore fold counts).
//
// Check reads the arguments first with V2's own rules (its field set,
// exact names, V2's limits), in one pass that proves a call clean or
// declines (see package bind's documentation): a call it proves clean V2
// reads without error and without loss, and Check returns no issue
// without decoding. Every other call is mirrored by trial: Check decodes
// the arguments with V2 itself, once, into a fresh value of the tool's
// struct, so the verdict is V2's own at the cost of about one extra
// decode. Only
// when V2 fails does Check decode each argument alone, into a one-field
// struct of the field's type and tag options, to name the ones it fails on
// (V2's error points to the innermost offending value). A repeated or
// ambiguous key, and invalid UTF-8 outside any argument's value, are one
// InvalidJSON issue each: V2 reports them as syntax errors. A repeated key is
// told apart by its Err, jsontext.ErrDuplicateName (or V2's
// *jsontext.SyntacticError holding it), and its span, the key: an InvalidValue
// issue of the parameter the key binds, or an InvalidJSON issue for a key V2
// drops. A key repeated inside an argument is that argument's InvalidValue
// issue at the object holding it, with V2's *jsontext.SyntacticError
// (ErrDuplicateName, its pointer ending at the key) in Err.
var Binder bind.Binder = decoders.V2Binder.(bind.Binder)
