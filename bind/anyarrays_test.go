package bind_test

import (
	"encoding/json"
	"math/rand"
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

// anyTree is a tool whose argument takes any value: the checker reads
// arrays in it (and in arrays in it) in one frame up to a number of
// levels, then in the next frame: an issue deep inside must be found at
// its bytes, with the path to it, whatever the depth and whatever was read
// before it.
type anyTree struct {
	A any `json:"a"`
}

// deepArrayCall writes {"a":TREE} where TREE nests arrays depth deep, with
// siblings before and after each level's next array (some of them deep
// arrays of their own), and 1e400, a number no float64 holds, as the
// innermost element. It returns the call, the offset of 1e400 and the
// indexes leading to it.
func deepArrayCall(r *rand.Rand, depth int) (args string, at int, indexes []int) {
	var b strings.Builder
	b.WriteString(`{"a":`)
	filler := func() {
		switch r.Intn(5) {
		case 0:
			b.WriteString(`0`)
		case 1:
			b.WriteString(`"x"`)
		case 2:
			b.WriteString(`{"k":[1,[2]]}`)
		case 3:
			b.WriteString(`[]`)
		default: // an array as deep as any frame holds, and more
			n := 1 + r.Intn(80)
			b.WriteString(strings.Repeat("[", n) + "1" + strings.Repeat("]", n))
		}
	}
	after := make([]int, depth)
	for d := range depth {
		b.WriteString("[ ")
		before := r.Intn(3)
		for range before {
			filler()
			b.WriteString(", ")
		}
		indexes = append(indexes, before)
		after[d] = r.Intn(2)
	}
	at = b.Len()
	b.WriteString("1e400")
	for d := depth - 1; d >= 0; d-- {
		for range after[d] {
			b.WriteString(",")
			filler()
		}
		b.WriteString(" ]")
	}
	b.WriteString("}")
	return b.String(), at, indexes
}

// wantSteps is the bounded path to indexes: every step up to
// jsonpath.MaxSteps, else the first Head, an elision and the last Tail.
func wantSteps(indexes []int) []jsonpath.Step {
	var steps []jsonpath.Step
	for i, ix := range indexes {
		if len(indexes) > jsonpath.MaxSteps && i >= jsonpath.Head && i < len(indexes)-jsonpath.Tail {
			if i == jsonpath.Head {
				steps = append(steps, jsonpath.Step{Elided: true})
			}
			continue
		}
		steps = append(steps, jsonpath.Step{Index: ix})
	}
	return steps
}

func TestCheck_DeepArraysInAny(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	depths := []int{1, 2, 11, 12, 13, 30, 31, 32, 33, 34, 63, 64, 65, 66, 95, 96, 97, 100, 129, 200, 300}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[anyTree]())
		if err != nil {
			t.Fatal(err)
		}
		for _, depth := range depths {
			for range 4 {
				args, at, indexes := deepArrayCall(r, depth)
				if err := json.Unmarshal([]byte(args), new(any)); err == nil {
					t.Fatalf("encoding/json reads %.200s: the test's call holds no failure", args)
				}
				if b != bind.Std {
					checkProven(t, plan, []byte(args)) // the trial check's verdict, issue for issue
				}
				issues := plan.Check([]byte(args), nil)
				if len(issues) != 1 {
					t.Fatalf("%s depth %d: %d issues, want 1: %s", b.Name(), depth, len(issues), brief(issues))
				}
				is := issues[0]
				if is.Kind != bind.TooLarge || is.Start != at || is.End != at+len("1e400") {
					t.Fatalf("%s depth %d: %s, want too_large at [%d,%d)", b.Name(), depth, brief(issues), at, at+5)
				}
				got := slices.Collect(bindcap.Path(is.Path).Steps)
				if want := wantSteps(indexes); !slices.Equal(got, want) {
					t.Fatalf("%s depth %d: path %s has steps %v, want %v", b.Name(), depth, is.Path, got, want)
				}
			}
		}
	}
}

// Arrays cut short, or holding what is not JSON, at every depth around a
// frame's last level: the one invalid_json issue, at the first byte that
// makes the text not JSON (its end, when it is cut short).
func TestCheck_DeepArraysInAny_NotJSON(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[anyTree]())
		if err != nil {
			t.Fatal(err)
		}
		for _, depth := range []int{1, 31, 32, 33, 64, 65} {
			open := `{"a":` + strings.Repeat("[", depth)
			for _, tc := range []struct {
				tail string
				at   int // the offending byte in tail; -1 for the text's end
			}{
				{"", -1}, {"1", -1}, {"1,", -1}, {"1, ", -1}, {"1,]", 2}, {",", 0}, {" x", 1}, {"1 1", 2},
				{"[1,]" + strings.Repeat("]", depth) + "}", 3}, {"[]," + strings.Repeat("]", depth) + "}", 3},
				{strings.Repeat("]", depth) + "]", depth},
			} {
				args := open + tc.tail
				if json.Valid([]byte(args)) {
					t.Fatalf("%q is JSON", args)
				}
				want := len(args)
				if tc.at >= 0 {
					want = len(open) + tc.at
				}
				if b != bind.Std {
					checkProven(t, plan, []byte(args))
				}
				issues := plan.Check([]byte(args), nil)
				if len(issues) != 1 || issues[0].Kind != bind.InvalidJSON || issues[0].Start != want {
					t.Fatalf("%s %q: %s, want one invalid_json at %d", b.Name(), args, brief(issues), want)
				}
			}
		}
	}
}
