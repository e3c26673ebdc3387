//go:build !goexperiment.jsonv2

package jsonlex

// invalidByteSize is what encoding/json writes for a byte of invalid UTF-8
// in a string: `\ufffd`.
const invalidByteSize = len(`\ufffd`)
