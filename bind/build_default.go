//go:build !goexperiment.jsonv2

package bind

import (
	"reflect"
	"strings"
)

// The rules that differ when Go builds encoding/json on encoding/json/v2
// (GOEXPERIMENT=jsonv2, Go 1.25+): this build's, where encoding/json is its
// own decoder and V2 is github.com/go-json-experiment/json itself.
// build_jsonv2.go holds the other build's.

const (
	// jsonv2Build reports a build with GOEXPERIMENT=jsonv2.
	jsonv2Build = false

	// v2QuotedOptions: go-json-experiment reads a single-quoted name or
	// option only for format:.
	v2QuotedOptions = false

	// v2EmbedOption is the tag option that inlines a field's members.
	v2EmbedOption = "embed"

	// v2FormatSupported: go-json-experiment v1.27.2 fails on every object
	// for a struct with a format: option (unless the process turns the
	// format tag on).
	v2FormatSupported = false

	// v2IgnoreBadEmbed: an embed option V2 rejects leaves a regular field.
	v2IgnoreBadEmbed = false

	// stdNullKey: encoding/json reads the key "null" of a map with integer
	// keys as any other text that is no number: it fails.
	stdNullKey = false
)

// v2KnownOption reports an option name V2 knows (a misspelt one fails).
func v2KnownOption(opt string) bool {
	switch opt {
	case "case", "embed", "omitzero", "omitempty", "string", "format":
		return true
	}
	return false
}

// stdTagName is encoding/json's name and options of a field's json tag:
// the text before the first comma, when it is a valid name (validTagV1),
// else none.
func stdTagName(sf reflect.StructField) (name, opts string) {
	name, opts, _ = strings.Cut(sf.Tag.Get("json"), ",")
	if !validTagV1(name) {
		name = ""
	}
	return name, opts
}

// quotedVerdictOf judges the text of a ,string field's string as
// encoding/json's literalStore does (quotedVerdict).
func quotedVerdictOf(s []byte, base nodeKind, bits int) Code {
	return quotedVerdict(s, base, bits)
}

// v2UnknownOption is the standard library's second inlining option; none
// here (a text no tag option can be).
const v2UnknownOption = "\x00unknown"

// v2AmbiguousFold: a key that fits two case:ignore fields (and names
// neither exactly) fails (errAmbiguousName).
const v2AmbiguousFold = true

// v2FoldFirst leaves the case:ignore candidates of each folded name as
// they are: more than one is an ambiguous key.
func v2FoldFirst(map[string][]int, []v2Field) {}

// stdCaseStrict: encoding/json has no case:strict option.
func stdCaseStrict(reflect.StructTag) bool { return false }

// stdTagUnsupported: encoding/json on its own reads no option the mirror
// does not follow.
func stdTagUnsupported(reflect.StructTag) string { return "" }

// stdReadsFrom reports whether encoding/json reads a value through pt by
// V2's UnmarshalJSONFrom: never in this build, where it is its own
// decoder (see decodesItself).
func stdReadsFrom(reflect.Type) bool { return false }
