package bind_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/bindcap"
)

// v2CutVerdicts are calls whose text is not JSON (or nests past V2's
// limit) where V2 may meet a repeated name first: V2 reads the text in
// order and stops at its first error, a repeated name, a value that does
// not fit, or the text itself. The verdict is the one issue at the first
// byte that makes the text invalid; its Err is V2's repeated name (dup),
// which refuse words as one, when V2 meets the repeat before anything
// else fails. The pass decides each row (the fixed shape's index, in
// nativeFixed).
var v2CutVerdicts = []struct {
	fixed int
	args  string
	dup   bool
}{
	// a parameter sent again, its value or its colon cut
	{0, `{"count":1,"count":`, true},
	{0, `{"count":1,"count"`, true},
	{0, `{"count":1,"count"  `, true},
	{0, `{"count":1,"count":2,}`, true},
	{0, `{"count":1,"count":2 "x":1}`, true},
	{0, `{"\u0063ount":1,"count":`, true},
	{1, `{"hours_back":1,"HOURS_BACK":[`, true}, // a fold V2 binds to the field set before
	{1, `{"n":{"x":1},"n":{"x":`, true},         // the parameter's name first, then its value
	{1, `{"i":1,"i":{"q":1,"q":`, true},
	// a dropped key sent again
	{0, `{"zz":1,"zz":"`, true},
	{0, `{"zz":1,"yy":2,"zz"`, true},
	{0, `{"z\u007a":1,"zz":`, true}, // told by its text
	{0, `{"zz":{"k":1,"k":2},"zz":`, true},
	// names repeated inside a value
	{1, `{"n":{"x":1,"x":[`, true},
	{1, `{"n":{"x":1,"x"`, true},
	{1, `{"n":{"x":1,"in":{"x":1},"x"`, true},
	{1, `{"n":{"zz":1,"zz":`, true},
	{1, `{"a":{"k":1,"k":{`, true},
	{1, `{"a":{"k":1,"k"`, true},
	{1, `{"a":[{"k":1,"k":2}],"i"`, true},
	{1, `{"m":{"k":1,"k":`, true},
	{1, `{"sl":[{"q":1,"q":2}],"i":`, true}, // V2 reads an object for a string whole, then fails
	{1, `{"arr":[1,2,3,{"k":1,"k"`, true},   // V2 skips a fixed array's extra elements, validating them, before it fails on the length
	{1, `{"arr":[1,{"k":1,"k"`, true},
	{1, `{"deep":[[],[{"k":1,"k"`, true},
	// an array or object where V2 wants a name: it reads the value whole
	{1, `{{"k":0,"k"`, true},
	{1, `{[{"k":0,"k":1}]`, true},
	{1, `{"n":{[{"k":1,"k":2}]`, true},
	{1, `{{"k":0`, false},
	{0, `{{{"":0,""`, false},       // inside it, V2 fails at once where a name is none
	{8, `{"":{{"k":0,"k"0`, false}, // so it does in a value it skips
	{1, `{"i":{{"k":0,"k"`, false}, // and in one it reads whole (the wrong kind)
	{1, `{"a":{{"k":0,"k"`, false}, // and in an interface's value
	{1, `{"a":{"b":{{"k":0,"k"`, false},
	{1, `{"m":{{"k":0,"k"`, true},
	{1, `{"n":{"in":{{"k":0,"k"`, true},
	// nested past V2's limit after a repeat
	{0, `{"count":1,"count":2,"zz":` + strings.Repeat("[", 10001), true},
	// something else fails first: V2's error is that
	{1, `{"i":"x","i":`, false},
	{1, `{"i":"x","n":{"x":1,"x":`, false},
	{1, `{"n":{"x":"s","x":`, false},
	{1, `{"b":{"q":1,"q":2},"i":`, false}, // V2 fails on a bool's first token
	{0, "{\"zz\":\"\xff\",\"zz\":", false},
	{0, "{\"\xff\":1,\"count\":1,\"count\":", false},
	{1, `[{"k":1,"k":`, false}, // not an object: V2 fails at the bracket
	{6, `{"mi":{"x":{"q":1,"q":`, false},
	{6, `{"d":{"k":0,"k"`, false}, // a Duration with no format: V2 fails before it reads the value
	{0, `{"count":1,"count":2,"zz":` + strings.Repeat("[", 10001) + "]", true},
	{0, `{"count":1,"tags":[` + strings.Repeat("[", 10001), false},
}

// TestV2Cut_Verdicts: the pass decides each row, as the trial check does
// (checkProven), with the one issue; V2's own error is a repeated name
// exactly when the row says, and so is the verdict's.
func TestV2Cut_Verdicts(t *testing.T) {
	for _, r := range v2CutVerdicts {
		plan, err := jsonv2.Binder.Compile(nativeFixed[r.fixed])
		if err != nil {
			t.Fatal(err)
		}
		args := []byte(r.args)
		uerr := jsonv2.Binder.Unmarshal(args, reflect.New(plan.Type()).Interface())
		if _, _, dup := bindcap.DuplicateName(jsonv2.Binder, uerr); dup != r.dup {
			t.Errorf("%.60q: V2's error %v: a repeated name: %v, the row says %v", r.args, uerr, dup, r.dup)
		}
		issues, ok := decidedProven(t, plan, args)
		if !ok {
			continue
		}
		if len(issues) != 1 {
			t.Errorf("%.60q: %d issues, want 1: %s", r.args, len(issues), brief(issues))
			continue
		}
		if _, _, dup := bindcap.DuplicateName(jsonv2.Binder, issues[0].Err); dup != r.dup {
			t.Errorf("%.60q: the verdict's Err %v: a repeated name: %v, want %v", r.args, issues[0].Err, dup, r.dup)
		}
	}
}

// segCutDeep are calls under segmentio whose text is not JSON and nests
// past go-sdk's limit after the first bad byte: go-sdk refuses the depth
// before segmentio reads a byte, so the verdict is TooDeep, at the first
// bracket past the limit, in the argument whose value holds it (at the
// value) or in none. The pass decides each (it declined them all).
var segCutDeep = []struct {
	fixed int
	args  string
	param string // the argument, "" for none
}{
	{0, `{"zz":1,` + strings.Repeat("[", 1001), ""},
	{0, `{"zz":1 ` + strings.Repeat("[", 1001), ""},
	{0, `{"count":1,"tags":["a" ` + strings.Repeat("[", 1001), "tags"},
	{0, `{"count":1,"tags":[x` + strings.Repeat("[", 1001), "tags"},
	{0, `{"zz":[x` + strings.Repeat("[", 1001), ""},
	{0, `{"count":1x` + strings.Repeat("[", 1001), ""},
	{0, `{"count"` + strings.Repeat("[", 1001), ""},
	{1, `{"a":{"k":1 ` + strings.Repeat("{\"k\":", 1001), "a"},
	{1, `{"n":{"x":1,"x"` + strings.Repeat("[", 1001), "n"},
	{1, `{"i":1,` + strings.Repeat("[", 999) + `x` + strings.Repeat("[", 1001), ""},
	{1, `[1,x` + strings.Repeat("[", 1001), ""},
}

// TestSegCutDeep_Verdicts: the pass decides each row with the one TooDeep
// issue, as the trial check does (checkProven), in the row's argument.
func TestSegCutDeep_Verdicts(t *testing.T) {
	for _, r := range segCutDeep {
		plan, err := segmentio.Binder.Compile(nativeFixed[r.fixed])
		if err != nil {
			t.Fatal(err)
		}
		issues, ok := decidedProven(t, plan, []byte(r.args))
		if !ok {
			continue
		}
		if len(issues) != 1 || issues[0].Kind != bind.TooDeep {
			t.Errorf("%.60q: %s, want one too_deep", r.args, brief(issues))
			continue
		}
		param := ""
		if i := issues[0].Param; i >= 0 {
			param = plan.Params()[i].Name
		}
		if param != r.param {
			t.Errorf("%.60q: in argument %q, want %q", r.args, param, r.param)
		}
	}
}
