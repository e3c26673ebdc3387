package refuse_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type foldHours struct {
	Hours int `json:"hours" validate:"max=168" bindguard:"alias=hrs"`
	Limit int `json:"limit,omitempty"`
}

// A parameter sent under its name (or an alias) and a key the binder folds
// to it: the arguments the handler gets hold one member for it, the one
// the binder keeps, under its name, so that every view of them (the
// struct, the raw JSON, a map of it) holds the value checked; the call is
// an alias conflict (refused under Reject, a warning under Warn) that says
// which value the tool reads.
func TestDecide_ParamUnderNameAndCaseVariant_ArgsHoldOnlyTheValueChecked(t *testing.T) {
	for _, tc := range []struct {
		args string
		kept string // the value the binder keeps
	}{
		{`{"hours":500,"HOURS":5}`, "5"},
		{`{"HOURS":5,"hours":500}`, "500"},
		{`{"hrs":500,"HOURS":5}`, "5"},
		{`{"Hours":500,"HOURS":5,"limit":1}`, "5"},
		{`{"hours":5,"HOURS":500}`, "500"},
	} {
		for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
			reg := typereg.New(typereg.WithBinder(bind.Std), typereg.WithMode(mode))
			if err := typereg.Register[foldHours](reg, "t"); err != nil {
				t.Fatal(err)
			}
			d := refuse.Decide(reg, "t", []byte(tc.args))
			var ps []refuse.Problem
			if mode == typereg.Reject {
				if d.Refusal == nil {
					t.Errorf("%s under Reject: not refused", tc.args)
					continue
				}
				ps = d.Refusal.Problems
			} else {
				if d.Refusal != nil || d.Warnings == nil {
					t.Errorf("%s under Warn: want warnings, got %+v", tc.args, d)
					continue
				}
				ps = d.Warnings.Problems
				var m map[string]any
				if err := json.Unmarshal(d.Args, &m); err != nil {
					t.Fatal(err)
				}
				for k, v := range m {
					if strings.EqualFold(k, "hours") && (k != "hours" || json.Number(tc.kept) != json.Number(fmtNum(v))) {
						t.Errorf("%s under Warn: the arguments %s hold %q: %v", tc.args, d.Args, k, v)
					}
				}
			}
			var conflict *refuse.Problem
			for i := range ps {
				if ps[i].Code == refuse.AliasConflict {
					conflict = &ps[i]
				}
			}
			if conflict == nil || conflict.Becomes != tc.kept {
				t.Errorf("%s: problems %+v, want an alias conflict keeping %s", tc.args, ps, tc.kept)
			}
		}
	}
}

func fmtNum(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

type longName struct {
	V int `json:"abcdefghijklmnopq" bindguard:"alias=old"`
}

// spellings is a call sending parameter abcdefghijklmnopq n times, each in
// another case (and, with alias, the alias old escaped n ways first).
func spellings(n int, alias bool) []byte {
	var b strings.Builder
	b.WriteString("{")
	name := "abcdefghijklmnopq"
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		if alias && i%2 == 0 {
			// "old", its letters escaped by the bits of i
			b.WriteString(`"`)
			for j, c := range "old" {
				if i>>(j+1)&1 == 1 {
					b.WriteString(`\u00` + strconv.FormatInt(int64(c), 16))
				} else {
					b.WriteRune(c)
				}
			}
			b.WriteString(`":1`)
			continue
		}
		key := []byte(name)
		for j := range key {
			if i>>j&1 == 1 {
				key[j] -= 'a' - 'A'
			}
		}
		b.WriteString(`"` + string(key) + `":1`)
	}
	b.WriteString("}")
	return []byte(b.String())
}

// A parameter sent under many spellings (case variants; escaped spellings
// of an alias): the conflict lists a few names and counts the rest, its
// text stays short, and Decide's memory grows with the call, not faster
// (1x, 10x, 100x).
func TestDecide_ManySpellingsOfOneParameter_BoundedAndLinear(t *testing.T) {
	for _, alias := range []bool{false, true} {
		reg := typereg.New(typereg.WithMode(typereg.Warn))
		if err := typereg.Register[longName](reg, "t"); err != nil {
			t.Fatal(err)
		}
		var perByte []float64
		for _, n := range []int{4, 40, 400} { // under bind.MaxIssues: 2 issues a member
			args := spellings(n, alias)
			d := refuse.Decide(reg, "t", args)
			if d.Warnings == nil {
				t.Fatalf("alias %v, n %d: no warnings: %+v", alias, n, d.Refusal)
			}
			if len(d.Warnings.String()) > 4000 {
				t.Fatalf("alias %v, n %d: the warnings are %d bytes", alias, n, len(d.Warnings.String()))
			}
			if c := d.Warnings.Problems[0]; n == 400 && !alias && (c.Code != refuse.AliasConflict || !strings.HasSuffix(c.Sent, "and 392 more")) {
				t.Errorf("n %d: the first warning is %+v, want an alias conflict listing 8 names and counting 392", n, c)
			}
			got := allocatedBytes(func() { refuse.Decide(reg, "t", args) })
			perByte = append(perByte, float64(got)/float64(len(args)))
		}
		if perByte[2] > 3*perByte[0]+20 {
			t.Errorf("alias %v: bytes allocated per input byte grow from %.1f (1x) to %.1f (100x)", alias, perByte[0], perByte[2])
		}
	}
}

type nestedWindow struct {
	From int `json:"from"`
}

type nestedWindowArgs struct {
	Window nestedWindow `json:"window"`
}

// TestDecide_NestedNameAndCaseVariant_SaysAValueWasDropped pins, for a
// nested struct's field sent under its name and a case variant of it,
// that the argument's one problem says a value was thrown away (the key
// repeats an earlier one; the tool reads each value over the one before), not only
// that a key's case was folded. It failed: the warning was folded_key,
// and said nothing of the value the binder dropped.
func TestDecide_NestedNameAndCaseVariant_SaysAValueWasDropped(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[nestedWindowArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, args := range []string{`{"window":{"from":1,"FROM":2}}`, `{"window":{"FROM":1,"from":2}}`} {
			d := refuse.Decide(reg, "t", json.RawMessage(args))
			if b == jsonv2.Binder {
				// V2 matches case exactly: FROM is a key it drops, not a
				// repeat.
				if d.Refusal == nil || d.Refusal.Problems[0].Code != refuse.UnknownField {
					t.Errorf("v2 %s: %v, want an unknown_field refusal", args, d.Refusal)
				}
				continue
			}
			if d.Refusal != nil || d.Warnings == nil {
				t.Fatalf("%s: refusal %v, warnings %v; want warnings", args, d.Refusal, d.Warnings)
			}
			if p := d.Warnings.Problems[0]; p.Code != refuse.DuplicateKey || !strings.Contains(d.Warnings.String(), "the tool reads each value over the one before") {
				t.Errorf("%s: the problem is %+v:\n%s\nwant a duplicate_key saying the last value is read", args, p, d.Warnings)
			}
		}
	}
}
