package bind

import "sync/atomic"

func init() { workDone = new(atomic.Int64) }

// WorkDone returns the bytes the checkers have read so far (see workDone).
func WorkDone() int64 { return workDone.Load() }

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
