// Package bindcap holds what the packages above bind (typereg, refuse)
// need to know of a binder and bind does not export: its capabilities, set
// by package bind when it initializes, so that no one tells binders apart
// by name.
package bindcap

import "github.com/bindguard/bindguard/internal/jsonpath"

// ReadsLiteral reports whether binder b binds each value as its JSON text
// reads: true for the binders bind mirrors natively (Std, V2, SegmentIO),
// false for a server's own function (bind.Reader), whose value may differ
// from the text sent (trimmed, clamped, coerced). Checks that judge a
// value by its text hold only where it is true.
var ReadsLiteral func(b any) bool

// Path returns the steps of a bind.Path, which bind exports only as text
// (String, Pointer): refuse reads a path's steps, never its text.
var Path func(p any) jsonpath.Path
