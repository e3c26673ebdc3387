package bind_test

import (
	"testing"

	"github.com/bindguard/bindguard/bind"
)

// v2PastArgs holds fixed-size arrays of every kind of element, nested in
// lists, maps and structs.
type v2PastArgs struct {
	A   [2]int                `json:"a"`
	S   [1]string             `json:"s"`
	P   [1]*int               `json:"p"`
	Any [1]any                `json:"any"`
	St  [1]nativeLeaf         `json:"st"`
	L   [][2]int              `json:"l"`
	M   map[string][1]bool    `json:"m"`
	N   v2PastInner           `json:"n"`
	AA  [1][1]int             `json:"aa"`
	SD  [1]selfTyped          `json:"sd"`
	PA  *[1]float32           `json:"pa"`
	MA  map[string]*[2]string `json:"ma"`
}

type v2PastInner struct {
	In [1]float64 `json:"in"`
	X  int        `json:"x"`
}

// v2PastVerdicts are calls with a failure V2 meets in an element past a
// fixed-size array's length (it skips the element, validating it: a
// string's invalid text, a name repeated in an object), whose verdict V2's
// one pass gives itself, the trial check's: InvalidValue at the string or
// the object, typed by the array's element at the element itself, of no
// type inside it.
var v2PastVerdicts = []v2Row{
	{1, `{"arr":[1,2,{"a":1,"a":2}]}`},
	{1, `{"arr":[1,2,"\ud800"]}`},
	{1, "{\"arr\":[1,2,\"\xff\"]}"},
	{1, `{"arr":[1,2,3,"\ud800"]}`},
	{1, `{"arr":[1,2,[{"a":1,"a":2}]]}`},
	{1, `{"arr":[1,2,{"b":["\ud800"]}]}`},
	{1, `{"arr":[1,2,{"b":{"a":1,"a":2}}]}`},
	{1, `{"arr":[1,2,["x","\ud800"]]}`},
	{1, `{"arr":[1,2,{"a":1},{"a":1,"a":2}]}`},
	{1, `{"arr":[1,2,3,{"a":1,"a":2}],"i":"x"}`},
	{1, `{"i":"x","arr":[1,2, "\ud800"],"ns":[{"in":{"x":"y"}}]}`},
	{1, `{"arr":[1,2,"\ud800","\ud800",{"a":1,"a":2}],"s":"\ud800"}`},
	{1, `{"arr":[1,"x","\ud800"]}`},
	{1, `{"arr":[1,2,"\ud800"],"arr":[1]}`},
	{1, `{"arr":[1,2,"\ud800"],"zz":{"k":1,"k":2},"hours_back":"x"}`},
	{9, `{"a":[1,2,"\ud800"]}`},
	{9, `{"s":["x",{"a":1,"a":2}]}`},
	{9, `{"s":["x","y\ud800"]}`},
	{9, `{"p":[1,"\ud800"]}`},
	{9, `{"p":[null,{"q":{"a":1,"a":2}}]}`},
	{9, `{"any":[1,"\ud800"]}`},
	{9, `{"any":[{},[{"a":1,"a":2}]]}`},
	{9, `{"st":[{},"\ud800"]}`},
	{9, `{"st":[{"v":1},{"a":1,"a":2}]}`},
	{9, `{"l":[[1,2],[1,2,"\ud800"],[1,2,3]]}`},
	{9, `{"l":[[1,2,3],[1,2,{"a":1,"a":2}]]}`},
	{9, `{"m":{"k":[true,"\ud800"]}}`},
	{9, `{"m":{"k":[true,[{"a":[{"b":1,"b":1}]}]]}}`},
	{9, `{"n":{"in":[1.5,"\ud800"],"x":"y"}}`},
	{9, `{"n":{"x":"y","in":[1.5,"\ud800"]}}`},
	{9, `{"l":[[1,2,[{"a":1,"a":2}]]]}`},
	{9, `{"aa":[[1,"\ud800"]]}`},
	{9, `{"pa":[1,"\ud800"]}`},
	{9, `{"ma":{"k":["a","b",["\ud800"]],"j":null}}`},
	{9, `{"a":[1,2,"\ud800"],"s":["x","\ud800"],"p":[1,"\ud800"],"any":[1,"\ud800"],"l":[[1,2,"\ud800"]],"m":{"k":[true,"\ud800"]},"n":{"in":[1,"\ud800"]},"aa":[[1],"\ud800"],"pa":[1,"\ud800"],"ma":{"k":["a","b","\ud800"]},"zz":1}`},
	{9, `{"l":[` + repeat(40, func(int) string { return `[1,2,"\ud800"]` }) + `]}`},
	{9, `{"a":[1,2,{}],"s":["x",1],"p":[1,2],"zz":"\ud800"}`},
	{1, `{` + manyUnknown(bind.MaxIssues) + `,"arr":[1,2,"\ud800"],"i":"x","ns":[{"in":{"x":[1,2,"\ud800"]}}]}`},
	{9, `{"a":[1,2,"\ud800"],` + manyUnknown(bind.MaxIssues-1) + `,"s":["x",{"a":1,"a":2}]}`},
}

// v2PastDeclines are such calls the pass declines: a failure inside an
// element of a type with fields or elements past the length (the trial
// check types it by the Go type along V2's path), or in one that decodes
// itself.
var v2PastDeclines = []v2Row{
	{9, `{"st":[{},{"kids":["\ud800"]}]}`},
	{9, `{"st":[{},{"s":"\ud800"}]}`},
	{9, `{"aa":[[1],[{"a":1,"a":2}]]}`},
	{9, `{"aa":[[1],["\ud800"]]}`},
	{9, `{"sd":[{},"\ud800"]}`},
}

// TestV2Past_Verdicts: V2's one pass gives the verdict of each call, the
// trial check's; and declines the others, the trial check's verdict
// standing.
func TestV2Past_Verdicts(t *testing.T) {
	checkV2Verdicts(t, v2PastVerdicts)
	checkV2Declines(t, v2PastDeclines)
}
