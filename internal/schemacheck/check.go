package schemacheck

import (
	"encoding/binary"
	"encoding/json"
	"hash/maphash"
	"math"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/jsonlex"
	"github.com/bindguard/bindguard/internal/jsonpath"
)

// An Issue is one thing wrong with the arguments.
type Issue struct {
	// Code names what is wrong, in the module's one taxonomy (bind.Code),
	// as refuse publishes it: the map reader's failures (InvalidJSON,
	// TooDeep, NotAnObject, TooLarge and TooSmall for a number past
	// float64's range); the schema's verdicts (WrongType for a type,
	// NotWholeNumber for a fraction where it takes integers only, NotOneOf
	// for enum and const, MissingArgument and MissingField for required,
	// UnknownArgument and UnknownField for a member additionalProperties
	// false refuses, Constraint for every other rule: a bound, a length, a
	// pattern, a size, uniqueItems, false, not, a second branch of oneOf);
	// and the silent losses (DuplicateKey: Start..End the earlier key,
	// whose value is dropped; RoundedNumber for a whole number float64
	// cannot hold exactly, or a number an int accessor truncates, see
	// Schema.IntRead; ReplacedText; and UnknownArgument for a root member
	// no property names where the schema leaves the root open: the map
	// holds it and the handler reads no parameter from it, a misspelt name
	// most often, so the guard's policy closes the root there;
	// Schema.OpenRoot lets it through). What the issue means for the call
	// is its Class.
	Code bind.Code
	// Keyword is the schema keyword the value breaks ("type", "enum",
	// "maximum", "required", "additionalProperties"...), set exactly for
	// the schema's verdicts: "" for the map reader's failures and losses.
	Keyword string
	// Param is the index, in Root.Properties, of the top-level member the
	// issue lies in; -1 for none (an unknown top-level key, the text as a
	// whole).
	Param int
	// Start and End span the offending text (see Code): for a member's
	// key, the key; for a member left out, the object.
	Start, End int
	// KeyStart and KeyEnd span the key of the top-level member the issue
	// lies in (both 0 for none: the text as a whole, a parameter left
	// out).
	KeyStart, KeyEnd int
	// Path leads from the arguments to the offending value (for an issue
	// with a member's key, InKey, to the object holding it), as package
	// bind's paths do: its String from the member's value in ("[2]",
	// ".name", `["odd key"]`), its Pointer from the root, starting at the
	// member's key.
	Path jsonpath.Path
	// InKey reports an issue with a member's key (UnknownArgument,
	// UnknownField and DuplicateKey always, ReplacedText for a key):
	// Start..End span the key.
	InKey bool
	// InUnknown reports an issue in a top-level member whose key is named
	// as unknown (its UnknownArgument, listed or counted, is not this
	// one): the key is the member's problem, and what else lies in it is
	// none of its own, but for what the map reader fails on.
	InUnknown bool
	// Name names the member MissingArgument or MissingField reports.
	Name string
	// Node is the schema of the offending value; nil for none.
	Node *Node
}

// Class is what the issue means for the call, for the guard's policy as
// for a struct tool's: BinderFailure for what the map reader itself fails
// on, refused in every mode but Off; PolicyProblem for every verdict of
// the schema (a Keyword), which the map reader reads and the handler may
// too, the schema being the tool's own rule as a validate tag is (so a
// type the schema refuses is WrongType, as the struct tools' binder words
// it, yet no binder failure); SilentLoss for what the map reader reads but
// changes or drops, the key an open root holds and no parameter reads
// among them.
func (is Issue) Class() bind.Class {
	switch {
	case is.Keyword != "":
		return bind.PolicyProblem
	case is.Code.Class() == bind.BinderFailure:
		return bind.BinderFailure
	}
	return bind.SilentLoss
}

// MaxIssues bounds the issues of each kind one Check lists: the map
// reader's failures, the unknown keys (UnknownArgument), the schema's
// other verdicts and the other losses, each apart, so that a flood of one
// pushes out no issue of another. Past it, Check still lists the first
// issue of each rank (a failure, a verdict of the schema, a repeated key,
// another loss: as a refusal ranks problems) in each argument, a
// top-level member (or, outside every member, the arguments as a whole),
// and every MissingArgument; it counts the rest (Result.Omitted). So every
// argument's problem is listed, however many issues another has: as
// package bind's Check lists them for a struct tool. An unknown key is no
// argument's: past MaxIssues of them, the rest are counted
// (Result.KeysPast), each a problem of its own.
const MaxIssues = 1000

// A Result is what Check found.
type Result struct {
	Issues []Issue
	// Omitted counts, per class (indexed by bind.Class), the issues found
	// and not listed (see MaxIssues). Each lies in an argument with an
	// issue of its class and rank listed, in a key whose UnknownArgument
	// is listed or counted, or is such an UnknownArgument (KeysPast).
	Omitted Counts
	// KeysPast counts the top-level keys named as unknown (UnknownArgument)
	// past the MaxIssues listed, among Omitted: each a key sent once, as
	// the map reader keeps it (a key sent again is counted once).
	KeysPast int
}

// Counts holds a count per class of issue, indexed by bind.Class (its
// zero index unused).
type Counts [bind.SilentLoss + 1]int

// A step is one step of a path: into an element (key < 0) or a member.
type step struct {
	index int
	key   []byte // the key token, quoted; nil for an element
}

// The kinds of issue Check bounds apart (see MaxIssues).
const (
	kindFail    = iota // what the map reader fails on
	kindUnknown        // UnknownArgument: a top-level key named as unknown
	kindPolicy         // the schema's other verdicts
	kindLoss           // the other losses
	numKinds
)

// kindOf returns the kind of issue is, of class cl.
func kindOf(is Issue, cl bind.Class) int {
	switch {
	case is.Code == bind.UnknownArgument:
		return kindUnknown
	case cl == bind.BinderFailure:
		return kindFail
	case cl == bind.PolicyProblem:
		return kindPolicy
	}
	return kindLoss
}

// firstBit is the bit of an argument's firsts (checker.firsts) that issue
// is, of class cl, sets: one per rank a refusal orders an argument's
// problems by (refuse's rankIn), so that an argument's problem, the first
// of its highest rank, is the one a call without a flood names.
func firstBit(is Issue, cl bind.Class) uint8 {
	switch {
	case cl == bind.BinderFailure:
		return 1
	case cl == bind.PolicyProblem:
		return 2
	case is.Code == bind.DuplicateKey:
		return 4
	}
	return 8
}

type checker struct {
	// reads counts the values read, for the tests of cost.
	reads int
	s     *Schema
	d     []byte
	pos   int
	res   Result
	// listed counts the issues listed, per kind (see MaxIssues).
	listed [numKinds]int
	// firsts holds a bit per rank (firstBit) the argument being read has
	// an issue of listed; inUnknown, that its key is named as unknown
	// (Issue.InUnknown): only its failures are its own.
	firsts    uint8
	inUnknown bool
	// dropping counts the members being read whose value the map reader
	// drops, a later member of the same key replacing it (superseded, from
	// a first reading): only the failures in them are found.
	dropping   int
	superseded map[int]bool
	// tookBack reports that dropped took back an issue listed; drops
	// holds where each member it took back the issues of starts.
	tookBack bool
	drops    []int
	steps    []step
	buf      []byte
	param    int
	arg      []byte // at the root, the key of the member being read
	argAt    int    // where arg starts in d
	// quiet counts the quiet trials being read (see try): within one,
	// issues are only counted, the schema's verdicts in quietFails.
	quiet, quietFails int
}

func (c *checker) add(is Issue) {
	cl := is.Class()
	if c.dropping > 0 && cl != bind.BinderFailure {
		return // in a value the map reader drops: only its failures stand (see dropped)
	}
	if c.quiet > 0 {
		if cl == bind.PolicyProblem {
			c.quietFails++
		}
		return
	}
	is.InUnknown = c.inUnknown && is.Code != bind.UnknownArgument
	if !c.admit(is, cl) {
		return
	}
	is.Param = c.param
	if c.arg != nil {
		is.KeyStart, is.KeyEnd = c.argAt, c.argAt+len(c.arg)
	}
	is.Path = c.path()
	c.res.Issues = append(c.res.Issues, is)
}

// admit reports whether issue is, of class cl, is listed: while its kind
// has fewer than MaxIssues listed, and past that the first of its rank in
// the argument being read, and a MissingArgument (one per required name
// the schema states, at most). An unknown key is no argument's, and in a
// member of one only a failure is. An issue not listed is counted.
func (c *checker) admit(is Issue, cl bind.Class) bool {
	k := kindOf(is, cl)
	var bit uint8
	if k != kindUnknown && (!is.InUnknown || cl == bind.BinderFailure) {
		bit = firstBit(is, cl)
	}
	if c.listed[k] < MaxIssues || c.firsts&bit == 0 && bit != 0 || is.Code == bind.MissingArgument {
		c.listed[k]++
		c.firsts |= bit
		return true
	}
	c.res.Omitted[cl]++
	if k == kindUnknown {
		c.res.KeysPast++
	}
	return false
}

// Check reads args as the map reader does and judges them against the
// schema. Empty args and null are an empty object. Its cost is linear in
// len(args): every byte is read once by the lexer (once more to check
// the text is valid JSON before anything is judged, as encoding/json
// does), and no value nests past jsonlex.MaxDepth; a call whose issues
// are counted past MaxIssues and that sends a key again in one object is
// read once more (see dropped).
func (s *Schema) Check(args []byte) Result {
	res, _ := s.check(args)
	return res
}

// check is Check, and how many values it read.
func (s *Schema) check(args []byte) (Result, int) {
	c := &checker{s: s, d: args, param: -1}
	res := c.run()
	if !c.tookBack || res.Omitted == (Counts{}) {
		return res, c.reads
	}
	// dropped took back issues listed of a member a later one replaced,
	// and some were counted: they may have been counted for a rank the
	// member had listed, or for room it took. Read again, the members
	// replaced known: their values' issues are dropped as found (only
	// their failures stand), so none takes room or a rank.
	again := &checker{s: s, d: args, param: -1, superseded: make(map[int]bool, len(c.drops)), reads: c.reads}
	for _, at := range c.drops {
		again.superseded[at] = true
	}
	return again.run(), again.reads
}

func (c *checker) run() Result {
	s, args := c.s, c.d
	i := jsonlex.Space(args, 0)
	if i == len(args) {
		c.rootEmpty(s.Root, i, i)
		return c.res
	}
	end, err := jsonlex.Skip(args, i, jsonlex.MaxDepth)
	if err == nil {
		if j := jsonlex.Space(args, end); j != len(args) {
			err = &jsonlex.SyntaxError{Offset: j}
		}
	}
	if err != nil {
		k := bind.InvalidJSON
		if err.Deep {
			k = bind.TooDeep
		}
		c.add(Issue{Code: k, Start: err.Offset, End: err.Offset})
		return c.res
	}
	switch jsonlex.KindAt(args, i) {
	case jsonlex.KindObject:
	case jsonlex.KindNull:
		c.rootEmpty(s.Root, i, end)
		return c.res
	default:
		c.add(Issue{Code: bind.NotAnObject, Start: i, End: end})
		return c.res
	}
	c.pos = i
	c.object(s.Root, true, s.Open)
	c.compact()
	return c.res
}

// rootMissing adds the required parameters has leaves out, each named as
// its parameter.
func (c *checker) rootMissing(n *Node, has map[string]bool, start, end int) {
	for _, r := range n.Required {
		if !has[r] {
			c.param = n.Property(r)
			c.add(Issue{Code: bind.MissingArgument, Keyword: "required", Start: start, End: end, Name: r, Node: n})
		}
	}
	c.param = -1
}

// rootEmpty judges arguments that are an empty object (empty args, null)
// against the root n: its required members are missing, and a root that
// must hold members holds too few.
func (c *checker) rootEmpty(n *Node, start, end int) {
	c.rootMissing(n, nil, start, end)
	if n.MinProperties != nil && *n.MinProperties > 0 {
		c.add(Issue{Code: bind.Constraint, Keyword: "minProperties", Start: start, End: end, Node: n})
	}
}

// missing adds the required members of n that have is not holding.
func (c *checker) missing(n *Node, has map[string]bool, start, end int) {
	for _, r := range n.Required {
		if !has[r] {
			c.add(Issue{Code: bind.MissingField, Keyword: "required", Start: start, End: end, Name: r, Node: n})
		}
	}
}

// typeOfValue returns the JSON Schema type of the value at d[i].
func (c *checker) value(n *Node) {
	d, i := c.d, c.pos
	c.reads++
	for hops := 0; n != nil && (n.Ref != nil || n.AnyOf != nil); hops++ {
		jt := c.typeAt(i)
		next := n.Ref
		if n.AnyOf != nil {
			next = nil
			for _, b := range n.AnyOf {
				if typeClass(branchTypes(b))&jt != 0 {
					next = b
					break
				}
			}
		}
		if n.Types&jt == 0 || next == nil || hops > maxRefs {
			kw := "type"
			if n.AnyOf != nil {
				kw = "anyOf"
				if n.OneOf {
					kw = "oneOf"
				}
			}
			end, _ := jsonlex.Skip(d, i, jsonlex.MaxDepth)
			c.add(Issue{Code: bind.WrongType, Keyword: kw, Start: i, End: end, Node: n})
			n = nil
			break
		}
		n = next
	}
	if n != nil && n.False {
		end, _ := jsonlex.Skip(d, i, jsonlex.MaxDepth)
		c.add(Issue{Code: bind.Constraint, Keyword: "false", Start: i, End: end, Node: n})
		c.skipChecked(i)
		return
	}
	if n != nil && rereads(n) {
		c.branches(n, i)
	}
	switch jsonlex.KindAt(d, i) {
	case jsonlex.KindObject:
		if n != nil && n.Types&Object == 0 {
			end, _ := jsonlex.Skip(d, i, jsonlex.MaxDepth)
			c.add(Issue{Code: bind.WrongType, Keyword: "type", Start: i, End: end, Node: n})
			n = nil
		} else if n != nil && n.Enum != nil && !c.inEnumJSON(n.Enum, Object, i) {
			end, _ := jsonlex.Skip(d, i, jsonlex.MaxDepth)
			c.add(Issue{Code: bind.NotOneOf, Keyword: enumWord(n), Start: i, End: end, Node: n})
			n = nil
		}
		c.object(n, false, false)
	case jsonlex.KindArray:
		if n != nil && n.Types&Array == 0 {
			end, _ := jsonlex.Skip(d, i, jsonlex.MaxDepth)
			c.add(Issue{Code: bind.WrongType, Keyword: "type", Start: i, End: end, Node: n})
			n = nil
		} else if n != nil && n.Enum != nil && !c.inEnumJSON(n.Enum, Array, i) {
			end, _ := jsonlex.Skip(d, i, jsonlex.MaxDepth)
			c.add(Issue{Code: bind.NotOneOf, Keyword: enumWord(n), Start: i, End: end, Node: n})
			n = nil
		}
		c.array(n)
	case jsonlex.KindString:
		end, f, _ := jsonlex.String(d, i)
		c.pos = end
		c.str(n, i, end, f)
	case jsonlex.KindTrue, jsonlex.KindFalse, jsonlex.KindNull:
		var end int
		var v Value
		switch jsonlex.KindAt(d, i) {
		case jsonlex.KindTrue:
			end, v = i+len("true"), Value{Kind: Boolean, Bool: true}
		case jsonlex.KindFalse:
			end, v = i+len("false"), Value{Kind: Boolean}
		default:
			end, v = i+len("null"), Value{Kind: Null}
		}
		c.pos = end
		if n == nil {
			return
		}
		if n.Types&v.Kind == 0 {
			c.add(Issue{Code: bind.WrongType, Keyword: "type", Start: i, End: end, Node: n})
			return
		}
		if n.Enum != nil && !inEnum(n.Enum, v) {
			c.add(Issue{Code: bind.NotOneOf, Keyword: enumWord(n), Start: i, End: end, Node: n})
		}
	default:
		end, num, _ := jsonlex.Number(d, i)
		c.pos = end
		c.number(n, i, end, num)
	}
}

// typeAt returns the type of the valid value at d[i]: Integer for a whole
// number (Number too, as "number" takes it), Number for a fraction.
func (c *checker) typeAt(i int) Types {
	switch jsonlex.KindAt(c.d, i) {
	case jsonlex.KindObject:
		return Object
	case jsonlex.KindArray:
		return Array
	case jsonlex.KindString:
		return String
	case jsonlex.KindTrue, jsonlex.KindFalse:
		return Boolean
	case jsonlex.KindNull:
		return Null
	}
	end, _, _ := jsonlex.Number(c.d, i)
	f, err := strconv.ParseFloat(string(c.d[i:end]), 64)
	if err != nil {
		return Number | Integer // the reader fails on it; the value's own check says so
	}
	if _, frac := math.Modf(f); frac == 0 {
		return Integer | Number
	}
	return Number
}

func enumWord(n *Node) string {
	if n.Const {
		return "const"
	}
	return "enum"
}

// inEnumJSON reports whether the valid array or object (kind) at d[i],
// as the map reader reads it into any, is one enum lists. Only then is
// it read into any: an enum of scalars takes none.
func (c *checker) inEnumJSON(enum []Value, kind Types, i int) bool {
	if !slices.ContainsFunc(enum, func(v Value) bool { return v.Kind == kind }) {
		return false
	}
	end, _ := jsonlex.Skip(c.d, i, jsonlex.MaxDepth)
	var v any
	if json.Unmarshal(c.d[i:end], &v) != nil {
		return false // the reader fails on it: the value's own read says so
	}
	for _, e := range enum {
		if e.Kind == kind && equalJSON(e.JSON, v) {
			return true
		}
	}
	return false
}

func inEnum(enum []Value, v Value) bool {
	for _, e := range enum {
		if e.Kind == v.Kind && e.Bool == v.Bool && e.Num == v.Num && e.Text == v.Text {
			return true
		}
	}
	return false
}

// skipChecked reads the valid value at d[i] with no schema: only what the
// map reader itself fails on or loses is found.
func (c *checker) skipChecked(i int) {
	c.pos = i
	c.value(nil)
}

func (c *checker) number(n *Node, start, end int, num jsonlex.Num) {
	f, err := strconv.ParseFloat(string(c.d[start:end]), 64) // as encoding/json reads a number into any
	if err != nil {
		code := bind.TooLarge
		if num.Neg {
			code = bind.TooSmall
		}
		c.add(Issue{Code: code, Start: start, End: end, Node: n})
		return
	}
	if !num.Frac && !num.Exp && num.Int.Len() > 15 && !exactInt(c.d[start:end], f) {
		defer c.add(Issue{Code: bind.RoundedNumber, Start: start, End: end, Node: n})
	}
	if n == nil {
		return
	}
	whole := false
	if _, frac := math.Modf(f); frac == 0 {
		whole = true
	}
	switch {
	case whole && n.Types&Integer == 0, !whole && n.Types&Number == 0 && n.Types&Integer == 0:
		c.add(Issue{Code: bind.WrongType, Keyword: "type", Start: start, End: end, Node: n})
		return
	case !whole && n.Types&Number == 0:
		c.add(Issue{Code: bind.NotWholeNumber, Keyword: "type", Start: start, End: end, Node: n})
		return
	}
	if n.Enum != nil && !inEnum(n.Enum, Value{Kind: Number, Num: f}) {
		c.add(Issue{Code: bind.NotOneOf, Keyword: enumWord(n), Start: start, End: end, Node: n})
		return
	}
	kw := ""
	switch {
	case n.MultipleOf != nil && func() bool { _, fr := math.Modf(f / n.MultipleOf.Value); return fr != 0 }():
		kw = "multipleOf"
	case n.Minimum != nil && f < n.Minimum.Value:
		kw = "minimum"
	case n.Maximum != nil && f > n.Maximum.Value:
		kw = "maximum"
	case n.ExclusiveMinimum != nil && f <= n.ExclusiveMinimum.Value:
		kw = "exclusiveMinimum"
	case n.ExclusiveMaximum != nil && f >= n.ExclusiveMaximum.Value:
		kw = "exclusiveMaximum"
	}
	if kw != "" {
		c.add(Issue{Code: bind.Constraint, Keyword: kw, Start: start, End: end, Node: n})
		return
	}
	if c.param >= 0 && c.param < len(c.s.IntRead) && c.s.IntRead[c.param] && len(c.steps) == 0 &&
		(!whole || f >= 1<<63 || f < -(1<<63)) {
		c.add(Issue{Code: bind.RoundedNumber, Start: start, End: end, Node: n})
	}
}

// exactInt reports whether the integer token tok is exactly float64 f.
func exactInt(tok []byte, f float64) bool {
	var want big.Int
	if _, ok := want.SetString(string(tok), 10); !ok {
		return false
	}
	got, _ := new(big.Float).SetFloat64(f).Int(nil)
	return got.Cmp(&want) == 0
}

func (c *checker) str(n *Node, start, end int, f jsonlex.StringFlags) {
	raw := c.d[start:end]
	body := raw[1 : len(raw)-1]
	text := body
	if f != 0 {
		c.buf, _ = jsonlex.Unquote(c.buf[:0], raw)
		text = c.buf
		if jsonlex.Replaced(raw, f) {
			defer c.add(Issue{Code: bind.ReplacedText, Start: start, End: end, Node: n})
		}
	}
	if n == nil {
		return
	}
	if n.Types&String == 0 {
		c.add(Issue{Code: bind.WrongType, Keyword: "type", Start: start, End: end, Node: n})
		return
	}
	if n.Enum != nil && !inEnumText(n.Enum, text) {
		c.add(Issue{Code: bind.NotOneOf, Keyword: enumWord(n), Start: start, End: end, Node: n})
		return
	}
	if n.MinLength == nil && n.MaxLength == nil && n.Pattern == nil {
		return
	}
	chars := utf8.RuneCount(text)
	kw := ""
	switch {
	case n.MinLength != nil && chars < *n.MinLength:
		kw = "minLength"
	case n.MaxLength != nil && chars > *n.MaxLength:
		kw = "maxLength"
	case n.Pattern != nil && !n.Pattern.Match(text):
		kw = "pattern"
	}
	if kw != "" {
		c.add(Issue{Code: bind.Constraint, Keyword: kw, Start: start, End: end, Node: n})
	}
}

func inEnumText(enum []Value, text []byte) bool {
	for _, e := range enum {
		if e.Kind == String && e.Text == string(text) {
			return true
		}
	}
	return false
}

// A member is one member of an object being read.
type member struct {
	ks, ke     int
	key        string
	from, upto int // its issues in res.Issues
	// omitted and omittedUpto are res.Omitted before and after its value,
	// keysFrom and keysUpto res.KeysPast: what it had past MaxIssues.
	omitted, omittedUpto Counts
	keysFrom, keysUpto   int
	// quietFrom and quietUpto are quietFails before and after its value.
	quietFrom, quietUpto int
	param                int // at the root, the property it names, or -1
	// read reports a value read against a schema: at the root, under a
	// property or additionalProperties.
	read bool
}

// object reads the valid object at c.pos against n (nil: any); at the
// root, each member's param is its property's index, and a member no
// property names is an UnknownArgument policy problem when the schema
// closes the root, or an UnknownArgument loss when it leaves it open (the
// guard's policy decides).
func (c *checker) object(n *Node, root, open bool) {
	d := c.d
	start := c.pos
	at, more, _ := jsonlex.Open(d, c.pos) // the text is valid
	var ms []member
	last := map[string]int{}
	if !root {
		c.steps = append(c.steps, step{})
	}
	for more {
		k, f, vs, _ := jsonlex.Key(d, at)
		i, ke := k.Start, k.End
		var key string
		if f == 0 {
			key = string(d[i+1 : ke-1])
		} else {
			c.buf, _ = jsonlex.Unquote(c.buf[:0], d[i:ke])
			key = string(c.buf)
		}
		m := member{ks: i, ke: ke, key: key, from: len(c.res.Issues), omitted: c.res.Omitted, keysFrom: c.res.KeysPast, quietFrom: c.quietFails}
		var child *Node
		replaced := c.superseded != nil && c.superseded[i]
		if replaced {
			c.dropping++
		}
		if root {
			c.param, c.arg, c.argAt = -1, d[i:ke], i
			c.firsts, c.inUnknown = 0, false // an argument of its own
		} else {
			c.steps[len(c.steps)-1] = step{key: d[i:ke]}
		}
		j := -1
		if n != nil {
			j = n.Property(key)
		}
		exempt := root && j < 0 && slices.Contains(c.s.Exempt, key)
		if root && n != nil && j < 0 && !exempt && (n.Closed || n.Additional == nil && open && !c.s.OpenRoot) {
			// Named as unknown (below; the root has no patternProperties):
			// the key is the member's problem.
			c.inUnknown = true
		}
		if n != nil && n.PropertyNames != nil {
			c.must(n.PropertyNames, i) // the key, a string
		}
		var matched *Node
		if n != nil && n.Patterns != nil {
			matched = c.patterns(n, key, vs, j < 0)
		}
		if n != nil {
			if j >= 0 {
				child = n.Properties[j].Node
				if root {
					c.param = j
				}
			} else if exempt {
				// an exempt key: never unknown
			} else if matched != nil {
				child = matched // a key patternProperties describes: never additional
			} else if n.Closed {
				code := bind.UnknownField
				if root {
					code = bind.UnknownArgument
				}
				c.atObject(root, Issue{Code: code, Keyword: "additionalProperties", Start: i, End: ke, Node: n})
			} else if root && n.Additional == nil && open && !c.s.OpenRoot {
				c.add(Issue{Code: bind.UnknownArgument, Start: i, End: ke, Node: n, InKey: true})
			} else {
				child = n.Additional
			}
		}
		if f != 0 && jsonlex.Replaced(d[i:ke], f) {
			// The map holds the key with U+FFFD for what it cannot read.
			c.atObject(root, Issue{Code: bind.ReplacedText, Start: i, End: ke})
		}
		m.param, m.read = c.param, child != nil
		c.pos = vs
		c.value(child)
		if replaced {
			c.dropping--
		}
		m.upto = len(c.res.Issues)
		m.omittedUpto = c.res.Omitted
		m.keysUpto = c.res.KeysPast
		m.quietUpto = c.quietFails
		if prev, ok := last[key]; ok {
			c.dropped(&ms[prev], root)
		}
		last[key] = len(ms)
		ms = append(ms, m)
		at, more, _ = jsonlex.Next(d, c.pos, jsonlex.KindObject)
	}
	end := at // past the closing brace
	c.pos = end
	if root {
		c.param, c.arg = -1, nil
		c.firsts, c.inUnknown = 0, false // the arguments as a whole
	} else {
		c.steps = c.steps[:len(c.steps)-1]
	}
	if n == nil {
		return
	}
	has := make(map[string]bool, len(last))
	for k := range last {
		has[k] = true
	}
	if root {
		c.rootMissing(n, has, start, end)
	} else {
		c.missing(n, has, start, end)
	}
	switch {
	case n.MinProperties != nil && len(last) < *n.MinProperties:
		c.add(Issue{Code: bind.Constraint, Keyword: "minProperties", Start: start, End: end, Node: n})
	case n.MaxProperties != nil && len(last) > *n.MaxProperties:
		c.add(Issue{Code: bind.Constraint, Keyword: "maxProperties", Start: start, End: end, Node: n})
	}
	for _, dr := range n.DependentRequired {
		if !has[dr.Name] {
			continue
		}
		for _, r := range dr.Required {
			if has[r] {
				continue
			}
			if root {
				c.param = n.Property(r)
			}
			code := bind.MissingField
			if root {
				code = bind.MissingArgument
			}
			c.add(Issue{Code: code, Keyword: "dependentRequired", Start: start, End: end, Name: r, Node: n})
			c.param = -1
		}
	}
	for _, ds := range n.DependentSchemas {
		if has[ds.Name] {
			c.must(ds.Node, start)
		}
	}
}

// dropped marks the issues of member m, whose value a later member of
// the same key replaces, as the map reader sees them: only its failures
// stand, and the member itself is a Duplicate loss, whose path leads to
// the object holding it.
//
// What it takes back may have kept another issue from the list: one
// counted, in the meantime, past MaxIssues of its kind, or for a rank the
// argument had listed in m. Where it took back an issue listed and Check
// counted any, Check reads the call again with the members replaced known
// (superseded), whose issues are then dropped as they are found.
func (c *checker) dropped(m *member, root bool) {
	for j := m.from; j < m.upto; j++ {
		if is := c.res.Issues[j]; is.Code != "" && is.Class() != bind.BinderFailure {
			c.listed[kindOf(is, is.Class())]--
			c.res.Issues[j].Code = ""
			c.tookBack = true
		}
	}
	if c.superseded == nil && c.quiet == 0 {
		c.drops = append(c.drops, m.ks)
	}
	for _, cl := range [...]bind.Class{bind.PolicyProblem, bind.SilentLoss} { // what was only counted goes too
		c.res.Omitted[cl] -= m.omittedUpto[cl] - m.omitted[cl]
	}
	c.res.KeysPast -= m.keysUpto - m.keysFrom
	c.quietFails -= m.quietUpto - m.quietFrom
	if root && m.param < 0 && !m.read {
		return // a key no parameter names, read against nothing: the key is the problem, if any
	}
	c.atObject(root, Issue{Code: bind.DuplicateKey, Start: m.ks, End: m.ke})
}

// atObject adds an issue with a member's key, whose path leads to the
// object holding it, not into the member.
func (c *checker) atObject(root bool, is Issue) {
	is.InKey = true
	if root {
		c.add(is)
		return
	}
	top := c.steps[len(c.steps)-1]
	c.steps = c.steps[:len(c.steps)-1]
	c.add(is)
	c.steps = append(c.steps, top)
}

// compact removes the issues dropped marks.
func (c *checker) compact() {
	out := c.res.Issues[:0]
	for _, is := range c.res.Issues {
		if is.Code != "" {
			out = append(out, is)
		}
	}
	c.res.Issues = out
}

func (c *checker) array(n *Node) {
	d := c.d
	start := c.pos
	i, more, _ := jsonlex.Open(d, c.pos) // the text is valid
	var items *Node
	if n != nil {
		items = n.Items
	}
	count, contained := 0, 0
	c.steps = append(c.steps, step{})
	for more {
		c.steps[len(c.steps)-1] = step{index: count}
		c.pos = i
		if n != nil && n.Contains != nil && c.passes(n.Contains, i) {
			contained++
		}
		if n != nil && count < len(n.Prefix) {
			c.value(n.Prefix[count])
		} else {
			c.value(items)
		}
		count++
		i, more, _ = jsonlex.Next(d, c.pos, jsonlex.KindArray)
	}
	c.steps = c.steps[:len(c.steps)-1]
	end := i // past the closing bracket
	c.pos = end
	if n == nil {
		return
	}
	switch {
	case n.MinItems != nil && count < *n.MinItems:
		c.add(Issue{Code: bind.Constraint, Keyword: "minItems", Start: start, End: end, Node: n})
	case n.MaxItems != nil && count > *n.MaxItems:
		c.add(Issue{Code: bind.Constraint, Keyword: "maxItems", Start: start, End: end, Node: n})
	}
	if n.Contains != nil {
		kw := ""
		switch {
		case contained == 0 && (n.MinContains == nil || *n.MinContains > 0):
			kw = "contains"
		case n.MinContains != nil && contained < *n.MinContains:
			kw = "minContains"
		case n.MaxContains != nil && contained > *n.MaxContains:
			kw = "maxContains"
		}
		if kw != "" {
			c.add(Issue{Code: bind.Constraint, Keyword: kw, Start: start, End: end, Node: n})
		}
	}
	if n.Unique && count > 1 && c.repeats(c.d[start:end]) {
		c.add(Issue{Code: bind.Constraint, Keyword: "uniqueItems", Start: start, End: end, Node: n})
	}
}

// repeats reports whether the valid array raw, as the map reader reads
// it, holds two equal elements (compared as jsonschema-go compares). Each
// element is hashed (an object's members in any order); only elements of
// one hash are compared, so the cost is linear in len(raw), expected.
func (c *checker) repeats(raw []byte) bool {
	var l []any
	if json.Unmarshal(raw, &l) != nil {
		return false // the reader fails on it: the elements' own reads say so
	}
	seed := maphash.MakeSeed()
	seen := make(map[uint64][]int, len(l))
	for i, e := range l {
		h := hashJSON(seed, e)
		c.reads++
		for _, j := range seen[h] {
			c.reads++
			if equalJSON(l[j], e) {
				return true
			}
		}
		seen[h] = append(seen[h], i)
	}
	return false
}

// hashJSON hashes a value as encoding/json reads it into any, equal
// values (equalJSON) alike.
func hashJSON(seed maphash.Seed, v any) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	var num [8]byte
	writeJSONHash(&h, seed, v, num[:])
	return h.Sum64()
}

func writeJSONHash(h *maphash.Hash, seed maphash.Seed, v any, num []byte) {
	switch v := v.(type) {
	case nil:
		h.WriteByte('n')
	case bool:
		h.WriteByte('b')
		if v {
			h.WriteByte(1)
		}
	case float64:
		if v == 0 {
			v = 0 // -0 is 0
		}
		h.WriteByte('d')
		binary.LittleEndian.PutUint64(num, math.Float64bits(v))
		h.Write(num)
	case string:
		h.WriteByte('s')
		binary.LittleEndian.PutUint64(num, uint64(len(v)))
		h.Write(num)
		h.WriteString(v)
	case []any:
		h.WriteByte('[')
		binary.LittleEndian.PutUint64(num, uint64(len(v)))
		h.Write(num)
		for _, e := range v {
			writeJSONHash(h, seed, e, num)
		}
	case map[string]any:
		// Members in any order: the sum of each member's own hash.
		var sum uint64
		for k, e := range v {
			var m maphash.Hash
			m.SetSeed(seed)
			m.WriteString(k)
			m.WriteByte(0)
			writeJSONHash(&m, seed, e, num)
			sum += m.Sum64()
		}
		h.WriteByte('{')
		binary.LittleEndian.PutUint64(num, sum)
		h.Write(num)
	}
}

// path is the path to the value being read: package jsonpath's, bounded
// as package bind's paths are (the first Head and the last Tail steps past
// MaxSteps, a key cut at MaxKey characters, only that much of it read).
func (c *checker) path() jsonpath.Path {
	var b jsonpath.Builder
	if c.arg != nil {
		b.Arg(c.arg)
	}
	n := len(c.steps)
	for d := 0; d < n; d++ {
		if n > jsonpath.MaxSteps && d == jsonpath.Head {
			b.Elide()
			d = n - jsonpath.Tail
		}
		if st := c.steps[d]; st.key == nil {
			b.Index(st.index)
		} else {
			b.Key(st.key)
		}
	}
	return b.Path()
}

// A trial is the state of a check before a branch is read: what the
// branch finds is then taken back (undo), or kept (keepVerdicts).
type trial struct {
	pos, issues int
	listed      [numKinds]int
	omitted     Counts
	firsts      uint8
}

// try reads the value at i against branch b, as a trial, and returns how
// many of the schema's verdicts it found (0: the value passes b). A quiet
// trial (and every trial within one) lists nothing, only counts: where
// only whether the value passes matters, a clean call allocates nothing
// for it. Otherwise the branch's issues are c.res.Issues[t.issues:] until
// undo or keepVerdicts.
func (c *checker) try(b *Node, i int, quiet bool) (t trial, failed int) {
	t = trial{pos: c.pos, issues: len(c.res.Issues), listed: c.listed, omitted: c.res.Omitted, firsts: c.firsts}
	if quiet || c.quiet > 0 {
		saved := c.quietFails
		c.quiet++
		c.quietFails = 0
		c.pos = i
		c.value(b)
		failed = c.quietFails
		c.quiet--
		c.quietFails = saved
		return t, failed
	}
	c.listed = [numKinds]int{} // a branch's issues are listed, up to MaxIssues
	c.pos = i
	c.value(b)
	for _, is := range c.res.Issues[t.issues:] {
		if is.Code != "" && is.Class() == bind.PolicyProblem {
			failed++
		}
	}
	return t, failed + c.res.Omitted[bind.PolicyProblem] - t.omitted[bind.PolicyProblem]
}

func (c *checker) undo(t trial) {
	c.res.Issues = c.res.Issues[:t.issues]
	c.listed, c.res.Omitted, c.pos, c.firsts = t.listed, t.omitted, t.pos, t.firsts
}

// keepVerdicts undoes trial t, which found failed verdicts, keeping them
// (its losses and failures the value's own read finds again); within a
// quiet trial, counting them.
func (c *checker) keepVerdicts(t trial, failed int) {
	if c.quiet > 0 {
		c.undo(t)
		c.quietFails += failed
		return
	}
	var kept []Issue
	for _, is := range c.res.Issues[t.issues:] {
		if is.Code != "" && is.Class() == bind.PolicyProblem {
			kept = append(kept, is)
		}
	}
	counted := c.res.Omitted[bind.PolicyProblem] - t.omitted[bind.PolicyProblem] // past MaxIssues in the branch
	c.undo(t)
	for _, is := range kept {
		if c.admit(is, bind.PolicyProblem) {
			c.res.Issues = append(c.res.Issues, is)
		}
	}
	c.res.Omitted[bind.PolicyProblem] += counted
}

// must reads the value at i against branch b, which it must pass, keeping
// what b finds wrong with it.
func (c *checker) must(b *Node, i int) {
	if t, failed := c.try(b, i, false); failed > 0 {
		c.keepVerdicts(t, failed)
	} else {
		c.undo(t)
	}
}

// passes reads the value at i against b as a quiet trial, and reports
// whether it passes.
func (c *checker) passes(b *Node, i int) bool {
	t, failed := c.try(b, i, true)
	c.undo(t)
	return failed == 0
}

// patterns reads the member value at i, of key key, against the schema of
// each of n's patternProperties its key matches, and returns the first
// that does (nil: none). With first set (a key no property names), that
// one is not read here: it is the schema the member's own read uses.
// c.pos is left at i.
func (c *checker) patterns(n *Node, key string, i int, first bool) (matched *Node) {
	pos := c.pos
	for _, p := range n.Patterns {
		if !p.Re.MatchString(key) {
			continue
		}
		if matched == nil {
			matched = p.Node
			if first {
				continue
			}
		}
		c.must(p.Node, i)
	}
	c.pos = pos
	return matched
}

// branches reads the value at i against n's allOf, anyOf or oneOf (Some),
// not and if/then/else, and adds what the value breaks: a branch's own
// issues where it must pass one (for Some, the branch that came closest:
// the fewest issues, the first of them on a tie, read once more to list
// them); a Constraint issue, at the keyword, where it passes a branch it
// must not (not, or a second branch of oneOf). c.pos is left at i.
func (c *checker) branches(n *Node, i int) {
	pos := c.pos
	defer func() { c.pos = pos }()
	must := func(b *Node) { c.must(b, i) }
	passes := func(b *Node) bool { return c.passes(b, i) }
	invalid := func(kw string) {
		end, _ := jsonlex.Skip(c.d, i, jsonlex.MaxDepth)
		c.add(Issue{Code: bind.Constraint, Keyword: kw, Start: i, End: end, Node: n})
	}
	for _, b := range n.AllOf {
		must(b)
	}
	if n.Some != nil {
		passed, best, closest := 0, -1, 0
		for j, b := range n.Some {
			t, failed := c.try(b, i, true)
			c.undo(t)
			if failed == 0 {
				passed++
			} else if best < 0 || failed < best {
				best, closest = failed, j
			}
		}
		switch {
		case passed == 0:
			must(n.Some[closest])
		case passed > 1 && n.SomeOne:
			invalid("oneOf")
		}
	}
	if n.Not != nil && passes(n.Not) {
		invalid("not")
	}
	if n.If != nil {
		next := n.Else
		if passes(n.If) {
			next = n.Then
		}
		if next != nil {
			must(next)
		}
	}
}
