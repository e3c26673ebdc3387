package refuse_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type foldHours struct {
	Hours int `json:"hours" validate:"max=168" bindguard:"alias=hrs"`
	Limit int `json:"limit,omitempty"`
}

// A parameter sent under its name (or an alias) and a key the binder folds
// to it: the arguments the handler gets hold one member for it, the one
// the binder keeps, under its name, so that every view of them (the
// struct, the raw JSON, a map of it) holds the value checked; the call is
// an alias conflict (refused under Reject, a warning under Warn) that says
// which value the tool reads.
func TestDecide_ParamUnderNameAndCaseVariant_ArgsHoldOnlyTheValueChecked(t *testing.T) {
	for _, tc := range []struct {
		args string
		kept string // the value the binder keeps
	}{
		{`{"hours":500,"HOURS":5}`, "5"},
		{`{"HOURS":5,"hours":500}`, "500"},
		{`{"hrs":500,"HOURS":5}`, "5"},
		{`{"Hours":500,"HOURS":5,"limit":1}`, "5"},
		{`{"hours":5,"HOURS":500}`, "500"},
	} {
		for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
			reg := typereg.New(typereg.WithBinder(bind.Std), typereg.WithMode(mode))
			if err := typereg.Register[foldHours](reg, "t"); err != nil {
				t.Fatal(err)
			}
			d := refuse.Decide(reg, "t", []byte(tc.args))
			var ps []refuse.Problem
			if mode == typereg.Reject {
				if d.Refusal == nil {
					t.Errorf("%s under Reject: not refused", tc.args)
					continue
				}
				ps = d.Refusal.Problems
			} else {
				if d.Refusal != nil || d.Warnings == nil {
					t.Errorf("%s under Warn: want warnings, got %+v", tc.args, d)
					continue
				}
				ps = d.Warnings.Problems
				var m map[string]any
				if err := json.Unmarshal(d.Args, &m); err != nil {
					t.Fatal(err)
				}
				for k, v := range m {
					if strings.EqualFold(k, "hours") && (k != "hours" || json.Number(tc.kept) != json.Number(fmtNum(v))) {
						t.Errorf("%s under Warn: the arguments %s hold %q: %v", tc.args, d.Args, k, v)
					}
				}
			}
			var conflict *refuse.Problem
			for i := range ps {
				if ps[i].Code == refuse.AliasConflict {
					conflict = &ps[i]
				}
			}
			if conflict == nil || conflict.Becomes != tc.kept {
				t.Errorf("%s: problems %+v, want an alias conflict keeping %s", tc.args, ps, tc.kept)
			}
		}
	}
}

func fmtNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
