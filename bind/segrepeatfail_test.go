package bind_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segRepeatFailRows are calls segmentio fails on in the value of a map's
// key sent again, or read alike by the key type's UnmarshalText, after an
// earlier value of that key it read. segmentio's error names the key by
// the Go key (decodeMap: fmt.Sprint of it), which both members match; the
// failure is the later value's; so too where a key holds a dot, and the
// path names the key before it as well. alone is the call with the earlier member
// left out, and offending the failing value's text in both. A key of no
// text last in the path (as textValKey reads every key) drops out of
// segmentio's path: the failure is below it all the same.
var segRepeatFailRows = []struct {
	typ         reflect.Type
	args, alone string
	offending   string
}{
	{reflect.TypeFor[trialArgs](), `{"m":{"k":1,"k":"x"}}`, `{"m":{"k":"x"}}`, `"x"`},
	{reflect.TypeFor[trialArgs](), `{"m":{"k":1,"j":2,"k":[1]}}`, `{"m":{"j":2,"k":[1]}}`, `[1]`},
	{reflect.TypeFor[trialArgs](), `{"m":{"k":"x","k":1}}`, `{"m":{"k":"x","k":1}}`, `"x"`},
	{reflect.TypeFor[trialArgs](), `{"a":{"k":1,"k":{"z":1e999}}}`, `{"a":{"k":{"z":1e999}}}`, `1e999`},
	{reflect.TypeFor[trialArgs](), `{"a":{"k":{"z":1},"k":{"z":1e999}}}`, `{"a":{"k":{"z":1e999}}}`, `1e999`},
	// A key holding a dot: segmentio's dotted path names both it and the
	// key before its first dot.
	{reflect.TypeFor[trialArgs](), `{"a":{"k":[1],"k.0":1e999}}`, `{"a":{"k.0":1e999}}`, `1e999`},
	{reflect.TypeFor[trialArgs](), `{"m":{"a":1,"a.b":"x"}}`, `{"m":{"a.b":"x"}}`, `"x"`},
	{reflect.TypeFor[trialArgs](), `{"a":{"k":{"0":1},"k.0":{"z":1e999}}}`, `{"a":{"k.0":{"z":1e999}}}`, `1e999`},
	// An empty key last in the path: segmentio's path drops it.
	{reflect.TypeFor[trialArgs](), `{"m":{"":"x"}}`, `{"m":{"":"x"}}`, `"x"`},
	{reflect.TypeFor[trialArgs](), `{"m":{"":1,"":"x"}}`, `{"m":{"":"x"}}`, `"x"`},
	{reflect.TypeFor[trialArgs](), `{"a":{"":{"":1e999}}}`, `{"a":{"":{"":1e999}}}`, `1e999`},
	{reflect.TypeFor[trialArgs](), `{"a":{"x":{"":1e999}}}`, `{"a":{"x":{"":1e999}}}`, `1e999`},
	{reflect.TypeFor[trialArgs](), `{"a":{"":[1],"":[1e999]}}`, `{"a":{"":[1e999]}}`, `1e999`},
	{reflect.TypeFor[selfArgs](), `{"mv":{"a":1,"b":{}}}`, `{"mv":{"b":{}}}`, `{}`},
	// A key longer than any text the guard cuts (contain.MaxText).
	{reflect.TypeFor[selfArgs](), `{"mf":{"` + strings.Repeat("A", 600) + `":"x"}}`, `{"mf":{"` + strings.Repeat("A", 600) + `":"x"}}`, `"x"`},
	{reflect.TypeFor[trialArgs](), `{"m":{"` + strings.Repeat("k", 600) + `":"x"}}`, `{"m":{"` + strings.Repeat("k", 600) + `":"x"}}`, `"x"`},
	{reflect.TypeFor[selfArgs](), `{"mf":{"a":1,"A":"x"}}`, `{"mf":{"A":"x"}}`, `"x"`},
	{reflect.TypeFor[selfArgs](), `{"mf":{"a":1,"b":2,"A":[]}}`, `{"mf":{"b":2,"A":[]}}`, `[]`},
	{reflect.TypeFor[selfArgs](), `{"mi":{"a":1,"b":1.5}}`, `{"mi":{"b":1.5}}`, `1.5`},
	{reflect.TypeFor[selfArgs](), `{"ms":{"a":1,"a":"x"}}`, `{"ms":{"a":"x"}}`, `"x"`},
	// A struct of a field whose name holds a dot: a key binds a field
	// only by its whole name, and a key of no field's name is dropped,
	// so neither is where segmentio failed (the check named the first
	// member the path's tokens spell: 1 "too large", or the value of a
	// dropped "a").
	{reflect.TypeFor[nmArgs](), `{"span":{"a.b":1,"a.b":"x"}}`, `{"span":{"a.b":"x"}}`, `"x"`},
	{reflect.TypeFor[nmArgs](), `{"span":{"from":1,"from":"x"}}`, `{"span":{"from":"x"}}`, `"x"`},
	{reflect.TypeFor[nmArgs](), `{"span":{"from":128,"from":1.5}}`, `{"span":{"from":1.5}}`, `1.5`},
	{reflect.TypeFor[nmArgs](), `{"span":{"a":{"b":1},"a.b":"x"}}`, `{"span":{"a.b":"x"}}`, `"x"`},
	{reflect.TypeFor[nmArgs](), `{"span":{"a":1,"a.b":"x"}}`, `{"span":{"a.b":"x"}}`, `"x"`},
	{reflect.TypeFor[nmArgs](), `{"by_key":{"k":{"a.b":2,"a":[1],"a.b":[2]}}}`, `{"by_key":{"k":{"a.b":[2]}}}`, `[2]`},
	{reflect.TypeFor[nmArgs](), `{"spans":[{"a.b":{},"a.b":1}]}`, `{"spans":[{"a.b":{}}]}`, `{}`},
	// Field "a" decodes itself (segmentio decodes it sent again into what
	// the value before left): sent once, it fails as alone.
	{reflect.TypeFor[nmOddArgs](), `{"o":{"a":1,"a.b":"x"}}`, `{"o":{"a.b":"x"}}`, `"x"`},
	{reflect.TypeFor[nmOddArgs](), `{"o":{"a.b":2,"a":{},"a.b":"x"}}`, `{"o":{"a.b":"x"}}`, `"x"`},
}

// nmOdd is a struct of a field whose name holds a dot beside one whose
// type decodes itself, of the name the dot cuts the first's at.
type nmOdd struct {
	A  selfTyped `json:"a"`
	AB int       `json:"a.b"`
}

type nmOddArgs struct {
	O nmOdd `json:"o"`
}

// TestSegmentio_DottedFieldNames: the one pass decides a call that fails
// below a key of a struct's object that holds a dot (a field's name) or an
// escape, as the trial check tells the members segmentio's dotted path
// names apart (it declined them all); one that sends again a field of a
// type that decodes itself it declines.
func TestSegmentio_DottedFieldNames(t *testing.T) {
	for _, tc := range []struct {
		typ     reflect.Type
		args    string
		decides bool
	}{
		{reflect.TypeFor[nmArgs](), `{"span":{"a.b":"x"}}`, true},
		{reflect.TypeFor[nmArgs](), `{"spans":[{"from":1},{"a.b":1.5}]}`, true},
		{reflect.TypeFor[nmArgs](), `{"by_key":{"k":{"a.b":[1]}}}`, true},
		{reflect.TypeFor[nmArgs](), `{"span":{"a\u002eb":"x"}}`, true},
		{reflect.TypeFor[nmArgs](), `{"span":{"\u0066rom":"x"}}`, true},
		{reflect.TypeFor[nmArgs](), `{"span":{"a":{"b":1},"a.b":"x"}}`, true},
		{reflect.TypeFor[nmOddArgs](), `{"o":{"a":1,"a.b":"x"}}`, true},
		{reflect.TypeFor[nmOddArgs](), `{"o":{"a":1,"a":2,"a.b":"x"}}`, false},
	} {
		plan, err := segmentio.Binder.Compile(tc.typ)
		if err != nil {
			t.Fatal(err)
		}
		checkProven(t, plan, []byte(tc.args))
		if _, _, ok := bind.NativeVerdict(plan, []byte(tc.args)); ok != tc.decides {
			t.Errorf("%s: the pass decides it: %v, want %v", tc.args, ok, tc.decides)
		}
	}
}

// TestSegmentio_FailureAfterRepeatedKey: the check, and the trial check
// alone, place each row's failure at the later value, of the kind and
// type it has alone, and where the one pass decides the row, its verdict
// is the trial check's.
func TestSegmentio_FailureAfterRepeatedKey(t *testing.T) {
	for _, row := range segRepeatFailRows {
		plan, err := segmentio.Binder.Compile(row.typ)
		if err != nil {
			t.Fatal(err)
		}
		checkProven(t, plan, []byte(row.args)) // the pass, where it decides, says so too
		want := failureOf(t, plan, row.alone, plan.Check)
		for _, check := range []func([]byte, []bind.Issue) []bind.Issue{plan.Check, trialCheckOf(plan)} {
			got := failureOf(t, plan, row.args, check)
			if got.Kind != want.Kind || got.Type != want.Type || row.args[got.Start:got.End] != row.offending || row.alone[want.Start:want.End] != row.offending {
				t.Errorf("%s: the check says %s at %q, alone %s at %q; want it at %q", row.args,
					got.Kind, row.args[got.Start:got.End], want.Kind, row.alone[want.Start:want.End], row.offending)
			}
		}
	}
}

// trialCheckOf is plan's trial check alone, as plan.Check is called.
func trialCheckOf(plan *bind.Plan) func([]byte, []bind.Issue) []bind.Issue {
	return func(args []byte, issues []bind.Issue) []bind.Issue { return bind.TrialCheck(plan, args, issues) }
}

// failureOf is the one binder failure check (plan's) lists for args,
// which the binder fails on.
func failureOf(t *testing.T, plan *bind.Plan, args string, check func([]byte, []bind.Issue) []bind.Issue) bind.Issue {
	t.Helper()
	if err := plan.Binder().Unmarshal([]byte(args), reflect.New(plan.Type()).Interface()); err == nil {
		t.Fatalf("%s: the binder reads it", args)
	}
	var fails []bind.Issue
	for _, is := range check([]byte(args), nil) {
		if is.Kind.Class() == bind.BinderFailure {
			fails = append(fails, is)
		}
	}
	if len(fails) != 1 {
		t.Fatalf("%s: the check lists %s, want one failure", args, brief(fails))
	}
	return fails[0]
}

type repeatLeaf struct {
	V int   `json:"v"`
	P *int8 `json:"p"`
	Q int   `json:"q,string"`
	B bool  `json:"b"`
	S []int `json:"s"`
	W struct {
		X int            `json:"x"`
		M map[string]int `json:"m"`
	} `json:"w"`
}

type repeatArgs struct {
	E int        `json:"e"`
	N repeatLeaf `json:"n"`
}

// segStructRepeatRows are calls (a key sent again in a call segmentio
// fails on: "e") whose argument n fails in a field of a struct sent more
// than once. segmentio decodes the field's values in turn and stops at
// the first that fails, which the check names (the trial check named the
// first value the key had, with the kind read from that value's text:
// 128, "too large", where segmentio failed on 1.0). The one pass decides
// each (it declined a call that fails with a key sent again).
var segStructRepeatRows = []struct {
	n, alone, offending string
}{
	{`{"v":128,"v":1.0}`, `{"v":1.0}`, `1.0`},
	{`{"v":1.0,"v":128}`, `{"v":1.0}`, `1.0`},
	{`{"v":1,"v":"x","v":2.5}`, `{"v":"x"}`, `"x"`},
	{`{"p":1,"p":null,"p":300}`, `{"p":300}`, `300`},
	// segmentio's error for a ,string field names no path: the argument.
	{`{"q":"1","q":"x"}`, `{"q":"x"}`, `{"q":"1","q":"x"}`},
	{`{"b":true,"v":2,"b":1}`, `{"b":1}`, `1`},
	// Lists, structs and maps read element by element, field by field:
	// where segmentio fails in a value sent again does not depend on what
	// the value before left.
	{`{"s":[1],"s":["x"]}`, `{"s":["x"]}`, `"x"`},
	{`{"s":[1,2,3],"s":[4,"x"]}`, `{"s":[4,"x"]}`, `"x"`},
	{`{"w":{"x":1},"w":{"x":"y"}}`, `{"w":{"x":"y"}}`, `"y"`},
	{`{"w":{"m":{"a":1}},"w":{"x":2,"m":{"a":"z"}}}`, `{"w":{"m":{"a":"z"}}}`, `"z"`},
	// A key holding a dot binds no field: segmentio drops it.
	{`{"s":[1],"s.0":"x","s":["y"]}`, `{"s":["y"]}`, `"y"`},
}

// TestSegmentio_StructFieldSentAgain: the one pass decides each row, as
// the trial check does, and both place the failure of each row's n at
// the value segmentio failed on, of the kind that value has alone, and
// segmentio's own error quotes that value (where it names one).
func TestSegmentio_StructFieldSentAgain(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[repeatArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range segStructRepeatRows {
		args := `{"e":"x","e":1,"n":` + row.n + `}`
		issues, ok := decidedProven(t, plan, []byte(args)) // the pass's verdict is the trial check's
		if !ok {
			continue
		}
		var got *bind.Issue
		for i, is := range issues {
			if is.Param == 1 && is.Kind.Class() == bind.BinderFailure {
				got = &issues[i]
			}
		}
		want := failureOf(t, plan, `{"n":`+row.alone+`}`, plan.Check)
		switch {
		case got == nil:
			t.Errorf("%s: no failure in n: %v", args, issues)
		case args[got.Start:got.End] != row.offending || got.Kind != want.Kind:
			t.Errorf("%s: the check says %s at %q; want %s at %q", args, got.Kind, args[got.Start:got.End], want.Kind, row.offending)
		}
		serr := segmentio.Binder.Unmarshal([]byte(`{"n":`+row.n+`}`), new(repeatArgs))
		if serr == nil {
			t.Errorf("%s: segmentio reads it", row.n)
		} else if msg := serr.Error(); row.offending != row.n && !strings.Contains(msg, " "+row.offending+" ") && !strings.Contains(msg, `"`+strings.ReplaceAll(row.offending, `"`, `\"`)) {
			t.Errorf("%s: segmentio says %v, which does not quote %s", row.n, serr, row.offending)
		}
	}
}
