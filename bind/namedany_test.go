package bind_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// Empty interfaces of a name of their own under V2 and SegmentIO: each
// binder reads one as any (see bind/textkeys.go), and so does the pass.

// namedAnyArgs holds a named empty interface at every kind of position,
// each beside an any at the same one, under a key of the same length.
type namedAnyArgs struct {
	NN namedAny            `json:"nn"`
	AA any                 `json:"aa"`
	LN []namedAny          `json:"ln"`
	LA []any               `json:"la"`
	MN map[string]namedAny `json:"mn"`
	MA map[string]any      `json:"ma"`
	PN *namedAny           `json:"pn"`
	PA *any                `json:"pa"`
	SN struct {
		V namedAny `json:"v"`
	} `json:"sn"`
	SA struct {
		V any `json:"v"`
	} `json:"sa"`
}

// namedAnyValues are values for them: clean, with losses, and failing,
// each binder's way.
var namedAnyValues = []string{
	`1`, `null`, `"x"`, `true`, `{}`, `[]`, `-0`, `1.5e3`,
	`1e400`, `-1e400`, `1e-400`, `9007199254740993`,
	`{"a":1,"a":2}`, `{"a":1,"b":{"c":1,"c":2}}`, `[1,{"a":1,"a":2}]`,
	`"\ud800"`, "\"\xff\"", `{"\ud800":1}`, `{"a":"\ud800"}`, `"\u00e9"`,
	`{"a":1e400}`, `[1e400]`, `{"a":[1,1e400]}`, `[9007199254740993,"\ud800"]`,
	`{"a":1,"A":2}`, `{"a.b":1e400}`, `{"":[1e400]}`,
}

// TestNamedAny_ReadAsAny: for every value, at every position, on each
// binder, the pass reads the named interface as any at the same position:
// it declines the call where it declines any's (odd keys under segmentio,
// text it replaces), and gives otherwise the verdict of any's, but for
// the parameter and the declared type, which is the trial check's
// (checkProven, which also holds it to the binder's failing); and where
// the binder reads the call, it decodes the same value into either.
func TestNamedAny_ReadAsAny(t *testing.T) {
	positions := [][2]string{{"nn", "aa"}, {"ln", "la"}, {"mn", "ma"}, {"pn", "pa"}, {"sn", "sa"}}
	wrap := func(key, v string) string {
		switch key[0] {
		case 'l':
			return `{"` + key + `":[` + v + `]}`
		case 'm':
			return `{"` + key + `":{"k":` + v + `}}`
		case 's':
			return `{"` + key + `":{"v":` + v + `}}`
		}
		return `{"` + key + `":` + v + `}`
	}
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[namedAnyArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, pos := range positions {
			for _, v := range namedAnyValues {
				named, plain := []byte(wrap(pos[0], v)), []byte(wrap(pos[1], v))
				checkProven(t, plan, named)
				checkProven(t, plan, plain)
				is, _, ok := bind.NativeVerdict(plan, named)
				want, _, wantOK := bind.NativeVerdict(plan, plain)
				if ok != wantOK {
					trial, _ := bind.TrialVerdict(plan, named)
					t.Errorf("%s %s: the pass declines: %v, for any: %v; the trial check says %s", b.Name(), named, !ok, !wantOK, brief(trial))
				}
				if got, w := asAny(is), asAny(want); ok && got != w {
					t.Errorf("%s %s: the pass says %s, of any %s", b.Name(), named, got, w)
				}
				var n, a namedAnyArgs
				errN, errA := b.Unmarshal(named, &n), b.Unmarshal(plain, &a)
				if (errN != nil) != (errA != nil) {
					t.Errorf("%s %s: the binder's error %v, of any %v", b.Name(), named, errN, errA)
				}
				if errN == nil && !reflect.DeepEqual(namedValue(n, pos[0]), namedValue(a, pos[1])) {
					t.Errorf("%s %s: the binder reads %#v, of any %#v", b.Name(), named, namedValue(n, pos[0]), namedValue(a, pos[1]))
				}
			}
		}
	}
}

// asAny writes issues as verdictOf does, with their spans, in the terms
// of any: the declared type named, the parameter left out.
func asAny(issues []bind.Issue) string {
	var parts []string
	for _, is := range issues {
		typ := ""
		if is.Type != nil {
			typ = strings.ReplaceAll(is.Type.String(), "bind_test.namedAny", "interface {}")
		}
		parts = append(parts, string(is.Kind)+" "+is.Path.String()+" "+typ+" "+strings.Repeat("+", is.End-is.Start))
	}
	return strings.Join(parts, "; ")
}

// namedValue is the value the binder put at the position key names, as
// an any.
func namedValue(v namedAnyArgs, key string) any {
	switch key {
	case "nn":
		return v.NN
	case "aa":
		return v.AA
	case "ln":
		if v.LN == nil {
			return []any(nil)
		}
		out := []any{}
		for _, e := range v.LN {
			out = append(out, any(e))
		}
		return out
	case "la":
		return v.LA
	case "mn":
		if v.MN == nil {
			return map[string]any(nil)
		}
		out := map[string]any{}
		for k, e := range v.MN {
			out[k] = e
		}
		return out
	case "ma":
		return v.MA
	case "pn":
		if v.PN == nil {
			return nil
		}
		return *v.PN
	case "pa":
		if v.PA == nil {
			return nil
		}
		return *v.PA
	case "sn":
		return v.SN.V
	}
	return v.SA.V
}

// TestNamedAny_RepeatBeside: under segmentio, a call that meets a named
// empty interface and sends another key again is the pass's to decide, as
// the trial check decides it: only a field that may hold one, sent again,
// is decoded into what the value before left (nativeDeclines holds one).
func TestNamedAny_RepeatBeside(t *testing.T) {
	plan, err := segmentio.Binder.Compile(nativeFixed[6])
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"na":null,"s":1,"s":""}`,
		`{"na":1,"s":"a","s":"b"}`,
		`{"na":{"a":1},"mc":{"a":"x","a":"y"}}`,
		`{"s":"a","na":[1,{"b":2}],"s":"b","q":"x"}`,
	} {
		decidedProven(t, plan, []byte(args))
	}
}

// TestNamedAny_NoNameUnderV2: V2 reads an object into a named empty
// interface member by member, as into a map (into any, whole): where an
// object stands at a member's name, V2 skips it first, and its error is a
// name repeated in it where the skip finds one, else the missing name. The
// pass gives that verdict, the repeated name included, at every position
// of one (checkProven), and the inner objects are any's. FuzzNative found
// the pass reading the named interface's object as any's
// (f3ee4c2ff2ea78ae): each row but the last two failed so before.
func TestNamedAny_NoNameUnderV2(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[namedAnyArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{
		`{"nn":{{"a":0,"a":1}}}`, `{"nn":{"x":1,{"a":0,"a":1}}}`, `{"nn":{{"":0,""`,
		`{"ln":[{{"a":0,"a":1}}]}`, `{"mn":{"k":{{"a":0,"a":1}}}}`, `{"pn":{{"a":0,"a":1}}}`, `{"sn":{"v":{{"a":0,"a":1}}}}`,
		`{"nn":{{"a":0}}}`, `{"nn":{"k":{{"a":0,"a":1}}}}`,
	} {
		t.Run(args, func(t *testing.T) { checkProven(t, plan, []byte(args)) })
	}
}
