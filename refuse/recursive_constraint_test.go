package refuse_test

import (
	"strings"
	"testing"

	"github.com/go-playground/validator/v10"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// filterNode is a recursive parameter with tags at its every level, as a
// query builder's filter takes: an operator, a value, and filters inside
// it through a pointer, a list and a map.
type filterNode struct {
	Op    string                 `json:"op" validate:"required,oneof=and or eq lt"`
	Value *int                   `json:"value,omitempty" validate:"omitempty,min=0,max=100"`
	Not   *filterNode            `json:"not,omitempty"`
	Kids  []filterNode           `json:"kids,omitempty" validate:"max=3,dive"`
	Named map[string]*filterNode `json:"named,omitempty" validate:"dive"`
}

type filterArgs struct {
	Where filterNode `json:"where"`
	Limit int        `json:"limit" validate:"min=1,max=50"`
}

// filterChain returns a filter nested depth levels deep by way (not, kids
// or named), each level sent its op (and, at the bottom, bottom's fields).
func filterChain(way string, depth int, bottom string) string {
	var open, shut strings.Builder
	for range depth {
		switch way {
		case "not":
			open.WriteString(`{"op":"and","not":`)
			shut.WriteString(`}`)
		case "kids":
			open.WriteString(`{"op":"or","kids":[{"op":"eq","value":1},`)
			shut.WriteString(`]}`)
		case "named":
			open.WriteString(`{"op":"and","named":{"a":{"op":"lt"},"b":`)
			shut.WriteString(`}}`)
		}
	}
	return open.String() + `{"op":"eq"` + bottom + `}` + shut.String()
}

// TestConstraint_RecursiveTypes: the tags of a recursive parameter are
// compiled (its nodes make a cycle) and held in the walk, to the
// validator's verdict on the value the binder reads, at every depth: a
// value nested past the levels the walk holds (constraint.MaxDepth) is
// decoded and validated, as every call of such a tool was before. A
// breach within them is found in the walk, its path inside the argument.
func TestConstraint_RecursiveTypes(t *testing.T) {
	v := validator.New()
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[filterArgs](reg, "filter"); err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
		bindtest.Constraints(t, reg)
		for _, way := range []string{"not", "kids", "named"} {
			for depth := range 13 {
				for _, bottom := range []string{``, `,"value":100`, `,"value":101`, `,"value":-1`, `,"op":"xor"`, `,"kids":[{"op":"eq"},{"op":"eq"},{"op":"eq"},{"op":"eq"}]`, `,"named":{"x":null}`, `,"not":{}`} {
					args := `{"limit":5,"where":` + filterChain(way, depth, bottom) + `}`
					var got filterArgs
					if err := b.Unmarshal([]byte(args), &got); err != nil {
						if bottom != `,"op":"xor"` || b != jsonv2.Binder {
							t.Fatalf("%s %s: the binder fails: %v", b.Name(), args, err)
						}
						continue // V2 fails on the op sent twice
					}
					valid := v.Struct(got) == nil
					r := refuse.Refuse(reg, "filter", []byte(args))
					if (r == nil) != valid {
						t.Errorf("%s %s: refusal %v, the validator says valid=%v", b.Name(), args, r, valid)
						continue
					}
					if r == nil {
						continue
					}
					want := refuse.Constraint
					if bottom == `,"not":{}` {
						want = refuse.MissingField // the op its tag requires, and the schema
					}
					if len(r.Problems) != 1 || r.Problems[0].Code != want || r.Problems[0].Argument != "where" {
						t.Errorf("%s %s: problems %+v, want one %s on where", b.Name(), args, r.Problems, want)
					}
				}
			}
		}
	}
}

// TestConstraint_RecursiveBreachInTheWalk: a breach a few levels down a
// recursive parameter is refused with its path and pointer inside the
// argument, and a clean call of the tool allocates nothing: its tags are
// held in the one pass. They were not compiled (a struct met inside
// itself), so every call was decoded and run through the validator (62
// to 79 allocations for the clean call below, by binder).
func TestConstraint_RecursiveBreachInTheWalk(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[filterArgs](reg, "filter"); err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
		clean := []byte(`{"limit":5,"where":` + filterChain("kids", 3, `,"value":7`) + `}`)
		if r := refuse.Refuse(reg, "filter", clean); r != nil {
			t.Fatalf("%s: the clean call is refused: %v", b.Name(), r)
		}
		if n := testing.AllocsPerRun(100, func() { refuse.Refuse(reg, "filter", clean) }); n != 0 {
			t.Errorf("%s: the clean call allocates %v times, want 0", b.Name(), n)
		}
		bad := []byte(`{"limit":5,"where":` + filterChain("kids", 2, `,"value":101`) + `}`)
		r := refuse.Refuse(reg, "filter", bad)
		if r == nil || len(r.Problems) != 1 {
			t.Fatalf("%s: refusal %v, want one problem", b.Name(), r)
		}
		p := r.Problems[0]
		if want := "/where/kids/1/kids/1/value"; p.Pointer != want || p.Path != ".kids[1].kids[1].value" || p.Element != "101" {
			t.Errorf("%s: the breach is at %s (%s), element %s; want %s", b.Name(), p.Pointer, p.Path, p.Element, want)
		}
	}
}

// TestConstraint_RecursiveDeepInTheWalk: a recursive argument nested past
// the levels the walk once held (eight) is still judged in the walk, at
// any depth the binder reads: a clean call allocates nothing, and a breach
// at the bottom of a chain a refusal's few allocations (its room, its
// words, its readable path), at 100 levels as at 3,000. Past eight levels
// the call was decoded and run through the validator: the clean call
// allocated 736 times at 100 levels and 21,067 at 3,000, the refused one
// 2,307 and more.
func TestConstraint_RecursiveDeepInTheWalk(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[filterArgs](reg, "filter"); err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
		for _, way := range []string{"not", "named"} {
			var refused []float64
			for _, n := range []int{100, 900, 3000} {
				if b == segmentio.Binder && n*len(way)/3 > 900 {
					continue // past segmentio's nesting (go-sdk's 1,000 levels; named nests two a level): refused as too deep
				}
				clean := []byte(`{"limit":5,"where":` + filterChain(way, n, `,"value":5`) + `}`)
				bad := []byte(`{"limit":5,"where":` + filterChain(way, n, `,"value":500`) + `}`)
				if r := refuse.Refuse(reg, "filter", clean); r != nil {
					t.Fatalf("%s %s %d: the clean call is refused: %v", b.Name(), way, n, r)
				}
				r := refuse.Refuse(reg, "filter", bad)
				if r == nil || len(r.Problems) != 1 || r.Problems[0].Code != refuse.Constraint || r.Problems[0].Element != "500" {
					t.Fatalf("%s %s %d: refusal %v, want the breach of 500", b.Name(), way, n, r)
				}
				if a := testing.AllocsPerRun(5, func() { refuse.Refuse(reg, "filter", clean) }); a != 0 {
					t.Errorf("%s %s %d levels: the clean call allocates %v times, want 0", b.Name(), way, n, a)
				}
				a := testing.AllocsPerRun(5, func() { refuse.Refuse(reg, "filter", bad) })
				if a > 8 || len(refused) > 0 && a != refused[0] {
					t.Errorf("%s %s %d levels: the refused call allocates %v times, want at most 8, as many as at %d levels (%v)", b.Name(), way, n, a, 100, refused)
				}
				refused = append(refused, a)
			}
		}
	}
}
