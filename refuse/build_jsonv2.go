//go:build goexperiment.jsonv2

package refuse

// numberReadsItself: under GOEXPERIMENT=jsonv2, json.Number reads itself
// (UnmarshalJSONFrom) for V2 too: a JSON number, or a string holding one.
const numberReadsItself = true

// invalidByteSize is what encoding/json writes for a byte of invalid UTF-8
// in a string under the experiment: U+FFFD itself, unescaped (v2's
// AllowInvalidUTF8 under the legacy options replaces it).
const invalidByteSize = len("\ufffd")
