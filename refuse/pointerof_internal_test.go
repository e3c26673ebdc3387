package refuse

import (
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/typereg"
)

// pointerArgs has names a JSON Pointer escapes, one a path cuts, one past
// ASCII, one JSON escapes, and a folded one.
type pointerArgs struct {
	Plain int            `json:"plain"`
	Slash int            `json:"a/b"`
	Tilde int            `json:"t~1"`
	Long  int            `json:"a_parameter_name_longer_than_forty_characters_long"`
	Accnt int            `json:"café"`
	Amp   int            `json:"x<&>y"`
	List  []int          `json:"list"`
	Obj   map[string]int `json:"obj"`
}

// TestPointerOf_AsThePathGivesIt: the pointer a problem carries, taken
// from the tool's own where the argument is sent under its name as it is,
// is the one the issue's path renders, for every issue of calls that send
// each argument plainly, escaped, folded, repeated and inside a list, on
// every binder.
func TestPointerOf_AsThePathGivesIt(t *testing.T) {
	keys := []string{`"plain"`, `"a/b"`, `"t~1"`, `"a_parameter_name_longer_than_forty_characters_long"`, `"café"`, `"x<&>y"`, `"pl\u0061in"`, `"Plain"`, `"a\/b"`}
	values := []string{`"x"`, `1.5`, `null`, `true`, `[1,"x"]`, `{"k":"x"}`}
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder, jsonv2.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[pointerArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		tool, _ := reg.Tool("t")
		checked := 0
		for i, k := range keys {
			for j, v := range values {
				args := []byte("{" + k + ":" + v + `,"list":[1,"x"],"obj":{"a":"x"},` + keys[(i+j)%len(keys)] + ":" + v + "}")
				issues, ms := checkMembers(tool.Plan(), args, nil)
				p := newProblems(tool, args)
				p.ms = &ms
				for _, is := range issues {
					if is.Param < 0 {
						continue
					}
					checked++
					if got, want := p.pointerOf(is, is.Path.String()), is.Path.Pointer(); got != want {
						t.Fatalf("%s %s: %s issue's pointer %q, its path's %q", b.Name(), args, is.Kind, got, want)
					}
				}
				ms.Release()
			}
		}
		if checked < 100 {
			t.Errorf("%s: %d issues checked", b.Name(), checked)
		}
	}
	if !strings.HasPrefix(derivedOf(mustTool(t)).Pointers[1], "/a~1b") {
		t.Errorf("the pointer of a/b: %q", derivedOf(mustTool(t)).Pointers[1])
	}
}

func mustTool(t *testing.T) *typereg.Tool {
	reg := typereg.New()
	if err := typereg.Register[pointerArgs](reg, "t"); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool("t")
	return tool
}
