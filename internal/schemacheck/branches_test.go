package schemacheck

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

func seq(n int, f func(int) string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = f(i)
	}
	return strings.Join(parts, ",")
}

// TestCheck_BranchesReadEachValueABoundedNumberOfTimes: at 1x, 10x and 100x
// of a payload under each keyword that reads a value again per branch, the
// values Check reads per byte of input stay within twice those at 1x.
func TestCheck_BranchesReadEachValueABoundedNumberOfTimes(t *testing.T) {
	const item = `{"type":"object","properties":{"k":{"type":"integer"},"v":{"type":"string"}}}`
	for _, c := range []struct{ name, schema string }{
		{"allOf", `{"allOf":[` + item + `,{"required":["k"]},{"maxProperties":3}]}`},
		{"anyOf", `{"anyOf":[{"type":"object","required":["x"]},{"type":"object","required":["y"]},` + item + `]}`},
		{"oneOf", `{"oneOf":[{"type":"object","required":["k"]},{"type":"object","required":["v"]}]}`},
		{"not", `{"not":{"type":"object","required":["z"]}}`},
		{"if", `{"if":{"type":"object","required":["k"]},"then":` + item + `,"else":{"required":["v"]}}`},
		{"enum", `{"enum":[{"k":1,"v":"x"},{"k":"x"},[1]]}`},
		{"uniqueItems", `{"type":"array","uniqueItems":true}`},
		{"patternProperties", `{"type":"object","patternProperties":{"^k":{"type":"integer"},"":{"not":{"type":"null"}},"v|k":{"anyOf":[{"type":"string"},{"minimum":0}]}}}`},
		{"contains", `{"type":"array","contains":{"allOf":[` + item + `]},"maxContains":2}`},
		{"propertyNames", `{"type":"object","propertyNames":{"anyOf":[{"maxLength":1},{"pattern":"^v"}]}}`},
		{"dependentSchemas", `{"type":"object","dependentSchemas":{"k":` + item + `,"v":{"required":["z"]}}}`},
		{"prefixItems", `{"type":"array","prefixItems":[` + item + `,{"allOf":[` + item + `]}],"items":` + item + `}`},
		{"nested", `{"allOf":[{"anyOf":[{"not":` + item + `},{"oneOf":[` + item + `,{"if":` + item + `,"then":` + item + `}]}]},` + item + `]}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			s, err := Compile([]byte(`{"type":"object","properties":{"l":{"type":"array","items":` + c.schema + `},"d":` + c.schema + `}}`))
			if err != nil {
				t.Fatal(err)
			}
			for _, shape := range []func(k int) string{
				func(k int) string { return `{"l":[` + strings.Repeat(`{"k":1,"v":"x"},`, 100*k) + `{"k":1.5}]}` },
				func(k int) string { return `{"l":[` + strings.Repeat(`{"k":"x","z":[[[1e400]]]},`, 100*k) + `{}]}` },
				func(k int) string {
					return `{"d":[` + seq(100*k, func(i int) string { return `{"k":` + strconv.Itoa(i) + `}` }) + `,{"k":0}]}`
				},
				func(k int) string {
					return `{"d":{"k":1,"z":` + strings.Repeat(`[`, 50*k) + strings.Repeat(`]`, 50*k) + `}}`
				},
			} {
				var base float64
				for _, k := range []int{1, 10, 100} {
					args := shape(k)
					_, reads := s.check([]byte(args))
					per := float64(reads) / float64(len(args))
					t.Logf("%dx: %d bytes, %d reads", k, len(args), reads)
					if k == 1 {
						base = per
					} else if per > 2*base {
						t.Errorf("%dx: %d reads for %d bytes; %.2f per byte at 1x", k, reads, len(args), base)
					}
				}
			}
		})
	}
}

// TestCompile_RefusesBranchesPastTheBound: a branch keyword that holds
// itself (a value nested n deep would be read n times), or nesting that
// would read a value more than maxReads times, fails Compile naming the
// keyword and where it is; so does a keyword checked below the root only,
// at the root.
func TestCompile_RefusesBranchesPastTheBound(t *testing.T) {
	deep := `{"type":"integer"}`
	for range 7 {
		deep = `{"anyOf":[` + deep + `,` + deep + `]}` // 2^7 reads of the leaf
	}
	for _, c := range []struct{ schema, keyword, path string }{
		{`{"type":"object","$defs":{"t":{"allOf":[{"type":"object","properties":{"n":{"$ref":"#/$defs/t"}}}]}},"properties":{"a":{"$ref":"#/$defs/t"}}}`, "allOf", "/$defs/t"},
		{`{"type":"object","$defs":{"t":{"type":"array","items":{"not":{"$ref":"#/$defs/t"}}}},"properties":{"a":{"$ref":"#/$defs/t"}}}`, "not", "/$defs/t/items"},
		{`{"type":"object","properties":{"a":` + deep + `}}`, "anyOf", ""},
		{`{"type":"object","allOf":[{"required":["a"]}]}`, "allOf", ""},
		{`{"type":"object","patternProperties":{"^a":{"type":"string"}}}`, "patternProperties", ""},
		{`{"type":"object","enum":[{"a":1}]}`, "enum", ""},
		{`{"type":"object","$defs":{"d":{"anyOf":[{"$ref":"#/$defs/d"}]}},"properties":{"a":{"$ref":"#/$defs/d"}}}`, "anyOf", "/$defs/d"},
		{`{"type":"object","$defs":{"d":{"oneOf":[{"type":"null"},{"$ref":"#/$defs/e","type":"string"}]},"e":{"$ref":"#/$defs/d","type":"string"}},"properties":{"a":{"$ref":"#/$defs/d"}}}`, "oneOf", "/$defs/d"},
		{`{"type":"object","const":{"a":1}}`, "const", ""},
		{`{"type":"object","enum":["a"]}`, "enum", ""},
		{`{"type":"object","$defs":{"t":{"type":"object","patternProperties":{"^n":{"$ref":"#/$defs/t"},"":{"type":"object"}}}},"properties":{"a":{"$ref":"#/$defs/t"}}}`, "patternProperties", "/$defs/t"},
	} {
		_, err := Compile([]byte(c.schema))
		var ke *KeywordError
		if !errors.As(err, &ke) {
			t.Errorf("%s: err %v, want a KeywordError", c.schema, err)
			continue
		}
		if ke.Keyword != c.keyword || c.path != "" && ke.Path != c.path {
			t.Errorf("%s: %v, want %q at %q", c.schema, err, c.keyword, c.path)
		}
	}
	// Within the bound, a schema compiles: here 121 reads (each level
	// reads its branches, and the closest once more).
	ok := `{"type":"integer"}`
	for range 4 {
		ok = `{"anyOf":[` + ok + `,` + ok + `]}`
	}
	if _, err := Compile([]byte(`{"type":"object","properties":{"a":` + ok + `}}`)); err != nil {
		t.Error(err)
	}
}

// TestCheck_CleanCallThroughBranchesAllocatesAsWithout: a trial takes
// nothing back on a clean call, so reading a value against scalar branches
// allocates what reading it without them does.
func TestCheck_CleanCallThroughBranchesAllocatesAsWithout(t *testing.T) {
	plain, err := Compile([]byte(`{"type":"object","properties":{"a":{"type":"string","maxLength":3},"n":{"type":"integer"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	branchy, err := Compile([]byte(`{"type":"object","properties":{"a":{"type":"string","allOf":[{"maxLength":3}],"anyOf":[{"pattern":"^a"},{"minLength":2}],"not":{"const":"b"}},
		"n":{"if":{"type":"integer"},"then":{"minimum":0},"else":{"type":"string"},"oneOf":[{"type":"integer"},{"minimum":5}]}}}`))
	if err != nil {
		t.Fatal(err)
	}
	args := []byte(`{"a":"ab","n":1}`)
	if r := branchy.Check(args); len(r.Issues) != 0 {
		t.Fatalf("issues %+v on a clean call", r.Issues)
	}
	want := testing.AllocsPerRun(50, func() { plain.Check(args) })
	if got := testing.AllocsPerRun(50, func() { branchy.Check(args) }); got != want {
		t.Errorf("a clean call through branches allocated %v times, without them %v", got, want)
	}
}
