package refuse_test

import (
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type aliasedHours struct {
	Hours int `json:"hours" bindguard:"alias=hrs"`
}

// Under Warn, a call that sends a parameter under its name and an alias
// runs with the member sent under the name, the other dropped; but the
// dropped member's value is part of the call, and one the binder cannot
// read (not JSON; for V2, a repeated name or invalid UTF-8 inside it) is
// refused as the binder refuses it, as for any key it drops.
func TestDecide_Warn_AliasConflict_DroppedMemberIsStillRead(t *testing.T) {
	for _, tc := range []struct {
		binder bind.Binder
		args   string
		code   refuse.Code
	}{
		{bind.Std, `{"hours":1,"hrs":tru}`, refuse.InvalidJSON},
		{bind.Std, `{"hrs":1,"hours":2,"hrs":[1,}`, refuse.InvalidJSON},
		{jsonv2.Binder, `{"hours":1,"hrs":tru}`, refuse.InvalidJSON},
		{jsonv2.Binder, `{"hours":1,"hrs":{"a":1,"a":2}}`, refuse.DuplicateName},
		{jsonv2.Binder, "{\"hours\":1,\"hrs\":\"\xff\"}", refuse.InvalidJSON},
		{segmentio.Binder, `{"hours":1,"hrs":tru}`, refuse.InvalidJSON},
	} {
		reg := typereg.New(typereg.WithBinder(tc.binder), typereg.WithMode(typereg.Warn))
		if err := typereg.Register[aliasedHours](reg, "t"); err != nil {
			t.Fatal(err)
		}
		d := refuse.Decide(reg, "t", []byte(tc.args))
		if d.Refusal == nil {
			t.Errorf("%s %s: not refused (handler would read %s)", tc.binder.Name(), tc.args, d.Args)
			continue
		}
		if got := d.Refusal.Problems[0].Code; got != tc.code {
			t.Errorf("%s %s: refused with %s, want %s", tc.binder.Name(), tc.args, got, tc.code)
		}
	}
	// A dropped member the binder reads still only warns.
	reg := typereg.New(typereg.WithMode(typereg.Warn))
	if err := typereg.Register[aliasedHours](reg, "t"); err != nil {
		t.Fatal(err)
	}
	if d := refuse.Decide(reg, "t", []byte(`{"hours":1,"hrs":[1,{"a":null}]}`)); d.Refusal != nil || d.Warnings == nil {
		t.Errorf("a good dropped member: refusal %v, warnings %v", d.Refusal, d.Warnings)
	}
}
