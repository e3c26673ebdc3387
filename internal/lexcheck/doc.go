// Package lexcheck holds, in its test, two rules of the module's design
// (issue 11) that a reviewer should not have to re-check by hand:
//
//   - internal/jsonlex is the one reader of JSON bytes: no other non-test
//     file compares an indexed byte with a JSON structural or white-space
//     character ('"', '{', '}', '[', ']', ':', ',', ' ', '\t', '\n', '\r',
//     '\\'), nor searches bytes or strings for one (bytes.IndexByte(d, '"'),
//     bytes.TrimLeft(d, " \t\r\n")), but for the files its test lists
//     as reading text that is not JSON, each with its reason. No reader
//     of JSON is let be: the last, bind/check.go, moved onto the lexer.
//   - binders are told apart by capability (internal/bindcap), never by
//     name: outside package bind (and bench, which picks each binder's
//     rival) no non-test file compares a Name() call with a string,
//     anything with a binder's name, or a value with bind.Std, jsonv2.Binder or
//     segmentio.Binder.
//
// The check parses every non-test Go file of every module in the
// repository (go/parser, go/ast); it is syntactic, so it catches the
// shapes written here (d[i] == '"', switch d[i] { case '{': }, c := d[i]
// then c == ','), not every way to hide a byte.
package lexcheck
