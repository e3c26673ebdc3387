package bind

import (
	"cmp"
	"slices"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The classes of issue Check bounds separately, so that a flood of one
// (a hundred thousand unknown keys, or nulls) pushes out no issue of
// another.
const (
	classFails   = iota // the binder fails
	classUnknown        // UnknownArgument
	classPolicy         // the other policy issues: MissingArgument, MissingField, UnknownField
	classLoss           // the silent losses
	numClasses
)

// firstBit is the bit of an argument's firsts (see tally) that an issue
// of kind k sets: its class's, but for the policy class, whose codes have
// a bit each, and for the losses that decide more than a loss: a repeated
// key (it outranks the losses in the value it drops) and a folded key
// (refuse's fold conflicts read it). A policy may let one code through (an
// open nested struct's unknown fields; a missing field the merged value
// holds, see merged.go): the first issue of every other code in the
// argument must be listed still, since what is only counted never
// refuses.
func firstBit(k Code) uint16 {
	switch c := issueClass(k); {
	case k == MissingField:
		return 1 << numClasses
	case k == UnknownField:
		return 1 << (numClasses + 1)
	case k == MissingArgument:
		return 1 << (numClasses + 2)
	case k == DuplicateKey:
		return 1 << (numClasses + 3)
	case k == FoldedKey:
		return 1 << (numClasses + 4)
	default:
		return 1 << c
	}
}

func issueClass(k Code) int {
	switch {
	case k == UnknownArgument:
		return classUnknown
	case k.Class() == BinderFailure:
		return classFails
	case k.Class() == SilentLoss:
		return classLoss
	}
	return classPolicy
}

// A tally decides which issues one Check lists: up to MaxIssues of each
// class and, past that, still the first issue of each class in each
// argument (of each code, in the policy class: see firstBit) (and the first failure in none), so that the most serious issue
// of every argument is always listed. What it does not list it counts, by
// argument and kind, for the Omitted issues that end the list. It holds
// at most one count per argument and kind, whatever the call.
type tally struct {
	nparams int
	listed  [numClasses]int
	// firsts holds, per argument (index Param+1), a bit per class with an
	// issue listed (per code in the policy class: firstBit); built once a class is full: in firstsIn for a tool of
	// up to len(firstsIn)-1 parameters, so that a flood of issues costs
	// no allocation.
	built    bool
	firstsIn [32]uint16
	firsts   []uint16
	// counts holds the counts, the first few in countsIn (a flood of one
	// kind costs no allocation), the others in more.
	countsIn [4]omitCount
	nCounts  int
	more     map[omitKey]int
	// unknownPast counts the UnknownArgument issues in no argument past
	// the listed ones (see checker.unknownArg), apart from the counts.
	unknownPast int
}

// unknownsFull reports whether an UnknownArgument issue in no argument is
// only counted now: its class is full, and the firsts are built, so that
// admit would count it and change nothing else.
func (t *tally) unknownsFull() bool {
	return t.built && t.listed[classUnknown] >= MaxIssues
}

type omitCount struct {
	key omitKey
	n   int
}

// first returns the bits of argument slot.
func (t *tally) first(slot int) uint16 {
	if t.firsts != nil {
		return t.firsts[slot]
	}
	return t.firstsIn[slot]
}

// setFirst sets bits in argument slot.
func (t *tally) setFirst(slot int, bits uint16) {
	if t.firsts != nil {
		t.firsts[slot] |= bits
	} else {
		t.firstsIn[slot] |= bits
	}
}

// count counts one issue of key.
func (t *tally) count(key omitKey) { t.countN(key, 1) }

// countN counts n issues of key.
func (t *tally) countN(key omitKey, n int) {
	for i := range t.nCounts {
		if t.countsIn[i].key == key {
			t.countsIn[i].n += n
			return
		}
	}
	if _, ok := t.more[key]; ok { // counted there before keepCounts made room
		t.more[key] += n
		return
	}
	if t.nCounts < len(t.countsIn) {
		t.countsIn[t.nCounts] = omitCount{key, n}
		t.nCounts++
		return
	}
	if t.more == nil {
		t.more = map[omitKey]int{}
	}
	t.more[key] += n
}

// keepCounts drops the counts of the keys keep does not keep.
func (t *tally) keepCounts(keep func(omitKey) bool) {
	if t.unknownPast > 0 && !keep(omitKey{-1, UnknownArgument}) {
		t.unknownPast = 0
	}
	n := 0
	for _, c := range t.countsIn[:t.nCounts] {
		if keep(c.key) {
			t.countsIn[n] = c
			n++
		}
	}
	clear(t.countsIn[n:t.nCounts])
	t.nCounts = n
	for k := range t.more {
		if !keep(k) {
			delete(t.more, k)
		}
	}
}

type omitKey struct {
	param int
	kind  Code
}

// admit reports whether an issue of kind in argument param (-1: none) is
// listed; listed holds the issues this Check listed so far. An issue not
// admitted is counted.
func (t *tally) admit(listed []Issue, kind Code, param int) bool {
	c := issueClass(kind)
	slot := param + 1
	if slot < 0 || slot > t.nparams {
		slot = 0
	}
	if t.listed[c] >= MaxIssues && !t.built {
		t.built = true
		if t.nparams+1 > len(t.firstsIn) {
			t.firsts = make([]uint16, t.nparams+1)
		}
		for _, is := range listed {
			if s := is.Param + 1; s >= 0 && s <= t.nparams {
				t.setFirst(s, firstBit(is.Kind))
			}
		}
	}
	if t.listed[c] < MaxIssues || c != classUnknown && t.first(slot)&firstBit(kind) == 0 {
		t.listed[c]++
		if t.built {
			t.setFirst(slot, firstBit(kind))
		}
		return true
	}
	t.count(omitKey{param, kind})
	return false
}

// omitted appends to issues one Omitted issue per argument and code
// counted, in that order (codes by name: the order only makes the list
// the same from call to call).
func (t *tally) omitted(issues []Issue) []Issue {
	if t.unknownPast > 0 {
		t.countN(omitKey{-1, UnknownArgument}, t.unknownPast)
		t.unknownPast = 0
	}
	if t.nCounts == 0 {
		return issues
	}
	n := len(issues)
	for _, c := range t.countsIn[:t.nCounts] {
		issues = append(issues, Issue{Kind: Omitted, Of: c.key.kind, Param: c.key.param, N: c.n})
	}
	for k, c := range t.more {
		issues = append(issues, Issue{Kind: Omitted, Of: k.kind, Param: k.param, N: c})
	}
	slices.SortFunc(issues[n:], func(a, b Issue) int {
		if a.Param != b.Param {
			return a.Param - b.Param
		}
		return cmp.Compare(a.Of, b.Of)
	})
	return issues
}

// Match returns the index in Params of the parameter the binder binds the
// top-level key raw (a JSON string as sent, quotes included) to: -1 exactly
// for a key Check reports as UnknownArgument, and below -1 for a key V2 finds
// ambiguous (it binds none, and V2 fails on it). It lets a caller judge
// the keys past MaxIssues that Check only counts.
func (p *Plan) Match(raw []byte) int {
	end, f, ok := jsonlex.String(raw, 0)
	if len(raw) < 2 || jsonlex.KindAt(raw, 0) != jsonlex.KindString || !ok || end != len(raw) {
		return -1
	}
	if p.match != nil {
		return p.match(raw)
	}
	if p.root == nil || p.root.fields == nil {
		return -1
	}
	i, _ := p.root.fields.lookup(raw, f&jsonlex.Escaped != 0)
	return max(i, -1)
}
