package bind

import (
	"hash/maphash"
	"strings"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The top-level keys that bind no parameter, counted in the pass: a call
// of any number of unknown keys, repeated or not, gets its count with its
// verdict (bindcap.Members.Unknown), so that refuse, which counts each
// one once in a refusal's More, reads none of the members again. The
// distinct keys are told apart, by their bytes as sent, in the checker's
// key table (keyTable, as object 0, which no map or interface object
// takes), so a call of any number of them allocates nothing once a table
// that size has served one; the same table tells V2's pass a dropped key
// sent twice (droppedRepeat).

// topState is the checker's state of the top-level keys: the tool's policy
// on them (from checkConstrained), and of the key just read, whether it
// repeats an unknown key sent before, whether it is plain (no escape, no
// byte past ASCII), whether it holds an escape and whether it is an alias
// bound to its parameter (TopKeys.BindAliases).
type topState struct {
	policy bindcap.TopKeys
	topKeyFacts
	aliases bool // the policy has aliases, for a check that records its members
	// unknownSeen: countUnknown has met an unknown key; firstUnknown is
	// the first, until it is put in the key table (tableFirstUnknown).
	unknownSeen  bool
	firstUnknown jsonlex.Span
	stopped      bool // the pass stopped at an alias it does not bind (TopKeys.BindAliases)
	param        int
	root         *node // the arguments' struct
}

// topKeyFacts are topState's facts of the key just read, set together.
type topKeyFacts struct {
	repeat  bool
	plain   bool
	escaped bool
	alias   bool // bound to parameter param (see bindAlias)
}

// topObj is the key table's object of the unknown top-level keys.
const topObj = 0

// topKey notes the top-level key data[ks:ke] (esc: with escapes; hi: with
// a byte past ASCII), which binds parameter i (-1: none; ambiguousKey:
// none, and V2 fails on it): an alias
// among the keys, which, under TopKeys.BindAliases, the pass binds (see
// bindAlias), and each unknown key, counted once as sent unless exempt,
// for a check that records its members; for V2's pass, whether an unknown
// key repeats one sent before. It reports false when the pass stops at
// the key, an alias it does not bind.
func (c *checker) topKey(ks, ke, i int, esc, hi bool) bool {
	raw := c.data[ks:ke]
	c.top.topKeyFacts = keyFacts(esc, hi)
	if c.top.aliases && (c.top.policy.BindAliases || !c.members.Aliased) && c.top.policy.Alias(raw, esc) {
		c.members.Aliased = true
		if c.top.policy.BindAliases {
			return c.bindAlias(ks, raw, esc || hi || i >= 0)
		}
	}
	if i == -1 && (c.record || c.dupDropped) { // not an ambiguous key (ambiguousKey): V2 fails on it
		c.countUnknown(ks, ke, raw, esc)
	}
	return true
}

// factsOnly reports whether all topKey does for a top-level key binding
// parameter i is note its facts: for a key that binds a parameter in a
// call of a tool without aliases, most keys, which the walk notes so,
// without the call.
func (c *checker) factsOnly(i int) bool { return i >= 0 && !c.top.aliases }

// keyFacts are the facts of a key just read, not yet told repeated nor
// bound as an alias.
func keyFacts(esc, hi bool) topKeyFacts { return topKeyFacts{plain: !esc && !hi, escaped: esc} }

// bindAlias binds the alias raw = data[ks:ke] (as sent, quoted; odd: with
// an escape or a byte past ASCII, or a key that binds a parameter itself
// by the binder's folding), for TopKeys.BindAliases, to the parameter of
// the arguments' struct (c.top.root) that its parameter's name binds as
// renaming writes it: quoted, with no escape, as json.Marshal writes a
// name of ASCII holding no " \ < > & nor a control character. The key is
// then read as the renamed call's is, as that parameter's (c.top.alias,
// c.top.param, until the next key). An odd key, or a name renaming writes
// otherwise, stops the pass, which reports false.
func (c *checker) bindAlias(ks int, raw []byte, odd bool) bool {
	if i := c.aliasParam(raw, odd); i >= 0 {
		c.top.alias, c.top.param, c.members.AliasBound = true, i, true
		return true
	}
	c.top.stopped, c.declined, c.members.AliasBound = true, true, false // a proving pass declines, and no trial check runs
	return c.fail(ks)
}

// aliasParam returns the parameter bindAlias binds the alias raw to, or -1.
func (c *checker) aliasParam(raw []byte, odd bool) int {
	name := c.top.policy.Aliases[string(raw[1:len(raw)-1])]
	var buf [66]byte
	if odd || c.top.root == nil || len(name) > len(buf)-2 {
		return -1
	}
	q := append(append(append(buf[:0], '"'), name...), '"')
	if end, f, ok := jsonlex.String(q, 0); !ok || end != len(q) || f != 0 || strings.ContainsAny(name, "<>&") {
		return -1 // json.Marshal escapes it, or it is past ASCII
	}
	if i, folded := c.top.root.fields.lookupKey(q, false, false); i >= 0 && !folded {
		return i
	}
	return -1
}

// countUnknown is topKey's count of the unknown top-level key
// raw = data[ks:ke] (esc: with escapes), for a check that records its
// members or V2's pass: whether it repeats one sent before (c.top.repeat),
// and, but a repeat, an exempt key or an alias (a name the tool takes,
// in a call read as sent), one more in the count.
//
// The first unknown key repeats none: it is put in the key table (a
// pooled one: two atomic operations, a generation) only when a second
// comes, or V2's pass reads the keys by their text (tableFirstUnknown),
// so a call of one unknown key, the most common, takes no table for it.
func (c *checker) countUnknown(ks, ke int, raw []byte, esc bool) {
	if !c.top.unknownSeen {
		c.top.unknownSeen, c.top.firstUnknown = true, jsonlex.Span{Start: ks, End: ke}
		c.top.repeat = false
	} else {
		c.tableFirstUnknown()
		c.top.repeat = c.keyTab.add(c, topObj, maphash.Bytes(keySeed, raw), raw, ks, kRaw)
	}
	if c.top.repeat || !c.record || len(c.top.policy.Exempt) > 0 && c.top.policy.Exempted(raw, esc) ||
		c.top.aliases && c.top.policy.Alias(raw, esc) {
		return
	}
	if c.members.Unknown == 0 {
		c.members.FirstUnknown = jsonlex.Span{Start: ks, End: ke}
	}
	c.members.Unknown++
}

// tableFirstUnknown makes sure the checker has its key table and that
// the first unknown top-level key, which countUnknown leaves out of it, is
// in it, as object topObj's.
func (c *checker) tableFirstUnknown() {
	if c.keyTab == nil {
		c.keyTab = getKeyTable(len(c.data))
	}
	if k := c.top.firstUnknown; k.End > 0 {
		raw := c.data[k.Start:k.End]
		c.keyTab.add(c, topObj, maphash.Bytes(keySeed, raw), raw, k.Start, kRaw)
		c.top.firstUnknown = jsonlex.Span{}
	}
}

// unknownArg records the top-level key data[ks:ke], which binds no
// parameter: an UnknownArgument issue, or past MaxIssues of them, where a
// call of any number of unknown keys only counts them, the count alone.
func (c *checker) unknownArg(ks, ke int) {
	if c.tally.unknownsFull() {
		if c.prove {
			c.found++ // c.admit's, for a kind the pass models
		}
		c.tally.unknownPast++
		return
	}
	c.add(Issue{Kind: UnknownArgument, Param: -1, Start: ks, End: ke})
}
