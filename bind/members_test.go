package bind

import (
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// membersArgs has keys each binder folds or not (segmentio as go-sdk
// sets it folds none, V2 only case:ignore ones).
type membersArgs struct {
	Hours int               `json:"hours"`
	Name  string            `json:"name,omitempty"`
	Tags  map[string]string `json:"tags,omitempty"`
	Ratio float64           `json:"ratio,omitempty"`
	Any   any               `json:"any,omitempty"`
	Fold  string            `json:"Fold,omitempty,case:ignore"`
}

var membersCalls = []string{
	``, `null`, `{}`, ` { } `, `[]`, `1`, `{"hours":1}`, `{"hours":1,"name":"x","zz":[1,{"a":2}]}`,
	`{"HOURS":1}`, `{"Hours":1,"hours":2}`, `{"hours":"x"}`, `{"hours":1.5,"name":2}`,
	`{"h\u006furs":1}`, `{"\u0048ours":1}`, `{"fold":"x","FOLD":"y"}`, `{"hours":1,"hours":2}`,
	`{"tags":{"a":"b","a":"c"},"any":[1e400]}`, `{"hours":1,`, `{"hours":1}x`, `{"hours":[1,}`,
	"{\"na\xffme\":1}", `{"hours" : 1 , "name" : "a" }`, `{"ratio":9007199254740993,"zz":null}`,
	`{"any":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
	`{` + strings.Repeat(`"u":1,`, 40) + `"hours":1}`,
}

func leniently(data []byte, v any) error { return json.Unmarshal(data, v) }

// TestCheckMembers_AreTheObjectsMembers: on every binder, checkMembers
// finds Check's issues and, for an object read to its end, exactly its
// members (jsonlex's reading), each bound as Plan.Match binds its key,
// exactly when the key's text is the parameter's name.
func TestCheckMembers_AreTheObjectsMembers(t *testing.T) {
	for _, b := range membersBinders {
		plan, err := b.Compile(reflect.TypeFor[membersArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range membersCalls {
			if err := sameMembers(plan, []byte(call)); err != "" {
				t.Error(err)
			}
		}
	}
}

// FuzzCheckMembers: on any text, checkMembers finds Check's issues and, for
// an object, the members jsonlex reads, bound as Plan.Match binds them.
func FuzzCheckMembers(f *testing.F) {
	for _, call := range membersCalls {
		f.Add(call)
	}
	var plans []*Plan
	for _, b := range membersBinders {
		plan, err := b.Compile(reflect.TypeFor[membersArgs]())
		if err != nil {
			f.Fatal(err)
		}
		plans = append(plans, plan)
	}
	f.Fuzz(func(t *testing.T, call string) {
		for _, plan := range plans {
			if err := sameMembers(plan, []byte(call)); err != "" {
				t.Fatal(err)
			}
		}
	})
}

var membersBinders = []Binder{Std, V2, SegmentIO, Reader("lenient", leniently)}

// sameMembers checks plan's checkMembers on args against Check and jsonlex,
// and says how it differs, or "".
func sameMembers(plan *Plan, args []byte) string {
	name := plan.Binder().Name()
	issues, ms := checkMembers(plan, args, nil)
	if want := plan.Check(args, nil); !reflect.DeepEqual(issues, want) {
		return fmt.Sprintf("%s %.80q: issues %v, Check's %v", name, args, issues, want)
	}
	i := jsonlex.Space(args, 0)
	object := i < len(args) && args[i] == '{' && jsonlex.Valid(args, MaxDepth)
	if plan.Binder() == Std && ms.Object != object {
		return fmt.Sprintf("%s %.80q: Object %v, want %v", name, args, ms.Object, object)
	}
	if !ms.Object || !object {
		return "" // (a Reader reads any depth; jsonlex, encoding/json's)
	}
	var want []bindcap.Member
	for m := range jsonlex.Members(args, i) {
		raw := args[m.Key.Start:m.Key.End]
		w := bindcap.Member{Key: m.Key, Value: m.Value, Param: int32(plan.Match(raw))}
		if w.Param >= 0 {
			text, _ := jsonlex.Unquote(nil, raw)
			w.How = bindcap.Folded
			if string(text) == plan.Params()[w.Binds()].Name {
				w.How = bindcap.Exact
			}
		}
		want = append(want, w)
	}
	var got []bindcap.Member
	for i := range ms.Len() {
		got = append(got, *ms.At(i))
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Sprintf("%s %.80q:\nmembers %+v\nwant    %+v", name, args, got, want)
	}
	return ""
}

// TestCheckMembers_CleanCallAllocatesNothing: for Std, a clean call's
// members cost no allocation, past the fixed ones too few to matter.
func TestCheckMembers_CleanCallAllocatesNothing(t *testing.T) {
	plan, err := Std.Compile(reflect.TypeFor[membersArgs]())
	if err != nil {
		t.Fatal(err)
	}
	args := []byte(`{"hours":1,"name":"x","tags":{"a":"b"},"ratio":0.5,"any":[1,{"b":null}],"Fold":"y"}`)
	var n int
	if a := testing.AllocsPerRun(100, func() {
		_, ms := checkMembers(plan, args, nil)
		n = ms.Len()
	}); a != 0 || n != 6 {
		t.Errorf("%v allocations, %d members; want 0, 6", a, n)
	}
}

// TestCheckMembers_ManyKeysCostABoundedRecord: a call of 1k, 10k and 100k
// top-level keys records its first bindcap.MaxMembers members and says it
// was cut, on every binder; under Std, where the caller hands back the
// pooled room (the members past the first few, the issues past 64), in
// no more allocations than Check's own (six more before the room was
// pooled) and 96 KB more, whatever its size.
func TestCheckMembers_ManyKeysCostABoundedRecord(t *testing.T) {
	shapes := map[string]func(i int) string{
		"unknown keys":   func(i int) string { return `"u` + strconv.Itoa(i) + `":1` },
		"a repeated key": func(int) string { return `"hours":1` },
		"long then short": func(i int) string {
			if i < 100 {
				return `"u":[` + strings.Repeat("1,", 50) + `1]`
			}
			return `"":0`
		},
	}
	scales := []int{1000, 10000, 100000}
	if testing.Short() {
		scales = scales[:2]
	}
	for _, b := range []Binder{Std, V2, SegmentIO, Reader("lenient", leniently)} {
		plan, err := b.Compile(reflect.TypeFor[membersArgs]())
		if err != nil {
			t.Fatal(err)
		}
		// The decoders' pools (V2's, segmentio's, and encoding/json's, a
		// Reader's, under GOEXPERIMENT=jsonv2) make their allocations vary
		// from run to run, and the race detector drops pooled items at
		// random: their record is pinned by its length here, and by
		// TestMembers_AllocateBoundedly (bindcap) for its cost.
		pooled := b != Std
		for name, f := range shapes {
			for _, n := range scales {
				var sb strings.Builder
				sb.WriteByte('{')
				for i := range n {
					if i > 0 {
						sb.WriteByte(',')
					}
					sb.WriteString(f(i))
				}
				sb.WriteByte('}')
				args := []byte(sb.String())
				_, ms := checkMembers(plan, args, nil)
				if ms.Len() != min(n, bindcap.MaxMembers) || ms.Cut != (n > bindcap.MaxMembers) || !ms.Object {
					t.Fatalf("%s %s %d: %d members, cut %v, object %v", b.Name(), name, n, ms.Len(), ms.Cut, ms.Object)
				}
				if pooled {
					continue
				}
				ca := testing.AllocsPerRun(2, func() { plan.Check(args, nil) })
				ma := testing.AllocsPerRun(2, func() { handBack(checkMembers(plan, args, nil)) })
				if ma > ca {
					t.Errorf("%s %s, %d keys: %v allocations, Check alone %v", b.Name(), name, n, ma, ca)
				}
				if b != Std {
					continue // the binder's own decode allocates too much to tell
				}
				_, cb := allocs(func() { plan.Check(args, nil) })
				_, mb := allocs(func() { handBack(checkMembers(plan, args, nil)) })
				if mb > cb+96<<10 {
					t.Errorf("%s %s, %d keys: %d bytes allocated, Check alone %d", b.Name(), name, n, mb, cb)
				}
			}
		}
	}
}

// handBack hands back the pooled room a check's verdict took, as refuse
// does once its decision is made.
func handBack(issues []Issue, ms bindcap.Members) {
	releaseIssues(issues)
	ms.Release()
}

func allocs(f func()) (n, bytes uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}
