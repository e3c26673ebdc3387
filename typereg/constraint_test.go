package typereg_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/typereg"
)

// property registers T as tool "t" and returns its parameter x's published
// schema as JSON, and whether x is required.
func property[T any](t *testing.T) (string, bool) {
	t.Helper()
	reg := typereg.New()
	if err := typereg.Register[T](reg, "t"); err != nil {
		t.Fatalf("Register: %v", err)
	}
	tl, _ := reg.Tool("t")
	p, ok := tl.Param("x")
	if !ok {
		t.Fatal("no parameter x")
	}
	if !tl.Constrained() {
		t.Error("Constrained() = false")
	}
	b, err := json.Marshal(p.Schema())
	if err != nil {
		t.Fatal(err)
	}
	return string(b), p.Required
}

// TestConstraint_Translation: each validate tag's schema fragment. Each
// row failed before constrain existed (the schema carried no bounds).
func TestConstraint_Translation(t *testing.T) {
	for _, tc := range []struct {
		name     string
		got      func(*testing.T) (string, bool)
		want     string
		required bool
	}{
		{"min and max on an int", property[struct {
			X int `json:"x" validate:"min=1,max=168"`
		}], `{"type":"integer","maximum":168,"minimum":1}`, true},
		{"gte, lte in base 16, as the validator reads it", property[struct {
			X int8 `json:"x,omitempty" validate:"gte=-0x10,lte=0x10"`
		}], `{"type":"integer","maximum":16,"minimum":-16}`, false},
		{"gt and lt: exclusive bounds", property[struct {
			X float64 `json:"x,omitempty" validate:"gt=0,lt=1.5"`
		}], `{"type":"number","exclusiveMaximum":1.5,"exclusiveMinimum":0}`, true},
		{"a float32 bound is the float32 the validator compares with", property[struct {
			X *float32 `json:"x,omitempty" validate:"omitempty,max=0.1"`
		}], `{"type":"number","maximum":0.1}`, false},
		{"omitempty lets 0 past a range without it", property[struct {
			X int32 `json:"x,omitempty" validate:"omitempty,min=1,max=100"`
		}], `{"anyOf":[{"const":0},{"maximum":100,"minimum":1}],"type":"integer"}`, false},
		{"omitempty on a pointer: nil passes, and 0 is checked", property[struct {
			X *int32 `json:"x,omitempty" validate:"omitempty,min=1,max=100"`
		}], `{"type":"integer","maximum":100,"minimum":1}`, false},
		{"a range that holds 0 needs no anyOf", property[struct {
			X int `json:"x,omitempty" validate:"omitempty,max=10"`
		}], `{"type":"integer","maximum":10}`, false},
		{"required excludes 0", property[struct {
			X int `json:"x,omitempty" validate:"required"`
		}], `{"not":{"enum":[0]},"type":"integer"}`, true},
		{"required text is at least one character", property[struct {
			X string `json:"x" validate:"required,max=64"`
		}], `{"type":"string","maxLength":64,"minLength":1}`, true},
		{"text lengths: gt and lt", property[struct {
			X string `json:"x,omitempty" validate:"omitempty,gt=2,lt=10"`
		}], `{"anyOf":[{"const":""},{"maxLength":9,"minLength":3}],"type":"string"}`, false},
		{"len on text", property[struct {
			X string `json:"x" validate:"len=5"`
		}], `{"type":"string","maxLength":5,"minLength":5}`, true},
		{"oneof on text", property[struct {
			X string `json:"x" validate:"oneof=crimson teal 'dark amber'"`
		}], `{"type":"string","enum":["crimson","teal","dark amber"]}`, true},
		{"oneof on an int: numbers", property[struct {
			X uint `json:"x" validate:"oneof=1 2 3"`
		}], `{"type":"integer","enum":[1,2,3]}`, true},
		{"eq and ne", property[struct {
			X string `json:"x,omitempty" validate:"ne=admin"`
		}], `{"not":{"enum":["admin"]},"type":"string"}`, false},
		{"required bool", property[struct {
			X bool `json:"x" validate:"required"`
		}], `{"not":{"enum":[false]},"type":"boolean"}`, true},
		{"a list's length, and its elements by dive", property[struct {
			X []int `json:"x" validate:"min=1,max=5,dive,min=1,max=100"`
		}], `{"items":{"type":"integer","maximum":100,"minimum":1},"type":"array","maxItems":5,"minItems":1}`, true},
		{"dive twice", property[struct {
			X [][]string `json:"x,omitempty" validate:"dive,max=2,dive,oneof=a b"`
		}], `{"items":{"items":{"type":"string","enum":["a","b"]},"type":"array","maxItems":2},"type":"array"}`, false},
		{"a map's size and values", property[struct {
			X map[string]int `json:"x,omitempty" validate:"omitempty,max=3,dive,gte=0"`
		}], `{"additionalProperties":{"type":"integer","minimum":0},"type":"object","maxProperties":3}`, false},
		{"a map keyed by numbers: its values' pattern", property[struct {
			X map[int]string `json:"x,omitempty" validate:"dive,min=1"`
		}], `{"patternProperties":{"^-?(0|[1-9][0-9]*)$":{"type":"string","minLength":1}},"additionalProperties":false,"type":"object"}`, false},
		{"pointer elements", property[struct {
			X []*int `json:"x,omitempty" validate:"dive,min=1"`
		}], `{"items":{"type":"integer","minimum":1},"type":"array"}`, false},
		{"a bound the jsonschema tag states too, equally", property[struct {
			X int `json:"x" jsonschema:"minimum=1,maximum=168" validate:"min=1,max=168"`
		}], ``, false},
		{"a field whose zero value breaks its constraint is required", property[struct {
			X int `json:"x,omitempty" validate:"min=1"`
		}], `{"type":"integer","minimum":1}`, true},
		{"so is a pointer without omitempty: nil breaks min", property[struct {
			X *int `json:"x,omitempty" validate:"max=3"`
		}], `{"type":"integer","maximum":3}`, true},
		{"a field of an embedded struct is a parameter", func(t *testing.T) (string, bool) {
			reg := typereg.New()
			if err := typereg.Register[struct {
				embedded
				X int `json:"x"`
			}](reg, "t"); err != nil {
				t.Fatal(err)
			}
			tl, _ := reg.Tool("t")
			p, _ := tl.Param("limit")
			b, _ := json.Marshal(p.Schema())
			return string(b), p.Required
		}, `{"type":"integer","maximum":5}`, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == "" {
				// Registration succeeding is the point of the row.
				tc.got(t)
				return
			}
			got, required := tc.got(t)
			if got != tc.want {
				t.Errorf("schema\n got %s\nwant %s", got, tc.want)
			}
			if required != tc.required {
				t.Errorf("required = %v, want %v", required, tc.required)
			}
		})
	}
}

// TestConstraint_SharedSchemasUntouched: invopop's shared boolean schemas
// (additionalProperties false) take no constraint. It failed before
// mapValues: dive on a map keyed by numbers wrote minLength into
// jsonschema.FalseSchema, the root's additionalProperties of every tool.
func TestConstraint_SharedSchemasUntouched(t *testing.T) {
	property[struct {
		X map[int]string `json:"x,omitempty" validate:"dive,min=1"`
	}](t)
	if jsonschema.FalseSchema.MinLength != nil || jsonschema.TrueSchema.MinLength != nil {
		t.Error("a shared boolean schema was given a constraint")
	}
}

func registerErr[T any]() error {
	return typereg.Register[T](typereg.New(), "t")
}

type nested struct {
	A int `json:"a" validate:"min=1"`
}

type plain struct{ A int }

// Embedded is exported, so the binder can allocate it through a pointer.
type Embedded struct {
	Limit int `json:"limit" validate:"max=5"`
}

type embedded struct {
	Limit int `json:"limit" validate:"max=5"`
}

// TestConstraint_RegistrationFails: what the registry cannot publish, or
// what states a second range, fails registration naming field and tag.
// Each row registered without error before constrain existed.
func TestConstraint_RegistrationFails(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"a tag the registry does not translate", registerErr[struct {
			X string `json:"x" validate:"email"`
		}](), `field X: validate tag "email": "email" is not a tag the registry can publish`},
		{"a cross-field tag", registerErr[struct {
			X int `json:"x" validate:"eqfield=Y"`
			Y int `json:"y"`
		}](), `"eqfield" is not a tag`},
		{"an alternative", registerErr[struct {
			X int `json:"x" validate:"min=1|max=0"`
		}](), `alternatives (|) are not supported`},
		{"keys", registerErr[struct {
			X map[string]int `json:"x" validate:"dive,keys,min=1,endkeys"`
		}](), `"keys" is not a tag`},
		{"a bound that is not a number (the validator panics)", registerErr[struct {
			X int `json:"x" validate:"min=one"`
		}](), `field X: validate tag "min=one": min=one: not a whole number`},
		{"a negative bound for an unsigned type (the validator panics)", registerErr[struct {
			X uint `json:"x" validate:"min=-1"`
		}](), `min=-1: not a whole number of at least 0`},
		{"a fraction for an int", registerErr[struct {
			X int `json:"x" validate:"max=1.5"`
		}](), `max=1.5: not a whole number`},
		{"oneof on a float (the validator panics)", registerErr[struct {
			X float64 `json:"x" validate:"oneof=1 2"`
		}](), `oneof on a float`},
		{"min on a bool (the validator panics)", registerErr[struct {
			X bool `json:"x" validate:"min=1"`
		}](), `the validator does not take min on bool`},
		{"a oneof number the validator never matches", registerErr[struct {
			X int `json:"x" validate:"oneof=01 2"`
		}](), `"01" is not a whole number as the validator writes one`},
		{"a bound stated twice", registerErr[struct {
			X int `json:"x" validate:"min=1,gte=2"`
		}](), `the lower bound is stated twice`},
		{"lt=0 on a length", registerErr[struct {
			X string `json:"x" validate:"lt=0"`
		}](), `lt=0 admits no length`},
		{"a duration", registerErr[struct {
			X time.Duration `json:"x" validate:"min=1s"`
		}](), `does not publish constraints on time.Duration`},
		{"a time", registerErr[struct {
			X time.Time `json:"x" validate:"gt"`
		}](), `gt needs a value`},
		{"a struct", registerErr[struct {
			X plain `json:"x" validate:"required"`
		}](), `does not publish constraints on typereg_test.plain`},
		{"a type that decodes itself (its method may read \"A\" as \"a\")", registerErr[struct {
			X selfLower `json:"x" validate:"oneof=a b"`
		}](), `does not publish constraints on typereg_test.selfLower, which decodes itself`},
		{"a type V2 reads by UnmarshalJSONFrom", registerErr[struct {
			X v2Lower `json:"x" validate:"oneof=a b"`
		}](), `does not publish constraints on typereg_test.v2Lower, which decodes itself`},
		{"a fixed-size array", registerErr[struct {
			X [3]int `json:"x" validate:"dive,min=1"`
		}](), `does not publish constraints on [3]int`},
		{"dive on text", registerErr[struct {
			X string `json:"x" validate:"dive,min=1"`
		}](), `dive on string, which is not a slice or a map`},
		{"tags inside a nested struct", registerErr[struct {
			X []nested `json:"x"`
		}](), `field X: validate tag "min=1" on field A of typereg_test.nested, inside the parameter`},
		{"a tag on a field the binder does not bind", registerErr[struct {
			X int `json:"-" validate:"min=1"`
			Y int `json:"y"`
		}](), `field X: validate tag "min=1" on a field that is not a parameter`},
		{"a tag on an embedded struct", registerErr[struct {
			embedded `validate:"required"`
		}](), `validate tag "required" on an embedded struct`},
		{"a tag through an embedded pointer", registerErr[struct {
			*Embedded
		}](), `field Embedded.Limit: validate tag "max=5" on a field promoted through an embedded pointer`},
		{"a jsonschema bound the validate tag does not state", registerErr[struct {
			X int `json:"x" jsonschema:"minimum=1" validate:"max=5"`
		}](), `field X: validate tag "max=5": the jsonschema tags state minimum 1, and the validate tag states none: one parameter, two ranges`},
		{"a jsonschema bound the validate tag states otherwise", registerErr[struct {
			X int `json:"x" jsonschema:"maximum=100" validate:"max=168"`
		}](), `the jsonschema tags state maximum 100, and the validate tag states 168`},
		{"a jsonschema enum the validate tag states otherwise", registerErr[struct {
			X string `json:"x" jsonschema:"enum=a,enum=b" validate:"oneof=a c"`
		}](), `the jsonschema tags state enum [a b], and the validate tag states [a c]`},
		// A bound the schema cannot state: JSON has no NaN nor infinity, so
		// the schema would not marshal (and go-sdk's AddTool would panic).
		{"eq=NaN", registerErr[struct {
			X float64 `json:"x" validate:"eq=NaN"`
		}](), `eq=NaN: not a finite number`},
		{"ne=nan", registerErr[struct {
			X float32 `json:"x" validate:"ne=nan"`
		}](), `ne=nan: not a finite number`},
		{"max=Inf", registerErr[struct {
			X float64 `json:"x" validate:"max=Inf"`
		}](), `max=Inf: not a finite number`},
		{"gt=-infinity under dive", registerErr[struct {
			X []float64 `json:"x" validate:"dive,gt=-infinity"`
		}](), `gt=-infinity: not a finite number`},
		// A bound the type cannot hold constrains nothing, and a refusal
		// would state it as the tool's range beside "too large".
		{"a bound past int8", registerErr[struct {
			X int8 `json:"x" validate:"max=1000"`
		}](), `max=1000: int8 cannot hold 1000 (it holds -128 to 127)`},
		{"a bound below int16", registerErr[struct {
			X *int16 `json:"x" validate:"omitempty,gte=-40000"`
		}](), `gte=-40000: int16 cannot hold -40000`},
		{"a bound past uint16, under dive", registerErr[struct {
			X []uint16 `json:"x" validate:"dive,lt=65536"`
		}](), `lt=65536: uint16 cannot hold 65536 (it holds 0 to 65535)`},
		{"a oneof value past int8", registerErr[struct {
			X int8 `json:"x" validate:"oneof=1 300"`
		}](), `int8 cannot hold 300`},
		// A keyword stated twice: the validator holds the value to both,
		// a schema's one keyword would state one.
		{"oneof twice on text", registerErr[struct {
			X string `json:"x" validate:"oneof=a,oneof=b"`
		}](), `oneof=b: oneof is stated twice`},
		{"oneof twice on an int", registerErr[struct {
			X int `json:"x" validate:"oneof=1 2,oneof=2 3"`
		}](), `oneof=2 3: oneof is stated twice`},
		{"oneof twice under dive", registerErr[struct {
			X map[string]string `json:"x" validate:"dive,oneof=a,oneof=a"`
		}](), `oneof=a: oneof is stated twice`},
		{"eq twice on a bool", registerErr[struct {
			X bool `json:"x" validate:"eq=true,eq=false"`
		}](), `eq=false: eq is stated twice`},
		{"eq twice on a bool, alike", registerErr[struct {
			X bool `json:"x" validate:"eq=true,eq=true"`
		}](), `eq=true: eq is stated twice`},
		{"a jsonschema length the validate tag does not state", registerErr[struct {
			X string `json:"x" jsonschema:"maxLength=3" validate:"required"`
		}](), `the jsonschema tags state maxLength 3, and the validate tag states none`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.err == nil {
				t.Fatalf("registered; want an error containing %q", tc.want)
			}
			if !strings.Contains(tc.err.Error(), tc.want) || !strings.Contains(tc.err.Error(), `tool "t"`) {
				t.Errorf("error %q\nwant it to contain %q and name the tool", tc.err, tc.want)
			}
		})
	}
}

// Bounds at the type's own ends register: the type holds them.
func TestConstraint_BoundsAtTheTypesEnds(t *testing.T) {
	if err := registerErr[struct {
		A int8   `json:"a" validate:"min=-128,max=127"`
		B uint8  `json:"b" validate:"lte=255"`
		C int64  `json:"c" validate:"gte=-9223372036854775808"`
		D uint16 `json:"d" validate:"oneof=0 65535"`
	}](); err != nil {
		t.Fatal(err)
	}
}

// A registration that fails leaves the registry as it was: an earlier
// record of the same name stays, and no other tool appears.
func TestConstraint_FailedRegistrationChangesNothing(t *testing.T) {
	reg := typereg.New()
	type good struct {
		X float64 `json:"x" validate:"max=5"`
	}
	if err := typereg.Register[good](reg, "t"); err != nil {
		t.Fatal(err)
	}
	before, _ := reg.Tool("t")
	if err := typereg.Register[struct {
		X float64 `json:"x" validate:"eq=NaN"`
	}](reg, "t"); err == nil {
		t.Fatal("eq=NaN registered")
	}
	if err := typereg.Register[struct {
		X string `json:"x" validate:"oneof=a,oneof=b"`
	}](reg, "u"); err == nil {
		t.Fatal("oneof twice registered")
	}
	if after, _ := reg.Tool("t"); after != before {
		t.Errorf("the record of t changed: %+v", after)
	}
	if _, ok := reg.Tool("u"); ok || len(reg.Tools()) != 1 {
		t.Errorf("the registry holds %d tools, want only t", len(reg.Tools()))
	}
}

// Unmarshalable is a type whose own schema cannot be marshalled: JSON has
// no infinity.
type Unmarshalable float64

func (Unmarshalable) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "number", Enum: []any{math.Inf(1)}}
}

// A schema that does not marshal fails registration, whatever made it so
// (here a type's own JSONSchema method, with no validate tag at all).
func TestRegister_FailsOnASchemaThatDoesNotMarshal(t *testing.T) {
	reg := typereg.New()
	err := typereg.Register[struct {
		X Unmarshalable `json:"x"`
	}](reg, "t")
	if err == nil || !strings.Contains(err.Error(), `tool "t"`) || !strings.Contains(err.Error(), "schema") {
		t.Fatalf("err = %v, want one naming the tool and its schema", err)
	}
	if _, ok := reg.Tool("t"); ok {
		t.Error("the tool was recorded")
	}
}

// TestConstraint_Unconstrained: a tool without validate tags is not
// constrained, and its schema is untouched.
func TestConstraint_Unconstrained(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[struct {
		X int `json:"x" jsonschema:"minimum=1"`
		Y int `json:"y" validate:"-"`
	}](reg, "t"); err != nil {
		t.Fatal(err)
	}
	tl, _ := reg.Tool("t")
	if tl.Constrained() {
		t.Error("Constrained() = true for a tool without validate tags")
	}
	if p, _ := tl.Param("y"); p.Validate != "" {
		t.Errorf(`Validate = %q for validate:"-"`, p.Validate)
	}
}

// selfLower and v2Lower are strings their methods read lowercased: a
// constraint on the text sent would refuse "A" where the decoded "a"
// keeps it.
type selfLower string

func (l *selfLower) UnmarshalJSON(b []byte) error {
	var s string
	err := json.Unmarshal(b, &s)
	*l = selfLower(strings.ToLower(s))
	return err
}

type v2Lower string

func (l *v2Lower) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	tok, err := dec.ReadToken()
	*l = v2Lower(strings.ToLower(tok.String()))
	return err
}
