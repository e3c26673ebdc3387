package refuse_test

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// floodSchema is a schema tool's: its root open (no additionalProperties),
// or closed, or reading every other key against additionalProperties.
func floodSchema(root string) string {
	return `{"type":"object","properties":{
		"f":{"type":"array","items":{"type":"number"}},
		"o":{"type":"object","properties":{"y":{"type":"integer"}},"additionalProperties":{"type":"array","items":{"type":"integer"}}},
		"objs":{"type":"array","items":{"type":"object","required":["a","b"]}},
		"limit":{"type":"integer"}},
		"required":["limit"]` + root + `}`
}

func schemaDecider(t *testing.T, schema string, opts ...typereg.Option) func([]byte) refuse.Decision {
	t.Helper()
	reg := typereg.New()
	if err := reg.RegisterSchema("t", json.RawMessage(schema), opts...); err != nil {
		t.Fatal(err)
	}
	return func(args []byte) refuse.Decision { return refuse.Decide(reg, "t", args) }
}

// TestDecide_SchemaFlood_LossesSameAtEveryBound: a schema tool's silent
// losses are judged the same however many issues a key sent twice holds
// in its dropped value. Under Strict, {"cursor":[1000 rounded
// numbers],"f":[9007199254740993],"cursor":1} with cursor exempt (or
// unknown at an open root, or the tool open) went on with a warning of no
// problem: f's loss was only counted (the class full of cursor's), then
// the map reader's dropping of cursor's first value took back the losses
// listed, and a loss only counted never refused. With fewer elements, the
// call was refused naming f. So for a key no property names read against
// additionalProperties, and inside an argument (a key of its object sent
// twice: the argument's other problem was only counted, and the refusal
// named the repeated key instead, or under Warn warned of it alone).
func TestDecide_SchemaFlood_LossesSameAtEveryBound(t *testing.T) {
	rounded := func(n int) string { return rep(rounds, n, ",") }
	texts := func(n int) string { return rep(`"s"`, n, ",") }
	strict := typereg.WithStrict(true)
	for _, c := range []struct {
		name     string
		decide   func([]byte) refuse.Decision
		call     func(n int) string
		problems int
	}{
		{"exempt key sent twice", schemaDecider(t, floodSchema(""), strict, typereg.WithExempt("cursor")),
			func(n int) string { return `{"cursor":[` + rounded(n) + `],"f":[` + rounds + `],"cursor":1,"limit":1}` }, 1},
		{"open tool, a key sent twice", schemaDecider(t, floodSchema(""), strict, typereg.WithOpen()),
			func(n int) string { return `{"cursor":[` + rounded(n) + `],"f":[` + rounds + `],"cursor":1,"limit":1}` }, 1},
		{"unknown key sent twice", schemaDecider(t, floodSchema(""), strict),
			func(n int) string { return `{"cursor":[` + rounded(n) + `],"f":[` + rounds + `],"cursor":1,"limit":1}` }, 2},
		// x and y read against additionalProperties: y's loss is a problem
		// of y, x's repeat one of x.
		{"additional key sent twice", schemaDecider(t, floodSchema(`,"additionalProperties":{}`), strict),
			func(n int) string { return `{"x":[` + rounded(n) + `],"y":[` + rounds + `],"x":1,"limit":1}` }, 2},
		{"a key sent twice inside an argument", schemaDecider(t, floodSchema("")),
			func(n int) string { return `{"o":{"k":[` + texts(n) + `],"y":"x","k":[]},"limit":1}` }, 1},
		{"a key sent twice inside an argument, warned", schemaDecider(t, floodSchema(""), typereg.WithMode(typereg.Warn)),
			func(n int) string { return `{"o":{"k":[` + texts(n) + `],"y":"x","k":[]},"limit":1}` }, 1},
	} {
		checkFloodSizes(t, c.name, c.decide, c.call, func(int) int { return c.problems })
	}
}

// TestDecide_SchemaFlood_EveryArgumentListed: however many issues one
// argument of a schema tool has, every other argument's first problem is
// listed, as a struct tool's is, and More counts problems, not issues.
// Before, schemacheck listed the first bind.MaxIssues issues of each class
// and counted the rest by class: one argument's 2,000 missing fields made
// More 1,000 (a refusal of one problem); a thousand issues in one
// argument, or a thousand unknown keys at a closed root, left another
// argument's problem, or the required parameter left out, only counted.
func TestDecide_SchemaFlood_EveryArgumentListed(t *testing.T) {
	texts := func(n int) string { return rep(`"s"`, n, ",") }
	keys := func(n int, value string) string {
		return seq(n, func(i int) string { return `"z` + strconv.Itoa(i) + `":` + value })
	}
	open, closed := floodSchema(""), floodSchema(`,"additionalProperties":false`)
	small := floodSchema(`,"additionalProperties":{"type":"integer","maximum":1}`)
	strict := typereg.WithStrict(true)
	warn := typereg.WithMode(typereg.Warn)
	for _, c := range []struct {
		name     string
		decide   func([]byte) refuse.Decision
		call     func(n int) string
		problems func(n int) int
		flood    refuse.Code // a code the flood makes, besides unknown_argument
	}{
		{"one argument's missing fields", schemaDecider(t, open),
			func(n int) string { return `{"objs":[` + rep(`{}`, n, ",") + `],"limit":1}` }, func(int) int { return 1 }, ""},
		{"one argument's wrong elements, then another's", schemaDecider(t, open),
			func(n int) string { return `{"f":[` + texts(n) + `],"limit":"x"}` }, func(int) int { return 2 }, ""},
		{"one argument's wrong elements, warned", schemaDecider(t, open, warn),
			func(n int) string { return `{"f":[` + texts(n) + `],"limit":"x"}` }, func(int) int { return 2 }, ""},
		{"one argument's failures, then another's, warned", schemaDecider(t, open, warn),
			func(n int) string { return `{"f":[` + rep("1e999", n, ",") + `],"limit":1e999}` }, func(int) int { return 2 }, ""},
		{"one argument's losses, then an unknown key", schemaDecider(t, open, strict),
			func(n int) string { return `{"f":[` + rep(rounds, n, ",") + `],"zz":1,"limit":1}` }, func(int) int { return 2 }, ""},
		{"unknown keys at a closed root, a parameter left out", schemaDecider(t, closed),
			func(n int) string { return `{` + keys(n, "1") + `}` }, func(n int) int { return n + 1 }, ""},
		{"unknown keys at a closed root, then an argument's problem", schemaDecider(t, closed),
			func(n int) string { return `{` + keys(n, "1") + `,"limit":"x"}` }, func(n int) int { return n + 1 }, ""},
		{"unknown keys at an open root, then an argument's loss", schemaDecider(t, open, strict),
			func(n int) string { return `{` + keys(n, "1") + `,"f":[` + rounds + `],"limit":1}` }, func(n int) int { return n + 1 }, ""},
		{"unknown keys sent twice", schemaDecider(t, closed),
			func(n int) string { return `{` + keys(n, "1") + `,` + keys(n, "2") + `,"limit":"x"}` }, func(n int) int { return n + 1 }, ""},
		// Each key no property names is a problem of its own (a
		// constraint: the flood's code, left out of the verdict).
		{"keys additionalProperties refuses, then an argument's problem", schemaDecider(t, small),
			func(n int) string { return `{` + keys(n, "2") + `,"limit":"x"}` }, func(n int) int { return n + 1 }, refuse.Constraint},
		{"keys additionalProperties refuses, then a parameter left out", schemaDecider(t, small),
			func(n int) string { return `{` + keys(n, "2") + `}` }, func(n int) int { return n + 1 }, refuse.Constraint},
	} {
		checkFloodSizes(t, c.name, c.decide, c.call, c.problems, c.flood)
	}
}
