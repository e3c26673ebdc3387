package refuse_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// FuzzRefuse_NamesOnlyTheBadArgument: a call sends a fuzzed value for one
// probe parameter beside a good value for another, under each binder.
// Refuse refuses exactly when the binder fails on the call, and no problem
// it lists names the good argument.
func FuzzRefuse_NamesOnlyTheBadArgument(f *testing.F) {
	binders := []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder}
	regs := make([]*typereg.Registry, len(binders))
	for i, b := range binders {
		// Warn: the property is the binder's verdict; the policies' own
		// problems (an unknown field, a silent loss) are warnings there.
		regs[i] = typereg.New(typereg.WithBinder(b), typereg.WithMode(typereg.Warn))
		if err := typereg.Register[probe.Args](regs[i], probe.Tool); err != nil {
			f.Fatal(err)
		}
	}
	tool, _ := regs[0].Tool(probe.Tool)
	names := tool.Accepted()
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	for _, row := range bindtest.Default() {
		for i, p := range tool.Params() {
			if typeMatches(p, row.Type) {
				f.Add(uint8(i), []byte(row.Value), uint8(0))
				break
			}
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, value []byte, binder uint8) {
		b, reg := binders[int(binder)%len(binders)], regs[int(binder)%len(binders)]
		if !json.Valid(value) {
			return // not one value: it could add keys of its own ("0,\"k\":1")
		}
		bad := names[int(which)%len(names)]
		good := "string"
		if bad == good {
			good = "int"
		}
		goodValue := map[string]string{"string": `"fine"`, "int": `7`}[good]
		args := []byte(`{"` + bad + `":` + string(value) + `,"` + good + `":` + goodValue + `}`)
		berr := b.Unmarshal(args, new(probe.Args))
		r := refuse.Refuse(reg, probe.Tool, args)
		if (r != nil) != (berr != nil) {
			t.Fatalf("%s: %s says %v, Refuse says %v", args, b.Name(), berr, r)
		}
		if r == nil {
			return
		}
		for _, p := range r.Problems {
			if p.Argument == good {
				t.Fatalf("%s: the refusal names the good argument %q: %v", args, good, r)
			}
			// Every pointer leads, in the call sent, to the value quoted.
			if p.Pointer != "" {
				if !strings.HasPrefix(p.Pointer, "/"+bad) {
					t.Fatalf("%s: the pointer %q is not in the bad argument", args, p.Pointer)
				}
				checkPointerIn(t, string(args), string(args), p, false)
			} else if p.Path != "" && !strings.Contains(p.Path, "…") {
				t.Fatalf("%s: %s at %s%s: no pointer", args, p.Code, p.Argument, p.Path)
			}
		}
	})
}

// typeMatches reports whether row type name names p's type, by the Go
// type's own spelling less the probe package's qualifier.
func typeMatches(p typereg.Param, name string) bool {
	s := strings.ReplaceAll(p.Type.String(), "probe.", "")
	switch name {
	case "any":
		name = "interface {}"
	case "[]byte":
		name = "[]uint8"
	}
	return s == name
}
