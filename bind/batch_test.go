package bind_test

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/probe"
)

// batchArgs holds lists of values that decode themselves, every way the
// guard meets them: V2's and segmentio's time.Time, an UnmarshalJSON, an
// UnmarshalText, a method that fails with the binder's own error type,
// lists of lists, lists in a map, lists of pointers, maps of string keys
// (of values and of pointers to pointers), and a map of integer keys
// (read value by value, never whole).
type batchArgs struct {
	T  []time.Time              `json:"t"`
	F  []probe.Flex             `json:"f"`
	C  []probe.Color            `json:"c"`
	Y  []selfTyped              `json:"y"`
	TT [][]time.Time            `json:"tt"`
	M  map[string][]probe.Color `json:"m"`
	P  []*time.Time             `json:"p"`
	MT map[string]time.Time     `json:"mt"`
	MP map[string]**probe.Flex  `json:"mp"`
	MK map[int]probe.Flex       `json:"mk"`
	I  int                      `json:"i"`
}

// batchBinders are the binders whose plans read lists of self-decoding
// values.
var batchBinders = []bind.Binder{bind.Std, segmentio.Binder, jsonv2.Binder}

// batchCalls are calls whose lists hold values the binder reads, fails on,
// or reads null into, first, last, alone or among others.
var batchCalls = []string{
	`{"t":["2026-01-02T03:04:05Z","2026-02-03T04:05:06Z"]}`,
	`{"t":["2026-01-02T03:04:05Z","yesterday","2026-02-03T04:05:06Z"]}`,
	`{"t":[null,"2026-01-02T03:04:05Z",null]}`,
	`{"t":[1,"2026-01-02T03:04:05Z"]}`,
	`{"t":[]}`,
	`{"f":[1,"12",3.5,"x",null,true,[1]],"i":"x"}`,
	`{"f":[1,"12",3]}`,
	`{"c":["teal","amber"],"y":[{},1,"x"]}`,
	`{"c":["teal","mauve","amber",1,null]}`,
	`{"y":[{},[1],2]}`,
	`{"tt":[["2026-01-02T03:04:05Z"],["nope"],[]],"m":{"a":["teal"],"b":["red"]}}`,
	`{"tt":[["2026-01-02T03:04:05Z",null]],"m":{"a":["teal","crimson"]}}`,
	`{"p":["2026-01-02T03:04:05Z",null,"x"]}`,
	`{"p":["2026-01-02T03:04:05Z",null,"2026-01-02T03:04:05+01:00"]}`,
	`{"mt":{"a":"2026-01-02T03:04:05Z","b":null,"c":"2026-01-03T03:04:05Z"}}`,
	`{"mt":{"a":"2026-01-02T03:04:05Z","b":"nope","a":"x"}}`,
	`{"mt":{"a":"2026-01-02T03:04:05Z","a":"2026-01-02T03:04:06Z"}}`,
	`{"mp":{"a":1,"b":null,"c":"12"},"mk":{"1":1,"x":2}}`,
	`{"mp":{"a":1,"b":"x"},"mk":{"01":"1","1":"x"}}`,
	`{"mp":{"\u0061":1,"a":[]}}`,
	`{"t":["2026-01-02T03:04:05Z"],"t":["x"]}`,
	`{"c":["teal"],"c":["amber","x"]}`,
	`{"t":["2026-01-02T03:04:05Z",}`,
	`{"t":["2026-01-02T03:04:05Z"` + strings.Repeat(`,[`, 20) + `]}`,
}

// TestSelfDecodingLists_WholeAsEachAlone: a list of self-decoding values
// the binder reads whole gives the verdict its elements decoded one by one
// give (the pass decodes the list once, then no element again), issue for
// issue; and that verdict is the binder's (the real decoder), for every
// binder.
func TestSelfDecodingLists_WholeAsEachAlone(t *testing.T) {
	for _, b := range batchBinders {
		plan, err := b.Compile(reflect.TypeFor[batchArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range batchCalls {
			checkBatch(t, plan, []byte(call))
		}
	}
}

// checkBatch holds plan's verdict on args to each element decoded alone's,
// and to the binder's.
func checkBatch(t *testing.T, plan *bind.Plan, args []byte) {
	t.Helper()
	got, alone := plan.Check(args, nil), bind.CheckEachAlone(plan, args)
	if !sameIssues(got, alone) {
		t.Fatalf("%s %.200q: lists whole say %s, each element alone %s", plan.Binder().Name(), args, brief(got), brief(alone))
	}
	if plan.Binder() == bind.Std {
		checkAgainstStd(t, plan, args)
	} else {
		checkProven(t, plan, args)
	}
}

// FuzzSelfDecodingLists_WholeAsEachAlone is the test above on calls the
// fuzzer writes.
func FuzzSelfDecodingLists_WholeAsEachAlone(f *testing.F) {
	for _, call := range batchCalls {
		f.Add([]byte(call))
	}
	plans := map[bind.Binder]*bind.Plan{}
	for _, b := range batchBinders {
		plan, err := b.Compile(reflect.TypeFor[batchArgs]())
		if err != nil {
			f.Fatal(err)
		}
		plans[b] = plan
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		if len(args) > 4096 {
			return
		}
		for _, b := range batchBinders {
			checkBatch(t, plans[b], args)
		}
	})
}

// TestSelfDecodingLists_AllocateAsOne: a list of 10, 1,000 and 100,000
// values that decode themselves (time.Time, an UnmarshalJSON, an
// UnmarshalText; behind pointers; and a map of time.Time) costs each
// binder's pass, beyond what the binder's own
// decode of the call allocates (the methods' own allocations, each
// time.Time's), about as many allocations as a list of ten: the list is
// decoded once, growing its wrapper's slice (a few allocations each time
// it doubles). It allocated 5 times an element more than the binder
// under encoding/json, once under segmentio and twice under V2 (its
// method-taming functions converting each time.Time to an interface).
// V2's lists of a type with methods of its own are left out: each value
// V2 hands a method goes through a taming function (see
// contain.V2Unmarshal), which costs an allocation or two a value.
func TestSelfDecodingLists_AllocateAsOne(t *testing.T) {
	// Each element other than the one before it: a proving pass decodes a
	// value the same as the last once (selfMemo).
	elems := map[string]func(i int) string{
		"t":  func(i int) string { return fmt.Sprintf(`"2026-01-%02dT03:04:05Z"`, 1+i%28) },
		"f":  func(i int) string { return `"` + strconv.Itoa(i) + `"` },
		"c":  func(i int) string { return [...]string{`"teal"`, `"amber"`, `"crimson"`}[i%3] },
		"p":  func(i int) string { return fmt.Sprintf(`"2026-02-%02dT03:04:05Z"`, 1+i%28) },
		"mt": func(i int) string { return fmt.Sprintf(`"k%d":"2026-03-%02dT03:04:05Z"`, i, 1+i%28) },
	}
	for _, b := range batchBinders {
		plan, err := b.Compile(reflect.TypeFor[batchArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for key, el := range elems {
			if b == jsonv2.Binder && key != "t" {
				continue
			}
			var extra []float64
			for _, n := range []int{10, 1000, 100000} {
				list := make([]string, n)
				for i := range list {
					list[i] = el(i)
				}
				args := []byte(`{"` + key + `":[` + strings.Join(list, ",") + `]}`)
				if key[0] == 'm' {
					args = []byte(`{"` + key + `":{` + strings.Join(list, ",") + `}}`)
				}
				if got := plan.Check(args, nil); len(got) > 0 {
					t.Fatalf("%s %s: %s", b.Name(), key, brief(got))
				}
				guard := testing.AllocsPerRun(3, func() { plan.Check(args, nil) })
				own := testing.AllocsPerRun(3, func() { b.Unmarshal(args, new(batchArgs)) })
				extra = append(extra, guard-own)
			}
			if extra[2] > extra[0]+40 {
				t.Errorf("%s, a list of %s: %v allocations more than the binder's at 10, 1,000 and 100,000 elements, want about as many", b.Name(), key, extra)
			}
		}
	}
}

// nullPair is a list element of two fields that decode themselves, null
// each read into in turn.
type nullPair struct {
	A time.Time  `json:"a"`
	B probe.Flex `json:"b"`
}

// TestSelfDecodingNulls_DecodedOnce: null sent for positions of types that
// decode themselves, thousands of times, costs the pass as many
// allocations at 20 times as many (past MaxIssues, where the issues are
// only counted): what null leaves is decoded once for each position
// (nullRead), not once for each null. Under encoding/json it was decoded
// for each (five allocations each time).
func TestSelfDecodingNulls_DecodedOnce(t *testing.T) {
	plan, err := bind.Std.Compile(reflect.TypeFor[struct {
		L []nullPair `json:"l"`
	}]())
	if err != nil {
		t.Fatal(err)
	}
	var allocs []float64
	for _, n := range []int{2 * bind.MaxIssues, 40 * bind.MaxIssues} {
		args := []byte(`{"l":[` + strings.Repeat(`{"a":null,"b":null},`, n) + `{}]}`)
		allocs = append(allocs, testing.AllocsPerRun(3, func() { plan.Check(args, nil) }))
	}
	if allocs[1] > allocs[0]+40 {
		t.Errorf("%v allocations at %d and %d objects of two nulls, want about as many", allocs, 2*bind.MaxIssues, 40*bind.MaxIssues)
	}
}

// quotedElem is a list element of a ,string integer, which segmentio reads
// by its own rules (segQuoted).
type quotedElem struct {
	Q int           `json:"q,string"`
	D time.Duration `json:"d,string"`
}

// TestSegQuotedLists_AllocateAsOne: a list of 10, 1,000 and 100,000
// objects of ,string fields costs segmentio's pass as many allocations:
// each value's text is unquoted on the stack. It was moved to the heap
// (128 bytes a value: time.ParseDuration, on one path, kept its text).
func TestSegQuotedLists_AllocateAsOne(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[struct {
		L []quotedElem `json:"l"`
	}]())
	if err != nil {
		t.Fatal(err)
	}
	var allocs []float64
	for _, n := range []int{10, 1000, 100000} {
		list := make([]string, n)
		for i := range list {
			list[i] = fmt.Sprintf(`{"q":"%d","d":"%d"}`, i, i)
		}
		args := []byte(`{"l":[` + strings.Join(list, ",") + `]}`)
		if got := plan.Check(args, nil); len(got) > 0 {
			t.Fatalf("%s", brief(got))
		}
		allocs = append(allocs, testing.AllocsPerRun(3, func() { plan.Check(args, nil) }))
	}
	if allocs[2] > allocs[0]+8 {
		t.Errorf("%v allocations at 10, 1,000 and 100,000 elements, want about as many", allocs)
	}
}
