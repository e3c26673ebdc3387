package refuse_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type countedFailuresArgs struct {
	A []int  `json:"a"`
	B int    `json:"b" validate:"min=5"`
	C string `json:"c" validate:"max=3"`
}

// TestRefuse_CountedFailuresHideNoOtherArgument: an argument sent twice,
// each time with failures (text for a list of whole numbers), beside
// arguments that break their tags. Past bind.MaxIssues the second
// member's failures are only counted; the constraints are still checked on
// the other arguments, so the refusal names the same arguments and codes
// at every size, with every binder.
func TestRefuse_CountedFailuresHideNoOtherArgument(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[countedFailuresArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, n := range []int{3, 999, 1000, 1001, 2500} {
			bad := "[" + strings.TrimSuffix(strings.Repeat(`"x",`, n), ",") + "]"
			for _, shape := range []string{
				`{"a":%[1]s,"a":%[1]s,"b":1,"c":"long"}`,
				`{"b":1,"a":%[1]s,"c":"long","a":%[1]s}`,
			} {
				args := fmt.Sprintf(shape, bad)
				r := refuse.Refuse(reg, "t", []byte(args))
				if r == nil {
					t.Fatalf("%s, %d elements: the call goes on", b.Name(), n)
				}
				var got []string
				for _, p := range r.Problems {
					got = append(got, p.Argument+": "+string(p.Code))
				}
				slices.Sort(got)
				if want == nil {
					want = got
					if !slices.Contains(want, "b: constraint") || !slices.Contains(want, "c: constraint") {
						t.Fatalf("%s: %d elements: problems %v, want b's and c's constraints named", b.Name(), n, got)
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s, %d elements, %.20s…: problems %v, want %v", b.Name(), n, args, got, want)
				}
			}
		}
	}
}
