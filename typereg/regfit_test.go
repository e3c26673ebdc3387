package typereg_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	google "github.com/google/jsonschema-go/jsonschema"
	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type ptrParams struct {
	N    int    `json:"n"`
	Note string `json:"note,omitempty" validate:"max=5"`
}

// TestRegister_PointerToStruct_RecordsTheStruct pins that a pointer
// parameter type, as go-sdk's mcp.AddTool takes (In = *T), is recorded as
// T's record, by Register and RegisterType alike, and that its calls are
// judged as T's (the validator included). It failed: Register[*T] refused
// the type ("not a struct").
func TestRegister_PointerToStruct_RecordsTheStruct(t *testing.T) {
	for name, register := range map[string]func(*typereg.Registry) error{
		"Register":     func(r *typereg.Registry) error { return typereg.Register[*ptrParams](r, "p") },
		"RegisterType": func(r *typereg.Registry) error { return typereg.RegisterType(r, "p", reflect.TypeFor[*ptrParams]()) },
	} {
		t.Run(name, func(t *testing.T) {
			reg := typereg.New()
			if err := register(reg); err != nil {
				t.Fatal(err)
			}
			tl, _ := reg.Tool("p")
			if tl.Type() != reflect.TypeFor[ptrParams]() {
				t.Errorf("Type = %v, want ptrParams", tl.Type())
			}
			plain := typereg.New()
			if err := typereg.Register[ptrParams](plain, "p"); err != nil {
				t.Fatal(err)
			}
			want, _ := plain.Tool("p")
			if diff := cmp.Diff(asJSONValue(t, want.Schema()), asJSONValue(t, tl.Schema())); diff != "" {
				t.Errorf("schema (-T +*T):\n%s", diff)
			}
			for _, args := range []string{`{"n":1}`, `{"n":"x"}`, `{"n":1,"note":"too long"}`, `{}`, `null`} {
				w, g := refuse.Refuse(plain, "p", []byte(args)), refuse.Refuse(reg, "p", []byte(args))
				if diff := cmp.Diff(w, g); diff != "" {
					t.Errorf("%s: refusal (-T +*T):\n%s", args, diff)
				}
			}
			// bindtest reads the record as the guard does.
			bindtest.Run(t, reg, "p", []bindtest.Row{
				{Type: "int", Value: `0.5`, Refused: true, Says: "whole number"},
				{Type: "string", Value: `"ab"`},
			})
			bindtest.Constraints(t, reg)
		})
	}
}

func TestRegisterType_RefusesWhatIsNoStruct(t *testing.T) {
	reg := typereg.New()
	for _, typ := range []reflect.Type{nil, reflect.TypeFor[int](), reflect.TypeFor[**ptrParams](), reflect.TypeFor[*int]()} {
		if err := typereg.RegisterType(reg, "x", typ); err == nil {
			t.Errorf("RegisterType(%v) = nil, want an error", typ)
		}
	}
	if _, ok := reg.Tool("x"); ok {
		t.Errorf("a failed registration left a record")
	}
}

type readOnlyArgs struct {
	UID string `json:"uid"`
}

type readWriteArgs struct {
	UID       string `json:"uid"`
	Overwrite bool   `json:"overwrite"`
}

// TestRegisterType_SameNameAnotherStruct_ReplacesTheRecord pins late
// registration as a server's generic wrapper does it (grafana defines a
// name twice, read-only and read-write, with different structs): the name
// registered again with another type is judged by the new struct, and a
// reader holding the old record keeps it unchanged.
func TestRegisterType_SameNameAnotherStruct_ReplacesTheRecord(t *testing.T) {
	reg := typereg.New()
	if err := typereg.RegisterType(reg, "update", reflect.TypeFor[readOnlyArgs]()); err != nil {
		t.Fatal(err)
	}
	old, _ := reg.Tool("update")
	if r := refuse.Refuse(reg, "update", []byte(`{"uid":"a","overwrite":true}`)); r == nil {
		t.Fatal("the read-only record passes overwrite")
	}
	if err := typereg.RegisterType(reg, "update", reflect.TypeFor[readWriteArgs]()); err != nil {
		t.Fatal(err)
	}
	if r := refuse.Refuse(reg, "update", []byte(`{"uid":"a","overwrite":true}`)); r != nil {
		t.Errorf("the read-write record refuses a good call: %v", r)
	}
	if old.Type() != reflect.TypeFor[readOnlyArgs]() || len(old.Params()) != 1 {
		t.Errorf("the old record changed: %v %v", old.Type(), old.Accepted())
	}
}

// grafanaArgs is tagged as grafana tags its tools' parameters, for an
// invopop Reflector{RequiredFromJSONSchemaTags: true}.
type grafanaArgs struct {
	UID      string     `json:"uid" jsonschema:"required,description=The dashboard's UID"`
	Limit    int        `json:"limit" jsonschema:"description=At most this many"`
	Folder   string     `json:"folder" jsonschema:"description=The folder"`
	Filter   grafanaSub `json:"filter" jsonschema:"description=A filter"`
	Optional *int       `json:"optional,omitempty"`
}

type grafanaSub struct {
	Label string `json:"label" jsonschema:"required"`
	Value string `json:"value"`
}

// TestWithReflector_RequiredFromJSONSchemaTags_RequiresWhatTheReflectorDoes
// pins that a tool whose server reflects its schema with invopop's
// Reflector{RequiredFromJSONSchemaTags: true} requires what that schema
// requires, at the top level and inside a nested struct, and no more: a
// call the server's schema admits is never refused for a missing key. It
// failed: every field without omitempty was required (limit, folder,
// filter, filter.value), and {"uid":"a"} was refused.
func TestWithReflector_RequiredFromJSONSchemaTags_RequiresWhatTheReflectorDoes(t *testing.T) {
	ref := &jsonschema.Reflector{RequiredFromJSONSchemaTags: true, DoNotReference: true, ExpandedStruct: true}
	for _, where := range []string{"New", "Register"} {
		t.Run(where, func(t *testing.T) {
			var reg *typereg.Registry
			var err error
			if where == "New" {
				reg = typereg.New(typereg.WithReflector(ref))
				err = typereg.Register[grafanaArgs](reg, "g")
			} else {
				reg = typereg.New()
				err = typereg.Register[grafanaArgs](reg, "g", typereg.WithReflector(ref))
			}
			if err != nil {
				t.Fatal(err)
			}
			tl, _ := reg.Tool("g")
			own := ref.Reflect(&grafanaArgs{})
			if diff := cmp.Diff(own.Required, tl.Schema().Required); diff != "" {
				t.Errorf("required (-server's schema +guard's):\n%s", diff)
			}
			for _, args := range []string{`{"uid":"a"}`, `{"uid":"a","filter":{"label":"x"}}`} {
				if r := refuse.Refuse(reg, "g", []byte(args)); r != nil {
					t.Errorf("%s is refused, which the server's schema admits: %v", args, r)
				}
			}
			for _, args := range []string{`{}`, `{"uid":"a","filter":{}}`, `{"uid":1}`} {
				if r := refuse.Refuse(reg, "g", []byte(args)); r == nil {
					t.Errorf("%s passes", args)
				}
			}
		})
	}
}

// TestWithReflector_OptionsThatRenameFail pins that a reflector whose
// options name properties otherwise than the binder matches keys fails
// the registration, naming the option, rather than publish names no call
// could use.
func TestWithReflector_OptionsThatRenameFail(t *testing.T) {
	for name, ref := range map[string]*jsonschema.Reflector{
		"FieldNameTag": {FieldNameTag: "yaml"},
		"KeyNamer":     {KeyNamer: func(s string) string { return s }},
		"nil":          nil,
	} {
		err := typereg.Register[grafanaArgs](typereg.New(), "g", typereg.WithReflector(ref))
		if err == nil {
			t.Errorf("%s: Register = nil, want an error", name)
		}
		if err := typereg.Register[grafanaArgs](typereg.New(typereg.WithReflector(ref)), "g"); err == nil {
			t.Errorf("%s: Register on New(WithReflector) = nil, want an error", name)
		}
	}
}

// TestWithReflector_AllowAdditionalProperties_OpensTheTool pins that a
// reflector that leaves additional properties open makes the tool open at
// every level, as the schema it reflects is, so that the guard does not
// refuse a key the server's published schema admits (and its decoder
// drops): at the top level, and inside a nested struct. It failed on the
// nested key: {"uid":"a","filter":{"label":"x","other":1}} was refused
// (unknown_field), and the nested definition was published closed.
func TestWithReflector_AllowAdditionalProperties_OpensTheTool(t *testing.T) {
	reg := typereg.New()
	ref := &jsonschema.Reflector{RequiredFromJSONSchemaTags: true, AllowAdditionalProperties: true}
	if err := typereg.Register[grafanaArgs](reg, "g", typereg.WithReflector(ref)); err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"uid":"a","extra":1}`, `{"uid":"a","filter":{"label":"x","other":1}}`} {
		if r := refuse.Refuse(reg, "g", []byte(args)); r != nil {
			t.Errorf("%s: a key the server's schema admits is refused: %v", args, r)
		}
	}
	var many strings.Builder
	many.WriteString(`{"uid":"a","filter":{"label":"x"`)
	for i := range 5000 {
		fmt.Fprintf(&many, `,"k%d":1`, i)
	}
	many.WriteString(`}}`)
	if d := refuse.Decide(reg, "g", []byte(many.String())); d.Refusal != nil || d.Warnings != nil {
		t.Errorf("5000 nested keys the schema admits: refusal %v, warnings %v", d.Refusal, d.Warnings)
	}
	if r := refuse.Refuse(reg, "g", []byte(`{"uid":"a","filter":{"other":1}}`)); r == nil {
		t.Errorf("a nested struct's required field left out passes")
	}
	tl, _ := reg.Tool("g")
	if tl.Schema().AdditionalProperties != nil {
		t.Errorf("the schema stays closed: %v", tl.Schema().AdditionalProperties)
	}
	own := asJSONValue(t, ref.Reflect(&grafanaArgs{}))
	got := asJSONValue(t, tl.Schema())
	if diff := cmp.Diff(openness(own), openness(got)); diff != "" {
		t.Errorf("additionalProperties by path (-server's schema +guard's):\n%s", diff)
	}
}

// openness lists, for each object schema in s (a schema as JSON, $refs
// followed), whether it leaves additional properties open.
func openness(s any) map[string]bool {
	root, _ := s.(map[string]any)
	out := map[string]bool{}
	var walk func(path string, v any, depth int)
	walk = func(path string, v any, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 8 {
			return
		}
		if ref, ok := m["$ref"].(string); ok {
			defs, _ := root["$defs"].(map[string]any)
			walk(path, defs[strings.TrimPrefix(ref, "#/$defs/")], depth+1)
			return
		}
		if props, ok := m["properties"].(map[string]any); ok {
			out[path] = m["additionalProperties"] != false
			for k, p := range props {
				walk(path+"/"+k, p, depth+1)
			}
		}
	}
	walk("", root, 0)
	return out
}

// goSDKArgs is tagged as go-sdk's mcp.AddTool reads tags, with
// google/jsonschema-go: the whole jsonschema tag is the description.
type goSDKArgs struct {
	Query  string              `json:"query" jsonschema:"the text to search for, case-insensitive"`
	Limit  int                 `json:"limit,omitempty" jsonschema:"required"` // a description, to jsonschema-go
	Scope  *goSDKScope         `json:"scope,omitempty" jsonschema:"where to look"`
	Tags   []goSDKTag          `json:"tags,omitempty" jsonschema:"labels to match"`
	ByName map[string]goSDKTag `json:"by_name,omitempty"`
	Plain  bool                `json:"plain"`
	Page   int                 `json:"page,omitempty" jsonschema:"which page, minimum=1" validate:"omitempty,min=1"`
}

type goSDKScope struct {
	Dir   string `json:"dir" jsonschema:"a directory"`
	Depth int    `json:"depth,omitempty" jsonschema:"how deep, at most"`
}

type goSDKTag struct {
	Key string `json:"key" jsonschema:"the label's key"`
}

// TestWithJSONSchemaGo_SchemaAsGoogleInfersIt pins that a tool registered
// WithJSONSchemaGo publishes the descriptions and required lists
// google/jsonschema-go infers for the struct (as go-sdk's mcp.AddTool
// publishes them), at every level, and requires no more. It failed: the
// descriptions were dropped (invopop reads the tag as options) and
// jsonschema:"required" made limit required.
func TestWithJSONSchemaGo_SchemaAsGoogleInfersIt(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[goSDKArgs](reg, "s", typereg.WithJSONSchemaGo()); err != nil {
		t.Fatal(err)
	}
	tl, _ := reg.Tool("s")
	want, err := google.For[goSDKArgs](nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(describedAndRequired(t, want), describedAndRequired(t, tl.Schema())); diff != "" {
		t.Errorf("descriptions and required lists (-jsonschema-go +guard):\n%s", diff)
	}
	bindtest.Constraints(t, reg) // the validate tag's range is the schema's, the description aside
	if r := refuse.Refuse(reg, "s", []byte(`{"query":"a","plain":true,"scope":{"dir":"d"}}`)); r != nil {
		t.Errorf("a call go-sdk's schema admits is refused: %v", r)
	}
	if r := refuse.Refuse(reg, "s", []byte(`{"query":"a","plain":true,"scope":{}}`)); r == nil {
		t.Errorf("scope without dir passes, which go-sdk's schema requires")
	}
}

// TestWithJSONSchemaGo_DescriptionsAreNotOptions pins that a description
// holding words invopop reads as options publishes nothing but the
// description, as go-sdk's schema has it: no bound, no null, no pattern.
// It failed: "minimum=1" in a sentence published a minimum, "nullable" a
// null type.
func TestWithJSONSchemaGo_DescriptionsAreNotOptions(t *testing.T) {
	type sub struct {
		Depth int `json:"depth" jsonschema:"how deep, minimum=1"`
	}
	type args struct {
		N     int    `json:"n" jsonschema:"the count, minimum=1, maximum=5"`
		S     string `json:"s" jsonschema:"a name, nullable, pattern=^a"`
		Inner sub    `json:"inner" jsonschema:"where, required"`
	}
	reg := typereg.New()
	if err := typereg.Register[args](reg, "s", typereg.WithJSONSchemaGo()); err != nil {
		t.Fatal(err)
	}
	tl, _ := reg.Tool("s")
	want, err := google.For[args](nil)
	if err != nil {
		t.Fatal(err)
	}
	w, g := asJSONValue(t, want).(map[string]any), inlineRefs(asJSONValue(t, tl.Schema())).(map[string]any)
	for _, k := range []string{"properties", "required"} {
		if diff := cmp.Diff(w[k], g[k]); diff != "" {
			t.Errorf("%s (-jsonschema-go +guard):\n%s", k, diff)
		}
	}
}

// TestWithJSONSchemaGo_DescriptionsAddNothingToTheStruct pins that a
// description holding invopop's oneof_required or anyof_required, which
// invopop reads as a rule on the struct that holds the field, adds no rule
// there, at the top level or inside. It failed: the root and the nested
// struct were published with oneOf and anyOf lists go-sdk's schema lacks.
func TestWithJSONSchemaGo_DescriptionsAddNothingToTheStruct(t *testing.T) {
	type inner struct {
		A string `json:"a,omitempty" jsonschema:"either this,anyof_required=one"`
		B string `json:"b,omitempty" jsonschema:"or that,anyof_required=two"`
	}
	type args struct {
		X  string `json:"x,omitempty" jsonschema:"pick x,oneof_required=x"`
		Y  string `json:"y,omitempty" jsonschema:"or y,oneof_required=y"`
		In inner  `json:"in,omitempty" jsonschema:"nested"`
	}
	reg := typereg.New()
	if err := typereg.Register[args](reg, "s", typereg.WithJSONSchemaGo()); err != nil {
		t.Fatal(err)
	}
	tl, _ := reg.Tool("s")
	got := inlineRefs(asJSONValue(t, tl.Schema())).(map[string]any)
	in, _ := got["properties"].(map[string]any)["in"].(map[string]any)
	for where, s := range map[string]map[string]any{"root": got, "in": in} {
		for _, k := range []string{"oneOf", "anyOf"} {
			if v, ok := s[k]; ok {
				t.Errorf("%s has %s %v", where, k, v)
			}
		}
	}
}

// TestWithJSONSchemaGo_InvopopSyntaxStaysInvopops pins that a tag
// google/jsonschema-go refuses (it begins with WORD=) is read as invopop
// reads it, so one struct may carry either syntax.
func TestWithJSONSchemaGo_InvopopSyntaxStaysInvopops(t *testing.T) {
	type args struct {
		N int `json:"n" jsonschema:"description=how many,minimum=1"`
		M int `json:"m" jsonschema_description:"the m"`
	}
	reg := typereg.New()
	if err := typereg.Register[args](reg, "s", typereg.WithJSONSchemaGo()); err != nil {
		t.Fatal(err)
	}
	tl, _ := reg.Tool("s")
	n, _ := tl.Param("n")
	m, _ := tl.Param("m")
	if n.Schema().Description != "how many" || n.Schema().Minimum != json.Number("1") || m.Schema().Description != "the m" {
		t.Errorf("n: %q minimum %q; m: %q", n.Schema().Description, n.Schema().Minimum, m.Schema().Description)
	}
}

// describedAndRequired lists, by JSON Pointer-ish path, each description
// and each non-empty required list of schema s (either library's), with
// $refs followed.
func describedAndRequired(t *testing.T, s any) map[string]any {
	t.Helper()
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(b, &root); err != nil {
		t.Fatal(err)
	}
	out := map[string]any{}
	var walk func(path string, v any, depth int)
	walk = func(path string, v any, depth int) {
		m, ok := v.(map[string]any)
		if !ok || depth > 8 {
			return
		}
		if d, ok := m["description"]; ok && path != "" {
			out[path+" description"] = d
		}
		if ref, ok := m["$ref"].(string); ok {
			defs, _ := root["$defs"].(map[string]any)
			walk(path, defs[strings.TrimPrefix(ref, "#/$defs/")], depth+1)
			return
		}
		if r, ok := m["required"].([]any); ok && len(r) > 0 {
			out[path+" required"] = r
		}
		if props, ok := m["properties"].(map[string]any); ok {
			for k, p := range props {
				walk(path+"/"+k, p, depth+1)
			}
		}
		walk(path+"/items", m["items"], depth+1)
		walk(path+"/*", m["additionalProperties"], depth+1)
	}
	walk("", root, 0)
	return out
}

func asJSONValue(t *testing.T, v any) any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// Recursive types whose fields carry jsonschema-go descriptions, the
// shapes a description makes the registry reflect again.
type descNode struct {
	V    int                  `json:"v" jsonschema:"the value"`
	Next *descNode            `json:"next,omitempty" jsonschema:"the next node"`
	Kids []descNode           `json:"kids,omitempty" jsonschema:"children"`
	ByID map[string]*descNode `json:"by_id,omitempty" jsonschema:"children by id"`
	Peer *descPeer            `json:"peer,omitempty" jsonschema:"a peer, which leads back"`
}

type descPeer struct {
	Back *descNode `json:"back,omitempty" jsonschema:"back to a node"`
}

type DescSelf struct {
	*DescSelf `jsonschema:"embedded, itself"`
	N         int `json:"n" jsonschema:"a count"`
}

// TestRegister_RecursiveTypes_UnderEveryTagReading pins that the
// recursive types registration terminates on (recursive_test.go's, and
// recursive types whose fields carry descriptions) terminate under
// WithJSONSchemaGo and WithReflector too, with $refs that resolve, and fail
// exactly where the default reading fails. It failed: a recursive type
// whose field carries a jsonschema-go description never returned from
// Register (each description reflected the type again, expanded).
func TestRegister_RecursiveTypes_UnderEveryTagReading(t *testing.T) {
	type tc = recursiveTool
	tools := append([]tc{}, recursiveTools...)
	tools = append(tools,
		tc{name: "described list and tree", typ: reflect.TypeFor[struct {
			Head descNode  `json:"head" jsonschema:"the list"`
			Peer *descPeer `json:"peer,omitempty" jsonschema:"a peer"`
		}]()},
		tc{name: "described self-embedding", typ: reflect.TypeFor[struct {
			S DescSelf `json:"s" jsonschema:"a self-embedding struct"`
		}]()})
	for name, opt := range map[string]typereg.Option{
		"WithJSONSchemaGo": typereg.WithJSONSchemaGo(),
		"WithReflector":    typereg.WithReflector(&jsonschema.Reflector{RequiredFromJSONSchemaTags: true, AllowAdditionalProperties: true}),
	} {
		for _, b := range binders {
			for _, tc := range tools {
				t.Run(name+"/"+b.Name()+"/"+tc.name, func(t *testing.T) {
					plainErr := typereg.RegisterType(typereg.New(typereg.WithBinder(b)), "t", tc.typ)
					reg := typereg.New(typereg.WithBinder(b))
					done := make(chan error, 1)
					go func() { done <- typereg.RegisterType(reg, "t", tc.typ, opt) }()
					var err error
					select {
					case err = <-done:
					case <-time.After(10 * time.Second):
						t.Fatalf("Register(%v) did not return", tc.typ)
					}
					if (err == nil) != (plainErr == nil) {
						t.Fatalf("Register: %v; without the option: %v", err, plainErr)
					}
					if err != nil {
						return
					}
					tool, _ := reg.Tool("t")
					raw, err := json.Marshal(tool.Schema())
					if err != nil {
						t.Fatalf("the schema does not marshal: %v", err)
					}
					checkRefs(t, raw)
				})
			}
		}
	}
}

// inlineRefs is schema v (as JSON) with each $ref to its root's $defs
// replaced by the definition (a $ref beside other keywords merged with
// them), to a bounded depth: the shape jsonschema-go writes, which inlines.
func inlineRefs(v any) any {
	root, _ := v.(map[string]any)
	defs, _ := root["$defs"].(map[string]any)
	var in func(v any, depth int) any
	in = func(v any, depth int) any {
		switch v := v.(type) {
		case map[string]any:
			out := map[string]any{}
			if ref, ok := v["$ref"].(string); ok && depth < 8 {
				if d, ok := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any); ok {
					for k, e := range in(d, depth+1).(map[string]any) {
						out[k] = e
					}
				}
			}
			for k, e := range v {
				if k != "$ref" && k != "$defs" {
					out[k] = in(e, depth+1)
				}
			}
			return out
		case []any:
			out := make([]any, len(v))
			for i, e := range v {
				out[i] = in(e, depth+1)
			}
			return out
		}
		return v
	}
	return in(v, 0)
}

// TestWithReflector_CommentsAreDescriptions pins that descriptions a
// server's reflector takes from Go comments (CommentMap, as AddGoComments
// fills it, and LookupComment) are published too. It failed: they were
// dropped.
func TestWithReflector_CommentsAreDescriptions(t *testing.T) {
	prefix := reflect.TypeFor[grafanaArgs]().PkgPath() + "."
	ref := &jsonschema.Reflector{
		CommentMap: map[string]string{prefix + "grafanaArgs.Optional": "Optional, from a comment"},
		LookupComment: func(t reflect.Type, field string) string {
			if t == reflect.TypeFor[grafanaSub]() && field == "Value" {
				return "The value, looked up"
			}
			return ""
		},
	}
	reg := typereg.New()
	if err := typereg.Register[grafanaArgs](reg, "g", typereg.WithReflector(ref)); err != nil {
		t.Fatal(err)
	}
	tl, _ := reg.Tool("g")
	got := describedAndRequired(t, tl.Schema())
	for path, want := range map[string]string{"/optional description": "Optional, from a comment", "/filter/value description": "The value, looked up"} {
		if got[path] != want {
			t.Errorf("%s = %v, want %q", path, got[path], want)
		}
	}
}

// FuzzWithJSONSchemaGo_DescriptionIsTheTag pins, for any jsonschema tag
// text, that registration under WithJSONSchemaGo returns, that a tag
// jsonschema-go takes as a description is published whole as the field's
// description (at the top level and inside a nested struct), and that the
// required lists are jsonschema-go's whatever the text says.
func FuzzWithJSONSchemaGo_DescriptionIsTheTag(f *testing.F) {
	for _, s := range []string{"the file", "required", "nullable", "a, minimum=1", "x,oneof_required=x", "-", "description=d", "a\\,b", "enum=a,enum=b", "", " ,=", "title=t,required"} {
		f.Add(s)
	}
	types := []reflect.Type{reflect.TypeFor[int](), reflect.TypeFor[string](), reflect.TypeFor[[]int](), reflect.TypeFor[*bool](), reflect.TypeFor[map[string]int](), reflect.TypeFor[map[int]int]()}
	f.Fuzz(func(t *testing.T, d string) {
		for _, ty := range types {
			tag := reflect.StructTag(`json:"f,omitempty" jsonschema:` + strconv.Quote(d))
			inner := reflect.StructOf([]reflect.StructField{{Name: "F", Type: ty, Tag: tag}})
			outer := reflect.StructOf([]reflect.StructField{
				{Name: "F", Type: ty, Tag: tag},
				{Name: "In", Type: inner, Tag: `json:"in"`},
			})
			reg := typereg.New()
			if err := typereg.RegisterType(reg, "x", outer, typereg.WithJSONSchemaGo()); err != nil {
				return // invopop's reading of a WORD= tag may fail; never a crash
			}
			tl, _ := reg.Tool("x")
			got := describedAndRequired(t, tl.Schema())
			if diff := cmp.Diff([]any{"in"}, got[" required"]); diff != "" {
				t.Errorf("%q %v: root required (-want +got):\n%s", d, ty, diff)
			}
			if _, ok := got["/in required"]; ok {
				t.Errorf("%q %v: in requires %v", d, ty, got["/in required"])
			}
			if d == "" || regexp.MustCompile("^[^ \t\n]*=").MatchString(d) {
				continue
			}
			want := asJSONValue(t, d) // as JSON carries it (invalid UTF-8 replaced)
			for _, path := range []string{"/f description", "/in/f description"} {
				if got[path] != want {
					t.Errorf("%q %v: %s = %v", d, ty, path, got[path])
				}
			}
		}
	})
}
