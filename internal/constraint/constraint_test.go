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
