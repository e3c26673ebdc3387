// Package snippets holds the Go code blocks of the README and of docs/ as
// code that compiles and runs: each block stands, word for word, in a
// region of this package's tests marked
//
//	// snippet: NAME
//	...
//	// end snippet
//
// and TestDocSnippets fails on a block no region holds, or a region no
// block uses. A change that breaks a snippet breaks the build or a test
// here, in the same commit.
package snippets
