package refuse_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type twoAliases struct {
	Hours int `json:"hours,omitempty" bindguard:"alias=hrs,h"`
	Mins  int `json:"mins,omitempty" bindguard:"alias=m"`
}

// TestDecide_FoldConflictListsKeysSent_WhateverTheRenamingLeftOut: an
// alias beside a case variant is listed as sent where the renaming left
// out another parameter's member, or the call has more members than
// bindcap.MaxMembers: the renaming hands the keys it kept to the fold
// conflicts. It listed "mins", a key never sent (found by a review).
func TestDecide_FoldConflictListsKeysSent_WhateverTheRenamingLeftOut(t *testing.T) {
	reg := typereg.New(typereg.WithMode(typereg.Warn))
	if err := typereg.Register[twoAliases](reg, "t"); err != nil {
		t.Fatal(err)
	}
	var many strings.Builder
	for i := range 1100 {
		fmt.Fprintf(&many, `"x%d":1,`, i)
	}
	for _, args := range []string{
		`{"hrs":1,"h":2,"m":3,"MINS":4}`,        // hours' alias conflict drops "h"
		`{` + many.String() + `"m":3,"MINS":4}`, // past bindcap.MaxMembers
	} {
		for _, p := range problemsOf(refuse.Decide(reg, "t", []byte(args))) {
			if p.Code == refuse.AliasConflict && p.Argument == "mins" && p.Sent != `"m", "MINS"` {
				t.Errorf("%.40s: alias_conflict Sent %s, want \"m\", \"MINS\"", args, p.Sent)
			}
		}
	}
}

type quotedNulls struct {
	QN int    `json:"qn,omitempty,string" validate:"max=10"`
	Q  string `json:"q,omitempty,string"`
}

// TestDecide_QuotedNullAfterAValue_IsANull: a ,string field's "null" (the
// string) after a value leaves the value under encoding/json and
// segmentio, as null does: the constraint the value breaks quotes it, and
// the repeat's words say the tool reads it. Both quoted "null" (found by
// a review).
func TestDecide_QuotedNullAfterAValue_IsANull(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[quotedNulls](reg, "t"); err != nil {
			t.Fatal(err)
		}
		args := `{"qn":"50","qn":"null"}`
		var v quotedNulls
		if err := b.Unmarshal([]byte(args), &v); err != nil || v.QN != 50 {
			t.Fatalf("%s reads %+v, %v", b.Name(), v, err)
		}
		for _, p := range problemsOf(refuse.Decide(reg, "t", []byte(args))) {
			if p.Code == refuse.Constraint && p.Sent != `"50"` {
				t.Errorf("%s: %s: constraint Sent %s, the tool reads 50", b.Name(), args, p.Sent)
			}
		}
		args = `{"q":"\"a\"","q":"null"}`
		if err := b.Unmarshal([]byte(args), &v); err != nil && jsonv2Build && b == bind.Std {
			continue // encoding/json under GOEXPERIMENT=jsonv2 fails on it
		} else if err != nil || v.Q != "a" {
			t.Fatalf("%s reads %+v, %v", b.Name(), v, err)
		}
		for _, p := range problemsOf(refuse.Decide(reg, "t", []byte(args))) {
			if p.Code == refuse.DuplicateKey && p.Becomes != `"\"a\""` {
				t.Errorf("%s: %s: duplicate_key Becomes %s, the tool reads \"a\"", b.Name(), args, p.Becomes)
			}
		}
	}
}

// TestDecide_NullAfterAValue_PastMaxIssues: past bind.MaxIssues a
// top-level repeat is only counted (bind.Omitted), and the call still goes
// on with the value alone, its null's words saying the tool reads the
// value. Args kept the null, and null_for_value said "reads as 0" (found by
// a review).
func TestDecide_NullAfterAValue_PastMaxIssues(t *testing.T) {
	reg := foldRegistry(t, typereg.Warn)
	args := `{"in":{},"l":[` + strings.TrimSuffix(strings.Repeat(`{"c":"\ud800"},`, 1001), ",") + `],"n":5,"n":null}`
	d := refuse.Decide(reg, "fold", []byte(args))
	if d.Refusal != nil {
		t.Fatal(d.Refusal)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(d.Args, &m); err != nil || string(m["n"]) != "5" {
		t.Errorf("Args: a map reads n as %s, want 5 (as for the same call with 1000 fewer elements)", m["n"])
	}
	for _, p := range problemsOf(d) {
		if p.Argument == "n" && p.Becomes == "0" {
			t.Errorf("%s: says the tool reads 0; encoding/json reads 5", p.Code)
		}
	}
}
