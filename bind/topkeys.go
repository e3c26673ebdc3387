package bind

import (
	"hash/maphash"

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
// on them (from checkConstrained), and whether the key just read repeats
// an unknown key sent before.
type topState struct {
	policy bindcap.TopKeys
	repeat bool
}

// topObj is the key table's object of the unknown top-level keys.
const topObj = 0

// topKey notes the top-level key data[ks:ke] (esc: with escapes), which
// binds parameter i (below 0: none): an alias among the keys, and each
// unknown key, counted once as sent unless exempt, for a check that
// records its members; for V2's pass, whether an unknown key repeats one
// sent before.
func (c *checker) topKey(ks, ke, i int, esc bool) {
	raw := c.data[ks:ke]
	c.top.repeat = false
	if c.record && len(c.top.policy.Aliases) > 0 && !c.members.Aliased && c.top.policy.Alias(raw, esc) {
		c.members.Aliased = true
	}
	if i >= 0 || !c.record && !c.dupDropped {
		return
	}
	if c.keyTab == nil {
		c.keyTab = getKeyTable()
	}
	c.top.repeat = c.keyTab.addRaw(c, maphash.Bytes(keySeed, raw), ks, ke)
	if c.top.repeat || !c.record || len(c.top.policy.Exempt) > 0 && c.top.policy.Exempted(raw, esc) {
		return
	}
	if c.members.Unknown == 0 {
		c.members.FirstUnknown = jsonlex.Span{Start: ks, End: ke}
	}
	c.members.Unknown++
}

// addRaw adds the unknown top-level key data[ks:ke] (of hash h), and
// reports whether it was sent before, byte for byte.
func (t *keyTable) addRaw(c *checker, h uint64, ks, ke int) bool {
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	mask := uint64(len(t.slots) - 1)
	for i := keySlotOf(h, topObj) & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.gen != t.gen {
			*s = keySlot{h: h, at: ks, obj: topObj, gen: t.gen}
			t.n++
			return false
		}
		if s.h == h && s.obj == topObj {
			end := s.at + ke - ks
			work(ke - ks)
			if end <= len(c.data) && string(c.data[s.at:end]) == string(c.data[ks:ke]) {
				return true
			}
		}
	}
}
