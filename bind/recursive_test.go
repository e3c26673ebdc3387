package bind_test

import (
	"os"
	"os/exec"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// Recursive types: the guard must read them at every depth as the binder
// does.
type (
	recNode struct {
		V    int      `json:"v"`
		F    float64  `json:"f"`
		Next *recNode `json:"next"`
	}
	recKids struct {
		V    int       `json:"v"`
		Kids []recKids `json:"kids"`
	}
	RecChain struct {
		*RecChain
		Val  int       `json:"val"`
		Next *RecChain `json:"next"`
	}
	recTree []recTree
	recMap  map[string]recMap
	recArr  [2]*recArr
	recPMap map[string]*recPMap
	recMutA struct {
		N  int       `json:"n"`
		Bs []recMutB `json:"bs"`
	}
	recMutB map[string]*recMutA

	recArgs struct {
		Node  recNode   `json:"node"`
		Kids  []recKids `json:"kids"`
		Chain RecChain  `json:"chain"`
		Mut   recMutA   `json:"mut"`
		U     uintptr   `json:"u"`
	}
	recLoopArgs struct { // struct-free loops: segmentio cannot build them
		Tree recTree `json:"tree"`
		Map  recMap  `json:"map"`
		Arr  recArr  `json:"arr"`
		PMap recPMap `json:"pmap"`
	}
)

// nestIn returns the JSON of a value that holds leaf depth levels down, each
// level written by wrap around the level inside it.
func nestIn(depth int, leaf string, wrap func(inner string) string) string {
	s := leaf
	for range depth {
		s = wrap(s)
	}
	return s
}

// recShapes write one argument depth levels deep, with leaf at the
// bottom: leaf is a member list for struct levels, a value otherwise.
var recShapes = []struct {
	name  string
	loop  bool // in recLoopArgs
	value func(depth int, leaf string) string
}{
	{"node", false, func(d int, leaf string) string {
		return `{"node":` + nestIn(d, `{`+leaf+`}`, func(in string) string { return `{"v":1,"next":` + in + `}` }) + `}`
	}},
	{"kids", false, func(d int, leaf string) string {
		return `{"kids":[` + nestIn(d, `{`+leaf+`}`, func(in string) string { return `{"v":2,"kids":[{"v":1},` + in + `]}` }) + `]}`
	}},
	{"chain", false, func(d int, leaf string) string {
		return `{"chain":` + nestIn(d, `{`+leaf+`}`, func(in string) string { return `{"val":1,"next":` + in + `}` }) + `}`
	}},
	{"mutual", false, func(d int, leaf string) string {
		return `{"mut":` + nestIn(d, `{`+leaf+`}`, func(in string) string { return `{"n":1,"bs":[{"k":` + in + `}]}` }) + `}`
	}},
	{"tree", true, func(d int, leaf string) string {
		return `{"tree":` + nestIn(d, `[`+leaf+`]`, func(in string) string { return `[[],` + in + `]` }) + `}`
	}},
	{"map", true, func(d int, leaf string) string {
		return `{"map":` + nestIn(d, `{"k":`+leaf+`}`, func(in string) string { return `{"a":{},"b":` + in + `}` }) + `}`
	}},
	{"array", true, func(d int, leaf string) string {
		return `{"arr":` + nestIn(d, `[null,`+leaf+`]`, func(in string) string { return `[null,` + in + `]` }) + `}`
	}},
	{"pointer map", true, func(d int, leaf string) string {
		return `{"pmap":` + nestIn(d, `{"k":`+leaf+`}`, func(in string) string { return `{"a":null,"b":` + in + `}` }) + `}`
	}},
}

// recLeaves are what sits at the bottom: a struct level's members, or a
// container level's element.
var recLeaves = struct{ members, elements []string }{
	members: []string{
		`"v":2`, `"v":"x"`, `"v":1.5`, `"v":99999999999999999999`, `"v":null`, `"f":9007199254740993`,
		`"n":true`, `"n":null`, `"val":"x"`, `"zz":1`, `"next":null`, `"next":7`, `"kids":{}`, `"bs":[7]`,
		`"bs":[{"k":null}]`, `"bs":[{"k":{"n":"x"}}]`, `"v":"\ud800"`,
	},
	elements: []string{`[]`, `{}`, `null`, `1`, `"x"`, `[1]`, `{"k":[]}`, `[null,null,null]`, `[[1]]`, `{"k":{"k":1}}`},
}

// TestCheck_RecursiveTypesAtDepth: for each binder, each recursive shape,
// depths 1, 2 and 50, and each leaf, Check finds an issue the binder
// fails on exactly when the real decoder fails.
func TestCheck_RecursiveTypesAtDepth(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plans := map[bool]*bind.Plan{}
		for loop, typ := range map[bool]reflect.Type{false: reflect.TypeFor[recArgs](), true: reflect.TypeFor[recLoopArgs]()} {
			if loop && b == segmentio.Binder {
				continue
			}
			p, err := b.Compile(typ)
			if err != nil {
				t.Fatalf("%s: Compile(%v): %v", b.Name(), typ, err)
			}
			plans[loop] = p
		}
		n := 0
		for _, sh := range recShapes {
			plan := plans[sh.loop]
			if plan == nil {
				continue
			}
			leaves := recLeaves.members
			if sh.loop {
				leaves = recLeaves.elements
			}
			for _, depth := range []int{1, 2, 50} {
				for _, leaf := range leaves {
					args := sh.value(depth, leaf)
					err := b.Unmarshal([]byte(args), reflect.New(plan.Type()).Interface())
					var failing []bind.Issue
					for _, is := range plan.Check([]byte(args), nil) {
						if is.Kind.Class() == bind.BinderFailure {
							failing = append(failing, is)
						}
					}
					if (err != nil) != (len(failing) > 0) {
						t.Errorf("%s %s depth %d, leaf %s: binder err = %v, guard's failing issues = %v", b.Name(), sh.name, depth, leaf, err, failing)
					}
					n++
				}
			}
		}
		if n < 100 {
			t.Fatalf("%s: only %d rows ran", b.Name(), n)
		}
	}
}

// TestCheck_RecursiveLossesAtDepth: a silent loss 50 levels down is
// reported, by every binder, at its path.
func TestCheck_RecursiveLossesAtDepth(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[recArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			shape, leaf string
			kind        bind.Code
		}{
			{"node", `"v":null`, bind.NullForValue},
			{"node", `"f":9007199254740993`, bind.RoundedNumber},
			{"kids", `"v":null`, bind.NullForValue},
			{"chain", `"val":null`, bind.NullForValue},
			{"mutual", `"n":null`, bind.NullForValue},
		} {
			var value func(int, string) string
			for _, sh := range recShapes {
				if sh.name == tc.shape {
					value = sh.value
				}
			}
			args := value(50, tc.leaf)
			if err := b.Unmarshal([]byte(args), reflect.New(plan.Type()).Interface()); err != nil {
				t.Fatalf("%s %s: the binder fails: %v", b.Name(), args, err)
			}
			var found *bind.Issue
			for _, is := range plan.Check([]byte(args), nil) {
				if is.Kind == tc.kind {
					found = &is
				}
			}
			if found == nil {
				t.Errorf("%s %s 50 levels down: no %v reported", b.Name(), tc.leaf, tc.kind)
				continue
			}
			// The issue is the leaf's value, 50 levels down; its path is
			// bounded, so it shows the first steps and the last ones.
			if want := strings.LastIndex(args, tc.leaf) + strings.Index(tc.leaf, ":") + 1; found.Start != want {
				t.Errorf("%s %s: %v at offset %d (%q), want the leaf's value at %d", b.Name(), tc.leaf, tc.kind, found.Start, found.Path.String(), want)
			}
			if !strings.Contains(found.Path.String(), "[…]") {
				t.Errorf("%s %s: the path %q of a value 50 levels down is not cut", b.Name(), tc.leaf, found.Path.String())
			}
		}
	}
}

// TestSegmentIO_LoopWithoutStructKillsTheProcess is why SegmentIO's
// Compile refuses a type that holds itself through no struct: segmentio's
// own Unmarshal overflows the stack on it, which no recover catches.
func TestSegmentIO_LoopWithoutStructKillsTheProcess(t *testing.T) {
	if os.Getenv("BINDGUARD_SEGMENTIO_LOOP") == "1" {
		var v struct{ T recTree }
		_ = segmentio.Binder.Unmarshal([]byte(`{"T":[]}`), &v)
		os.Exit(0)
	}
	if testing.Short() {
		t.Skip("runs a child process until its stack overflows")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSegmentIO_LoopWithoutStructKillsTheProcess$")
	cmd.Env = append(os.Environ(), "BINDGUARD_SEGMENTIO_LOOP=1")
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "stack overflow") {
		t.Fatalf("segmentio decoded into type Tree []Tree (err %v); Compile need not refuse it:\n%.500s", err, out)
	}
	if _, err := segmentio.Binder.Compile(reflect.TypeFor[struct{ T recTree }]()); err == nil {
		t.Error("Compile accepted it")
	}
}

// FuzzCheck_RecursiveTypes: a fuzzed leaf, nested up to 60 levels deep in
// one of the recursive shapes (linked, tree-shaped, self-embedding,
// mutual, and, but for SegmentIO, types that hold themselves through no
// struct), is checked by each binder's plan exactly as the real decoder
// reads it: a failure exactly when the decoder fails.
func FuzzCheck_RecursiveTypes(f *testing.F) {
	plans := map[bind.Binder]map[bool]*bind.Plan{}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plans[b] = map[bool]*bind.Plan{}
		for loop, typ := range map[bool]reflect.Type{false: reflect.TypeFor[recArgs](), true: reflect.TypeFor[recLoopArgs]()} {
			if loop && b == segmentio.Binder {
				continue
			}
			p, err := b.Compile(typ)
			if err != nil {
				f.Fatal(err)
			}
			plans[b][loop] = p
		}
	}
	for i, sh := range recShapes {
		leaves := recLeaves.members
		if sh.loop {
			leaves = recLeaves.elements
		}
		for _, leaf := range leaves {
			f.Add(uint8(i), uint8(3), []byte(leaf))
			f.Add(uint8(i), uint8(55), []byte(leaf))
		}
	}
	f.Fuzz(func(t *testing.T, shape, depth uint8, leaf []byte) {
		sh := recShapes[int(shape)%len(recShapes)]
		args := []byte(sh.value(int(depth)%61, string(leaf)))
		for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
			if plan := plans[b][sh.loop]; plan != nil {
				checkAgainst(t, plan, args)
			}
		}
	})
}

// TestCheck_UintptrAsTheBindersRead: every binder reads uintptr as an
// unsigned integer of its size (which is why registration takes it), and
// the guard agrees with each on every value.
func TestCheck_UintptrAsTheBindersRead(t *testing.T) {
	type args struct {
		P  uintptr            `json:"p"`
		Ps []uintptr          `json:"ps"`
		M  map[uintptr]string `json:"m"`
		Q  uintptr            `json:"q,string"`
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[args]())
		if err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
		var v args
		if err := b.Unmarshal([]byte(`{"p":18446744073709551615,"ps":[5],"m":{"7":"x"}}`), &v); err != nil || v.P != ^uintptr(0) || v.Ps[0] != 5 || v.M[7] != "x" {
			t.Errorf("%s reads %+v, %v", b.Name(), v, err)
		}
		for _, val := range []string{`0`, `5`, `18446744073709551615`, `18446744073709551616`, `-1`, `1.5`, `1e3`, `"5"`, `null`, `true`} {
			checkAgainst(t, plan, []byte(`{"p":`+val+`}`))
			checkAgainst(t, plan, []byte(`{"ps":[`+val+`]}`))
			checkAgainst(t, plan, []byte(`{"q":`+val+`}`))
			checkAgainst(t, plan, []byte(`{"q":"`+strings.Trim(val, `"`)+`"}`))
			checkAgainst(t, plan, []byte(`{"m":{`+strconv.Quote(strings.Trim(val, `"`))+`:"x"}}`))
		}
	}
}

// TestCheck_RecursiveTypesAtTheBindersDepth: a good value at the deepest
// level each binder reads, in a linked list and a tree, and wrong values
// 1,000 levels down (SegmentIO's limit: the cost of reporting a deep
// problem is issue 10's section 1, pinned by its growth tests).
func TestCheck_RecursiveTypesAtTheBindersDepth(t *testing.T) {
	for _, tc := range []struct {
		b     bind.Binder
		depth int // levels of nesting the binder reads
	}{{bind.Std, 10000}, {jsonv2.Binder, 10000}, {segmentio.Binder, bind.SegmentIOMaxDepth}} {
		plan, err := tc.b.Compile(reflect.TypeFor[recArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range recShapes[:2] {
			perLevel := 1 // node: one object a level
			if sh.name == "kids" {
				perLevel = 2 // an object and its kids array
			}
			checkAgainst(t, plan, []byte(sh.value(tc.depth/perLevel-3, `"v":3`)))
			bad := bind.SegmentIOMaxDepth/perLevel - 3
			if testing.Short() {
				bad /= 4 // reporting a deep problem costs more than linear time (issue 10, section 1)
			}
			for _, leaf := range []string{`"v":"x"`, `"v":null`, `"v":1.5`} {
				checkAgainst(t, plan, []byte(sh.value(bad, leaf)))
			}
		}
	}
}
