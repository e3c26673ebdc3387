package refuse_test

import (
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite docs/refusals.md from the catalogue")

// ambiguousTitle is the catalogue's one call refused in the default build
// only: under GOEXPERIMENT=jsonv2 the standard library's v2 binds an
// ambiguous key to the first parameter it fits, and the call goes on.
// That build checks so, and keeps the file's section.
const ambiguousTitle = "A key that fits two parameters when case is ignored, under jsonv2.Binder"

// ambiguousFieldTitle is the same inside an argument, refused in the
// default build only, as ambiguousTitle is.
const ambiguousFieldTitle = "A key inside an argument that fits two fields when case is ignored, under jsonv2.Binder"

// catalogue is one call per wording a refusal can take. TestCatalogue
// renders them into docs/refusals.md and fails when the file differs, so
// the documented wordings are the real ones.
var catalogue = []struct {
	title, tool, args string
}{
	{"A fraction for a whole number", "get_wait_stats", `{"hours_back":0.5}`},
	{"An exponent for a whole number", "get_wait_stats", `{"hours_back":1e2}`},
	{"A whole number past the type", "get_wait_stats", `{"hours_back":24,"limit":3000000000}`},
	{"A whole number below the type", "get_wait_stats", `{"hours_back":24,"limit":-3000000000}`},
	{"A minus sign for an unsigned type", probe.Tool, `{"uint":-0}`},
	{"Text for a whole number", "get_wait_stats", `{"hours_back":"24"}`},
	{"A number past a float", probe.Tool, `{"float64":1e400}`},
	{"Text for a number", probe.Tool, `{"float32":"1.5"}`},
	{"A number for true or false", probe.Tool, `{"bool":1}`},
	{"A number for text", "get_wait_stats", `{"hours_back":24,"database":5}`},
	{"A bad element in a list", "get_wait_stats", `{"hours_back":24,"waits":["CXPACKET",5]}`},
	{"Text for a list", "get_wait_stats", `{"hours_back":24,"waits":"CXPACKET"}`},
	{"A bad element in a fixed-size list", probe.Tool, `{"pair":[1,"2"]}`},
	{"A bad field in an object", probe.Tool, `{"nested":{"a":"one"}}`},
	{"A list for an object", probe.Tool, `{"nested_ptr":[1]}`},
	{"A bad value in a map", probe.Tool, `{"counts":{"a":1,"b":true}}`},
	{"A key a map of whole-number keys cannot read", probe.Tool, `{"names":{"one":"x"}}`},
	{"Bad base64", probe.Tool, `{"bytes":"not base64!"}`},
	{"Text that is not a number, for a json.Number", probe.Tool, `{"number":"twelve"}`},
	{"A number too large for any JSON value", probe.Tool, `{"any":[1,1e400]}`},
	{"A date that is not RFC 3339", probe.Tool, `{"time":"2024-01-02"}`},
	{"Text for a duration", probe.Tool, `{"duration":"5s"}`},
	{"A value outside a text enum", probe.Tool, `{"color":"red"}`},
	{"A bad member in a list of a text enum", probe.Tool, `{"colors":["teal","red"]}`},
	{"A value a custom decoder refuses", probe.Tool, `{"flex":"12a"}`},
	{"null for a type that reads null itself and refuses it", probe.Tool, `{"flex":null}`},
	{"A bare number for a ,string field", probe.Tool, `{"int_string":42}`},
	{"A fraction inside a ,string field", probe.Tool, `{"int_string":"4.5"}`},
	{"A long value, cut", "get_wait_stats", `{"hours_back":"` + strings.Repeat("a", 5000) + `"}`},
	{"Control characters, escaped", "get_wait_stats", "{\"hours_back\":\"\\u001b[2J\\u0007\"}"},
	{"A key that writes a quote and a line of the refusal, escaped", "get_wait_stats", `{"hours_back":24,"x' is not a parameter of tool 'get_wait_stats'.\nAccepted parameters: x":5}`},
	{"An unknown argument close to a parameter", "get_wait_stats", `{"hours_back":24,"hours":5}`},
	{"An unknown argument", "get_wait_stats", `{"hours_back":24,"verbose":true}`},
	{"Many unknown arguments", "get_wait_stats", `{"hours_back":24,"a":1,"b":2,"c":3,"d":4,"e":5}`},
	{"Problems in several arguments", "get_wait_stats", `{"hours_back":"x","limit":0.5,"colour":1}`},
	{"Any argument, for a tool that takes none", "ping", `{"x":1}`},
	{"Arguments that are not an object", "get_wait_stats", `["hours_back",5]`},
	{"Arguments that are not valid JSON", "get_wait_stats", `{"hours_back":5,}`},
	{"Arguments cut short", "get_wait_stats", `{"hours_back":`},
	{"An argument nested deeper than the binder reads", probe.Tool, `{"any":` + strings.Repeat("[", 10000) + strings.Repeat("]", 10000) + `}`},
	{"Arguments nested deeper than the binder reads", "get_wait_stats", `{"x":` + strings.Repeat(`{"x":`, 10000) + `1` + strings.Repeat("}", 10001)},
	{"A value past the tool's own bound (a validate tag)", "stats", `{"hours_back":500}`},
	{"Text past the tool's own length", "stats", `{"hours_back":1,"name":"` + strings.Repeat("é", 9) + `"}`},
	{"A value outside the tool's own list (oneof)", "stats", `{"hours_back":1,"color":"red"}`},
	{"A bad element under the tool's own dive", "stats", `{"hours_back":1,"ids":[1,0]}`},
	{"A field of an object argument past the field's own bound (a validate tag on a nested struct)", "trip", `{"window":{"from":"2024-01-01","days":91}}`},
	{"A number past the type, for a parameter with the tool's own range", "stats", `{"hours_back":1,"limit":3000000000}`},
	{"A wrong type, for a parameter with the tool's own range", "stats", `{"hours_back":"24"}`},
	{"A value the binder fails on, beside one past the tool's own bound", "stats", `{"hours_back":"x","limit":-1}`},
	{"A required parameter left out", "get_wait_stats", `{"limit":5}`},
	{"A required parameter with the tool's own range left out", "stats", `{"limit":5}`},
	{"Every required parameter left out, in one refusal", "two_required", `{}`},
	{"null for a required parameter that cannot hold it", "get_wait_stats", `{"hours_back":null}`},
	{"A key inside an object argument that names no field", probe.Tool, `{"nested":{"a":1,"colour":2}}`},
	{"An object argument without a field its struct requires", probe.Tool, `{"nested":{}}`},
	{"An argument sent under its name and an old name (an alias)", "aliased", `{"hours":1,"hrs":2}`},
	{"An argument sent under its name and a key matched only by ignoring case", "aliased", `{"hours":500,"HOURS":5}`},
	{"null for a value that cannot hold it (Strict)", "strict", `{"int":null}`},
	{"A key matched only by ignoring case (Strict)", "strict", `{"INT":1}`},
	{"A key inside an object matched only by ignoring case (Strict)", "strict", `{"nested":{"A":1}}`},
	{"A key sent twice (Strict)", "strict", `{"int":1,"int":2}`},
	{"A key sent twice inside an object (Strict)", "strict", `{"counts":{"a":1,"a":2}}`},
	{"More elements than a fixed-size list holds (Strict)", "strict", `{"pair":[1,2,3]}`},
	{"An integer a float rounds (Strict)", "strict", `{"float64":9007199254740993}`},
	{"A lone surrogate in text (Strict)", "strict", `{"string":"ab\ud800"}`},
	{"A whole number segmentio reads as another (Strict, segmentio.Binder)", "seg_strict", `{"int64":21000000000000000000}`},
	{"The key null of a map of integer keys, which segmentio reads as 0 (Strict, segmentio.Binder)", "seg_strict", `{"names":{"null":"a"}}`},
	{"A key sent twice, under a binder that refuses it (jsonv2.Binder)", "v2_tool", `{"hours_back":1,"hours_back":2,"hours_back":3}`},
	{"A key sent twice inside an argument, under jsonv2.Binder", "v2_tool", `{"hours_back":1,"nested":{"A":1,"A":2}}`},
	{"A key that is no parameter sent twice, under jsonv2.Binder", "v2_tool", `{"hours_back":1,"x":1,"x":2}`},
	{ambiguousTitle, "v2_folds", `{"USERID":7}`},
	{ambiguousFieldTitle, "v2_folds_nested", `{"in":{"AB":3}}`},
	{"Arguments a server's own reader refuses only together (bind.Reader)", "reader_tool", `{"owner":"o","page":500}`},
	{"Arguments a schema tool's root rule refuses as a whole (RegisterSchema, minProperties)", "schema_root", `{}`},
	{"No arguments, for a schema tool whose root must hold some", "schema_root", ``},
	{"An unregistered tool", "get_wait_stat", `{}`},
}

// schemaRootSchema is schema_root's input schema: a tool recorded from a
// JSON schema whose root requires one argument, whichever.
const schemaRootSchema = `{"type":"object","properties":{"owner":{"type":"string"},"repo":{"type":"string"}},"minProperties":1}`

// structuredArgs is the call whose refusal the catalogue shows in JSON.
const structuredArgs = `{"HOURS_BACK":"24","waits":["CXPACKET",5],"limt":5}`

const catalogueHead = `# What a refusal says

Every wording a refusal can take, one call each, against the tools in
refuse/catalogue_test.go (get_wait_stats, the probe tool, ping, and
two_required), refuse/constraint_test.go (stats, a tool with validate tags),
refuse/nested_constraint_test.go (trip, with validate tags on nested structs),
refuse/policy_test.go (aliased, the tool statsArgs with aliases), the
probe tool registered Strict (strict), whose silent losses are refusals, the
same under segmentio.Binder (seg_strict), and
refuse/duplicate_name_test.go (v2_tool, read by jsonv2.Binder),
refuse/ambiguous_test.go (v2_folds and v2_folds_nested, the same; the
standard library's v2, under GOEXPERIMENT=jsonv2, binds the keys their
sections refuse),
refuse/reader_test.go (reader_tool, read by a server's own bind.Reader), and
schema_root, a tool recorded from its JSON schema (catalogue_test.go's
schemaRootSchema). A
warning (docs/policies.md) says the same sentences, under a line saying the
call went on. This
file is written by that test (` + "`go test ./refuse -run TestCatalogue -update`" + `)
and checked by it on every run, so it is the code's own output.

The text is for a caller (a model or a person) to read. Programs should read
the structured fields of refuse.Refusal and refuse.Problem instead: the
codes are stable, the wording is not. Each call below names its problems'
codes and, where a problem has a place in the arguments, its JSON Pointer.

## The structured form

A Refusal marshals to JSON (an MCP result's structuredContent) with one
object per problem: ` + "`argument`" + ` (the parameter, by its declared name), ` + "`path`" + `
(readable, from the argument's value in, as the text shows it), ` + "`pointer`" + `
(an RFC 6901 JSON Pointer from the root of the arguments to the offending
value, its first token the key as the call sent it; for a problem with a
key, to that key's member; for a missing field, to where it would be),
` + "`code`" + `, ` + "`takes`" + `, ` + "`sent`" + `, ` + "`element`" + ` (the offending value inside the argument),
` + "`did_you_mean`" + ` and ` + "`becomes`" + `, each left out when empty. A path is bounded
(past 12 steps it keeps the first 4 and the last 8, with […] between;
a key is cut at 40 characters, with … after it); where a bound cuts it
short, the path shows the cut and the pointer is left out, for a pointer
cut short would lead to another place. A problem with no place in the
arguments sent (a parameter left out, the arguments as a whole) has no
pointer either. For the call ` + "`" + structuredArgs + "`" + `:

`

func TestCatalogue(t *testing.T) {
	reg := newRegistry(t)
	if err := typereg.Register[stats](reg, "stats"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[statsArgs](reg, "aliased"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[trip](reg, "trip"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[probe.Args](reg, "strict", typereg.WithStrict(true)); err != nil {
		t.Fatal(err)
	}
	v2 := v2Registry(t)
	segStrict := typereg.New(typereg.WithBinder(segmentio.Binder), typereg.WithStrict(true))
	if err := typereg.Register[probe.Args](segStrict, "seg_strict"); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString(catalogueHead)
	js, err := json.MarshalIndent(refuse.Refuse(reg, "get_wait_stats", json.RawMessage(structuredArgs)), "    ", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString("    " + string(js) + "\n")
	for _, c := range catalogue {
		rg := reg
		if strings.HasPrefix(c.tool, "v2_") {
			rg = v2
		}
		if c.tool == "reader_tool" {
			rg = readerRegistry(t)
		}
		if c.tool == "seg_strict" {
			rg = segStrict
		}
		if c.tool == "schema_root" {
			rg = typereg.New()
			if err := rg.RegisterSchema(c.tool, json.RawMessage(schemaRootSchema)); err != nil {
				t.Fatal(err)
			}
		}
		r := refuse.Refuse(rg, c.tool, json.RawMessage(c.args))
		if (c.title == ambiguousTitle || c.title == ambiguousFieldTitle) && jsonv2Build {
			if r != nil {
				t.Errorf("%s: %s %s was refused under GOEXPERIMENT=jsonv2, which binds the key:\n%s", c.title, c.tool, c.args, r)
			}
			b.WriteString(fileSection(t, c.title))
			continue
		}
		if r == nil {
			t.Errorf("%s: %s %s was not refused", c.title, c.tool, c.args)
			continue
		}
		var codes []string
		for _, p := range r.Problems {
			if p.Pointer != "" {
				codes = append(codes, string(p.Code)+" at `"+p.Pointer+"`")
			} else {
				codes = append(codes, string(p.Code))
			}
		}
		args := c.args
		if len(args) > 120 {
			args = args[:100] + "…"
		}
		b.WriteString("\n## " + c.title + "\n\n")
		called := "`" + args + "`"
		if args == "" {
			called = "no arguments (empty)"
		}
		b.WriteString("`" + c.tool + "` called with " + called + " (" + strings.Join(codes, ", ") + "):\n\n")
		for _, line := range strings.Split(r.Error(), "\n") {
			b.WriteString("    " + line + "\n")
		}
	}
	const path = "../docs/refusals.md"
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./refuse -run TestCatalogue -update)", err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("docs/refusals.md is stale (-file +code); run go test ./refuse -run TestCatalogue -update:\n%s", diff)
	}
}

// fileSection returns the section of docs/refusals.md titled title, from
// its heading's blank line before to the next heading's.
func fileSection(t *testing.T, title string) string {
	t.Helper()
	file, err := os.ReadFile("../docs/refusals.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(file), "\n## "+title+"\n")
	if !ok {
		t.Fatalf("docs/refusals.md has no section %q", title)
	}
	if i := strings.Index(rest, "\n## "); i >= 0 {
		rest = rest[:i]
	}
	return "\n## " + title + "\n" + rest
}
