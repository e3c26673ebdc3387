package bindtest_test

import (
	"encoding/json"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/typereg"
)

// TestCheck_ReaderNamedLikeANativeBinder_TakesTheSharedRows: a row that
// speaks for a binder (Row.Binder) speaks for that binder, not for a
// server's own reader that carries its name: a Reader takes the rows no
// binder claims, as it takes encoding/json's parameters. It failed while
// rows were picked by the registry binder's name alone: a Reader named
// "v2" around json.Unmarshal was held to V2's verdict on a lone surrogate.
func TestCheck_ReaderNamedLikeANativeBinder_TakesTheSharedRows(t *testing.T) {
	rows := []bindtest.Row{
		{Type: "string", Value: `"\ud800"`, Refused: false, Why: "encoding/json reads U+FFFD"},
		{Type: "string", Value: `"\ud800"`, Binder: "v2", Refused: true, Why: "V2 refuses a lone surrogate"},
	}
	for _, b := range []bind.Binder{jsonv2.Binder, bind.Reader("v2", json.Unmarshal)} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[struct {
			S string `json:"s"`
		}](reg, "t"); err != nil {
			t.Fatal(err)
		}
		res, err := bindtest.Check(reg, "t", rows)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != 1 || res[0].Unexpected {
			t.Errorf("%T named %s: %+v", b, b.Name(), res)
		}
	}
}
