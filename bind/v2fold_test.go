package bind_test

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
)

// v2FoldVerdicts are calls with a key V2 binds by a case:ignore fold whose
// value holds an issue, whose verdict V2's one pass gives itself, issue
// for issue the trial check's (the key's FoldedKey first).
var v2FoldVerdicts = []v2Row{
	{1, `{"HOURS_BACK":null}`},
	{1, `{"n":{"HOURS_BACK":null}}`},
	{1, `{"ns":[{"Hours-Back":null,"x":null}],"HoursBack":null,"zz":1}`},
	{1, `{"n":{"HOURS_BACK":null,"q":1}}`},
}

// TestV2Fold_Verdicts: V2's one pass gives the verdict of each call, the
// trial check's.
func TestV2Fold_Verdicts(t *testing.T) {
	checkV2Verdicts(t, v2FoldVerdicts)
}

// foldsShared nests nativeFolds, whose case:ignore fields a_b and A-B fold
// alike, and holds a field of its own.
type foldsShared struct {
	In  nativeFolds   `json:"in"`
	Ins []nativeFolds `json:"ins"`
	X   int           `json:"x"`
}

// v2SharedFolds are calls of structs where two case:ignore fields fold
// alike ("a_b" and "A-B" to "AB"): a key that folds to that name V2 fails
// on as ambiguous (go-json-experiment), which the pass lists at the top
// level (AmbiguousArgument, V2 reading none of its value) and declines
// inside an argument (decides false), or binds to the first
// (GOEXPERIMENT=jsonv2), which the pass binds too; every other key binds
// as it would in another struct, or none, and the pass decides the call.
var v2SharedFolds = []struct {
	args    string
	decides bool
}{
	{`{"zz":1}`, true},
	{`{"c":1,"zz":2,"id":3,"ID":4}`, true},
	{`{"a_b":1,"A-B":2}`, true},
	{`{"zz":1,"zz":2}`, true},
	{`{"zz":{"k":1,"k":`, true},
	{`{"zz":{"k":1,"k"`, true},
	{`{"zz":` + strings.Repeat("[", 10001), true},
	{`{"z\u007a":1,"a_b":"x"}`, true},
	{`{"in":{"zz":1,"a_b":2},"ins":[{"zz":{"k":1,"k":2}},{"C":1}],"x":1}`, true},
	{`{"in":{"zz":1,"zz":`, true},
	{`{"AB":1}`, true},
	{`{"a-b":1}`, true},
	{`{"zz":1,"ab":2}`, true},
	{`{"AB":1,"AB":2}`, true},
	{`{"A\u0042":1,"AB":2,"ab":3}`, true},
	{`{"AB":1,"ab":2,"c":"x"}`, true},
	{`{"c":1,"c":2,"AB":1}`, true},
	{`{"zz":1,"zz":2,"AB":1}`, true},
	{`{"AB":null,"id":null}`, true},
	{`{"zz":1,"AB":{"x":1,"x":2},"q":{"y":1,"y":2}}`, true},
	{"{\"zz\":1,\"AB\":\"\xff\",\"c\":\"\xff\"}", true},
	{`{"AB":1,"zz":"\u00ff","zz":2}`, true},
	{`{"AB":[1,}`, true},
	{`{"AB":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`, true},
	{`{"in":{"A_b":1}}`, false},
	{`{"ins":[{},{"\u0061b":1}]}`, false},
}

// TestV2SharedFolds: the pass decides each row it should (and declines
// the others) as the trial check does (checkProven), for nativeFolds at
// the top level and in foldsShared's nested ones.
func TestV2SharedFolds(t *testing.T) {
	for _, r := range v2SharedFolds {
		for _, typ := range []reflect.Type{reflect.TypeFor[nativeFolds](), reflect.TypeFor[foldsShared]()} {
			plan, err := jsonv2.Binder.Compile(typ)
			if err != nil {
				t.Fatal(err)
			}
			args := []byte(r.args)
			checkProven(t, plan, args)
			_, _, ok := bind.NativeVerdict(plan, args)
			nested := typ == reflect.TypeFor[foldsShared]()
			top := !strings.HasPrefix(r.args, `{"in"`) && !strings.HasPrefix(r.args, `{"ins"`)
			// A row of foldsShared's nested keys sent to nativeFolds is
			// one unknown key; nativeFolds' keys sent to foldsShared are
			// unknown keys of a struct with no shared fold.
			want := r.decides || nested == top || !v2AmbiguousFails
			if ok != want {
				t.Errorf("%v %.80q: the pass decides: %v, want %v", typ, r.args, ok, want)
			}
		}
	}
}

// TestV2SharedFolds_PastTheCap: past MaxIssues, the ambiguous keys and the
// dropped keys' repeats the pass only counts are counted each as its own
// kind, in the order the trial check meets them (the pass counted every
// one as a repeat's InvalidJSON: "omitted of ambiguous_argument n1,
// omitted of invalid_json n1", where the trial check says "omitted of
// ambiguous_argument n2").
func TestV2SharedFolds_PastTheCap(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[nativeFolds]())
	if err != nil {
		t.Fatal(err)
	}
	// "a", i's bits as '-' and '_', "b": V2 folds each to "ab", and no
	// two are alike as sent.
	ambiguous := func(i int) string {
		return `"a` + strings.NewReplacer("0", "-", "1", "_").Replace(strconv.FormatInt(int64(i)+2, 2)) + `b":1`
	}
	twice := func(i int) string { k := `"k` + strconv.Itoa(i) + `"`; return k + `:1,` + k + `:2` }
	calls := map[string]string{
		"1,002 ambiguous texts":                         `{` + seqOf(1002, ambiguous) + `}`,
		"1,000 dropped keys twice, two ambiguous":       `{` + seqOf(1000, twice) + `,"AB":1,"ab":1}`,
		"1,002 dropped keys twice, one ambiguous":       `{` + seqOf(1002, twice) + `,"AB":1}`,
		"one ambiguous, 1,002 dropped keys twice":       `{"AB":1,` + seqOf(1002, twice) + `}`,
		"500 ambiguous texts, 600 dropped keys twice":   `{` + seqOf(500, ambiguous) + `,` + seqOf(600, twice) + `}`,
		"past the cap, a repeat, then an ambiguous key": `{` + seqOf(1001, twice) + `,"x":1,"x":2,"AB":1,"y":1,"y":2}`,
		"past the cap, an ambiguous key, then a repeat": `{` + seqOf(1001, twice) + `,"AB":1,"x":1,"x":2,"ab":1}`,
	}
	for name, args := range calls {
		t.Run(name, func(t *testing.T) {
			if v2AmbiguousFails {
				decidedProven(t, plan, []byte(args))
			} else {
				checkProven(t, plan, []byte(args))
			}
		})
	}
}

func seqOf(n int, f func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = f(i)
	}
	return strings.Join(parts, ",")
}
