// Package jsonlex reads JSON text: white space, strings, numbers, literals,
// whole values, and the members of objects and elements of arrays. It is
// the one lexer of JSON bytes in this repository: no other code compares
// a byte of JSON text with a structural or white-space character, which
// internal/lexcheck's test holds for every module, naming the files of
// bind and refuse still moving onto it. What it accepts is what
// encoding/json's scanner accepts, byte for byte, which its fuzz targets
// check against encoding/json itself.
//
// A caller that only needs a value's extent uses Skip; one that reads
// the members or elements of one object or array, Members and Elements;
// a walker that reads each value itself, at any depth in one pass,
// steps with KindAt, Open, Key and Next; one that reads the opening byte
// or the key itself, to act on them first (bind's checker), with First
// (Open past its byte) and String then Colon (Key in two). KindAt, Space,
// First, Colon and Next are small enough to be inlined into the walk;
// String reads long runs eight and sixteen bytes at a time. Number reads a
// number's shape, the value of its integer part's digits included;
// NumberInt is the same reading in registers, for the walk.
//
// Text as written, for quoting what a caller sent and sizing what is
// written back: Quoted reads a quoted text's inside, CutWritten cuts text
// after n characters as written (never inside an escape or a rune),
// QuotedLen is the length of a Go string as encoding/json writes it, and
// DeepAt counts brackets as a pre-scan over any text does (go-sdk's
// checkMaxDepth before segmentio), which on valid text is Skip's depth
// limit. Their fuzz target checks each against encoding/json.
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
