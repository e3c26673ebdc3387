package refuse

import (
	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/constraint"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
	"github.com/bindguard/bindguard/typereg"
)

// maxCompiled is the most parameters the compiled checks track on the
// stack; a tool with more is decoded.
const maxCompiled = 256

// checkConstrained is bind's Check that hands back the members it read,
// each top-level value held in the same walk to its parameter's compiled
// validate tags cs (nil: none), with its verdict (bindcap.Member.Judged)
// and the breaches found (see bindcap.CheckConstrained), each top-level
// key read against the tool's exempt keys and aliases (topKeysOf).
var checkConstrained = bindcap.CheckConstrained.(func(*bind.Plan, []byte, []bind.Issue, *constraint.Tool, bindcap.TopKeys, *bindcap.Members) []bind.Issue)

// filledMissing drops the MissingField issues a key sent twice fills (see
// bindcap.FilledMissing).
var filledMissing = bindcap.FilledMissing.(func(*bind.Plan, []byte, []bind.Issue) []bind.Issue)

// releaseIssues hands back the issues a checkConstrained returned, once
// the decision is made (see bindcap.ReleaseIssues).
var releaseIssues = bindcap.ReleaseIssues.(func([]bind.Issue))

// topKeysOf returns what the pass is told of tool t's top-level keys:
// its exempt keys and aliases, so that its verdict counts the unknown
// keys and finds an alias (bindcap.Members.Counted).
func topKeysOf(t *typereg.Tool) bindcap.TopKeys { return recTopKeys(t) }

// compiledOf returns tool t's compiled tags, nil for a tool without tags.
func compiledOf(t *typereg.Tool) *constraint.Tool {
	if !t.Constrained() {
		return nil
	}
	return constraint.ToolOf(t)
}

// A breachAt is one argument that breaks its compiled constraints: the
// parameter, its key and value, and the value inside it that breaks them,
// with its path when the walk found it (walked).
type breachAt struct {
	param          int
	key, value, at jsonlex.Span
	path           jsonpath.Path
	walked         bool
}

// compiledProblems holds each argument of args to tool t's compiled
// validate tags (see typereg's compileTags): the problems
// constraintProblems returns, without decoding args, without the
// validator, and without reading the text again. The walk that read ms
// (checkConstrained) judged each member's value as it read it (Member.Judged,
// Members.Breaches); a member it did not judge (members recorded by a
// trial check) is read here, at its value, with the same compiled checks. It reports false when it cannot judge the
// call so (a tag not compiled, an argument with tags and a silent loss,
// whose value the binder changes, a value the checks cannot read as the binder does,
// an issue with the text as a whole): the caller decodes. It allocates
// nothing for a call whose arguments pass.
func compiledProblems(t *typereg.Tool, args []byte, ms *bindcap.Members, issues []bind.Issue) (ps []Problem, ok bool) {
	cs := constraint.ToolOf(t)
	n := len(recParams(t))
	if cs == nil || cs.Decode || n > maxCompiled || len(cs.Params) != n || ms.Cut {
		return nil, false // (cut: a call of more members than a clean call holds)
	}
	var skip, seen [maxCompiled / 64]uint64
	for _, is := range issues {
		switch {
		case is.Param >= 0 && is.Param < n:
			if is.Kind.Class() == bind.SilentLoss && cs.Params[is.Param].Root != nil {
				return nil, false // the binder changes a value its tags are held to
			}
			skip[is.Param/64] |= 1 << (is.Param % 64)
		case is.Kind == bind.UnknownArgument:
		default:
			return nil, false
		}
	}
	// left counts the arguments still to check: once each is read, the
	// rest of the text holds none (a repeated key is an issue, above).
	left := 0
	for i := range cs.Params {
		if cs.Params[i].Root != nil && skip[i/64]&(1<<(i%64)) == 0 {
			left++
		}
	}
	var room [4]breachAt
	breaches := room[:0] // past four, allocated: the call is refused
	for k := range ms.Len() {
		if left == 0 {
			break // every checked parameter (and so every ZeroFails one) seen or skipped
		}
		m := ms.At(k)
		j := m.Binds()
		if j < 0 || j >= n {
			continue
		}
		if seen[j/64]&(1<<(j%64)) != 0 {
			return nil, false // bound twice: the binder's issue says how
		}
		seen[j/64] |= 1 << (j % 64)
		root := cs.Params[j].Root
		if skip[j/64]&(1<<(j%64)) != 0 || root == nil {
			continue
		}
		left--
		switch m.Judged {
		case bindcap.Holds:
		case bindcap.Breaks:
			b, ok := walkedBreach(ms, k)
			if !ok {
				return nil, false
			}
			breaches = append(breaches, breachAt{param: j, key: m.Key, value: m.Value, at: b.At, path: b.Path, walked: true})
		case bindcap.Undecided:
			return nil, false
		default: // not judged in the walk
			switch v, at := root.Check(args, m.Value); v {
			case constraint.Unknown:
				return nil, false
			case constraint.Fail:
				breaches = append(breaches, breachAt{param: j, key: m.Key, value: m.Value, at: at})
			}
		}
	}
	missing := false
	for i := range cs.Params {
		if cs.Params[i].ZeroFails && (seen[i/64]|skip[i/64])&(1<<(i%64)) == 0 {
			missing = true
		}
	}
	if len(breaches) == 0 && !missing {
		return nil, true
	}
	w := wordsFor(t)
	for i, p := range recParams(t) {
		if (seen[i/64]|skip[i/64])&(1<<(i%64)) == 0 {
			if cs.Params[i].ZeroFails {
				ps = append(ps, Problem{Code: MissingArgument, Argument: p.Name, Takes: w.param(i)})
			}
			continue
		}
		for _, b := range breaches {
			if b.param != i {
				continue
			}
			pr := Problem{Code: Constraint, Argument: p.Name, Takes: w.param(i), Sent: quoteSent(args[b.value.Start:b.value.End])}
			path := b.path
			if !b.walked {
				path = spanPath(args, b.key, b.value, b.at)
			}
			pr.Path, pr.Pointer = path.String(), path.Pointer()
			if b.at != b.value {
				pr.Element = quoteSent(args[b.at.Start:b.at.End])
			}
			ps = append(ps, pr)
		}
	}
	return ps, true
}

// walkedBreach returns the breach the walk recorded for member k of ms.
func walkedBreach(ms *bindcap.Members, k int) (bindcap.Breach, bool) {
	for _, b := range ms.Breaches {
		if b.Member == k {
			return b, true
		}
	}
	return bindcap.Breach{}, false
}
