package refuse_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// TestDecide_SchemaTool_ARepeatedKeyIsTheArgumentsProblem: a schema tool's
// problems are ordered as a struct tool's (refuse's one rank): of the
// losses in one argument, the repeated key (a value thrown away) is the
// one named, not a rounding of the value kept.
func TestDecide_SchemaTool_ARepeatedKeyIsTheArgumentsProblem(t *testing.T) {
	reg := typereg.New()
	if err := reg.RegisterSchema("t", json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}}}`), typereg.WithStrict(true)); err != nil {
		t.Fatal(err)
	}
	r := refuse.Refuse(reg, "t", json.RawMessage(`{"id":1,"id":9007199254740993}`))
	want := []refuse.Problem{{Argument: "id", Code: refuse.DuplicateKey, Takes: "a whole number", Sent: `"id"`}}
	if r == nil {
		t.Fatal("not refused")
	}
	if diff := cmp.Diff(want, r.Problems, noPointer); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// TestDecide_SchemaTool_NamesTheKeyOfAMemberNoPropertyNames: a value under
// a top-level key no property names (read against additionalProperties,
// or against nothing) that the schema refuses or the map reader fails on
// is a problem of that key, named as sent, with what the key takes: never
// a refusal that names nothing, nor a field inside it named as a missing
// parameter.
func TestDecide_SchemaTool_NamesTheKeyOfAMemberNoPropertyNames(t *testing.T) {
	const schema = `{"type":"object","properties":{"id":{"type":"integer"}},"additionalProperties":{"type":"object","required":["x"],"properties":{"x":{"type":"string"}}}}`
	const takes = "an object with fields x"
	cases := []struct {
		open, strict bool
		args         string
		want         []refuse.Problem
	}{
		{args: `{"zz":1}`, want: []refuse.Problem{{Argument: "zz", Code: refuse.WrongType, Takes: takes, Sent: "1"}}},
		{args: `{"zz":{}}`, want: []refuse.Problem{{Argument: "zz", Path: ".x", Code: refuse.MissingField, Takes: takes, Sent: "{}", Element: `"x"`}}},
		{args: `{"zz":{"x":1},"id":1}`, want: []refuse.Problem{{Argument: "zz", Path: ".x", Code: refuse.WrongType, Takes: takes, Sent: `{"x":1}`, Element: "1"}}},
		{args: `{"zz":{"x":1e400}}`, want: []refuse.Problem{{Argument: "zz", Path: ".x", Code: refuse.TooLarge, Takes: takes, Sent: `{"x":1e400}`, Element: "1e400"}}},
		{args: `{"zz":{"x":"a"},"zz":{"x":"b"}}`, want: nil},
		{strict: true, args: `{"zz":{"x":"a"},"zz":{"x":"b"}}`, want: []refuse.Problem{{Argument: "zz", Code: refuse.DuplicateKey, Takes: takes, Sent: `"zz"`}}},
		{open: true, args: `{"zz":{}}`, want: []refuse.Problem{{Argument: "zz", Path: ".x", Code: refuse.MissingField, Takes: takes, Sent: "{}", Element: `"x"`}}},
	}
	for _, c := range cases {
		reg := typereg.New()
		var opts []typereg.Option
		if c.open {
			opts = append(opts, typereg.WithOpen())
		}
		if c.strict {
			opts = append(opts, typereg.WithStrict(true))
		}
		if err := reg.RegisterSchema("t", json.RawMessage(schema), opts...); err != nil {
			t.Fatal(err)
		}
		r := refuse.Refuse(reg, "t", json.RawMessage(c.args))
		if r == nil {
			if c.want != nil {
				t.Errorf("%s: not refused", c.args)
			}
			continue
		}
		if diff := cmp.Diff(c.want, r.Problems, noPointer); diff != "" {
			t.Errorf("%s: problems (-want +got):\n%s", c.args, diff)
		}
	}

	// Under a root left open without a schema, a value the map reader
	// fails on is named too, beside the key nothing reads.
	reg := typereg.New()
	if err := reg.RegisterSchema("t", json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}}}`)); err != nil {
		t.Fatal(err)
	}
	r := refuse.Refuse(reg, "t", json.RawMessage(`{"zz":[1e400]}`))
	want := []refuse.Problem{
		{Argument: "zz", Path: "[0]", Code: refuse.TooLarge, Takes: "any JSON value", Sent: "[1e400]", Element: "1e400"},
		{Argument: "zz", Code: refuse.UnknownArgument, Sent: `"zz"`},
	}
	if r == nil {
		t.Fatal(`{"zz":[1e400]}: not refused`)
	}
	if diff := cmp.Diff(want, r.Problems, noPointer); diff != "" {
		t.Errorf(`{"zz":[1e400]}: problems (-want +got):\n%s`, diff)
	}
	if !strings.Contains(r.Error(), "which is too large") {
		t.Errorf("text %q", r.Error())
	}

	// Under a tool left open, a loss in such a key's value, refused when
	// Strict, is named under the key.
	reg = typereg.New()
	if err := reg.RegisterSchema("t", json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}}}`), typereg.WithOpen(), typereg.WithStrict(true)); err != nil {
		t.Fatal(err)
	}
	r = refuse.Refuse(reg, "t", json.RawMessage(`{"zz":9007199254740993}`))
	want = []refuse.Problem{{Argument: "zz", Code: refuse.RoundedNumber, Takes: "any JSON value", Sent: "9007199254740993", Becomes: "9007199254740992"}}
	if r == nil {
		t.Fatal(`{"zz":9007199254740993}: not refused`)
	}
	if diff := cmp.Diff(want, r.Problems, noPointer); diff != "" {
		t.Errorf(`{"zz":9007199254740993}: problems (-want +got):\n%s`, diff)
	}
}

// TestDecide_SchemaTool_NestedPropertyRulesAreWorded: a property of an
// object argument with a rule of its own has it beside its name, so that a
// value inside the argument that breaks it is refused naming the rule
// (schemacheck's Keyword: minimum here), as a struct tool's nested tags are.
func TestDecide_SchemaTool_NestedPropertyRulesAreWorded(t *testing.T) {
	reg := typereg.New()
	if err := reg.RegisterSchema("t", json.RawMessage(`{"type":"object","properties":{"f":{"type":"object","properties":{"n":{"type":"integer","minimum":1},"s":{"type":"string"}}}}}`)); err != nil {
		t.Fatal(err)
	}
	r := refuse.Refuse(reg, "t", json.RawMessage(`{"f":{"n":0}}`))
	want := []refuse.Problem{{Argument: "f", Path: ".n", Code: refuse.Constraint, Takes: "an object with fields n (a whole number of at least 1), s", Sent: `{"n":0}`, Element: "0"}}
	if r == nil {
		t.Fatal("not refused")
	}
	if diff := cmp.Diff(want, r.Problems, noPointer); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}
