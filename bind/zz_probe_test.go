package bind_test

import (
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

func TestZZProbe(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		for _, s := range []string{`{"mi":{"a":1}}`, `{"mi":{"7":1,"b":2}}`, `{"mi":{"x":1,"X":2}}`, `{"mi":{"\u0061":1}}`} {
			var v struct {
				MI map[textIntKey]int `json:"mi"`
			}
			err := b.Unmarshal([]byte(s), &v)
			t.Logf("%s %s: %v %v", b.Name(), s, v.MI, err)
		}
	}
}
