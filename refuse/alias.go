package refuse

import (
	"encoding/json"
	"slices"
)

// An aliasConflict is a parameter sent under more than one of its names.
type aliasConflict struct {
	param string   // the parameter's name
	sent  []string // the names the call used, as sent (quoted), in order
}

// A member is one top-level member of the arguments object.
type member struct {
	key   string // unquoted
	raw   []byte // the key as sent, quoted
	value []byte
}

// renameAliases rewrites the top-level keys of args that are aliases to
// the names of their parameters. When one parameter is sent under more than
// one name, the member sent under the parameter's own name is kept (else
// the first), the others are left out, and the names are reported.
// Arguments that are not a well-formed object, and arguments using no
// alias, come back as they are.
func renameAliases(args []byte, aliases map[string]string) ([]byte, []aliasConflict) {
	if !usesAlias(args, aliases) {
		return args, nil
	}
	members, ok := topMembers(args)
	if !ok {
		return args, nil
	}
	isParam := map[string]bool{}
	for _, name := range aliases {
		isParam[name] = true
	}
	params := make([]string, len(members)) // the parameter each member stands for, when it has aliases
	for i, m := range members {
		if name, ok := aliases[m.key]; ok {
			params[i] = name
		} else if isParam[m.key] {
			params[i] = m.key
		}
	}
	drop := make([]bool, len(members))
	done := map[string]bool{}
	var conflicts []aliasConflict
	for i, name := range params {
		if name == "" || done[name] {
			continue
		}
		done[name] = true
		var group []int
		for j := i; j < len(members); j++ {
			if params[j] == name {
				group = append(group, j)
			}
		}
		kept := members[group[0]].key
		if slices.ContainsFunc(group, func(j int) bool { return members[j].key == name }) {
			kept = name
		}
		c := aliasConflict{param: name}
		for _, j := range group {
			drop[j] = members[j].key != kept
			if raw := string(members[j].raw); !slices.Contains(c.sent, raw) {
				c.sent = append(c.sent, raw)
			}
		}
		if slices.Contains(drop, true) && len(c.sent) > 1 {
			conflicts = append(conflicts, c)
		}
	}
	out := make([]byte, 0, len(args)+16)
	out = append(out, '{')
	for i, m := range members {
		if drop[i] {
			continue
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		if params[i] != "" && params[i] != m.key {
			key, _ := json.Marshal(params[i])
			out = append(out, key...)
		} else {
			out = append(out, m.raw...)
		}
		out = append(out, ':')
		out = append(out, m.value...)
	}
	return append(out, '}'), conflicts
}

// topMembers lists the members of the JSON object args. It reads only the
// structure, and reports false for text that is not an object it can read.
func topMembers(args []byte) ([]member, bool) {
	var ms []member
	ok := eachMember(args, func(raw, value []byte) bool {
		ms = append(ms, member{key: unquoteKey(raw), raw: raw, value: value})
		return true
	})
	return ms, ok
}

// usesAlias reports whether a top-level key of args is one of aliases,
// allocating nothing for keys without escapes.
func usesAlias(args []byte, aliases map[string]string) bool {
	found := false
	eachMember(args, func(raw, _ []byte) bool {
		if slices.Contains(raw, '\\') {
			_, found = aliases[unquoteKey(raw)]
		} else {
			_, found = aliases[string(raw[1:len(raw)-1])]
		}
		return !found
	})
	return found
}

// eachMember calls f with the key (as sent, quoted) and the value of each
// member of the JSON object args, in order, until f returns false. It reads
// only the structure, and reports false for text that is not an object it
// can read.
func eachMember(args []byte, f func(raw, value []byte) bool) bool {
	i := space(args, 0)
	if i >= len(args) || args[i] != '{' {
		return false
	}
	i = space(args, i+1)
	if i < len(args) && args[i] == '}' {
		return space(args, i+1) == len(args)
	}
	for {
		if i >= len(args) || args[i] != '"' {
			return false
		}
		ke := skip(args, i)
		if ke > len(args) || ke-i < 2 {
			return false
		}
		raw := args[i:ke]
		i = space(args, ke)
		if i >= len(args) || args[i] != ':' {
			return false
		}
		vs := space(args, i+1)
		ve := skip(args, vs)
		if vs >= len(args) || ve > len(args) || ve <= vs {
			return false
		}
		if !f(raw, args[vs:ve]) {
			return true
		}
		i = space(args, ve)
		if i >= len(args) {
			return false
		}
		switch args[i] {
		case ',':
			i = space(args, i+1)
		case '}':
			return space(args, i+1) == len(args)
		default:
			return false
		}
	}
}

func (b *problems) conflicts(cs []aliasConflict) {
	for _, c := range cs {
		i := slices.Index(b.t.Accepted(), c.param)
		if !b.claim(i) {
			continue
		}
		p := b.t.Params[i]
		sent := ""
		for k, s := range c.sent {
			if k > 0 {
				sent += ", "
			}
			sent += quoteSent([]byte(s))
		}
		b.add(Problem{Code: AliasConflict, Argument: p.Name, Takes: b.w.takes(p.Type, p.Quoted, p.Schema), Sent: sent})
	}
}
