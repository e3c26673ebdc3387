package bind_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

type keysetArgs struct {
	Counts map[string]int `json:"counts"`
	Any    any            `json:"any"`
	ByID   map[int]string `json:"by_id"`
}

// wideObject is an object of n distinct keys ("k0".."k{n-1}"), then the keys
// of repeat again.
func wideObject(n int, repeat ...string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	for _, k := range repeat {
		fmt.Fprintf(&b, `,%q:0`, k)
	}
	b.WriteByte('}')
	return b.String()
}

// TestCheck_BigObjectKeysCostNoAllocation: the keys of an object too big
// for the checker's own entries are told apart in a pooled table, so a
// clean call with a wide map allocates as much at 100,000 keys as at 100
// (nothing, for the binders the pass proves it for), whatever the binder.
func TestCheck_BigObjectKeysCostNoAllocation(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[keysetArgs]())
		if err != nil {
			t.Fatal(err)
		}
		var counts []float64
		for _, n := range []int{100, 1000, 10000, 100000} {
			if testing.Short() && n > 10000 {
				break
			}
			args := []byte(`{"counts":` + wideObject(n) + `,"any":` + wideObject(n) + `}`)
			if is := plan.Check(args, nil); len(is) != 0 {
				t.Fatalf("%s, %d keys: %v", b.Name(), n, is)
			}
			counts = append(counts, testing.AllocsPerRun(5, func() { plan.Check(args, nil) }))
		}
		for i, c := range counts {
			if c != counts[0] {
				t.Errorf("%s: %v allocations at %d times the keys, %v at the fewest", b.Name(), c, []int{1, 10, 100, 1000}[i], counts[0])
			}
		}
	}
}

// TestCheck_DeepObjectKeysCostNoAllocation: objects nested deep in an
// empty interface (or a map of them) each hold their keys; past the
// checker's own entries those go to the pooled table too, so a call nesting
// objects 10,000 deep allocates as much as one nesting 10, whatever the
// binder, and a key repeated at any depth is still found.
func TestCheck_DeepObjectKeysCostNoAllocation(t *testing.T) {
	deep := func(n int, last string) []byte {
		return []byte(`{"any":` + strings.Repeat(`{"k":0,"j":`, n) + last + strings.Repeat("}", n) + `}`)
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[keysetArgs]())
		if err != nil {
			t.Fatal(err)
		}
		var counts []float64
		for _, n := range []int{10, 100, 900} { // 900: below every binder's depth limit
			args := deep(n, "0")
			if is := plan.Check(args, nil); len(is) != 0 {
				t.Fatalf("%s, %d deep: %v", b.Name(), n, is)
			}
			counts = append(counts, testing.AllocsPerRun(20, func() { plan.Check(args, nil) }))
			// The innermost object repeats its key: segmentio keeps the
			// last (a loss), V2 fails, encoding/json keeps the last.
			is := plan.Check(deep(n, `{"r":1,"r":2}`), nil)
			if len(is) == 0 {
				t.Errorf("%s, %d deep: a repeated key innermost, no issue", b.Name(), n)
			}
		}
		for i, c := range counts {
			if c != counts[0] {
				t.Errorf("%s: %v allocations nesting %d deep, %v nesting 10", b.Name(), c, []int{10, 100, 900}[i], counts[0])
			}
		}
		// Objects at levels 1 (its keys in the checker's entries), 60 and
		// 300 (theirs in the table) repeat "k" once the objects inside
		// them are closed: each repeat is found, no other key is one.
		var w strings.Builder
		w.WriteString(`{"any":`)
		w.WriteString(strings.Repeat(`{"k":0,"j":`, 300) + "0")
		for level := 300; level >= 1; level-- {
			if level == 1 || level == 60 || level == 300 {
				w.WriteString(`,"k":1`)
			}
			w.WriteString("}")
		}
		w.WriteString("}")
		is := plan.Check([]byte(w.String()), nil)
		want := 3
		if b == jsonv2.Binder {
			want = 1 // V2 fails on the first repeated name inside the argument
		}
		if len(is) != want {
			t.Errorf("%s: repeats at levels 1, 60 and 300: %d issues, want %d: %v", b.Name(), len(is), want, is)
		}
	}
}

// TestCheck_BigObjectRepeatsExact: in objects past the checker's own
// entries (and nested inside one another), a repeated key is found
// wherever it falls, a key held by another object is no repeat, and an
// integer map key repeats by its value.
func TestCheck_BigObjectRepeatsExact(t *testing.T) {
	inner := wideObject(40, "k3")        // one repeat inside the inner object
	outer := `{"a":1,"x":` + inner + `,` // the outer object holds the inner's keys under "x"
	for i := range 40 {
		outer += fmt.Sprintf(`"k%d":%d,`, i, i) // the same keys as the inner's: no repeat of them
	}
	outer += `"a":2}`          // and one repeat of its own, after the inner object closed
	ids := `{"1":"a","01":"b"` // 1 and 01 both read as 1
	for i := 2; i < 40; i++ {
		ids += fmt.Sprintf(`,"%d":"v"`, i)
	}
	ids += `,"39":"w"}`
	cases := []struct {
		name string
		args string
		want []string // the paths of the DuplicateKey issues
	}{
		{"repeat past the entries", `{"counts":` + wideObject(100, "k0", "k99", "k50") + `}`, []string{".k0", ".k99", ".k50"}},
		{"nested big objects", `{"any":` + outer + `}`, []string{".x.k3", ".a"}},
		{"integer keys by value", `{"by_id":` + ids + `}`, []string{".01", ".39"}},
		{"two maps of the same keys", `{"counts":` + wideObject(50) + `,"any":` + wideObject(50) + `}`, nil},
	}
	plan, err := bind.Std.Compile(reflect.TypeFor[keysetArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range cases {
		var got []string
		for _, is := range plan.Check([]byte(tc.args), nil) {
			if is.Kind == bind.DuplicateKey {
				got = append(got, is.Path.String())
			} else {
				t.Errorf("%s: unexpected issue %v", tc.name, is)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: repeats at %v, want %v", tc.name, got, tc.want)
		}
	}
}

// FuzzCheck_WideObjectRepeats: in an object of up to 300 keys drawn from
// a few short texts (plain and escaped, so that past the checker's own
// entries repeats are frequent), the checker reports a DuplicateKey for
// exactly the members whose key, as encoding/json reads it, an earlier
// member of the same object held, for a map and for an empty interface.
func FuzzCheck_WideObjectRepeats(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, uint16(40))
	f.Add([]byte("the quick brown fox jumps over the lazy dog"), uint16(300))
	plan, err := bind.Std.Compile(reflect.TypeFor[keysetArgs]())
	if err != nil {
		f.Fatal(err)
	}
	texts := []string{`"a"`, `"b"`, `"\u0061"`, `"ab"`, `"é"`, `"\u00e9"`, `"k"`, `"K"`, `"a\u0062"`, `""`}
	f.Fuzz(func(t *testing.T, pick []byte, n uint16) {
		if len(pick) == 0 {
			return
		}
		n %= 301
		for _, param := range []string{"counts", "any"} {
			var b strings.Builder
			var want []string
			seen := map[string]bool{}
			b.WriteString(`{"` + param + `":{`)
			for i := range int(n) {
				p := int(pick[i%len(pick)]) + i/len(pick) // more distinct keys as the object widens
				key := texts[p%len(texts)]
				if p >= len(texts) {
					key = fmt.Sprintf(`"%c%d"`, 'a'+p%3, p/len(texts)%7)
				}
				if i > 0 {
					b.WriteByte(',')
				}
				b.WriteString(key + ":1")
				var text string
				if err := json.Unmarshal([]byte(key), &text); err != nil {
					t.Fatal(err)
				}
				if seen[text] {
					want = append(want, text)
				}
				seen[text] = true
			}
			b.WriteString(`}}`)
			var got []string
			for _, is := range plan.Check([]byte(b.String()), nil) {
				if is.Kind != bind.DuplicateKey {
					t.Fatalf("%s: unexpected issue %v", b.String(), is)
				}
				got = append(got, is.Path.String())
			}
			if len(got) != len(want) {
				t.Fatalf("%s: %d repeats reported (%v), want %d (%v)", b.String(), len(got), got, len(want), want)
			}
		}
	})
}

// TestCheck_DenseObjectKeysCostNoAllocation: objects of short keys, each
// past the checker's own entries, fill the key table faster than a
// check's first slots (sized from the arguments' length) hold, so the
// check grows its slots into the pooled room; a call of that shape
// allocates nothing once a table that size has served one, at 900
// objects as at 100.
func TestCheck_DenseObjectKeysCostNoAllocation(t *testing.T) {
	obj := `{"a":0,"b":0,"c":0,"d":0,"e":0,"f":0,"g":0,"h":0,"i":0,"j":0,"k":0,"l":0,"m":0,"n":0,"o":0,"p":0,"q":0,"r":0,"s":0,"t":0}`
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[keysetArgs]())
		if err != nil {
			t.Fatal(err)
		}
		var counts []float64
		sizes := []int{100, 300, 900, 2000, 7000}
		if testing.Short() {
			sizes = sizes[:4]
		}
		for _, n := range sizes {
			// 20 keys of six bytes each in an object: a fifth of the
			// arguments' bytes are keys of the table.
			args := []byte(`{"any":[` + strings.Repeat(obj+",", n-1) + obj + `]}`)
			if is := plan.Check(args, nil); len(is) != 0 {
				t.Fatalf("%s, %d objects: %v", b.Name(), n, is)
			}
			counts = append(counts, testing.AllocsPerRun(5, func() { plan.Check(args, nil) }))
		}
		for i, c := range counts {
			if c != counts[0] {
				t.Errorf("%s: %v allocations for %d objects of 20 keys, %v for %d", b.Name(), c, sizes[i], counts[0], sizes[0])
			}
		}
	}
}
