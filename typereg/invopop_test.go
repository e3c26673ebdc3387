package typereg_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// The schema and the required keys are invopop/jsonschema v0.14's
// whichever of v0.13 (the floor in go.mod) and v0.14 the build selects:
// v0.13 requires a field tagged omitzero and types a ,string field by its
// Go type, and panics on an unnamed struct.

type v014Leaf struct {
	Must  int `json:"must"`
	Maybe int `json:"maybe,omitzero"`
}

type v014Args struct {
	Name   string     `json:"name"`
	Zero   int        `json:"zero,omitzero"`
	Both   int        `json:"both,omitempty,omitzero"`
	Forced int        `json:"forced,omitzero" jsonschema:"required"`
	Count  int        `json:"count,string"`
	Flag   *bool      `json:"flag,string,omitempty"`
	Leaf   v014Leaf   `json:"leaf"`
	Leaves []v014Leaf `json:"leaves,omitzero"`
	Inline struct {
		Opt int `json:"opt,omitzero"`
		N   int `json:"n,string"`
	} `json:"inline"`
}

func TestSchema_InvopopV014Rules(t *testing.T) {
	reg := typereg.New()
	mustRegister(t, typereg.Register[v014Args](reg, "t"))
	mustRegister(t, typereg.Register[struct {
		A int `json:"a,omitzero"`
		B int `json:"b"`
	}](reg, "unnamed"))
	tool, _ := reg.Tool("t")
	s := tool.Schema()
	if want := []string{"name", "forced", "count", "leaf", "inline"}; !slices.Equal(s.Required, want) {
		t.Errorf("required %q, want %q", s.Required, want)
	}
	for _, name := range []string{"count", "flag"} {
		p, _ := s.Properties.Get(name)
		if p.Type != "string" {
			t.Errorf("%s (,string) is typed %q, want string", name, p.Type)
		}
	}
	in, _ := s.Properties.Get("inline")
	if !slices.Equal(in.Required, []string{"n"}) {
		t.Errorf("inline's required %q, want [n]", in.Required)
	}
	if p, _ := in.Properties.Get("n"); p.Type != "string" {
		t.Errorf("inline.n (,string) is typed %q, want string", p.Type)
	}
	if leaf := s.Definitions["v014Leaf"]; leaf == nil || !slices.Equal(leaf.Required, []string{"must"}) {
		t.Errorf("the leaf's definition %+v, want required [must]", leaf)
	}
	un, _ := reg.Tool("unnamed")
	if !slices.Equal(un.Schema().Required, []string{"b"}) {
		t.Errorf("unnamed: required %q, want [b]", un.Schema().Required)
	}
	// The binder reads a call without the omitzero fields: never refused.
	args := json.RawMessage(`{"name":"x","forced":1,"count":"2","leaf":{"must":1},"leaves":[{"must":2}],"inline":{"n":"3"}}`)
	if r := refuse.Refuse(reg, "t", args); r != nil {
		t.Errorf("Refuse(%s) = %v, want nil", args, r)
	}
}
