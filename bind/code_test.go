package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// TestCode_ClassIsStatedForEveryCode pins the one taxonomy: every code's
// name on the wire and its class, stated by Class and not by any order of
// the constants, and Policy as the policy problems and silent losses.
func TestCode_ClassIsStatedForEveryCode(t *testing.T) {
	for _, tc := range []struct {
		code  bind.Code
		wire  string
		class bind.Class
	}{
		{bind.InvalidJSON, "invalid_json", bind.BinderFailure},
		{bind.NotAnObject, "not_an_object", bind.BinderFailure},
		{bind.UnknownTool, "unknown_tool", bind.BinderFailure},
		{bind.WrongType, "wrong_type", bind.BinderFailure},
		{bind.NotWholeNumber, "not_whole_number", bind.BinderFailure},
		{bind.TooLarge, "too_large", bind.BinderFailure},
		{bind.TooSmall, "too_small", bind.BinderFailure},
		{bind.NotOneOf, "not_one_of", bind.BinderFailure},
		{bind.InvalidKey, "invalid_key", bind.BinderFailure},
		{bind.TooDeep, "too_deep", bind.BinderFailure},
		{bind.InvalidValue, "invalid_value", bind.BinderFailure},
		{bind.DuplicateName, "duplicate_name", bind.BinderFailure},
		{bind.AmbiguousArgument, "ambiguous_argument", bind.BinderFailure},
		{bind.AmbiguousField, "ambiguous_field", bind.BinderFailure},
		{bind.UnknownArgument, "unknown_argument", bind.PolicyProblem},
		{bind.UnknownField, "unknown_field", bind.PolicyProblem},
		{bind.MissingArgument, "missing_argument", bind.PolicyProblem},
		{bind.MissingField, "missing_field", bind.PolicyProblem},
		{bind.AliasConflict, "alias_conflict", bind.PolicyProblem},
		{bind.Constraint, "constraint", bind.PolicyProblem},
		{bind.NullForValue, "null_for_value", bind.SilentLoss},
		{bind.FoldedKey, "folded_key", bind.SilentLoss},
		{bind.DuplicateKey, "duplicate_key", bind.SilentLoss},
		{bind.ArrayLength, "array_length", bind.SilentLoss},
		{bind.RoundedNumber, "rounded_number", bind.SilentLoss},
		{bind.ReplacedText, "replaced_text", bind.SilentLoss},
		{bind.WrappedNumber, "wrapped_number", bind.SilentLoss},
		{bind.Omitted, "omitted", 0},
		{"", "", 0},
		{"no_such_code", "no_such_code", 0},
	} {
		if string(tc.code) != tc.wire {
			t.Errorf("%q: wire name %q, want %q", tc.code, string(tc.code), tc.wire)
		}
		if got := tc.code.Class(); got != tc.class {
			t.Errorf("%q: class %v, want %v", tc.code, got, tc.class)
		}
		if got, want := tc.code.Policy(), tc.class == bind.PolicyProblem || tc.class == bind.SilentLoss; got != want {
			t.Errorf("%q: Policy() = %v, want %v", tc.code, got, want)
		}
	}
}

// TestCheck_MissingTellsAParameterFromAField pins that the issue for a
// required nested field carries the code refuse publishes for it
// (MissingField), and a required parameter's MissingArgument: refuse
// tells them apart by nothing else.
func TestCheck_MissingTellsAParameterFromAField(t *testing.T) {
	type span struct {
		From int `json:"from"`
	}
	type args struct {
		Span span `json:"span"`
		N    int  `json:"n"`
	}
	fields := func(t reflect.Type) []string {
		if t == reflect.TypeFor[span]() {
			return []string{"from"}
		}
		return nil
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[args]())
		if err != nil {
			t.Fatal(err)
		}
		plan = plan.WithRequired([]string{"n"}, fields)
		var got []bind.Code
		for _, is := range plan.Check([]byte(`{"span":{}}`), nil) {
			got = append(got, is.Kind)
		}
		if len(got) != 2 || got[0] != bind.MissingField || got[1] != bind.MissingArgument {
			t.Errorf("%s: codes %v, want [missing_field missing_argument]", b.Name(), got)
		}
	}
}
