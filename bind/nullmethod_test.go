package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// ignoresNull decodes itself, and ignores null as time.Time does.
type ignoresNull struct{ V string }

func (x *ignoresNull) UnmarshalJSON(b []byte) error {
	if string(b) != "null" {
		x.V = string(b)
	}
	return nil
}

// recordsNull decodes itself, and records that null was sent.
type recordsNull struct{ Set, Null bool }

func (x *recordsNull) UnmarshalJSON(b []byte) error {
	x.Set, x.Null = true, string(b) == "null"
	return nil
}

type nullMethods struct {
	Ign ignoresNull `json:"ign"`
	Rec recordsNull `json:"rec"`
}

// A null that a type's own UnmarshalJSON leaves at the zero value is lost,
// under every binder; one it makes something of is not. The real binder
// shows the loss: a value decoded before stays.
func TestCheck_NullForATypeWithItsOwnDecoder(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		t.Run(b.Name(), func(t *testing.T) {
			plan, err := b.Compile(reflect.TypeFor[nullMethods]())
			if err != nil {
				t.Fatal(err)
			}
			var v nullMethods
			if err := b.Unmarshal([]byte(`{"ign":"x"}`), &v); err != nil {
				t.Fatal(err)
			}
			if err := b.Unmarshal([]byte(`{"ign":null,"rec":null}`), &v); err != nil {
				t.Fatal(err)
			}
			if v.Ign.V != `"x"` || !v.Rec.Null {
				t.Fatalf("the binder read %+v: want ign left as it was and rec recording null", v)
			}
			issues := plan.Check([]byte(`{"ign":null}`), nil)
			if len(issues) != 1 || issues[0].Kind != bind.NullForValue {
				t.Errorf(`{"ign":null}: issues %+v, want one NullValue`, issues)
			}
			if issues := plan.Check([]byte(`{"rec":null}`), nil); len(issues) != 0 {
				t.Errorf(`{"rec":null}: issues %+v, want none`, issues)
			}
		})
	}
}
