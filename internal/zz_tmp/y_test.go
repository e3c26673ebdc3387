package zz

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

func TestY(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder, jsonv2.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[A](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{10, 100, 1000} {
			var el []string
			for i := range n {
				el = append(el, fmt.Sprintf(`"2024-01-%02dT10:00:00Z"`, i%28+1))
			}
			args := []byte(`{"ts":[` + strings.Join(el, ",") + `]}`)
			if r := refuse.Refuse(reg, "t", args); r != nil {
				t.Fatal(r)
			}
			a := testing.AllocsPerRun(20, func() { refuse.Refuse(reg, "t", args) })
			var v A
			u := testing.AllocsPerRun(20, func() { b.Unmarshal(args, &v) })
			t.Logf("%s n=%d guard allocs %v, binder %v", b.Name(), n, a, u)
		}
	}
}
