package refuse_test

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/jsonschema-go/jsonschema"

	"github.com/bindguard/bindguard/internal/schemacheck"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// listIssues is a tool as github-mcp-server declares it: a hand-written
// schema, no Go struct, the root left open.
const listIssues = `{
	"type": "object",
	"properties": {
		"owner": {"type": "string", "description": "Repository owner"},
		"repo": {"type": "string", "minLength": 1},
		"state": {"type": "string", "enum": ["open", "closed", "all"]},
		"labels": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
		"since": {"type": ["string", "null"]},
		"limit": {"type": "integer", "minimum": 1, "maximum": 100},
		"filter": {"type": "object", "properties": {"author": {"type": "string"}}, "required": ["author"], "additionalProperties": false}
	},
	"required": ["owner", "repo"]
}`

func schemaRegistry(t testing.TB, opts ...typereg.Option) *typereg.Registry {
	t.Helper()
	reg := typereg.New()
	if err := reg.RegisterSchema("list_issues", json.RawMessage(listIssues), opts...); err != nil {
		t.Fatal(err)
	}
	return reg
}

func TestDecide_SchemaTool_NamesTheArgumentInTheSchemasWords(t *testing.T) {
	reg := schemaRegistry(t)
	r := refuse.Refuse(reg, "list_issues", json.RawMessage(`{"owner":"o","repo":"r","limit":0.5}`))
	want := &refuse.Refusal{
		Tool:     "list_issues",
		Accepted: []string{"filter", "labels", "limit", "owner", "repo", "since", "state"},
		Problems: []refuse.Problem{{Argument: "limit", Code: refuse.NotWholeNumber, Takes: "a whole number from 1 to 100", Sent: "0.5"}},
	}
	if diff := cmp.Diff(want, r, noPointer); diff != "" {
		t.Fatalf("refusal (-want +got):\n%s", diff)
	}
	const text = "Argument 'limit' for tool 'list_issues' takes a whole number from 1 to 100, and the call sent 0.5."
	if !strings.Contains(r.Error(), text) {
		t.Errorf("text %q does not say %q", r.Error(), text)
	}
}

func TestDecide_SchemaTool(t *testing.T) {
	cases := []struct {
		name, why string
		opts      []typereg.Option
		args      string
		refused   []refuse.Problem // nil: passes
		warnings  []refuse.Problem
	}{
		{name: "good call", why: "a call the schema takes passes unchanged",
			args: `{"owner":"o","repo":"r","state":"open","labels":["a"],"since":null,"limit":100,"filter":{"author":"me"}}`},
		{name: "1.0 is a whole number", why: "JSON Schema's integer is mathematical: 1.0 and 1e2 are integers",
			args: `{"owner":"o","repo":"r","limit":1e2}`},
		{name: "past the maximum", why: "the schema's bound is the tool's own constraint",
			args:    `{"owner":"o","repo":"r","limit":101}`,
			refused: []refuse.Problem{{Argument: "limit", Code: refuse.Constraint, Takes: "a whole number from 1 to 100", Sent: "101"}}},
		{name: "wrong type", why: "text for an integer",
			args:    `{"owner":"o","repo":"r","limit":"5"}`,
			refused: []refuse.Problem{{Argument: "limit", Code: refuse.WrongType, Takes: "a whole number from 1 to 100", Sent: `"5"`}}},
		{name: "null where the type list allows it", why: `"type":["string","null"]`,
			args: `{"owner":"o","repo":"r","since":null}`},
		{name: "null where it does not", why: "null is a value of type null, not a string",
			args:    `{"owner":null,"repo":"r"}`,
			refused: []refuse.Problem{{Argument: "owner", Code: refuse.WrongType, Takes: "text", Sent: "null"}}},
		{name: "not one of the enum", why: "enum",
			args:    `{"owner":"o","repo":"r","state":"Open"}`,
			refused: []refuse.Problem{{Argument: "state", Code: refuse.NotOneOf, Takes: "one of open, closed, all", Sent: `"Open"`}}},
		{name: "required left out", why: "every required parameter is named, all in one verdict",
			args: `{}`,
			refused: []refuse.Problem{
				{Argument: "owner", Code: refuse.MissingArgument, Takes: "text"},
				{Argument: "repo", Code: refuse.MissingArgument, Takes: "text of at least 1 character"},
			}},
		{name: "element of the wrong type", why: "items; the path leads to it",
			args:    `{"owner":"o","repo":"r","labels":["a",2]}`,
			refused: []refuse.Problem{{Argument: "labels", Path: "[1]", Code: refuse.WrongType, Takes: "a list (a JSON array) of texts, with at most 3 elements", Sent: `["a",2]`, Element: "2"}}},
		{name: "too many elements", why: "maxItems",
			args:    `{"owner":"o","repo":"r","labels":["a","b","c","d"]}`,
			refused: []refuse.Problem{{Argument: "labels", Code: refuse.Constraint, Takes: "a list (a JSON array) of texts, with at most 3 elements", Sent: `["a","b","c","d"]`}}},
		{name: "unknown key", why: "a root the schema leaves open takes the key and the handler reads nothing from it: a silent loss, warned",
			args:     `{"owner":"o","repo":"r","limt":5}`,
			warnings: []refuse.Problem{{Argument: "limt", Code: refuse.UnknownArgument, Sent: `"limt"`, DidYouMean: "limit"}}},
		{name: "unknown key, strict", why: "Strict refuses silent losses, a key nothing reads among them",
			opts:    []typereg.Option{typereg.WithStrict(true)},
			args:    `{"owner":"o","repo":"r","limt":5}`,
			refused: []refuse.Problem{{Argument: "limt", Code: refuse.UnknownArgument, Sent: `"limt"`, DidYouMean: "limit"}}},
		{name: "unknown key, open tool", why: "WithOpen leaves the root as the schema does",
			opts: []typereg.Option{typereg.WithOpen()},
			args: `{"owner":"o","repo":"r","limt":5}`},
		{name: "unknown key, exempt", why: "an exempt key is never unknown",
			opts: []typereg.Option{typereg.WithExempt("_meta")},
			args: `{"owner":"o","repo":"r","_meta":{}}`},
		{name: "a key's case", why: "the map reader matches keys exactly: Owner is not owner",
			args: `{"Owner":"o","repo":"r"}`,
			refused: []refuse.Problem{
				{Argument: "owner", Code: refuse.MissingArgument, Takes: "text"},
				{Argument: "Owner", Code: refuse.UnknownArgument, Sent: `"Owner"`, DidYouMean: "owner"},
			}},
		{name: "nested unknown field", why: "additionalProperties false inside",
			args:    `{"owner":"o","repo":"r","filter":{"author":"me","x":1}}`,
			refused: []refuse.Problem{{Argument: "filter", Path: ".x", Code: refuse.UnknownField, Takes: "an object with fields author", Sent: `{"author":"me","x":1}`, Element: `"x"`}}},
		{name: "nested repeated key", why: "the map reader keeps the last value; the words name the key inside the argument, not the argument sent twice",
			args:     `{"owner":"o","repo":"r","filter":{"author":1,"author":"me"}}`,
			warnings: []refuse.Problem{{Argument: "filter", Path: ".author", Code: refuse.DuplicateKey, Takes: "an object with fields author", Sent: `"author"`}}},
		{name: "nested required field", why: "required inside",
			args:    `{"owner":"o","repo":"r","filter":{}}`,
			refused: []refuse.Problem{{Argument: "filter", Path: ".author", Code: refuse.MissingField, Takes: "an object with fields author", Sent: "{}", Element: `"author"`}}},
		{name: "repeated key", why: "the map reader keeps the last value: a silent loss, and the last value is judged",
			args:     `{"owner":"o","repo":"r","limit":0,"limit":5}`,
			warnings: []refuse.Problem{{Argument: "limit", Code: refuse.DuplicateKey, Takes: "a whole number from 1 to 100", Sent: `"limit"`}}},
		{name: "repeated key, strict", why: "Strict refuses silent losses",
			opts:    []typereg.Option{typereg.WithStrict(true)},
			args:    `{"owner":"o","repo":"r","limit":5,"limit":6}`,
			refused: []refuse.Problem{{Argument: "limit", Code: refuse.DuplicateKey, Takes: "a whole number from 1 to 100", Sent: `"limit"`}}},
		{name: "a lone surrogate", why: "the map reader reads it as U+FFFD: a silent loss",
			args:     `{"owner":"\ud800","repo":"r"}`,
			warnings: []refuse.Problem{{Argument: "owner", Code: refuse.ReplacedText, Takes: "text", Sent: `"\ud800"`, Becomes: "\"\ufffd\""}}},
		{name: "past float64", why: "the map reader fails: refused in Warn too",
			opts:    []typereg.Option{typereg.WithMode(typereg.Warn)},
			args:    `{"owner":"o","repo":"r","limit":1e400}`,
			refused: []refuse.Problem{{Argument: "limit", Code: refuse.TooLarge, Takes: "a whole number from 1 to 100", Sent: "1e400"}}},
		{name: "warn", why: "under Warn the schema's verdicts are warnings: the map reader reads them",
			opts:     []typereg.Option{typereg.WithMode(typereg.Warn)},
			args:     `{"owner":"o","repo":"r","limit":0.5}`,
			warnings: []refuse.Problem{{Argument: "limit", Code: refuse.NotWholeNumber, Takes: "a whole number from 1 to 100", Sent: "0.5"}}},
		{name: "off", why: "nothing is checked",
			opts: []typereg.Option{typereg.WithMode(typereg.Off)},
			args: `{"limit":"x"}`},
		{name: "not JSON", why: "the text as a whole",
			args:    `{"owner":`,
			refused: []refuse.Problem{{Code: refuse.InvalidJSON, Takes: "a JSON object", Sent: "the text ends before the JSON value does"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.why == "" {
				t.Fatal("a case needs a reason")
			}
			reg := schemaRegistry(t, c.opts...)
			d := refuse.Decide(reg, "list_issues", json.RawMessage(c.args))
			var refused, warned []refuse.Problem
			if d.Refusal != nil {
				refused = d.Refusal.Problems
			}
			if d.Warnings != nil {
				warned = d.Warnings.Problems
			}
			if diff := cmp.Diff(c.refused, refused, noPointer); diff != "" {
				t.Errorf("%s: refused (-want +got):\n%s", c.why, diff)
			}
			if diff := cmp.Diff(c.warnings, warned, noPointer); diff != "" {
				t.Errorf("%s: warnings (-want +got):\n%s", c.why, diff)
			}
			if d.Refusal == nil && string(d.Args) != c.args {
				t.Errorf("the arguments changed: %s", d.Args)
			}
		})
	}
}

func TestDecide_SchemaTool_RoundedIntegerIsALoss(t *testing.T) {
	reg := typereg.New()
	if err := reg.RegisterSchema("t", json.RawMessage(`{"type":"object","properties":{"id":{"type":"integer"}}}`)); err != nil {
		t.Fatal(err)
	}
	d := refuse.Decide(reg, "t", json.RawMessage(`{"id":9007199254740993}`))
	want := []refuse.Problem{{Argument: "id", Code: refuse.RoundedNumber, Takes: "a whole number", Sent: "9007199254740993", Becomes: "9007199254740992"}}
	if d.Refusal != nil || d.Warnings == nil {
		t.Fatalf("decision %+v: want warnings", d)
	}
	if diff := cmp.Diff(want, d.Warnings.Problems, noPointer); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

func TestRegisterSchema_FailsNamingTheKeyword(t *testing.T) {
	cases := []struct {
		schema, keyword, path string
	}{
		{`{"type":"object","properties":{"x":{"anyOf":[{"type":"string"}],"oneOf":[{"type":"string"}]}}}`, "anyOf", "/properties/x"},
		{`{"type":"object","allOf":[{"required":["x"]}]}`, "allOf", ""},
		{`{"type":"object","$defs":{"t":{"allOf":[{"type":"object","properties":{"n":{"$ref":"#/$defs/t"}}}]}},"properties":{"x":{"$ref":"#/$defs/t"}}}`, "allOf", "/$defs/t"},
		{`{"type":"object","propertyNames":{"maxLength":3}}`, "propertyNames", ""},
		{`{"type":"object","properties":{"x":{"type":"string","pattern":"(?<=a)b"}}}`, "pattern", "/properties/x"},
		{`{"type":"object","properties":{"x":{"$ref":"https://example.com/s.json"}}}`, "$ref", "/properties/x"},
		{`{"type":"object","$defs":{"d":{"not":{"type":"array","unevaluatedItems":{}}}}}`, "unevaluatedItems", "/$defs/d/not"},
		{`{"type":"object","properties":{"x":{"type":"object","unevaluatedProperties":false}}}`, "unevaluatedProperties", "/properties/x"},
		{`{"type":"array"}`, "type", ""},
	}
	for _, c := range cases {
		reg := typereg.New()
		err := reg.RegisterSchema("t", json.RawMessage(c.schema))
		var ke *schemacheck.KeywordError
		if !errors.As(err, &ke) {
			t.Errorf("%s: err %v, want a KeywordError", c.schema, err)
			continue
		}
		if ke.Keyword != c.keyword || ke.Path != c.path {
			t.Errorf("%s: keyword %q at %q, want %q at %q", c.schema, ke.Keyword, ke.Path, c.keyword, c.path)
		}
		if _, ok := reg.Tool("t"); ok {
			t.Errorf("%s: a failed registration recorded the tool", c.schema)
		}
	}
	if err := typereg.New().RegisterSchema("t", json.RawMessage(listIssues), typereg.WithAlias("count", "limit")); err == nil {
		t.Error("an alias on a schema tool registered")
	}
}

// FuzzDecide_SchemaTool_RefusesExactlyWhenTheValidatorFails: an open
// schema tool under Reject is refused exactly when the map reader or
// jsonschema-go's validator fails on the call; under Warn (Strict or not),
// exactly when the map reader fails.
func FuzzDecide_SchemaTool_RefusesExactlyWhenTheValidatorFails(f *testing.F) {
	f.Add(`{"owner":"o","repo":"r","limit":0.5}`)
	f.Add(`{"owner":"o","repo":"r","labels":["a",1],"filter":{"author":"x","y":2}}`)
	f.Add(`{"owner":"o","repo":"","since":"x","since":1}`)
	f.Add(`{"owner":"o","repo":"r","limit":1e400}`)
	f.Add(`{"zz":{"x":[1e400]},"zz":{"y":9007199254740993}}`)
	reg := schemaRegistry(f, typereg.WithOpen())
	warn := schemaRegistry(f, typereg.WithMode(typereg.Warn), typereg.WithStrict(true))
	strict := schemaRegistry(f, typereg.WithOpen(), typereg.WithStrict(true))
	extra := typereg.New()
	if err := extra.RegisterSchema("list_issues", json.RawMessage(`{"type":"object","properties":{"limit":{"type":"integer"}},"additionalProperties":{"type":"object","required":["x"],"properties":{"x":{"type":"string"}}}}`), typereg.WithStrict(true)); err != nil {
		f.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(listIssues), &s); err != nil {
		f.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, args string) {
		if strings.Trim(args, " \t\r\n") == "" {
			return
		}
		var m map[string]any
		var oracle error
		readErr := json.Unmarshal([]byte(args), &m)
		if d := refuse.Decide(warn, "list_issues", json.RawMessage(args)); (d.Refusal != nil) != (readErr != nil) {
			t.Fatalf("args %s, under Warn: refusal %v; the map reader: %v", args, d.Refusal, readErr)
		}
		if err := readErr; err != nil {
			oracle = err
		} else {
			if m == nil {
				m = map[string]any{}
			}
			oracle = rs.Validate(m)
		}
		d := refuse.Decide(reg, "list_issues", json.RawMessage(args))
		if (d.Refusal != nil) != (oracle != nil) {
			t.Fatalf("args %s: refusal %v; oracle %v", args, d.Refusal, oracle)
		}
		// Every refusal names what it refuses, whatever key it lies under.
		for _, r := range []*typereg.Registry{reg, warn, strict, extra} {
			if d := refuse.Decide(r, "list_issues", json.RawMessage(args)); d.Refusal != nil && len(d.Refusal.Problems) == 0 && d.Refusal.More == 0 {
				t.Fatalf("args %s: a refusal that names no problem: %q", args, d.Refusal.Error())
			}
		}
	})
}

// TestDecide_SchemaTool_CostGrowsLinearly: at 1x, 10x and 100x of a
// payload, what Decide allocates for a schema tool per byte of input
// stays within twice what it allocates at 1x.
func TestDecide_SchemaTool_CostGrowsLinearly(t *testing.T) {
	const schema = `{"type":"object","$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"},"v":{"type":"integer","maximum":1}},"additionalProperties":false}},
		"properties":{"any":{},"node":{"$ref":"#/$defs/n"},"ints":{"type":"array","items":{"type":"integer"}},"name":{"type":"string","maxLength":3},"meta":{"type":"object","additionalProperties":{"type":"string"}},
		"br":{"type":"array","uniqueItems":true,"items":{"allOf":[{"type":"object","properties":{"k":{"type":"integer"}}}],"anyOf":[{"required":["k"]},{"required":["v"]}],"not":{"required":["z"]},"if":{"required":["k"]},"then":{"properties":{"v":{"type":"string"}}}}}}}`
	shapes := []struct {
		name string
		args func(k int) string
	}{
		{"deep any", func(k int) string { return `{"any":` + arrays(30*k, "1e400") + `}` }},
		{"deep recursive, bad leaves", func(k int) string { return `{"node":` + objects(13*k, "next", `{"v":2,"z":1}`) + `}` }},
		{"many wrong elements", func(k int) string { return `{"ints":[` + rep(`"x"`, 100*k, ",") + `]}` }},
		{"many rounded", func(k int) string { return `{"ints":[` + rep(rounds, 100*k, ",") + `]}` }},
		{"wide map, bad values", func(k int) string {
			return `{"meta":{` + seq(100*k, func(i int) string { return `"k` + strconv.Itoa(i) + `":1` }) + `}}`
		}},
		{"many unknown keys", func(k int) string {
			return `{` + seq(100*k, func(i int) string { return `"u` + strconv.Itoa(i) + `":1` }) + `}`
		}},
		{"branches, bad elements", func(k int) string {
			return `{"br":[` + seq(100*k, func(i int) string { return `{"k":` + strconv.Itoa(i) + `.5,"v":1,"z":[]}` }) + `]}`
		}},
		{"branches, clean elements", func(k int) string {
			return `{"br":[` + seq(100*k, func(i int) string { return `{"k":` + strconv.Itoa(i) + `,"v":"x"}` }) + `]}`
		}},
		{"repeated key", func(k int) string { return `{` + rep(`"name":"xxxx"`, 100*k, ",") + `}` }},
		{"repeated nested keys", func(k int) string { return `{"meta":{` + rep(`"a":1`, 100*k, ",") + `}}` }},
		{"a long key above many losses", func(k int) string {
			return `{"any":{"` + strings.Repeat(`\u00e9`, 1000*k) + `":[` + rep(rounds, 10*k, ",") + `]}}`
		}},
		// Keys no property names: at the open root, unknown keys; where
		// the root reads them against additionalProperties, each its own
		// problem, whose first issue of each rank is listed.
		{"many keys, each value bad", func(k int) string {
			return `{` + seq(100*k, func(i int) string { return `"u` + strconv.Itoa(i) + `":[2,` + rounds + `]` }) + `}`
		}},
		{"many keys, each sent twice with a bad value", func(k int) string {
			return `{` + seq(50*k, func(i int) string { return `"u` + strconv.Itoa(i) + `":[2],"u` + strconv.Itoa(i) + `":"x"` }) + `}`
		}},
		// A key sent twice in an argument, a flood in its first value: the
		// check is read again, the dropped value known.
		{"a key sent twice over a flood", func(k int) string {
			return `{"meta":{"a":[` + rep(`"x"`, 1000*k, ",") + `],"b":2,"a":"y"},"name":"xxxx"}`
		}},
	}
	scales := []int{1, 10, 100}
	if testing.Short() {
		scales = scales[:2]
	}
	keysRead := strings.Replace(schema, `"type":"object",`, `"type":"object","additionalProperties":{"type":"array","items":{"type":"integer","maximum":1}},`, 1)
	for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
		for _, root := range []struct{ name, schema string }{{"", schema}, {"keys read/", keysRead}} {
			reg := typereg.New()
			if err := reg.RegisterSchema("growth", json.RawMessage(root.schema), typereg.WithMode(mode), typereg.WithStrict(true)); err != nil {
				t.Fatal(err)
			}
			for _, sh := range shapes {
				t.Run(mode.String()+"/"+root.name+sh.name, func(t *testing.T) {
					var base struct {
						size  int
						bytes uint64
					}
					for i, k := range scales {
						args := json.RawMessage(sh.args(k))
						refuse.Decide(reg, "growth", args)
						_, bytes := memCost(func() { refuse.Decide(reg, "growth", args) })
						t.Logf("%dx: %d bytes of input, %d bytes allocated", k, len(args), bytes)
						if i == 0 {
							base.size, base.bytes = len(args), bytes
							continue
						}
						if float64(bytes)/float64(len(args)) > 2*float64(base.bytes)/float64(base.size)+64 {
							t.Errorf("%dx: %d bytes allocated for %d bytes of input; at 1x %d for %d", k, bytes, len(args), base.bytes, base.size)
						}
					}
				})
			}
		}
	}
}

// TestDecide_SchemaTool_DeepNestingIsBounded: nesting up to encoding/json's
// limit is read (a recursive schema followed all the way), past it the
// call is refused as too deep; neither crashes.
func TestDecide_SchemaTool_DeepNestingIsBounded(t *testing.T) {
	const schema = `{"type":"object","$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}},"additionalProperties":false}},"properties":{"node":{"$ref":"#/$defs/n"},"any":{}}}`
	reg := typereg.New()
	if err := reg.RegisterSchema("deep", json.RawMessage(schema)); err != nil {
		t.Fatal(err)
	}
	ok := `{"node":` + objects(9998, "next", "{}") + `}`
	if r := refuse.Refuse(reg, "deep", json.RawMessage(ok)); r != nil {
		t.Errorf("9999 levels: %v", r)
	}
	bad := `{"node":` + objects(9998, "next", `{"x":1}`) + `}`
	if r := refuse.Refuse(reg, "deep", json.RawMessage(bad)); r == nil || r.Problems[0].Code != refuse.UnknownField {
		t.Errorf("9999 levels, an unknown field at the bottom: %v", r)
	}
	deep := `{"any":` + arrays(10000, "") + `}`
	if r := refuse.Refuse(reg, "deep", json.RawMessage(deep)); r == nil || r.Problems[0].Code != refuse.TooDeep {
		t.Errorf("10001 levels: %v", r)
	}
}

// A number parameter the handler reads with an int accessor: the fraction
// the schema takes is a silent loss, the value the accessor returns shown.
func TestDecide_SchemaTool_IntReadsNameTheTruncation(t *testing.T) {
	reg := typereg.New()
	const schema = `{"type":"object","properties":{"lines":{"type":"number","minimum":0},"depth":{"type":"number"}}}`
	if err := reg.RegisterSchema("head", json.RawMessage(schema), typereg.WithIntReads("lines", "absent")); err != nil {
		t.Fatal(err)
	}
	d := refuse.Decide(reg, "head", json.RawMessage(`{"lines":2.5,"depth":0.5}`))
	want := []refuse.Problem{{Argument: "lines", Code: refuse.RoundedNumber, Takes: "a number of at least 0", Sent: "2.5", Becomes: "2"}}
	if d.Refusal != nil || d.Warnings == nil {
		t.Fatalf("decision %+v: want warnings", d)
	}
	if diff := cmp.Diff(want, d.Warnings.Problems, noPointer); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if d := refuse.Decide(reg, "head", json.RawMessage(`{"lines":2e0}`)); d.Warnings != nil || d.Refusal != nil {
		t.Errorf("a whole number read as an int: %+v", d)
	}
	if err := typereg.Register[struct{ N int }](typereg.New(), "s", typereg.WithIntReads("N")); err == nil {
		t.Error("WithIntReads on a struct tool registered")
	}
}

// Past the issues Check lists, what the policy lets through is not
// counted: an open tool with thousands of unknown keys passes, and so does
// an exempt key repeated thousands of times; a refusal's More counts each
// unknown key once, however often it is sent.
func TestDecide_SchemaTool_ManyKeys(t *testing.T) {
	unknown := func(n, times int) string {
		var b strings.Builder
		b.WriteString(`{"owner":"o","repo":"r"`)
		for range times {
			for i := range n {
				b.WriteString(`,"u` + strconv.Itoa(i) + `":1`)
			}
		}
		return b.String() + "}"
	}
	if d := refuse.Decide(schemaRegistry(t, typereg.WithOpen()), "list_issues", json.RawMessage(unknown(3000, 1))); d.Refusal != nil || d.Warnings != nil {
		t.Errorf("an open tool, 3000 unknown keys: %v %v", d.Refusal, d.Warnings)
	}
	exempt := `{"owner":"o","repo":"r"` + strings.Repeat(`,"_meta":1`, 3000) + `}`
	if d := refuse.Decide(schemaRegistry(t, typereg.WithExempt("_meta")), "list_issues", json.RawMessage(exempt)); d.Refusal != nil {
		t.Errorf("an exempt key sent 3000 times: %v", d.Refusal)
	}
	d := refuse.Decide(schemaRegistry(t), "list_issues", json.RawMessage(unknown(1500, 2)))
	if d.Refusal != nil || d.Warnings == nil {
		t.Fatalf("1500 unknown keys at a root the schema leaves open: refusal %v, warnings %v; want warnings only", d.Refusal, d.Warnings)
	}
	if got := len(d.Warnings.Problems) + d.Warnings.More; got != 1500 {
		t.Errorf("%d problems listed and %d more, want 1500 in all (one per unknown key)", len(d.Warnings.Problems), d.Warnings.More)
	}
	r := refuse.Refuse(schemaRegistry(t, typereg.WithStrict(true)), "list_issues", json.RawMessage(unknown(1500, 2)))
	if r == nil {
		t.Fatal("1500 unknown keys passed a strict tool")
	}
	if got := len(r.Problems) + r.More; got != 1500 {
		t.Errorf("strict: %d problems listed and %d more, want 1500 in all (one per unknown key)", len(r.Problems), r.More)
	}
}

// anyOf over branches of distinct types: the value is held to the branch
// of its type, and Takes names every branch.
func TestDecide_SchemaTool_AnyOfOfDistinctTypes(t *testing.T) {
	reg := typereg.New()
	const schema = `{"type":"object","properties":{"q":{"anyOf":[{"type":"string","maxLength":3},{"type":"null"}]}}}`
	if err := reg.RegisterSchema("search", json.RawMessage(schema)); err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{`{"q":null}`, `{"q":"abc"}`, `{}`} {
		if r := refuse.Refuse(reg, "search", json.RawMessage(ok)); r != nil {
			t.Errorf("%s: %v", ok, r)
		}
	}
	for args, want := range map[string]refuse.Problem{
		`{"q":"abcd"}`: {Argument: "q", Code: refuse.Constraint, Takes: "text of at most 3 characters or null", Sent: `"abcd"`},
		`{"q":1}`:      {Argument: "q", Code: refuse.WrongType, Takes: "text of at most 3 characters or null", Sent: "1"},
	} {
		refusesWith(t, reg, "search", args, want)
	}
}

// TestDecide_SchemaTool_BranchKeywordsNameTheClosestProblem: allOf, anyOf
// and oneOf whose branches overlap, not and if/then/else are refused with
// the problem of the branch the value breaks (for anyOf and oneOf, the
// branch that came closest), or as a constraint where the value passes a
// branch it must not; Takes words each keyword.
func TestDecide_SchemaTool_BranchKeywordsNameTheClosestProblem(t *testing.T) {
	reg := typereg.New()
	const schema = `{"type":"object","properties":{
		"a":{"allOf":[{"type":"object","properties":{"x":{"type":"integer"}}},{"required":["y"]}]},
		"s":{"type":"string","allOf":[{"maxLength":3},{"pattern":"^a"}]},
		"o":{"oneOf":[{"type":"object","required":["x"]},{"type":"object","properties":{"y":{"type":"integer"}},"required":["y"]}]},
		"n":{"not":{"type":"string"}},
		"i":{"if":{"type":"integer"},"then":{"minimum":3}}}}`
	if err := reg.RegisterSchema("t", json.RawMessage(schema)); err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{`{"a":{"x":1,"y":"v"}}`, `{"s":"ab"}`, `{"o":{"x":1}}`, `{"o":{"y":1}}`, `{"n":1}`, `{"i":3}`, `{"i":"s"}`} {
		if r := refuse.Refuse(reg, "t", json.RawMessage(ok)); r != nil {
			t.Errorf("%s: %v", ok, r)
		}
	}
	const a, s, o = "an object with fields x", "text, and text of at most 3 characters, and text matching the pattern ^a", "exactly one of: an object; an object with fields y"
	for args, want := range map[string]refuse.Problem{
		`{"a":{"x":1.5,"y":1}}`: {Argument: "a", Path: ".x", Code: refuse.NotWholeNumber, Takes: a, Sent: `{"x":1.5,"y":1}`, Element: "1.5"},
		`{"a":{"x":1}}`:         {Argument: "a", Path: ".y", Code: refuse.MissingField, Takes: a, Sent: `{"x":1}`, Element: `"y"`},
		`{"s":"bc"}`:            {Argument: "s", Code: refuse.Constraint, Takes: s, Sent: `"bc"`},
		`{"o":{"x":1,"y":1}}`:   {Argument: "o", Code: refuse.Constraint, Takes: o, Sent: `{"x":1,"y":1}`},
		`{"o":{"y":1.5}}`:       {Argument: "o", Path: ".x", Code: refuse.MissingField, Takes: o, Sent: `{"y":1.5}`, Element: `"x"`},
		`{"o":{"y":"z","z":1}}`: {Argument: "o", Path: ".x", Code: refuse.MissingField, Takes: o, Sent: `{"y":"z","z":1}`, Element: `"x"`},
		`{"n":"x"}`:             {Argument: "n", Code: refuse.Constraint, Takes: "any JSON value but not text", Sent: `"x"`},
		`{"i":2}`:               {Argument: "i", Code: refuse.Constraint, Takes: "any JSON value (if a whole number, then a whole number of at least 3)", Sent: "2"},
	} {
		refusesWith(t, reg, "t", args, want)
	}
}

// TestDecide_SchemaTool_EnumOfObjectsNamesTheValues: enum and const with
// arrays or objects compare the value as the map reader reads it, and
// Takes quotes them as JSON.
func TestDecide_SchemaTool_EnumOfObjectsNamesTheValues(t *testing.T) {
	reg := typereg.New()
	const schema = `{"type":"object","properties":{"mode":{"const":{"speed":"fast"}},"pair":{"enum":[[1,2],"none"]}}}`
	if err := reg.RegisterSchema("t", json.RawMessage(schema)); err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{`{"mode":{"speed":"fast"}}`, `{"mode":{"speed":"slow","speed":"fast"}}`, `{"pair":[1.0,2]}`, `{"pair":"none"}`} {
		if r := refuse.Refuse(reg, "t", json.RawMessage(ok)); r != nil {
			t.Errorf("%s: %v", ok, r)
		}
	}
	for args, want := range map[string]refuse.Problem{
		`{"mode":{"speed":"slow"}}`: {Argument: "mode", Code: refuse.NotOneOf, Takes: `exactly {"speed":"fast"}`, Sent: `{"speed":"slow"}`},
		`{"pair":[2,1]}`:            {Argument: "pair", Code: refuse.NotOneOf, Takes: `one of [1,2], none`, Sent: `[2,1]`},
	} {
		refusesWith(t, reg, "t", args, want)
	}
}

// TestDecide_SchemaTool_UniqueItemsIsAConstraint: an array with two equal
// elements (as jsonschema-go compares them) where uniqueItems refuses it is
// a constraint problem at the array.
func TestDecide_SchemaTool_UniqueItemsIsAConstraint(t *testing.T) {
	reg := typereg.New()
	if err := reg.RegisterSchema("t", json.RawMessage(`{"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"},"uniqueItems":true}}}`)); err != nil {
		t.Fatal(err)
	}
	if r := refuse.Refuse(reg, "t", json.RawMessage(`{"tags":["a","b"]}`)); r != nil {
		t.Errorf("distinct tags: %v", r)
	}
	r := refuse.Refuse(reg, "t", json.RawMessage(`{"tags":["a","b","a"]}`))
	want := []refuse.Problem{{Argument: "tags", Code: refuse.Constraint, Takes: "a list (a JSON array) of texts, no two equal", Sent: `["a","b","a"]`}}
	if r == nil {
		t.Fatal("repeated tags passed")
	}
	if diff := cmp.Diff(want, r.Problems, noPointer); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestDecide_SchemaTool_ArrayAndObjectKeywordsAreWorded: contains,
// propertyNames, dependentRequired, dependentSchemas, patternProperties and
// prefixItems are refused in the words of the rule broken.
func TestDecide_SchemaTool_ArrayAndObjectKeywordsAreWorded(t *testing.T) {
	reg := typereg.New()
	const schema = `{"type":"object","dependentRequired":{"since":["until"]},"properties":{"since":{"type":"string"},"until":{"type":"string"},
		"l":{"type":"array","contains":{"type":"integer"},"maxContains":2},
		"m":{"type":"object","propertyNames":{"maxLength":2}},
		"d":{"type":"object","dependentSchemas":{"x":{"required":["y"]}}},
		"p":{"type":"object","patternProperties":{"^x":{"type":"integer"}}},
		"pre":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}}}`
	if err := reg.RegisterSchema("t", json.RawMessage(schema)); err != nil {
		t.Fatal(err)
	}
	for _, ok := range []string{`{"pre":["a",1,true]}`, `{"since":"a","until":"b"}`, `{"l":["x",1]}`, `{"m":{"ab":1}}`, `{"d":{"x":1,"y":2}}`, `{"p":{"xa":1,"y":"s"}}`} {
		if r := refuse.Refuse(reg, "t", json.RawMessage(ok)); r != nil {
			t.Errorf("%s: %v", ok, r)
		}
	}
	const l = "a list (a JSON array) of JSON values, at least 1 and at most 2 of them a whole number"
	for args, want := range map[string]refuse.Problem{
		`{"since":"a"}`:     {Argument: "until", Code: refuse.MissingArgument, Takes: "text"},
		`{"l":["x"]}`:       {Argument: "l", Code: refuse.Constraint, Takes: l, Sent: `["x"]`},
		`{"l":[1,2,3]}`:     {Argument: "l", Code: refuse.Constraint, Takes: l, Sent: `[1,2,3]`},
		`{"m":{"abc":1}}`:   {Argument: "m", Path: ".abc", Code: refuse.Constraint, Takes: "an object, each key text of at most 2 characters", Sent: `{"abc":1}`, Element: `"abc"`},
		`{"d":{"x":1}}`:     {Argument: "d", Path: ".y", Code: refuse.MissingField, Takes: "an object", Sent: `{"x":1}`, Element: `"y"`},
		`{"p":{"xa":"s"}}`:  {Argument: "p", Path: ".xa", Code: refuse.WrongType, Takes: "an object, keys matching ^x holding whole numbers", Sent: `{"xa":"s"}`, Element: `"s"`},
		`{"pre":["a","b"]}`: {Argument: "pre", Path: "[1]", Code: refuse.WrongType, Takes: "a list (a JSON array) of values starting with text, a whole number, then true or false values", Sent: `["a","b"]`, Element: `"b"`},
	} {
		r := refuse.Refuse(reg, "t", json.RawMessage(args))
		if r == nil {
			t.Errorf("%s passed", args)
			continue
		}
		if diff := cmp.Diff([]refuse.Problem{want}, r.Problems, noPointer); diff != "" {
			t.Errorf("%s (-want +got):\n%s", args, diff)
		}
		for _, p := range r.Problems {
			switch {
			case args == `{"m":{"abc":1}}`:
				// A key's constraint (propertyNames) points at the key's
				// member, as every problem with a key does.
				if p.Pointer != "/m/abc" {
					t.Errorf("%s: pointer %q, want /m/abc", args, p.Pointer)
				}
			case p.Pointer != "":
				checkPointer(t, args, args, p)
			}
		}
	}
}

// refusesWith checks that tool of reg refuses args with want alone,
// and that want's pointer leads to what it quotes in args.
func refusesWith(t *testing.T, reg *typereg.Registry, tool, args string, want refuse.Problem) {
	t.Helper()
	r := refuse.Refuse(reg, tool, json.RawMessage(args))
	if r == nil {
		t.Errorf("%s passed", args)
		return
	}
	if diff := cmp.Diff([]refuse.Problem{want}, r.Problems, noPointer); diff != "" {
		t.Errorf("%s (-want +got):\n%s", args, diff)
	}
	for _, p := range r.Problems {
		if p.Pointer != "" {
			checkPointer(t, args, args, p)
		}
	}
}

// TestDecide_SchemaToolNestedRepeatWords: a key repeated inside an
// argument of a schema tool is worded at its place, as a struct tool's
// is. It was worded as the argument sent twice ("Argument 'filter' ...
// was sent more than once, under the key "author"").
func TestDecide_SchemaToolNestedRepeatWords(t *testing.T) {
	reg := typereg.New()
	if err := reg.RegisterSchema("list_issues", json.RawMessage(listIssues)); err != nil {
		t.Fatal(err)
	}
	d := refuse.Decide(reg, "list_issues", []byte(`{"owner":"o","repo":"r","filter":{"author":1,"author":"me"}}`))
	if d.Refusal != nil || d.Warnings == nil {
		t.Fatalf("want a warning alone, got %v / %v", d.Refusal, d.Warnings)
	}
	want := `Argument 'filter' for tool 'list_issues' has the key "author" at filter.author, the same key to the tool as one sent before it there; the tool reads each value over the one before: send it once.`
	if got := d.Warnings.String(); !strings.Contains(got, want) {
		t.Errorf("warnings:\n%s\nwant them to hold:\n%s", got, want)
	}
}

// TestDecide_SchemaRootRuleIsNamed: a schema tool whose root's own rule
// (minProperties, maxProperties) the arguments break is refused, or warned
// of, with that problem named: the arguments as a whole, what they must
// be, and what the call sent (the refusal named none before, only the
// accepted parameters).
func TestDecide_SchemaRootRuleIsNamed(t *testing.T) {
	for _, c := range []struct {
		schema, args, takes string
	}{
		{`{"type":"object","properties":{"a":{"type":"integer"}},"minProperties":1}`, `{}`, "a JSON object, with at least 1 argument"},
		{`{"type":"object","properties":{"a":{"type":"integer"},"b":{}},"maxProperties":1}`, `{"a":1,"b":2}`, "a JSON object, with at most 1 argument"},
		{`{"type":"object","properties":{"a":{},"b":{}},"minProperties":2,"maxProperties":2}`, `{"a":1}`, "a JSON object, with exactly 2 arguments"},
		// Empty arguments and null are read as {}: the root's rule holds them too.
		{`{"type":"object","properties":{"a":{"type":"integer"}},"minProperties":1}`, `null`, "a JSON object, with at least 1 argument"},
		{`{"type":"object","properties":{"a":{"type":"integer"}},"minProperties":1}`, ``, "a JSON object, with at least 1 argument"},
	} {
		for _, mode := range []typereg.Mode{typereg.Reject, typereg.Warn} {
			reg := typereg.New()
			if err := reg.RegisterSchema("t", json.RawMessage(c.schema), typereg.WithMode(mode)); err != nil {
				t.Fatal(err)
			}
			d := refuse.Decide(reg, "t", json.RawMessage(c.args))
			var ps []refuse.Problem
			switch {
			case mode == typereg.Reject && d.Refusal != nil:
				ps = d.Refusal.Problems
			case mode == typereg.Warn && d.Refusal == nil && d.Warnings != nil:
				ps = d.Warnings.Problems
			default:
				t.Fatalf("%s, mode %v, %s: %+v", c.schema, mode, c.args, d)
			}
			want := refuse.Problem{Code: refuse.Constraint, Takes: c.takes, Sent: c.args}
			if len(ps) != 1 || ps[0] != want {
				t.Errorf("%s, mode %v, %s: problems %+v, want %+v", c.schema, mode, c.args, ps, want)
			}
			text := "The arguments for tool 't' must be " + c.takes + ", and the call sent " + c.args + "."
			if c.args == "" {
				text = "The arguments for tool 't' must be " + c.takes + ", and the call sent none."
			}
			if r := refuse.Refuse(reg, "t", json.RawMessage(c.args)); mode == typereg.Reject && (r == nil || !strings.Contains(r.Error(), text)) {
				t.Errorf("%s: %v, want it to say %q", c.schema, r, text)
			}
		}
	}
}
