package refuse

import (
	"bytes"
	"strings"

	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
)

// spanPath returns the path to the value at inside the argument whose key
// is d[key] and whose value is s: "[i]" per element, a key's step per
// member, bounded as every path is. Each level is read once, up to the
// element or member holding at.
func spanPath(d []byte, key, s, at jsonlex.Span) jsonpath.Path {
	path := jsonpath.ArgPath(d[key.Start:key.End])
	inside := func(e jsonlex.Span) bool { return e.Start <= at.Start && at.End <= e.End }
	for s != at && s.Start < len(d) {
		next := s
		switch jsonlex.KindAt(d, s.Start) {
		case jsonlex.KindArray:
			i := 0
			for e := range jsonlex.Elements(d, s.Start) {
				if inside(e) {
					path, next = path.Index(i), e
					break
				}
				i++
			}
		case jsonlex.KindObject:
			for m := range jsonlex.Members(d, s.Start) {
				if inside(m.Value) {
					path, next = path.Key(d[m.Key.Start:m.Key.End]), m.Value
					break
				}
			}
		}
		if next == s {
			break // at is not inside s: the path so far
		}
		s = next
	}
	return path
}

// A rekey is, for an argument the text checked names otherwise than the
// call did (an alias, or a folded key, renamed to the parameter's name),
// the pointer to it in the text checked (from) and in the call (to).
type rekey struct {
	set      bool
	from, to string
	key      []byte // the key the call sent, as sent
}

// rekey makes the pointers of the problems found in the text checked,
// b.args, lead into sent, the call's own text, where the two differ: an
// argument renamed (aliases, fold conflicts) is found in sent by its
// value, which renaming copies as it is (any member of the same key and
// value is as good a place), and its pointers start at the key sent.
func (b *problems) rekey(sent []byte) {
	if len(sent) != len(b.args) || len(sent) > 0 && &sent[0] != &b.args[0] {
		b.sent = sent // read when a problem in an argument has a pointer
		b.own = sent
	}
}

// ownAt returns where the byte at offset at of b.args, the call with its
// aliases renamed (renameAliases: each member kept as key:value, in the
// order sent, its value as sent), lies in the call's own text, b.own: a
// byte of a value or of a key the renaming keeps lies at the same place
// in the member as sent; any other (a renamed key's) at the member's key.
// A failure of the binder words the byte as the call sent it (the call is
// renamed only where no failure lies in a member the renaming leaves out,
// see renameFor, and no fold conflict is named beside a failure, see
// foldConflicts). Read only for such a failure: it reads the call again.
func (b *problems) ownAt(at int) int {
	keys := sentKeysOf(b.t, b.own) // each kept member's key, as sent: a slice of b.own
	k := 0
	for m := range jsonlex.Members(b.args, jsonlex.Space(b.args, 0)) {
		if k == len(keys) {
			break
		}
		raw := keys[k]
		k++
		if at >= m.Value.End {
			continue
		}
		ks := cap(b.own) - cap(raw) // raw is b.own[ks:ks+len(raw)]
		switch {
		case at >= m.Value.Start:
			if vs, ok := jsonlex.Colon(b.own, ks+len(raw)); ok {
				return vs + at - m.Value.Start
			}
		case at >= m.Key.Start && at < m.Key.End && bytes.Equal(b.args[m.Key.Start:m.Key.End], raw):
			return ks + at - m.Key.Start
		}
		return ks
	}
	return at
}

// findRekeys reads, once, where each renamed argument lies in b.sent.
func (b *problems) findRekeys() {
	sent := b.sent
	b.sent = nil
	b.rekeys = []rekey{} // read: none found yet
	type member struct{ key, value []byte }
	kept := make([]member, len(recParams(b.t)))
	plan := b.t.Plan()
	if b.ms == nil {
		b.ms = lexMembers(b.args)
	}
	for _, m := range eachMember(b.args, b.ms, plan) {
		if i := m.Binds(); i >= 0 && i < len(kept) {
			kept[i] = member{b.args[m.Key.Start:m.Key.End], b.args[m.Value.Start:m.Value.End]}
		}
	}
	var buf []byte
	for m := range jsonlex.Members(sent, jsonlex.Space(sent, 0)) {
		raw := sent[m.Key.Start:m.Key.End]
		text := raw[1 : len(raw)-1]
		if _, f, _ := jsonlex.String(raw, 0); f&jsonlex.Escaped != 0 {
			buf, _ = jsonlex.Unquote(buf[:0], raw) // reused: a key costs no allocation
			text = buf
		}
		i := -1
		if name, ok := recPolicy(b.t).Aliases[string(text)]; ok {
			i = paramIndex(b.t, name)
		} else if i = plan.Match(raw); i >= len(kept) {
			i = -1
		}
		if i < 0 || kept[i].key == nil || bytes.Equal(kept[i].key, raw) || !bytes.Equal(kept[i].value, sent[m.Value.Start:m.Value.End]) {
			continue
		}
		if len(b.rekeys) == 0 {
			b.rekeys = make([]rekey, len(kept))
		}
		if !b.rekeys[i].set {
			b.rekeys[i] = rekey{true, jsonpath.ArgPath(kept[i].key).Pointer(), jsonpath.ArgPath(raw).Pointer(), raw}
		}
	}
}

// rekeyed returns p with its pointer leading into the call's own text.
func (b *problems) rekeyed(p Problem) Problem {
	if b.sent == nil && len(b.rekeys) == 0 || p.Pointer == "" {
		return p
	}
	i := paramIndex(b.t, p.Argument)
	if i < 0 {
		return p
	}
	if b.sent != nil {
		b.findRekeys()
	}
	if len(b.rekeys) == 0 || !b.rekeys[i].set || b.rekeys[i].from == "" {
		return p
	}
	if rest, ok := strings.CutPrefix(p.Pointer, b.rekeys[i].from); ok && (rest == "" || rest[0] == '/') {
		p.Pointer = ""
		if b.rekeys[i].to != "" {
			p.Pointer = b.rekeys[i].to + rest
		}
		if (p.Code == DuplicateKey || p.Code == DuplicateName) && p.Path == "" {
			p.Sent = quoteSent(b.rekeys[i].key) // the key repeated, as the call sent it, not as renamed
		}
	}
	return p
}
