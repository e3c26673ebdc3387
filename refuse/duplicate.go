package refuse

import (
	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
)

// repeatedKey returns the raw text of the key a DuplicateName issue is
// about: the issue spans the key itself, or (inside an argument) the
// object holding it, or starts at it (inside a value the binder drops);
// else (text that is not JSON, refused at its first bad byte, where the
// binder met a repeated name before it; the error names it) the name as
// the error quotes it.
func repeatedKey(args []byte, is bind.Issue, name string, quoted []byte) []byte {
	span := args[is.Start:is.End]
	switch {
	case jsonlex.KindAt(span, 0) == jsonlex.KindString:
		return span
	case jsonlex.KindAt(span, 0) == jsonlex.KindObject:
		for m := range jsonlex.Members(span, 0) {
			if key := span[m.Key.Start:m.Key.End]; unquoteKey(key) == name {
				return key
			}
		}
	case jsonlex.KindAt(args, is.Start) == jsonlex.KindString:
		if end, _, ok := jsonlex.String(args, is.Start); ok && (name == "" || unquoteKey(args[is.Start:end]) == name) {
			return args[is.Start:end]
		}
	}
	return quoted
}

// duplicate words a key the binder refuses because it was sent more than
// once, and reports whether is was one: one problem per argument (see
// claim) or, outside every argument, per key, however often it repeats.
func (b *problems) duplicate(is bind.Issue) bool {
	// the binder's own error, asked of its capabilities (bind/jsonv2's:
	// jsontext.ErrDuplicateName, bare or in its *jsontext.SyntacticError)
	name, quoted, ok := bindcap.DuplicateName(b.w.binder, is.Err)
	if !ok {
		return false
	}
	key := repeatedKey(b.args, is, name, quoted)
	if is.Param < 0 && jsonlex.KindAt(key, 0) == jsonlex.KindString {
		if prm := aliasOf(recPolicy(b.t).Aliases, key); prm != "" {
			// an alias sent twice, read as sent: the parameter's
			if i := paramIndex(b.t, prm); i >= 0 {
				if b.claim(i) {
					b.add(Problem{Argument: prm, Code: DuplicateName, Pointer: jsonpath.ArgPath(key).Pointer(), Sent: quoteSent(key)})
				}
				return true
			}
		}
	}
	if is.Param < 0 {
		k := unquoteKey(key)
		if b.seenDup[k] {
			return true
		}
		if b.seenDup == nil {
			b.seenDup = map[string]bool{}
		}
		b.seenDup[k] = true
		b.add(Problem{Code: DuplicateName, Sent: quoteSent(key)})
		return true
	}
	if !b.claim(is.Param) {
		return true
	}
	p := recParams(b.t)[is.Param]
	pr := Problem{Argument: p.Name, Code: DuplicateName, Pointer: is.Path.Pointer(), Sent: quoteSent(key)}
	if jsonlex.KindAt(b.args, is.Start) == jsonlex.KindObject { // inside the argument: the object holding the key
		pr.Path, pr.Takes, pr.Element = is.Path.String(), b.w.param(is.Param), pr.Sent
		pr.Pointer = bindcap.Path(is.Path).Key(key).Pointer() // the key's member
		pr.Sent = quoteSent(b.memberValue(is.Start))
	}
	b.add(pr)
	return true
}
