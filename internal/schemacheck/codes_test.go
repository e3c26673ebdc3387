package schemacheck

import (
	"testing"

	"github.com/bindguard/bindguard/bind"
)

// TestCheck_IssuesAreBindCodesWithTheirClass: Check reports each issue
// with the code refuse publishes (bind.Code, the module's one taxonomy)
// and the class the guard's policy reads: the map reader's failures are
// binder failures, every verdict of the schema (a keyword) a policy
// problem whatever its code, the rest silent losses; and an issue inside
// a top-level member spans that member's key.
func TestCheck_IssuesAreBindCodesWithTheirClass(t *testing.T) {
	const schema = `{"type":"object","properties":{
		"i":{"type":"integer","maximum":3},"s":{"type":"string","enum":["a"]},"n":{"type":"number"},
		"o":{"type":"object","required":["x"],"properties":{"x":{}},"additionalProperties":false},
		"l":{"type":"array","uniqueItems":true},"f":false,"r":{}},"required":["r"]}`
	closed := `{"type":"object","properties":{"i":{}},"additionalProperties":false}`
	cases := []struct {
		schema, args string
		code         bind.Code
		class        bind.Class
		keyword      string
		key          string // the top-level key the issue lies in
	}{
		{schema, `{"r":1,`, bind.InvalidJSON, bind.BinderFailure, "", ""},
		{schema, `[1]`, bind.NotAnObject, bind.BinderFailure, "", ""},
		{schema, `{"r":1,"n":1e400}`, bind.TooLarge, bind.BinderFailure, "", `"n"`},
		{schema, `{"r":1,"n":-1e400}`, bind.TooSmall, bind.BinderFailure, "", `"n"`},
		{schema, `{"r":1,"i":"x"}`, bind.WrongType, bind.PolicyProblem, "type", `"i"`},
		{schema, `{"r":1,"i":1.5}`, bind.NotWholeNumber, bind.PolicyProblem, "type", `"i"`},
		{schema, `{"r":1,"s":"b"}`, bind.NotOneOf, bind.PolicyProblem, "enum", `"s"`},
		{schema, `{"r":1,"i":4}`, bind.Constraint, bind.PolicyProblem, "maximum", `"i"`},
		{schema, `{"r":1,"l":[1,1]}`, bind.Constraint, bind.PolicyProblem, "uniqueItems", `"l"`},
		{schema, `{"r":1,"f":1}`, bind.Constraint, bind.PolicyProblem, "false", `"f"`},
		{schema, `{}`, bind.MissingArgument, bind.PolicyProblem, "required", ""},
		{schema, `{"r":1,"o":{}}`, bind.MissingField, bind.PolicyProblem, "required", `"o"`},
		{schema, `{"r":1,"o":{"x":1,"y":2}}`, bind.UnknownField, bind.PolicyProblem, "additionalProperties", `"o"`},
		{closed, `{"j":1}`, bind.UnknownArgument, bind.PolicyProblem, "additionalProperties", `"j"`},
		{schema, `{"r":1,"j":1}`, bind.UnknownArgument, bind.SilentLoss, "", `"j"`},
		{schema, `{"r":1,"i":1,"i":2}`, bind.DuplicateKey, bind.SilentLoss, "", `"i"`},
		{schema, `{"r":1,"n":9007199254740993}`, bind.RoundedNumber, bind.SilentLoss, "", `"n"`},
		{schema, `{"r":1,"o":{"x":"\ud800"}}`, bind.ReplacedText, bind.SilentLoss, "", `"o"`},
	}
	for _, c := range cases {
		s, err := Compile([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		res := s.Check([]byte(c.args))
		if len(res.Issues) != 1 {
			t.Errorf("%s: %d issues, want 1: %+v", c.args, len(res.Issues), res.Issues)
			continue
		}
		is := res.Issues[0]
		key := c.args[is.KeyStart:is.KeyEnd]
		if is.Code != c.code || is.Class() != c.class || is.Keyword != c.keyword || key != c.key {
			t.Errorf("%s: code %s, class %v, keyword %q, key %q; want %s, %v, %q, %q", c.args, is.Code, is.Class(), is.Keyword, key, c.code, c.class, c.keyword, c.key)
		}
	}
}
