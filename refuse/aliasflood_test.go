package refuse_test

import (
	"strconv"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// TestDecide_AliasFlood_SameAtEveryBound: a call that sends a parameter
// under its alias is read as the parameter's, however many unknown keys
// it holds, and its problems are counted exactly. Under V2, with a
// failure in no argument (a name sent twice, a key of invalid UTF-8) the
// call was read as sent below 1,001 keys (missing_argument for n, which
// the alias sent) and as renamed past it: the check of the renamed call
// took V2's failure, listed last, for text that is not JSON, unless a
// count of the unknown keys past bind.MaxIssues came after it. Read as
// sent (an alias member that the renaming would leave out holds a
// failure), the alias counted as an unknown key wherever the refusal
// counted the keys it did not list: More was 1 too many.
func TestDecide_AliasFlood_SameAtEveryBound(t *testing.T) {
	type args struct {
		N int `json:"n" bindguard:"alias=nn"`
		M int `json:"m,omitempty"`
	}
	for _, b := range allBinders {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[args](reg, "t"); err != nil {
			t.Fatal(err)
		}
		v2 := 0 // V2 fails on "z" sent twice, on the key of invalid UTF-8
		if b.Name() == "v2" {
			v2 = 1
		}
		decide := func(args []byte) refuse.Decision { return refuse.Decide(reg, "t", args) }
		around := func(head, tail string) func(n int) string {
			return func(n int) string {
				s := `{` + head + `,` + floodKeys(n)
				if tail != "" {
					s += `,` + tail
				}
				return s + `}`
			}
		}
		for _, c := range []struct {
			name     string
			call     func(n int) string
			problems func(n int) int
			flood    []refuse.Code // codes the flood makes, besides unknown_argument
		}{
			// "z", sent twice, is an unknown key, and under V2 a duplicate_name
			{"a name sent twice, the alias", around(`"z":1,"z":2,"nn":1`, ""), func(n int) int { return n + 1 + v2 }, nil},
			{"the alias, a name sent twice", around(`"nn":1,"z":1,"z":2`, ""), func(n int) int { return n + 1 + v2 }, nil},
			{"the alias after the flood", around(`"z":1,"z":2`, `"nn":1`), func(n int) int { return n + 1 + v2 }, nil},
			// "\xff" is an unknown key, and under V2 an invalid_json
			{"a key of invalid UTF-8, the alias", around("\"\xff\":1,\"nn\":1", ""), func(n int) int { return n + 1 + v2 }, nil},
			{"the alias, a key of invalid UTF-8", around("\"nn\":1,  \"\xff\":1", ""), func(n int) int { return n + 1 + v2 }, nil},
			// Read as sent under V2: the alias's member, which the
			// renaming leaves out, fails (a name twice inside it). Else an
			// alias_conflict.
			{"an alias member that fails", around(`"n":1,"nn":{"a":1,"a":2}`, ""), func(n int) int { return n + 1 }, nil},
			// An alias_conflict beside n names sent twice, each an unknown
			// key and under V2 a duplicate_name: past bind.MaxIssues of
			// them, V2's are counted, in no argument, and the call was
			// read as sent, its alias an unknown key. (Under V2 the
			// refusal lists the duplicate_name problems first: the
			// alias_conflict is one of the counted past a hundred.)
			{"a conflict beside names sent twice", func(n int) string {
				return `{"n":1,"nn":2,` + seq(n, func(i int) string { return `"r` + strconv.Itoa(i) + `":1,"r` + strconv.Itoa(i) + `":2` }) + `}`
			}, func(n int) int { return 1 + n + v2*n }, []refuse.Code{refuse.DuplicateName, refuse.AliasConflict}},
		} {
			checkFloodSizes(t, b.Name()+", "+c.name, decide, c.call, c.problems, c.flood...)
		}
	}
}

// TestDecide_AliasRenamed_FailureAtTheByteSent: a call renamed (an alias
// to its parameter's name) that the binder fails on as text not valid
// (V2: invalid UTF-8 in a key) is refused at the byte as the call sent
// it, not as renamed: "byte 8" for the byte at 11 below.
func TestDecide_AliasRenamed_FailureAtTheByteSent(t *testing.T) {
	type args struct {
		N int `json:"n" bindguard:"alias=nn"`
	}
	for _, b := range allBinders {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[args](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, n := range floodSizes {
			call := "{\"nn\":1,  \"\xff\":1," + floodKeys(n) + "}"
			for _, p := range problemsOf(refuse.Decide(reg, "t", []byte(call))) {
				if p.Code == refuse.InvalidJSON && p.Sent != `byte 11 ("\xff") cannot stand there` {
					t.Errorf("%s, %d: invalid_json %s, want at byte 11", b.Name(), n, p.Sent)
				}
			}
		}
	}
}
