package refuse

import (
	"cmp"
	"encoding/json"
	"hash/maphash"
	"slices"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/typereg"
)

// A Decision is the guard's verdict on one call, with what the handler
// needs when it runs.
type Decision struct {
	// Refusal, when not nil, says why the handler must not run.
	Refusal *Refusal
	// Warnings, when not nil, lists problems the handler runs with: the
	// caller should see them with the result.
	Warnings *Warnings
	// Args are the arguments to decode for the handler: the call's own,
	// with each alias renamed to its parameter's name (and, when both were
	// sent, the alias's member left out), and a parameter sent under its
	// name and a key the binder folds to it named by its name alone (an
	// AliasConflict), with the value the binder reads from the call as
	// sent: the one member it reads (a scalar's last that is not null), or,
	// where values merge (a struct, a map, a list), each member in turn.
	// So every view of them (decoded, a map, the raw text) holds values
	// checked, and the decoded one is the call's. They are the call's own
	// bytes when the call uses no alias and no such key.
	Args json.RawMessage
}

// Decide decides a call of tool with args under the tool's policy
// (typereg.Policy) and returns the verdict with the arguments to decode.
//
// A value the binder cannot decode is refused in every mode but Off, as
// Refuse describes. The policies add, each with its own Code:
//
//   - unknown keys: a top-level key that names no parameter
//     (UnknownArgument), unless the tool is open or the key is exempt; a key
//     inside a nested struct that names no field (UnknownField), unless
//     the tool is open at every level (Policy.OpenNested);
//   - a required parameter the call does not send (MissingArgument), all in
//     one verdict, or sends as nothing but null where its type cannot
//     hold null;
//   - an argument sent both under its name and under an alias
//     (AliasConflict);
//   - the tool's own constraints, from its validate tags (Constraint);
//   - silent losses: values the binder reads but changes or drops (a null
//     for a value, a key it folds, a repeated key, a fixed-size array's
//     extra or missing elements, an integer a float rounds, invalid UTF-8).
//
// Under Reject (the default), a policy problem refuses the call; under
// Warn, it becomes a warning and the handler runs; under Off, nothing is
// checked at all. Silent losses are warnings unless the policy is Strict,
// when Reject refuses them too. A refused call lists every problem found,
// so one correction can fix them all (the binder's failures first, beside
// the tool's own constraints of the arguments it reads; up to MaxProblems,
// More counting the rest). However many problems a call has, the verdict
// is the one a call with one of each would get. An unregistered tool is
// refused in every mode.
//
// Decide reads the call once: the plan's Check hands back, with the
// issues, the members of the top-level object it read (each key, its
// value, the parameter it binds and how), and every later step reads them,
// not the bytes: the compiled validate tags are checked in that pass, as
// it reads each value, and their verdicts come with the members; the pass
// binds an alias sent plain to its parameter, read as the call renamed
// would be, a key the binder folds beside the parameter's own name is
// found from their bindings, and a refusal quotes values from their
// spans. A call that uses aliases and passes is renamed from its members,
// not read again. The text is read again only when the pass finds
// anything in a call that uses an alias, or the alias is sent escaped (as
// sent, then renamed and checked as renamed), and on an alias conflict
// (named once, with the value the binder reads: see foldConflicts).
//
// Decide is safe for concurrent use. Under Std it allocates nothing for a
// call that passes without warnings and uses no alias (one that sends its
// aliases plain allocates its renamed Args, once), whether the tool
// has validate tags or not; a tag not compiled, or an argument the
// compiled checks cannot judge from its text (an escaped string, a silent
// loss), is decoded and held to the validator, which allocates. The
// binders mirrored by trial (V2, SegmentIO) allocate in their own decode.
func Decide(reg *typereg.Registry, tool string, args json.RawMessage) Decision {
	t, ok := reg.Tool(tool)
	if !ok {
		return Decision{Refusal: unknownTool(reg, tool)}
	}
	pol := recPolicy(t)
	if pol.Mode == typereg.Off {
		return Decision{Args: args}
	}
	if ps := recPublished(t); ps != nil {
		return decideSchema(t, ps, args)
	}
	return decideStruct(t, args, true)
}

// decideStruct is Decide for tool t, recorded from a Go struct, under a
// policy that checks. A call that sends its aliases plain is read once:
// the pass binds each to its parameter (bindcap.TopKeys.BindAliases) and,
// where it finds nothing, the call is renamed from the members it read.
// Any other call that uses an alias, and every one when once is false
// (the tests' reference), is read as sent, then renamed and read again.
func decideStruct(t *typereg.Tool, args []byte, once bool) Decision {
	pol := recPolicy(t)
	plan := t.Plan()
	top := topKeysOf(t)
	top.BindAliases = once && len(pol.Aliases) > 0
	ms := bindcap.GetMembers() // each verdict's members, pooled: spent hands them back
	issues := checkConstrained(plan, args, nil, compiledOf(t), top, ms)
	if top.BindAliases && (ms.Aliased || ms.AliasBound) {
		if ms.AliasBound && ms.Object && len(issues) == 0 {
			if renamed, ok := renameBound(t, args, ms); ok {
				spent(issues, ms)
				return Decision{Args: renamed} // the call goes on, renamed
			}
		}
		// The pass found something in the call as renamed, or stopped at
		// an alias it does not bind: the verdict is the one of the call
		// as sent, then renamed (the binder may fail on the call as sent
		// where it reads the renamed one: V2 on an alias sent twice).
		spent(issues, ms)
		ms = bindcap.GetMembers()
		issues = checkConstrained(plan, args, nil, compiledOf(t), topKeysOf(t), ms)
	}
	checked := args
	var conflicts []aliasConflict
	var renamedFrom []byte // where checked renames aliases: the call as sent
	if len(pol.Aliases) > 0 && usesAlias(args, ms, plan, pol.Aliases) {
		// Renamed only when an alias is used (in an object read whole:
		// usesAlias), and checked as renamed, whatever the binder fails
		// on: an alias is read as its parameter. (V2's failures on a
		// name sent twice or a key of invalid UTF-8 are InvalidJSON too,
		// in an object read whole: they are no text that is not JSON,
		// which leaves no object to rename.)
		if renamed, cs, ok := renameFor(t, args, ms, issues); ok {
			rms := bindcap.GetMembers()
			if ris := checkConstrained(plan, renamed, nil, compiledOf(t), topKeysOf(t), rms); rms.Object {
				spent(issues, ms)
				checked, conflicts, issues, ms = renamed, cs, ris, rms
				renamedFrom = args
			} else {
				spent(ris, rms)
			}
		}
	}
	var compiled []Problem // the compiled constraints' problems of checked as read in ms, where found below
	if len(conflicts) == 0 && len(issues) == 0 {
		if !hasConstraints(t) || ms.Held {
			spent(issues, ms)
			return Decision{Args: checked} // no tags, or the walk found them kept
		}
		ps, ok := compiledProblems(t, checked, ms, nil)
		if ok && len(ps) == 0 {
			spent(issues, ms)
			return Decision{Args: checked} // the compiled constraints hold
		}
		if ok {
			compiled = ps // the decision's, unless the call is read again below
		}
	}
	if !ms.Object && hasConstraints(t) && len(issues) > 0 && issues[len(issues)-1].Kind == bind.TooDeep {
		deep := deepMembers(checked, plan) // Check stopped at the nesting
		ms.Release()
		*ms = deep
	}
	if canon, cs := foldConflicts(t, checked, renamedFrom, ms, issues); cs != nil {
		checked, conflicts, compiled = canon, joinConflicts(conflicts, cs), nil
		spent(issues, ms)
		ms = bindcap.GetMembers()
		issues = checkConstrained(plan, checked, nil, compiledOf(t), topKeysOf(t), ms)
	}
	issues = filledMissing(plan, checked, issues) // objects a repeated key merges
	d := decider{t: t, args: checked, sent: args, ms: ms, warn: pol.Mode == typereg.Warn, compiled: compiled}
	repeated := repeatedTop(issues) // asked before decide, which leaves out what was only counted
	dec := d.decide(issues, conflicts)
	if dec.Refusal == nil && repeated {
		dec.Args = nullRepeats(t, dec.Args, ms)
	}
	spent(issues, ms) // the decision holds neither: its problems are words
	return dec
}

// repeatedTop reports whether issues hold a top-level key sent again, or
// count repeated keys past bind.MaxIssues (which may be one).
func repeatedTop(issues []bind.Issue) bool {
	for _, is := range issues {
		switch {
		case is.Kind == bind.DuplicateKey && is.Param >= 0 && is.Path.String() == "":
			return true
		case is.Kind == bind.Omitted && is.Of == bind.DuplicateKey:
			return true
		}
	}
	return false
}

// ranked reports whether issues are in the order of their kinds' rank
// already, as most calls' are: sorting them costs a copy of two issues a
// comparison.
func ranked(issues []bind.Issue) bool {
	for i := 1; i < len(issues); i++ {
		if rank(issues[i].Kind) < rank(issues[i-1].Kind) {
			return false
		}
	}
	return true
}

// spent hands back the pooled room a verdict took (a flood of issues or
// of members takes it; see bindcap.ReleaseIssues and Members.Release)
// once nothing reads the verdict again.
func spent(issues []bind.Issue, ms *bindcap.Members) {
	releaseIssues(issues)
	bindcap.PutMembers(ms)
}

// Refuse decides whether a call of tool with args may go on to the handler.
// It returns nil when the registry's binder reads args into the tool's
// parameter struct and the tool's policy finds nothing to refuse (see
// Decide); otherwise a Refusal naming every bad argument. It is Decide
// without the warnings and the renamed arguments: a server whose tools use
// aliases decodes Decide's Args, not its own.
//
// The verdict on each value is the binder's own: a value is refused exactly
// when the binder would fail on it, never when the binder reads it. That
// covers values of the wrong JSON kind (text for a number, a number for
// true or false), numbers the type cannot hold (a fraction or an exponent
// for an integer, a number past the type's range), and values a type's own
// UnmarshalJSON or UnmarshalText refuses (the real method runs).
//
// Under the default policy, a top-level key the binder would drop (no field
// matches it, even by the binder's case folding) is an unknown argument and
// is refused; a key the binder binds, in any case it folds, is not. A key
// inside a nested struct that names no field of it is refused too; keys of
// a map are the map's own.
//
// Empty args mean {}; null means no arguments, as the binder reads it.
// Arguments that are not valid JSON, or valid JSON but not an object, are
// refused with one problem for the whole. A repeated key is read at every
// occurrence, as the binder reads it, and a bad occurrence is refused even
// when a later one is good. An unregistered tool is refused by name.
//
// Refuse is safe for concurrent use and, under Std, allocates nothing when
// it returns nil for a call with nothing to warn about that uses no alias
// (see Decide). It returns a *Refusal rather than an error so that a nil
// result stays nil: store it in an error variable only when it is not nil.
func Refuse(reg *typereg.Registry, tool string, args json.RawMessage) *Refusal {
	return Decide(reg, tool, args).Refusal
}

// A decider turns one call's issues into a decision.
type decider struct {
	t    *typereg.Tool
	args []byte
	ms   *bindcap.Members // the members of args, as Check read them
	sent []byte           // the call's own text, which args renames (aliases, folded keys)
	warn bool             // the tool's mode is Warn
	// compiled are the constraints' problems of a call of no issue,
	// found from args and ms by compiledProblems before the decision (nil:
	// none found, and constraintProblems finds them).
	compiled []Problem
}

func (d *decider) decide(issues []bind.Issue, conflicts []aliasConflict) Decision {
	t, pol := d.t, recPolicy(d.t)
	// The issues past bind.MaxIssues come as counts (Omitted), by argument
	// and kind. Every argument's most serious issue is listed, so a count
	// in an argument adds no problem; a count of failures in none (V2's
	// repeated names) adds one problem each, and the unknown keys counted
	// are judged here, key by key, against the tool's policy.
	var moreFails int
	countFrom := -1 // where the unknown keys Check only counted start
	unknownEnd, counted, nulls := 0, 0, false
	issues = slices.DeleteFunc(issues, func(is bind.Issue) bool {
		nulls = nulls || is.Kind == bind.NullForValue || is.Of == bind.NullForValue
		switch {
		case is.Kind == bind.UnknownArgument:
			unknownEnd = is.End
		case is.Kind != bind.Omitted:
		case is.Of == bind.UnknownArgument:
			counted += is.N
		case is.Of.Class() == bind.BinderFailure && is.Param < 0:
			moreFails += is.N
		}
		return is.Kind == bind.Omitted
	})
	if pol.Open || pol.OpenNested || len(pol.Exempt) > 0 || len(pol.Aliases) > 0 {
		// An alias is a name the tool accepts: a call read as sent (the
		// binder fails on it renamed: V2, an alias sent twice) holds it
		// as a key no parameter names.
		issues = slices.DeleteFunc(issues, func(is bind.Issue) bool {
			return is.Kind == bind.UnknownArgument && (pol.Open || exempt(pol.Exempt, d.args[is.Start:is.End]) || aliasOf(pol.Aliases, d.args[is.Start:is.End]) != "") ||
				is.Kind == bind.UnknownField && pol.OpenNested
		})
	}
	if nulls {
		issues = d.nullsMissing(issues)
	}
	if counted > 0 && !pol.Open {
		issues, countFrom = d.firstPast(issues, unknownEnd), unknownEnd
	}
	if !ranked(issues) {
		slices.SortStableFunc(issues, func(a, b bind.Issue) int { return cmp.Compare(rank(a.Kind), rank(b.Kind)) })
	}
	fails := len(issues) > 0 && issues[0].Kind.Class() == bind.BinderFailure

	// What refuses the call: the binder's failures; under Reject, the
	// policy problems too, and silent losses when Strict. What is only
	// counted never decides alone: the first issue of each class in each
	// argument is listed (of each policy code: an open nested struct's
	// unknown field, or a missing field a merged object holds, dropped
	// above, leaves the others), and so is an unknown key whenever one is
	// counted.
	refuses := conflicts != nil && !d.warn
	for _, is := range issues {
		switch {
		case is.Kind.Class() == bind.BinderFailure:
			refuses = true
		case d.warn:
		case is.Kind.Class() != bind.SilentLoss || pol.Strict:
			refuses = true
		}
	}
	var constraint []Problem
	if hasConstraints(t) && !(fails && d.warn) {
		// When the binder fails, the arguments it reads are checked
		// still, so that one refusal names every bad one: the members the
		// failures lie in are left out, offsets kept.
		args, ms := d.args, d.ms
		if fails {
			var kept bindcap.Members
			args, kept = withoutFailures(d.args, d.ms, t.Plan(), issues)
			ms = &kept
		}
		switch {
		case d.compiled != nil && len(issues) == 0:
			constraint = d.compiled // compiledProblems's of the same call (decideStruct)
			refuses = refuses || !d.warn
		case args != nil:
			constraint = constraintProblems(t, args, ms, issues)
			refuses = refuses || len(constraint) > 0 && !d.warn
		}
		if fails {
			ms.Release() // the members kept: past 16, pooled room
		}
	}
	var bv problems // on the stack: b is not kept past the decision
	b := &bv
	b.init(t, d.args)
	b.ms = d.ms
	b.countFrom = countFrom
	b.unknownHint = counted
	for _, is := range issues {
		if is.Kind == bind.UnknownArgument {
			b.unknownHint++
		}
	}
	b.rekey(d.sent)
	if refuses {
		if d.warn {
			// Under Warn only the binder's failures refuse, and the
			// handler will not run to carry warnings: they are all the
			// refusal says.
			b.issues(slices.DeleteFunc(issues, func(is bind.Issue) bool { return is.Kind.Class() != bind.BinderFailure }))
			b.more += moreFails
		} else {
			// Under Reject the refusal lists everything found, losses
			// included, so that one correction fixes them all; the
			// binder's failures first, for an argument with more than one
			// problem.
			n := slices.IndexFunc(issues, func(is bind.Issue) bool { return is.Kind.Class() != bind.BinderFailure })
			if n < 0 {
				n = len(issues)
			}
			m := n + slices.IndexFunc(issues[n:], func(is bind.Issue) bool { return is.Kind != bind.MissingArgument })
			if m < n {
				m = len(issues)
			}
			// The parameters left out come after the failures, and are
			// named however many failures there are.
			b.hold(issues[n:m])
			// A required parameter not sent explains a bind.Reader's
			// failure as a whole (a reader that requires it itself)
			// better than the whole does.
			b.seenWhole = m > n
			b.issues(issues[:n])
			b.more += moreFails
			b.release()
			b.issues(issues[n:m])
			b.conflicts(conflicts)
			b.constraints(constraint)
			b.issues(issues[m:])
			b.countUnknown()
		}
		return Decision{Refusal: b.refusal()}
	}
	b.conflicts(conflicts)
	b.constraints(constraint)
	b.issues(issues)
	b.countUnknown()
	dec := Decision{Args: d.args}
	if len(b.list) > 0 || b.more > 0 {
		r := b.refusal()
		dec.Warnings = &Warnings{Tool: r.Tool, Accepted: r.Accepted, Problems: r.Problems, More: r.More}
	}
	return dec
}

// nullsMissing marks Missing each required parameter sent as nothing but
// nulls its type cannot hold: null does not count as sending it, and the
// published schema refuses it too. (The binder leaves such a parameter as
// a null finds it: a value sent before the null, under the name or a key
// it folds, is the one read, and the parameter was sent.) The last null's
// own issue becomes the Missing one, or, when bind only counted it, one is
// added.
func (d *decider) nullsMissing(issues []bind.Issue) []bind.Issue {
	t, plan := d.t, d.t.Plan()
	last := make([]int, len(recParams(t))) // per parameter, where its last member's value starts
	sent := make([]bool, len(last))        // per parameter, a member whose value is not null
	for i := range last {
		last[i] = -1
	}
	for _, m := range eachMember(d.args, d.ms, plan) {
		if i := m.Binds(); i >= 0 && i < len(last) {
			last[i] = m.Value.Start
			sent[i] = sent[i] || d.args[m.Value.Start] != 'n'
		}
	}
	for i, p := range recParams(t) {
		at := last[i]
		if !p.Required || at < 0 || sent[i] {
			continue
		}
		j := slices.IndexFunc(issues, func(is bind.Issue) bool {
			return is.Kind == bind.NullForValue && is.Param == i && is.Start == at
		})
		switch {
		case j >= 0:
			issues[j].Kind = bind.MissingArgument
		case nullIsLost(plan, p.Name, i):
			issues = append(issues, bind.Issue{Kind: bind.MissingArgument, Param: i, Start: at, End: at + len("null")})
		}
	}
	return issues
}

// nullIsLost reports whether the binder reads null for parameter i (named
// name) as a silent loss: its type cannot hold null.
func nullIsLost(plan *bind.Plan, name string, i int) bool {
	key, _ := json.Marshal(name)
	for _, is := range plan.Check([]byte("{"+string(key)+":null}"), nil) {
		if is.Kind == bind.NullForValue && is.Param == i && is.Path.String() == "" {
			return true
		}
	}
	return false
}

// withoutFailures returns a copy of the top-level object args, whose
// members plan's Check read as ms, with each member a failure lies in (its
// key or its value) blanked out, and every member of a parameter with a
// failure, and the commas mended, so that every other member keeps its
// offsets, and the members kept; nil when a failure lies in no member (the
// text as a whole). Past bind.MaxIssues the failures are only counted, but
// an argument's first is always listed: a parameter sent twice whose
// second member's failures are counted is blanked whole all the same.
func withoutFailures(args []byte, ms *bindcap.Members, plan *bind.Plan, issues []bind.Issue) ([]byte, bindcap.Members) {
	var kept bindcap.Members
	if !ms.Object {
		return nil, kept
	}
	var at []int      // where the failures start, in order
	var failed []bool // per parameter, a failure in it
	for _, is := range issues {
		if is.Kind.Class() == bind.BinderFailure {
			at = append(at, is.Start)
			if is.Param >= 0 {
				if is.Param >= len(failed) {
					failed = append(failed, make([]bool, is.Param+1-len(failed))...)
				}
				failed[is.Param] = true
			}
		}
	}
	slices.Sort(at)
	out := slices.Clone(args)
	before := false   // a member before this one is kept
	prevEnd := -1     // where the member before this one ends
	prevDrop := false // it is blanked
	for i, m := range eachMember(args, ms, plan) {
		if len(at) > 0 && at[0] < m.Key.Start {
			return nil, kept // a failure between members
		}
		p := m.Binds()
		drop := p >= 0 && p < len(failed) && failed[p]
		for len(at) > 0 && at[0] < m.Value.End {
			drop, at = true, at[1:]
		}
		if drop {
			for j := m.Key.Start; j < m.Value.End; j++ {
				out[j] = ' '
			}
		} else {
			kept.Add(m)
		}
		if i > 0 {
			// The comma before member i stays only between two kept
			// members.
			before = before || !prevDrop
			if c := jsonlex.Space(args, prevEnd); drop || !before {
				out[c] = ' '
			}
		}
		prevEnd, prevDrop = m.Value.End, drop
	}
	if len(at) > 0 {
		return nil, kept // a failure after every member
	}
	kept.Object = true
	return out, kept
}

// firstPast returns issues with, when none is an unknown key, the first
// top-level key from offset from on that Check only counted and the
// tool's policy does not let pass: an unknown key whenever one is counted
// is listed. The problems builder counts the others (countPast).
func (d *decider) firstPast(issues []bind.Issue, from int) []bind.Issue {
	if slices.ContainsFunc(issues, func(is bind.Issue) bool { return is.Kind == bind.UnknownArgument }) {
		return issues
	}
	if ms := d.ms; ms.Counted && (ms.Unknown == 0 || ms.FirstUnknown.Start >= from) {
		// The pass found it: every unknown key before it is exempt.
		if ms.Unknown > 0 {
			issues = append(issues, bind.Issue{Kind: bind.UnknownArgument, Param: -1, Start: ms.FirstUnknown.Start, End: ms.FirstUnknown.End})
		}
		return issues
	}
	pol := recPolicy(d.t)
	for _, m := range eachMember(d.args, d.ms, d.t.Plan()) {
		if countsPast(d.args, pol, m, from) {
			return append(issues, bind.Issue{Kind: bind.UnknownArgument, Param: -1, Start: m.Key.Start, End: m.Key.End})
		}
	}
	return issues
}

// countsPast reports whether member m of args is an unknown key from
// offset from on that the tool's policy refuses.
func countsPast(args []byte, pol *typereg.Policy, m bindcap.Member, from int) bool {
	return m.Key.Start >= from && m.Param == -1 && !(len(pol.Exempt) > 0 && exempt(pol.Exempt, args[m.Key.Start:m.Key.End]))
}

// countPast counts in more, once each as sent, the unknown keys of the
// top-level members from offset from on that are not among the keys met
// (b.keys), and marks the unknown keys counted: the refusal lists none of
// them. Every unknown key before from is among the keys met, so they are
// the distinct unknown keys of the call, not exempt, but those met: the
// pass counted those (Members.Counted), and nothing is read again.
//
// Where it did not (the members of a trial check, a bind.Reader's, or
// keys met that the pass did not read as unknown), it reads the members
// twice and allocates twice, whatever their number, and holds about three
// bytes a key: a Bloom filter finds the keys that may have been sent
// before, and only those are told apart by their text, in a keySet sized
// for them (grown only when the filter wrongly holds a great many keys).
func (b *problems) countPast(from int) {
	b.counted = true
	if b.ms != nil && b.ms.Counted && !b.outside && b.ms.Unknown >= b.keys.n {
		b.more += b.ms.Unknown - b.keys.n
		return
	}
	pol, plan := recPolicy(b.t), b.t.Plan()
	if b.ms == nil {
		b.ms = lexMembers(b.args)
	}
	counts := func(m bindcap.Member) bool { return countsPast(b.args, pol, m, from) }
	n := b.unknownHint // the Bloom filters' size: a bound suffices (a filter too small only tells fewer keys apart)
	seed := maphash.MakeSeed()
	hash := func(start, end int) uint64 { return maphash.Bytes(seed, b.args[start:end]) }
	// The keys sent: eight bits a key; the keys that may repeat one sent
	// before: a Bloom filter too, of a few of them, so that a key it
	// wrongly holds is only told apart by its text, never miscounted.
	words := n/8 + 1
	block := make(bloom, words+n/32+1)
	sent, mayRepeat := block[:words:words], block[words:]
	b.keys.each(func(start, end int) { sent.add(hash(start, end)) })
	maybe := b.keys.n // the keys told apart by their text, about
	for _, m := range eachMember(b.args, b.ms, plan) {
		if counts(m) {
			if h := hash(m.Key.Start, m.Key.End); sent.add(h) {
				mayRepeat.add(h)
				maybe += 2 // the key, and the one it may repeat
			}
		}
	}
	var seen keySet
	seen.presize(maybe + 16)
	b.keys.each(func(start, end int) {
		if mayRepeat.has(hash(start, end)) {
			seen.add(b.args, start, end)
		}
	})
	for _, m := range eachMember(b.args, b.ms, plan) {
		if !counts(m) {
			continue
		}
		if mayRepeat.has(hash(m.Key.Start, m.Key.End)) && !seen.add(b.args, m.Key.Start, m.Key.End) {
			continue // sent before
		}
		b.more++
	}
}

// A bloom is a Bloom filter of hashes: it may hold a hash never added,
// never misses one added.
type bloom []uint64

// add adds hash h, and reports whether it may have been added before.
func (b bloom) add(h uint64) bool {
	before := true
	for at := range b.bits(h) {
		if b[at/64]&(1<<(at%64)) == 0 {
			before = false
			b[at/64] |= 1 << (at % 64)
		}
	}
	return before
}

// has reports whether hash h may have been added.
func (b bloom) has(h uint64) bool {
	for at := range b.bits(h) {
		if b[at/64]&(1<<(at%64)) == 0 {
			return false
		}
	}
	return true
}

// bits yields the four bits of hash h.
func (b bloom) bits(h uint64) func(func(uint64) bool) {
	return func(yield func(uint64) bool) {
		m := uint64(len(b)) * 64
		h2 := h>>33 | h<<31 | 1
		for i := range uint64(4) {
			if !yield((h + i*h2) % m) {
				return
			}
		}
	}
}

// Warnings are the problems a call goes to the handler with: what the
// tool's policy found under Warn, and silent losses unless Strict.
// The text of String is for reading, not parsing; the fields are stable.
type Warnings struct {
	// Tool is the tool the call named.
	Tool string `json:"tool"`
	// Accepted lists the tool's parameters, in declaration order.
	Accepted []string `json:"accepted"`
	// Problems lists the problems, as a Refusal does.
	Problems []Problem `json:"problems"`
	// More counts the problems found and not listed (see Refusal.More).
	More int `json:"more,omitempty"`
}

// String renders the warnings as text for the caller (a model) to read.
func (w *Warnings) String() string {
	r := Refusal{Tool: w.Tool, Accepted: w.Accepted, Problems: w.Problems, More: w.More}
	head := "The call to tool '" + toolText(w.Tool) + "' went on with these warnings:\n"
	return head + r.render(maxText-len(head))
}

// exempt reports whether the key raw (as sent, quoted) is one of keys,
// as the pass reads it (bindcap.TopKeys.IsExempt): allocating nothing.
// aliasOf returns the parameter the key raw (as sent, quoted) is an alias
// of, or "".
func aliasOf(aliases map[string]string, raw []byte) string {
	if len(aliases) == 0 {
		return ""
	}
	var buf [256]byte
	text, ok := jsonlex.Unquote(buf[:0], raw)
	if !ok {
		return ""
	}
	return aliases[string(text)] // a lookup of a converted slice allocates nothing
}

func exempt(keys []string, raw []byte) bool {
	tk := bindcap.NewTopKeys(keys, nil)
	return tk.IsExempt(raw)
}
