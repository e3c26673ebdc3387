package bindcap

import (
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
)

// CheckConstrained is CheckMembers that also holds each top-level value
// bound to a parameter to that parameter's compiled validate tags as it
// reads the value, and reads every top-level key against the tool's
// TopKeys (Members.Counted): a func(*bind.Plan, []byte, []bind.Issue,
// *constraint.Tool, TopKeys, *Members) []bind.Issue, set by package bind,
// that records the members in the last argument, an empty Members
// (GetMembers). Each
// member's Judged says what the walk found, and Members.Breaches where a
// value breaks its tags, so that refuse reads the verdict and never the
// values again. A pass that does not walk the values itself (a trial
// check, a bind.Reader) leaves every member NotJudged.
var CheckConstrained any

// Judged is what the checker's walk found of a member's value against its
// parameter's compiled constraints.
type Judged uint8

const (
	NotJudged Judged = iota // not held to them in the walk (no tag, or no walk)
	Holds                   // it keeps them
	Breaks                  // it breaks them: a Breach says where
	Undecided               // the walk cannot judge it from the text: decode it
)

// A Breach is where a member's value breaks its compiled constraints: the
// value itself, or the first element inside it that breaks them, in the
// order sent.
type Breach struct {
	Member int          // the index of the member in Members
	At     jsonlex.Span // the value that breaks them
	Path   jsonpath.Path
}

// ReleaseIssues hands back to bind the list of issues a CheckConstrained
// returned, once the caller is done with it and holds no part of it: a
// func([]bind.Issue), set by package bind. A long list (a flood of
// issues) is a pooled buffer, which the next check reuses; any other is
// left as it is.
var ReleaseIssues any

// FilledMissing drops from a verdict the MissingField issues that the
// value the binder reads leaves out without cause, where a key sent twice
// merges one object into another (the binder reads the field from the
// other, or the object is not in the value read): a
// func(*bind.Plan, []byte, []bind.Issue) []bind.Issue, set by package
// bind, that filters the issues in place and returns them.
var FilledMissing any
