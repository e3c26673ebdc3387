package refuse_test

import (
	"encoding/json"
	"slices"
	"testing"

	gschema "github.com/google/jsonschema-go/jsonschema"

	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
	"github.com/google/go-cmp/cmp"
)

// statsArgs is a tool with an alias in its tag: hours was once hrs, and before
// that hours_back.
type statsArgs struct {
	Hours  int    `json:"hours" bindguard:"alias=hrs,hours_back"`
	Name   string `json:"name,omitempty"`
	Window window `json:"window,omitempty"`
}

type window struct {
	From int `json:"from"`
}

var statsAccepted = []string{"hours", "name", "window"}

// policyRegistry registers statsArgs as tool "stats" in a registry made with
// regOpts, with toolOpts.
func policyRegistry(t *testing.T, regOpts []typereg.Option, toolOpts ...typereg.Option) *typereg.Registry {
	t.Helper()
	reg := typereg.New(regOpts...)
	if err := typereg.Register[statsArgs](reg, "stats", toolOpts...); err != nil {
		t.Fatal(err)
	}
	return reg
}

// A verdict is a Decision with its Args as text, for diffs.
type verdict struct {
	Refusal  *refuse.Refusal
	Warnings *refuse.Warnings
	Args     string
}

func decide(reg *typereg.Registry, args string) verdict {
	d := refuse.Decide(reg, "stats", json.RawMessage(args))
	return verdict{Refusal: d.Refusal, Warnings: d.Warnings, Args: string(d.Args)}
}

func TestDecide_PolicyPerMode(t *testing.T) {
	reject := []typereg.Option{typereg.WithMode(typereg.Reject)}
	warn := []typereg.Option{typereg.WithMode(typereg.Warn)}
	off := []typereg.Option{typereg.WithMode(typereg.Off)}
	unknown := refuse.Problem{Argument: "colour", Code: refuse.UnknownArgument, Sent: `"colour"`}
	fraction := refuse.Problem{Argument: "hours", Code: refuse.NotWholeNumber, Takes: "a whole number", Sent: "0.5"}
	both := refuse.Problem{Argument: "hours", Code: refuse.AliasConflict, Takes: "a whole number", Sent: `"hours", "hrs"`, Becomes: "1"}
	missing := refuse.Problem{Argument: "hours", Code: refuse.MissingArgument, Takes: "a whole number"}
	unknownField := refuse.Problem{Argument: "window", Path: ".to", Code: refuse.UnknownField, Takes: "an object with fields from", Sent: `{"from":1,"to":2}`, Element: `"to"`}
	nullName := refuse.Problem{Argument: "name", Code: refuse.NullForValue, Takes: "text", Sent: "null", Becomes: `""`}
	for _, tc := range []struct {
		name     string
		regOpts  []typereg.Option
		toolOpts []typereg.Option
		args     string
		want     verdict
	}{
		{
			name: "unknown key, reject: refused before the handler", regOpts: reject,
			args: `{"hours":1,"colour":2}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{unknown}}},
		},
		{
			name: "unknown key, default mode is reject",
			args: `{"hours":1,"colour":2}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{unknown}}},
		},
		{
			name: "unknown key, warn: the handler runs, warned", regOpts: warn,
			args: `{"hours":1,"colour":2}`,
			want: verdict{Warnings: &refuse.Warnings{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{unknown}}, Args: `{"hours":1,"colour":2}`},
		},
		{
			name: "unknown key, off: nothing checked", regOpts: off,
			args: `{"hours":1,"colour":2}`,
			want: verdict{Args: `{"hours":1,"colour":2}`},
		},
		{
			name: "unknown key, warn for the tool overrides the registry's reject", regOpts: reject, toolOpts: warn,
			args: `{"hours":1,"colour":2}`,
			want: verdict{Warnings: &refuse.Warnings{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{unknown}}, Args: `{"hours":1,"colour":2}`},
		},
		{
			name: "binder failure, reject: refused with the policy problems too", regOpts: reject,
			args: `{"hours":0.5,"colour":2}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{fraction, unknown}}},
		},
		{
			name: "binder failure, warn: still refused, for the binder's problem alone", regOpts: warn,
			args: `{"hours":0.5,"colour":2}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{fraction}}},
		},
		{
			name: "binder failure, off: passed on to the binder", regOpts: off,
			args: `{"hours":0.5}`,
			want: verdict{Args: `{"hours":0.5}`},
		},
		{
			name: "exempt key of the registry passes, and stays in the arguments", regOpts: []typereg.Option{typereg.WithExempt("format", "cursor")},
			args: `{"hours":1,"format":"json"}`,
			want: verdict{Args: `{"hours":1,"format":"json"}`},
		},
		{
			name: "exempt key of the tool passes", toolOpts: []typereg.Option{typereg.WithExempt("max_tokens")},
			args: `{"hours":1,"max_tokens":5}`,
			want: verdict{Args: `{"hours":1,"max_tokens":5}`},
		},
		{
			name: "exempt key matched by its text, escapes read", regOpts: []typereg.Option{typereg.WithExempt("format")},
			args: `{"hours":1,"form\u0061t":"json"}`,
			want: verdict{Args: `{"hours":1,"form\u0061t":"json"}`},
		},
		{
			name: "an exempt key is exact: a case variant is unknown", regOpts: []typereg.Option{typereg.WithExempt("format")},
			args: `{"hours":1,"FORMAT":"json"}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{
				{Argument: "FORMAT", Code: refuse.UnknownArgument, Sent: `"FORMAT"`},
			}}},
		},
		{
			name: "open tool: unknown keys pass", toolOpts: []typereg.Option{typereg.WithOpen()},
			args: `{"hours":1,"colour":2}`,
			want: verdict{Args: `{"hours":1,"colour":2}`},
		},
		{
			name: "open tool: values are still the binder's", toolOpts: []typereg.Option{typereg.WithOpen()},
			args: `{"hours":"1","colour":2}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{
				{Argument: "hours", Code: refuse.WrongType, Takes: "a whole number", Sent: `"1"`},
			}}},
		},
		{
			name: "alias from the tag: renamed for the handler",
			args: `{"hrs":3}`,
			want: verdict{Args: `{"hours":3}`},
		},
		{
			name: "alias from an option: renamed", toolOpts: []typereg.Option{typereg.WithAlias("n", "name")},
			args: `{"hours":1, "n":"x"}`,
			want: verdict{Args: `{"hours":1,"name":"x"}`},
		},
		{
			name: "alias value is checked under the parameter's name",
			args: `{"hrs":0.5}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{fraction}}},
		},
		{
			name: "name and alias both sent, reject: refused naming both", regOpts: reject,
			args: `{"hours":1,"hrs":2}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{both}}},
		},
		{
			name: "name and alias both sent, warn: the name's value wins, warned", regOpts: warn,
			args: `{"hrs":2,"hours":1}`,
			want: verdict{
				Warnings: &refuse.Warnings{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{
					{Argument: "hours", Code: refuse.AliasConflict, Takes: "a whole number", Sent: `"hrs", "hours"`, Becomes: "1"},
				}},
				Args: `{"hours":1}`,
			},
		},
		{
			name: "two aliases of one parameter: refused naming both",
			args: `{"hrs":2,"hours_back":1}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{
				{Argument: "hours", Code: refuse.AliasConflict, Takes: "a whole number", Sent: `"hrs", "hours_back"`, Becomes: "2"},
			}}},
		},
		{
			name: "name and alias both sent, off: nothing renamed", regOpts: off,
			args: `{"hours":1,"hrs":2}`,
			want: verdict{Args: `{"hours":1,"hrs":2}`},
		},
		{
			name: "missing parameter, reject: refused by name", regOpts: reject,
			args: `{"name":"x"}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{missing}}},
		},
		{
			name: "missing parameter, warn: warned", regOpts: warn,
			args: `{"name":"x"}`,
			want: verdict{Warnings: &refuse.Warnings{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{missing}}, Args: `{"name":"x"}`},
		},
		{
			name: "missing parameter, off: nothing", regOpts: off,
			args: `{"name":"x"}`,
			want: verdict{Args: `{"name":"x"}`},
		},
		{
			name: "missing parameter sent under an alias is not missing",
			args: `{"hours_back":2}`,
			want: verdict{Args: `{"hours":2}`},
		},
		{
			name: "unknown field in an object argument, reject: refused", regOpts: reject,
			args: `{"hours":1,"window":{"from":1,"to":2}}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{unknownField}}},
		},
		{
			name: "unknown field in an object argument, warn: warned", regOpts: warn,
			args: `{"hours":1,"window":{"from":1,"to":2}}`,
			want: verdict{Warnings: &refuse.Warnings{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{unknownField}}, Args: `{"hours":1,"window":{"from":1,"to":2}}`},
		},
		{
			name: "unknown field, open tool: nested structs stay closed", toolOpts: []typereg.Option{typereg.WithOpen()},
			args: `{"hours":1,"window":{"from":1,"to":2}}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{unknownField}}},
		},
		{
			name: "silent loss, reject: a warning by default", regOpts: reject,
			args: `{"hours":1,"name":null}`,
			want: verdict{Warnings: &refuse.Warnings{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{nullName}}, Args: `{"hours":1,"name":null}`},
		},
		{
			name: "silent loss, reject and strict: refused", regOpts: []typereg.Option{typereg.WithStrict(true)},
			args: `{"hours":1,"name":null}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{nullName}}},
		},
		{
			name: "silent loss, strict for the tool only: refused", toolOpts: []typereg.Option{typereg.WithStrict(true)},
			args: `{"hours":1,"name":null}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{nullName}}},
		},
		{
			name: "silent loss, warn and strict: still a warning", regOpts: []typereg.Option{typereg.WithMode(typereg.Warn), typereg.WithStrict(true)},
			args: `{"hours":1,"name":null}`,
			want: verdict{Warnings: &refuse.Warnings{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{nullName}}, Args: `{"hours":1,"name":null}`},
		},
		{
			name: "silent loss, off: nothing", regOpts: []typereg.Option{typereg.WithMode(typereg.Off), typereg.WithStrict(true)},
			args: `{"hours":1,"name":null}`,
			want: verdict{Args: `{"hours":1,"name":null}`},
		},
		{
			name: "a refusal under reject lists the losses too", regOpts: reject,
			args: `{"name":null}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{missing, nullName}}},
		},
		{
			name: "alias in broken text: the call's own text is reported",
			args: `{"hrs":2,}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "stats", Accepted: statsAccepted, Problems: []refuse.Problem{
				{Code: refuse.InvalidJSON, Takes: "a JSON object", Sent: `byte 9 ("}") cannot stand there`},
			}}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := policyRegistry(t, tc.regOpts, tc.toolOpts...)
			if diff := cmp.Diff(tc.want, decide(reg, tc.args), noPointer); diff != "" {
				t.Errorf("Decide(%s) (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}

func TestDecide_UnknownToolRefusedInEveryMode(t *testing.T) {
	for _, m := range []typereg.Mode{typereg.Reject, typereg.Warn, typereg.Off} {
		reg := policyRegistry(t, []typereg.Option{typereg.WithMode(m)})
		d := refuse.Decide(reg, "stat", json.RawMessage(`{}`))
		if d.Refusal == nil || d.Refusal.Problems[0].Code != refuse.UnknownTool {
			t.Errorf("mode %v: Decide on an unregistered tool = %+v, want an unknown_tool refusal", m, d)
		}
	}
}

func TestDecide_ModeFromEnvironmentOverridesCode(t *testing.T) {
	t.Setenv(typereg.EnvMode, "warn")
	reg := policyRegistry(t, []typereg.Option{typereg.WithMode(typereg.Reject)}, typereg.WithMode(typereg.Reject))
	got := decide(reg, `{"hours":1,"colour":2}`)
	if got.Refusal != nil || got.Warnings == nil {
		t.Errorf("BINDGUARD_MODE=warn over reject in code: got %+v, want warnings and no refusal", got)
	}
}

func TestDecide_WarningsRenderAsText(t *testing.T) {
	reg := policyRegistry(t, []typereg.Option{typereg.WithMode(typereg.Warn)})
	d := refuse.Decide(reg, "stats", json.RawMessage(`{"hours":1,"colour":2}`))
	want := "The call to tool 'stats' went on with these warnings:\n" +
		"Argument 'colour' is not a parameter of tool 'stats'.\n" +
		"Accepted parameters: hours, name, window."
	if got := d.Warnings.String(); got != want {
		t.Errorf("Warnings.String() =\n%s\nwant\n%s", got, want)
	}
}

func TestDecide_NoAllocationsForACleanCallOfAToolWithAliases(t *testing.T) {
	reg := policyRegistry(t, nil, typereg.WithExempt("format"))
	args := json.RawMessage(`{"hours":1,"name":"x"}`)
	if n := testing.AllocsPerRun(100, func() { refuse.Decide(reg, "stats", args) }); n != 0 {
		t.Errorf("Decide allocated %v times per clean call, want 0", n)
	}
}

// TestDecide_UnknownKeysFollowThePublishedSchema: a key is unknown to the
// guard exactly where the published schema closes the object it is in: the
// root of a closed tool and every nested struct; not the root of an open
// tool, nor a map, nor an any. A key is missing exactly where the schema
// requires it, at the top and in nested structs. The schema is judged by
// github.com/google/jsonschema-go.
func TestDecide_UnknownKeysFollowThePublishedSchema(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[probe.Args](reg, "closed"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[statsArgs](reg, "open", typereg.WithOpen()); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ tool, args string }{
		{"closed", `{"nested":{"a":1}}`},
		{"closed", `{"nested":{"a":1,"zz":2}}`},
		{"closed", `{"nested_ptr":{"zz":2}}`},
		{"closed", `{"zz":1}`},
		{"closed", `{"counts":{"zz":1}}`},
		{"closed", `{"any":{"zz":{"yy":1}}}`},
		{"closed", `{"raw":{"zz":1}}`},
		{"open", `{"hours":1,"zz":1}`},
		{"open", `{"hours":1,"window":{"from":1}}`},
		{"open", `{"hours":1,"window":{"from":1,"zz":2}}`},
		{"closed", `{"nested":{}}`},
		{"closed", `{"nested_ptr":{}}`},
		{"closed", `{"counts":{}}`},
		{"open", `{"hours":1,"window":{}}`},
		{"open", `{"window":{"from":1}}`},
	} {
		tool, _ := reg.Tool(c.tool)
		b, err := json.Marshal(tool.Schema())
		if err != nil {
			t.Fatal(err)
		}
		var gs gschema.Schema
		if err := json.Unmarshal(b, &gs); err != nil {
			t.Fatal(err)
		}
		rs, err := gs.Resolve(nil)
		if err != nil {
			t.Fatal(err)
		}
		var inst any
		if err := json.Unmarshal([]byte(c.args), &inst); err != nil {
			t.Fatal(err)
		}
		schemaOK := rs.Validate(inst) == nil
		d := refuse.Decide(reg, c.tool, json.RawMessage(c.args))
		var ps []refuse.Problem
		if d.Refusal != nil {
			ps = d.Refusal.Problems
		}
		if d.Warnings != nil {
			ps = append(ps, d.Warnings.Problems...)
		}
		keyProblem := slices.ContainsFunc(ps, func(p refuse.Problem) bool {
			switch p.Code {
			case refuse.UnknownArgument, refuse.UnknownField, refuse.MissingArgument, refuse.MissingField:
				return true
			}
			return false
		})
		if keyProblem == schemaOK {
			t.Errorf("%s %s: the published schema accepts it: %v; the guard finds a key unknown or missing: %v (%+v)", c.tool, c.args, schemaOK, keyProblem, ps)
		}
	}
}

// A required field an object argument (or an object inside one) leaves
// out: missing_field, per mode, with the path to where it would be; the
// published schema requires it too.
func TestDecide_MissingFieldOfAnObject(t *testing.T) {
	type span struct {
		From int `json:"from"`
		To   int `json:"to,omitempty"`
		Odd  int `json:"a.b"`
	}
	type args struct {
		Span  span   `json:"span"`
		Spans []span `json:"spans,omitempty"`
	}
	accepted := []string{"span", "spans"}
	missingFrom := refuse.Problem{Argument: "span", Path: ".from", Code: refuse.MissingField, Takes: "an object with fields from, to, a.b", Sent: `{"to":2,"a.b":1}`, Element: `"from"`}
	for _, tc := range []struct {
		name string
		mode typereg.Mode
		args string
		want verdict
	}{
		{name: "all sent", mode: typereg.Reject, args: `{"span":{"from":1,"a.b":1}}`, want: verdict{Args: `{"span":{"from":1,"a.b":1}}`}},
		{name: "a field under a folded key is sent", mode: typereg.Reject, args: `{"span":{"FROM":1,"a.b":1}}`,
			want: verdict{Warnings: &refuse.Warnings{Tool: "t", Accepted: accepted, Problems: []refuse.Problem{
				{Argument: "span", Path: ".FROM", Code: refuse.FoldedKey, Takes: "an object with fields from, to, a.b", Sent: `"FROM"`},
			}}, Args: `{"span":{"FROM":1,"a.b":1}}`}},
		{name: "reject: refused", mode: typereg.Reject, args: `{"span":{"to":2,"a.b":1}}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "t", Accepted: accepted, Problems: []refuse.Problem{missingFrom}}}},
		{name: "warn: warned", mode: typereg.Warn, args: `{"span":{"to":2,"a.b":1}}`,
			want: verdict{Warnings: &refuse.Warnings{Tool: "t", Accepted: accepted, Problems: []refuse.Problem{missingFrom}}, Args: `{"span":{"to":2,"a.b":1}}`}},
		{name: "off: nothing", mode: typereg.Off, args: `{"span":{"to":2}}`, want: verdict{Args: `{"span":{"to":2}}`}},
		{name: "an odd name, in a list", mode: typereg.Reject, args: `{"span":{"from":1,"a.b":1},"spans":[{"from":1}]}`,
			want: verdict{Refusal: &refuse.Refusal{Tool: "t", Accepted: accepted, Problems: []refuse.Problem{
				{Argument: "spans", Path: `[0]["a.b"]`, Code: refuse.MissingField, Takes: "a list (a JSON array) of objects with fields from, to, a.b", Sent: `[{"from":1}]`, Element: `"a.b"`},
			}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := typereg.New(typereg.WithMode(tc.mode))
			if err := typereg.Register[args](reg, "t"); err != nil {
				t.Fatal(err)
			}
			d := refuse.Decide(reg, "t", json.RawMessage(tc.args))
			got := verdict{Refusal: d.Refusal, Warnings: d.Warnings, Args: string(d.Args)}
			if diff := cmp.Diff(tc.want, got, noPointer); diff != "" {
				t.Errorf("Decide(%s) (-want +got):\n%s", tc.args, diff)
			}
		})
	}
}

// The Kelvin sign folds to k under encoding/json: a key that binds only so
// is a folded_key, a warning by default, refused under Strict.
func TestDecide_KelvinSignFoldsToK(t *testing.T) {
	type args struct {
		Back int `json:"back"`
	}
	for _, strict := range []bool{false, true} {
		reg := typereg.New(typereg.WithStrict(strict))
		if err := typereg.Register[args](reg, "t"); err != nil {
			t.Fatal(err)
		}
		d := refuse.Decide(reg, "t", json.RawMessage(`{"bac\u212a":1}`))
		var ps []refuse.Problem
		if d.Refusal != nil {
			ps = d.Refusal.Problems
		} else if d.Warnings != nil {
			ps = d.Warnings.Problems
		}
		if len(ps) != 1 || ps[0].Code != refuse.FoldedKey || ps[0].Argument != "back" || (d.Refusal != nil) != strict {
			t.Errorf("strict %v: Decide = %+v, want one folded_key for back, refused only under Strict", strict, d)
		}
	}
}
