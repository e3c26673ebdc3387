//go:build goexperiment.jsonv2

package jsonlex

import (
	"encoding/json"
	"errors"
)

// stdErrorAt is where encoding/json finds d invalid, as one JSON text, -1
// when it is valid, -2 when its error is not about syntax. Under
// GOEXPERIMENT=jsonv2 encoding/json is encoding/json/v2's decoder, whose
// SyntaxError.Offset is where its reading stopped: the offending byte, the
// start of the offending token (a number that ends too soon, a string with
// a bad escape: `"\u00g9"` at 1, the backslash), or len(d) for text that
// ends too soon.
func stdErrorAt(d []byte) int {
	var v any
	err := json.Unmarshal(d, &v)
	if err == nil {
		return -1
	}
	if json.Valid(d) {
		return -2 // not a syntax error: a number out of float64's range, say
	}
	var se *json.SyntaxError
	if !errors.As(err, &se) {
		panic("invalid text without a SyntaxError: " + err.Error())
	}
	return int(se.Offset)
}

// errorsAgree: both find the text valid, or both invalid, the lexer at or
// after where encoding/json/v2 stopped (v2 names a token where the lexer,
// as encoding/json's own scanner, names the byte in it) and within the
// text's n bytes.
func errorsAgree(lexer, std, n int) bool {
	if lexer < 0 || std < 0 {
		return lexer == std
	}
	return std <= lexer && lexer <= n
}
