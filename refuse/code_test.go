package refuse_test

import (
	"encoding/json"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
)

// TestCode_IsBindsCodeWithTheSameWireNames pins that refuse.Code is
// bind.Code (an issue's code is its problem's, nothing maps one to the
// other) and that a problem's code marshals, and reads back, as the name
// it always had.
func TestCode_IsBindsCodeWithTheSameWireNames(t *testing.T) {
	var c refuse.Code = bind.NotWholeNumber // compiles only if they are one type
	for code, wire := range map[refuse.Code]string{
		refuse.InvalidJSON: "invalid_json", refuse.NotAnObject: "not_an_object", refuse.UnknownTool: "unknown_tool",
		refuse.UnknownArgument: "unknown_argument", refuse.WrongType: "wrong_type", c: "not_whole_number",
		refuse.TooLarge: "too_large", refuse.TooSmall: "too_small", refuse.NotOneOf: "not_one_of",
		refuse.InvalidKey: "invalid_key", refuse.TooDeep: "too_deep", refuse.InvalidValue: "invalid_value",
		refuse.DuplicateName: "duplicate_name", refuse.AmbiguousArgument: "ambiguous_argument",
		refuse.AmbiguousField: "ambiguous_field", refuse.UnknownField: "unknown_field",
		refuse.MissingArgument: "missing_argument", refuse.MissingField: "missing_field",
		refuse.AliasConflict: "alias_conflict", refuse.Constraint: "constraint", refuse.NullForValue: "null_for_value",
		refuse.FoldedKey: "folded_key", refuse.DuplicateKey: "duplicate_key", refuse.ArrayLength: "array_length",
		refuse.RoundedNumber: "rounded_number", refuse.ReplacedText: "replaced_text", refuse.WrappedNumber: "wrapped_number",
	} {
		b, err := json.Marshal(refuse.Problem{Code: code})
		if err != nil || string(b) != `{"code":"`+wire+`"}` {
			t.Errorf("%q: marshals to %s (%v), want code %q", code, b, err, wire)
		}
		var p refuse.Problem
		if err := json.Unmarshal(b, &p); err != nil || p.Code != code {
			t.Errorf("%s: reads back as %q (%v)", b, p.Code, err)
		}
		if code.Class() == 0 {
			t.Errorf("%q: no class", code)
		}
	}
}
