package bind_test

import (
	"fmt"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// plainTagged is a tool whose members plainMembers and plainMapMembers
// read while validate tags watch them: on the parameters, on a nested
// struct's fields, on a map's values and on an interface's objects.
type plainTagged struct {
	Count  int                          `json:"count" validate:"min=1,max=100"`
	Window plainTaggedWindow            `json:"window"`
	Scores map[string]int               `json:"scores" validate:"max=4,dive,min=0,max=10"`
	Spans  map[string]plainTaggedWindow `json:"spans"`
	Anys   map[string]any               `json:"anys" validate:"max=3"`
	Tags   []string                     `json:"tags" validate:"dive,oneof=a b c"`
}

type plainTaggedWindow struct {
	From string `json:"from" validate:"required,len=3"`
	To   int    `json:"to" validate:"gte=0"`
}

var plainTaggedCalls = []string{
	`{"count":5,"window":{"from":"abc","to":1},"scores":{"a":1,"b":2},"spans":{"x":{"from":"xyz","to":0}},"anys":{"a":{"b":1,"c":[1]},"d":"e"},"tags":["a","b"]}`,
	`{"count":0,"window":{"from":"ab","to":-1},"scores":{"a":11,"b":-1,"a":2},"spans":{"x":{"from":"x"},"x":{"to":-2}},"anys":{"a":null,"a":{"b":{}}}}`,
	`{"scores":{"a":1,"b":2,"c":3,"d":4,"e":5},"window":{"to":1,"from":"abc"},"count":101}`,
	`{"count":5,"scores":{"\u0061":1,"a":12,"é":-3},"anys":{"é":{"x":1,"x":2}},"spans":{"é":{"from":"é12"}}}`,
}

// TestDecide_PlainMembersSameDecision: refuse.Decide's decision on a tool
// with validate tags is the same with plainMembers and plainMapMembers and
// without them (object's loop alone), on every binder: the refusal, its
// words, the warnings and the arguments handed on, for calls cut at every
// byte and with a quote, a colon or a letter put at every byte.
func TestDecide_PlainMembersSameDecision(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[plainTagged](reg, "tagged"); err != nil {
			t.Fatal(err)
		}
		decide := func(args []byte) string {
			d := refuse.Decide(reg, "tagged", args)
			return fmt.Sprintf("refusal %v\nwarnings %v\nargs %q\n%+v", d.Refusal, d.Warnings, d.Args, d.Refusal)
		}
		for _, call := range plainTaggedCalls {
			for at := range len(call) + 1 {
				variants := []string{call[:at]}
				if at < len(call) {
					for _, put := range []string{`"`, `:`, `x`} {
						variants = append(variants, call[:at]+put+call[at+1:])
					}
				}
				for _, args := range variants {
					fast := decide([]byte(args))
					var slow string
					bind.WithoutPlainMembers(func() { slow = decide([]byte(args)) })
					if fast != slow {
						t.Fatalf("%s %q:\n%s\nwithout plainMembers\n%s", b.Name(), args, fast, slow)
					}
				}
			}
		}
	}
}
