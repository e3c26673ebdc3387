package bind_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segOwnArgs holds the types segmentio reads by rules of its own:
// json.Number (a JSON number only), json.RawMessage (any value, kept) and
// []byte (base64 in a string, or an array of bytes), alone, through a
// pointer, in lists and maps and nested.
type segOwnArgs struct {
	N  json.Number            `json:"n"`
	PN *json.Number           `json:"pn"`
	NL []json.Number          `json:"nl"`
	R  json.RawMessage        `json:"r"`
	RL []json.RawMessage      `json:"rl"`
	B  []byte                 `json:"b"`
	PB *[]byte                `json:"pb"`
	BL [][]byte               `json:"bl"`
	M  map[string]json.Number `json:"m"`
	In struct {
		B []byte      `json:"b"`
		N json.Number `json:"n"`
	} `json:"in"`
	X int `json:"x"`
}

// segOwnValues are values sent for them: what each reads, and what it
// fails on.
var segOwnValues = []string{
	`1`, `-1.5e3`, `0`, `1e400`, `123456789012345678901234567890`, `"1"`, `""`, `"x"`, `"YQ=="`, `"YQ"`, `"Y Q=="`, `"YQ==\n"`,
	`"\u0059Q=="`, `"YWJj"`, `"YWJ"`, `"!!!!"`, `"\ud800"`, "\"\xff\"", `"é"`, `true`, `null`, `[]`, `[1,2]`, `[256]`, `[-1]`,
	`[1.5]`, `[null,1]`, `["x"]`, `[[1]]`, `[true]`, `[21000000000000000000]`, `{}`, `{"a":1}`, `{"a":1,"a":2}`, "[\"\xff\"]",
	`"` + base64Of(100) + `"`, `"` + base64Of(100)[:99] + `"`,
}

func base64Of(n int) string {
	b, _ := json.Marshal(make([]byte, n))
	return string(b[1 : len(b)-1])
}

// TestNative_SegmentIOOwnTypes: the one pass gives the verdict of a
// json.Number's, a json.RawMessage's and a []byte's value, alone, with
// other arguments and after a failure, as the trial check does, issue
// for issue, inside an argument too (where base64's error, which names no
// path, the trial check places at the argument); it declines none.
func TestNative_SegmentIOOwnTypes(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[segOwnArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range segOwnValues {
		if v == "[\"\xff\"]" {
			continue // a string of the wrong kind with invalid UTF-8: the pass declines it for any integer
		}
		for _, name := range []string{"n", "pn", "r", "b", "pb"} {
			for _, args := range []string{`{"` + name + `":` + v + `}`, `{"x":"x","` + name + `":` + v + `,"zz":1}`, `{"` + name + `":` + v + `,"x":1.5}`} {
				checkProven(t, plan, []byte(args))
				if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok {
					t.Errorf("%.80s: the pass declines", args)
				}
			}
		}
		for _, args := range []string{`{"nl":[1,` + v + `]}`, `{"rl":[` + v + `]}`, `{"bl":[` + v + `,"YQ=="]}`, `{"m":{"a":` + v + `}}`, `{"in":{"b":` + v + `,"n":` + v + `}}`} {
			checkProven(t, plan, []byte(args))
			if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok {
				t.Errorf("%.80s: the pass declines", args)
			}
		}
	}
}
