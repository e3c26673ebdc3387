package bind

import (
	"github.com/bindguard/bindguard/internal/constraint"
	"sync/atomic"

	"github.com/bindguard/bindguard/internal/bindcap"
)

func init() { workDone, wholeDecodes = new(atomic.Int64), new(atomic.Int64) }

// WorkDone returns the bytes the checkers have read so far (see workDone).
func WorkDone() int64 { return workDone.Load() }

// WholeDecodes returns the binder's decodes of a whole call so far (see
// wholeDecodes).
func WholeDecodes() int64 { return wholeDecodes.Load() }

// TrialCheck is Check for a plan mirrored by trial without its proving
// pass: the trial check alone, as every call ran before the pass.
func TrialCheck(p *Plan, args []byte, issues []Issue) []Issue {
	return p.check(args, p.required, p.nested, issues, nil)
}

// ProvesClean reports whether the plan's proving pass proves args clean
// (false for a plan without one).
func ProvesClean(p *Plan, args []byte) bool {
	return p.root != nil && p.check != nil && p.prove(new(checker), args)
}

// HasProvingPass reports whether the plan has a proving pass.
func HasProvingPass(p *Plan) bool { return p.root != nil && p.check != nil }

// NativeVerdict is the verdict of the plan's one pass, with the members it
// read; ok is false when the pass declines (or the plan has none) and the
// trial check decides.
func NativeVerdict(p *Plan, args []byte) (issues []Issue, ms bindcap.Members, ok bool) {
	if p.root == nil || p.check == nil {
		return nil, ms, false
	}
	c := new(checker)
	c.record, c.members = true, &ms
	issues, ok = p.native(c, args, nil)
	return issues, ms, ok
}

// CleanVerdict is the clean mode's verdict on args and the members it
// read (see clean.go), for a plan with a proving pass; ok is false where
// it declines, or the plan has none.
func CleanVerdict(p *Plan, args []byte) (issues []Issue, ms bindcap.Members, ok bool) {
	if p.root == nil || p.check == nil {
		return nil, ms, false
	}
	c := new(checker)
	c.record, c.members = true, &ms
	issues, ok = p.cleanVerdict(c, args, nil)
	return issues, ms, ok
}

// TrialVerdict is TrialCheck with the members the trial check read.
func TrialVerdict(p *Plan, args []byte) ([]Issue, bindcap.Members) {
	ms := new(bindcap.Members)
	issues := p.check(args, p.required, p.nested, nil, ms)
	return issues, *ms
}

// checkConstrainedV is checkConstrained with its members returned by
// value, for the tests.
func checkConstrainedV(p *Plan, args []byte, issues []Issue, cs *constraint.Tool, top bindcap.TopKeys) ([]Issue, bindcap.Members) {
	var ms bindcap.Members
	issues = checkConstrained(p, args, issues, cs, top, &ms)
	return issues, ms
}

// CheckEachAlone is p.Check with no list of self-decoding values decoded
// whole (see batchOpen): each element decoded alone, as before lists were.
func CheckEachAlone(p *Plan, args []byte) []Issue {
	noBatch = true
	defer func() { noBatch = false }()
	return p.Check(args, nil)
}

// prove reports whether the pass of p proves the call clean: its verdict
// is no issue at all.
func (p *Plan) prove(c *checker, args []byte) bool {
	is, ok := p.native(c, args, nil)
	return ok && len(is) == 0
}

// WithoutPlainMembers runs f with plainMembers off: object's loop reads
// every member (see slowPlain).
func WithoutPlainMembers(f func()) {
	slowPlain = true
	defer func() { slowPlain = false }()
	f()
}
