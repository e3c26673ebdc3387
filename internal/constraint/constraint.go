// Package constraint holds a tool's validate tags compiled at registration
// (by typereg) and checks them on the literal text of the argument the
// binder binds (for refuse), without decoding it and without running
// github.com/go-playground/validator/v10, which stays what defines the tags
// and the oracle the compiled checks are fuzzed against.
//
// A check is exact where it answers: it reads the literal as the binder
// decodes it (the number parsed at the field's size, a string's runes, a
// list's elements, a map's members) and holds it to the tag as
// validator/v10 holds the decoded Go value (see traverseField, hasValue and
// the baked-in rules there). Where it cannot read the value as the binder
// does without decoding (an escaped or non-UTF-8 string, a ,string field, a
// value the binder changes) it answers Unknown, and the caller decodes.
package constraint

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// A Kind is what a position's rules are about, pointers stripped.
type Kind uint8

const (
	// Opaque: only whether the value is nil is read (a pointer or an
	// interface under required or omitempty).
	Opaque Kind = iota
	Int
	Uint
	Float
	String
	Bool
	Slice
	Map
	// Struct: a nested struct whose fields have tags of their own, each
	// checked as the validator walks into the struct.
	Struct
)

// An Op is one rule of a tag.
type Op uint8

const (
	Gte   Op = iota // min, gte
	Lte             // max, lte
	Gt              // gt
	Lt              // lt
	Eq              // eq, and len on a number
	Ne              // ne
	OneOf           // oneof
)

// A Rule is one rule, its value parsed as the validator parses it for the
// position's kind.
type Rule struct {
	Op Op
	// Len: the rule is on a length (a string's runes, a list's elements,
	// a map's members), compared with I.
	Len  bool
	I    int64
	U    uint64
	F    float64
	S    string
	B    bool
	Vals []string // OneOf
}

// A Node is one position of a parameter's value: the parameter itself, or
// its elements (values) under a dive.
type Node struct {
	// Nullable: the position is a pointer or an interface, so null is
	// nil, and a value sent is held to the rules even when zero.
	Nullable bool
	Kind     Kind
	Bits     int // Float: 32 or 64
	// NoTag: the position has no tag left (no token at this level and no
	// dive): whatever it holds passes.
	NoTag     bool
	OmitEmpty bool
	Required  bool
	Rules     []Rule
	Elem      *Node // the level after a dive; nil: no dive
	// Fields are a Struct's fields with a check (their own tag, or a
	// struct inside), and those whose zero value breaks their tag.
	Fields []Field
	// NilOK: a nil Struct pointer passes (it has no tag, or omitempty).
	NilOK bool

	// sealed: Seal has run, and r holds the rules as one range.
	sealed bool
	r      span
}

// A span is a node's rules read as one range, when they are all bounds
// (min, max, gte, lte, gt, lt, and eq on a number or a length): lo and hi,
// both inclusive, of the whole number (a length, an Int), the Uint or the
// Float. first is the byte a value the node reads on from starts with
// (firstNumber: a number), 0 for none.
type span struct {
	ok     bool
	lo, hi int64
	ulo    uint64
	uhi    uint64
	flo    float64
	fhi    float64
	first  byte
}

const firstNumber = 1

// Seal readies n and the nodes under it for the walk, once they are
// built and before any check: their rules as one range where they are
// bounds only, and the first byte of the values they read on. A node not
// sealed is checked rule by rule, to the same verdict.
func (n *Node) Seal() {
	if n == nil || n.sealed {
		return
	}
	n.sealed = true // before the nodes under it: a shared one is sealed once
	switch {
	case n.NoTag:
	case n.Kind == String:
		n.r.first = '"'
	case n.Kind == Slice:
		n.r.first = '['
	case n.Kind == Map || n.Kind == Struct && len(n.Fields) <= 64:
		n.r.first = '{'
	case n.Kind == Int || n.Kind == Uint || n.Kind == Float:
		n.r.first = firstNumber
	}
	r := span{ok: true, lo: math.MinInt64, hi: math.MaxInt64, uhi: math.MaxUint64, flo: math.Inf(-1), fhi: math.Inf(1), first: n.r.first}
	length := n.Kind == String || n.Kind == Slice || n.Kind == Map
	for _, x := range n.Rules {
		if x.Len != length || x.Op == Ne || x.Op == OneOf {
			r.ok = false
			break
		}
		switch {
		case length || n.Kind == Int:
			lo, hi, ok := bounds(x.Op, x.I, math.MinInt64, math.MaxInt64, func(v int64, up bool) int64 {
				if up {
					return v + 1
				}
				return v - 1
			})
			r.ok = r.ok && ok
			r.lo, r.hi = max(r.lo, lo), min(r.hi, hi)
		case n.Kind == Uint:
			lo, hi, ok := bounds(x.Op, x.U, 0, math.MaxUint64, func(v uint64, up bool) uint64 {
				if up {
					return v + 1
				}
				return v - 1
			})
			r.ok = r.ok && ok
			r.ulo, r.uhi = max(r.ulo, lo), min(r.uhi, hi)
		case n.Kind == Float:
			if math.IsNaN(x.F) {
				r.ok = false
				break
			}
			lo, hi, _ := bounds(x.Op, x.F, math.Inf(-1), math.Inf(1), func(v float64, up bool) float64 {
				if up {
					return math.Nextafter(v, math.Inf(1))
				}
				return math.Nextafter(v, math.Inf(-1))
			})
			r.flo, r.fhi = max(r.flo, lo), min(r.fhi, hi)
		default:
			r.ok = false
		}
	}
	n.r = r
	n.Elem.Seal()
	for _, f := range n.Fields {
		f.Node.Seal()
	}
}

// bounds returns the inclusive range of the values v for which v op p
// holds, between the kind's least and greatest values: step moves a value
// to the next one up (or down). ok is false when no value holds it at an
// end of the kind's values (gt its greatest, lt its least): the rule is
// then checked as it is.
func bounds[T int64 | uint64 | float64](op Op, p, least, most T, step func(T, bool) T) (lo, hi T, ok bool) {
	switch op {
	case Gte:
		return p, most, true
	case Lte:
		return least, p, true
	case Gt:
		return step(p, true), most, p != most
	case Lt:
		return least, step(p, false), p != least
	case Eq:
		return p, p, true
	}
	return least, most, false
}

// A Field is one field of a nested struct, by the JSON name the binder
// binds exactly.
type Field struct {
	Name string
	Node *Node // nil: no check but ZeroFails
	// ZeroFails: the field's zero value, what a call that leaves it out
	// gets, breaks its tag.
	ZeroFails bool
}

// A Param is one parameter's compiled tag.
type Param struct {
	Root *Node // nil: no tag, or one not compiled (see Tool.Decode)
	// ZeroFails: the parameter's zero value breaks its tag, so a call
	// that leaves it out breaks it (the validator said so at
	// registration).
	ZeroFails bool
}

// A Tool is the compiled tags of a tool's parameters, by index.
type Tool struct {
	Params []Param
	// Decode: some parameter's tag is not compiled, so the tool's calls
	// are decoded and held to the validator itself.
	Decode bool

	zeroFailing atomic.Uint64 // see ZeroFailing; zeroKnown once set
}

// zeroKnown marks Tool.zeroFailing computed.
const zeroKnown = 1 << 63

// ZeroFailing returns the parameters whose zero value breaks their tags
// (Param.ZeroFails), as bits of their indexes, for a tool of at most 63
// parameters (ok is false past them, bits then meaningless): the walk
// reads them once a call, as one word. Worked out on first use.
func (t *Tool) ZeroFailing() (bits uint64, ok bool) {
	if len(t.Params) >= 64 {
		return 0, false
	}
	b := t.zeroFailing.Load()
	if b == 0 {
		b = zeroKnown
		for i := range t.Params {
			if t.Params[i].ZeroFails {
				b |= 1 << i
			}
		}
		t.zeroFailing.Store(b)
	}
	return b &^ zeroKnown, true
}

// A Verdict is what a check finds.
type Verdict uint8

const (
	Pass Verdict = iota
	Fail
	Unknown // the value must be decoded to be judged
)

// Check holds the value at d[s.Start:s.End] to n. On Fail, at is the
// value that breaks its rules: s itself, or an element inside it (the
// first one sent that breaks them). Check reads the value's text; the
// checker of package bind holds a value to n as it reads it, by the same
// steps (First, Text, Number, Level, Field, Missing), and refuse calls
// Check only for a value that walk did not judge.
func (n *Node) Check(d []byte, s jsonlex.Span) (v Verdict, at jsonlex.Span) {
	if Read != nil {
		Read.Add(int64(max(s.End-s.Start, 0)))
	}
	return n.check(d, s, 0)
}

// MaxDepth bounds the lists, maps and structs inside one another that a
// check holds to their nodes: a value nested deeper in them is Unknown (a
// recursive type's nodes make a cycle, which a value may follow as deep
// as the binder reads), so that what Check reads of a value is at most
// MaxDepth readings of its text (each level's members are read, then each
// member inside them). The checker of package bind, which reads the value
// once whatever its depth, holds every level.
const MaxDepth = 8

// Read, when not nil, counts the bytes Check is given to read: a test's
// window on how often a value is read again after the walk.
var Read *atomic.Int64

// check is Check of a value inside depth lists, maps and structs held to
// their nodes.
func (n *Node) check(d []byte, s jsonlex.Span, depth int) (v Verdict, at jsonlex.Span) {
	i := s.Start
	if i >= s.End {
		return Unknown, s
	}
	if v, done := n.First(d[i]); done {
		return v, s
	}
	switch n.Kind {
	case Struct, Slice, Map:
		if depth >= MaxDepth {
			return Unknown, s
		}
	}
	switch n.Kind {
	case Struct:
		return n.fields(d, s, depth+1)
	case Int, Uint, Float:
		return n.Number(d[s.Start:s.End]), s
	case String:
		end, f, ok := jsonlex.String(d, i)
		if !ok || end != s.End {
			return Unknown, s
		}
		return n.Text(d[i:end], f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0), s
	case Slice, Map:
		// One reading of the elements: their count, and the first one
		// that breaks the next level (reported only when the count passes,
		// as the validator checks a level before it dives).
		count, elem, at := 0, Pass, s
		check := n.Dives()
		if n.Kind == Slice {
			for e := range jsonlex.Elements(d, i) {
				count++
				if check && elem != Unknown {
					if v, a := n.Elem.check(d, e, depth+1); v == Unknown || v == Fail && elem == Pass {
						elem, at = v, a
					}
				}
			}
		} else {
			for m := range jsonlex.Members(d, i) {
				count++
				if check && elem != Unknown {
					if v, a := n.Elem.check(d, m.Value, depth+1); v == Unknown || v == Fail && elem == Pass {
						elem, at = v, a
					}
				}
			}
		}
		if v := n.Level(int64(count)); v != Pass || elem == Pass {
			return v, s
		}
		return elem, at
	}
	return Unknown, s
}

// First judges what n decides of a value from its first byte b alone
// (done): null, a value of another JSON kind than n reads, a position with
// no tag left, a bool, an opaque value. Otherwise the value must be read
// on: Text for a string, Number for a number, the elements and then Level
// for a list or a map, Field for each member and then Missing for a
// struct.
func (n *Node) First(b byte) (v Verdict, done bool) {
	if f := n.r.first; f != 0 && (b == f || f == firstNumber && (b == '-' || '0' <= b && b <= '9')) {
		return Pass, false // the kind the node reads on (set by Seal)
	}
	return n.first(b)
}

func (n *Node) first(b byte) (v Verdict, done bool) {
	if b == 'n' { // null
		switch {
		case n.Nullable:
			// A nil pointer or interface: only omitempty (first) or no
			// tag at all lets it past.
			if n.NoTag || n.OmitEmpty || n.NilOK {
				return Pass, true
			}
			return Fail, true
		case n.Kind == Slice || n.Kind == Map:
			if n.OmitEmpty || n.Required {
				// nil or empty: SegmentIO reads null as an empty list in
				// some positions (a map's value), and only omitempty and
				// required tell the two apart.
				return Unknown, true
			}
			return n.level(false, 0), true
		}
		return Unknown, true // the binder keeps the zero value: a loss, decode
	}
	if n.NoTag {
		return Pass, true
	}
	switch n.Kind {
	case Struct:
		if b != '{' || len(n.Fields) > 64 {
			return Unknown, true
		}
		return Pass, false
	case Opaque:
		if !n.Nullable {
			return Unknown, true
		}
		return n.level(true, 0), true
	case Int, Uint, Float:
		if b != '-' && (b < '0' || b > '9') {
			return Unknown, true // a ,string field, or not what the binder reads
		}
		return Pass, false
	case String:
		if b != '"' {
			return Unknown, true
		}
		return Pass, false
	case Bool:
		switch b {
		case 't', 'f':
			return n.boolean(b == 't'), true
		}
		return Unknown, true
	case Slice:
		if b != '[' {
			return Unknown, true
		}
		return Pass, false
	case Map:
		if b != '{' {
			return Unknown, true
		}
		return Pass, false
	}
	return Unknown, true
}

// Dives reports whether a list's or a map's elements are held to Elem.
func (n *Node) Dives() bool { return n.Elem != nil && !n.NoTag }

func (n *Node) boolean(b bool) Verdict {
	has := n.Nullable || b
	if n.OmitEmpty && !has {
		return Pass
	}
	if n.Required && !has {
		return Fail
	}
	for k := range n.Rules {
		r := &n.Rules[k]
		if (r.Op == Eq) != (b == r.B) {
			return Fail
		}
	}
	return Pass
}

// Text holds the string token tok (quotes included) to n, a String:
// escaped, it holds a backslash; nonASCII, a byte past ASCII (as the lexer
// reports them). It reads the text only to unquote an escaped one, or to
// count the runes of a non-ASCII one.
func (n *Node) Text(tok []byte, escaped, nonASCII bool) Verdict {
	if escaped {
		return n.escapedText(tok)
	}
	text := tok[1 : len(tok)-1]
	if nonASCII && !utf8.Valid(text) {
		return Unknown
	}
	return n.text(text, nonASCII)
}

// escapedText is Text of a token holding escapes, unquoted on the stack
// (a buffer only the rare escaped string zeroes).
func (n *Node) escapedText(tok []byte) Verdict {
	var buf [128]byte
	// The text as encoding/json reads it; one holding U+FFFD (an unpaired
	// surrogate, which the binders read differently, or U+FFFD itself) is
	// the binder's to decode.
	text, ok := jsonlex.Unquote(buf[:0], tok)
	if !ok || bytes.ContainsRune(text, utf8.RuneError) {
		return Unknown
	}
	return n.text(text, true)
}

// text holds the string's text to n: nonASCII, it holds a byte past
// ASCII, so its runes are counted.
func (n *Node) text(text []byte, nonASCII bool) Verdict {
	has := n.Nullable || len(text) > 0
	if n.OmitEmpty && !has {
		return Pass
	}
	if n.Required && !has {
		return Fail
	}
	runes := int64(len(text))
	if nonASCII {
		runes = int64(utf8.RuneCount(text))
	}
	if n.r.ok {
		return verdict(n.r.lo <= runes && runes <= n.r.hi)
	}
	for k := range n.Rules {
		r := &n.Rules[k]
		var ok bool
		switch {
		case r.Len:
			ok = compare(r.Op, runes, r.I)
		case r.Op == Eq:
			ok = string(text) == r.S
		case r.Op == Ne:
			ok = string(text) != r.S
		case r.Op == OneOf:
			ok = oneOf(r.Vals, text)
		}
		if !ok {
			return Fail
		}
	}
	return Pass
}

// Level holds a list or a map of count elements, not null, to n's own
// rules (its elements are held to Elem apart).
func (n *Node) Level(count int64) Verdict { return n.level(true, count) }

// level holds a list or a map (count its elements; has false: null) or an
// opaque non-nil value to n's level.
func (n *Node) level(has bool, count int64) Verdict {
	if n.NoTag {
		return Pass
	}
	if n.OmitEmpty && !has {
		return Pass
	}
	if n.Required && !has {
		return Fail
	}
	if n.r.ok {
		return verdict(n.r.lo <= count && count <= n.r.hi)
	}
	for k := range n.Rules {
		if r := &n.Rules[k]; !cmpLen(r, count) {
			return Fail
		}
	}
	return Pass
}

// fields holds the object at s, read into a nested struct, to the struct's
// fields' tags, in the order sent. A field the call leaves out whose zero
// value breaks its tag, or a key that binds no field exactly, is Unknown:
// the binder's issues, or a decode, tell.
func (n *Node) fields(d []byte, s jsonlex.Span, depth int) (Verdict, jsonlex.Span) {
	var sent uint64
	for m := range jsonlex.Members(d, s.Start) {
		j, ok := n.Field(d[m.Key.Start:m.Key.End], &sent)
		if !ok {
			return Unknown, s
		}
		if j < 0 {
			continue
		}
		if f := &n.Fields[j]; f.Node != nil {
			if v, at := f.Node.check(d, m.Value, depth); v != Pass {
				return v, at
			}
		}
	}
	if n.Missing(sent) {
		return Unknown, s
	}
	return Pass, s
}

// Field finds the field of n, a Struct, that the member whose key is the
// token key (quotes included) sets, and marks it in sent: j is its index
// in Fields, -1 for a key of no field with a check. ok is false when the
// key makes the struct the binder's to judge: a key the binder folds,
// drops or unescapes onto a checked field, or a field sent twice.
func (n *Node) Field(key []byte, sent *uint64) (j int, ok bool) {
	key = key[1 : len(key)-1]
	for k := range n.Fields {
		if n.Fields[k].Name == string(key) {
			if *sent&(1<<k) != 0 {
				return -1, false // repeated: the binder merges or keeps the last
			}
			*sent |= 1 << k
			return k, true
		}
	}
	// A field with no check, or a key the binder folds, drops or
	// unescapes: only a field with a check matters.
	if slices.Contains(key, '\\') || n.foldsTo(key) {
		return -1, false
	}
	return -1, true
}

// Missing reports whether a field whose zero value breaks its tag is not
// among the fields sent (as Field marked them): the struct is then the
// binder's to judge (its issues, or a decode).
func (n *Node) Missing(sent uint64) bool {
	for k := range n.Fields {
		if n.Fields[k].ZeroFails && sent&(1<<k) == 0 {
			return true
		}
	}
	return false
}

// foldsTo reports whether key matches a checked field's name only when
// case is ignored (a key some binders bind to it).
func (n *Node) foldsTo(key []byte) bool {
	for k := range n.Fields {
		if bytes.EqualFold([]byte(n.Fields[k].Name), key) {
			return true
		}
	}
	return false
}

func cmpLen(r *Rule, count int64) bool {
	if r.Op == Ne {
		return count != r.I
	}
	return compare(r.Op, count, r.I)
}

// Number holds the number literal lit to n, an Int, a Uint or a Float,
// parsed as the binder parses it at the field's kind.
//
// strconv's errors (a fraction or an exponent for an integer, a number past
// the type's range) are each a new value: a call of many such numbers would
// allocate per number. So an integer is read here (wholeText), and a float
// past its type's range by a whole decade is told from its digits
// (floatPast) before ParseFloat is asked; only a float within the decade
// of its type's largest allocates when ParseFloat fails.
func (n *Node) Number(lit []byte) Verdict {
	if n.Kind == Int || n.Kind == Uint {
		neg, m, ok := wholeText(lit, n.Kind == Int)
		if !ok {
			return Unknown
		}
		return n.Whole(neg, m, lit)
	}
	fv, ok := shortFloat(lit, n.Bits)
	if !ok {
		if floatPast(lit, n.Bits) {
			return Unknown // ParseFloat fails: ErrRange
		}
		var err error
		if fv, err = strconv.ParseFloat(unsafeString(lit), n.Bits); err != nil {
			return Unknown
		}
	}
	return n.numberValue(0, 0, fv)
}

// floatPast reports whether the JSON number lit is at least 10^309 in
// magnitude (10^39 for a float32): past the float's largest value, so
// that ParseFloat fails on it. It reads the power of ten of the first digit
// that is not 0 and the exponent alone; false for any other text, which
// ParseFloat decides.
func floatPast(lit []byte, bits int) bool {
	end, num, ok := jsonlex.Number(lit, 0)
	if !ok || end != len(lit) {
		return false
	}
	i := num.Int.End
	mag := num.Int.End - num.Int.Start - 1 // the integer part's first digit's
	if lit[num.Int.Start] == '0' {         // 0.00d...: the first digit not 0 in the fraction
		if !num.Frac {
			return false // zero
		}
		for i++; i < len(lit) && lit[i] == '0'; i++ {
			mag--
		}
		if i == len(lit) || lit[i] < '1' || lit[i] > '9' {
			return false // zero
		}
		mag--
	}
	for i < len(lit) && lit[i] != 'e' && lit[i] != 'E' {
		i++
	}
	if i < len(lit) {
		exp, neg := 0, false
		if i++; lit[i] == '-' || lit[i] == '+' {
			neg = lit[i] == '-'
			i++
		}
		for ; i < len(lit); i++ {
			if exp < 1<<20 {
				exp = exp*10 + int(lit[i]-'0')
			}
		}
		if neg {
			exp = -exp
		}
		mag += exp
	}
	limit := 309
	if bits == 32 {
		limit = 39
	}
	return mag >= limit
}

// wholeText reads lit as strconv.ParseInt(lit, 10, 64) reads it (signed:
// an optional sign, + or -) or ParseUint (no sign): then one or more
// decimal digits, its magnitude m within a uint64. ok is false where they
// fail, but for a magnitude past the type's own range, which Whole tells.
func wholeText(lit []byte, signed bool) (neg bool, m uint64, ok bool) {
	i := 0
	if signed && len(lit) > 0 && (lit[0] == '-' || lit[0] == '+') {
		neg, i = lit[0] == '-', 1
	}
	if i == len(lit) {
		return false, 0, false
	}
	for ; i < len(lit); i++ {
		c := lit[i]
		if c < '0' || c > '9' || m > (math.MaxUint64-uint64(c-'0'))/10 {
			return false, 0, false
		}
		m = m*10 + uint64(c-'0')
	}
	return neg, m, true
}

// float32Pow10 and float64Pow10 are the powers of ten each float holds
// exactly.
var (
	float32Pow10 = [...]float32{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10}
	float64Pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
		1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}
)

// shortFloat is strconv.ParseFloat(lit, bits) for a short decimal
// (no exponent, its digits a whole number the float holds exactly, at
// most as many fraction digits as the float has exact powers of ten):
// the quotient of two exact floats, which IEEE division rounds as
// ParseFloat rounds the decimal (strconv's own exact path). ok is false
// for any other literal.
func shortFloat(lit []byte, bits int) (f float64, ok bool) {
	i, neg := 0, false
	if len(lit) > 0 && lit[0] == '-' {
		i, neg = 1, true
	}
	var m uint64
	digits, frac, dot := 0, 0, false
	for ; i < len(lit); i++ {
		switch c := lit[i]; {
		case '0' <= c && c <= '9':
			m = m*10 + uint64(c-'0')
			if digits++; dot {
				frac++
			}
			if digits > 15 {
				return 0, false
			}
		case c == '.' && !dot:
			dot = true
		default:
			return 0, false // an exponent
		}
	}
	if digits == 0 {
		return 0, false
	}
	if bits == 32 {
		if m >= 1<<24 || frac >= len(float32Pow10) {
			return 0, false
		}
		f = float64(float32(m) / float32Pow10[frac])
	} else {
		f = float64(m) / float64Pow10[frac] // m below 10^15 < 2^53: exact
	}
	if neg {
		f = -f
	}
	return f, true
}

// Whole holds the whole number of sign neg and magnitude m, as the lexer
// read it (no fraction, no exponent, below 20 digits), to n, an Int, a
// Uint or a Float, without reading its digits again; it is Number of the
// literal.
func (n *Node) Whole(neg bool, m uint64, lit []byte) Verdict {
	switch n.Kind {
	case Int:
		switch {
		case !neg && m <= math.MaxInt64:
			return n.numberValue(int64(m), 0, 0)
		case neg && m <= 1<<63:
			return n.numberValue(int64(-m), 0, 0) // -(1<<63) wraps to itself: MinInt64
		}
		return Unknown // past int64: ParseInt fails
	case Uint:
		if neg {
			return Unknown // ParseUint takes no sign, not even -0
		}
		return n.numberValue(0, m, 0)
	}
	return n.Number(lit)
}

func (n *Node) numberValue(iv int64, uv uint64, fv float64) Verdict {
	var zero bool
	switch n.Kind {
	case Int:
		zero = iv == 0
	case Uint:
		zero = uv == 0
	default:
		zero = fv == 0
	}
	has := n.Nullable || !zero
	if n.OmitEmpty && !has {
		return Pass
	}
	if n.Required && !has {
		return Fail
	}
	if n.r.ok {
		switch n.Kind {
		case Int:
			return verdict(n.r.lo <= iv && iv <= n.r.hi)
		case Uint:
			return verdict(n.r.ulo <= uv && uv <= n.r.uhi)
		default:
			return verdict(n.r.flo <= fv && fv <= n.r.fhi)
		}
	}
	for k := range n.Rules {
		r := &n.Rules[k]
		var ok bool
		switch n.Kind {
		case Int:
			if r.Op == OneOf {
				var buf [24]byte
				ok = oneOf(r.Vals, strconv.AppendInt(buf[:0], iv, 10))
			} else {
				ok = compare(r.Op, iv, r.I)
			}
		case Uint:
			if r.Op == OneOf {
				var buf [24]byte
				ok = oneOf(r.Vals, strconv.AppendUint(buf[:0], uv, 10))
			} else {
				ok = compare(r.Op, uv, r.U)
			}
		default:
			ok = compare(r.Op, fv, r.F)
		}
		if !ok {
			return Fail
		}
	}
	return Pass
}

func verdict(ok bool) Verdict {
	if ok {
		return Pass
	}
	return Fail
}

func oneOf(vals []string, v []byte) bool {
	for _, x := range vals {
		if x == string(v) {
			return true
		}
	}
	return false
}

// compare reports whether v op p holds, for the literal's value v and
// the rule's parameter p, read at the field's kind (whole numbers at 64
// bits, floats at the field's size).
func compare[T int64 | uint64 | float64](op Op, v, p T) bool {
	switch op {
	case Gte:
		return v >= p
	case Lte:
		return v <= p
	case Gt:
		return v > p
	case Lt:
		return v < p
	case Eq:
		return v == p
	case Ne:
		return v != p
	}
	return false
}

func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// ToolOf returns the compiled tags of a *typereg.Tool (nil for none).
// typereg sets it at init: an internal door, so that no exported name of
// typereg carries them.
var ToolOf func(tool any) *Tool
