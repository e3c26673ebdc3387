package refuse_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// TestRefuse_WordsAreCompiledOncePerTool pins that what a parameter
// takes, in words ("one of value0, value1, ..."), is built once for the
// tool, not on each call refused. Building the words of a thousand values
// (about 10 KB) costs some six times their length; a refused call counts
// the sentence that quotes them (sentenceLen) without writing it, and
// shares the words: at most three times their length over the same
// refusal for ten values leaves room for a sentence written once or twice,
// not for the words built again.
func TestRefuse_WordsAreCompiledOncePerTool(t *testing.T) {
	allocs := func(n int) (float64, uint64, string) {
		enum := make([]string, n)
		for i := range enum {
			enum[i] = fmt.Sprintf("enum=value%d", i)
		}
		typ := reflect.StructOf([]reflect.StructField{
			{Name: "Mode", Type: reflect.TypeFor[string](), Tag: reflect.StructTag(`json:"mode" jsonschema:"` + strings.Join(enum, ",") + `"`)},
			{Name: "N", Type: reflect.TypeFor[int](), Tag: `json:"n"`},
		})
		reg := typereg.New()
		if err := typereg.RegisterType(reg, "t", typ); err != nil {
			t.Fatal(err)
		}
		args := []byte(`{"mode":7,"n":1}`)
		r := refuse.Refuse(reg, "t", args)
		if r == nil || len(r.Problems) != 1 || !strings.HasPrefix(r.Problems[0].Takes, "one of ") {
			t.Fatalf("%d values: refusal %+v, want one problem saying what mode takes", n, r)
		}
		call := func() { refuse.Refuse(reg, "t", args) }
		return testing.AllocsPerRun(50, call), allocatedBytes(call), r.Problems[0].Takes
	}
	small, smallBytes, _ := allocs(10)
	large, largeBytes, takes := allocs(1000)
	if large > small || largeBytes > smallBytes+3*uint64(len(takes)) {
		t.Errorf("a refused call allocates %v times, %d bytes, for a parameter of 1000 values (its words %d bytes), and %v times, %d bytes, for one of 10: the words are built per call",
			large, largeBytes, len(takes), small, smallBytes)
	}
}
