package bind_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonpath"
)

// objectsCall writes {"a":TREE} where TREE nests depth objects in any,
// each holding the next under the key "k" after a member "s":0, around
// inner. It returns the call and where inner starts.
func objectsCall(depth int, inner string) (args string, at int) {
	open := `{"a":` + strings.Repeat(`{"s":0,"k":`, depth)
	return open + inner + strings.Repeat(`}`, depth) + `}`, len(open)
}

// keySteps is the bounded path through depth members "k", then last.
func keySteps(depth int, last ...string) []string {
	var keys []string
	for range depth {
		keys = append(keys, "k")
	}
	return append(keys, last...)
}

// pathKeys is the keys a path's steps name, "…" for an elision.
func pathKeys(p bind.Path) []string {
	var keys []string
	for s := range bindcap.Path(p).Steps {
		if s.Elided {
			keys = append(keys, "…")
			continue
		}
		keys = append(keys, s.Key)
	}
	return keys
}

// boundedKeys is keys as a bounded path shows them.
func boundedKeys(keys []string) []string {
	if len(keys) <= jsonpath.MaxSteps {
		return keys
	}
	out := append([]string(nil), keys[:jsonpath.Head]...)
	out = append(out, "…")
	return append(out, keys[len(keys)-jsonpath.Tail:]...)
}

// TestCheck_DeepObjectsInAny: objects nested in any, around a frame's
// last level and past it, with a problem deep inside, each held to the
// binder's own decode of the call (checkAgainst) and to the trial check:
// a name sent twice in the innermost object, which V2 fails on (even in
// any: InvalidValue at that object, the path to it) and the others keep
// the last of (DuplicateKey at the second key); a key of invalid UTF-8,
// which V2 fails on and encoding/json replaces (ReplacedText at the key).
func TestCheck_DeepObjectsInAny(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[anyTree]())
		if err != nil {
			t.Fatal(err)
		}
		for _, depth := range []int{1, 30, 31, 32, 33, 64, 65, 200} {
			args, at := objectsCall(depth, `{"x":1,"y":2,"x":3}`)
			if b != bind.Std {
				checkProven(t, plan, []byte(args))
			}
			issues := checkAgainst(t, plan, []byte(args))
			second := at + len(`{"x":1,"y":2,`)
			switch {
			case b == jsonv2.Binder:
				if err := b.Unmarshal([]byte(args), new(anyTree)); err == nil || !strings.Contains(err.Error(), "duplicate") {
					t.Fatalf("V2 reads %d deep with %v", depth, err)
				}
				if len(issues) != 1 || issues[0].Kind != bind.InvalidValue || issues[0].Start != at || issues[0].End != at+len(`{"x":1,"y":2,"x":3}`) {
					t.Fatalf("V2 %d deep: %s, want invalid_value at the object at %d", depth, brief(issues), at)
				}
				if got, want := pathKeys(issues[0].Path), boundedKeys(keySteps(depth)); !slices.Equal(got, want) {
					t.Fatalf("V2 %d deep: path %v, want %v", depth, got, want)
				}
			default:
				var v anyTree
				if err := b.Unmarshal([]byte(args), &v); err != nil {
					t.Fatal(err)
				}
				if len(issues) != 1 || issues[0].Kind != bind.DuplicateKey || issues[0].Start != second || issues[0].End != second+3 {
					t.Fatalf("%s %d deep: %s, want duplicate_key at %d", b.Name(), depth, brief(issues), second)
				}
				if got, want := pathKeys(issues[0].Path), boundedKeys(keySteps(depth, "x")); !slices.Equal(got, want) {
					t.Fatalf("%s %d deep: path %v, want %v", b.Name(), depth, got, want)
				}
			}

			args, at = objectsCall(depth, "{\"ok\":1,\"b\xffd\":2}")
			if b != bind.Std {
				checkProven(t, plan, []byte(args))
			}
			issues = checkAgainst(t, plan, []byte(args))
			key := at + len(`{"ok":1,`)
			switch b {
			case jsonv2.Binder:
				if len(issues) != 1 || issues[0].Kind != bind.InvalidValue || issues[0].Start != at {
					t.Fatalf("V2 %d deep: %s, want invalid_value at the object at %d", depth, brief(issues), at)
				}
			case bind.Std:
				var v anyTree
				if err := json.Unmarshal([]byte(args), &v); err != nil {
					t.Fatal(err)
				}
				inner := v.A
				for range depth {
					inner = inner.(map[string]any)["k"]
				}
				if _, ok := inner.(map[string]any)["b\ufffdd"]; !ok {
					t.Fatalf("encoding/json reads the key as %v", inner)
				}
				if len(issues) != 1 || issues[0].Kind != bind.ReplacedText || issues[0].Start != key || issues[0].End != key+len("\"b\xffd\"") {
					t.Fatalf("std %d deep: %s, want replaced_text at the key at %d", depth, brief(issues), key)
				}
				if got, want := pathKeys(issues[0].Path), boundedKeys(keySteps(depth, "b\ufffdd")); !slices.Equal(got, want) {
					t.Fatalf("std %d deep: path %v, want %v", depth, got, want)
				}
			}
		}
	}
}

// TestCheck_DeepObjectsInAnyAtTheLimit: objects (and objects and arrays in
// turn) nested in any to each binder's limit read clean, and one level
// more is the one TooDeep issue in the argument, as the binder's own
// decode fails there.
func TestCheck_DeepObjectsInAnyAtTheLimit(t *testing.T) {
	for _, tc := range []struct {
		b     bind.Binder
		limit int
	}{{bind.Std, bind.MaxDepth}, {jsonv2.Binder, bind.MaxDepth}, {segmentio.Binder, bind.SegmentIOMaxDepth}} {
		plan, err := tc.b.Compile(reflect.TypeFor[anyTree]())
		if err != nil {
			t.Fatal(err)
		}
		for _, tree := range []func(n int) string{
			func(n int) string { return strings.Repeat(`{"a":`, n-1) + `{}` + strings.Repeat(`}`, n-1) },
			func(n int) string {
				var b strings.Builder
				for i := range n {
					b.WriteString([]string{`{"a":0,"b":`, `[0,`}[i%2])
				}
				for i := n - 1; i >= 0; i-- {
					b.WriteString([]string{`}`, `]`}[i%2])
				}
				s := strings.Replace(b.String(), `{"a":0,"b":}`, `{}`, 1)
				return strings.Replace(s, `[0,]`, `[0]`, 1)
			},
		} {
			for _, n := range []int{tc.limit - 1, tc.limit} { // the arguments' object is a level
				args := []byte(`{"a":` + tree(n) + `}`)
				if tc.b != bind.Std {
					checkProven(t, plan, args)
				}
				issues := checkAgainst(t, plan, args)
				err := tc.b.Unmarshal(args, new(anyTree))
				if n < tc.limit {
					if len(issues) != 0 || err != nil {
						t.Fatalf("%s %d deep: %s (the binder: %v), want none", tc.b.Name(), n, brief(issues), err)
					}
					continue
				}
				if err == nil || len(issues) != 1 || issues[0].Kind != bind.TooDeep || issues[0].Param != 0 || issues[0].Start != len(`{"a":`) {
					t.Fatalf("%s %d deep: %s (the binder: %v), want one too_deep in a", tc.b.Name(), n, brief(issues), err)
				}
			}
		}
	}
}
