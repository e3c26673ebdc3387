package bind_test

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
)

// v2Uintptrs holds uintptrs, plain, under ,string and as map keys, and
// v2Uint64s the same fields of uint64.
type v2Uintptrs struct {
	U  uintptr            `json:"u"`
	Q  uintptr            `json:"q,string"`
	P  *uintptr           `json:"p,string"`
	L  []uintptr          `json:"l"`
	M  map[uintptr]int    `json:"m"`
	MS map[string]uintptr `json:"ms"`
	N  struct {
		U uintptr `json:"u,string"`
		V uintptr `json:"v"`
	} `json:"n"`
}

type v2Uint64s struct {
	U  uint64            `json:"u"`
	Q  uint64            `json:"q,string"`
	P  *uint64           `json:"p,string"`
	L  []uint64          `json:"l"`
	M  map[uint64]int    `json:"m"`
	MS map[string]uint64 `json:"ms"`
	N  struct {
		U uint64 `json:"u,string"`
		V uint64 `json:"v"`
	} `json:"n"`
}

// v2UintptrVerdicts are calls on nativeOwn's uintptr and map of uintptr
// keys whose verdict V2's one pass gives itself: clean, TooLarge,
// TooSmall, NotWholeNumber, WrongType, NullForValue, InvalidKey.
var v2UintptrVerdicts = []v2Row{
	{6, `{"u":0}`},
	{6, `{"u":18446744073709551615}`},
	{6, `{"u":18446744073709551616}`},
	{6, `{"u":-1}`},
	{6, `{"u":-0}`},
	{6, `{"u":1.0}`},
	{6, `{"u":1e2}`},
	{6, `{"u":"1"}`},
	{6, `{"u":null}`},
	{6, `{"u":true,"s":1}`},
	{6, `{"mu":{"0":1,"18446744073709551615":2}}`},
	{6, `{"mu":{"18446744073709551616":1}}`},
	{6, `{"mu":{"-1":1,"x":2}}`},
	{6, `{"mu":{"1":"x"},"u":-1}`},
	{6, `{"mu":{"1":1,"01":2}}`},
}

// TestV2_UintptrVerdicts: V2's one pass gives the verdict of each row,
// the trial check's.
func TestV2_UintptrVerdicts(t *testing.T) {
	checkV2Verdicts(t, v2UintptrVerdicts)
}

// v2UintptrCalls are calls on v2Uintptrs: each of genInts (0, 2^64-1,
// 2^64, -1, 1.0, 1e2, "1", null, true, ...) as each field's value, plain
// and quoted, and as a map key (of a value that holds no issue: under a
// key V2 fails on, the pass declines one that does, see v2Key).
func v2UintptrCalls() []string {
	var calls []string
	for _, v := range append(genInts, `""`, `" 1"`, `"+1"`, `"01"`, `"1.0"`, `"null"`, `"-0"`, `"0x1"`) {
		q := strconv.Quote(v)
		calls = append(calls, `{"u":`+v+`}`, `{"q":`+q+`}`, `{"q":`+v+`}`, `{"p":`+q+`}`, `{"p":`+v+`}`,
			`{"l":[1,`+v+`,2]}`, `{"ms":{"k":`+v+`}}`, `{"n":{"u":`+q+`}}`, `{"n":{"u":`+v+`}}`, `{"n":{"v":`+v+`}}`,
			`{"u":`+v+`,"q":`+q+`,"n":{"v":`+v+`},"l":[`+v+`]}`)
		if s, err := strconv.Unquote(v); err == nil {
			v = s // a key's text
		}
		k := strconv.Quote(v)
		calls = append(calls, `{"m":{`+k+`:1}}`, `{"m":{"1":2,`+k+`:3}}`, `{"n":{"v":1},"m":{`+k+`:4},"u":1}`)
	}
	return append(calls, `{"m":{"7":"x"}}`, `{"m":{"7":1,"7":2}}`, `{"m":{"0":1,"1":null}}`, `{"m":null,"l":null,"ms":{}}`)
}

// TestV2_Uintptr: V2 reads a uintptr as it reads a uint64
// (makeUintArshaler serves both, of t.Bits()), plain, under ,string and
// as a map key, so the pass reads one as a uint64: its verdict is the
// trial check's, the verdict it gives the same call on the uint64
// fields, and held to V2's own decode of the call into both (it fails on
// one exactly when on the other, and reads the same numbers).
func TestV2_Uintptr(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[v2Uintptrs]())
	if err != nil {
		t.Fatal(err)
	}
	plan64, err := jsonv2.Binder.Compile(reflect.TypeFor[v2Uint64s]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range v2UintptrCalls() {
		checkProven(t, plan, []byte(args))
		is, _, ok := bind.NativeVerdict(plan, []byte(args))
		if !ok {
			trial, _ := bind.TrialVerdict(plan, []byte(args))
			t.Errorf("%s: the pass declines; the trial check says %s", args, brief(trial))
			continue
		}
		is64, _, ok := bind.NativeVerdict(plan64, []byte(args))
		if !ok {
			t.Fatalf("%s: the pass declines the uint64 fields", args)
		}
		if len(is) != len(is64) {
			t.Errorf("%s: %s, for uint64 %s", args, brief(is), brief(is64))
		}
		for i := range min(len(is), len(is64)) {
			x, y := is[i], is64[i]
			if x.Kind != y.Kind || x.Of != y.Of || x.Param != y.Param || x.Start != y.Start || x.End != y.End || x.Path.String() != y.Path.String() || x.Quoted != y.Quoted || x.N != y.N {
				t.Errorf("%s: issue %d %s, for uint64 %s", args, i, brief(is[i:i+1]), brief(is64[i:i+1]))
			}
		}
		var a v2Uintptrs
		var b v2Uint64s
		errA := jsonv2.Binder.Unmarshal([]byte(args), &a)
		errB := jsonv2.Binder.Unmarshal([]byte(args), &b)
		same := uint64(a.U) == b.U && uint64(a.Q) == b.Q && uint64(a.N.U) == b.N.U && uint64(a.N.V) == b.N.V &&
			len(a.L) == len(b.L) && len(a.M) == len(b.M) && len(a.MS) == len(b.MS) && (a.P == nil) == (b.P == nil)
		for k, v := range a.M {
			same = same && b.M[uint64(k)] == v
		}
		if (errA == nil) != (errB == nil) || !same {
			t.Errorf("%s: V2 reads a uintptr (%v) not as a uint64 (%v)", args, errA, errB)
		}
	}
}
