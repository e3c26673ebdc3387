package bind_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/decoders"
)

// The binder's own error names where it stopped: V2's SemanticError by a
// JSON Pointer, segmentio's UnmarshalTypeError by a dotted path of keys
// (Field). Each binder stops at the first failure of the call, so the
// check's failure that comes first in the text is there: an oracle of
// where a failure is placed that neither the one pass nor the trial check
// supplies (the pass is held to the trial check elsewhere, FuzzNative).

// FuzzV2_FirstFailurePlaced: over FuzzNative's shapes and calls, where V2
// fails on JSON with a semantic error, the check's first failure is at
// the error's pointer.
func FuzzV2_FirstFailurePlaced(f *testing.F) {
	fuzzFirstFailure(f, jsonv2.Binder, func(err error, args []byte) ([]string, int, bool) {
		e, ok := decoders.V2.ReadError(err)
		return e.Pointer, int(e.Offset), ok && !e.Syntactic // a syntactic one (a repeated name) is at the object
	})
}

// FuzzSegmentIO_FirstFailurePlaced: over FuzzNative's shapes and calls,
// where segmentio fails on JSON with a type error naming a path, the
// check's first failure is at that path, or above it (inside a value of a
// type of its own methods, which the check does not open).
func FuzzSegmentIO_FirstFailurePlaced(f *testing.F) {
	fuzzFirstFailure(f, segmentio.Binder, func(err error, args []byte) ([]string, int, bool) {
		var te *json.UnmarshalTypeError
		if !errors.As(err, &te) || te.Field == "" {
			return nil, -1, false // a ,string field's, a []byte's error names no path
		}
		// Value quotes the text from the value failed on, cut at 32 bytes.
		at := -1
		if rest, err := strconv.Unquote(te.Value); err == nil {
			rest = strings.TrimSuffix(rest, "...")
			if i := bytes.Index(args, []byte(rest)); i >= 0 && bytes.LastIndex(args, []byte(rest)) == i {
				at = i // told apart only where the text is the call's once
			}
		}
		return strings.Split(te.Field, "."), at, true
	})
}

// fuzzFirstFailure is a FuzzX_FirstFailurePlaced for binder b: at reads
// the path of b's error (of a call of args), and where it stopped in args
// (-1: not told), and false where it names no path.
func fuzzFirstFailure(f *testing.F, b bind.Binder, at func(err error, args []byte) ([]string, int, bool)) {
	for i := range nativeFixed {
		f.Add([]byte{byte(i)}, []byte(`{"i":"x","n":1}`))
	}
	f.Add([]byte{1}, []byte(`{"n":{"x":"y"},"i":1.5}`))
	f.Add([]byte{1}, []byte(`{"ns":[{"x":1},{"z":[1,"a"]}],"m":{"a":"b"}}`))
	f.Add([]byte{1}, []byte(`{"m":{"a":"b"},"deep":[[{"x":true}]],"n":{"x":1,"x":"y"}}`))
	f.Add([]byte{1}, []byte(`{"arr":[1, 2 ,3 ]}`)) // a length V2 places at the ']'
	f.Add([]byte{1, 18, 2, 0, 8, 1, 8}, []byte(`{"e":1,"a":"x","In":2,"b":{"v":1,"kids":[{"s":"y"}],"m":{"k":{"v":2}}}}`))
	// Field "a" of nmSpan (a field's name holds a dot), sent again.
	f.Add([]byte{2, 2, 0, byte(slices.Index(nativeTypes, reflect.TypeFor[nmSpan]())), 0, 0}, []byte(`{"a":{"from":1,"from":"x"}}`))
	f.Fuzz(func(t *testing.T, shape, args []byte) {
		typ := fuzzShape(shape, nativeFixed)
		if typ == nil || !json.Valid(args) {
			return // text that is not JSON: its verdict is the text's
		}
		plan, err := b.Compile(typ)
		if err != nil {
			return
		}
		berr := b.Unmarshal(args, reflect.New(typ).Interface())
		want, offset, ok := at(berr, args)
		if !ok {
			return
		}
		var first *bind.Issue
		issues := plan.Check(args, nil)
		for i, is := range issues {
			if is.Kind.Class() == bind.BinderFailure && is.Kind != bind.Omitted && (first == nil || is.Start < first.Start) {
				first = &issues[i]
			}
		}
		if first == nil {
			t.Fatalf("%v %q: %s fails (%v), the check lists no failure", typ, args, b.Name(), berr)
		}
		got := pointerTokens(first.Path.Pointer())
		if b == segmentio.Binder {
			for _, tok := range got {
				if tok == "" || strings.Contains(tok, ".") {
					return // segmentio's dotted path drops a last empty key, and splits a key of a dot
				}
			}
			if len(got) < len(want) {
				want = want[:len(got)]
			}
		}
		if offset >= 0 && offset != first.Start && b == jsonv2.Binder && args[first.Start] == '[' && offset == first.End-1 {
			offset = first.Start // V2 reads a fixed-length array to its end before it says the length is wrong: at the ']'
		}
		if !slices.Equal(got, want) || offset >= 0 && first.Start != offset {
			t.Fatalf("%v %q: the check's first failure is %s at %q [%d,%d); %s failed at %q, offset %d: %v", typ, args, first.Kind, got, first.Start, first.End, b.Name(), want, offset, berr)
		}
	})
}

// pointerTokens returns the reference tokens of JSON Pointer p.
func pointerTokens(p string) []string {
	if p == "" {
		return nil
	}
	toks := strings.Split(p[1:], "/")
	for i, tok := range toks {
		toks[i] = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
	}
	return toks
}

// FuzzStd_NativeShapes: over FuzzNative's shapes and calls, and
// fromArgs (selfFrom at every depth: V2's UnmarshalJSONFrom, which
// encoding/json calls too under GOEXPERIMENT=jsonv2), Std's check fails
// exactly where encoding/json does (checkAgainstStd): the native
// vocabulary (types that decode themselves, named interfaces, fields
// whose names hold a dot, every tag option) read by Std's rules, in both
// builds; and where Check finds nothing, nothing is lost (roundTrips).
func FuzzStd_NativeShapes(f *testing.F) {
	fixed := append(slices.Clip(nativeFixed), reflect.TypeFor[fromArgs]())
	for i := range fixed {
		f.Add([]byte{byte(i)}, []byte(`{"i":"x","n":1,"f":1}`))
	}
	f.Add([]byte{byte(len(fixed) - 1)}, []byte(`{"l":[1,2],"n":{"f":3}}`))
	f.Fuzz(func(t *testing.T, shape, args []byte) {
		typ := fuzzShape(shape, fixed)
		if typ == nil {
			return
		}
		plan, err := bind.Std.Compile(typ)
		if err != nil {
			return // a type encoding/json does not read
		}
		checkAgainstStd(t, plan, args)
		roundTrips(t, bind.Std, plan, args) // and, where it finds nothing, nothing is lost
	})
}
