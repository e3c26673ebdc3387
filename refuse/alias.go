package refuse

import (
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strconv"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/typereg"
)

// An aliasConflict is a parameter sent under more than one of its names
// (aliases, or keys the binder folds to it), all but one member left out.
type aliasConflict struct {
	param string          // the parameter's name
	sent  []string        // the first names the call used, as sent (quoted), in order
	more  int             // the other names it used, not listed
	all   map[string]bool // every name it used, as sent
	kept  []byte          // the value of the member kept, when known
}

// joinConflicts returns the alias conflicts as, then those of the keys
// the binder folds found in the call as renamed (fs), one per parameter:
// where a parameter has both (its name, an alias and a case variant of
// its name all sent), the names of both, and the value of the fold's,
// which is what the renamed call is read as (the alias's was kept in the
// renaming, then read before or over the case variant's).
func joinConflicts(as, fs []aliasConflict) []aliasConflict {
	for _, f := range fs {
		i := slices.IndexFunc(as, func(a aliasConflict) bool { return a.param == f.param })
		if i < 0 {
			as = append(as, f)
			continue
		}
		a := &as[i]
		all := maps.Clone(a.all) // each name once: listed, or counted
		if all == nil {
			all = map[string]bool{}
		}
		for _, name := range a.sent {
			all[name] = true
		}
		for _, name := range f.sent {
			if all[name] {
				continue
			}
			all[name] = true
			if len(a.sent) < maxListedNames {
				a.sent = append(a.sent, name)
			} else {
				a.more++
			}
		}
		for name := range f.all { // the fold's names it did not list
			if !all[name] {
				all[name] = true
				a.more++
			}
		}
		a.all, a.kept = all, f.kept
	}
	return as
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

// renameFor renames the aliases of tool t in args, whose members Check
// read as ms with issues (renameAliases). Each member the renaming leaves
// out is read by the binder as the value of a key it drops (an alias
// names no parameter): when the binder fails on one (text that is not
// JSON; for V2, a repeated name or invalid UTF-8 inside it, or its key
// sent again; for a Reader, a key the server refuses), it reports false,
// and args are to be checked as sent. So a call goes on, under Warn, only
// when the binder reads every byte of it.
//
// The failures are read once, before the members: their offsets sorted,
// each member left out looks for one within it by a binary search, so
// that a call of many members and many issues costs in proportion to
// them, not to their product. Where failures in no member were only
// counted (past bind.MaxIssues: V2's names sent twice), the members left
// out are checked alone, together (droppedFail), so that the call is
// read as its aliases' parameters' however many failures it holds.
func renameFor(t *typereg.Tool, args []byte, ms *bindcap.Members, issues []bind.Issue) ([]byte, []aliasConflict, bool) {
	var fails []int  // where each failure starts
	counted := false // failures in no member, only counted
	for _, is := range issues {
		switch {
		case is.Kind == bind.Omitted:
			counted = counted || is.Of.Class() == bind.BinderFailure && is.Param < 0
		case is.Kind.Class() == bind.BinderFailure:
			fails = append(fails, is.Start)
		}
	}
	slices.Sort(fails)
	var left []bindcap.Member // the members left out, where failures were counted
	renamed, cs, ok := renameAliases(args, ms, t.Plan(), recPolicy(t).Aliases, func(m bindcap.Member) bool {
		if i, _ := slices.BinarySearch(fails, m.Key.Start); i < len(fails) && fails[i] < m.Value.End {
			return false
		}
		if counted {
			left = append(left, m)
		}
		return true
	}, nil)
	if ok && len(left) > 0 && droppedFail(t.Plan(), args, left) {
		return args, nil, false
	}
	return renamed, cs, ok
}

// droppedFail reports whether the binder of plan fails on the members ms
// of args, each the member of an alias the renaming leaves out, as it
// reads them in the call: sent together, alone in an object, their keys
// bound to no parameter (a failure inside a value it drops, or a key sent
// again). It reads them once more.
func droppedFail(plan *bind.Plan, args []byte, ms []bindcap.Member) bool {
	sub := []byte{'{'}
	for i, m := range ms {
		if i > 0 {
			sub = append(sub, ',')
		}
		sub = append(append(append(sub, args[m.Key.Start:m.Key.End]...), ':'), args[m.Value.Start:m.Value.End]...)
	}
	sub = append(sub, '}')
	return slices.ContainsFunc(plan.Check(sub, nil), func(is bind.Issue) bool {
		return is.Kind.Class() == bind.BinderFailure || is.Kind == bind.Omitted && is.Of.Class() == bind.BinderFailure
	})
}

// sentKeysOf returns the key each member of the call args, its aliases
// renamed (renameAliases), was sent under, in order, read again: asked
// only of a call with a fold conflict to list.
func sentKeysOf(t *typereg.Tool, args []byte) [][]byte {
	var keys [][]byte
	ms := lexMembers(args)
	ms.Object = true // a call renamed: an object
	renameAliases(args, ms, t.Plan(), recPolicy(t).Aliases, nil, &keys)
	return keys
}

// renameBound renames the aliases of tool t in args, a call whose pass
// bound them and found no issue (its members ms: bindcap.Members.AliasBound),
// and reports whether the call, so renamed, goes on: no parameter sent
// under two names, and the compiled constraints kept. The renamed text
// is renameAliases's (each member as key:value, the alias's key its
// parameter's name, which the pass bound only where it is written as it
// is), built from the members in one allocation.
func renameBound(t *typereg.Tool, args []byte, ms *bindcap.Members) ([]byte, bool) {
	if hasConstraints(t) && !ms.Held {
		if ps, ok := compiledProblems(t, args, ms, nil); !ok || len(ps) > 0 {
			return nil, false
		}
	}
	aliases := recPolicy(t).Aliases
	if ms.Cut {
		renamed, cs, _ := renameAliases(args, ms, t.Plan(), aliases, nil, nil)
		return renamed, cs == nil
	}
	// keyOf is the key member m is written under.
	keyOf := func(m *bindcap.Member) (name string, raw []byte) {
		raw = args[m.Key.Start:m.Key.End]
		if m.How == bindcap.Alias {
			return aliases[string(raw[1:len(raw)-1])], nil // sent plain: bindAlias
		}
		return "", raw
	}
	size := 2
	for i := range ms.Len() {
		m := ms.At(i)
		name, raw := keyOf(m)
		size += len(name) + len(raw) + 2 + 1 + m.Value.End - m.Value.Start // quotes or raw, colon, comma
	}
	out := make([]byte, 0, size)
	out = append(out, '{')
	for i := range ms.Len() {
		m := ms.At(i)
		if i > 0 {
			out = append(out, ',')
		}
		if name, raw := keyOf(m); raw == nil {
			out = append(append(append(out, '"'), name...), '"')
		} else {
			out = append(out, raw...)
		}
		out = append(out, ':')
		out = append(out, args[m.Value.Start:m.Value.End]...)
	}
	return append(out, '}'), true
}

// renameAliases rewrites the top-level keys of args (its members ms, as
// plan's Check read them) that are aliases to the names of their
// parameters. When one parameter is sent under more than one name, the
// member sent under the parameter's own name is kept (else the first),
// the others are left out, and the names are reported. Arguments using no
// alias come back as they are; when read, called with each member left
// out, says the binder does not read one, args come back as they are,
// with false.
//
// keys, when not nil, gets the key each member of the result was sent
// under, in order: its members are the call's, some left out, none moved.
func renameAliases(args []byte, ms *bindcap.Members, plan *bind.Plan, aliases map[string]string, read func(bindcap.Member) bool, keys *[][]byte) ([]byte, []aliasConflict, bool) {
	if !usesAlias(args, ms, plan, aliases) {
		return args, nil, true
	}
	own := map[string]string{}     // each parameter with aliases, to itself
	encoded := map[string][]byte{} // its name as a JSON string
	for _, name := range aliases {
		own[name] = name
		encoded[name], _ = json.Marshal(name)
	}
	// paramOf returns the key's text and the parameter it stands for, or
	// "" when it stands for none with aliases. An escaped key's text is
	// written in scratch, which the next call overwrites: each caller is
	// done with key before it calls again, so that a call of many escaped
	// keys allocates no more than one.
	var scratch []byte
	paramOf := func(raw []byte) (key []byte, param string) {
		key = raw[1 : len(raw)-1]
		if slices.Contains(key, '\\') {
			scratch = appendKeyText(scratch[:0], raw)
			key = scratch
		}
		if name, ok := aliases[string(key)]; ok { // a lookup of a converted slice allocates nothing
			return key, name
		}
		return key, own[string(key)]
	}
	type sent struct {
		first string // the first name it was sent under
		own   bool   // sent under its own name
		names nameSet
	}
	bySent := map[string]*sent{}
	var order []string // parameters in the order first sent
	// The members are written renamed as they are read: when no parameter
	// is sent under more than one name, none is left out, and the call is
	// read once (eachMember past a cut list reads it again with the lexer,
	// each key's parameter not needed: plan nil).
	out := make([]byte, 0, len(args)+16)
	// write appends the member of key raw (read as key, binding param)
	// and value to out, under param's own name where it was sent under
	// another.
	write := func(raw, key, value []byte, param string) {
		if keys != nil {
			*keys = append(*keys, raw)
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		if param != "" && string(key) != param {
			out = append(out, encoded[param]...)
		} else {
			out = append(out, raw...)
		}
		out = append(out, ':')
		out = append(out, value...)
	}
	out = append(out, '{')
	for _, m := range eachMember(args, ms, nil) {
		raw, value := args[m.Key.Start:m.Key.End], args[m.Value.Start:m.Value.End]
		key, param := paramOf(raw)
		write(raw, key, value, param)
		if param == "" {
			continue
		}
		st := bySent[param]
		if st == nil {
			st = &sent{first: string(key)}
			bySent[param] = st
			order = append(order, param)
		}
		st.own = st.own || string(key) == param
		st.names.add(raw, key)
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
			conflicts = append(conflicts, aliasConflict{param: param, sent: st.names.listed, more: st.names.more, all: st.names.raws})
		}
	}
	// dropped reports a member left out: another name of a parameter sent
	// under more than one.
	dropped := func(m bindcap.Member) (key []byte, param string, drop bool) {
		key, param = paramOf(args[m.Key.Start:m.Key.End])
		return key, param, param != "" && string(key) != kept[param]
	}
	if len(conflicts) == 0 {
		return append(out, '}'), nil, true
	}
	if read != nil {
		for _, m := range eachMember(args, ms, nil) {
			if _, _, drop := dropped(m); drop && !read(m) {
				return args, nil, false
			}
		}
	}
	out = append(out[:0], '{')
	if keys != nil {
		*keys = (*keys)[:0]
	}
	keptValue := map[string][]byte{}
	for _, m := range eachMember(args, ms, nil) {
		key, param, drop := dropped(m)
		if drop {
			continue
		}
		raw, value := args[m.Key.Start:m.Key.End], args[m.Value.Start:m.Value.End]
		if param != "" {
			keptValue[param] = value
		}
		write(raw, key, value, param)
	}
	for i := range conflicts {
		conflicts[i].kept = keptValue[conflicts[i].param]
	}
	return append(out, '}'), conflicts, true
}

// usesAlias reports whether a top-level key of args (its members ms, as
// plan's Check read them) is one of aliases, allocating nothing for keys
// without escapes when the members were not cut.
func usesAlias(args []byte, ms *bindcap.Members, plan *bind.Plan, aliases map[string]string) bool {
	if !ms.Object {
		return false
	}
	if ms.Counted {
		return ms.Aliased // the pass read every key against the aliases
	}
	if ms.Cut {
		for _, m := range eachMember(args, ms, plan) {
			if isAlias(args[m.Key.Start:m.Key.End], aliases) {
				return true
			}
		}
		return false
	}
	for i := range ms.Len() {
		if isAlias(args[ms.At(i).Key.Start:ms.At(i).Key.End], aliases) {
			return true
		}
	}
	return false
}

// isAlias reports whether the key raw (as sent, quoted) is one of aliases,
// as the pass reads it (bindcap.TopKeys.IsAlias): allocating nothing.
func isAlias(raw []byte, aliases map[string]string) bool {
	tk := bindcap.NewTopKeys(nil, aliases)
	return tk.IsAlias(raw)
}

func (b *problems) conflicts(cs []aliasConflict) {
	for _, c := range cs {
		i := slices.Index(b.t.Accepted(), c.param)
		if !b.claim(i) {
			continue
		}
		p := recParams(b.t)[i]
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
		pr := Problem{Code: AliasConflict, Argument: p.Name, Takes: b.w.param(i), Sent: sent}
		if c.kept != nil {
			pr.Becomes = quoteSent(c.kept)
		}
		b.add(pr)
	}
}

// foldConflicts finds, in a call the binder reads (issues has no failure),
// each parameter bound by top-level members (ms, as Check read them) under
// more than one key text: its name and a key the binder folds to it (HOURS
// for hours), or two such keys. The call's text holds them under several
// names, where a handler reading the arguments as a map (mcp-go's
// GetArguments) or as raw JSON would not find the value the binder reads.
// So the result names each such parameter once, by its name, with the
// value the binder reads, and reports it as an alias conflict. The binder
// reads each member into the same place in turn (see lastWins): where that
// leaves the value of one member alone, the result keeps that one member,
// and the conflict quotes it; elsewhere (a struct, a map, a list, a type's
// own decoder: each value may merge into the one before) it keeps every
// member, in order, each under the parameter's name, which the binder
// reads as it read the call. A call with no such parameter comes back as
// it is, with nil, allocating nothing. Which key binds which parameter,
// and whether by folding, is the plan's to say (encoding/json folds the
// case of any key, V2 only keys of case:ignore fields, and fails on a
// second one, segmentio as go-sdk sets it none), never derived here.
//
// sent, where args renames a call's aliases, is the call as sent: the
// names a conflict lists are the keys each member of args was sent under
// (sentKeysOf: an alias, not the name it was renamed to).
func foldConflicts(t *typereg.Tool, args, sent []byte, ms *bindcap.Members, issues []bind.Issue) ([]byte, []aliasConflict) {
	// Only a parameter with a member sent under a key it folds to can be
	// sent under two texts (args has its aliases renamed), and each such
	// parameter has its first top-level FoldedKey listed (bind's tally):
	// the others' members are passed over.
	var folded []bool
	for _, is := range issues {
		if is.Kind.Class() == bind.BinderFailure {
			return args, nil
		}
		if is.Kind == bind.FoldedKey && is.Path.String() == "" && is.Param >= 0 && is.Param < len(recParams(t)) {
			if folded == nil {
				folded = make([]bool, len(recParams(t)))
			}
			folded[is.Param] = true
		}
	}
	if folded == nil || !ms.Object {
		return args, nil
	}
	type bound struct {
		names nameSet
		read  int // the member whose value the binder reads alone, or -1: every member is kept (see lastWins)
	}
	params := map[int]*bound{}
	rules := rulesOf(t)
	var order []int
	var scratch []byte // an escaped key's text
	var sentKeys [][]byte
	if sent != nil {
		sentKeys = sentKeysOf(t, sent)
	}
	for k, m := range eachMember(args, ms, t.Plan()) {
		param := m.Binds()
		if param < 0 || param >= len(recParams(t)) || !folded[param] {
			continue
		}
		b := params[param]
		if b == nil {
			b = &bound{}
			params[param] = b
			order = append(order, param)
		}
		raw := args[m.Key.Start:m.Key.End]
		text := raw[1 : len(raw)-1]
		if slices.Contains(text, '\\') {
			scratch = appendKeyText(scratch[:0], raw) // nameSet.add copies what it keeps
			text = scratch
		}
		if k < len(sentKeys) {
			raw = sentKeys[k] // listed as sent; told apart by the text read
		}
		b.names.add(raw, text)
	}
	var conflicts []aliasConflict
	for _, i := range order {
		if !params[i].names.texts {
			delete(params, i)
		}
	}
	if len(params) == 0 {
		return args, nil
	}
	last, nonNull := readMembers(t, args, ms, rules)
	for i, b := range params {
		b.read = rules.readAlone(i, last[i], nonNull[i])
	}
	out := make([]byte, 0, len(args)+16)
	out = append(out, '{')
	kept := map[int][]byte{}
	for k, m := range eachMember(args, ms, t.Plan()) {
		param := m.Binds()
		b := params[param]
		if param >= 0 && b != nil && b.read >= 0 && k != b.read {
			continue // a member whose value the binder does not keep
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		value := args[m.Value.Start:m.Value.End]
		if param >= 0 && b != nil {
			name, _ := json.Marshal(recParams(t)[param].Name)
			out = append(out, name...)
			if b.read >= 0 {
				kept[param] = value
			}
		} else {
			out = append(out, args[m.Key.Start:m.Key.End]...)
		}
		out = append(out, ':')
		out = append(out, value...)
	}
	for _, i := range order {
		if b := params[i]; b != nil {
			conflicts = append(conflicts, aliasConflict{param: recParams(t)[i].Name, sent: b.names.listed, more: b.names.more, all: b.names.raws, kept: kept[i]})
		}
	}
	return append(out, '}'), conflicts
}

// nullRepeats returns args, a call the binder reads (its members ms), with
// each parameter the binder reads a null for as nothing (a true or false,
// number or string: see lastWins), sent under one key more than once with
// a null after its value, reduced to the member whose value it reads:
// {"n":5,"n":null} goes on as {"n":5}, which the binder reads alike, so
// that a map of the arguments (mcp-go's GetArguments) holds 5 too, not
// null. Other calls come back as they are.
func nullRepeats(t *typereg.Tool, args []byte, ms *bindcap.Members) []byte {
	rules := rulesOf(t)
	last, value := readMembers(t, args, ms, rules)
	read := make([]int, len(last)) // per parameter: the member read alone, or -1
	drop := false
	for i := range last {
		read[i] = rules.readAlone(i, last[i], value[i])
		drop = drop || read[i] >= 0 && read[i] != last[i] // a null after the value read: it leaves it
	}
	if !drop {
		return args
	}
	out := make([]byte, 0, len(args))
	out = append(out, '{')
	for k, m := range eachMember(args, ms, t.Plan()) {
		if i := m.Binds(); i >= 0 && i < len(read) && read[i] != k {
			if one, nullKept := rules.lastWins(i); one && !nullKept {
				continue // a member whose value the binder does not read
			}
		}
		if len(out) > 1 {
			out = append(out, ',')
		}
		out = append(out, args[m.Key.Start:m.Key.End]...)
		out = append(out, ':')
		out = append(out, args[m.Value.Start:m.Value.End]...)
	}
	return append(out, '}')
}

// paramRules holds, per parameter of a tool, how the binder reads its type
// sent more than once (lastWins, nullLeaves), asked of reflection once per
// tool record (derivedOf), not per call.
type paramRules struct {
	rules []uint8 // per parameter: the rules that hold
}

const (
	ruleOne uint8 = 1 << iota
	ruleNullKept
	ruleNullLeaves
	ruleQuoted // the parameter has the ,string option
)

func rulesOf(t *typereg.Tool) *paramRules { return &paramRules{rules: derivedOf(t).Rules} }

// paramRulesOf returns the rules of parameter p.
func paramRulesOf(p *typereg.Param) uint8 {
	typ := p.Type
	var m uint8
	if p.Quoted {
		m |= ruleQuoted
	}
	if one, nullKept := lastWins(typ); one {
		m |= ruleOne
		if nullKept {
			m |= ruleNullKept
		}
	}
	if nullLeaves(typ) {
		m |= ruleNullLeaves
	}
	return m
}

func (r *paramRules) get(i int) uint8 { return r.rules[i] }

// readAlone is, of the members sent for parameter i (the last of them,
// last, and the last whose value is not null, value; -1 for none), the one
// whose value the binder reads alone (see lastWins), or -1 where values
// merge.
func (r *paramRules) readAlone(i, last, value int) int {
	one, nullKept := r.lastWins(i)
	switch {
	case !one:
		return -1
	case !nullKept && value >= 0:
		return value // null leaves the value before it
	}
	return last
}

// readMembers returns, per parameter of t, the index (in eachMember's
// order) of the last member of args bound to it, and of the last whose
// value is not null (rules.null); -1 for none. It is what each question of
// which member the binder reads starts from (readAlone, nullLeaves).
func readMembers(t *typereg.Tool, args []byte, ms *bindcap.Members, rules *paramRules) (last, value []int) {
	n := len(recParams(t))
	last, value = make([]int, n), make([]int, n)
	for i := range n {
		last[i], value[i] = -1, -1
	}
	for k, m := range eachMember(args, ms, t.Plan()) {
		if i := m.Binds(); i >= 0 && i < n {
			last[i] = k
			if !rules.null(i, args[m.Value.Start:m.Value.End]) {
				value[i] = k
			}
		}
	}
	return last, value
}

// lastWins is lastWins of parameter i's type.
func (r *paramRules) lastWins(i int) (one, nullKept bool) {
	m := r.get(i)
	return m&ruleOne != 0, m&ruleNullKept != 0
}

// nullLeaves is nullLeaves of parameter i's type.
func (r *paramRules) nullLeaves(i int) bool { return r.get(i)&ruleNullLeaves != 0 }

// null reports whether the binder reads value v of parameter i as null:
// null, or, under the ,string option, the string "null", which
// encoding/json and segmentio read as null too.
func (r *paramRules) null(i int, v []byte) bool {
	return v[0] == 'n' || r.rules[i]&ruleQuoted != 0 && string(v) == `"null"`
}

// lastWins reports whether the binder (encoding/json, whose calls alone
// have fold conflicts, and segmentio, for a key sent twice: see readOf)
// reads a value of type t sent under several keys as the last of them
// alone: one true or false, number or string (a
// null leaves the value before it, so the last that is not null: nullKept
// false), an empty interface, or a pointer to one of them (null sets it
// nil: nullKept true). A struct or a map reads each object's members into
// the one before, a list each element into the one before it, and a type
// with its own UnmarshalJSON or UnmarshalText does what it does: none of
// them is the last value alone.
func lastWins(t reflect.Type) (one, nullKept bool) {
	for {
		if ownDecoder(t) {
			return false, false
		}
		if t.Kind() != reflect.Pointer {
			break
		}
		if nullKept {
			// A pointer to a pointer: segmentio decodes a null into the
			// inner pointer where the outer one is set, and leaves the
			// outer one (encoding/json clears it): not one rule.
			return false, false
		}
		t, nullKept = t.Elem(), true
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true, nullKept
	case reflect.Interface:
		return t.NumMethod() == 0, true
	}
	return false, false
}

// ownDecoder reports whether t or *t has an UnmarshalJSON or an
// UnmarshalText method.
func ownDecoder(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return t.Implements(unmarshalerType) || pt.Implements(unmarshalerType) ||
		t.Implements(textUnmarshalerType) || pt.Implements(textUnmarshalerType)
}
