package zz

import (
	"fmt"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

func BenchmarkZ(t *testing.B) {
	reg := typereg.New(typereg.WithBinder(jsonv2.Binder))
	if err := typereg.Register[A](reg, "t"); err != nil {
		t.Fatal(err)
	}
	var el []string
	for i := range 1000 {
		el = append(el, fmt.Sprintf(`"2024-01-%02dT10:00:00Z"`, i%28+1))
	}
	args := []byte(`{"ts":[` + strings.Join(el, ",") + `]}`)
	t.ReportAllocs()
	for t.Loop() {
		refuse.Refuse(reg, "t", args)
	}
}
