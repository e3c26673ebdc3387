package bind_test

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segRepeatLosses are calls of trialArgs that segmentio reads, each with
// a key sent again whose last value holds losses of its own: the trial
// check lists the key's DuplicateKey before them, and so does the pass
// (keyLossesFirst). segmentio decodes a repeated key's value into what the one
// before it left (a struct's fields, a map's keys, a slice's and a fixed
// array's elements), and the losses are those of the value as read.
var segRepeatLosses = []string{
	`{"sl":["x"],"sl":[null]}`,
	`{"sl":["a","b"],"sl":[null,"\ud800"]}`,
	`{"m":{"a":1},"m":{"b":9007199254740993}}`,
	`{"m":{"a":1},"m":{"a":null,"b":2}}`,
	`{"n":{"x":1},"n":{"x":null}}`,
	`{"n":{"x":1,"z":[1]},"n":{"z":[null],"y":"\ud800"}}`,
	`{"np":{"x":1},"np":{"x":null}}`,
	`{"arr":[1,2],"arr":[null,2]}`,
	`{"f32":1,"f32":16777217,"f":1}`,
	`{"a":{"k":1},"a":{"k":[null,9007199254740993]}}`,
	`{"a":{"k":[1],"k":[9007199254740993]}}`,
	`{"a":{"k":{"q":1},"k":{"q":"\ud800"}},"i":1}`,
	`{"ns":[{"x":1,"x":null}],"ns":[{"y":"\ud800","y":null}]}`,
	`{"i":1,"sl":["x"],"i":2,"sl":[null]}`,
}

// TestSegRepeatLosses: the pass decides each row, as the trial check
// does (checkProven), listing a DuplicateKey first.
func TestSegRepeatLosses(t *testing.T) {
	plan, err := segmentio.Binder.Compile(nativeFixed[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range segRepeatLosses {
		issues, ok := decidedProven(t, plan, []byte(args))
		if ok && (len(issues) < 2 || issues[0].Kind != bind.DuplicateKey) {
			t.Errorf("%s: %s, want a duplicate_key first and a loss", args, brief(issues))
		}
	}
}

// TestKeyLossesPastMaxIssues: a key whose loss the trial check lists
// before its value's, in a call whose issues pass MaxIssues: the pass
// lists the key's loss first too (keyLossesFirst), so the tally lists
// and counts what the trial check's does, and it decides the call; it
// declined every row before, as the order past the cap was its own.
func TestKeyLossesPastMaxIssues(t *testing.T) {
	nulls := strings.TrimSuffix(strings.Repeat("null,", bind.MaxIssues+50), ",")
	rounded := strings.TrimSuffix(strings.Repeat("9007199254740993,", bind.MaxIssues+50), ",") // an any's float64 rounds each
	floods := []struct {
		binder bind.Binder
		args   string
	}{
		// A repeated key (segmentio), at the top level and inside values.
		{segmentio.Binder, `{"sl":[` + nulls + `],"sl":[` + nulls + `]}`},
		{segmentio.Binder, `{"sl":[` + nulls + `],"i":1,"sl":[null],"i":2}`},
		{segmentio.Binder, `{"m":{"a":1},"ns":[{"z":[` + nulls + `]}],"m":{"a":null}}`},
		{segmentio.Binder, `{"n":{"z":[` + nulls + `],"z":[` + nulls + `]}}`},
		{segmentio.Binder, `{"a":{"k":[` + rounded + `],"k":[null,9007199254740993]}}`},
		// Text replaced in a key (segmentio), then a repeat of it.
		{segmentio.Binder, `{"sl":[` + nulls + `],"m":{"\ud800":null,"\ud800":null}}`},
		{segmentio.Binder, `{"a":{"k":[` + rounded + `],"\ud800":[1],"\ud800":[9007199254740993]}}`},
		// A key bound by V2's fold.
		{jsonv2.Binder, `{"sl":[` + nulls + `],"ns":[{"Hours_Back":null}]}`},
		{jsonv2.Binder, `{"ns":[{"z":[` + nulls + `]},{"Hours_Back":null}]}`},
	}
	for _, f := range floods {
		plan, err := f.binder.Compile(nativeFixed[1])
		if err != nil {
			t.Fatal(err)
		}
		decidedProven(t, plan, []byte(f.args))
	}
}

// segStaleRepeats send again, under segmentio, a field whose value the
// binder reads into what the one before left, where it may fail otherwise
// than alone (a named empty interface holding a value; a type of its own
// methods): clean calls, with losses or none, and calls segmentio fails on.
var segStaleRepeats = []struct {
	typ   reflect.Type
	args  string
	read  bool // segmentio reads it: the pass decides it
	clean bool // segmentio reads it, the pass declines it: the clean mode decides it
}{
	{reflect.TypeFor[namedAnyArgs](), `{"nn":null,"nn":null}`, true, false},
	{reflect.TypeFor[namedAnyArgs](), `{"nn":null,"nn":9007199254740993}`, true, false},
	{reflect.TypeFor[namedAnyArgs](), `{"sn":{"v":null,"v":[1,9007199254740993]}}`, true, false},
	{reflect.TypeFor[namedAnyArgs](), `{"nn":1,"aa":null,"nn":2}`, false, false},
	{reflect.TypeFor[namedAnyArgs](), `{"sn":{"v":{"a":1},"v":{"a":null}}}`, false, false},
	{reflect.TypeFor[selfArgs](), `{"f":"1","f":2}`, true, false},
	{reflect.TypeFor[selfArgs](), `{"f":"1","i":null,"f":2}`, true, false},
	{reflect.TypeFor[selfArgs](), `{"c":"teal","s":"\ud800","c":"amber"}`, true, false},
	{reflect.TypeFor[selfArgs](), `{"c":"teal","c":"red"}`, false, false},
	{reflect.TypeFor[selfArgs](), `{"f":"1","f":true}`, false, false},
	// segmentio reads "2" after "1": the call is read (decided by the clean
	// mode, whose verdict reads the values' text, not each alone).
	{reflect.TypeFor[staleArgs](), `{"c":1,"f":16777217,"c":2}`, false, true},
	{reflect.TypeFor[staleArgs](), `{"c":2}`, false, false},
}

// staleCount reads a whole number, but 2 only after 1: decoded alone "2"
// fails, and after "1" it reads (a method whose verdict depends on what
// the value held before, as segmentio's repeat of a field hands it).
type staleCount int

func (s *staleCount) UnmarshalJSON(b []byte) error {
	n, err := strconv.Atoi(string(b))
	if err != nil || n == 2 && *s != 1 {
		return errors.New("staleCount: 2 comes after 1")
	}
	*s = staleCount(n)
	return nil
}

type staleArgs struct {
	C staleCount `json:"c"`
	F float32    `json:"f"`
}

// TestSegStaleRepeats: the pass decides a call that sends such a field
// again where segmentio reads it (it declined every one before), and
// leaves one segmentio fails on to the trial check; either way Check's
// verdict is the trial check's.
func TestSegStaleRepeats(t *testing.T) {
	for _, r := range segStaleRepeats {
		plan, err := segmentio.Binder.Compile(r.typ)
		if err != nil {
			t.Fatal(err)
		}
		if r.read {
			decidedProven(t, plan, []byte(r.args))
			continue
		}
		checkProven(t, plan, []byte(r.args))
		if r.clean {
			if _, _, ok := bind.CleanVerdict(plan, []byte(r.args)); !ok {
				t.Errorf("%s: the clean mode declines it", r.args)
			}
			continue
		}
		if err := plan.Binder().Unmarshal([]byte(r.args), reflect.New(r.typ).Interface()); err == nil {
			t.Errorf("%s: segmentio reads it; the row says it fails", r.args)
		}
	}
}

// onceOnly reads a whole number into a zero value only: alone it reads
// any, and sent again under segmentio (decoded into what the value
// before left) it fails.
type onceOnly int

func (o *onceOnly) UnmarshalJSON(b []byte) error {
	n, err := strconv.Atoi(string(b))
	if err != nil || *o != 0 {
		return errors.New("onceOnly: read once")
	}
	*o = onceOnly(n)
	return nil
}

type onceArgs struct {
	O onceOnly `json:"o"`
	F float32  `json:"f"`
}

// TestSegStaleRepeats_DecodedOnce: a call that sends such a field again,
// each value of which reads alone, and which segmentio fails on: the pass
// finds no failure and asks the binder (checker.reads), then declines;
// the check after it takes that decode's error, and the whole call is
// decoded once, not twice (before: 2 for each row). The verdict stays
// the trial check's.
func TestSegStaleRepeats_DecodedOnce(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[onceArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"o":1,"o":2}`, `{"o":1,"f":1,"o":1}`, `{"f":16777217,"o":3,"o":4,"f":2}`} {
		if err := plan.Binder().Unmarshal([]byte(args), new(onceArgs)); err == nil {
			t.Fatalf("%s: segmentio reads it; the test wants a call it fails on", args)
		}
		checkProven(t, plan, []byte(args))
		n0 := bind.WholeDecodes()
		plan.Check([]byte(args), nil)
		if n := bind.WholeDecodes() - n0; n != 1 {
			t.Errorf("%s: Check decoded the whole call %d times, want 1", args, n)
		}
	}
}
