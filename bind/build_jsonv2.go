//go:build goexperiment.jsonv2

package bind

import (
	jsonv2std "encoding/json/v2"
	"reflect"
	"strconv"
	"strings"
)

// The rules that differ when Go builds encoding/json on encoding/json/v2
// (GOEXPERIMENT=jsonv2, Go 1.25+): encoding/json is v2 under its legacy
// options (encoding/json/v2_*.go), and github.com/go-json-experiment/json
// is an alias of encoding/json/v2 (its alias.go), so V2 and Std both follow
// the standard library's v2 field rules (encoding/json/v2/fields.go).
// build_default.go holds the other build's.

const (
	jsonv2Build = true

	// v2QuotedOptions: parseFieldOptions reads a single-quoted name or
	// option anywhere (consumeTagOption).
	v2QuotedOptions = true

	// v2EmbedOption: the standard library's v2 spells it inline (and
	// unknown, for a fallback).
	v2EmbedOption = "inline"

	// v2FormatSupported: the standard library's v2 (Go 1.26) reads format:
	// options natively.
	v2FormatSupported = true

	// v2IgnoreBadEmbed: an inline option v2 rejects leaves the field
	// ignored (makeStructFields: "invalid inlined field; treat as ignored").
	v2IgnoreBadEmbed = true

	// stdNullKey: under the experiment encoding/json reads the key "null"
	// of a map with integer keys as the key 0, as it reads a quoted null
	// (v2's int and uint decoders under StringifyWithLegacySemantics,
	// go.dev/issue/75619); V2 fails on it.
	stdNullKey = true
)

func v2KnownOption(opt string) bool {
	switch opt {
	case "case", "inline", "unknown", "omitzero", "omitempty", "string", "format":
		return true
	}
	return false
}

// stdTagName is the name v2's parseFieldOptions gives the field, which
// encoding/json uses under the experiment (its errors are ignored there):
// the text up to a comma, backslash or quote, else a Go identifier or a
// single-quoted name; none when that is malformed. "a\"b" names the field
// "a", where encoding/json on its own falls back to the Go name.
func stdTagName(sf reflect.StructField) (name, opts string) {
	f, _, _ := v2FieldOptions(sf)
	if !f.hasName {
		return "", f.tagRest
	}
	return f.name, f.tagRest
}

// quotedVerdictOf judges the text of a ,string number's string as v2's
// number decoders do under StringifyWithLegacySemantics: with strconv's
// ParseInt, ParseUint or ParseFloat ("v1 parsed a quoted number according
// to the Go syntax and permitted a quoted null", go.dev/issue/75619), so
// "+5", "007", "Inf" and "0x1p3" (for a float) are read. Bools keep
// encoding/json's rule. The kind of a failure is quotedVerdict's.
func quotedVerdictOf(s []byte, base nodeKind, bits int) Code {
	if base == kBool || string(s) == "null" {
		return quotedVerdict(s, base, bits)
	}
	var err error
	switch base {
	case kInt:
		_, err = strconv.ParseInt(unsafeString(s), 10, bits)
	case kUint:
		_, err = strconv.ParseUint(unsafeString(s), 10, bits)
	default:
		_, err = strconv.ParseFloat(unsafeString(s), bits)
	}
	if err == nil {
		return ""
	}
	if k := quotedVerdict(s, base, bits); k != "" {
		return k
	}
	if strings.HasPrefix(unsafeString(s), "-") {
		return TooSmall
	}
	return TooLarge // a sign before digits, past the type's bounds
}

// v2UnknownOption inlines a fallback for unknown members.
const v2UnknownOption = "unknown"

// v2AmbiguousFold: the standard library's v2 binds a key that fits several
// case:ignore fields to the first of them in breadth-first order (the
// field's id; unmarshal of a struct, lookupByFoldedName), without error.
const v2AmbiguousFold = false

// v2FoldFirst keeps, of the case:ignore candidates of each folded name,
// the one v2 binds: the first in breadth-first order.
func v2FoldFirst(byFold map[string][]int, fields []v2Field) {
	for k, c := range byFold {
		first := c[0]
		for _, i := range c[1:] {
			if fields[i].id < fields[first].id {
				first = i
			}
		}
		byFold[k] = []int{first}
	}
}

// stdCaseStrict: under the experiment encoding/json reads v2's tag options,
// and a field tagged case:strict takes its exact name only (matchFoldedName).
func stdCaseStrict(tag reflect.StructTag) bool {
	f, _, _ := v2FieldOptions(reflect.StructField{Name: "F", Tag: tag})
	return f.casing&caseStrict != 0
}

// stdTagUnsupported names the v2 tag options encoding/json follows under
// the experiment that the native mirror does not: inline and unknown on a
// named field (v2 flattens its members, or ignores the field) and format:
// (a representation of v2's own). Compile refuses such a field rather than
// judge its values by another rule.
func stdTagUnsupported(tag reflect.StructTag) string {
	f, _, _ := v2FieldOptions(reflect.StructField{Name: "F", Tag: tag})
	switch {
	case f.embed:
		return "under GOEXPERIMENT=jsonv2 encoding/json reads its inline (or unknown) tag option as encoding/json/v2 does, which the guard's mirror of encoding/json does not follow"
	case f.format != "":
		return "under GOEXPERIMENT=jsonv2 encoding/json reads its format: tag option as encoding/json/v2 does, which the guard's mirror of encoding/json does not follow"
	}
	return ""
}

// unmarshalerFromType is encoding/json/v2's UnmarshalerFrom.
var unmarshalerFromType = reflect.TypeFor[jsonv2std.UnmarshalerFrom]()

// stdReadsFrom reports whether encoding/json reads a value through pt by
// v2's UnmarshalJSONFrom: in this build, where it is encoding/json/v2
// under its legacy options, it does (see decodesItself), but json.Number's
// own, which Std's rules for it read as that method does.
func stdReadsFrom(pt reflect.Type) bool {
	return pt.Elem() != numberType && pt.Implements(unmarshalerFromType)
}
