package jsonlex

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// FuzzEnds_AsSkipReads: on valid JSON, the end End finds for the value at
// each offset is Skip's, and Members and Elements over the index yield
// what the package's own do.
func FuzzEnds_AsSkipReads(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,{"b":"}]"},[]],"c":{}}`,
		`[[[["\"{"]]]]`,
		`{"a":"[","b":{"c":"\\"}}`,
		`{"a":1,"a":{"b":[{"c":2}]}}`,
		`"{["]}"`, ` [ 1 , { "a" : [ ] } ] `,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, d []byte) {
		if !json.Valid(d) {
			return // IndexEnds reads valid JSON only
		}
		e := IndexEnds(d)
		for i := range d {
			end, err := Skip(d, i, MaxDepth)
			got, ok := e.End(d, i)
			if ok != (err == nil) || ok && got != end {
				t.Fatalf("%q at %d: End %d, %v; Skip %d, %v", d, i, got, ok, end, err)
			}
			if a, b := slices.Collect(e.Members(d, i)), slices.Collect(Members(d, i)); !slices.Equal(a, b) {
				t.Fatalf("%q at %d: members %v, want %v", d, i, a, b)
			}
			if a, b := slices.Collect(e.Elements(d, i)), slices.Collect(Elements(d, i)); !slices.Equal(a, b) {
				t.Fatalf("%q at %d: elements %v, want %v", d, i, a, b)
			}
		}
	})
}

// TestEnds_ReadsEachByteOnce: stepping past every level of a chain of n
// objects (as a walker that looks at each level's members before entering
// one does) reads the chain's text once, not n times: the index holds
// every level's end.
func TestEnds_ReadsEachByteOnce(t *testing.T) {
	n := 1000
	d := []byte(strings.Repeat(`{"a":1,"c":`, n) + `{}` + strings.Repeat("}", n))
	e := IndexEnds(d)
	if len(e.starts) != n+1 {
		t.Fatalf("%d objects indexed, want %d", len(e.starts), n+1)
	}
	i := 0
	for level := range n {
		var next int
		for m := range e.Members(d, i) {
			next = m.Value.Start // the last member, "c"
		}
		if end, ok := e.End(d, i); !ok || end != len(d)-level {
			t.Fatalf("level %d: end %d, %v, want %d", level, end, ok, len(d)-level)
		}
		i = next
	}
}
