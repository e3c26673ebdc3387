package bind_test

import (
	"math/rand"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/bindcap"
)

// The native verdict of V2 and SegmentIO: the one pass gives the verdict
// of calls with issues of the classes it models, the trial check's
// verdict issue for issue (checkProven holds it), without the binder's
// decode.

// nativeVerdict is a call the one pass gives the verdict of, and the
// kinds of the issues it lists.
type nativeVerdict struct {
	fixed int // index in nativeFixed
	args  string
	want  []bind.Code
	why   string
	only  string // the binder's name, when the row is about one
}

var (
	kWrong, kNotWhole, kLarge, kSmall = bind.WrongType, bind.NotWholeNumber, bind.TooLarge, bind.TooSmall
	kUnknown, kOmitted, kMissing      = bind.UnknownArgument, bind.Omitted, bind.MissingArgument
	kNull, kRounded, kUnknownField    = bind.NullForValue, bind.RoundedNumber, bind.UnknownField
	kDup, kReplaced                   = bind.DuplicateKey, bind.ReplacedText
)

var nativeVerdicts = []nativeVerdict{
	// Numbers at a position.
	{1, `{"i":1.5}`, []bind.Code{kNotWhole}, "a fraction for an integer", ""},
	{1, `{"i":1e2}`, []bind.Code{kNotWhole}, "an exponent for an integer", ""},
	{1, `{"u8":256}`, []bind.Code{kLarge}, "an integer past its type", ""},
	{1, `{"u8":-1}`, []bind.Code{kSmall}, "a negative number for an unsigned integer", ""},
	{1, `{"i":-9223372036854775809}`, []bind.Code{kSmall}, "an integer below int64", ""},
	{1, `{"i":` + strings.Repeat("9", 5000) + `}`, []bind.Code{kLarge}, "5,000 digits for an int", ""},
	{1, `{"f32":1e39}`, []bind.Code{kLarge}, "a number past float32", ""},
	{4, `{"values":[0,21000000000000000000]}`, []bind.Code{kLarge}, "20 digits past int64", "v2"},
	// segmentio v0.5.4 (as v0.3.5) reads 21000000000000000000 as 2553255926290448384
	// (its overflow check misses the wrap), with no error: a silent loss,
	// WrappedNumber, in the trial check's walk and in the pass alike.
	{4, `{"values":[0,21000000000000000000]}`, []bind.Code{bind.WrappedNumber}, "20 digits segmentio wraps without a word", "segmentio"},
	{4, `{"values":[0,20000000000000000000,99999999999999999999]}`, []bind.Code{kLarge}, "20 digits whose wrap segmentio catches", "segmentio"},
	{1, `{"f":-1e400}`, []bind.Code{kSmall}, "a number past float64", ""},
	{1, `{"a":-1e309}`, []bind.Code{kSmall}, "a number past float64, into any", ""},
	{1, `{"a":[1,{"k":1e400}]}`, []bind.Code{kLarge}, "a number past float64 inside any (no declared type)", ""},
	{1, `{"m":{"a":1,"b":1e999}}`, []bind.Code{kLarge}, "a map value past float64", ""},
	{1, `{"p":1.5}`, []bind.Code{kNotWhole}, "through a pointer", ""},
	{4, `{"values":[1,2,3.5,4,"x"]}`, []bind.Code{kNotWhole}, "a list's first failure only", ""},
	{1, `{"ns":[{"x":1},{"x":"no"},{"x":2.5}]}`, []bind.Code{kWrong}, "a nested struct's first failure only", ""},
	{1, `{"i":"x","u8":300,"f32":1e50}`, []bind.Code{kWrong, kLarge, kLarge}, "one failure in each argument", ""},
	// A wrong JSON kind at a position.
	{1, `{"s":1}`, []bind.Code{kWrong}, "a number for a string", ""},
	{1, `{"i":"1"}`, []bind.Code{kWrong}, "a string for an integer", ""},
	{1, `{"b":"true"}`, []bind.Code{kWrong}, "a string for a bool", ""},
	{1, `{"sl":"x"}`, []bind.Code{kWrong}, "a string for a list", ""},
	{1, `{"sl":["a",1]}`, []bind.Code{kWrong}, "a number in a list of strings", ""},
	{1, `{"n":5}`, []bind.Code{kWrong}, "a number for a struct", ""},
	{1, `{"m":{"k":"x"}}`, []bind.Code{kWrong}, "a string for a map's float", ""},
	{1, `{"np":{"x":true}}`, []bind.Code{kWrong}, "in a struct through a pointer", ""},
	{2, `{"next":{"next":{"v":"deep"}},"kids":[{"s":2}]}`, []bind.Code{kWrong, kWrong}, "deep in recursive structs", ""},
	{1, `{"i":{"a":1,"b":[true,{"c":"x"}]}}`, []bind.Code{kWrong}, "an object for an integer", ""},
	{1, `{"u8":[1,[2]],"s":{}}`, []bind.Code{kWrong, kWrong}, "an array for an integer, an object for a string", ""},
	{1, `{"i":{"a":1,"a":2}}`, []bind.Code{kWrong}, "an object for an integer, a name repeated inside (V2 fails on it first)", "segmentio"},
	{1, `{"i":["\ud800"]}`, []bind.Code{kWrong}, "an array for an integer, a lone surrogate inside", "segmentio"},
	// Escaped and non-ASCII keys: V2 binds them by their text.
	{0, `{"q\u0075ery":"x"}`, nil, "an escape in a key", ""},
	{0, `{"q\u0075ery":1}`, []bind.Code{kWrong}, "an escaped key, a wrong kind", ""},
	{6, `{"mc":{"\u0061":"x","b":"\u00e9"},"s":"x"}`, nil, "an escaped map key", ""},
	{6, "{\"mc\":{\"\xc3\xa9\":\"x\",\"\\u00e9\":\"y\"}}", []bind.Code{kDup}, "a map key past ASCII, and escaped (segmentio keeps the last)", "segmentio"},
	{2, "{\"m\":{\"\xc3\xa9\":{\"v\":1.5}}}", []bind.Code{kNotWhole}, "a failure under a key past ASCII", ""},
	{2, `{"next":{"\u0076":1.5}}`, []bind.Code{kNotWhole}, "a failure under an escaped key", "v2"},
	{0, "{\"qu\xc3\xa9ry\":\"x\",\"a\\u0000\":1,\"\\u0071uery\":1}", []bind.Code{kUnknown, kUnknown, kWrong}, "dropped keys past ASCII and escaped, a bound escaped one", "segmentio"},
	// Not an object.
	{0, `[1]`, []bind.Code{bind.NotAnObject}, "an array", ""},
	{0, `"x"`, []bind.Code{bind.NotAnObject}, "a string", ""},
	{0, ` 5 `, []bind.Code{bind.NotAnObject}, "a number", ""},
	// Not JSON: the one InvalidJSON issue, at the first byte that makes it
	// so, whatever the pass found before it.
	{0, `{"count":1`, []bind.Code{bind.InvalidJSON}, "cut short", ""},
	{0, `{"query":"what the model wrote until its output ran o`, []bind.Code{bind.InvalidJSON}, "cut short in a string", ""},
	{0, `{"count":"x","limit":1.5,"zz":1,}`, []bind.Code{bind.InvalidJSON}, "a trailing comma after issues", ""},
	{0, `{"count":1} {"count":2}`, []bind.Code{bind.InvalidJSON}, "two objects", ""},
	{0, `{count:1}`, []bind.Code{bind.InvalidJSON}, "a bare key", ""},
	{0, `{'count':1}`, []bind.Code{bind.InvalidJSON}, "single quotes", ""},
	{0, `  `, []bind.Code{bind.InvalidJSON}, "space only", ""},
	{0, `{"query":"a\qb"}`, []bind.Code{bind.InvalidJSON}, "a bad escape", ""},
	{0, "{\"query\":\"a\nb\"}", []bind.Code{bind.InvalidJSON}, "a raw newline in a string", ""},
	{0, `{"count":01}`, []bind.Code{bind.InvalidJSON}, "a leading zero", ""},
	{0, `{"count":1,"count":2,}`, []bind.Code{bind.InvalidJSON}, "a repeated key, then not JSON", "segmentio"},
	{1, "{\"s\":\"\xff\",", []bind.Code{bind.InvalidJSON}, "invalid UTF-8, then cut short", ""},
	{0, `{"zz":[[[` + strings.Repeat("[", 995) + `}`, []bind.Code{bind.InvalidJSON}, "not JSON, nested deep but within the limits", ""},
	// Folded keys: V2 binds a key to a case:ignore field by its fold.
	{1, `{"HOURS_BACK":3}`, []bind.Code{bind.FoldedKey}, "a fold V2's case:ignore binds", "v2"},
	{1, `{"HoursBack":3,"n":{"Hours-Back":1,"x":1}}`, []bind.Code{bind.FoldedKey, bind.FoldedKey}, "folds at the top and nested", "v2"},
	{1, `{"HOURS_BACK":"x"}`, []bind.Code{kWrong}, "a folded key, a failure: no loss", "v2"},
	{1, `{"HOURS_BACK":1,"zzz":1,"n":{"zz":[1]}}`, []bind.Code{kUnknown, bind.FoldedKey, kUnknownField}, "unknown keys where V2 has case:ignore fields", "v2"},
	{7, `{"a_b":1,"Id":2}`, []bind.Code{bind.FoldedKey}, "a fold of one case:ignore field, an exact name of one of two", "v2"},
	// Repeated names under V2: it fails on them, and the trial check lists
	// each name repeated once, after the members' issues.
	{1, `{"i":1,"i":2}`, []bind.Code{bind.InvalidValue}, "a repeated key", "v2"},
	{0, `{"zzz":1,"zzz":2}`, []bind.Code{kUnknown, kUnknown, bind.InvalidJSON}, "a dropped key repeated", "v2"},
	{0, `{"q\u0075ery":"x","query":"y"}`, []bind.Code{bind.InvalidValue}, "a key repeated, escaped", "v2"},
	{0, `{"count":"x","count":2}`, []bind.Code{kWrong, bind.InvalidValue}, "a failure before the repeat: V2 reports the first", "v2"},
	{0, `{"count":1,"limit":null,"count":2,"limit":"x","zz":3}`, []bind.Code{kWrong, kUnknown, bind.InvalidValue, bind.InvalidValue}, "the failures after the first repeat, then the repeats", "v2"},
	{0, `{"count":1,"count":"x","count":"y","count":3}`, []bind.Code{kWrong, kWrong, bind.InvalidValue}, "a key sent four times: each value, one repeat", "v2"},
	{1, `{"hours_back":1,"HOURS_BACK":2}`, []bind.Code{bind.InvalidValue}, "a fold of a field set before", "v2"},
	{0, `{` + rep(`"count":"x"`, 1500, ",") + `}`, append(slices.Repeat([]bind.Code{kWrong}, bind.MaxIssues), kOmitted, kOmitted), "a key repeated past MaxIssues, each value bad", "v2"},
	{0, `{"zz":1,"q\u0075ery":1,"zz":2}`, []bind.Code{kUnknown, kWrong, kUnknown, bind.InvalidJSON}, "a dropped key repeated after a failure", "v2"},
	// Unknown keys.
	{0, `{"zzz":1}`, []bind.Code{kUnknown}, "an unknown key", ""},
	{0, `{"QUERY":"x"}`, []bind.Code{kUnknown}, "a case variant of a key (both bind exact names)", ""},
	{1, `{"HOURS_BACK":3}`, []bind.Code{kUnknown}, "a fold only V2's case:ignore binds", "segmentio"},
	{0, `{"a":1,"count":"x","b":true,"c":null,"d":"plain"}`, []bind.Code{kUnknown, kWrong, kUnknown, kUnknown, kUnknown}, "unknown keys and a failure, in the members' order", ""},
	{0, `{"a":1,"a":2}`, []bind.Code{kUnknown, kUnknown}, "a dropped key repeated (segmentio drops both)", "segmentio"},
	{0, `{"zzz":{"a":[1,{"b":"x"}],"c":null}}`, []bind.Code{kUnknown}, "a dropped object", ""},
	{0, `{"zzz":{"a":1,"a":2}}`, []bind.Code{kUnknown}, "a dropped object repeating a name (V2 fails on it)", "segmentio"},
	{0, `{"zzz":["\ud800"]}`, []bind.Code{kUnknown}, "a dropped array holding a lone surrogate (V2 fails on it)", "segmentio"},
	// Repeated keys: segmentio keeps the last value.
	{1, `{"i":1,"i":2}`, []bind.Code{kDup}, "a repeated key", "segmentio"},
	{1, `{"n":{"x":1,"x":2}}`, []bind.Code{kDup}, "a repeated key in a nested struct", "segmentio"},
	{1, `{"m":{"k":1,"k":2},"a":{"k":[1],"k":null}}`, []bind.Code{kDup, kDup}, "a repeated map key, and one in any", "segmentio"},
	{0, `{` + rep(`"query":"x"`, 1500, ",") + `}`, append(slices.Repeat([]bind.Code{kDup}, bind.MaxIssues), kOmitted), "a key repeated past MaxIssues", "segmentio"},
	// Replaced text: segmentio replaces it with U+FFFD.
	{1, "{\"s\":\"a\xffb\"}", []bind.Code{kReplaced}, "invalid UTF-8 in a string", "segmentio"},
	{1, `{"s":"\ud800","sl":["ok","\udc00x"],"a":{"k":"\ud83d"}}`, []bind.Code{kReplaced, kReplaced, kReplaced}, "lone surrogate escapes, in a list and in any", "segmentio"},
	{1, "{\"s\":\"\xed\xa0\x80\",\"i\":\"x\"}", []bind.Code{kWrong}, "replaced text and a failure: no loss", "segmentio"},
	// Invalid text: V2 fails on a string's invalid UTF-8 or lone surrogate
	// escape, where it reads the string (InvalidValue, at the string).
	{1, "{\"s\":\"a\xffb\"}", []bind.Code{bind.InvalidValue}, "invalid UTF-8 in a string", "v2"},
	{1, `{"s":"\ud800","sl":["ok","\udc00x"],"a":{"k":"\ud83d"}}`, []bind.Code{bind.InvalidValue, bind.InvalidValue, bind.InvalidValue}, "lone surrogate escapes, in a list and in any", "v2"},
	{1, "{\"s\":\"\xed\xa0\x80\",\"i\":\"x\",\"p\":null}", []bind.Code{bind.InvalidValue, kWrong}, "invalid text, a failure, a loss", "v2"},
	{1, "{\"i\":\"\xff\",\"b\":\"\\udfff\"}", []bind.Code{bind.InvalidValue, bind.InvalidValue}, "invalid text of the wrong kind", "v2"},
	{2, "{\"kids\":[{\"s\":\"ok\"},{\"next\":{\"s\":\"\xc0\x80\"}}]}", []bind.Code{bind.InvalidValue}, "invalid text deep inside", "v2"},
	// Fixed-size arrays: V2 fails on another length.
	{1, `{"arr":[1,2],"deep":[[{"x":1}]]}`, nil, "fixed-size arrays of their length", "v2"},
	{1, `{"arr":[1,2,3]}`, []bind.Code{bind.InvalidValue}, "a fixed-size array sent too many elements", "v2"},
	{1, `{"arr":[]}`, []bind.Code{bind.InvalidValue}, "an empty fixed-size array", "v2"},
	{1, `{"arr":[1],"deep":[[{"x":null}],[]],"i":"x"}`, []bind.Code{bind.InvalidValue, bind.InvalidValue, kWrong}, "too few, and nested, and a failure", "v2"},
	{1, `{"arr":[1,"x"],"deep":[[{"x":"y"}]]}`, []bind.Code{kWrong, kWrong}, "failures inside arrays of their length", "v2"},
	{1, `{"arr":null}`, []bind.Code{kNull}, "null for a fixed-size array", "v2"},
	{1, `{"arr":[1,"x",3]}`, []bind.Code{kWrong}, "another length, a failure inside first (V2 stops at it)", "v2"},
	{1, `{"arr":["x"],"i":"y"}`, []bind.Code{kWrong, kWrong}, "too few, a failure inside, and one after", "v2"},
	{1, `{"arr":[null,1.5,3,4]}`, []bind.Code{kNotWhole}, "too many, a failure inside before them", "v2"},
	{1, `{"arr":[1,2,"x"]}`, []bind.Code{bind.InvalidValue}, "an element past the length is skipped: the length fails", "v2"},
	{1, `{"arr":[{"a":1,"a":2},2,3],"i":"y"}`, []bind.Code{bind.InvalidValue, kWrong}, "a name repeated inside, another length", "v2"},
	{1, `{"arr":["\ud800"]}`, []bind.Code{bind.InvalidValue}, "a lone surrogate inside, too few", "v2"},
	{1, `{"deep":[[{"x":"a"}],[]]}`, []bind.Code{kWrong}, "a failure nested in the element it holds, too many", "v2"},
	{1, `{"deep":[[],[{"x":"a"}]]}`, []bind.Code{bind.InvalidValue}, "a failure nested in an element past the length: dropped", "v2"},
	// Fixed-size arrays: segmentio drops extra elements, leaves missing ones zero.
	{1, `{"arr":[1,2]}`, nil, "a fixed-size array of its length", "segmentio"},
	{1, `{"arr":[1,2,3]}`, []bind.Code{bind.ArrayLength}, "one element too many", "segmentio"},
	{1, `{"arr":[1],"deep":[[{"x":null}],[]]}`, []bind.Code{bind.ArrayLength, kNull, bind.ArrayLength}, "too few, and nested", "segmentio"},
	{1, `{"arr":[1,2,"x"],"i":"y"}`, []bind.Code{kWrong}, "a dropped element is not read, and a failure", "segmentio"},
	// Null for a position with no nil, and the other losses the pass reads.
	{1, `{"m":{"k":null}}`, []bind.Code{kNull}, "null in a map value of no nil", ""},
	{1, `{"sl":[null]}`, []bind.Code{kNull}, "null for a string element", ""},
	{1, `{"n":null}`, []bind.Code{kNull}, "null for a struct", ""},
	{0, `{"count":null}`, []bind.Code{kNull}, "null for a number", ""},
	{1, `{"p":null,"np":null,"sl":null,"m":null,"a":null,"i":null}`, []bind.Code{kNull}, "null for nil positions, then an int", ""},
	{1, `{"f":9007199254740993}`, []bind.Code{kRounded}, "an integer a float rounds", ""},
	{1, `{"a":123456789012345678}`, []bind.Code{kRounded}, "an integer any rounds", ""},
	{1, `{"n":{"zz":1}}`, []bind.Code{kUnknownField}, "an unknown nested field", "segmentio"},
	{0, `{"zz":1,"count":null,"yy":2}`, []bind.Code{kUnknown, kUnknown, kNull}, "the unknown keys first, as the trial check lists them", ""},
	{0, `{"count":null,"limit":1.5,"zz":1}`, []bind.Code{kNotWhole, kUnknown}, "a failure: no loss listed", ""},
	{1, `{"sl":[` + rep("null", 1500, ",") + `]}`, append(slices.Repeat([]bind.Code{kNull}, bind.MaxIssues), kOmitted), "nulls past MaxIssues", ""},
	{1, `{"sl":[` + rep("null", 1500, ",") + `],"i":"x"}`, []bind.Code{kWrong}, "nulls past MaxIssues, and a failure: no loss, no count", ""},
	{0, `{` + seq(1500, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }) + `}`,
		append(slices.Repeat([]bind.Code{kUnknown}, bind.MaxIssues), kOmitted), "unknown keys past MaxIssues", ""},
}

// TestNative_Verdicts: the pass gives the verdict of each row on both
// binders (or the row's), the trial check's, with the kinds it wants;
// and with the row's parameters required, Missing after.
func TestNative_Verdicts(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		for _, tc := range nativeVerdicts {
			if tc.only != "" && tc.only != b.Name() {
				continue
			}
			plan, err := b.Compile(nativeFixed[tc.fixed])
			if err != nil {
				t.Fatal(err)
			}
			args := []byte(tc.args)
			checkProven(t, plan, args)
			got, _, ok := bind.NativeVerdict(plan, args)
			if !ok {
				t.Errorf("%s %.60q (%s): the pass declines", b.Name(), tc.args, tc.why)
				continue
			}
			if kinds := kindsOf(got); !slices.Equal(kinds, tc.want) {
				t.Errorf("%s %.60q (%s): %v, want %v", b.Name(), tc.args, tc.why, kinds, tc.want)
			}
			last := plan.Params()[len(plan.Params())-1].Name
			if strings.Contains(tc.args, `"`+last+`"`) || slices.Contains(tc.want, bind.NotAnObject) || slices.Contains(tc.want, bind.InvalidJSON) {
				continue
			}
			req := plan.WithRequired([]string{last}, nil)
			checkProven(t, req, args)
			got, _, ok = bind.NativeVerdict(req, args)
			if !ok || len(got) == 0 || got[len(got)-1].Kind != kMissing && got[len(got)-1].Kind != kOmitted {
				t.Errorf("%s %.60q (%s), %s required: %v, %v", b.Name(), tc.args, tc.why, last, kindsOf(got), ok)
			}
		}
	}
}

// nativeRefused are refused calls of scale k the pass gives the verdict
// of: the benchmark suite's refused payloads and the issue's classes.
var nativeRefused = []struct {
	name string
	typ  reflect.Type
	args func(k int) string
	only string // the binder's name, when the payload is about one
}{
	{"digits", reflect.TypeFor[benchTypical](), func(k int) string { return `{"count":` + strings.Repeat("7", 10000*k) + `}` }, ""},
	{"negative digits", reflect.TypeFor[benchTypical](), func(k int) string { return `{"limit":-` + strings.Repeat("7", 10000*k) + `}` }, ""},
	{"float digits", reflect.TypeFor[benchTypical](), func(k int) string { return `{"score":` + strings.Repeat("7", 10000*k) + `}` }, ""},
	{"wrong element", reflect.TypeFor[benchInts](), func(k int) string {
		return `{"values":[` + rep(`123456789`, 1000*k, ",") + `,"x",` + rep(`1.5`, 100*k, ",") + `]}`
	}, ""},
	{"cut short", reflect.TypeFor[benchTypical](), func(k int) string {
		return `{"count":"x","tags":[` + rep(`"a tag"`, 1000*k, ",") + `,"unfinish`
	}, ""},
	{"unknown keys", reflect.TypeFor[benchTypical](), func(k int) string {
		return `{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":"v"` }) + `,"query":"q"}`
	}, ""},
	{"wrong kinds", reflect.TypeFor[nativeLeaf](), func(k int) string {
		return `{"kids":[` + rep(`{"v":"x","s":1,"f":1e99}`, 100*k, ",") + `]}`
	}, ""},
	{"nulls", reflect.TypeFor[benchInts](), func(k int) string { return `{"values":[` + rep(`null`, 1000*k, ",") + `]}` }, ""},
	{"rounded in any", reflect.TypeFor[trialArgs](), func(k int) string {
		return `{"a":[[[` + rep(`9007199254740993`, 1000*k, ",") + `]]]}`
	}, ""},
	{"repeated top key", reflect.TypeFor[benchTypical](), func(k int) string { return `{` + rep(`"query":"x"`, 1000*k, ",") + `}` }, ""},
	{"repeated dropped keys", reflect.TypeFor[benchTypical](), func(k int) string {
		return `{` + rep(`"a":1,"b":2,"c":3`, 1000*k, ",") + `}`
	}, "v2"},
	{"repeated map keys", reflect.TypeFor[trialArgs](), func(k int) string {
		return `{"a":{"a":{` + rep(`"x":1`, 1000*k, ",") + `}}}`
	}, "segmentio"},
}

// TestNative_RefusedCostOnePass: a refused call of 1x, 10x and 100x, for
// V2 and SegmentIO, costs the pass alone: Check gives the pass's verdict
// (the trial check's), reads each byte once (the work counter counts the
// input once, the paths of the issues it lists, and no decode), and it
// allocates a list of issues bounded by MaxIssues and, for V2's dropped
// keys, a table grown by doubling (about log n allocations for n keys):
// at 100x, no more than 16 allocations past 1x's.
func TestNative_RefusedCostOnePass(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		for _, g := range nativeRefused {
			if g.only != "" && g.only != b.Name() {
				continue
			}
			plan, err := b.Compile(g.typ)
			if err != nil {
				t.Fatal(err)
			}
			scales := growthScales
			if testing.Short() {
				scales = scales[:2]
			}
			var costs []growthCost
			var allocs0 uint64
			for _, k := range scales {
				args := []byte(g.args(k))
				if k == 1 {
					checkProven(t, plan, args)
				}
				w0 := bind.WorkDone()
				is := plan.Check(args, nil)
				c := growthCost{size: len(args), work: bind.WorkDone() - w0}
				if len(is) == 0 {
					t.Fatalf("%s %s %dx: no issue", b.Name(), g.name, k)
				}
				// One pass, and the paths of the issues listed (at most
				// MaxIssues a class, a few steps each).
				// A repeated map key is read again, to compare it with the
				// key it repeats (see TestNative_CostGrowsLinearly).
				passes := int64(2)
				if g.name == "repeated map keys" {
					passes = 3
				}
				if c.work > passes*int64(len(args))+16*bind.MaxIssues {
					t.Errorf("%s %s %dx: work %d for %d bytes, want one pass", b.Name(), g.name, k, c.work, len(args))
				}
				allocs, bytes := memCost(func() { plan.Check(args, nil) })
				c.allocs, c.bytes = float64(allocs), bytes
				if k == 1 {
					allocs0 = allocs
				}
				// The issues listed and their paths (bounded by MaxIssues),
				// and V2's table of dropped keys, grown by doubling.
				if allocs > allocs0+16 {
					t.Errorf("%s %s %dx (%d bytes): %d allocations, %d at 1x", b.Name(), g.name, k, len(args), allocs, allocs0)
				}
				costs = append(costs, c)
			}
			assertLinear(t, costs, scales)
		}
	}
}

// kindsOf lists the kinds of issues.
func kindsOf(issues []bind.Issue) []bind.Code {
	var kinds []bind.Code
	for _, is := range issues {
		kinds = append(kinds, is.Kind)
	}
	return kinds
}

// TestNative_VerdictSweep is FuzzNativeValues over a fixed run of random
// shapes and values: every verdict the pass gives is the trial check's
// and the binder's (checkProven), and the run reaches a verdict with
// issues of each class the pass models, on both binders, so that the
// oracle is not held only on clean calls.
func TestNative_VerdictSweep(t *testing.T) {
	n := 10000
	if testing.Short() {
		n = 3000
	}
	r := rand.New(rand.NewSource(1))
	seen := map[string]bool{}
	for range n {
		shape := make([]byte, 1+r.Intn(12))
		r.Read(shape)
		typ := fuzzShape(shape, nativeFixed)
		if typ == nil {
			continue
		}
		choices := make([]byte, r.Intn(30))
		r.Read(choices)
		args := genArgs(typ, choices)
		for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
			plan, err := b.Compile(typ)
			if err != nil {
				continue
			}
			checkProven(t, plan, args)
			is, _, _ := bind.NativeVerdict(plan, args)
			for _, x := range is {
				seen[b.Name()+" "+string(x.Kind)] = true
				if _, _, dup := bindcap.DuplicateName(b, x.Err); dup && x.Start < len(args) && (args[x.Start] == '{' || x.Param < 0 && x.Kind == bind.InvalidJSON && args[x.Start] == '"') {
					seen[b.Name()+" repeat inside"] = true // a name repeated in a value, not at the top level
				}
				if x.Kind == bind.InvalidJSON && x.Param < 0 && x.Start == x.End && x.Start < len(args) && (args[x.Start] == '\\' || args[x.Start] >= 0x80) {
					seen[b.Name()+" dropped text"] = true // invalid text in a value dropped at the top level
				}
				if selfDecodes(x.Type) {
					seen[b.Name()+" self "+strconv.Itoa(int(x.Kind.Class()))] = true // a self-decoding value's issue (selfdec.go)
				}
				if x.Kind == bind.InvalidValue && x.Err == nil && x.Start < len(args) && args[x.Start] == '{' && b.Name() == "v2" {
					seen[b.Name()+" key text"] = true // a key whose text V2 fails on, inside an argument
				}
			}
		}
	}
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		for _, k := range []bind.Code{kWrong, kNotWhole, kLarge, kSmall, kUnknown, kNull, bind.InvalidJSON} {
			if !seen[b.Name()+" "+string(k)] {
				t.Errorf("%s: no verdict of the pass held a %v issue", b.Name(), k)
			}
		}
	}
	for _, b := range []string{"v2", "segmentio"} {
		for _, k := range []bind.Class{bind.BinderFailure, bind.SilentLoss} {
			if !seen[b+" self "+strconv.Itoa(int(k))] {
				t.Errorf("%s: no verdict of the pass held an issue of class %v of a type that decodes itself", b, k)
			}
		}
	}
	for _, k := range []bind.Code{bind.FoldedKey, bind.InvalidValue, "repeat inside", "dropped text", "key text"} { // InvalidValue: a repeated name
		if !seen["v2 "+string(k)] {
			t.Errorf("v2: no verdict of the pass held a %v issue", k)
		}
	}
	for _, k := range []bind.Code{kDup, kReplaced, bind.ArrayLength, bind.InvalidValue} { // InvalidValue: a Duration's
		if !seen["segmentio "+string(k)] {
			t.Errorf("segmentio: no verdict of the pass held a %v issue", k)
		}
	}
}
