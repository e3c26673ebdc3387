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
	"slices"
	"strconv"
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
// first one sent that breaks them).
func (n *Node) Check(d []byte, s jsonlex.Span) (v Verdict, at jsonlex.Span) {
	i := s.Start
	if i >= s.End {
		return Unknown, s
	}
	if d[i] == 'n' { // null
		switch {
		case n.Nullable:
			// A nil pointer or interface: only omitempty (first) or no
			// tag at all lets it past.
			if n.NoTag || n.OmitEmpty || n.NilOK {
				return Pass, s
			}
			return Fail, s
		case n.Kind == Slice || n.Kind == Map:
			if n.OmitEmpty || n.Required {
				// nil or empty: SegmentIO reads null as an empty list in
				// some positions (a map's value), and only omitempty and
				// required tell the two apart.
				return Unknown, s
			}
			return n.level(d, s, false, 0, true)
		}
		return Unknown, s // the binder keeps the zero value: a loss, decode
	}
	if n.NoTag {
		return Pass, s
	}
	switch n.Kind {
	case Struct:
		return n.fields(d, s)
	case Opaque:
		if !n.Nullable {
			return Unknown, s
		}
		return n.level(d, s, true, 0, false)
	case Int, Uint, Float:
		if jsonlex.KindAt(d, i) != jsonlex.KindNumber {
			return Unknown, s // a ,string field, or not what the binder reads
		}
		return n.number(d, s)
	case String:
		if jsonlex.KindAt(d, i) != jsonlex.KindString {
			return Unknown, s
		}
		end, f, ok := jsonlex.String(d, i)
		if !ok || end != s.End {
			return Unknown, s
		}
		text := d[i+1 : end-1]
		var buf [128]byte
		if f&jsonlex.Escaped != 0 {
			// The text as encoding/json reads it; one holding U+FFFD (an
			// unpaired surrogate, which the binders read differently, or
			// U+FFFD itself) is the binder's to decode.
			if text, ok = jsonlex.Unquote(buf[:0], d[i:end]); !ok || bytes.ContainsRune(text, utf8.RuneError) {
				return Unknown, s
			}
			f |= jsonlex.NonASCII
		} else if f&jsonlex.NonASCII != 0 && !utf8.Valid(text) {
			return Unknown, s
		}
		has := n.Nullable || len(text) > 0
		if n.OmitEmpty && !has {
			return Pass, s
		}
		if n.Required && !has {
			return Fail, s
		}
		runes := int64(len(text))
		if f&jsonlex.NonASCII != 0 {
			runes = int64(utf8.RuneCount(text))
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
				return Fail, s
			}
		}
		return Pass, s
	case Bool:
		var b bool
		switch d[i] {
		case 't':
			b = true
		case 'f':
		default:
			return Unknown, s
		}
		has := n.Nullable || b
		if n.OmitEmpty && !has {
			return Pass, s
		}
		if n.Required && !has {
			return Fail, s
		}
		for k := range n.Rules {
			r := &n.Rules[k]
			if (r.Op == Eq) != (b == r.B) {
				return Fail, s
			}
		}
		return Pass, s
	case Slice, Map:
		open := byte('[')
		if n.Kind == Map {
			open = '{'
		}
		if d[i] != open {
			return Unknown, s
		}
		// One reading of the elements: their count, and the first one
		// that breaks the next level (reported only when the count passes,
		// as the validator checks a level before it dives).
		count, elem, at := 0, Pass, s
		check := n.Elem != nil && !n.NoTag
		if n.Kind == Slice {
			for e := range jsonlex.Elements(d, i) {
				count++
				if check && elem != Unknown {
					if v, a := n.Elem.Check(d, e); v == Unknown || v == Fail && elem == Pass {
						elem, at = v, a
					}
				}
			}
		} else {
			for m := range jsonlex.Members(d, i) {
				count++
				if check && elem != Unknown {
					if v, a := n.Elem.Check(d, m.Value); v == Unknown || v == Fail && elem == Pass {
						elem, at = v, a
					}
				}
			}
		}
		if v, a := n.level(d, s, true, int64(count), true); v != Pass || elem == Pass {
			return v, a
		}
		return elem, at
	}
	return Unknown, s
}

// level holds a list or a map (count its elements, null nil) or an opaque
// non-nil value to n's level, then its elements to n.Elem.
func (n *Node) level(d []byte, s jsonlex.Span, has bool, count int64, null bool) (Verdict, jsonlex.Span) {
	if n.NoTag {
		return Pass, s
	}
	if n.OmitEmpty && !has {
		return Pass, s
	}
	if n.Required && !has {
		return Fail, s
	}
	for k := range n.Rules {
		if r := &n.Rules[k]; !cmpLen(r, count) {
			return Fail, s
		}
	}
	if n.Elem == nil || null || n.Kind == Opaque {
		return Pass, s
	}
	if n.Kind == Slice {
		for e := range jsonlex.Elements(d, s.Start) {
			if v, at := n.Elem.Check(d, e); v != Pass {
				return v, at
			}
		}
		return Pass, s
	}
	for m := range jsonlex.Members(d, s.Start) {
		if v, at := n.Elem.Check(d, m.Value); v != Pass {
			return v, at
		}
	}
	return Pass, s
}

// fields holds the object at s, read into a nested struct, to the struct's
// fields' tags, in the order sent. A field the call leaves out whose zero
// value breaks its tag, or a key that binds no field exactly, is Unknown:
// the binder's issues, or a decode, tell.
func (n *Node) fields(d []byte, s jsonlex.Span) (Verdict, jsonlex.Span) {
	if jsonlex.KindAt(d, s.Start) != jsonlex.KindObject || len(n.Fields) > 64 {
		return Unknown, s
	}
	var sent uint64
	for m := range jsonlex.Members(d, s.Start) {
		key := d[m.Key.Start+1 : m.Key.End-1]
		j := -1
		for k := range n.Fields {
			if n.Fields[k].Name == string(key) {
				j = k
				break
			}
		}
		if j < 0 {
			// A field with no check, or a key the binder folds, drops or
			// unescapes: only a field with a check matters.
			if slices.Contains(key, '\\') || n.foldsTo(key) {
				return Unknown, s
			}
			continue
		}
		if sent&(1<<j) != 0 {
			return Unknown, s // repeated: the binder merges or keeps the last
		}
		sent |= 1 << j
		if f := &n.Fields[j]; f.Node != nil {
			if v, at := f.Node.Check(d, m.Value); v != Pass {
				return v, at
			}
		}
	}
	for k := range n.Fields {
		if n.Fields[k].ZeroFails && sent&(1<<k) == 0 {
			return Unknown, s
		}
	}
	return Pass, s
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

func (n *Node) number(d []byte, s jsonlex.Span) (Verdict, jsonlex.Span) {
	lit := unsafeString(d[s.Start:s.End])
	var (
		iv   int64
		uv   uint64
		fv   float64
		zero bool
		err  error
	)
	switch n.Kind {
	case Int:
		iv, err = strconv.ParseInt(lit, 10, 64)
		zero = iv == 0
	case Uint:
		uv, err = strconv.ParseUint(lit, 10, 64)
		zero = uv == 0
	default:
		fv, err = strconv.ParseFloat(lit, n.Bits)
		zero = fv == 0
	}
	if err != nil {
		return Unknown, s
	}
	has := n.Nullable || !zero
	if n.OmitEmpty && !has {
		return Pass, s
	}
	if n.Required && !has {
		return Fail, s
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
			return Fail, s
		}
	}
	return Pass, s
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
