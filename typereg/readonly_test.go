package typereg_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
	"github.com/google/go-cmp/cmp"
	"github.com/invopop/jsonschema"
)

type roWindow struct {
	From int `json:"from" validate:"min=0"`
	To   int `json:"to"`
}

type roArgs struct {
	Hours  int               `json:"hours" validate:"min=1,max=168" jsonschema:"description=how far back"`
	Kind   string            `json:"kind,omitempty" jsonschema:"enum=a,enum=b,default=a"`
	IDs    []int             `json:"ids,omitempty" validate:"omitempty,max=3,dive,min=1"`
	Tags   map[string]string `json:"tags,omitempty"`
	Window *roWindow         `json:"window,omitempty"`
}

// roSnapshot is what a registry shows of a record and what its calls get.
type roSnapshot struct {
	Schema   string
	Params   []string
	Policy   typereg.Policy
	Accepted []string
	Verdicts []string
}

var roCalls = []string{
	`{"hours":24}`,
	`{"hrs":24}`,                             // an alias
	`{"hours":24,"format":"x"}`,              // an exempt key
	`{"hours":200}`,                          // breaks its validate tag
	`{"hours":24,"evil":1}`,                  // unknown
	`{}`,                                     // hours is required
	`{"hours":24,"kind":"c"}`,                // not in the enum
	`{"hours":24,"ids":[1,2,3,4]}`,           // too many
	`{"hours":24,"window":{"from":-1}}`,      // a nested tag
	`{"hours":24,"window":{"from":1,"x":1}}`, // a nested unknown key
	`{"n":1.5}`,                              // the schema tool: IntReads
	`{"n":1,"m":2}`,
}

func roSnap(t *testing.T, reg *typereg.Registry, name string) roSnapshot {
	t.Helper()
	tl, ok := reg.Tool(name)
	if !ok {
		t.Fatalf("no tool %q", name)
	}
	s := roSnapshot{Policy: tl.Policy(), Accepted: tl.Accepted()}
	b, err := json.Marshal(tl.Schema())
	if err != nil {
		t.Fatal(err)
	}
	s.Schema = string(b)
	for _, p := range tl.Params() {
		ps, _ := json.Marshal(p.Schema())
		s.Params = append(s.Params, fmt.Sprintf("%s %s %v %v %v %v %v %q %s", p.Name, p.GoName, p.Type, p.Quoted, p.OmitEmpty, p.Nullable, p.Required, p.Validate, ps))
	}
	for _, c := range roCalls {
		d := refuse.Decide(reg, name, json.RawMessage(c))
		s.Verdicts = append(s.Verdicts, fmt.Sprintf("%s -> %v %s", c, d.Refusal, d.Args))
	}
	return s
}

// roMutate changes everything the record hands out, in every way each
// type allows.
func roMutate(tl *typereg.Tool) {
	ps := tl.Params()
	for i := range ps {
		ps[i].Name, ps[i].GoName, ps[i].Validate = "evil", "Evil", ""
		ps[i].Required, ps[i].Nullable, ps[i].Quoted, ps[i].OmitEmpty = !ps[i].Required, !ps[i].Nullable, !ps[i].Quoted, !ps[i].OmitEmpty
		roMutateSchema(ps[i].Schema())
	}
	_ = append(ps[:1], typereg.Param{Name: "extra"})
	_ = append(ps, typereg.Param{Name: "extra"})
	if p, ok := tl.Param("hours"); ok {
		p.Name, p.Validate = "x", ""
		roMutateSchema(p.Schema())
	}
	acc := tl.Accepted()
	for i := range acc {
		acc[i] = "evil"
	}
	_ = append(acc[:0], "evil")

	s := tl.Schema()
	roMutateSchema(s)

	pol := tl.Policy()
	for i := range pol.Exempt {
		pol.Exempt[i] = "hours"
	}
	_ = append(pol.Exempt[:0], "evil")
	for i := range pol.IntReads {
		pol.IntReads[i] = "m"
	}
	_ = append(pol.IntReads[:0], "m")
	for k := range pol.Aliases {
		pol.Aliases[k] = "kind"
	}
	if pol.Aliases != nil {
		pol.Aliases["evil"] = "hours"
		delete(pol.Aliases, "hrs")
	}
	pol.Mode, pol.Strict, pol.Open, pol.OpenNested = typereg.Off, !pol.Strict, !pol.Open, !pol.OpenNested
}

// roMutateSchema changes s, and what it reaches, every way the type
// allows: the schemas it points to, in place and replaced; its slices and
// maps, by index and by append; the values it holds as any.
func roMutateSchema(s *jsonschema.Schema) {
	seen := map[*jsonschema.Schema]bool{}
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		for _, sub := range []*jsonschema.Schema{s.Items, s.AdditionalProperties, s.Not, s.If, s.Then, s.Else, s.Contains, s.PropertyNames, s.ContentSchema} {
			walk(sub)
		}
		for _, l := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, s.PrefixItems} {
			for _, sub := range l {
				walk(sub)
			}
		}
		for _, sub := range s.Definitions {
			walk(sub)
		}
		if s.Properties != nil {
			for p := s.Properties.Oldest(); p != nil; p = p.Next() {
				walk(p.Value)
			}
			s.Properties.Set("evil", &jsonschema.Schema{Type: "string"})
			if p := s.Properties.Oldest(); p != nil {
				s.Properties.Delete(p.Key)
			}
		}
		for i := range s.Required {
			s.Required[i] = "evil"
		}
		_ = append(s.Required[:0], "evil")
		s.Required = append(s.Required, "evil")
		for i := range s.Enum {
			s.Enum[i] = "evil"
		}
		_ = append(s.Enum[:0], "evil")
		for i := range s.AnyOf {
			s.AnyOf[i] = &jsonschema.Schema{Type: "null"}
		}
		for k := range s.Definitions {
			s.Definitions[k] = &jsonschema.Schema{Type: "null"}
		}
		if s.Definitions != nil {
			s.Definitions["evil"] = &jsonschema.Schema{}
		}
		if s.Extras != nil {
			s.Extras["evil"] = true
		}
		if m, ok := s.Default.(map[string]any); ok {
			m["evil"] = true
		}
		if s.MaxItems != nil {
			*s.MaxItems = 99
		}
		if s.AdditionalProperties != nil {
			// the schema it points to (invopop's FalseSchema, in the
			// record), overwritten
			*s.AdditionalProperties = jsonschema.Schema{Type: "string"}
		}
		s.Maximum, s.Minimum, s.Default, s.Description, s.Type = "1000", "-5", "evil", "evil", "null"
		s.AdditionalProperties = nil
	}
	walk(s)
}

// TestTool_ReadOnly: whatever a caller does to what a record hands out,
// the record, the schema the next caller gets and the verdict of a call
// stay what registration made them.
func TestTool_ReadOnly(t *testing.T) {
	for _, strict := range []bool{false, true} {
		reg := typereg.New(typereg.WithStrict(strict))
		if err := typereg.Register[roArgs](reg, "stats", typereg.WithAlias("hrs", "hours"), typereg.WithExempt("format")); err != nil {
			t.Fatal(err)
		}
		raw := json.RawMessage(`{"type":"object","properties":{"n":{"type":"number","maximum":10,"enum":[1,1.5,2]},"m":{"type":"array","items":{"type":"integer"},"maxItems":2}},"required":["n"],"additionalProperties":false}`)
		if err := reg.RegisterSchema("schema", raw, typereg.WithIntReads("n"), typereg.WithExempt("cursor")); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"stats", "schema"} {
			before := roSnap(t, reg, name)
			tl, _ := reg.Tool(name)
			roMutate(tl)
			for _, tl := range reg.Tools() {
				roMutate(tl)
			}
			after := roSnap(t, reg, name)
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("strict %v, tool %s: changing what the record hands out changed it (-before +after):\n%s", strict, name, diff)
			}
		}
	}
}

// TestTool_SchemaCopyIsWhole: the schema handed out is the one published,
// every keyword of it, including what invopop holds as any and Extras.
func TestTool_SchemaCopyIsWhole(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[roArgs](reg, "stats"); err != nil {
		t.Fatal(err)
	}
	tl, _ := reg.Tool("stats")
	a, _ := json.Marshal(tl.Schema())
	b, _ := json.Marshal(tl.Schema())
	if string(a) != string(b) || len(a) < 100 {
		t.Errorf("two copies differ, or are short:\n%s\n%s", a, b)
	}
	if s1, s2 := tl.Schema(), tl.Schema(); s1 == s2 {
		t.Error("Schema returns the same pointer twice")
	}
	p, _ := tl.Param("kind")
	if s1, s2 := p.Schema(), p.Schema(); s1 == s2 || s1.Default != "a" || len(s1.Enum) != 2 {
		t.Errorf("kind's schema: %+v", p.Schema())
	}
}

// roValue is validated by what it returns: the plan does not compile its
// tags, and the guard decodes the call to hold it to them.
type roValue string

func (v roValue) ValidatorValue() any { return string(v) }

// TestTool_DecodePathIgnoresThePlansParams: the plan hands out its Params
// (bind.Plan.Params), and a caller may change the field indexes in them;
// the guard's decode path, for a tag the plan does not compile, holds the
// field the record names all the same.
func TestTool_DecodePathIgnoresThePlansParams(t *testing.T) {
	type args struct {
		Pad  []roValue `json:"pad"`
		Mail []roValue `json:"mail" validate:"dive,min=3"`
	}
	reg := typereg.New()
	if err := typereg.Register[args](reg, "mail"); err != nil {
		t.Fatal(err)
	}
	calls := []string{`{"pad":["a","b"],"mail":["abcd"]}`, `{"pad":["a","b"],"mail":["abcd","no"]}`}
	verdicts := func() (out []string) {
		for _, c := range calls {
			out = append(out, fmt.Sprint(refuse.Decide(reg, "mail", json.RawMessage(c)).Refusal))
		}
		return out
	}
	before := verdicts()
	if before[0] != "<nil>" || before[1] == "<nil>" {
		t.Fatalf("verdicts %q: want the first passed, the second refused", before)
	}
	tl, _ := reg.Tool("mail")
	for _, bp := range tl.Plan().Params() {
		for j := range bp.Index {
			bp.Index[j] = 1 - bp.Index[j] // the other field: mail holds pad's value
		}
	}
	var after []string
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Errorf("Decide panicked: %v", r)
			}
		}()
		after = verdicts()
	}()
	if diff := cmp.Diff(before, after); diff != "" {
		t.Errorf("verdicts (-before +after):\n%s", diff)
	}
}
