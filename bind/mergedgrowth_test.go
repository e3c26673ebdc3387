package bind_test

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/bindcap"
)

// The growth of the reading of objects a repeated key merges (bind's
// filledMissing, which refuse.Decide runs on the pass's verdict): past
// MaxIssues an argument is placed whole, a place for every object it
// holds, and what that reading allocates is the same at 1x, 10x and 100x
// of a call. No clock is read.

// filledMissing is bind's reading of merged objects (bindcap.FilledMissing).
var filledMissing = bindcap.FilledMissing.(func(*bind.Plan, []byte, []bind.Issue) []bind.Issue)

// mergeLeaf has eight required fields: an empty object leaves out eight,
// so that a call of a few hundred objects is past MaxIssues.
type mergeLeaf struct {
	A int `json:"a"`
	B int `json:"b"`
	C int `json:"c"`
	D int `json:"d"`
	E int `json:"e"`
	F int `json:"f"`
	G int `json:"g"`
	H int `json:"h"`
}

// mergeKey is a map key its UnmarshalText reads as the number after the
// key's first byte, allocating nothing: "K7" and "k7" are one key.
type mergeKey int

func (k *mergeKey) UnmarshalText(b []byte) error {
	n := 0
	for _, c := range b[1:] {
		n = 10*n + int(c-'0')
	}
	*k = mergeKey(n)
	return nil
}

type mergeNest struct {
	X mergeLeaf   `json:"x"`
	P *mergeLeaf  `json:"p"`
	L []mergeLeaf `json:"l"`
}

type mergeArgs struct {
	W mergeLeaf               `json:"w"`
	L []mergeLeaf             `json:"l"`
	A [4]mergeLeaf            `json:"a"`
	M map[string]mergeLeaf    `json:"m"`
	I map[int64]mergeLeaf     `json:"i"`
	T map[mergeKey]mergeLeaf  `json:"t"`
	N []*mergeNest            `json:"n"`
	P *mergeNest              `json:"p"`
	G map[string][]*mergeNest `json:"g"`
}

const (
	mergeEmpty = `{}`
	mergeWhole = `{"a":1,"b":1,"c":1,"d":1,"e":1,"f":1,"g":1,"h":1}`
	mergeHalf  = `{"a":1,"b":1,"c":1,"d":1}`
	mergeRest  = `{"e":1,"f":1,"g":1,"h":1}`
)

// mergeShapes are good calls of scale k whose every object leaves
// required fields out, and whose objects merged by a repeated key hold
// them all, in every way a binder merges: a struct's key sent again, a
// pointer's, a list's elements, a fixed array's, a map's elements (each
// new: the later object is whole), keys of every kind read alike by
// different texts, and nesting of them all.
var mergeShapes = []struct {
	name string
	args func(k int) string
}{
	{"a struct's key sent again and again", func(k int) string {
		return `{` + rep(`"w":`+mergeHalf+`,"w":`+mergeRest, 200*k, ",") + `}`
	}},
	{"a list of structs sent twice", func(k int) string {
		return `{"l":[` + rep(mergeEmpty, 200*k, ",") + `],"l":[` + rep(mergeWhole, 200*k, ",") + `]}`
	}},
	{"a fixed array sent again and again", func(k int) string {
		return `{` + rep(`"a":[`+rep(mergeHalf, 4, ",")+`],"a":[`+rep(mergeRest, 4, ",")+`]`, 50*k, ",") + `}`
	}},
	{"a map of structs sent twice, keys in the same order", func(k int) string {
		return `{"m":{` + seq(200*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":` + mergeEmpty }) +
			`},"m":{` + seq(200*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":` + mergeWhole }) + `}}`
	}},
	{"a map of structs sent twice, keys in reverse order and escaped", func(k int) string {
		return `{"m":{` + seq(200*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":` + mergeEmpty }) +
			`},"m":{` + seq(200*k, func(i int) string { return `"\u006b` + strconv.Itoa(200*k-1-i) + `":` + mergeWhole }) + `}}`
	}},
	{"a map of integer keys sent twice, each read alike by another text", func(k int) string {
		return `{"i":{` + seq(200*k, func(i int) string { return `"\u0031` + strconv.Itoa(i) + `":` + mergeEmpty }) +
			`},"i":{` + seq(200*k, func(i int) string { return `"1` + strconv.Itoa(i) + `":` + mergeWhole }) + `}}`
	}},
	{"a map of keys a method reads, sent twice, each read alike by another text", func(k int) string {
		return `{"t":{` + seq(200*k, func(i int) string { return `"K` + strconv.Itoa(i) + `":` + mergeEmpty }) +
			`},"t":{` + seq(200*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":` + mergeWhole }) + `}}`
	}},
	{"a pointer's key sent again and again, nested", func(k int) string {
		return `{` + rep(`"p":{"x":`+mergeHalf+`,"p":`+mergeHalf+`,"l":[`+mergeHalf+`]},"p":{"x":`+mergeRest+`,"p":`+mergeRest+`,"l":[`+mergeRest+`]}`, 100*k, ",") + `}`
	}},
	{"a list of pointers to structs of lists, sent twice", func(k int) string {
		first := `{"x":` + mergeEmpty + `,"p":` + mergeEmpty + `,"l":[` + mergeEmpty + `,` + mergeEmpty + `]}`
		second := `{"x":` + mergeWhole + `,"p":` + mergeWhole + `,"l":[` + mergeWhole + `,` + mergeWhole + `]}`
		return `{"n":[` + rep(first, 40*k, ",") + `],"n":[` + rep(second, 40*k, ",") + `]}`
	}},
	{"a map of lists of pointers to structs, sent twice", func(k int) string {
		first := `[{"x":` + mergeEmpty + `,"l":[` + mergeEmpty + `]}]`
		second := `[{"x":` + mergeWhole + `,"l":[` + mergeWhole + `]}]` // a map's element is new: nothing below it merges
		return `{"g":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":` + first }) +
			`},"g":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":` + second }) + `}}`
	}},
}

func mergePlan(t *testing.T, b bind.Binder) *bind.Plan {
	t.Helper()
	plan, err := b.Compile(reflect.TypeFor[mergeArgs]())
	if err != nil {
		t.Fatal(err)
	}
	return plan.WithRequired(nil, func(t reflect.Type) []string {
		if t == reflect.TypeFor[mergeLeaf]() {
			return []string{"a", "b", "c", "d", "e", "f", "g", "h"}
		}
		return nil
	})
}

// TestFilledMissing_AllocationsStayFlat: for every shape of merged
// objects and each binder that merges, the reading of a call placed whole
// allocates at 10x and 100x what it allocates at 1x (its room is pooled,
// and grows by doubling for a call wider than any before). -short: 1x and
// 10x. It allocated
// for every object: a map of slots and a list of fields for each, a string
// for each map key, a Go key for each a method reads (206,304 times for a
// call of 400,000 objects).
func TestFilledMissing_AllocationsStayFlat(t *testing.T) {
	scales := growthScales
	if testing.Short() {
		scales = scales[:2]
	}
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder} {
		plan := mergePlan(t, b)
		for _, sh := range mergeShapes {
			t.Run(b.Name()+"/"+sh.name, func(t *testing.T) {
				var base float64
				for _, k := range scales {
					args := []byte(sh.args(k))
					issues := plan.Check(args, nil)
					counted, listed := false, 0
					for _, is := range issues {
						counted = counted || is.Kind == bind.Omitted && is.Of == bind.MissingField
						if is.Kind == bind.MissingField {
							listed++
						}
					}
					if !counted {
						t.Fatalf("%dx: no missing field counted past MaxIssues: %d issues, %d listed", k, len(issues), listed)
					}
					work := make([]bind.Issue, len(issues), len(issues)+8)
					read := func() []bind.Issue { copy(work, issues); return filledMissing(plan, args, work[:len(issues)]) }
					for _, is := range read() {
						if is.Kind == bind.MissingField || is.Kind == bind.Omitted && is.Of == bind.MissingField {
							t.Fatalf("%dx: a missing field stands in a good call: %+v", k, is)
						}
					}
					allocs := testing.AllocsPerRun(5, func() { read() })
					t.Logf("%dx: %d bytes, %d issues: %v allocations", k, len(args), len(issues), allocs)
					if k == 1 {
						base = allocs
					} else if allocs > base+1 {
						t.Errorf("%dx: %v allocations for %d bytes; at 1x %v", k, allocs, len(args), base)
					}
				}
			})
		}
	}
}
