package constraint

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// FuzzCheck_AnyText: a check given any text, valid JSON or not, answers
// without panicking (the guard gives it only text the checker read, but no
// input may crash the host).
func FuzzCheck_AnyText(f *testing.F) {
	for _, s := range []string{`"abc"`, `"`, `[1,2`, `{"a":"`, `1e400`, `tru`, `[[0],[1,2]]`, `{"a":{"x":[1]}}`, `null`, ``} {
		f.Add([]byte(s))
	}
	elem := &Node{Kind: Int, Rules: []Rule{{Op: Gte, I: 1}}}
	nodes := []*Node{
		{Kind: String, Rules: []Rule{{Op: Lte, Len: true, I: 3}, {Op: OneOf, Vals: []string{"a", "abc"}}}},
		{Kind: Float, Bits: 32, Rules: []Rule{{Op: Lt, F: 0.1}}},
		{Kind: Uint, Rules: []Rule{{Op: OneOf, Vals: []string{"0", "5"}}}},
		{Kind: Bool, Nullable: true, Required: true, Rules: []Rule{{Op: Eq, B: true}}},
		{Kind: Slice, Rules: []Rule{{Op: Lte, Len: true, I: 2}}, Elem: &Node{Kind: Slice, Elem: elem}},
		{Kind: Map, Elem: elem},
		{Kind: Struct, Fields: []Field{{Name: "a", Node: &Node{Kind: Struct, Fields: []Field{{Name: "x", Node: &Node{Kind: Slice, Elem: elem}}}}}}},
		{Kind: Opaque, Nullable: true, Required: true},
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, n := range nodes {
			n.Check(data, jsonlex.Span{Start: 0, End: len(data)})
			if len(data) > 2 {
				n.Check(data, jsonlex.Span{Start: 1, End: len(data) - 1})
			}
		}
	})
}

// TestSeal_SameVerdicts: a sealed node (its bounds read as one range, its
// first byte known) judges every value as the same node unsealed, rule by
// rule: on generated rules at the ends of each kind's range, and values
// around them.
func TestSeal_SameVerdicts(t *testing.T) {
	ints := []int64{math.MinInt64, math.MinInt64 + 1, -2, -1, 0, 1, 2, 3, 7, math.MaxInt64 - 1, math.MaxInt64}
	uints := []uint64{0, 1, 2, 3, 7, math.MaxUint64 - 1, math.MaxUint64}
	floats := []float64{math.Inf(-1), -math.MaxFloat64, -1, -0.5, 0, 5e-324, 0.1, 0.5, 1, math.MaxFloat64, math.Inf(1)}
	ops := []Op{Gte, Lte, Gt, Lt, Eq, Ne}
	x := uint64(1)
	rnd := func(n int) int {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x % uint64(n))
	}
	lits := []string{`-9223372036854775808`, `-9223372036854775807`, `-2`, `-1`, `0`, `-0`, `1`, `2`, `3`, `7`, `0.5`, `-0.5`, `0.1`,
		`9223372036854775807`, `18446744073709551615`, `18446744073709551614`, `1e308`, `-1e308`, `5e-324`, `""`, `"a"`, `"abc"`,
		`"héé"`, `[]`, `[1]`, `[1,2,3]`, `{}`, `{"a":1,"b":2}`, `null`, `true`}
	for range 20000 {
		kind := []Kind{Int, Uint, Float, String, Slice, Map}[rnd(6)]
		var rules []Rule
		for range rnd(3) {
			r := Rule{Op: ops[rnd(len(ops))]}
			switch kind {
			case Int:
				r.I = ints[rnd(len(ints))]
			case Uint:
				r.U = uints[rnd(len(uints))]
			case Float:
				r.F = floats[rnd(len(floats))]
			default:
				r.Len, r.I = true, ints[rnd(len(ints))]
			}
			rules = append(rules, r)
		}
		mk := func() *Node {
			return &Node{Kind: kind, Bits: 32 << rnd(2), Rules: rules, Nullable: rnd(2) == 0, OmitEmpty: rnd(3) == 0, Required: rnd(3) == 0}
		}
		plain := mk()
		sealed := *plain
		sealed.Seal()
		for _, lit := range lits {
			d := []byte(lit)
			s := jsonlex.Span{Start: 0, End: len(d)}
			v1, _ := plain.Check(d, s)
			v2, _ := sealed.Check(d, s)
			if v1 != v2 {
				t.Fatalf("kind %v rules %+v, %s: sealed %v, rule by rule %v", kind, rules, lit, v2, v1)
			}
		}
	}
}

// TestShortFloat_IsParseFloat: the short decimals the walk reads without
// strconv read as strconv.ParseFloat reads them, at both sizes; others
// are left to it.
func TestShortFloat_IsParseFloat(t *testing.T) {
	x := uint64(7)
	for i := range 200000 {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		digits := strconv.FormatUint(x>>(x%64), 10)
		if len(digits) > 18 {
			digits = digits[:1+i%18]
		}
		lit := digits
		if k := int(x>>8) % (len(digits) + 1); k < len(digits) {
			lit = digits[:k+1] + "." + digits[k+1:]
			if k+1 == len(digits) {
				lit += "0"
			}
		}
		if i%2 == 1 {
			lit = "-" + lit
		}
		if i%7 == 0 {
			lit = "0." + strings.Repeat("0", i%20) + digits
		}
		for _, bits := range []int{32, 64} {
			f, ok := shortFloat([]byte(lit), bits)
			if !ok {
				continue
			}
			want, err := strconv.ParseFloat(lit, bits)
			if err != nil || f != want || math.Signbit(f) != math.Signbit(want) {
				t.Fatalf("%s at %d bits: %v, ParseFloat %v (%v)", lit, bits, f, want, err)
			}
		}
	}
	for _, lit := range []string{"1e5", "1E5", "-", "", "1.2.3"} {
		if _, ok := shortFloat([]byte(lit), 64); ok {
			t.Errorf("%q: read as short", lit)
		}
	}
}

// numberByStrconv is Number as it was, each literal parsed by strconv:
// the reference Number is held to.
func numberByStrconv(n *Node, lit []byte) Verdict {
	var (
		iv  int64
		uv  uint64
		fv  float64
		err error
	)
	switch n.Kind {
	case Int:
		iv, err = strconv.ParseInt(string(lit), 10, 64)
	case Uint:
		uv, err = strconv.ParseUint(string(lit), 10, 64)
	default:
		fv, err = strconv.ParseFloat(string(lit), n.Bits)
	}
	if err != nil {
		return Unknown
	}
	return n.numberValue(iv, uv, fv)
}

var numberNodes = []*Node{
	{Kind: Int, Rules: []Rule{{Op: Gte, I: 1}, {Op: Lte, I: 10}}},
	{Kind: Int, Rules: []Rule{{Op: Ne, I: math.MinInt64}}},
	{Kind: Uint, Rules: []Rule{{Op: Lte, U: math.MaxUint64 - 1}}},
	{Kind: Float, Bits: 64, Rules: []Rule{{Op: Lt, F: 1e308}}},
	{Kind: Float, Bits: 32, Rules: []Rule{{Op: Gt, F: -3e38}}},
}

// TestNumber_AsStrconvReadsIt_AllocatingNothing: Number's verdict is
// strconv's on every literal around each kind's bounds (fractions,
// exponents, signs, overflow by one and by a decade), and a literal
// strconv fails on allocates nothing: an integer's fraction or overflow,
// a float past its range by a decade. Before, each such literal
// allocated strconv's error (20,038 allocations for 10,000 of them).
func TestNumber_AsStrconvReadsIt_AllocatingNothing(t *testing.T) {
	lits := []string{`0`, `-0`, `1`, `-1`, `10`, `11`, `0.5`, `1.0`, `1e1`, `1E+1`, `-1e-1`, `+1`, `9223372036854775807`,
		`9223372036854775808`, `-9223372036854775808`, `-9223372036854775809`, `18446744073709551615`,
		`18446744073709551616`, `99999999999999999999999`, `1e308`, `1.7976931348623157e308`, `1.8e308`, `9e308`,
		`1e309`, `-1e309`, `0.00001e313`, `100e307`, `1e-400`, `0e999999`, `3.4e38`, `3.5e38`, `1e39`, `-1e39`,
		`0.1e40`, `1e38`, `10e37`, `123456789012345678901234567890`, `1e99999999999999999999`, `-0.0e0`, `5e-324`}
	for _, n := range numberNodes {
		for _, lit := range lits {
			if got, want := n.Number([]byte(lit)), numberByStrconv(n, []byte(lit)); got != want {
				t.Errorf("%v/%d %s: %v, strconv's verdict %v", n.Kind, n.Bits, lit, got, want)
			}
		}
	}
	for _, c := range []struct {
		n   *Node
		lit string
	}{{numberNodes[0], "0.5"}, {numberNodes[0], "1e1"}, {numberNodes[0], "99999999999999999999999"},
		{numberNodes[2], "-1"}, {numberNodes[3], "1e309"}, {numberNodes[4], "1e39"}, {numberNodes[3], "1e99999"}} {
		lit := []byte(c.lit)
		if a := testing.AllocsPerRun(10, func() { c.n.Number(lit) }); a != 0 {
			t.Errorf("%v/%d %s: %v allocations", c.n.Kind, c.n.Bits, c.lit, a)
		}
	}
}

// FuzzNumber_AsStrconvReadsIt: on any JSON number, Number's verdict is
// strconv's (numberByStrconv) at every kind.
func FuzzNumber_AsStrconvReadsIt(f *testing.F) {
	for _, s := range []string{`1`, `-0.5e10`, `1e309`, `18446744073709551616`, `3.5e38`, `0.000e400`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, lit []byte) {
		if end, _, ok := jsonlex.Number(lit, 0); !ok || end != len(lit) {
			return
		}
		for _, n := range numberNodes {
			if got, want := n.Number(lit), numberByStrconv(n, lit); got != want {
				t.Fatalf("%v/%d %s: %v, strconv's verdict %v", n.Kind, n.Bits, lit, got, want)
			}
		}
	})
}

// TestCheck_CycleHoldsMaxDepthLevels: a recursive type's nodes make a
// cycle, which a value may follow as deep as the binder reads it; Check
// holds MaxDepth lists, maps and structs inside one another to their
// nodes and answers Unknown for a value nested deeper (its caller then
// decodes), so that it reads a value's text at most MaxDepth times over
// (each level's members are read, then each member inside them).
func TestCheck_CycleHoldsMaxDepthLevels(t *testing.T) {
	v := &Node{Kind: Int, Rules: []Rule{{Op: Lte, I: 10}}}
	tree := &Node{Kind: Struct, NilOK: true}
	kids := &Node{Kind: Slice, Nullable: true, Elem: tree}
	tree.Fields = []Field{{Name: "v", Node: v}, {Name: "next", Node: tree}, {Name: "kids", Node: kids}}
	tree.Seal() // the cycle is sealed once
	chain := func(way string, levels int, bottom string) string {
		open, shut := `{"next":`, `}`
		if way == "kids" {
			open, shut = `{"kids":[`, `]}`
		}
		return strings.Repeat(open, levels) + `{"v":` + bottom + `}` + strings.Repeat(shut, levels)
	}
	for _, way := range []string{"next", "kids"} {
		per := 1 // the containers each level opens: a struct, and for kids a list
		if way == "kids" {
			per = 2
		}
		for levels := range 3 * MaxDepth {
			deep := (levels*per + 1) > MaxDepth // the bottom struct's containers, it included
			for _, c := range []struct {
				bottom string
				want   Verdict
			}{{"10", Pass}, {"11", Fail}} {
				d := []byte(chain(way, levels, c.bottom))
				want := c.want
				if deep {
					want = Unknown
				}
				got, at := tree.Check(d, jsonlex.Span{Start: 0, End: len(d)})
				if got != want {
					t.Errorf("%s, %d levels, v %s: %v, want %v", way, levels, c.bottom, got, want)
				}
				if got == Fail && string(d[at.Start:at.End]) != c.bottom {
					t.Errorf("%s, %d levels: the breach is at %q, want %q", way, levels, d[at.Start:at.End], c.bottom)
				}
			}
		}
	}
}
