package refuse_test

import (
	"testing"

	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// TestDecide_V2AliasSentTwice: under V2, which fails on a name sent twice,
// an alias sent twice is a duplicate_name of the parameter it names. It
// was a duplicate_name of no argument beside an unknown_argument ("'nn'
// is not a parameter of tool 't'; did you mean 'n'?"), for a name the
// tool accepts.
func TestDecide_V2AliasSentTwice(t *testing.T) {
	type args struct {
		N int `json:"n,omitempty" bindguard:"alias=nn"`
	}
	reg := typereg.New(typereg.WithBinder(jsonv2.Binder))
	if err := typereg.Register[args](reg, "t"); err != nil {
		t.Fatal(err)
	}
	if r := refuse.Refuse(reg, "t", []byte(`{"nn":1}`)); r != nil {
		t.Fatalf("the alias alone: %v", r)
	}
	r := refuse.Refuse(reg, "t", []byte(`{"nn":1,"nn":2}`))
	if r == nil {
		t.Fatal("an alias sent twice went on: V2 fails on it")
	}
	if len(r.Problems) != 1 || r.Problems[0].Code != refuse.DuplicateName || r.Problems[0].Argument != "n" || r.Problems[0].Sent != `"nn"` {
		t.Errorf("problems %+v, want one duplicate_name of n, sent `\"nn\"`:\n%s", r.Problems, r)
	}
}
