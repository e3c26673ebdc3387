package bind

import (
	"fmt"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/bindguard/bindguard/internal/bindcap"
)

type topKeysArgs struct {
	Name  string `json:"name"`
	Limit int    `json:"limit"`
}

// topCall is a call of name, limit and n top-level members made by f.
func topCall(n int, f func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(`{"name":"x","limit":1`)
	for i := range n {
		b.WriteByte(',')
		b.WriteString(f(i))
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// TestCheckConstrained_CountsTheUnknownKeys: the pass counts the
// distinct unknown top-level keys, as sent, neither exempt nor aliases
// (Members.Unknown),
// the first of them, and finds an alias among the keys, for every binder
// whose one pass reads the call; 1x, 10x and 100x the keys cost the same
// allocations, and work (bytes read, WorkDone) in proportion. Before the
// count was in the pass, V2's pass held its dropped keys in a table of
// its own that doubled as it grew: its allocations grew with the keys.
func TestCheckConstrained_CountsTheUnknownKeys(t *testing.T) {
	top := bindcap.NewTopKeys([]string{"fmt", "trace"}, map[string]string{"nm": "name"})
	shapes := []struct {
		name    string
		member  func(i int) string
		unknown func(n int) int
		aliased bool
		repeats bool // a dropped key sent twice: V2 fails on it, its pass declines
		escaped bool // V2's pass declines an escaped key (segmentio's reads it)
	}{
		{name: "distinct", member: func(i int) string { return fmt.Sprintf(`"k%05d":%d`, i, i) }, unknown: func(n int) int { return n }},
		{name: "one key repeated", repeats: true, member: func(int) string { return `"k":1` }, unknown: func(int) int { return 1 }},
		{name: "keys told apart as sent", repeats: true, escaped: true, member: func(i int) string {
			return [...]string{`"a":1`, `"\u0061":1`, `"a":2`}[i%3] // two keys as sent, one text
		}, unknown: func(n int) int { return min(n, 2) }},
		{name: "exempt keys, escaped or not", repeats: true, escaped: true, member: func(i int) string {
			switch i % 4 {
			case 0:
				return `"fmt":1`
			case 1:
				return `"tr\u0061ce":1`
			}
			return fmt.Sprintf(`"k%05d":1`, i)
		}, unknown: func(n int) int { return n / 2 }},
		{name: "an alias", member: func(i int) string {
			if i == 0 {
				return `"nm":"y"`
			}
			return fmt.Sprintf(`"k%05d":1`, i)
		}, unknown: func(n int) int { return n - 1 }, aliased: true}, // an alias binds no parameter (read as sent), yet it is a name the tool takes: not counted
		{name: "long keys", member: func(i int) string { return fmt.Sprintf(`"%s%05d":%d`, strings.Repeat("x", 200), i, i) }, unknown: func(n int) int { return n }},
		// Longer than any alias or exempt key, escaped: read against them
		// without being unquoted (before, each was, on the heap).
		{name: "long escaped keys", escaped: true, member: func(i int) string {
			return fmt.Sprintf(`"\\u0078%s%05d":%d`, strings.Repeat("x", 300), i, i)
		}, unknown: func(n int) int { return n }},
	}
	for _, b := range []Binder{Std, V2, SegmentIO} {
		p, err := b.Compile(reflect.TypeFor[topKeysArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, sh := range shapes {
			if b == V2 && (sh.repeats || sh.escaped) {
				continue // the trial check decides: no count in its members
			}
			t.Run(b.Name()+"/"+sh.name, func(t *testing.T) {
				var allocs []float64
				var works []int64
				sizes := []int{1200, 12000, 120000}
				if testing.Short() {
					sizes = sizes[:2]
				}
				for _, n := range sizes {
					args := topCall(n, sh.member)
					before := WorkDone()
					_, ms := checkConstrainedV(p, args, nil, nil, top)
					works = append(works, WorkDone()-before)
					if !ms.Counted || ms.Unknown != sh.unknown(n) || ms.Aliased != sh.aliased {
						t.Fatalf("%d members: counted %v, %d unknown keys, aliased %v; want %d, %v", n, ms.Counted, ms.Unknown, ms.Aliased, sh.unknown(n), sh.aliased)
					}
					if got, want := string(args[ms.FirstUnknown.Start:ms.FirstUnknown.End]), firstUnknown(n, sh.member, top); got != want {
						t.Errorf("%d members: the first unknown key is %s, want %s", n, got, want)
					}
					// 20 runs: a pooled table a GC took costs one run one allocation more,
					// which the mean (AllocsPerRun truncates) does not show.
					allocs = append(allocs, testing.AllocsPerRun(20, func() {
						ms := bindcap.GetMembers()
						checkConstrained(p, args, nil, nil, top, ms)
						bindcap.PutMembers(ms)
					}))
				}
				t.Logf("allocations %v, work %v", allocs, works)
				for i := 1; i < len(sizes); i++ {
					if allocs[i] != allocs[0] {
						t.Errorf("%d members: %v allocations; %d: %v", sizes[i], allocs[i], sizes[0], allocs[0])
					}
					if works[i] > 12*works[i-1] {
						t.Errorf("%d members: %d bytes read; %d: %d", sizes[i], works[i], sizes[i-1], works[i-1])
					}
				}
			})
		}
	}
}

// firstUnknown is the key of the first member f makes that is neither a
// parameter's name nor exempt.
func firstUnknown(n int, f func(i int) string, top bindcap.TopKeys) string {
	for i := range n {
		m := f(i)
		key := m[:strings.Index(m, `":`)+1]
		if !top.IsExempt([]byte(key)) && !top.IsAlias([]byte(key)) && key != `"name"` && key != `"limit"` {
			return key
		}
	}
	return ""
}

// TestCheckConstrained_BindsAliases: under TopKeys.BindAliases the pass
// reads an alias sent plain as its parameter's name, for every binder
// whose pass reads the call: the verdict of the call renamed, the member
// bound (How Alias); an alias escaped, or one of a parameter whose name
// renaming would escape, stops the pass with no verdict.
func TestCheckConstrained_BindsAliases(t *testing.T) {
	top := bindcap.NewTopKeys(nil, map[string]string{"nm": "name", "lim": "limit", "odd": "a<b"})
	top.BindAliases = true
	type oddArgs struct {
		Name  string `json:"name"`
		Limit int    `json:"limit"`
		Odd   int    `json:"a<b"`
	}
	for _, b := range []Binder{Std, V2, SegmentIO} {
		plan, err := b.Compile(reflect.TypeFor[oddArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			sent, renamed string
		}{
			{`{"nm":"x","limit":1,"a<b":2}`, `{"name":"x","limit":1,"a<b":2}`},
			{`{"nm":"x","lim":"y","a<b":2}`, `{"name":"x","limit":"y","a<b":2}`},
			{`{"nm":"x","name":"y","a<b":2,"limit":0}`, `{"name":"x","name":"y","a<b":2,"limit":0}`},
			{`{"lim":1.5,"nm":7,"a<b":2}`, `{"limit":1.5,"name":7,"a<b":2}`},
		} {
			is, ms := checkConstrainedV(plan, []byte(tc.sent), nil, nil, top)
			want, _ := checkConstrainedV(plan, []byte(tc.renamed), nil, nil, bindcap.TopKeys{})
			if !ms.AliasBound || !ms.Object || fmt.Sprint(kindParams(is)) != fmt.Sprint(kindParams(want)) {
				t.Errorf("%s %s: bound %v, %v; renamed: %v", b.Name(), tc.sent, ms.AliasBound, kindParams(is), kindParams(want))
			}
			m := ms.At(0)
			alias := tc.sent[m.Key.Start+1 : m.Key.End-1]
			if m.How != bindcap.Alias || m.Binds() < 0 || plan.Params()[m.Binds()].Name != top.Aliases[alias] {
				t.Errorf("%s %s: first member %+v, want %s's, bound as an alias", b.Name(), tc.sent, m, top.Aliases[alias])
			}
		}
		for _, sent := range []string{`{"n\u006d":"x","limit":1,"a<b":2}`, `{"limit":1,"odd":2,"name":"x"}`} {
			is, ms := checkConstrainedV(plan, []byte(sent), nil, nil, top)
			if ms.AliasBound || !ms.Aliased || ms.Object || len(is) != 0 {
				t.Errorf("%s %s: %v, bound %v aliased %v object %v; want the pass stopped", b.Name(), sent, kindParams(is), ms.AliasBound, ms.Aliased, ms.Object)
			}
		}
	}
}

// kindParams is each issue's kind and parameter.
func kindParams(issues []Issue) []string {
	var out []string
	for _, is := range issues {
		out = append(out, fmt.Sprintf("%s@%d", is.Kind, is.Param))
	}
	return out
}

// TestCountUnknown_OneKeyTakesNoTable: a call of one unknown top-level key
// takes no key table (a pooled one costs two atomic operations) under any
// binder, and still counts it; a second unknown key takes one, which tells
// a repeat of the first from a new key.
func TestCountUnknown_OneKeyTakesNoTable(t *testing.T) {
	keyTablesTaken = new(atomic.Int64)
	defer func() { keyTablesTaken = nil }()
	top := bindcap.NewTopKeys(nil, nil)
	for _, b := range []Binder{Std, V2, SegmentIO} {
		p, err := b.Compile(reflect.TypeFor[topKeysArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			args            string
			unknown, tables int
		}{
			{`{"name":"x","limit":1}`, 0, 0},
			{`{"name":"x","verbose":true,"limit":1}`, 1, 0},
			{`{"verbose":true,"name":"x","trace":1}`, 2, 1},
			{`{"k":1,"name":"x","k2":1,"k":2}`, 2, 1},
		} {
			before := keyTablesTaken.Load()
			issues, ms := checkConstrainedV(p, []byte(c.args), nil, nil, top)
			if b == V2 && len(issues) > 0 && !ms.Counted {
				continue // a repeated name: V2 fails on it, and its pass declines
			}
			if tables := int(keyTablesTaken.Load() - before); !ms.Counted || ms.Unknown != c.unknown || tables != c.tables {
				t.Errorf("%s, %s: counted %v, %d unknown keys, %d key tables; want %d, %d", b.Name(), c.args, ms.Counted, ms.Unknown, tables, c.unknown, c.tables)
			}
		}
	}
}
