package refuse_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type afLeaf struct {
	A int    `json:"a,omitempty"`
	R string `json:"r,omitempty"`
}

type afArgs struct {
	S string `json:"s,omitempty" bindguard:"alias=ss"`
	W afLeaf `json:"w,omitzero" bindguard:"alias=ww"`
}

// TestDecide_AliasAndFoldConflictWordsAsArgs: a parameter sent under its
// name, an alias and a key encoding/json folds to it is one alias
// conflict naming every key sent, and quoting the value Args (and the
// binder, reading the call as sent) read. The alias's conflict was worded
// alone, quoting the member sent under the name ("the tool reads "c"")
// where Args held the folded key's "b"; and for objects that merge, that
// the other values were dropped.
func TestDecide_AliasAndFoldConflictWordsAsArgs(t *testing.T) {
	reg := typereg.New(typereg.WithMode(typereg.Warn))
	if err := typereg.Register[afArgs](reg, "t"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, sent, becomes string }{
		{`{"ss":"a","s":"c","S":"b"}`, `"ss", "s", "S"`, `"b"`},
		{`{"ss":"a","s":null,"S":"b"}`, `"ss", "s", "S"`, `"b"`},
		{`{"s":"a","S":"b","ss":"c"}`, `"s", "ss", "S"`, `"b"`},
		{`{"w":{"a":1,"r":"x"},"ww":{"r":"zz"},"W":{"a":2}}`, `"w", "ww", "W"`, ``},
	} {
		d := refuse.Decide(reg, "t", []byte(tc.args))
		var read afArgs
		if err := json.Unmarshal(d.Args, &read); err != nil {
			t.Fatalf("%s: Args %s: %v", tc.args, d.Args, err)
		}
		var p *refuse.Problem
		for _, q := range problemsOf(d) {
			if q.Code == refuse.AliasConflict {
				p = &q
			}
		}
		switch {
		case p == nil:
			t.Errorf("%s: no alias_conflict: %v", tc.args, d.Warnings)
		case p.Sent != tc.sent || p.Becomes != tc.becomes:
			t.Errorf("%s: Sent %s, Becomes %s; want %s, %s (Args %s)", tc.args, p.Sent, p.Becomes, tc.sent, tc.becomes, d.Args)
		case tc.becomes == "" && strings.Contains(d.Warnings.String(), "dropped"):
			t.Errorf("%s: %s\nArgs %s merge the objects", tc.args, d.Warnings, d.Args)
		}
	}
}

// TestDecide_JoinedConflictCountsEachNameOnce: joined, an alias conflict
// and a fold conflict count each name sent once: nine spellings of an
// alias, the name and a case variant of it are eleven names, eight
// listed and "3 more". The name, counted by both, was counted twice
// ("4 more"; found by a review).
func TestDecide_JoinedConflictCountsEachNameOnce(t *testing.T) {
	type args struct {
		S int `json:"s,omitempty" bindguard:"alias=zz"`
	}
	reg := typereg.New()
	if err := typereg.Register[args](reg, "t"); err != nil {
		t.Fatal(err)
	}
	var parts []string
	for _, a := range []string{`zz`, `\u007az`, `\u007Az`, `z\u007a`, `z\u007A`, `\u007a\u007a`, `\u007a\u007A`, `\u007A\u007a`, `\u007A\u007A`} {
		parts = append(parts, `"`+a+`":1`)
	}
	d := refuse.Decide(reg, "t", []byte("{"+strings.Join(parts, ",")+`,"s":2,"S":3}`))
	ps := problemsOf(d)
	if len(ps) != 1 || ps[0].Code != refuse.AliasConflict || !strings.HasSuffix(ps[0].Sent, ", and 3 more") {
		t.Errorf("%+v, want one alias_conflict listing eight names and 3 more", ps)
	}
}
