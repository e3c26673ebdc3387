package bind_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/probe"
)

// The proving pass of V2 and SegmentIO plans: the binder's own field and
// value rules, read by the one walker, which says a call is clean (no
// issue of any kind, the binder reads it) or declines, and the trial check
// decides. These tests hold that every clean it says is proven.

// nativeLeaf is a struct a native shape nests: recursion through a
// pointer, a list and a map.
type nativeLeaf struct {
	V    int                    `json:"v"`
	S    string                 `json:"s"`
	F    float32                `json:"f"`
	Next *nativeLeaf            `json:"next"`
	Kids []nativeLeaf           `json:"kids"`
	M    map[string]*nativeLeaf `json:"m"`
}

type nativeEmbedded struct {
	E  int    `json:"e"`
	A  string `json:"a"`
	In int
}

// nativeTypes are the types a native shape draws its fields from: the
// shapes' vocabulary, and nested structs.
var nativeTypes = append(append([]reflect.Type{}, shapeTypes...),
	reflect.TypeFor[nativeLeaf](), reflect.TypeFor[probe.Nested](), reflect.TypeFor[map[int]string](),
	reflect.TypeFor[uint8](), reflect.TypeFor[int32](), reflect.TypeFor[uint](), reflect.TypeFor[map[string]any](),
	reflect.TypeFor[[]any](), reflect.TypeFor[time.Duration](), reflect.TypeFor[uintptr](), reflect.TypeFor[namedAny](),
	reflect.TypeFor[segQuotedInner](), reflect.TypeFor[json.Number](), reflect.TypeFor[[]byte](), reflect.TypeFor[map[int64]int](),
	reflect.TypeFor[selfTyped](), reflect.TypeFor[selfValueRecv](), reflect.TypeFor[selfSpaced](), reflect.TypeFor[selfNested](),
	reflect.TypeFor[nmSpan](), reflect.TypeFor[nmOdd](), // a field's name holding a dot
)

// nativeOptions are the tag options a native shape's field carries.
var nativeOptions = []string{"", "", ",omitempty", ",string", ",case:ignore", ",omitzero", ",case:strict", ",format:RFC3339"}

// fuzzShape is the type a fuzz input's shape bytes name: one byte picks
// a type of fixed, more build one (nativeShapeOf); nil for none.
func fuzzShape(shape []byte, fixed []reflect.Type) reflect.Type {
	if len(shape) == 1 {
		return fixed[int(shape[0])%len(fixed)]
	}
	return nativeShapeOf(shape)
}

// nativeShapeOf builds a struct type from shape as shapeOf does, with the
// native vocabulary, options and, by the first byte, an embedded struct.
func nativeShapeOf(shape []byte) reflect.Type {
	var fields []reflect.StructField
	if len(shape) > 0 && shape[0]&1 == 1 {
		fields = append(fields, reflect.StructField{Name: "NativeEmbedded", Type: reflect.TypeFor[nativeEmbedded](), Anonymous: true})
		shape = shape[1:]
	}
	for i := 0; i+2 < len(shape) && len(fields) < 6; i += 3 {
		t := nativeTypes[int(shape[i])%len(nativeTypes)]
		switch shape[i] / 64 {
		case 1:
			t = reflect.PointerTo(t)
		case 2:
			t = reflect.SliceOf(t)
		case 3:
			if shape[i+2]&1 == 0 {
				t = reflect.ArrayOf(2, t)
			} else {
				t = reflect.MapOf(reflect.TypeFor[string](), t)
			}
		}
		name := shapeNames[int(shape[i+1])%len(shapeNames)]
		tag := name + nativeOptions[int(shape[i+2]/2)%len(nativeOptions)]
		fields = append(fields, reflect.StructField{
			Name: "F" + strconv.Itoa(len(fields)),
			Type: t,
			Tag:  reflect.StructTag(`json:"` + tag + `"`),
		})
	}
	if len(fields) == 0 {
		return nil
	}
	return reflect.StructOf(fields)
}

// nativeOwn holds the types each binder reads by rules of its own, which
// the pass declines.
type nativeOwn struct {
	T   time.Time         `json:"t"`
	D   time.Duration     `json:"d"`
	N   json.Number       `json:"n"`
	B   []byte            `json:"b"`
	MI  map[int]string    `json:"mi"`
	Raw json.RawMessage   `json:"raw"`
	C   probe.Color       `json:"c"`
	F   probe.Flex        `json:"f"`
	Q   int               `json:"q,string"`
	MC  map[string]string `json:"mc"`
	S   string            `json:"s"`
	U   uintptr           `json:"u"`
	NA  namedAny          `json:"na"`
	MU  map[uintptr]int   `json:"mu"`
	QD  time.Duration     `json:"qd,string"`
}

// namedAny is an empty interface of a name of its own.
type namedAny interface{}

// nativeFixed are whole tools the native fuzz target also reads, chosen
// by a shape of one byte.
var nativeFixed = []reflect.Type{
	reflect.TypeFor[benchTypical](), reflect.TypeFor[trialArgs](), reflect.TypeFor[nativeLeaf](),
	reflect.TypeFor[benchStrings](), reflect.TypeFor[benchInts](), reflect.TypeFor[fuzzLossArgs](),
	reflect.TypeFor[nativeOwn](), reflect.TypeFor[nativeFolds](), reflect.TypeFor[selfArgs](),
	reflect.TypeFor[v2PastArgs](), reflect.TypeFor[cleanV2Args](), reflect.TypeFor[cleanSegArgs](),
}

// nativeFolds has two case:ignore fields whose names V2 folds alike: a key
// that folds to both fails (or, under GOEXPERIMENT=jsonv2, binds the
// first), which the pass declines.
type nativeFolds struct {
	A  int `json:"a_b,case:ignore"`
	B  int `json:"A-B,case:ignore"`
	ID int `json:"id,case:ignore"`
	C  int `json:"c"`
}

// checkProven is the oracle: Check says what the trial check (the
// verdict before the pass) says, issue for issue; and when the one pass
// gives a verdict (it does not decline), that verdict is the trial
// check's, issue for issue (kind, argument, span, path, type, counts) and
// member for member, and the real binder fails exactly when it holds a
// failure.
func checkProven(t *testing.T, plan *bind.Plan, args []byte) {
	t.Helper()
	trial, trialMembers := bind.TrialVerdict(plan, args)
	if got := plan.Check(args, nil); !sameIssues(got, trial) {
		t.Fatalf("%s %v %.200q: Check says %s, the trial check %s", plan.Binder().Name(), plan.Type(), args, brief(got), brief(trial))
	}
	checkClean(t, plan, args, trial, &trialMembers)
	verdict, members, ok := bind.NativeVerdict(plan, args)
	if !ok {
		return
	}
	if !sameIssues(verdict, trial) {
		t.Fatalf("%s %v %.200q: the pass says %s, the trial check %s", plan.Binder().Name(), plan.Type(), args, brief(verdict), brief(trial))
	}
	for i := range verdict { // refuse words a V2 repeated name from Err
		_, _, dup := bindcap.DuplicateName(plan.Binder(), verdict[i].Err)
		if _, _, want := bindcap.DuplicateName(plan.Binder(), trial[i].Err); dup != want {
			t.Fatalf("%s %v %.200q: issue %d: the pass's is a repeated name: %v, the trial check's: %v", plan.Binder().Name(), plan.Type(), args, i, dup, want)
		}
	}
	if why := sameMembers(&members, &trialMembers); why != "" {
		t.Fatalf("%s %v %.200q: members: %s", plan.Binder().Name(), plan.Type(), args, why)
	}
	fails := slices.ContainsFunc(verdict, func(is bind.Issue) bool {
		return is.Kind.Class() == bind.BinderFailure && is.Kind != bind.Omitted || is.Kind == bind.Omitted && is.Of.Class() == bind.BinderFailure
	})
	err := plan.Binder().Unmarshal(args, reflect.New(plan.Type()).Interface())
	if (err != nil) != fails && len(args) > 0 {
		t.Fatalf("%s %v %.200q: the pass says %s, the binder: %v", plan.Binder().Name(), plan.Type(), args, brief(verdict), err)
	}
}

// checkClean holds, for a call the binder reads, the clean mode's verdict
// and members (see bind/clean.go) to the trial check's: where the pass
// declines such a call, the clean mode gives Check's verdict.
func checkClean(t *testing.T, plan *bind.Plan, args []byte, trial []bind.Issue, trialMembers *bindcap.Members) {
	t.Helper()
	if len(args) == 0 || plan.Binder().Unmarshal(args, reflect.New(plan.Type()).Interface()) != nil {
		return
	}
	verdict, members, ok := bind.CleanVerdict(plan, args)
	if !ok {
		if _, _, proved := bind.NativeVerdict(plan, args); !proved {
			t.Fatalf("%s %v %.200q: the binder reads it, and the pass and the clean mode both decline", plan.Binder().Name(), plan.Type(), args)
		}
		return
	}
	if !sameIssues(verdict, trial) {
		t.Fatalf("%s %v %.200q: the clean mode says %s, the trial check %s", plan.Binder().Name(), plan.Type(), args, brief(verdict), brief(trial))
	}
	if why := sameMembers(&members, trialMembers); why != "" {
		t.Fatalf("%s %v %.200q: the clean mode's members: %s", plan.Binder().Name(), plan.Type(), args, why)
	}
}

// decidedProven is checkProven for a call the pass must decide: it
// returns the pass's verdict, or reports the call declined and false.
func decidedProven(t *testing.T, plan *bind.Plan, args []byte) ([]bind.Issue, bool) {
	t.Helper()
	checkProven(t, plan, args)
	issues, _, ok := bind.NativeVerdict(plan, args)
	if !ok {
		t.Errorf("%q: the pass declines", args)
	}
	return issues, ok
}

// sameIssues reports whether a and b list the same issues in the same
// order, but for the binder's own error (Err), which only the trial
// check's decodes have.
func sameIssues(a, b []bind.Issue) bool {
	return slices.EqualFunc(a, b, func(x, y bind.Issue) bool {
		return x.Kind == y.Kind && x.Of == y.Of && x.Param == y.Param && x.Start == y.Start && x.End == y.End &&
			x.Path.String() == y.Path.String() && x.Path.Pointer() == y.Path.Pointer() &&
			x.Type == y.Type && x.Quoted == y.Quoted && x.N == y.N
	})
}

// brief writes the first issues of a list, one field each.
func brief(issues []bind.Issue) string {
	var b strings.Builder
	for i, is := range issues {
		if i == 8 {
			fmt.Fprintf(&b, " ...%d more", len(issues)-i)
			break
		}
		fmt.Fprintf(&b, "{%v of %v param %d [%d,%d) %q %s %v q%v n%d err %.80v} ", is.Kind, is.Of, is.Param, is.Start, is.End, is.Path.String(), is.Path.Pointer(), is.Type, is.Quoted, is.N, is.Err)
	}
	return b.String()
}

// sameMembers says how two checks' top-level members differ, "" if not.
func sameMembers(a, b *bindcap.Members) string {
	if a.Object != b.Object || a.Cut != b.Cut || a.Len() != b.Len() {
		return fmt.Sprintf("object %v cut %v %d members, want %v %v %d", a.Object, a.Cut, a.Len(), b.Object, b.Cut, b.Len())
	}
	for i := range a.Len() {
		if *a.At(i) != *b.At(i) {
			return fmt.Sprintf("member %d is %+v, want %+v", i, *a.At(i), *b.At(i))
		}
	}
	return ""
}

// nestedRequired is a WithRequired fields function: every field of every
// struct type below the top level is required.
func nestedRequired(t reflect.Type) []string {
	var names []string
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" {
			name = t.Field(i).Name
		}
		names = append(names, name)
	}
	return names
}

// FuzzNative: for V2 and SegmentIO, over random struct shapes (fields of
// every kind, wrapped in pointers, lists, arrays and maps, names that
// collide by case, tag options, an embedded struct) and whole tools, with
// and without required parameters and nested fields: every call the
// proving pass says is clean, the binder reads and the trial check finds
// nothing in (checkProven); where Check finds nothing, the struct the
// binder decoded holds what was sent (roundTrips, which shares no code
// with the check).
func FuzzNative(f *testing.F) {
	for i := range nativeFixed {
		f.Add([]byte{byte(i)}, []byte(benchCalls[0].args)) // the typical call
	}
	f.Add([]byte{3}, []byte(`{"items":["a","b\n","\u00e9"]}`))
	f.Add([]byte{4}, []byte(`{"values":[1,-2,9223372036854775807,-9223372036854775808]}`))
	f.Add([]byte{4}, []byte(`{"values":[21000000000000000000,81985529216486896071111,20000000000000000000]}`)) // segmentio wraps the first two
	for _, s := range lossSeeds {
		f.Add([]byte{1}, []byte(s))
	}
	for _, s := range nativeDeclines {
		f.Add([]byte{byte(s.fixed)}, []byte(s.args))
	}
	for _, r := range v2CutVerdicts { // text that is not JSON after a name V2 fails on repeated
		f.Add([]byte{byte(r.fixed)}, []byte(r.args))
	}
	for _, r := range segRepeatLosses { // fixed shape 1's repeated keys whose values hold losses
		f.Add([]byte{1}, []byte(r))
	}
	for _, r := range segCutDeep { // text that is not JSON nested past go-sdk's limit after the error
		f.Add([]byte{byte(r.fixed)}, []byte(r.args))
	}
	for _, r := range v2SharedFolds { // fixed shape 7's case:ignore fields folding alike
		f.Add([]byte{7}, []byte(r.args))
	}
	f.Add([]byte{1}, []byte(`{"arr":[1,"x",3],"deep":[[{"x":"a"}],[{"x":"b"}]],"i":"y"}`)) // V2 stops at a failure in an array of another length
	for _, s := range []string{`{"arr":[]}`, `{"arr":[ ],"i":"x"}`, `{"deep":[]}`, `{"ns":[{"x":1}],"arr":[1,2,3],"deep":[[]]}`} {
		f.Add([]byte{1}, []byte(s)) // fixed shape 1's fixed-size arrays sent [] (segmentio fails on it)
	}
	for _, v := range wrongTexts { // fixed shape 1's integer sent text of the wrong kind
		f.Add([]byte{1}, []byte(`{"i":`+v+`,"n":{"x":`+v+`}}`))
	}
	for _, s := range selfQuoted { // fixed shape 8's ,string fields that decode themselves
		f.Add([]byte{8}, []byte(s))
	}
	f.Add([]byte{0, 0, 0, 8, 1, 0}, []byte(`{"a":1,"A":"x"}`))
	f.Add([]byte{1, 18, 2, 0, 8, 1, 8}, []byte(`{"e":1,"a":"x","In":2,"b":{"v":1,"kids":[{"s":"y"}],"m":{"k":{"v":2}}}}`))
	f.Add([]byte{70, 2, 2, 200, 3, 1}, []byte(`{"b":"5","B":{"k":[1]}}`))
	f.Add([]byte{8, 0, 8, 9, 3, 0}, []byte(`{"a":"x","HOURS":1,"b":true}`))
	f.Add([]byte{6, 0, 0, 5, 2, 0}, []byte(`{"a":123456789012345,"b":1.5}`))
	for _, v := range segDurations { // fixed shape 6's Duration
		f.Add([]byte{6}, []byte(`{"d":`+v+`,"n":1}`))
	}
	for _, v := range namedAnyValues { // fixed shape 6's named empty interface
		f.Add([]byte{6}, []byte(`{"na":`+v+`}`))
	}
	for _, r := range textKeyRows { // fixed shape 8's maps of keys of a string kind with methods
		f.Add([]byte{8}, []byte(r.args))
	}
	for _, r := range append(append(v2UintptrVerdicts, v2DroppedKeyVerdicts...), append(v2PastVerdicts, v2PastDeclines...)...) {
		f.Add([]byte{byte(r.fixed)}, []byte(r.args))
	}
	for _, v := range segQuotedDurations { // fixed shape 6's ,string Duration
		f.Add([]byte{6}, []byte(`{"qd":`+v+`,"n":1}`))
	}
	for _, k := range segIntKeys { // fixed shape 6's map of integer keys
		f.Add([]byte{6}, []byte(`{"mi":{"1":"a","`+k+`":"b"}}`))
		f.Add([]byte{6}, []byte(`{"mi":{"`+k+`":1}}`)) // a failure under the key: segmentio's path names the integer read
	}
	for _, s := range segDroppedStrings { // fixed shape 1's dropped strings of any text
		f.Add([]byte{1}, []byte(s.args))
	}
	for _, s := range segReplacedKeys { // keys whose text segmentio replaces
		f.Add([]byte{byte(s.fixed)}, []byte(s.args))
	}
	f.Fuzz(func(t *testing.T, shape, args []byte) {
		typ := fuzzShape(shape, nativeFixed)
		if typ == nil {
			return
		}
		for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
			plan, err := b.Compile(typ)
			if err != nil {
				continue // a type the binder does not read
			}
			checkProven(t, plan, args)
			roundTrips(t, b, plan, args) // and, where Check finds nothing, nothing is lost
			var names []string
			for i, p := range plan.Params() {
				if len(shape) > 0 && shape[len(shape)-1]>>(i%8)&1 == 1 {
					names = append(names, p.Name)
				}
			}
			checkProven(t, plan.WithRequired(names, nestedRequired), args)
		}
	})
}

// nativeDecline is a call the proving pass must decline, and why: the
// binder reads it in a way the pass does not model, or there is an issue.
type nativeDecline struct {
	fixed int // index in nativeFixed
	args  string
	why   string
	only  string // the binder's name, when the row is about one
}

// nativeDeclines are table rows for each reason the pass declines. Each
// runs on both binders; the trial check's verdict stands.
var nativeDeclines = []nativeDecline{
	{8, `{"f":1,"f":true}`, "a field of a type that decodes itself sent again, in a call that fails (segmentio decodes the second into what the first left)", "segmentio"},
	{8, `{"ly":[{}],"i":"x","ly":[{}]}`, "a list of a type that decodes itself sent again, in a call that fails", "segmentio"},
	{8, `{"qc":"\"\t\""}`, "a ,string field of a string kind that decodes itself, its text holding a control character (segmentio's codec reads it or not by the call's bytes)", "segmentio"},
	{6, `{"na":1,"na":2}`, "a named empty interface sent twice (segmentio fails on the second, where any's is replaced)", "segmentio"},
}

// TestNative_Declines: the proving pass declines each row on both binders
// and Check's verdict is the trial check's.
func TestNative_Declines(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		for _, tc := range nativeDeclines {
			if tc.only != "" && tc.only != b.Name() {
				continue
			}
			plan, err := b.Compile(nativeFixed[tc.fixed])
			if err != nil {
				t.Fatal(err)
			}
			if !bind.HasProvingPass(plan) {
				t.Fatalf("%s %v: no proving pass", b.Name(), plan.Type())
			}
			args := []byte(tc.args)
			checkProven(t, plan, args)
			if is, _, ok := bind.NativeVerdict(plan, args); ok {
				t.Errorf("%s %.60q (%s): the pass gives the verdict %v", b.Name(), tc.args, tc.why, kindsOf(is))
			}
		}
	}
}

// TestNative_ProvesTypicalCalls: the pass proves clean the calls it is
// for, the typical call, lists of strings and of ints, nested structs,
// maps, big strings, on both binders; and the parameters they send,
// required, keep them clean.
func TestNative_ProvesTypicalCalls(t *testing.T) {
	calls := []struct {
		fixed int
		args  string
	}{
		{2, `{"v":1,"s":"x","f":0.5,"next":{"v":2,"kids":[{"v":3},{"s":"é\n"}]},"m":{"a":{"v":4},"b":{}}}`},
		{1, `{"i":-3,"u8":255,"f":-0.125,"f32":1.5,"s":"x","b":false,"p":7,"a":[1,"x",{"k":true}],"sl":["a","b"],"m":{"k":1.5},"n":{"x":1,"y":"y","z":[1.5]},"ns":[{"in":{"x":2}}],"hours_back":3}`},
		{0, `{"query":"` + strings.Repeat("plain text, \\\"quoted\\\", ünïcode ", 30000) + `"}`},
		{0, ` { "count" : 1 , "tags" : [ ] } `},
		{0, ``},
		{0, `{}`},
		{0, `null`},
		{1, `{"f":1e2,"f32":-3.4e38,"a":[1234567890123456,1E-400,0.1e1],"m":{"k":9007199254740992}}`},
		{6, `{"mc":{"a":"x","b":"é"},"s":"x"}`},
		{0, `{"cursor":null,"tags":null,"query":"x"}`},
		{1, `{"p":null,"a":[null,{"k":null}],"sl":null,"m":null,"np":null,"ns":[{"in":null,"z":null}]}`},
		{2, `{"next":null,"kids":null,"m":{"a":null}}`},
	}
	for _, c := range benchCalls {
		calls = append(calls, struct {
			fixed int
			args  string
		}{map[string]int{"Typical": 0, "Strings200": 3, "Ints10k": 4}[c.name], c.args})
	}
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		for _, c := range calls {
			plan, err := b.Compile(nativeFixed[c.fixed])
			if err != nil {
				t.Fatal(err)
			}
			var sent []string // the params the call sends: required, they stay clean
			var members map[string]json.RawMessage
			_ = json.Unmarshal([]byte(c.args), &members)
			for _, p := range plan.Params() {
				if _, ok := members[p.Name]; ok {
					sent = append(sent, p.Name)
				}
			}
			for _, p := range []*bind.Plan{plan, plan.WithRequired(sent, nil)} {
				args := []byte(c.args)
				checkProven(t, p, args)
				if !bind.ProvesClean(p, args) {
					t.Errorf("%s %v %.80q: the pass declines", b.Name(), p.Type(), c.args)
				}
			}
		}
	}
}

// TestNative_RequiredDeclines: a required parameter or nested field the
// call leaves out is an issue (Missing): the pass declines.
func TestNative_RequiredDeclines(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[nativeLeaf]())
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			plan *bind.Plan
			args string
		}{
			{plan.WithRequired([]string{"s"}, nil), `{"v":1}`},
			{plan.WithRequired(nil, func(reflect.Type) []string { return []string{"s"} }), `{"s":"x","next":{"v":1}}`},
			{plan.WithRequired([]string{"s"}, nil), ``},
		} {
			checkProven(t, tc.plan, []byte(tc.args))
			if bind.ProvesClean(tc.plan, []byte(tc.args)) {
				t.Errorf("%s %q: a required field is missing, and the pass proves it clean", b.Name(), tc.args)
			}
		}
	}
}

// TestNative_Depth: nesting to the binder's limit the pass proves clean;
// one level past it, its verdict is the trial check's TooDeep, in the
// argument holding it, on both binders, at the top level and inside a
// dropped value.
func TestNative_Depth(t *testing.T) {
	nest := func(n int) []byte {
		return []byte(`{"next":` + strings.Repeat(`{"next":`, n-2) + `{}` + strings.Repeat(`}`, n-2) + `}`)
	}
	dropped := func(n int) []byte {
		return []byte(`{"zz":` + strings.Repeat(`[`, n-1) + strings.Repeat(`]`, n-1) + `}`)
	}
	for _, tc := range []struct {
		b     bind.Binder
		limit int
	}{{segmentio.Binder, bind.SegmentIOMaxDepth}, {jsonv2.Binder, bind.MaxDepth}} {
		plan, err := tc.b.Compile(reflect.TypeFor[nativeLeaf]())
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]byte{nest(tc.limit), dropped(tc.limit)} {
			checkProven(t, plan, args)
			if is, _, ok := bind.NativeVerdict(plan, args); !ok {
				t.Errorf("%s: depth %d: %v, %v", tc.b.Name(), tc.limit, kindsOf(is), ok)
			}
		}
		for _, args := range [][]byte{nest(tc.limit + 1), dropped(tc.limit + 1), []byte(strings.Repeat("[", tc.limit+1) + strings.Repeat("]", tc.limit+1))} {
			checkProven(t, plan, args)
			if is, _, ok := bind.NativeVerdict(plan, args); !ok || len(is) < 1 || is[len(is)-1].Kind != bind.TooDeep {
				t.Errorf("%s: depth %d %.20q: %v, %v", tc.b.Name(), tc.limit+1, args, kindsOf(is), ok)
			}
		}
	}
}

// taggedTypical is benchTypical with validate tags: bind reads the tags
// of no field, so the plan and its pass are the untagged tool's.
type taggedTypical struct {
	Count  int32    `json:"count" validate:"min=1,max=100"`
	Limit  int      `json:"limit" validate:"gte=1,lte=500"`
	Query  string   `json:"query" validate:"required,max=200"`
	Tags   []string `json:"tags" validate:"max=10,dive,min=1"`
	Score  float64  `json:"score" validate:"gte=0,lte=1"`
	Exact  bool     `json:"exact"`
	Cursor *string  `json:"cursor" validate:"omitempty,min=4"`
	Window struct {
		From string `json:"from" validate:"required"`
		To   string `json:"to" validate:"required"`
	} `json:"window"`
}

// TestNative_TypicalCallAllocatesNothing: Check on the typical clean call,
// for V2 and SegmentIO, with and without validate tags, with its required
// params, allocates nothing: the pass proves it clean without the
// binder's decode.
func TestNative_TypicalCallAllocatesNothing(t *testing.T) {
	args := []byte(benchCalls[0].args)
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		for _, typ := range []reflect.Type{reflect.TypeFor[benchTypical](), reflect.TypeFor[taggedTypical]()} {
			plan, err := b.Compile(typ)
			if err != nil {
				t.Fatal(err)
			}
			plan = plan.WithRequired([]string{"query", "window"}, func(reflect.Type) []string { return []string{"from"} })
			if is := plan.Check(args, nil); len(is) != 0 {
				t.Fatalf("%s %v: %+v", b.Name(), typ, is)
			}
			if n := testing.AllocsPerRun(100, func() { plan.Check(args, nil) }); n != 0 {
				t.Errorf("%s %v: Check allocated %v times on the typical call, want 0", b.Name(), typ, n)
			}
		}
	}
}

// nativeGrowth are clean calls of scale k the pass reads: the benchmark
// suite's payloads and nested structs, maps, long lists and big strings.
// big: an object of more than 16 keys of a map or an interface, whose keys
// the checker holds in a map of their own (see keySet), allocated.
var nativeGrowth = []struct {
	name string
	typ  reflect.Type
	args func(k int) string
	big  bool
}{
	{"strings", reflect.TypeFor[benchStrings](), func(k int) string {
		return `{"items":[` + rep(`"an item of some forty bytes, plain text"`, 20*k, ",") + `]}`
	}, false},
	{"ints", reflect.TypeFor[benchInts](), func(k int) string { return `{"values":[` + rep(`123456789`, 100*k, ",") + `]}` }, false},
	{"text", reflect.TypeFor[benchTypical](), func(k int) string { return `{"query":"` + strings.Repeat(`text é \" `, 1000*k) + `"}` }, false},
	{"nested", reflect.TypeFor[nativeLeaf](), func(k int) string {
		return `{"kids":[` + rep(`{"v":1,"s":"x","next":{"v":2,"m":{"a":{"v":3},"b":{"f":0.5}}}}`, 10*k, ",") + `]}`
	}, false},
	{"deep", reflect.TypeFor[nativeLeaf](), func(k int) string {
		return strings.Repeat(`{"next":`, 8*k) + `{"v":1}` + strings.Repeat(`}`, 8*k)
	}, false},
	{"maps", reflect.TypeFor[trialArgs](), func(k int) string {
		return `{"a":[` + rep(`{"a":1.5,"b":[1,"x"],"c":{"d":true}}`, 10*k, ",") + `],"m":{"a":1,"b":2}}`
	}, false},
	{"big map", reflect.TypeFor[trialArgs](), func(k int) string {
		return `{"m":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":1.5` }) + `},"a":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":[1,"x"]` }) + `}}`
	}, true},
}

// TestNative_CostGrowsLinearly: on clean calls of 1x, 10x and 100x, for
// V2 and SegmentIO, Check is the pass alone: it proves each clean, reads
// each byte once (the work counter counts the input, and the keys of maps
// again, which are hashed: at most twice the input; no trial decode's),
// its work, allocations and bytes per byte of input stay flat, and it
// allocates nothing but for objects of more than 16 map keys.
func TestNative_CostGrowsLinearly(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		for _, g := range nativeGrowth {
			plan, err := b.Compile(g.typ)
			if err != nil {
				t.Fatal(err)
			}
			scales := growthScales
			if testing.Short() {
				scales = scales[:2]
			}
			var costs []growthCost
			for _, k := range scales {
				args := []byte(g.args(k))
				if !bind.ProvesClean(plan, args) {
					t.Fatalf("%s %s %dx: the pass declines", b.Name(), g.name, k)
				}
				w0 := bind.WorkDone()
				if is := plan.Check(args, nil); len(is) != 0 {
					t.Fatalf("%s %s %dx: %+v", b.Name(), g.name, k, is)
				}
				c := growthCost{size: len(args), work: bind.WorkDone() - w0}
				if c.work > 2*int64(len(args)) {
					t.Errorf("%s %s %dx: work %d for %d bytes, want one pass", b.Name(), g.name, k, c.work, len(args))
				}
				allocs, bytes := memCost(func() { plan.Check(args, nil) })
				c.allocs, c.bytes = float64(allocs), bytes
				if n := testing.AllocsPerRun(10, func() { plan.Check(args, nil) }); !g.big && n != 0 {
					t.Errorf("%s %s %dx (%d bytes): %v allocations, want 0", b.Name(), g.name, k, len(args), n)
				}
				costs = append(costs, c)
			}
			assertLinear(t, costs, scales)
		}
	}
}

// A valueGen writes a JSON value for a Go type, each choice drawn from
// its bytes: choice 0 (and every choice once the bytes run out) is a value
// the type reads as sent, the others are the edges the binders differ on.
type valueGen struct {
	b     []byte
	depth int
}

func (g *valueGen) pick(n int) int {
	if len(g.b) == 0 {
		return 0
	}
	c := int(g.b[0]) % n
	g.b = g.b[1:]
	return c
}

var (
	genInts = []string{"1", "0", "-1", "127", "128", "-129", "255", "256", "-0", "1.0", "1e2", "9223372036854775807", "9223372036854775808", "-9223372036854775808", "18446744073709551615", "18446744073709551616", `"1"`, "null", "true",
		// Past 64 bits: segmentio wraps the first three (WrappedNumber), catches the rest.
		"21000000000000000000", "18446744073709551615999", `"0021000000000000000000"`, "20000000000000000000", "99999999999999999999"}
	genFloats  = []string{"0.5", "-2", "123456789012345", "1234567890123456", "9007199254740993", "16777217", "1e2", "1E-7", "-0", "3.4e38", "3.5e38", "1e309", "0.1", `"1"`, "null", "1.7976931348623157e308"}
	genStrings = []string{`"x"`, `""`, `"é"`, `"a\nb"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud800"`, "\"\xff\"", "\"\xed\xa0\x80\"", `"\u0000"`, `"\/"`, "1", "null", `["x"]`}
	genBase64  = []string{`"YQ=="`, `"YQ"`, `""`, `"Y Q=="`, `"YQ==\n"`, `"\u0059Q=="`, `"!!!!"`, `"YWJj"`, "\"\xff\"", `[1,256]`, `[null]`,
		`"AA=="`, `"AAE="`, `"AAEC"`, `"AAECAw=="`, `"AA\nE="`, `"AA=A"`, `"\u0041A=="`, `"A"`}
	genColors = []string{"teal", "amber", "te\\u0061l", "crimson"}
	genKeys   = []string{"", "X", "_", "-", "\\u0061", "\xff", "é", "\\u0000", "zz", "21000000000000000000", "2553255926290448384", "-1", "01", "-0", "null", "300", "1 ", "+1", "k0.0", "k0.", ".k0", "k0\\u002e0"}
)

// genSelf are values for types that decode themselves.
var genSelf = map[reflect.Type][]string{
	reflect.TypeFor[probe.Color]():   {`"teal"`, `"amber"`, `"red"`, `"te\u0061l"`, "\"te\xffl\"", `1`, `{"a":1}`},
	reflect.TypeFor[probe.Flex]():    {`1`, `"12"`, `"x"`, `true`, `{"a":1,"a":2}`, `-0.5e3`},
	reflect.TypeFor[selfTyped]():     {`[1]`, `1`, `[]`, `{"a":[1]}`},
	reflect.TypeFor[selfSpaced]():    {`1`, `{"a": 1}`, `{"a":1}`, `[1,2]`, `[1, 2]`},
	reflect.TypeFor[selfValueRecv](): {`1`, `"x"`},
	reflect.TypeFor[time.Time]():     {`"2026-01-02T03:04:05Z"`, `1`, `"2026-01-02T03:04:05+01:00"`, `"\u0032026-01-02T03:04:05Z"`, `[1]`},
	reflect.TypeFor[selfInt]():       {`12`, `"1"`, `-1`, `1.5`, `21000000000000000000`},
	reflect.TypeFor[selfBool]():      {`"yes"`, `"no"`, `"x"`, `true`},
	reflect.TypeFor[selfFloat]():     {`1.5`, `"x"`, `1e400`, `9007199254740993`},
}

// value writes a value for t.
func (g *valueGen) value(t reflect.Type) string {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 6 {
		return "null"
	}
	switch g.pick(12) {
	case 1:
		return "null"
	case 2:
		return `{}`
	case 3:
		return `[]`
	}
	if t == reflect.TypeFor[time.Duration]() && g.pick(2) == 1 {
		return segDurations[g.pick(len(segDurations))] // numbers and strings segmentio reads, or fails on
	}
	if t == reflect.TypeFor[json.Number]() && g.pick(2) == 1 {
		return genFloats[g.pick(len(genFloats))] // numbers: a string is base64 to V2, the wrong kind to segmentio
	}
	if v, ok := genSelf[t]; ok && g.pick(2) == 1 {
		return v[g.pick(len(v))] // what its own method reads, or fails on
	}
	if t == reflect.TypeFor[[]byte]() && g.pick(2) == 1 {
		return genBase64[g.pick(len(genBase64))]
	}
	switch t.Kind() {
	case reflect.Pointer:
		return g.value(t.Elem())
	case reflect.Bool:
		return []string{"true", "false", `"true"`, "1"}[g.pick(4)]
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return genInts[g.pick(len(genInts))]
	case reflect.Float32, reflect.Float64:
		return genFloats[g.pick(len(genFloats))]
	case reflect.String:
		return genStrings[g.pick(len(genStrings))]
	case reflect.Interface:
		switch g.pick(5) {
		case 1:
			return genFloats[g.pick(len(genFloats))]
		case 2:
			return `[` + g.value(t) + `,` + g.value(t) + `]`
		case 3:
			return `{"a":` + g.value(t) + `,"b":` + g.value(t) + `}`
		case 4:
			return `{"a":1,"a":2}`
		}
		return genStrings[g.pick(len(genStrings))]
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && g.pick(3) == 1 {
			return genBase64[g.pick(len(genBase64))] // base64, which V2 reads into a [N]byte
		}
		n := g.pick(4)
		if t.Kind() == reflect.Array && g.pick(2) == 0 {
			n = t.Len()
		}
		var parts []string
		for range n {
			parts = append(parts, g.value(t.Elem()))
		}
		return `[` + strings.Join(parts, ",") + `]`
	case reflect.Map:
		var parts []string
		for i := range g.pick(4) {
			key := "k" + strconv.Itoa(i)
			switch {
			case t.Key().Kind() != reflect.String:
				key = strconv.Itoa(i)
			case t.Key() == reflect.TypeFor[probe.Color]():
				key = genColors[i%len(genColors)] // what its UnmarshalText reads (see textKeyRows)
			}
			switch g.pick(6) {
			case 1:
				key = genKeys[g.pick(len(genKeys))]
			case 2:
				key = "k0" // a repeat
			case 3:
				key = strings.ToUpper(key) // another key, or one a key type's UnmarshalText reads alike (textFoldKey)
			}
			parts = append(parts, `"`+key+`":`+g.value(t.Elem()))
		}
		return `{` + strings.Join(parts, ",") + `}`
	case reflect.Struct:
		if t == reflect.TypeFor[time.Time]() {
			return []string{`"2026-01-02T03:04:05Z"`, `"2026-01-02"`, `"x"`}[g.pick(3)]
		}
		var parts []string
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() || g.pick(4) == 3 {
				continue // left out
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			if f.Anonymous && f.Tag.Get("json") == "" {
				name = "e" // a promoted field's
			}
			switch g.pick(8) {
			case 1:
				name = strings.ToUpper(name)
			case 2:
				name = genKeys[g.pick(len(genKeys))] + name
			case 3:
				parts = append(parts, `"`+name+`":`+g.value(f.Type)) // a repeat
			}
			v := g.value(f.Type)
			if strings.Contains(f.Tag.Get("json"), ",string") && g.pick(3) != 0 {
				q, _ := json.Marshal(v) // the value in a string, as the option wants it
				v = string(q)
			}
			parts = append(parts, `"`+name+`":`+v)
		}
		return `{` + strings.Join(parts, ",") + `}`
	}
	return "null"
}

// genArgs writes a call for typ from choices (valueGen), then, with the
// last three of the choices it leaves over, breaks its syntax as models'
// calls come broken: cut short (the model's output ends mid-call), a byte
// put in or dropped.
func genArgs(typ reflect.Type, choices []byte) []byte {
	g := &valueGen{b: choices}
	args := []byte(g.value(typ))
	if len(g.b) < 3 || len(args) == 0 {
		return args
	}
	m := g.b[len(g.b)-3:]
	if m[0]%4 != 1 {
		return args
	}
	at := int(m[1]) % len(args)
	const put = ",}]\":x 0\x00"
	switch m[2] % 4 {
	case 0, 1:
		return args[:at] // cut short
	case 2:
		return slices.Concat(args[:at], []byte{put[int(m[2]/4)%len(put)]}, args[at:])
	}
	return slices.Concat(args[:at], args[at+1:]) // a byte dropped
}

// FuzzNativeValues is FuzzNative with calls written for the shape's type
// (valueGen): mostly values the type reads, so that the pass proves many of
// them clean, with the edges each binder reads its own way (bounds, -0,
// exponents, long numbers, escapes and invalid text, nulls, case variants,
// repeated and escaped keys, fixed-array lengths).
func FuzzNativeValues(f *testing.F) {
	f.Add([]byte{0}, []byte{})
	f.Add([]byte{1}, []byte{0, 0, 0, 5, 0, 0, 1})
	f.Add([]byte{2}, []byte{0, 0, 0, 0, 0, 0, 0, 0, 4, 2})
	f.Add([]byte{1, 18, 2, 0, 8, 1, 8}, []byte{})
	f.Add([]byte{70, 2, 2, 200, 3, 1, 9, 4, 0}, []byte{0, 0, 7})
	for i := range nativeFixed { // cut short, a byte put in, one dropped
		for _, m := range [][]byte{{1, 40, 0}, {1, 12, 6}, {1, 7, 11}, {1, 30, 3}} {
			f.Add([]byte{byte(i)}, append(make([]byte, 80), m...))
		}
	}
	f.Fuzz(func(t *testing.T, shape, choices []byte) {
		typ := fuzzShape(shape, nativeFixed)
		if typ == nil {
			return
		}
		args := genArgs(typ, choices)
		for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
			plan, err := b.Compile(typ)
			if err != nil {
				continue
			}
			checkProven(t, plan, args)
			if len(shape) > 1 && shape[1]&1 == 1 {
				var names []string
				for _, p := range plan.Params() {
					names = append(names, p.Name)
				}
				checkProven(t, plan.WithRequired(names, nestedRequired), args)
			}
		}
	})
}

// TestNative_RepeatBesideSelfDecoding: under segmentio, a key sent again
// in a call that also holds values of types that decode themselves is the
// pass's to decide, failing or not, where the field sent again is of a
// type segmentio reads into what the value before left as into a fresh
// one (a time.Time too, which its method overwrites whole); the verdict
// is the trial check's.
func TestNative_RepeatBesideSelfDecoding(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[selfArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"i":1,"i":2,"t":"2024-01-02T03:04:05Z","c":"red"}`,
		`{"f":1,"s":"a","s":"b"}`,
		`{"c":"teal","i":1,"i":"x"}`,
		`{"t":"2024-01-02T03:04:05Z","t":"2025-01-02T03:04:05Z"}`,
		`{"t":"2024-01-02T03:04:05Z","t":"not a time"}`,
		`{"mc":{"a":"red"},"mc":{"b":"teal"},"ly":[{}]}`,
	} {
		decidedProven(t, plan, []byte(args))
	}
}

// FuzzCheck_PlainMembersSameVerdict: over FuzzNativeValues's shapes and
// calls, on every binder, the verdicts with plainMembers (Check's, the
// proving pass's and, for a call the binder reads, the clean mode's, with
// their members) are those of object's loop alone.
func FuzzCheck_PlainMembersSameVerdict(f *testing.F) {
	f.Add([]byte{0}, []byte{})
	f.Add([]byte{1}, []byte{0, 0, 0, 5, 0, 0, 1})
	f.Add([]byte{1, 18, 2, 0, 8, 1, 8}, []byte{})
	f.Add([]byte{70, 2, 2, 200, 3, 1, 9, 4, 0}, []byte{0, 0, 7})
	for i := range nativeFixed {
		f.Add([]byte{byte(i)}, append(make([]byte, 80), 1, 40, 0))
	}
	type verdict struct {
		check, native, clean []bind.Issue
		nms, cms             bindcap.Members
		nok, cok             bool
	}
	read := func(p *bind.Plan, args []byte) (v verdict) {
		v.check = p.Check(args, nil)
		v.native, v.nms, v.nok = bind.NativeVerdict(p, args)
		if p.Binder().Unmarshal(args, reflect.New(p.Type()).Interface()) == nil {
			v.clean, v.cms, v.cok = bind.CleanVerdict(p, args) // the clean mode reads only a call the binder reads
		}
		return v
	}
	f.Fuzz(func(t *testing.T, shape, choices []byte) {
		forEachPlan(shape, choices, func(b bind.Binder, plan *bind.Plan, args []byte) {
			fast := read(plan, args)
			var slow verdict
			bind.WithoutPlainMembers(func() { slow = read(plan, args) })
			if !reflect.DeepEqual(fast, slow) {
				t.Fatalf("%s %v %.300q:\n%+v\nwithout plainMembers\n%+v", b.Name(), plan.Type(), args, fast, slow)
			}
		})
	})
}

// forEachPlan calls f with every binder's plan of the type fuzzShape makes
// of shape (none where it makes none) and the call genArgs writes for it
// from choices; a binder that does not compile the type is left out.
func forEachPlan(shape, choices []byte, f func(b bind.Binder, plan *bind.Plan, args []byte)) {
	typ := fuzzShape(shape, nativeFixed)
	if typ == nil {
		return
	}
	args := genArgs(typ, choices)
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		if plan, err := b.Compile(typ); err == nil {
			f(b, plan, args)
		}
	}
}
