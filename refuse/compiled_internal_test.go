package refuse

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/typereg"
)

// compiledArgs has the constraints of constraint_test.go's stats, and more
// kinds.
type compiledArgs struct {
	HoursBack int                 `json:"hours_back" validate:"min=1,max=168"`
	Limit     int32               `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
	Name      string              `json:"name,omitempty" validate:"omitempty,max=8"`
	Color     string              `json:"color,omitempty" validate:"omitempty,oneof=crimson teal amber"`
	IDs       []int               `json:"ids,omitempty" validate:"omitempty,min=1,max=3,dive,min=1"`
	Weights   map[string]int      `json:"weights,omitempty" validate:"dive,gte=0,lte=10"`
	Ratio     *float64            `json:"ratio,omitempty" validate:"omitempty,gt=0,lt=1"`
	Code      string              `json:"code,omitempty" validate:"omitempty,required"`
	Grid      [][]int             `json:"grid,omitempty" validate:"dive,max=2,dive,ne=0"`
	ByID      map[int]string      `json:"by_id,omitempty" validate:"dive,min=1"`
	Small     float32             `json:"small,omitempty" validate:"lte=0.1"`
	On        *bool               `json:"on,omitempty" validate:"omitempty,eq=true"`
	Tags      map[string][]string `json:"tags,omitempty" validate:"max=2,dive,dive,len=2"`
	Level     uint8               `json:"level,omitempty" validate:"oneof=0 1 5"`
	Any       any                 `json:"any,omitempty" validate:"required"`
	Free      int                 `json:"free,omitempty"`
	Loose     []string            `json:"loose,omitempty"`
	Win       compiledWin         `json:"win,omitempty"`
	Wins      []*compiledWin      `json:"wins,omitempty" validate:"dive"`
	Tree      *compiledTree       `json:"tree,omitempty"`
}

// compiledTree is recursive: its compiled nodes make a cycle.
type compiledTree struct {
	V    int            `json:"v,omitempty" validate:"omitempty,max=3"`
	Next *compiledTree  `json:"next,omitempty"`
	Kids []compiledTree `json:"kids,omitempty" validate:"max=2,dive"`
}

// treeChain is a compiledTree nested n levels by next, bottom at the end.
func treeChain(n int, bottom string) string {
	return strings.Repeat(`{"next":`, n) + bottom + strings.Repeat("}", n)
}

type compiledWin struct {
	From string `json:"from,omitempty" validate:"omitempty,len=3"`
	N    int    `json:"n,omitempty" validate:"omitempty,gt=1"`
	In   *struct {
		X []int `json:"x" validate:"dive,lt=5"`
	} `json:"in,omitempty"`
}

var compiledValues = map[string][]string{
	"hours_back": {"1", "0", "168", "169", "-1", "1.5", `"x"`, "null", "1e2"},
	"limit":      {"0", "1", "100", "101", "null"},
	"name":       {`""`, `"ab"`, `"ééééééééé"`, `"abcdefgh"`, `"abcdefghi"`, `"\u00e9"`, "\"\xff\""},
	"color":      {`""`, `"teal"`, `"red"`, `"te\u0061l"`, "5", `"\ud83d\ude00"`, `"am\u0062er"`},
	"ids":        {"[]", "[1]", "[0]", "[1,2,3,4]", "null", "[1,null]", `[1,"x",0]`},
	"weights":    {"{}", `{"a":0}`, `{"a":11}`, `{"a":1,"b":-1}`, `{"a":1,"a":11}`, `{"\u00e9":20}`},
	"ratio":      {"0.5", "0", "1", "null", "0.99999999999999999"},
	"code":       {`""`, `"x"`},
	"grid":       {"[[1,2],[3]]", "[[1,2,3]]", "[[0]]", "[[1],[2,0]]", "[null]", "null"},
	"by_id":      {`{"1":"a"}`, `{"1":""}`, `{"1":"a","01":""}`, `{"x":"a"}`},
	"small":      {"0.1", "0.10000000149011612", "0.1000000015", "0.2", "-1"},
	"on":         {"true", "false", "null"},
	"tags":       {`{"a":["x\u0079"]}`, `{"a":["\ud83d\ude00\u00e9"]}`, `{"a":["xy"]}`, `{"a":["x"]}`, `{"a":[],"b":[],"c":[]}`, `{"a":["xy","é1"]}`},
	"level":      {"0", "1", "2", "5", "255"},
	"any":        {"0", "null", `""`, "{}"},
	"free":       {"1", `"x"`},
	"loose":      {`["ok"]`, "[\"\xff\"]", `[null]`, `["\ud800","x"]`, `["a",1]`},
	"win":        {"{}", `{"from":"abc"}`, `{"from":"ab"}`, `{"n":1,"from":"abc"}`, `{"n":2,"in":{"x":[1,5]}}`, `{"in":null}`, `{"in":{"x":[]}}`, `{"From":"ab"}`, `{"fr\u006fm":"ab"}`, `{"zz":1}`},
	"wins":       {"[]", `[null]`, `[{"n":1}]`, `[{"n":2},{"from":"abcd"}]`, `[{"in":{"x":[9]}}]`},
	"tree": {`{"v":1}`, `{"v":4}`, treeChain(3, `{"v":4}`), treeChain(3, `{"v":2}`), treeChain(10, `{"v":4}`), treeChain(10, `{"v":3}`),
		`{"kids":[{"v":1},{"kids":[{"v":5}]}]}`, `{"kids":[{},{},{}]}`, `{"next":null,"kids":null}`, `{"kids":[{"next":{"v":-1}}]}`},
}

// TestCompiledProblems_SameAsDecoded: wherever the compiled checks judge a
// call from its text, they find the problems decoding it and running the
// validator finds, word for word, on all three binders.
func TestCompiledProblems_SameAsDecoded(t *testing.T) {
	keys := []string{"hours_back", "limit", "name", "color", "ids", "weights", "ratio", "code", "grid", "by_id", "small", "on", "tags", "level", "any", "free", "loose", "win", "wins", "tree"}
	judged, total := 0, 0
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[compiledArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		tool, _ := reg.Tool("t")
		x := uint32(7)
		for range 3000 {
			var ms []string
			for _, k := range keys {
				x ^= x << 13
				x ^= x >> 17
				x ^= x << 5
				vs := compiledValues[k]
				if c := int(x % uint32(len(vs)+2)); c < len(vs) {
					ms = append(ms, `"`+k+`":`+vs[c])
				}
			}
			args := []byte("{" + strings.Join(ms, ",") + "}")
			issues, mems := checkMembers(tool.Plan(), args, nil)
			if slices.ContainsFunc(issues, func(is bind.Issue) bool { return is.Kind.Class() == bind.BinderFailure }) {
				// As decide does: the members the binder fails on left out.
				if args, mems = withoutFailures(args, &mems, tool.Plan(), issues); args == nil {
					continue
				}
			}
			total++
			got, ok := compiledProblems(tool, args, &mems, issues)
			if !ok {
				continue
			}
			judged++
			if want := decodedProblems(tool, args, &mems, issues); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s %s:\ncompiled %+v\ndecoded  %+v", b.Name(), args, got, want)
			}
		}
	}
	if judged < total/4 {
		t.Errorf("the compiled checks judged %d calls of %d", judged, total)
	}
	t.Logf("judged %d of %d", judged, total)
}

// compiledCalls returns n calls of compiledArgs's tool, each member a
// value from compiledValues or left out, drawn from seed; every third
// call's values are the first of each list, which most keep.
func compiledCalls(n int, seed uint32) [][]byte {
	keys := []string{"hours_back", "limit", "name", "color", "ids", "weights", "ratio", "code", "grid", "by_id", "small", "on", "tags", "level", "any", "free", "win", "wins", "tree"}
	x := seed
	var calls [][]byte
	for i := range n {
		var ms []string
		for _, k := range keys {
			x ^= x << 13
			x ^= x >> 17
			x ^= x << 5
			vs := compiledValues[k]
			c := int(x % uint32(len(vs)+2))
			if i%3 == 0 && c < len(vs) {
				c = 0
			}
			if c < len(vs) {
				ms = append(ms, `"`+k+`":`+vs[c])
			}
		}
		calls = append(calls, []byte("{"+strings.Join(ms, ",")+"}"))
	}
	return calls
}

// heldAgrees checks the walk's Members.Held on one call of tool against
// compiledProblems: held, the call has no problem the compiled checks
// find; and a call of no issue whose every constrained member the walk
// judged to hold, and that compiledProblems finds none in, is held. It
// reports whether the call was held.
func heldAgrees(t *testing.T, binder string, tool *typereg.Tool, args []byte) bool {
	t.Helper()
	ms := bindcap.GetMembers()
	defer bindcap.PutMembers(ms)
	issues := checkConstrained(tool.Plan(), args, nil, compiledOf(tool), topKeysOf(tool), ms)
	ps, ok := compiledProblems(tool, args, ms, issues)
	clean := len(issues) == 0 && ok && len(ps) == 0
	if ms.Held && len(issues) == 0 && !clean {
		t.Fatalf("%s %s: held in the walk, but compiledProblems finds %+v (judged: %v)", binder, args, ps, ok)
	}
	judged := true
	cs := compiledOf(tool)
	for k := range ms.Len() {
		m := ms.At(k)
		if j := m.Binds(); j >= 0 && cs.Params[j].Root != nil && m.Judged != bindcap.Holds {
			judged = false
		}
	}
	if clean && judged && !ms.Held {
		t.Fatalf("%s %s: every constrained value held in the walk, and compiledProblems finds none, but the members are not Held", binder, args)
	}
	return ms.Held
}

// TestCompiledProblems_HeldInTheWalk: a call the walk finds held
// (Members.Held: every value it held to its parameter's tags holds them,
// every parameter a call must send sent) has no problem the compiled
// checks find, and every call of no issue that the walk judged whole and
// that they find none in is held, on all three binders: refuse takes
// Held for compiledProblems' clean verdict without reading the members
// again.
func TestCompiledProblems_HeldInTheWalk(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[compiledArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		tool, _ := reg.Tool("t")
		held := 0
		for _, args := range compiledCalls(3000, 7) {
			if heldAgrees(t, b.Name(), tool, args) {
				held++
			}
		}
		if held < 100 {
			t.Errorf("%s: %d of 3000 calls held in the walk", b.Name(), held)
		}
		t.Logf("%s: held %d of 3000", b.Name(), held)
	}
}

// FuzzCompiledProblems_HeldInTheWalk is TestCompiledProblems_HeldInTheWalk
// on any text, with every binder.
func FuzzCompiledProblems_HeldInTheWalk(f *testing.F) {
	for _, args := range compiledCalls(30, 11) {
		f.Add(args)
	}
	binders := []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder}
	var tools []*typereg.Tool
	for _, b := range binders {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[compiledArgs](reg, "t"); err != nil {
			f.Fatal(err)
		}
		tool, _ := reg.Tool("t")
		tools = append(tools, tool)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		for i, tool := range tools {
			heldAgrees(t, binders[i].Name(), tool, args)
		}
	})
}
