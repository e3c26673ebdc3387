package refuse

import (
	"encoding/json"
	"slices"
	"strconv"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/typereg"
)

// An aliasConflict is a parameter sent under more than one of its names
// (aliases, or keys the binder folds to it), all but one member left out.
type aliasConflict struct {
	param string   // the parameter's name
	sent  []string // the first names the call used, as sent (quoted), in order
	more  int      // the other names it used, not listed
	kept  []byte   // the value of the member kept, when known
}

// maxListedNames is how many names an alias conflict lists; the rest are
// counted.
const maxListedNames = 8

// A nameSet is the names one parameter was sent under, each once, in
// order: the first few listed, every one looked up in a map, so that a
// call of many spellings of one name costs time in proportion to it.
type nameSet struct {
	listed []string        // the first names as sent (quoted)
	more   int             // the other names, not listed
	raws   map[string]bool // every name as sent
	first  string          // the first name's text
	texts  bool            // sent under more than one text
}

func (s *nameSet) add(raw []byte, text []byte) {
	if s.raws == nil {
		s.raws, s.first = map[string]bool{}, string(text)
	}
	s.texts = s.texts || string(text) != s.first
	if s.raws[string(raw)] {
		return
	}
	s.raws[string(raw)] = true
	if len(s.listed) < maxListedNames {
		s.listed = append(s.listed, string(raw))
	} else {
		s.more++
	}
}

// renameFor renames the aliases of tool t in args (renameAliases), and
// reads each member the renaming leaves out as t's binder reads the value
// of a key it drops: when the binder cannot read one (text that is not
// JSON; for V2, a repeated name or invalid UTF-8 inside it), args come
// back as they are, with no conflict, to be checked as sent. So a call
// goes on, under Warn, only when the binder reads every byte of it.
func renameFor(t *typereg.Tool, args []byte) ([]byte, []aliasConflict) {
	var buf []byte
	var issues []bind.Issue
	unread := false
	out, conflicts := renameAliases(args, t.Policy.Aliases, func(v []byte) {
		if unread {
			return
		}
		// An object whose one key ("") names no parameter: the plan reads
		// its value as the binder reads a dropped key's.
		buf = append(append(append(buf[:0], `{"":`...), v...), '}')
		issues = t.Plan().Check(buf, issues[:0])
		unread = slices.ContainsFunc(issues, func(is bind.Issue) bool { return is.Kind.Fails() })
	})
	if unread {
		return args, nil
	}
	return out, conflicts
}

// renameAliases rewrites the top-level keys of args that are aliases to
// the names of their parameters. When one parameter is sent under more than
// one name, the member sent under the parameter's own name is kept (else
// the first), the others are left out (drop, when not nil, is called with
// the value of each), and the names are reported. Arguments that are not a
// well-formed object, and arguments using no alias, come back as they are.
// It reads the members twice, once to learn which names each parameter was
// sent under and once to write the result, and keeps nothing per member.
func renameAliases(args []byte, aliases map[string]string, drop func(value []byte)) ([]byte, []aliasConflict) {
	if !usesAlias(args, aliases) {
		return args, nil
	}
	params := map[string]string{}  // each parameter with aliases, to itself
	encoded := map[string][]byte{} // its name as a JSON string
	for _, name := range aliases {
		params[name] = name
		encoded[name], _ = json.Marshal(name)
	}
	// paramOf returns the key's text and the parameter it stands for, or
	// "" when it stands for none with aliases.
	paramOf := func(raw []byte) (key []byte, param string) {
		key = raw[1 : len(raw)-1]
		if slices.Contains(key, '\\') {
			key = []byte(unquoteKey(raw))
		}
		if name, ok := aliases[string(key)]; ok { // a lookup of a converted slice allocates nothing
			return key, name
		}
		return key, params[string(key)]
	}
	type sent struct {
		first string // the first name it was sent under
		own   bool   // sent under its own name
		names nameSet
	}
	bySent := map[string]*sent{}
	var order []string // parameters in the order first sent
	ok := eachMember(args, func(raw, _ []byte) bool {
		key, param := paramOf(raw)
		if param == "" {
			return true
		}
		st := bySent[param]
		if st == nil {
			st = &sent{first: string(key)}
			bySent[param] = st
			order = append(order, param)
		}
		st.own = st.own || string(key) == param
		st.names.add(raw, key)
		return true
	})
	if !ok {
		return args, nil
	}
	kept := map[string]string{} // parameter: the name whose member is kept
	var conflicts []aliasConflict
	for _, param := range order {
		st := bySent[param]
		kept[param] = st.first
		if st.own {
			kept[param] = param
		}
		if st.names.texts {
			conflicts = append(conflicts, aliasConflict{param: param, sent: st.names.listed, more: st.names.more})
		}
	}
	out := make([]byte, 0, len(args)+16)
	out = append(out, '{')
	keptValue := map[string][]byte{}
	eachMember(args, func(raw, value []byte) bool {
		key, param := paramOf(raw)
		if param != "" && string(key) != kept[param] {
			if drop != nil {
				drop(value)
			}
			return true // another name of a parameter sent under more than one
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		if param != "" {
			keptValue[param] = value
		}
		if param != "" && string(key) != param {
			out = append(out, encoded[param]...)
		} else {
			out = append(out, raw...)
		}
		out = append(out, ':')
		out = append(out, value...)
		return true
	})
	for i := range conflicts {
		conflicts[i].kept = keptValue[conflicts[i].param]
	}
	return append(out, '}'), conflicts
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
		if c.more > 0 {
			sent += ", and " + strconv.Itoa(c.more) + " more"
		}
		pr := Problem{Code: AliasConflict, Argument: p.Name, Takes: b.w.takes(p.Type, p.Quoted, p.Schema), Sent: sent}
		if c.kept != nil {
			pr.Becomes = quoteSent(c.kept)
		}
		b.add(pr)
	}
}

// foldConflicts finds, in a call the binder reads (issues has no failure),
// each parameter bound by top-level members under more than one key text:
// its name and a key the binder folds to it (HOURS for hours), or two such
// keys. The binder keeps the last of them and the call's text still holds
// the others, where a handler reading the arguments as a map (mcp-go's
// GetArguments) or as raw JSON would find a value the guard never checked.
// So the result keeps only the member the binder keeps, renamed to the
// parameter's name, with the others left out, and reports each such
// parameter as an alias conflict naming the value kept. A call with no
// such parameter comes back as it is, with nil, allocating nothing.
func foldConflicts(t *typereg.Tool, args []byte, issues []bind.Issue) ([]byte, []aliasConflict) {
	folded := false
	for _, is := range issues {
		if is.Kind.Fails() {
			return args, nil
		}
		folded = folded || is.Kind == bind.FoldedKey && is.Path.String() == "" && is.Param >= 0
	}
	if !folded {
		return args, nil
	}
	type bound struct {
		names nameSet
		last  int // the member kept: the last bound to the parameter
	}
	params := map[int]*bound{}
	var order []int
	n := 0
	eachBinding(t, args, func(ks, ke, vs, ve, param int) {
		k := n
		n++
		if param < 0 {
			return
		}
		b := params[param]
		if b == nil {
			b = &bound{}
			params[param] = b
			order = append(order, param)
		}
		b.last = k
		raw := args[ks:ke]
		text := raw[1 : len(raw)-1]
		if slices.Contains(text, '\\') {
			text = []byte(unquoteKey(raw))
		}
		b.names.add(raw, text)
	})
	var conflicts []aliasConflict
	for _, i := range order {
		if b := params[i]; !b.names.texts {
			delete(params, i)
		}
	}
	if len(params) == 0 {
		return args, nil
	}
	out := make([]byte, 0, len(args)+16)
	out = append(out, '{')
	n = 0
	kept := map[int][]byte{}
	eachBinding(t, args, func(ks, ke, vs, ve, param int) {
		k := n
		n++
		b := params[param]
		if param >= 0 && b != nil && k != b.last {
			return // a member the binder does not keep
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		if param >= 0 && b != nil {
			name, _ := json.Marshal(t.Params[param].Name)
			out = append(out, name...)
			kept[param] = args[vs:ve]
		} else {
			out = append(out, args[ks:ke]...)
		}
		out = append(out, ':')
		out = append(out, args[vs:ve]...)
	})
	for _, i := range order {
		if b := params[i]; b != nil {
			conflicts = append(conflicts, aliasConflict{param: t.Params[i].Name, sent: b.names.listed, more: b.names.more, kept: kept[i]})
		}
	}
	return append(out, '}'), conflicts
}

// eachBinding calls f with the extent of each top-level member of the
// object args and the index of the parameter the binder binds its key to
// (-1: none), in order, as members does. Which key binds which parameter
// is the plan's to say (bind.Plan.Match: encoding/json folds the case of
// any key, V2 only keys of case:ignore fields, segmentio as go-sdk sets it
// none), never derived here.
func eachBinding(t *typereg.Tool, args []byte, f func(ks, ke, vs, ve, param int)) {
	plan := t.Plan()
	eachMemberSpan(args, func(ks, ke, vs, ve int) {
		i := plan.Match(args[ks:ke])
		if i < 0 || i >= len(t.Params) {
			i = -1 // unknown, or a key V2 finds ambiguous: bound to none
		}
		f(ks, ke, vs, ve, i)
	})
}
