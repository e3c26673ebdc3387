// Package jsonlex reads JSON text: white space, strings, numbers, literals,
// whole values, and the members of objects and elements of arrays. It is
// meant to be the one lexer of argument bytes in this module (issue 11):
// what it accepts is what encoding/json's scanner accepts, byte for byte,
// which its fuzz targets check against encoding/json itself.
//
// # Terms
//
// Offsets index the text given, never a copy of it: a function that reads
// a token at d[i] returns the offset just past it, and on a syntax error
// the offset of the first byte that makes the text invalid (the byte
// encoding/json's SyntaxError.Offset counts up to).
//
// A Span is a half-open range d[Start:End] of the text.
//
// Nothing here allocates except Unquote (into the slice it is given) and
// Skip past MaxStack levels of nesting.
package jsonlex
