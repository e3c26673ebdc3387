//go:build !goexperiment.jsonv2

package refuse

// numberReadsItself: json.Number has no method of its own for V2
// (github.com/go-json-experiment/json), which reads it as a string type.
const numberReadsItself = false

// invalidByteSize is what encoding/json writes for a byte of invalid UTF-8
// in a string: `\ufffd`.
const invalidByteSize = len(`\ufffd`)
