package refuse_test

import (
	"strings"
	"testing"

	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// lowerKey is a map key its UnmarshalText folds to lower case: "a" and "A"
// are one key to the binder's map.
type lowerKey string

func (k *lowerKey) UnmarshalText(b []byte) error {
	*k = lowerKey(strings.ToLower(string(b)))
	return nil
}

type keyedLimits struct {
	S map[string]int   `json:"s,omitempty" validate:"omitempty,dive,max=3"`
	I map[int]int      `json:"i,omitempty" validate:"omitempty,dive,max=3"`
	L map[lowerKey]int `json:"l,omitempty" validate:"omitempty,dive,max=3"`
	N *struct {
		X int `json:"x" validate:"max=3"`
	} `json:"n,omitempty"`
}

// TestConstraint_QuotesTheValueTheBinderKept: where a nested struct's key
// is sent again, or two keys of a map are one key to the binder's map (the same text escaped or not, "1" and "01"
// of an integer key, two texts a key type's UnmarshalText reads alike),
// the binder keeps the last value, and the constraint it breaks is quoted
// and placed at that one, never at a value the map does not hold.
func TestConstraint_QuotesTheValueTheBinderKept(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b), typereg.WithMode(typereg.Warn))
		if err := typereg.Register[keyedLimits](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			args, path, element string
		}{
			{`{"s":{"a":1,"a":5}}`, ".a", "5"},
			{`{"s":{"a":1,"\u0061":5}}`, ".a", "5"},
			{`{"s":{"\u0061":5,"a":1,"b":7}}`, ".b", "7"},
			{`{"i":{"1":1,"01":5}}`, ".01", "5"},
			{`{"l":{"a":1,"A":5}}`, ".A", "5"},
			{`{"l":{"A":5,"a":1,"B":1,"b":9}}`, ".b", "9"},
			{`{"l":{"A":5,"a":1}}`, "", ""},
			{`{"n":{"x":1,"x":9}}`, ".x", "9"},
			{`{"n":{"x":9,"x":1}}`, "", ""},
		} {
			if b == segmentio.Binder && strings.HasPrefix(tc.args, `{"i"`) {
				continue // segmentio reads "01" as no integer
			}
			got := constraintWarnings(refuse.Decide(reg, "t", []byte(tc.args)))
			switch {
			case tc.element == "" && len(got) != 0:
				t.Errorf("%s %s: a constraint problem %+v; the binder's map holds no value past the bound", b.Name(), tc.args, got)
			case tc.element != "" && (len(got) != 1 || got[0].Path != tc.path || got[0].Element != tc.element):
				t.Errorf("%s %s: the constraint problems %+v; want one at %s, of %s", b.Name(), tc.args, got, tc.path, tc.element)
			}
		}
	}
}

// foldedLimits has a nested struct whose field a key of another case binds
// under encoding/json (which folds case) and no other binder.
type foldedLimits struct {
	N struct {
		W string `json:"w" validate:"max=3"`
		Y int    `json:"y,omitempty"`
	} `json:"n"`
}

// TestConstraint_QuotesTheFieldTheBinderBinds: the value quoted for a
// nested struct's constraint is the one the binder bound to the field, by
// its own field rules: encoding/json folds "W" to w, V2 and segmentio do
// not. Each call repeats y, a silent loss, so the constraints are held to
// the decoded value and the guard finds the value sent (breach).
func TestConstraint_QuotesTheFieldTheBinderBinds(t *testing.T) {
	for _, tc := range []struct {
		binder              bind.Binder
		args, path, element string
	}{
		{bind.Std, `{"n":{"y":1,"y":2,"w":"ab","W":"abcdef"}}`, ".W", `"abcdef"`},
		{segmentio.Binder, `{"n":{"y":1,"y":2,"w":"abcdef","W":"ab"}}`, ".w", `"abcdef"`},
	} {
		reg := typereg.New(typereg.WithBinder(tc.binder), typereg.WithMode(typereg.Warn))
		open := typereg.WithReflector(&jsonschema.Reflector{AllowAdditionalProperties: true}) // a key that names no field passes: the quote is the constraint's
		if err := typereg.Register[foldedLimits](reg, "t", open); err != nil {
			t.Fatal(err)
		}
		got := constraintWarnings(refuse.Decide(reg, "t", []byte(tc.args)))
		if len(got) != 1 || got[0].Path != tc.path || got[0].Element != tc.element {
			t.Errorf("%s %s: the constraint problems %+v; want one at %s, of %s", tc.binder.Name(), tc.args, got, tc.path, tc.element)
		}
	}
}

// TestRefuse_KeyReadAlikeIsWordedAsTheSameKey: a map key sent once, that
// the binder's map reads as a key sent before it (a key type folding case,
// "01" of an integer key), is refused as a repeated key, in words true of
// it.
func TestRefuse_KeyReadAlikeIsWordedAsTheSameKey(t *testing.T) {
	reg := typereg.New(typereg.WithStrict(true)) // a silent loss refuses
	if err := typereg.Register[keyedLimits](reg, "t"); err != nil {
		t.Fatal(err)
	}
	for args, want := range map[string]string{
		`{"l":{"a":1,"A":2}}`:  `Argument 'l' for tool 't' has the key "A" at l.A, the same key to the tool as one sent before it there; the tool reads each value over the one before: send it once.`,
		`{"i":{"1":1,"01":2}}`: `Argument 'i' for tool 't' has the key "01" at i.01, the same key to the tool as one sent before it there; the tool reads each value over the one before: send it once.`,
	} {
		d := refuse.Decide(reg, "t", []byte(args))
		if d.Refusal == nil || !strings.Contains(d.Refusal.Error(), want) {
			t.Errorf("%s: %v; want it to say %s", args, d.Refusal, want)
		}
	}
}

// constraintWarnings is the Constraint problems of d's warnings.
func constraintWarnings(d refuse.Decision) []refuse.Problem {
	var got []refuse.Problem
	if d.Warnings != nil {
		for _, p := range d.Warnings.Problems {
			if p.Code == refuse.Constraint {
				got = append(got, p)
			}
		}
	}
	return got
}
