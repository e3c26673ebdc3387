//go:build !goexperiment.jsonv2

package jsonlex

import (
	"encoding/json"
	"errors"
)

// stdErrorAt is errorAt's answer as encoding/json reports it. Its
// SyntaxError.Offset counts the bytes read, the offending one included, and
// is len(d) both for an error at the last byte and for text that ends too
// soon; a NUL byte appended tells them apart: it is invalid wherever it
// stands, so it moves only the second kind of error.
func stdErrorAt(d []byte) int {
	var v any
	if err := json.Unmarshal(d, &v); err == nil {
		return -1
	} else if !json.Valid(d) {
		var se *json.SyntaxError
		if !errors.As(json.Unmarshal(append(d[:len(d):len(d)], 0), &v), &se) {
			panic("a NUL byte made invalid text valid")
		}
		return min(int(se.Offset)-1, len(d))
	}
	return -2 // not a syntax error: a number out of float64's range, say
}

// errorsAgree: the lexer finds the error exactly where encoding/json does.
func errorsAgree(lexer, std, _ int) bool { return lexer == std }
