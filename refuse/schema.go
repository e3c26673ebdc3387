package refuse

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/schemacheck"
	"github.com/bindguard/bindguard/typereg"
)

// A tool recorded from its published schema (typereg.RegisterSchema) is
// decided here: its arguments are read as the map reader reads them, and
// each value is held to the schema. The policies are a struct tool's: the
// map reader's failures (text that is not JSON or not an object, nesting
// past encoding/json's limit, a number past float64's range) refuse in
// every mode but Off; what the schema refuses (a type, enum or const, a
// bound, a length or pattern, a size, a required member, a member
// additionalProperties refuses) is a policy problem, refused under Reject
// and a warning under Warn, since the map reader reads it and the handler
// may too; silent losses (a repeated key, a whole number float64 rounds,
// text with invalid UTF-8, a key at a root the schema leaves open that
// names no parameter) are warnings unless Strict.

// A schema tool's issues come from schemacheck in the module's codes
// (bind.Code), each with its class (schemacheck.Issue.Class): its code's,
// except that every verdict of the schema is the tool's policy, as a
// validate tag's breach is, and a key the open root holds is a loss. They
// are ordered as a struct tool's problems are (rankIn), and worded as
// them.

func decideSchema(t *typereg.Tool, ps *schemacheck.Schema, args json.RawMessage) Decision {
	pol := recPolicy(t)
	warn := pol.Mode == typereg.Warn
	res := ps.Check(args)
	if len(res.Issues) == 0 && res.Omitted == (schemacheck.Counts{}) {
		return Decision{Args: args}
	}
	issues := slices.DeleteFunc(res.Issues, func(is schemacheck.Issue) bool {
		if is.Param >= 0 || is.Path.Inside() || !is.InKey {
			return false
		}
		// The root left open by the schema is closed by the policy, unless
		// the tool is open; an exempt key passes either way.
		return is.Code == UnknownArgument &&
			(is.Class() == bind.SilentLoss && pol.Open || len(pol.Exempt) > 0 && exempt(pol.Exempt, args[is.Start:is.End]))
	})
	// By rank, and in a rank the parameters' before the keys' no property
	// names (each a problem of its own, named as sent): a flood of such
	// keys pushes no parameter's problem past MaxProblems, as unknown keys
	// come last for a struct tool.
	keyOf := func(is schemacheck.Issue) int {
		if is.Param < 0 && is.KeyEnd > 0 {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(issues, func(a, b schemacheck.Issue) int {
		return cmp.Or(cmp.Compare(rankIn(a.Class(), a.Code), rankIn(b.Class(), b.Code)), cmp.Compare(keyOf(a), keyOf(b)))
	})
	// What Check only counted (past schemacheck.MaxIssues) lies in an
	// argument with an issue of its class listed, or is an unknown key
	// past a thousand listed: it never decides alone, and it is judged as
	// the listed are.
	om := res.Omitted
	refuses := om[bind.BinderFailure] > 0 || !warn && (om[bind.PolicyProblem] > 0 || pol.Strict && om[bind.SilentLoss] > 0)
	for _, is := range issues {
		switch cl := is.Class(); {
		case cl == bind.BinderFailure:
			refuses = true
		case warn:
		case cl != bind.SilentLoss || pol.Strict:
			refuses = true
		}
	}
	b := &problems{t: t, args: args, claimed: paramSet{n: len(recParams(t))}}
	sw := schemaWords{root: ps.Root, exempt: pol.Exempt, intRead: ps.IntRead}
	// More counts problems: every argument with an issue has one listed
	// (the first of each rank, however many it has), so what Check only
	// counted adds none, but for the unknown keys past those listed, each
	// a problem of its own.
	if refuses && warn {
		issues = slices.DeleteFunc(issues, func(is schemacheck.Issue) bool { return is.Class() != bind.BinderFailure })
	} else {
		b.more += res.KeysPast
	}
	for _, is := range issues {
		sw.add(b, is)
	}
	if refuses {
		return Decision{Refusal: b.refusal()}
	}
	dec := Decision{Args: args}
	if len(b.list) > 0 || b.more > 0 {
		r := b.refusal()
		dec.Warnings = &Warnings{Tool: r.Tool, Accepted: r.Accepted, Problems: r.Problems, More: r.More}
	}
	return dec
}

// schemaWords words a schema tool's issues.
type schemaWords struct {
	root    *schemacheck.Node
	exempt  []string
	intRead []bool
	// keys holds where each top-level key no property names, whose value
	// a problem was named in, starts.
	keys map[int]bool
}

func (sw schemaWords) takesParam(i int) string {
	if i < 0 || i >= len(sw.root.Properties) {
		return ""
	}
	return schemaTakes(sw.root.Properties[i].Node)
}

// takesKey says what a top-level key no property names takes: the root's
// additionalProperties, unless the key is exempt (read against nothing).
func (sw schemaWords) takesKey(raw []byte) string {
	if sw.root.Additional == nil || sw.root.Closed || len(sw.exempt) > 0 && exempt(sw.exempt, raw) {
		return schemaTakes(nil)
	}
	return schemaTakes(sw.root.Additional)
}

func (sw *schemaWords) add(b *problems, is schemacheck.Issue) {
	args := b.args
	switch {
	case is.Code == InvalidJSON:
		b.add(Problem{Code: InvalidJSON, Takes: "a JSON object", Sent: syntaxSent(args, is.Start)})
		return
	case is.Code == TooDeep:
		b.add(Problem{Code: TooDeep})
		return
	case is.Code == NotAnObject:
		b.add(Problem{Code: NotAnObject, Takes: "a JSON object", Sent: quoteSent(args[is.Start:is.End])})
		return
	}
	var pr Problem
	switch {
	case is.Param >= 0:
		if !b.claim(is.Param) {
			return
		}
		pr = Problem{Argument: recParams(b.t)[is.Param].Name, Takes: sw.takesParam(is.Param)}
	case is.Code == UnknownArgument && is.InKey && !is.Path.Inside():
		b.unknownKey(is.Start, is.End)
		return
	case is.KeyEnd == 0:
		switch {
		case is.Code == MissingArgument:
			// A required name no property describes: it takes any value.
			b.add(Problem{Code: MissingArgument, Argument: quoteKey(mustQuote(is.Name)), Takes: "any JSON value"})
		case !is.Path.Inside():
			// A rule of the root's own (minProperties, maxProperties): the
			// arguments as a whole break it, and no one of them.
			b.add(Problem{Code: is.Code, Takes: "a JSON object" + countClause(u64(sw.root.MinProperties), u64(sw.root.MaxProperties), "argument"), Sent: quoteSent(args[is.Start:is.End])})
		}
		return
	default:
		// In the value of a top-level key no property names: the
		// additionalProperties the root reads it against, or nothing; a
		// problem of that key, named as sent (as an unknown key is), one
		// per key. Of a key named as unknown, only what the map reader
		// fails on: the value is one no parameter reads.
		if sw.keys[is.KeyStart] || is.Class() != bind.BinderFailure && is.InUnknown {
			return
		}
		if sw.keys == nil {
			sw.keys = map[int]bool{}
		}
		sw.keys[is.KeyStart] = true
		if b.full() {
			b.more++ // counted, unworded: a call may hold a great many such keys
			return
		}
		key := args[is.KeyStart:is.KeyEnd]
		pr = Problem{Argument: quoteKey(key), Takes: sw.takesKey(key)}
	}
	path := is.Path
	// A key inside an argument's value lies past the argument's key; a
	// top-level key (this member's, or one before it the member repeats)
	// does not, and its path is its own already.
	nestedKey := is.InKey && is.Start > is.KeyEnd
	if nestedKey {
		path = path.Key(args[is.Start:is.End]) // the pointer leads to the key's member
	}
	pr.Path, pr.Pointer, pr.Code = path.String(), path.Pointer(), is.Code
	switch is.Code {
	case MissingArgument:
		pr.Pointer = ""
		b.add(pr)
		return
	case MissingField:
		pr.Element = strconv.Quote(is.Name)
		field := is.Path.Name(is.Name)
		pr.Path, pr.Pointer = field.String(), field.Pointer()
		pr.Sent = quoteSent(memberOf(args, is))
		b.add(pr)
		return
	case UnknownField:
		pr.Element = quoteSent(args[is.Start:is.End])
		pr.Sent = quoteSent(memberOf(args, is))
		b.add(pr)
		return
	case DuplicateKey:
		pr.Sent = quoteSent(args[is.Start:is.End])
		b.add(pr)
		return
	}
	pr.Sent = quoteSent(args[is.Start:is.End])
	switch is.Code {
	case RoundedNumber:
		var f float64
		if json.Unmarshal(args[is.Start:is.End], &f) != nil {
			break
		}
		if is.Param >= 0 && is.Param < len(sw.intRead) && sw.intRead[is.Param] && !is.Path.Inside() {
			// An int accessor reads it (Schema.IntRead): truncated.
			if f < 1<<63 && f >= -(1<<63) {
				pr.Becomes = strconv.FormatInt(int64(f), 10)
			}
			break
		}
		out, _ := json.Marshal(f)
		pr.Becomes = quoteSent(out)
	case ReplacedText:
		var s string
		if json.Unmarshal(args[is.Start:is.End], &s) == nil {
			out, _ := json.Marshal(s)
			pr.Becomes = quoteSent(out)
		}
	}
	if nestedKey {
		pr.Path = path.String() // a key in the argument's value: named at its member, as a struct tool's is
	}
	if is.Path.Inside() || nestedKey {
		if whole := memberOf(args, is); whole != nil && len(whole) != is.End-is.Start {
			pr.Element, pr.Sent = pr.Sent, quoteSent(whole)
		}
	}
	b.add(pr)
}

// memberOf returns the value of the top-level member issue is lies in,
// read from its key (KeyStart..KeyEnd; nil for none): in time of its own
// value, however many members the call has (memberValue reads the members
// past the first bindcap.MaxMembers from the start, once per problem, and
// a call may hold a great many keys that are each a problem).
func memberOf(args []byte, is schemacheck.Issue) []byte {
	if is.KeyEnd == 0 {
		return nil
	}
	vs, ok := jsonlex.Colon(args, is.KeyEnd)
	if !ok {
		return nil
	}
	ve, err := jsonlex.Skip(args, vs, jsonlex.MaxDepth)
	if err != nil {
		return nil
	}
	return args[vs:ve]
}

func mustQuote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// schemaTakes says what a value of schema n takes, in the singular, with
// its bounds, lengths and values, as words.limited does for a struct
// tool's parameter.
func schemaTakes(n *schemacheck.Node) string {
	one, _ := nodeWords(n, nil)
	return one
}

func nodeWords(n *schemacheck.Node, within []*schemacheck.Node) (one, many string) {
	if n == nil {
		return "any JSON value", "JSON values"
	}
	for hops := 0; n.Ref != nil && hops < 64; hops++ {
		n = n.Ref // the type beside a $ref is the named schema's, or narrower
	}
	if slices.Contains(within, n) {
		return "a value of the same shape", "values of the same shape"
	}
	within = append(within[:len(within):len(within)], n)
	if n.False {
		return "no value", "no values"
	}
	if n.AnyOf != nil {
		var ones, manys []string
		for _, b := range n.AnyOf {
			o, m := nodeWords(b, within)
			ones, manys = append(ones, o), append(manys, m)
		}
		return strings.Join(ones, " or "), strings.Join(manys, " or ")
	}
	if n.AllOf != nil || n.Some != nil || n.Not != nil || n.If != nil {
		return branchWords(n, within)
	}
	if len(n.Enum) > 0 {
		var vs []string
		for _, v := range n.Enum {
			vs = append(vs, enumValueWord(v))
		}
		if n.Const {
			return "exactly " + vs[0], "values, each exactly " + vs[0]
		}
		list := strings.Join(vs, ", ")
		return "one of " + list, "values, each one of " + list
	}
	if n.Types == schemacheck.AnyType && !hasRulesWorded(n) {
		return "any JSON value", "JSON values"
	}
	var ones, manys []string
	for _, tn := range schemacheck.TypeNames(n.Types) {
		o, m := typeWords(n, tn, within)
		ones, manys = append(ones, o), append(manys, m)
	}
	return strings.Join(ones, " or "), strings.Join(manys, " or ")
}

// branchWords words a node with allOf, anyOf or oneOf read per branch,
// not or if: its own words (none where it takes any value), then each
// keyword's: "and" before each allOf branch that says more than "any JSON
// value", the branches of anyOf joined by "or", of oneOf after "exactly
// one of", "but not" before not's, and if/then/else in parentheses.
func branchWords(n *schemacheck.Node, within []*schemacheck.Node) (one, many string) {
	own := *n
	own.AllOf, own.Some, own.Not, own.If, own.Then, own.Else = nil, nil, nil, nil, nil, nil
	one, many = nodeWords(&own, within)
	if one == "any JSON value" {
		one, many = "", ""
	}
	join := func(sep, o, m string) {
		if one == "" {
			one, many = o, m
			return
		}
		one, many = one+sep+o, many+sep+m
	}
	words := func(b *schemacheck.Node, ctx schemacheck.Types) (string, string) {
		return nodeWords(narrow(b, ctx), within)
	}
	for _, b := range n.AllOf {
		if o, m := words(b, n.Types); o != "any JSON value" {
			join(", and ", o, m)
		}
	}
	if n.Some != nil {
		var ones, manys []string
		for _, b := range n.Some {
			o, m := words(b, n.Types)
			ones, manys = append(ones, o), append(manys, m)
		}
		o, m := strings.Join(ones, " or "), strings.Join(manys, " or ")
		if n.SomeOne {
			o, m = "exactly one of: "+strings.Join(ones, "; "), "values, each exactly one of: "+strings.Join(manys, "; ")
		}
		join(", and ", o, m)
	}
	if one == "" {
		one, many = "any JSON value", "JSON values"
	}
	if n.Not != nil {
		o, m := words(n.Not, n.Types)
		one, many = one+" but not "+o, many+" but not "+m
	}
	if n.If != nil {
		o, _ := words(n.If, n.Types)
		cond := " (if " + o
		if n.Then != nil {
			t, _ := words(n.Then, narrow(n.If, n.Types).Types)
			cond += ", then " + t
		}
		if n.Else != nil {
			e, _ := words(n.Else, n.Types)
			cond += ", else " + e
		}
		one, many = one+cond+")", many+cond+")"
	}
	return one, many
}

// narrow returns branch b as worded where a value of types ctx is read:
// a branch without a type of its own takes the types ctx names, or else
// those its rules apply to (numbers for a bound, text for a length).
func narrow(b *schemacheck.Node, ctx schemacheck.Types) *schemacheck.Node {
	if b == nil || b.Types != schemacheck.AnyType || b.Ref != nil || b.AnyOf != nil {
		return b
	}
	t := ctx
	if t == schemacheck.AnyType {
		t = 0
		if b.Minimum != nil || b.Maximum != nil || b.ExclusiveMinimum != nil || b.ExclusiveMaximum != nil || b.MultipleOf != nil {
			t |= schemacheck.Number | schemacheck.Integer
		}
		if b.MinLength != nil || b.MaxLength != nil || b.Pattern != nil {
			t |= schemacheck.String
		}
		if b.Items != nil || b.Prefix != nil || b.MinItems != nil || b.MaxItems != nil || b.Unique || b.Contains != nil {
			t |= schemacheck.Array
		}
		if b.Properties != nil || b.Additional != nil || b.Closed || b.MinProperties != nil || b.MaxProperties != nil ||
			b.Patterns != nil || b.PropertyNames != nil || b.DependentRequired != nil || b.DependentSchemas != nil {
			t |= schemacheck.Object
		}
		if t == 0 {
			return b
		}
	}
	c := *b
	c.Types = t
	return &c
}

// nodeRuled reports whether schema n, or one inside it, holds a rule the
// words state (a bound, a length, a pattern, a size, values, branches,
// false): what a property's words add beside its name. It reads at most 64
// schemas (budget counts them), and past them reports true.
func nodeRuled(n *schemacheck.Node, budget *int) bool {
	for hops := 0; n != nil && n.Ref != nil && hops < 64; hops++ {
		n = n.Ref
	}
	if n == nil {
		return false
	}
	if *budget++; *budget > 64 {
		return true
	}
	if n.False || len(n.Enum) > 0 || n.AnyOf != nil || n.AllOf != nil || n.Some != nil || n.Not != nil || n.If != nil ||
		n.Minimum != nil || n.Maximum != nil || n.ExclusiveMinimum != nil || n.ExclusiveMaximum != nil || n.MultipleOf != nil ||
		n.MinLength != nil || n.MaxLength != nil || n.Pattern != nil || n.MinItems != nil || n.MaxItems != nil || n.Unique ||
		n.Contains != nil || n.Prefix != nil || n.MinProperties != nil || n.MaxProperties != nil || n.PropertyNames != nil || n.Patterns != nil {
		return true
	}
	if nodeRuled(n.Items, budget) || nodeRuled(n.Additional, budget) {
		return true
	}
	for _, p := range n.Properties {
		if nodeRuled(p.Node, budget) {
			return true
		}
	}
	return false
}

func hasRulesWorded(n *schemacheck.Node) bool {
	return n.Minimum != nil || n.Maximum != nil || n.ExclusiveMinimum != nil || n.ExclusiveMaximum != nil ||
		n.MultipleOf != nil || n.MinLength != nil || n.MaxLength != nil || n.Pattern != nil || n.Items != nil || n.Unique ||
		n.MinItems != nil || n.MaxItems != nil || n.Properties != nil || n.Additional != nil || n.Closed || n.AnyOf != nil
}

func typeWords(n *schemacheck.Node, tn string, within []*schemacheck.Node) (one, many string) {
	switch tn {
	case "integer", "number":
		one, many = "a whole number", "whole numbers"
		if tn == "number" {
			one, many = "a number", "numbers"
		}
		if c := numberLimits(n); c != "" {
			one, many = one+" "+c, many+" "+c
		}
		return one, many
	case "string":
		one, many = "text", "texts"
		if n.Pattern != nil {
			one, many = "text matching the pattern "+n.Pattern.String(), "texts matching the pattern "+n.Pattern.String()
		}
		if c := lengthLimits(n); c != "" {
			one, many = one+" "+c, many+" "+c
		}
		return one, many
	case "boolean":
		return "true or false", "true or false values"
	case "null":
		return "null", "nulls"
	case "array":
		_, elems := nodeWords(n.Items, within)
		if n.Prefix != nil {
			var firsts []string
			for _, p := range n.Prefix {
				o, _ := nodeWords(p, within)
				firsts = append(firsts, o)
			}
			elems = "values starting with " + strings.Join(firsts, ", ") + ", then " + elems
		}
		count := countClause(u64(n.MinItems), u64(n.MaxItems), "element")
		if n.Unique {
			count += ", no two equal"
		}
		if n.Contains != nil {
			o, _ := nodeWords(narrow(n.Contains, schemacheck.AnyType), within)
			least := 1
			if n.MinContains != nil {
				least = *n.MinContains
			}
			switch {
			case least > 0 && n.MaxContains != nil:
				count += fmt.Sprintf(", at least %d and at most %d of them %s", least, *n.MaxContains, o)
			case least > 0:
				count += fmt.Sprintf(", at least %d of them %s", least, o)
			case n.MaxContains != nil:
				count += fmt.Sprintf(", at most %d of them %s", *n.MaxContains, o)
			}
		}
		return "a list (a JSON array) of " + elems + count, "lists (JSON arrays) of " + elems + count
	}
	// object
	count := countClause(u64(n.MinProperties), u64(n.MaxProperties), "key")
	if n.PropertyNames != nil {
		o, _ := nodeWords(narrow(n.PropertyNames, schemacheck.String), within)
		count += ", each key " + o
	}
	for _, p := range n.Patterns {
		_, vals := nodeWords(p.Node, within)
		count += ", keys matching " + p.Re.String() + " holding " + vals
	}
	if len(n.Properties) > 0 {
		names := make([]string, len(n.Properties))
		for i, p := range n.Properties {
			names[i] = p.Name
			if nodeRuled(p.Node, new(int)) {
				// The property's own rule, so that a refusal of a value
				// inside the argument says which one it broke.
				o, _ := nodeWords(p.Node, within)
				names[i] += " (" + o + ")"
			}
		}
		f := strings.Join(names, ", ")
		return "an object with fields " + f + count, "objects with fields " + f + count
	}
	if n.Additional != nil {
		_, vals := nodeWords(n.Additional, within)
		return "an object whose values are " + vals + count, "objects whose values are " + vals + count
	}
	return "an object" + count, "objects" + count
}

func u64(p *int) *uint64 {
	if p == nil {
		return nil
	}
	v := uint64(*p)
	return &v
}

func numberLimits(n *schemacheck.Node) string {
	var parts []string
	switch {
	case n.Minimum != nil && n.Maximum != nil:
		parts = append(parts, "from "+n.Minimum.Text+" to "+n.Maximum.Text)
	case n.Minimum != nil:
		parts = append(parts, "at least "+n.Minimum.Text)
	case n.Maximum != nil:
		parts = append(parts, "at most "+n.Maximum.Text)
	}
	if n.ExclusiveMinimum != nil {
		parts = append(parts, "greater than "+n.ExclusiveMinimum.Text)
	}
	if n.ExclusiveMaximum != nil {
		parts = append(parts, "less than "+n.ExclusiveMaximum.Text)
	}
	if n.MultipleOf != nil {
		parts = append(parts, "a multiple of "+n.MultipleOf.Text)
	}
	c := strings.Join(parts, " and ")
	if strings.HasPrefix(c, "at ") {
		c = "of " + c
	}
	if strings.HasPrefix(c, "a multiple") {
		c = "that is " + c
	}
	return c
}

func lengthLimits(n *schemacheck.Node) string {
	switch {
	case n.MinLength != nil && n.MaxLength != nil && *n.MinLength == *n.MaxLength:
		return "of exactly " + plural(uint64(*n.MinLength), "character")
	case n.MinLength != nil && n.MaxLength != nil:
		return "of " + strconv.Itoa(*n.MinLength) + " to " + plural(uint64(*n.MaxLength), "character")
	case n.MinLength != nil:
		return "of at least " + plural(uint64(*n.MinLength), "character")
	case n.MaxLength != nil:
		return "of at most " + plural(uint64(*n.MaxLength), "character")
	}
	return ""
}

func enumValueWord(v schemacheck.Value) string {
	switch v.Kind {
	case schemacheck.Null:
		return "null"
	case schemacheck.Boolean:
		return strconv.FormatBool(v.Bool)
	case schemacheck.Number:
		return strconv.FormatFloat(v.Num, 'f', -1, 64)
	case schemacheck.Array, schemacheck.Object:
		out, _ := json.Marshal(v.JSON)
		return string(out)
	}
	return v.Text
}
