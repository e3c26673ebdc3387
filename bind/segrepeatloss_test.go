package bind_test

import (
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segRepeatLosses are calls of trialArgs that segmentio reads, each with
// a key sent again whose last value holds losses of its own: the trial
// check lists the key's DuplicateKey before them, and so does the pass
// (keyFirst). segmentio decodes a repeated key's value into what the one
// before it left (a struct's fields, a map's keys, a slice's and a fixed
// array's elements), and the losses are those of the value as read.
var segRepeatLosses = []string{
	`{"sl":["x"],"sl":[null]}`,
	`{"sl":["a","b"],"sl":[null,"\ud800"]}`,
	`{"m":{"a":1},"m":{"b":9007199254740993}}`,
	`{"m":{"a":1},"m":{"a":null,"b":2}}`,
	`{"n":{"x":1},"n":{"x":null}}`,
	`{"n":{"x":1,"z":[1]},"n":{"z":[null],"y":"\ud800"}}`,
	`{"np":{"x":1},"np":{"x":null}}`,
	`{"arr":[1,2],"arr":[null,2]}`,
	`{"f32":1,"f32":16777217,"f":1}`,
	`{"a":{"k":1},"a":{"k":[null,9007199254740993]}}`,
	`{"a":{"k":[1],"k":[9007199254740993]}}`,
	`{"a":{"k":{"q":1},"k":{"q":"\ud800"}},"i":1}`,
	`{"ns":[{"x":1,"x":null}],"ns":[{"y":"\ud800","y":null}]}`,
	`{"i":1,"sl":["x"],"i":2,"sl":[null]}`,
}

// TestSegRepeatLosses: the pass decides each row, as the trial check
// does (checkProven), listing a DuplicateKey first.
func TestSegRepeatLosses(t *testing.T) {
	plan, err := segmentio.Binder.Compile(nativeFixed[1])
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range segRepeatLosses {
		issues, ok := decidedProven(t, plan, []byte(args))
		if ok && (len(issues) < 2 || issues[0].Kind != bind.DuplicateKey) {
			t.Errorf("%s: %s, want a duplicate_key first and a loss", args, brief(issues))
		}
	}
}
