package refuse_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type capArgs struct {
	N     int      `json:"n"`
	Names []string `json:"names,omitempty"`
	Any   any      `json:"any,omitempty"`
}

var allBinders = []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder}

func capRegistry(t *testing.T, b bind.Binder, opts ...typereg.Option) *typereg.Registry {
	t.Helper()
	reg := typereg.New(append([]typereg.Option{typereg.WithBinder(b)}, opts...)...)
	if err := typereg.Register[capArgs](reg, "cap"); err != nil {
		t.Fatal(err)
	}
	return reg
}

// members writes n members (or elements) made by f, comma-separated.
func members(n int, f func(i int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = f(i)
	}
	return strings.Join(parts, ",")
}

func distinctKeys(n int) string {
	return members(n, func(i int) string { return fmt.Sprintf(`"k%d":1`, i) })
}

var countLine = regexp.MustCompile(`(?m)^And (\d+) more (problems?)\.$`)

// checkReport checks what every refusal and warning promises, however many
// problems the call has: a problem named before any count, a count that is
// exact and grammatical, a bounded text and structured form.
func checkReport(t *testing.T, name, text string, problems []refuse.Problem, more int, structured any) {
	t.Helper()
	if len(problems) == 0 && more > 0 {
		t.Errorf("%s: no problem listed, %d counted", name, more)
	}
	lines := strings.Split(text, "\n")
	if strings.HasPrefix(lines[0], "And ") || len(lines) > 1 && strings.HasPrefix(lines[0], "The call") && strings.HasPrefix(lines[1], "And ") {
		t.Errorf("%s: the text names no problem before its count:\n%s", name, text)
	}
	if m := countLine.FindStringSubmatch(text); m != nil {
		if (m[1] == "1") != (m[2] == "problem") {
			t.Errorf("%s: %q", name, m[0])
		}
	}
	if len(text) > 4000 {
		t.Errorf("%s: text of %d bytes", name, len(text))
	}
	if b, _ := json.Marshal(structured); len(b) > 16000 {
		t.Errorf("%s: structured form of %d bytes", name, len(b))
	}
}

// shownCount returns the problems the text counts without naming.
func shownCount(text string) int {
	m := countLine.FindStringSubmatch(text)
	if m == nil {
		return 0
	}
	var n int
	fmt.Sscan(m[1], &n)
	return n
}

// TestDecide_PastTheIssueCapTheVerdictIsExact pins that the verdict does
// not depend on bind.MaxIssues: for every binder and mode, a call with
// more than MaxIssues issues is refused exactly when one with a few of the
// same would be, and the report counts every problem once. It failed, on
// the code before the cap was split by class, on every row: a call the
// binder reads, with 1,001 unknown keys under Warn, 1,001 nulls, a key
// repeated 1,002 times, 1,001 extra keys of an open tool, or 1,001 rounded
// integers, was refused with the text "And 1 more problems.". Under V2 a
// repeated name is one problem, however often it is repeated (the rows of
// a key repeated past the cap counted each repeat past it until V2's
// repeats were told apart by key in bind).
func TestDecide_PastTheIssueCapTheVerdictIsExact(t *testing.T) {
	over := bind.MaxIssues + 1
	big := members(over, func(int) string { return "9007199254740993" })
	type byBinder map[string]int // by binder name, else ""
	cases := []struct {
		name   string
		args   string
		opts   []typereg.Option
		open   bool
		refuse byBinder // 1: refused under Reject
		warn   byBinder // 1: refused under Warn
		total  byBinder // problems, listed and counted
		code   map[string]refuse.Code
		named  refuse.Code // a problem the Reject refusal must list, whatever else
	}{
		{name: "distinct unknown keys", args: `{"n":1,` + distinctKeys(over) + `}`,
			refuse: byBinder{"": 1}, total: byBinder{"": over}, code: map[string]refuse.Code{"": refuse.UnknownArgument}},
		{name: "unknown keys, each twice", args: `{"n":1,` + distinctKeys(over) + `,` + distinctKeys(over) + `}`,
			refuse: byBinder{"": 1}, warn: byBinder{"v2": 1}, total: byBinder{"": over, "v2": 2 * over},
			code: map[string]refuse.Code{"": refuse.UnknownArgument, "v2": refuse.DuplicateName}},
		{name: "nulls in a list", args: `{"n":1,"names":[` + members(over, func(int) string { return "null" }) + `]}`,
			total: byBinder{"": 1}, code: map[string]refuse.Code{"": refuse.NullForValue}},
		{name: "a key repeated", args: `{` + members(over+1, func(int) string { return `"n":1` }) + `}`,
			refuse: byBinder{"v2": 1}, warn: byBinder{"v2": 1}, total: byBinder{"": 1, "v2": 1},
			code: map[string]refuse.Code{"": refuse.DuplicateKey, "v2": refuse.DuplicateName}},
		{name: "integers past 2^53", args: `{"n":1,"any":[` + big + `]}`,
			total: byBinder{"": 1}, code: map[string]refuse.Code{"": refuse.RoundedNumber}},
		{name: "extra keys, open tool", args: `{"n":1,` + distinctKeys(over) + `}`, open: true},
		{name: "exempt key repeated", args: `{"n":1,` + members(over+500, func(int) string { return `"fmt":1` }) + `}`, opts: []typereg.Option{typereg.WithExempt("fmt")},
			refuse: byBinder{"v2": 1}, warn: byBinder{"v2": 1}, total: byBinder{"v2": 1},
			code: map[string]refuse.Code{"v2": refuse.DuplicateName}},
		{name: "exempt keys, then one unknown", args: `{"n":1,` + members(over+500, func(int) string { return `"fmt":1` }) + `,"zz":1}`, opts: []typereg.Option{typereg.WithExempt("fmt")},
			refuse: byBinder{"": 1}, warn: byBinder{"v2": 1}, total: byBinder{"": 1, "v2": 2},
			code: map[string]refuse.Code{"": refuse.UnknownArgument, "v2": refuse.DuplicateName}},
		{name: "unknown keys, then a wrong type", args: `{` + distinctKeys(over) + `,"n":"x"}`,
			refuse: byBinder{"": 1}, warn: byBinder{"": 1}, total: byBinder{"": over + 1}, code: map[string]refuse.Code{"": refuse.WrongType}},
		{name: "unknown keys, a required parameter left out", args: `{` + distinctKeys(over) + `}`,
			refuse: byBinder{"": 1}, total: byBinder{"": over + 1}, code: map[string]refuse.Code{"": refuse.MissingArgument}},
		{name: "nulls, a required parameter left out", args: `{"names":[` + members(over, func(int) string { return "null" }) + `]}`,
			refuse: byBinder{"": 1}, total: byBinder{"": 2}, code: map[string]refuse.Code{"": refuse.MissingArgument}},
		{name: "unknown keys, each twice, a required parameter left out", args: `{` + distinctKeys(over) + `,` + distinctKeys(over) + `}`,
			refuse: byBinder{"": 1}, warn: byBinder{"v2": 1}, total: byBinder{"": over + 1, "v2": 2*over + 1},
			code: map[string]refuse.Code{"": refuse.MissingArgument, "v2": refuse.DuplicateName}, named: refuse.MissingArgument},
		{name: "unknown keys, then a repeated name", args: `{` + distinctKeys(over) + `,"n":1,"n":2}`,
			refuse: byBinder{"": 1}, warn: byBinder{"v2": 1}, total: byBinder{"": over + 1},
			code: map[string]refuse.Code{"": refuse.DuplicateKey, "v2": refuse.DuplicateName}},
	}
	get := func(m byBinder, b string) int {
		if v, ok := m[b]; ok {
			return v
		}
		return m[""]
	}
	for _, tc := range cases {
		for _, b := range allBinders {
			for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
				reg := typereg.New(append([]typereg.Option{typereg.WithBinder(b), typereg.WithMode(mode)}, tc.opts...)...)
				var ropts []typereg.Option
				if tc.open {
					ropts = append(ropts, typereg.WithOpen())
				}
				if err := typereg.Register[capArgs](reg, "cap", ropts...); err != nil {
					t.Fatal(err)
				}
				want := tc.refuse
				if mode == typereg.Warn {
					want = tc.warn
				}
				wantRefused := get(want, b.Name()) == 1
				name := fmt.Sprintf("%s, %s, mode %v", tc.name, b.Name(), mode)
				d := refuse.Decide(reg, "cap", json.RawMessage(tc.args))
				if (d.Refusal != nil) != wantRefused {
					var text string
					if d.Refusal != nil {
						text = d.Refusal.Error()
					}
					t.Errorf("%s: refused: %v, want %v %.300s", name, d.Refusal != nil, wantRefused, text)
					continue
				}
				var problems []refuse.Problem
				var more int
				switch {
				case d.Refusal != nil:
					problems, more = d.Refusal.Problems, d.Refusal.More
					checkReport(t, name, d.Refusal.Error(), problems, more, d.Refusal)
					if shownCount(d.Refusal.Error()) > more+len(problems) {
						t.Errorf("%s: the text counts more than there is", name)
					}
				case d.Warnings != nil:
					problems, more = d.Warnings.Problems, d.Warnings.More
					checkReport(t, name, d.Warnings.String(), problems, more, d.Warnings)
				}
				total := get(tc.total, b.Name())
				if total == 0 {
					if d.Warnings != nil {
						t.Errorf("%s: warnings %.300s", name, d.Warnings.String())
					}
					continue
				}
				if len(problems) == 0 {
					t.Errorf("%s: nothing reported", name)
					continue
				}
				if mode == typereg.Warn && d.Refusal != nil {
					if problems[0].Code.Policy() {
						t.Errorf("%s: the refusal under Warn lists %+v, not the binder's failure", name, problems[0])
					}
					continue
				}
				code, ok := tc.code[b.Name()]
				if !ok {
					code = tc.code[""]
				}
				if problems[0].Code != code {
					t.Errorf("%s: the first problem is %+v, want %s", name, problems[0], code)
				}
				if tc.named != "" && !slices.ContainsFunc(problems, func(p refuse.Problem) bool { return p.Code == tc.named }) {
					t.Errorf("%s: no %s problem listed: %.500s", name, tc.named, d.Refusal)
				}
				if got := len(problems) + more; got != total {
					t.Errorf("%s: %d problems and %d more, want %d in all", name, len(problems), more, total)
				}
			}
		}
	}
}

type deepMaps struct {
	A map[string]map[string]map[string]int `json:"a"`
	B map[string]map[string]map[string]int `json:"b"`
	C map[string]map[string]map[string]int `json:"c"`
	D map[string]map[string]map[string]int `json:"d"`
	E []string                             `json:"e"`
	F []string                             `json:"f"`
	G []string                             `json:"g"`
	H float64                              `json:"h,omitempty"`
}

// TestRefusal_TextAndStructureStayBounded pins the bound on a refusal and
// on warnings, in text (4000 bytes) and as JSON (16,000 bytes for a tool
// with a few parameters), however long and many the keys, paths and
// values the call sends. It failed before the bound, with texts of 8,000
// to 200,000 bytes.
func TestRefusal_TextAndStructureStayBounded(t *testing.T) {
	long := strings.Repeat(`\u0001<>`, 60) // escaped when quoted: six characters and more a character
	deep := func(i int) string {
		k := fmt.Sprintf(`"%s%d"`, long, i)
		return `{` + k + `:{` + k + `:{` + k + `:"x"}}}`
	}
	calls := map[string]string{
		"long unknown keys": `{` + members(2000, func(i int) string { return fmt.Sprintf(`"%s%d":1`, long, i) }) + `}`,
		"long paths":        `{"a":` + deep(1) + `,"b":` + deep(2) + `,"c":` + deep(3) + `,"d":` + deep(4) + `}`,
		"long values":       `{"e":[1,"` + long + `"],"f":{"` + long + `":1},"g":"` + long + `","h":"` + long + `"}`,
		"long losses": `{"e":[` + members(1200, func(int) string { return `"` + long + `\ud800"` }) + `],"h":9007199254740993,"a":null,"b":null,` +
			members(1200, func(i int) string { return fmt.Sprintf(`"%s%d":1`, long, i) }) + `}`,
	}
	names := map[string]string{"a short name": "t", "a long name": strings.Repeat("tool_", 1000)}
	for bi, b := range allBinders {
		for mi, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
			for tn, tool := range names {
				// -short: one mode and one name a binder, in turn (both modes
				// and both names are still seen); make test-long runs all.
				if testing.Short() && (bi+mi)%2 != 0 || testing.Short() && (tn == "a long name") != (bi%2 == 0) {
					continue
				}
				reg := typereg.New(typereg.WithBinder(b), typereg.WithMode(mode))
				if err := typereg.Register[deepMaps](reg, tool); err != nil {
					t.Fatal(err)
				}
				for cn, args := range calls {
					name := fmt.Sprintf("%s, %s, mode %v, %s", cn, b.Name(), mode, tn)
					d := refuse.Decide(reg, tool, json.RawMessage(args))
					switch {
					case d.Refusal != nil:
						checkReport(t, name, d.Refusal.Error(), d.Refusal.Problems, d.Refusal.More, d.Refusal.Problems)
					case d.Warnings != nil:
						checkReport(t, name, d.Warnings.String(), d.Warnings.Problems, d.Warnings.More, d.Warnings.Problems)
					default:
						t.Errorf("%s: nothing to say", name)
					}
				}
			}
		}
		reg := typereg.New(typereg.WithBinder(b))
		for _, tool := range []string{strings.Repeat("x", 1<<20), strings.Repeat("\x01", 1<<16)} {
			r := refuse.Refuse(reg, tool, json.RawMessage(`{}`))
			if r == nil {
				t.Fatal("an unknown tool is not refused")
			}
			checkReport(t, "unknown tool", r.Error(), r.Problems, r.More, r)
		}
	}
}

// TestDecide_PastTheIssueCap_LinearCost pins the cost of judging what bind
// only counts: for each shape past the cap, the bytes Decide allocates
// grow no faster than the call, step by step of 10x, for every binder, and
// what it adds to Check is a few bytes a byte of the call.
func TestDecide_PastTheIssueCap_LinearCost(t *testing.T) {
	shapes := map[string]func(n int) string{
		"distinct unknown keys": func(n int) string { return `{"n":1,` + distinctKeys(n) + `}` },
		"unknown keys, each twice": func(n int) string {
			return `{"n":1,` + distinctKeys(n/2) + `,` + distinctKeys(n/2) + `}`
		},
		"exempt keys": func(n int) string { return `{"n":1,` + members(n, func(int) string { return `"fmt":1` }) + `,"zz":1}` },
		"nulls":       func(n int) string { return `{"n":1,"names":[` + members(n, func(int) string { return "null" }) + `]}` },
	}
	for _, b := range allBinders {
		reg := capRegistry(t, b, typereg.WithExempt("fmt"))
		steps := []int{1200, 12000, 120000}
		if testing.Short() || b != bind.Std { // the trial binders' own decode costs the most
			steps = steps[:2]
		}
		for name, shape := range shapes {
			var sizes []uint64
			for _, n := range steps {
				args := json.RawMessage(shape(n))
				sizes = append(sizes, allocatedBytes(func() { refuse.Decide(reg, "cap", args) }))
				// What Decide adds to bind's Check (the binders mirrored by
				// trial cost their own decode) is a few bytes a byte.
				tool, _ := reg.Tool("cap")
				check := allocatedBytes(func() { tool.Plan().Check(args, nil) })
				if got := sizes[len(sizes)-1]; got > check+8*uint64(len(args))+1<<20 {
					t.Errorf("%s, %s, %d: %d bytes allocated (%d by Check) for %d bytes of call", name, b.Name(), n, got, check, len(args))
				}
			}
			for i := 1; i < len(sizes); i++ {
				if sizes[i] > 15*sizes[i-1] {
					t.Errorf("%s, %s: bytes allocated at 1x, 10x, 100x: %v", name, b.Name(), sizes)
				}
			}
		}
	}
}

// FuzzDecide_ManyIssues_VerdictOfTwo: a call repeats one fuzzed member
// (or a few) past bind.MaxIssues. Its verdict is the verdict of the call
// that repeats it twice, in every binder and mode, and its report keeps
// every promise of checkReport.
func FuzzDecide_ManyIssues_VerdictOfTwo(f *testing.F) {
	var regs []*typereg.Registry
	for _, b := range allBinders {
		for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
			reg := typereg.New(typereg.WithBinder(b), typereg.WithMode(mode), typereg.WithExempt("fmt"))
			if err := typereg.Register[capArgs](reg, "cap"); err != nil {
				f.Fatal(err)
			}
			regs = append(regs, reg)
		}
	}
	for _, m := range []string{`"k":1`, `"n":null`, `"names":[null]`, `"any":9007199254740993`, `"fmt":1`, `"n":"x"`, `"N":1`, `"n":1`, `"any":{"a":1,"a":2}`, `"names":["\ud800",1]`} {
		f.Add([]byte(m), uint16(1200), uint8(0))
	}
	f.Fuzz(func(t *testing.T, member []byte, n uint16, which uint8) {
		k := 2 + int(n)%2500
		reg := regs[int(which)%len(regs)]
		call := func(k int) json.RawMessage {
			return json.RawMessage(`{` + members(k, func(int) string { return string(member) }) + `}`)
		}
		many, two := call(k), call(2)
		if !json.Valid(call(1)) || len(many) > 1<<20 { // members of their own
			return
		}
		if !json.Valid(two) {
			return
		}
		d, d2 := refuse.Decide(reg, "cap", many), refuse.Decide(reg, "cap", two)
		if (d.Refusal != nil) != (d2.Refusal != nil) {
			t.Fatalf("%.200s repeated %d times: refused %v; twice: refused %v (%v)", member, k, d.Refusal != nil, d2.Refusal != nil, d2.Refusal)
		}
		switch {
		case d.Refusal != nil:
			checkReport(t, "refusal", d.Refusal.Error(), d.Refusal.Problems, d.Refusal.More, d.Refusal.Problems)
		case d.Warnings != nil:
			checkReport(t, "warnings", d.Warnings.String(), d.Warnings.Problems, d.Warnings.More, d.Warnings.Problems)
		}
	})
}
