package refuse_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type boundPlain struct {
	Hours int `json:"hours" validate:"max=168"`
}

type boundIgnore struct {
	Hours int `json:"hours,case:ignore" validate:"max=168"`
}

// When keys fold together or repeat, the constraint is checked on the
// value the binder binds, and the problem quotes that value: for each
// binder, the real decoder decodes the call, and the guard's verdict on the
// constraint, and the value it quotes, follow what the decoder bound.
func TestConstraint_CheckedOnTheValueTheBinderBinds(t *testing.T) {
	calls := []string{
		`{"hours":500,"HOURS":5}`,
		`{"HOURS":500,"hours":5}`,
		`{"HOURS":500}`,
		`{"Hours":5,"HOURS":500}`,
		`{"hours":5,"hours":500}`,
		`{"hours":500,"hours":5}`,
		`{"hours":500}`,
		`{"HOURS":5}`,
	}
	types := []reflect.Type{reflect.TypeFor[boundPlain](), reflect.TypeFor[boundIgnore]()}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		for _, typ := range types {
			reg := typereg.New(typereg.WithBinder(b))
			var err error
			if typ == types[0] {
				err = typereg.Register[boundPlain](reg, "t", typereg.WithOpen())
			} else {
				err = typereg.Register[boundIgnore](reg, "t", typereg.WithOpen())
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, call := range calls {
				v := reflect.New(typ)
				binderErr := b.Unmarshal([]byte(call), v.Interface())
				hours := v.Elem().Field(0).Int()
				d := refuse.Decide(reg, "t", []byte(call))
				var got *refuse.Problem
				var ps []refuse.Problem
				if d.Refusal != nil {
					ps = d.Refusal.Problems
				}
				// The value the tool reads is quoted by the constraint
				// problem (Sent), or, for a parameter sent under two keys,
				// by the alias conflict that hides it (Becomes).
				quoted := ""
				for i, p := range ps {
					switch p.Code {
					case refuse.Constraint:
						got, quoted = &ps[i], p.Sent
					case refuse.AliasConflict:
						if p.Becomes == "500" {
							got, quoted = &ps[i], p.Becomes
						}
					}
				}
				name := b.Name() + "/" + typ.Name() + " " + call
				switch {
				case binderErr != nil:
					if d.Refusal == nil {
						t.Errorf("%s: the binder fails (%v), the guard passes", name, binderErr)
					}
				case hours > 168:
					if got == nil || quoted != "500" {
						t.Errorf("%s: the binder binds %d; the guard's problem is %+v, want a constraint quoting 500", name, hours, got)
					}
				default:
					if got != nil {
						t.Errorf("%s: the binder binds %d; the guard reports %+v", name, hours, got)
					}
				}
			}
		}
	}
}
