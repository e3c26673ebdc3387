package constraint

import (
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
