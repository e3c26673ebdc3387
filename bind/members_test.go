package bind

import (
	"encoding/json"
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
	for _, b := range []Binder{Std, V2, SegmentIO, Reader("lenient", leniently)} {
		plan, err := b.Compile(reflect.TypeFor[membersArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, call := range membersCalls {
			args := []byte(call)
			issues, ms := checkMembers(plan, args, nil)
			if want := plan.Check(args, nil); !reflect.DeepEqual(issues, want) {
				t.Errorf("%s %.80s: issues %v, Check's %v", b.Name(), call, issues, want)
			}
			i := jsonlex.Space(args, 0)
			object := i < len(args) && args[i] == '{' && jsonlex.Valid(args, MaxDepth)
			if b == Std && ms.Object != object {
				t.Errorf("%s %.80s: Object %v, want %v", b.Name(), call, ms.Object, object)
			}
			if !ms.Object || !object {
				continue // (a Reader reads any depth; jsonlex, encoding/json's)
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
				t.Errorf("%s %.80s:\nmembers %+v\nwant    %+v", b.Name(), call, got, want)
			}
		}
	}
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

// TestCheckMembers_ManyKeysAllocateAsOne: a call of 1k, 10k and 100k
// top-level keys records every member, in at most nine allocations past
// Check's own (for a trial plan, one more: the Members it fills), with bytes in proportion to the call; on every binder.
func TestCheckMembers_ManyKeysAllocateAsOne(t *testing.T) {
	shapes := map[string]func(i int) string{
		"unknown keys":   func(i int) string { return `"u` + strconv.Itoa(i) + `":1` },
		"a repeated key": func(int) string { return `"hours":1` },
		"short then long": func(i int) string {
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
		trial := 3.5 // the Members a trial plan fills, and the binder's own pools
		if b == Std {
			trial = 0
		}
		for name, f := range shapes {
			var base uint64
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
				if ms.Len() != n || !ms.Object {
					t.Fatalf("%s %s %d: %d members, object %v", b.Name(), name, n, ms.Len(), ms.Object)
				}
				ca := testing.AllocsPerRun(2, func() { plan.Check(args, nil) })
				ma := testing.AllocsPerRun(2, func() { checkMembers(plan, args, nil) })
				_, mb := allocs(func() { checkMembers(plan, args, nil) })
				if extra := 9.0; ma > ca+extra+trial {
					t.Errorf("%s %s, %d keys: %v allocations, Check alone %v", b.Name(), name, n, ma, ca)
				}
				if base == 0 {
					base = mb / uint64(len(args))
				}
				if per := mb / uint64(len(args)); per > 2*base+64 {
					t.Errorf("%s %s, %d keys: %d bytes allocated a byte of input; %d at 1k", b.Name(), name, n, per, base)
				}
			}
		}
	}
}

func allocs(f func()) (n, bytes uint64) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.Mallocs - before.Mallocs, after.TotalAlloc - before.TotalAlloc
}
