//go:build goexperiment.jsonv2

package jsonlex

// invalidByteSize is what encoding/json writes for a byte of invalid UTF-8
// in a string under the experiment: U+FFFD itself, unescaped (v2's
// AllowInvalidUTF8 under the legacy options replaces it).
const invalidByteSize = len("\ufffd")
