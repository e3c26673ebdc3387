package refuse

import (
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/constraint"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/typereg"
)

// The tests of a call that uses an alias, read once as renamed
// (decideStruct's once): its decision is the one of reading it as sent,
// renaming it and reading it again, for every binder, mode and shape.

type aliasOnceArgs struct {
	Counts map[string]int `json:"counts"`
	Name   string         `json:"name" validate:"omitempty,max=8"`
	Limit  int            `json:"limit"`
}

// aliasOptArgs are aliasOnceArgs with every parameter optional, and a
// nested struct, so that many more calls are clean.
type aliasOptArgs struct {
	Counts map[string]int `json:"counts,omitempty"`
	Name   *string        `json:"name,omitempty" validate:"omitempty,max=8"`
	Limit  int            `json:"limit,omitempty" validate:"omitempty,min=1"`
	Inner  *struct {
		X int    `json:"x"`
		Y string `json:"y,omitempty"`
	} `json:"inner,omitempty"`
}

// aliasOnceTools returns, per binder and mode, the tool "t" with aliases
// "tallies" and "cnt" for counts and "nm" for name, of aliasOnceArgs and
// (named "opt/...") of aliasOptArgs, whose "in" is an alias of inner too.
func aliasOnceTools(tb testing.TB) map[string]*typereg.Tool {
	tools := map[string]*typereg.Tool{}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
			aliases := []typereg.Option{typereg.WithMode(mode),
				typereg.WithAlias("tallies", "counts"), typereg.WithAlias("cnt", "counts"), typereg.WithAlias("nm", "name")}
			reg := typereg.New(typereg.WithBinder(b))
			if err := typereg.Register[aliasOnceArgs](reg, "t", aliases...); err != nil {
				tb.Fatal(err)
			}
			t, _ := reg.Tool("t")
			tools[b.Name()+"/"+mode.String()] = t
			reg = typereg.New(typereg.WithBinder(b))
			if err := typereg.Register[aliasOptArgs](reg, "t", append(aliases, typereg.WithAlias("in", "inner"))...); err != nil {
				tb.Fatal(err)
			}
			t, _ = reg.Tool("t")
			tools["opt/"+b.Name()+"/"+mode.String()] = t
		}
	}
	return tools
}

var aliasOnceCalls = []string{
	`{"tallies":{"a":1}}`,
	`{"tallies":{"a":1},"name":"x"}`,
	`{"limit":2,"nm":"abc"}`,
	`{"nm":"far too long a name"}`,
	`{"tallies":{"a":1},"counts":{"b":2}}`,
	`{"counts":{"b":2},"tallies":{"a":1,"a":2}}`,
	`{"counts":{},"cnt":"\xff"}`,
	`{"tallies":{"a":1},"cnt":{"b":2}}`,
	`{"counts":{"b":2},"tallies":{"a":"x"}}`,
	`{"t\u0061llies":{"a":1}}`,
	`{"tallies":{"a":"one"}}`,
	`{"tallies":{"a":1.5},"limit":"x"}`,
	`{"tallies":{"a":1}`,
	`{"tallies":{"a":1}} x`,
	`{"tallies":{"a":1},}`,
	`{"tallies":{"a":1},"limit":01}`,
	`{"tallies":{"a":1,"a":2}}`,
	`{"tallies":1,"other":{"k":1,"k":2}}`,
	`{"tallies":{"a":1},"other":"\xff"}`,
	`{"zz":{"k":[1,{"x":1,"x":2}]},"cnt":{}}`,
	`{"tallies":{"a":1},"NAME":"x","name":"y"}`,
	`{"tallies":{"a":1},"unknown":1,"unknown":2}`,
	`{"tallies":null}`,
	`{"tallies":{"a":1},"tallies":{"b":2}}`,
	`{"nm":"a","nm":"b"}`,
	`  {"tallies" : { "a" : 1 } , "limit" : 3 }  `,
	`{"tallies":` + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + `}`,
	`{"tallies":{"a":1},"deep":` + strings.Repeat("[", 10001) + strings.Repeat("]", 10001) + `}`,
	`{"tallies":{"a":1},` + strings.Repeat(`"u":1,`, 1100) + `"limit":1}`,
}

func decisionsAgree(t *testing.T, tools map[string]*typereg.Tool, args []byte) {
	t.Helper()
	for name, tool := range tools {
		once, twice := decideStruct(tool, args, true), decideStruct(tool, args, false)
		if !reflect.DeepEqual(once, twice) {
			t.Errorf("%s: %q:\nread once:  %+v %+v %q\nread twice: %+v %+v %q", name, args, once.Refusal, once.Warnings, once.Args, twice.Refusal, twice.Warnings, twice.Args)
		}
	}
}

// TestDecide_AliasReadOnce_SameDecision: every shape of call with an
// alias (renamed alone, beside its parameter's name or another alias,
// escaped, with a value the binder fails on, broken after it, nested past
// the binder's limit, beside V2's repeated names and invalid text, past
// the members a pass records) gets the decision of the call read as sent
// first.
func TestDecide_AliasReadOnce_SameDecision(t *testing.T) {
	tools := aliasOnceTools(t)
	for _, c := range aliasOnceCalls {
		decisionsAgree(t, tools, []byte(c))
	}
}

// FuzzDecide_AliasReadOnce_SameDecision is
// TestDecide_AliasReadOnce_SameDecision on any text.
func FuzzDecide_AliasReadOnce_SameDecision(f *testing.F) {
	for _, c := range append(aliasOnceCalls, aliasBoundCalls...) {
		if len(c) < 1000 {
			f.Add([]byte(c))
		}
	}
	tools := aliasOnceTools(f)
	f.Fuzz(func(t *testing.T, args []byte) {
		decisionsAgree(t, tools, args)
	})
}

// aliasBoundCalls are clean calls of every tool of aliasOnceTools that send
// an alias plain.
var aliasBoundCalls = []string{
	`{"tallies":{"a":1},"name":"x","limit":1}`,
	`{"limit":2,"nm":"abc","counts":{}}`,
	`  {"tallies" : { "a" : 1 } , "limit" : 3 ,"nm" :"" }  `,
	`{"cnt":{"b":2},"nm":"ok","limit":1}`,
	`{"nm":"","tallies":{"x":-1,"y":2},"limit":1}`,
	`{"nm":"12345678","cnt":{},"limit":7}`,
}

// TestDecide_AliasBoundInThePass: a clean call that sends an alias plain
// is read once: the pass binds the alias to its parameter, as the renamed
// call reads it, and the call is renamed from the members it recorded,
// allocating the renamed arguments and nothing else. The decision is the
// one of reading it as sent, renaming it and reading it again.
func TestDecide_AliasBoundInThePass(t *testing.T) {
	tools := aliasOnceTools(t)
	inner := checkConstrained
	defer func() { checkConstrained = inner }()
	passes := 0
	checkConstrained = func(p *bind.Plan, args []byte, is []bind.Issue, cs *constraint.Tool, top bindcap.TopKeys, ms *bindcap.Members) []bind.Issue {
		passes++
		return inner(p, args, is, cs, top, ms)
	}
	for _, c := range aliasBoundCalls {
		for name, tool := range tools {
			passes = 0
			once := decideStruct(tool, []byte(c), true)
			if passes != 1 {
				t.Errorf("%s: %q: read %d times, want once", name, c, passes)
			}
			if once.Refusal != nil || once.Warnings != nil {
				t.Errorf("%s: %q: %v %v, want a clean call", name, c, once.Refusal, once.Warnings)
			}
			args := []byte(c)
			if n := testing.AllocsPerRun(10, func() { decideStruct(tool, args, true) }); n > 1 {
				t.Errorf("%s: %q: %v allocations, want 1 at most (the renamed arguments)", name, c, n)
			}
			if twice := decideStruct(tool, []byte(c), false); !reflect.DeepEqual(once, twice) {
				t.Errorf("%s: %q:\nread once:  %+v %+v %q\nread twice: %+v %+v %q", name, c, once.Refusal, once.Warnings, once.Args, twice.Refusal, twice.Warnings, twice.Args)
			}
		}
	}
}
