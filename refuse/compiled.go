package refuse

import (
	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/constraint"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/typereg"
)

// maxCompiled is the most parameters the compiled checks track on the
// stack; a tool with more is decoded.
const maxCompiled = 256

// A breachAt is one argument that breaks its compiled constraints: the
// parameter, its key and value, and the value inside it that breaks them.
type breachAt struct {
	param          int
	key, value, at jsonlex.Span
}

// compiledProblems holds each argument of args to tool t's compiled
// validate tags (see typereg's compileTags), reading the literal the binder
// binds, at the value of its member in ms (the members Check read of
// args, those a failure lies in left out): the problems constraintProblems
// returns, without decoding args, without the validator, and without
// reading the top level again. It reports false when it cannot judge the
// call so (a tag not compiled, an argument with a silent loss, whose value
// the binder changes, a value the checks cannot read as the binder does,
// an issue with the text as a whole): the caller decodes. It allocates
// nothing for a call whose arguments pass.
func compiledProblems(t *typereg.Tool, args []byte, ms *bindcap.Members, issues []bind.Issue) (ps []Problem, ok bool) {
	cs := constraint.ToolOf(t)
	n := len(t.Params)
	if cs == nil || cs.Decode || n > maxCompiled || len(cs.Params) != n || ms.Cut {
		return nil, false // (cut: a call of more members than a clean call holds)
	}
	var skip, seen [maxCompiled / 64]uint64
	for _, is := range issues {
		switch {
		case is.Param >= 0 && is.Param < n:
			if is.Kind.Class() == bind.SilentLoss {
				return nil, false
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
	var buf [4]breachAt
	breaches := buf[:0]
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
		switch v, at := root.Check(args, m.Value); v {
		case constraint.Unknown:
			return nil, false
		case constraint.Fail:
			breaches = append(breaches, breachAt{j, m.Key, m.Value, at})
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
	for i, p := range t.Params {
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
			path := spanPath(args, b.key, b.value, b.at)
			pr.Path, pr.Pointer = path.String(), path.Pointer()
			if b.at != b.value {
				pr.Element = quoteSent(args[b.at.Start:b.at.End])
			}
			ps = append(ps, pr)
		}
	}
	return ps, true
}
