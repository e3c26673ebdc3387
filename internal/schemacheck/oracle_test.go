package schemacheck

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/bindguard/bindguard/bind"
)

// oracle is jsonschema-go's verdict on args read by the map reader: the
// reader's error, or the validator's.
func oracle(t testing.TB, schema string, args []byte) (readErr, invalid error) {
	var s jsonschema.Schema
	if err := json.Unmarshal([]byte(schema), &s); err != nil {
		t.Fatalf("schema %s: %v", schema, err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Skipf("jsonschema-go does not resolve %s: %v", schema, err)
	}
	var m map[string]any
	if strings.Trim(string(args), " \t\r\n") == "" {
		args = []byte("{}") // a call without arguments
	}
	if err := json.Unmarshal(args, &m); err != nil {
		return err, nil
	}
	if m == nil {
		m = map[string]any{}
	}
	return nil, rs.Validate(m)
}

// verdict is the guard's: whether the map reader fails, and whether the
// schema refuses (an unknown key the policy closes does not count: the
// schema leaves the root open).
func verdict(r Result) (fails, refuses bool) {
	for _, is := range r.Issues {
		switch is.Class() {
		case bind.BinderFailure:
			fails = true
		case bind.PolicyProblem:
			refuses = true
		}
	}
	return fails, refuses || r.Omitted[bind.PolicyProblem] > 0
}

func agree(t *testing.T, schema string, args string) {
	t.Helper()
	s, err := Compile([]byte(schema))
	if err != nil {
		t.Fatalf("Compile(%s): %v", schema, err)
	}
	readErr, invalid := oracle(t, schema, []byte(args))
	fails, refuses := verdict(s.Check([]byte(args)))
	if fails != (readErr != nil) {
		t.Errorf("schema %s, args %s: guard fails=%v, map reader: %v", schema, args, fails, readErr)
		return
	}
	if readErr == nil && refuses != (invalid != nil) {
		t.Errorf("schema %s, args %s: guard refuses=%v, validator: %v (issues %+v)", schema, args, refuses, invalid, s.Check([]byte(args)).Issues)
	}
}

func TestCheck_AgreesWithJSONSchemaGo(t *testing.T) {
	cases := []struct{ schema, args string }{
		{`{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":100}}}`, `{"limit":0.5}`},
		{`{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":100}}}`, `{"limit":1.0}`},
		{`{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":100}}}`, `{"limit":101}`},
		{`{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":100}}}`, `{"limit":1e2}`},
		{`{"type":"object","properties":{"limit":{"type":"integer"}}}`, `{"limit":1e400}`},
		{`{"type":"object","properties":{"limit":{"type":"integer"}}}`, `{"limit":1e-400}`},
		{`{"type":"object","properties":{"limit":{"type":"integer"}}}`, `{"limit":9007199254740993}`},
		{`{"type":"object","properties":{"s":{"type":["string","null"]}}}`, `{"s":null}`},
		{`{"type":"object","properties":{"s":{"type":["string","null"]}}}`, `{"s":1}`},
		{`{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":3}}}`, `{"s":"\u00e9"}`},
		{`{"type":"object","properties":{"s":{"type":"string","maxLength":1}}}`, `{"s":"\ud800"}`},
		{`{"type":"object","properties":{"s":{"type":"string","pattern":"^a+$"}}}`, `{"s":"aab"}`},
		{`{"type":"object","properties":{"s":{"enum":["a","b",1,null,true]}}}`, `{"s":1.0}`},
		{`{"type":"object","properties":{"s":{"enum":["a","b",1,null,true]}}}`, `{"s":"c"}`},
		{`{"type":"object","properties":{"s":{"const":"x"}}}`, `{"s":"x"}`},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`, `{}`},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`, `null`},
		{`{"type":"object","required":["a"],"properties":{"a":{"type":"string"}}}`, ``},
		{`{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`, `{"b":1}`},
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":1,"a":"x"}`},
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":"x","a":1}`},
		{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{"a":1e999,"a":"x"}`},
		{`{"type":"object","properties":{"o":{"type":"object","required":["x"],"properties":{"x":{"type":"number","exclusiveMinimum":0}},"additionalProperties":false}}}`, `{"o":{"x":0}}`},
		{`{"type":"object","properties":{"o":{"type":"object","required":["x"],"properties":{"x":{"type":"number","exclusiveMinimum":0}},"additionalProperties":false}}}`, `{"o":{"y":1}}`},
		{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer","multipleOf":3},"minItems":1,"maxItems":2}}}`, `{"l":[3,6,9]}`},
		{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer","multipleOf":3}}}}`, `{"l":[3,7]}`},
		{`{"type":"object","properties":{"l":{"type":"array","items":{"type":"number","multipleOf":0.1}}}}`, `{"l":[0.3]}`},
		{`{"type":"object","additionalProperties":{"type":"string"}}`, `{"x":1}`},
		{`{"type":"object","additionalProperties":{"type":"string"},"maxProperties":1}`, `{"x":"a","y":"b"}`},
		{`{"type":"object","$defs":{"t":{"type":"object","properties":{"k":{"$ref":"#/$defs/t"},"v":{"type":"integer"}}}},"properties":{"t":{"$ref":"#/$defs/t"}}}`, `{"t":{"k":{"k":{"v":1.5}}}}`},
		{`{"type":"object","properties":{"a":false}}`, `{"a":1}`},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"string","maxLength":2},{"type":"null"}]}}}`, `{"a":null}`},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"string","maxLength":2},{"type":"null"}]}}}`, `{"a":"abc"}`},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"string","maxLength":2},{"type":"null"}]}}}`, `{"a":1}`},
		{`{"type":"object","properties":{"a":{"oneOf":[{"type":"integer","maximum":3},{"type":"array","items":{"type":"string"}}]}}}`, `{"a":2.5}`},
		{`{"type":"object","properties":{"a":{"oneOf":[{"type":"integer","maximum":3},{"type":"array","items":{"type":"string"}}]}}}`, `{"a":["x",1]}`},
		{`{"type":"object","properties":{"a":{"oneOf":[{"type":"integer","maximum":3},{"type":"array","items":{"type":"string"}}]}}}`, `{"a":3.0}`},
		{`{"type":"object","$defs":{"t":{"anyOf":[{"type":"null"},{"type":"object","properties":{"n":{"$ref":"#/$defs/t"}},"additionalProperties":false}]}},"properties":{"a":{"$ref":"#/$defs/t"}}}`, `{"a":{"n":{"n":{"m":1}}}}`},
		{`{"type":"object","$defs":{"t":{"anyOf":[{"type":"null"},{"type":"object","properties":{"n":{"$ref":"#/$defs/t"}},"additionalProperties":false}]}},"properties":{"a":{"$ref":"#/$defs/t"}}}`, `{"a":{"n":{"n":null}}}`},
		{`{"type":"object","$defs":{"c":{"type":"object","properties":{"x":{"type":"integer"}},"additionalProperties":false}},"properties":{"a":{"$ref":"#/$defs/c","type":"object"}}}`, `{"a":{"x":1.5}}`},
		{`{"type":"object","$defs":{"c":{"type":"object","properties":{"x":{"type":"integer"}},"additionalProperties":false}},"properties":{"a":{"$ref":"#/$defs/c","type":"object"}}}`, `{"a":{"y":1}}`},
		{`{"type":"object","$defs":{"c":{"type":["object","null"]}},"properties":{"a":{"$ref":"#/$defs/c","type":"object"}}}`, `{"a":null}`},
		{`{"type":"object","$defs":{"c":{"type":["object","null"],"properties":{"k":{"$ref":"#/$defs/c","type":["object","null"]}}}},"properties":{"a":{"$ref":"#/$defs/c","type":"object"}}}`, `{"a":{"k":{"k":null}}}`},
		{`{"type":"object","$defs":{"c":{"type":["object","null"],"properties":{"k":{"$ref":"#/$defs/c","type":["object"]}}}},"properties":{"a":{"$ref":"#/$defs/c","type":"object"}}}`, `{"a":{"k":{"k":null}}}`},
		// allOf, not, if/then/else, and anyOf/oneOf whose branches overlap:
		// each branch reads the value again.
		{`{"type":"object","properties":{"a":{"allOf":[{"type":"object","properties":{"x":{"type":"integer"}}},{"required":["y"]}]}}}`, `{"a":{"x":1,"y":2}}`},
		{`{"type":"object","properties":{"a":{"allOf":[{"type":"object","properties":{"x":{"type":"integer"}}},{"required":["y"]}]}}}`, `{"a":{"x":1.5,"y":2}}`},
		{`{"type":"object","properties":{"a":{"allOf":[{"type":"object","properties":{"x":{"type":"integer"}}},{"required":["y"]}]}}}`, `{"a":{"x":1}}`},
		{`{"type":"object","properties":{"a":{"type":"string","allOf":[{"maxLength":3},{"pattern":"^a"}]}}}`, `{"a":"abc"}`},
		{`{"type":"object","properties":{"a":{"type":"string","allOf":[{"maxLength":3},{"pattern":"^a"}]}}}`, `{"a":"bc"}`},
		{`{"type":"object","properties":{"a":{"type":"string","allOf":[{"maxLength":3},{"pattern":"^a"}]}}}`, `{"a":1}`},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"object","required":["x"]},{"type":"object","required":["y"]}]}}}`, `{"a":{"y":1}}`},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"object","required":["x"]},{"type":"object","required":["y"]}]}}}`, `{"a":{"z":1}}`},
		{`{"type":"object","properties":{"a":{"oneOf":[{"type":"object","required":["x"]},{"type":"object","required":["y"]}]}}}`, `{"a":{"x":1,"y":1}}`},
		{`{"type":"object","properties":{"a":{"oneOf":[{"type":"object","required":["x"]},{"type":"object","required":["y"]}]}}}`, `{"a":{"x":1}}`},
		{`{"type":"object","properties":{"a":{"oneOf":[{"type":"integer"},{"type":"number"}]}}}`, `{"a":1}`},
		{`{"type":"object","properties":{"a":{"oneOf":[{"type":"integer"},{"type":"number"}]}}}`, `{"a":1.5}`},
		{`{"type":"object","properties":{"a":{"type":"integer","anyOf":[{"minimum":5},{"maximum":0}]}}}`, `{"a":3}`},
		{`{"type":"object","properties":{"a":{"type":"integer","anyOf":[{"minimum":5},{"maximum":0}]}}}`, `{"a":-3}`},
		{`{"type":"object","properties":{"a":{"not":{"type":"string"}}}}`, `{"a":"x"}`},
		{`{"type":"object","properties":{"a":{"not":{"type":"string"}}}}`, `{"a":1}`},
		{`{"type":"object","properties":{"a":{"not":{"enum":[1,2]}}}}`, `{"a":2.0}`},
		{`{"type":"object","properties":{"a":{"if":{"type":"object","required":["k"]},"then":{"required":["v"]},"else":{"type":"string"}}}}`, `{"a":{"k":1}}`},
		{`{"type":"object","properties":{"a":{"if":{"type":"object","required":["k"]},"then":{"required":["v"]},"else":{"type":"string"}}}}`, `{"a":{"k":1,"v":2}}`},
		{`{"type":"object","properties":{"a":{"if":{"type":"object","required":["k"]},"then":{"required":["v"]},"else":{"type":"string"}}}}`, `{"a":{"v":2}}`},
		{`{"type":"object","properties":{"a":{"if":{"type":"object","required":["k"]},"then":{"required":["v"]},"else":{"type":"string"}}}}`, `{"a":"s"}`},
		{`{"type":"object","properties":{"a":{"if":{"type":"integer"},"then":{"minimum":3}}}}`, `{"a":"s"}`},
		{`{"type":"object","properties":{"a":{"if":{"type":"integer"},"then":{"minimum":3}}}}`, `{"a":2}`},
		{`{"type":"object","properties":{"a":{"then":{"type":"integer"},"else":{"type":"integer"}}}}`, `{"a":"s"}`},
		// A branch reads the map's value: a repeated key's last.
		{`{"type":"object","properties":{"a":{"allOf":[{"type":"object","properties":{"x":{"type":"integer"}}}]}}}`, `{"a":{"x":"s","x":1}}`},
		{`{"type":"object","properties":{"a":{"not":{"type":"object","properties":{"x":{"type":"integer"}}}}}}`, `{"a":{"x":1,"x":"s"}}`},
		{`{"type":"object","properties":{"a":{"allOf":[{"type":"object","properties":{"x":{"type":"integer"}}}]}}}`, `{"a":{"x":1e400}}`},
		{`{"type":"object","properties":{"a":{"not":{"type":"object","properties":{"x":{"type":"integer"}}}}}}`, `{"a":{"x":"s","x":1}}`},
		{`{"type":"object","properties":{"a":{"anyOf":[{"type":"object","properties":{"x":{"type":"integer"}}},{"required":["y"]}]}}}`, `{"a":{"x":"s","x":1}}`},
		{`{"type":"object","properties":{"a":{"if":{"properties":{"x":{"type":"integer"}}},"then":{"required":["y"]}}}}`, `{"a":{"x":"s","x":1}}`},
		// enum and const with arrays and objects, const beside enum.
		{`{"type":"object","properties":{"a":{"enum":[{"k":1,"v":[1,"x"]},[1,2],"s"]}}}`, `{"a":{"v":[1.0,"x"],"k":1}}`},
		{`{"type":"object","properties":{"a":{"enum":[{"k":1,"v":[1,"x"]},[1,2],"s"]}}}`, `{"a":{"v":[1,"x"],"k":1,"z":null}}`},
		{`{"type":"object","properties":{"a":{"enum":[{"k":1,"v":[1,"x"]},[1,2],"s"]}}}`, `{"a":{"k":2,"k":1,"v":[1,"x"]}}`},
		{`{"type":"object","properties":{"a":{"enum":[{"k":1,"v":[1,"x"]},[1,2],"s"]}}}`, `{"a":[1,2]}`},
		{`{"type":"object","properties":{"a":{"enum":[{"k":1,"v":[1,"x"]},[1,2],"s"]}}}`, `{"a":[2,1]}`},
		{`{"type":"object","properties":{"a":{"enum":[{"k":1,"v":[1,"x"]},[1,2],"s"]}}}`, `{"a":"s"}`},
		{`{"type":"object","properties":{"a":{"enum":[[0],{"e":"\u00e9"}]}}}`, `{"a":[-0]}`},
		{`{"type":"object","properties":{"a":{"enum":[[0],{"e":"\u00e9"}]}}}`, `{"a":{"e":"\u00e9"}}`},
		{`{"type":"object","properties":{"a":{"enum":[[null],{}]}}}`, `{"a":[]}`},
		{`{"type":"object","properties":{"a":{"enum":[[null],{}]}}}`, `{"a":{}}`},
		{`{"type":"object","properties":{"a":{"const":{"mode":"fast"}}}}`, `{"a":{"mode":"fast"}}`},
		{`{"type":"object","properties":{"a":{"const":{"mode":"fast"}}}}`, `{"a":{"mode":"slow"}}`},
		{`{"type":"object","properties":{"a":{"const":[]}}}`, `{"a":[[]]}`},
		{`{"type":"object","properties":{"a":{"const":"x","enum":["x","y"]}}}`, `{"a":"x"}`},
		{`{"type":"object","properties":{"a":{"const":"x","enum":["x","y"]}}}`, `{"a":"y"}`},
		{`{"type":"object","properties":{"a":{"const":"z","enum":["x","y"]}}}`, `{"a":"z"}`},
		{`{"type":"object","properties":{"a":{"const":[1],"enum":[[1],2]}}}`, `{"a":[1]}`},
		// uniqueItems, as jsonschema-go compares elements.
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`, `{"a":[1,"1",true,null,[],{}]}`},
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`, `{"a":[1,2,1.0]}`},
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`, `{"a":[0,-0]}`},
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`, `{"a":[{"x":1,"y":[2]},{"y":[2],"x":1}]}`},
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`, `{"a":[{"x":1},{"x":1,"y":null}]}`},
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`, `{"a":[{"x":2,"x":1},{"x":1}]}`},
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`, `{"a":["\ud800","\udbff"]}`},
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`, `{"a":[[1,[2]],[1,[2.0]]]}`},
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`, `{"a":[[1,2],[2,1]]}`},
		{`{"type":"object","properties":{"a":{"uniqueItems":true}}}`, `{"a":"aa"}`},
		{`{"type":"object","properties":{"a":{"type":"array","uniqueItems":false}}}`, `{"a":[1,1]}`},
		// patternProperties and prefixItems.
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"id":{"type":"string"}},"patternProperties":{"^x-":{"type":"integer"},"n$":{"maximum":3}},"additionalProperties":false}}}`, `{"a":{"x-n":3,"id":"s"}}`},
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"id":{"type":"string"}},"patternProperties":{"^x-":{"type":"integer"},"n$":{"maximum":3}},"additionalProperties":false}}}`, `{"a":{"x-n":4}}`},
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"id":{"type":"string"}},"patternProperties":{"^x-":{"type":"integer"},"n$":{"maximum":3}},"additionalProperties":false}}}`, `{"a":{"x-a":"s"}}`},
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"id":{"type":"string"}},"patternProperties":{"^x-":{"type":"integer"},"n$":{"maximum":3}},"additionalProperties":false}}}`, `{"a":{"y":1}}`},
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"id":{"type":"string"}},"patternProperties":{"^x-":{"type":"integer"},"n$":{"maximum":3}},"additionalProperties":false}}}`, `{"a":{"idn":4}}`},
		{`{"type":"object","properties":{"a":{"type":"object","properties":{"xn":{"type":"string"}},"patternProperties":{"n$":{"type":"string","maxLength":1}}}}}`, `{"a":{"xn":"ab"}}`},
		{`{"type":"object","properties":{"a":{"type":"object","patternProperties":{"^a":{"type":"integer"}},"additionalProperties":{"type":"string"}}}}`, `{"a":{"ab":1,"b":"x"}}`},
		{`{"type":"object","properties":{"a":{"type":"object","patternProperties":{"^a":{"type":"integer"}},"additionalProperties":{"type":"string"}}}}`, `{"a":{"ab":"x"}}`},
		{`{"type":"object","properties":{"a":{"type":"object","patternProperties":{"^a":{"type":"integer"}}}}}`, `{"a":{"ab":"x","ab":1}}`},
		{`{"type":"object","properties":{"a":{"type":"object","patternProperties":{"\\?":{"type":"integer"}}}}}`, `{"a":{"\ud800":"x"}}`},
		{`{"type":"object","properties":{"a":{"type":"object","patternProperties":{"\ufffd":{"type":"integer"}}}}}`, `{"a":{"\ud800":"x"}}`},
		{`{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}}}`, `{"a":["s",1,true,false]}`},
		{`{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}}}`, `{"a":["s",true]}`},
		{`{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":{"type":"boolean"}}}}`, `{"a":["s",1,2]}`},
		{`{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]}}}`, `{"a":["s"]}`},
		{`{"type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"string"}]}}}`, `{"a":[1]}`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"string"}]}}}`, `{"a":[1]}`},
		{`{"$schema":"http://json-schema.org/draft-07/schema","type":"object","properties":{"a":{"type":"array","prefixItems":[{"type":"string"}]}}}`, `{"a":[1]}`},
		{`{"type":"object","$defs":{"t":{"type":"object","patternProperties":{"^n":{"$ref":"#/$defs/t"}},"additionalProperties":false}},"properties":{"a":{"$ref":"#/$defs/t"}}}`, `{"a":{"n1":{"n2":{"m":1}}}}`},
		{`{"type":"object","$defs":{"t":{"type":"object","patternProperties":{"^n":{"$ref":"#/$defs/t"}},"additionalProperties":false}},"properties":{"a":{"$ref":"#/$defs/t"}}}`, `{"a":{"n1":{"n2":{}}}}`},
		// contains, minContains, maxContains; propertyNames; dependentRequired, dependentSchemas.
		{`{"type":"object","properties":{"a":{"type":"array","contains":{"type":"integer","minimum":2}}}}`, `{"a":[1,"x",2]}`},
		{`{"type":"object","properties":{"a":{"type":"array","contains":{"type":"integer","minimum":2}}}}`, `{"a":[1,"x"]}`},
		{`{"type":"object","properties":{"a":{"type":"array","contains":{"type":"integer","minimum":2}}}}`, `{"a":[]}`},
		{`{"type":"object","properties":{"a":{"type":"array","contains":{"type":"integer"},"minContains":0}}}`, `{"a":["x"]}`},
		{`{"type":"object","properties":{"a":{"type":"array","contains":{"type":"integer"},"minContains":2,"maxContains":3}}}`, `{"a":[1,"x"]}`},
		{`{"type":"object","properties":{"a":{"type":"array","contains":{"type":"integer"},"minContains":2,"maxContains":3}}}`, `{"a":[1,2,3,4]}`},
		{`{"type":"object","properties":{"a":{"type":"array","contains":{"type":"integer"},"minContains":2,"maxContains":3}}}`, `{"a":[1,2.0,"x"]}`},
		{`{"type":"object","properties":{"a":{"type":"array","minContains":2}}}`, `{"a":[]}`},
		{`{"type":"object","properties":{"a":{"contains":{"type":"integer"}}}}`, `{"a":"s"}`},
		{`{"type":"object","properties":{"a":{"type":"object","propertyNames":{"maxLength":2,"pattern":"^[a-z]+$"}}}}`, `{"a":{"ab":1,"c":2}}`},
		{`{"type":"object","properties":{"a":{"type":"object","propertyNames":{"maxLength":2,"pattern":"^[a-z]+$"}}}}`, `{"a":{"abc":1}}`},
		{`{"type":"object","properties":{"a":{"type":"object","propertyNames":{"maxLength":2,"pattern":"^[a-z]+$"}}}}`, `{"a":{"A":1}}`},
		{`{"type":"object","properties":{"a":{"type":"object","propertyNames":{"maxLength":1}}}}`, `{"a":{"\u00e9":1}}`},
		{`{"type":"object","properties":{"a":{"type":"object","propertyNames":{"enum":["x","\ufffd"]}}}}`, `{"a":{"\udc00":1}}`},
		{`{"type":"object","properties":{"a":{"type":"object","propertyNames":{"not":{"const":"x"}}}}}`, `{"a":{"x":1}}`},
		{`{"type":"object","properties":{"a":{"type":"object","dependentRequired":{"x":["y","z"]}}}}`, `{"a":{"x":1,"y":2}}`},
		{`{"type":"object","properties":{"a":{"type":"object","dependentRequired":{"x":["y","z"]}}}}`, `{"a":{"x":1,"y":2,"z":3}}`},
		{`{"type":"object","properties":{"a":{"type":"object","dependentRequired":{"x":["y","z"]}}}}`, `{"a":{"y":2}}`},
		{`{"type":"object","dependentRequired":{"x":["y"]},"properties":{"x":{},"y":{}}}`, `{"x":1}`},
		{`{"type":"object","dependentRequired":{"x":["q"]},"properties":{"x":{}}}`, `{"x":1}`},
		{`{"type":"object","properties":{"a":{"type":"object","dependentSchemas":{"x":{"properties":{"y":{"type":"integer"}},"required":["y"]}}}}}`, `{"a":{"x":1,"y":2}}`},
		{`{"type":"object","properties":{"a":{"type":"object","dependentSchemas":{"x":{"properties":{"y":{"type":"integer"}},"required":["y"]}}}}}`, `{"a":{"x":1,"y":"s"}}`},
		{`{"type":"object","properties":{"a":{"type":"object","dependentSchemas":{"x":{"properties":{"y":{"type":"integer"}},"required":["y"]}}}}}`, `{"a":{"y":"s"}}`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"a":{"type":"object","dependentRequired":{"x":["y"]}}}}`, `{"a":{"x":1}}`},
		{`{"type":"object"}`, `[1]`},
		{`{"type":"object"}`, `{"a":`},
	}
	for _, c := range cases {
		agree(t, c.schema, c.args)
	}
}

// FuzzCheck_AgreesWithJSONSchemaGo: on generated schemas and arguments
// (the fuzzed ones, and ones generated with the schema),
// the guard fails exactly when the map reader does, and refuses exactly
// when jsonschema-go's validator does.
func FuzzCheck_AgreesWithJSONSchemaGo(f *testing.F) {
	f.Add(uint64(1), `{"a":1,"b":"x"}`)
	f.Add(uint64(7), `{"a":[1,2.5,"x"],"b":{"a":null}}`)
	f.Add(uint64(42), `{"b":-0,"a":1e308,"a":true}`)
	f.Fuzz(func(t *testing.T, seed uint64, args string) {
		rng := rand.New(rand.NewPCG(seed, seed>>7))
		schema := fmt.Sprintf(`{"type":"object","$defs":{"d":%s},"properties":{"a":%s,"b":%s}%s}`, genDef(rng), genSchema(rng, 3), genSchema(rng, 3), genObjectRules(rng))
		if _, err := Compile([]byte(schema)); err != nil {
			t.Fatalf("generated schema %s does not compile: %v", schema, err)
		}
		agree(t, schema, args)
		agree(t, schema, genObject(rng, 3)) // arguments that reach the schema's keys
	})
}

func genObjectRules(rng *rand.Rand) string {
	var parts []string
	if rng.IntN(3) == 0 {
		parts = append(parts, `"required":["a"]`)
	}
	switch rng.IntN(4) {
	case 0:
		parts = append(parts, `"additionalProperties":false`)
	case 1:
		parts = append(parts, `"additionalProperties":`+genSchema(rng, 1))
	}
	if rng.IntN(4) == 0 {
		parts = append(parts, fmt.Sprintf(`"maxProperties":%d`, rng.IntN(3)))
	}
	if rng.IntN(5) == 0 {
		parts = append(parts, `"dependentRequired":{"a":["b"]}`)
	}
	if len(parts) == 0 {
		return ""
	}
	return "," + strings.Join(parts, ",")
}

// genDef generates the schema $defs/d: not itself a reference, which
// would be a chain that does not end.
// Nor one whose branches hold it: Compile refuses those (see maxReads).
func genDef(rng *rand.Rand) string {
	for {
		d := genSchema(rng, 2)
		if strings.HasPrefix(d, `{"$ref"`) {
			continue
		}
		if _, err := Compile([]byte(`{"type":"object","$defs":{"d":` + d + `},"properties":{"a":{"$ref":"#/$defs/d"}}}`)); err == nil {
			return d
		}
	}
}

func genSchema(rng *rand.Rand, depth int) string {
	types := []string{`"integer"`, `"number"`, `"string"`, `"boolean"`, `"null"`, `"array"`, `"object"`, `["string","null"]`, `["integer","string"]`}
	switch rng.IntN(12) {
	case 0:
		return `{"$ref":"#/$defs/d"}`
	case 1:
		return `{"$ref":"#/$defs/d","type":` + types[rng.IntN(len(types))] + `}`
	case 2:
		if depth > 0 {
			return genAlternatives(rng, depth)
		}
	case 3, 4:
		if depth > 0 {
			return genBranches(rng, depth)
		}
	}
	var parts []string
	if rng.IntN(5) > 0 {
		parts = append(parts, `"type":`+types[rng.IntN(len(types))])
	}
	return "{" + strings.Join(append(parts, genRules(rng, depth)...), ",") + "}"
}

// genAlternatives generates anyOf or oneOf over branches of distinct
// types (integer and number counting as one), each with its own rules.
func genAlternatives(rng *rand.Rand, depth int) string {
	kw := []string{"anyOf", "oneOf"}[rng.IntN(2)]
	single := []string{`"integer"`, `"number"`, `"string"`, `"boolean"`, `"null"`, `"array"`, `"object"`}
	rng.Shuffle(len(single), func(i, j int) { single[i], single[j] = single[j], single[i] })
	want := 1 + rng.IntN(3)
	var bs []string
	numeric := false
	for _, ty := range single {
		if len(bs) == want {
			break
		}
		if ty == `"integer"` || ty == `"number"` {
			if numeric {
				continue
			}
			numeric = true
		}
		bs = append(bs, "{"+strings.Join(append([]string{`"type":` + ty}, genRules(rng, depth-1)...), ",")+"}")
	}
	return `{"` + kw + `":[` + strings.Join(bs, ",") + `]}`
}

// genBranches generates allOf, anyOf or oneOf over any branches, not, or
// if/then/else, sometimes beside a type and rules of its own.
func genBranches(rng *rand.Rand, depth int) string {
	list := func() string {
		var bs []string
		for range 1 + rng.IntN(3) {
			bs = append(bs, genSchema(rng, depth-1))
		}
		return "[" + strings.Join(bs, ",") + "]"
	}
	var parts []string
	switch rng.IntN(5) {
	case 0:
		parts = append(parts, `"allOf":`+list())
	case 1:
		parts = append(parts, `"anyOf":`+list())
	case 2:
		parts = append(parts, `"oneOf":`+list())
	case 3:
		parts = append(parts, `"not":`+genSchema(rng, depth-1))
	default:
		parts = append(parts, `"if":`+genSchema(rng, depth-1))
		if rng.IntN(3) > 0 {
			parts = append(parts, `"then":`+genSchema(rng, depth-1))
		}
		if rng.IntN(3) > 0 {
			parts = append(parts, `"else":`+genSchema(rng, depth-1))
		}
	}
	if rng.IntN(3) == 0 {
		parts = append(parts, `"type":`+[]string{`"integer"`, `"string"`, `"object"`, `"array"`, `["string","null"]`}[rng.IntN(5)])
		parts = append(parts, genRules(rng, depth-1)...)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func genRules(rng *rand.Rand, depth int) []string {
	var parts []string
	nums := []string{"0", "1", "-1", "2.5", "100", "1e3", "0.1", "9007199254740993"}
	for _, kw := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"} {
		if rng.IntN(5) == 0 {
			parts = append(parts, fmt.Sprintf(`%q:%s`, kw, nums[rng.IntN(len(nums))]))
		}
	}
	if rng.IntN(6) == 0 {
		parts = append(parts, fmt.Sprintf(`"multipleOf":%s`, []string{"1", "2", "0.5", "3", "0.1"}[rng.IntN(5)]))
	}
	if rng.IntN(6) == 0 {
		parts = append(parts, `"uniqueItems":true`)
	}
	for _, kw := range []string{"minLength", "maxLength", "minItems", "maxItems"} {
		if rng.IntN(6) == 0 {
			parts = append(parts, fmt.Sprintf(`%q:%d`, kw, rng.IntN(4)))
		}
	}
	if rng.IntN(8) == 0 {
		parts = append(parts, `"pattern":"^[a-c]*$"`)
	}
	switch rng.IntN(12) {
	case 0, 1:
		parts = append(parts, `"enum":["a","x",1,2.5,null,true,-0]`)
	case 2:
		parts = append(parts, `"enum":[{"a":1},{"a":"x","x":[]},[1,"x"],[],{},"a",null]`)
	case 3:
		parts = append(parts, []string{`"const":{"a":1}`, `"const":[1,"x"]`, `"const":"a"`, `"const":null`}[rng.IntN(4)])
		if rng.IntN(2) == 0 {
			parts = append(parts, `"enum":[{"a":1},"a",[1,"x"]]`)
		}
	}
	if depth > 0 && rng.IntN(3) == 0 {
		parts = append(parts, `"items":`+genSchema(rng, depth-1))
	}
	if depth > 0 && rng.IntN(6) == 0 {
		parts = append(parts, `"prefixItems":[`+genSchema(rng, depth-1)+`,`+genSchema(rng, depth-1)+`]`)
	}
	if depth > 0 && rng.IntN(8) == 0 {
		parts = append(parts, `"contains":`+genSchema(rng, depth-1))
		if rng.IntN(2) == 0 {
			parts = append(parts, fmt.Sprintf(`"minContains":%d`, rng.IntN(3)))
		}
		if rng.IntN(2) == 0 {
			parts = append(parts, fmt.Sprintf(`"maxContains":%d`, rng.IntN(3)))
		}
	}
	if depth > 0 && rng.IntN(8) == 0 {
		parts = append(parts, `"propertyNames":`+genSchema(rng, depth-1))
	}
	if rng.IntN(8) == 0 {
		parts = append(parts, `"dependentRequired":{"a":["x"],"x":["b"]}`)
	}
	if depth > 0 && rng.IntN(8) == 0 {
		parts = append(parts, `"dependentSchemas":{"a":`+genSchema(rng, depth-1)+`}`)
	}
	if depth > 0 && rng.IntN(6) == 0 {
		parts = append(parts, `"patternProperties":{"^a":`+genSchema(rng, depth-1)+`,"x":`+genSchema(rng, depth-1)+`}`)
	}
	if depth > 0 && rng.IntN(3) == 0 {
		parts = append(parts, fmt.Sprintf(`"properties":{"a":%s,"x":%s}`, genSchema(rng, depth-1), genSchema(rng, depth-1)))
		if rng.IntN(2) == 0 {
			parts = append(parts, `"required":["x"]`)
		}
		if rng.IntN(2) == 0 {
			parts = append(parts, `"additionalProperties":false`)
		}
	}
	return parts
}

// TestCheck_AgreesWithJSONSchemaGo_Generated: the fuzz target's property on
// generated schemas and generated arguments (keys the schemas name, values
// of every type), so that every run compares branches, patterns and enums
// against jsonschema-go on values that reach them.
func TestCheck_AgreesWithJSONSchemaGo_Generated(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	for seed := range uint64(n) {
		rng := rand.New(rand.NewPCG(seed, 99))
		schema := fmt.Sprintf(`{"type":"object","$defs":{"d":%s},"properties":{"a":%s,"b":%s}%s}`, genDef(rng), genSchema(rng, 3), genSchema(rng, 3), genObjectRules(rng))
		for range 4 {
			agree(t, schema, genObject(rng, 3))
		}
		if t.Failed() {
			t.Fatalf("seed %d", seed)
		}
	}
}

func genObject(rng *rand.Rand, depth int) string {
	keys := []string{"a", "b", "x", "ab", "xa"}
	var ms []string
	for range rng.IntN(4) {
		ms = append(ms, fmt.Sprintf("%q:%s", keys[rng.IntN(len(keys))], genValue(rng, depth-1)))
	}
	return "{" + strings.Join(ms, ",") + "}"
}

func genValue(rng *rand.Rand, depth int) string {
	scalars := []string{`1`, `2.5`, `-0`, `0`, `3`, `100`, `"a"`, `"x"`, `"abc"`, `"ca"`, `""`, `null`, `true`, `false`, `9007199254740993`, `0.1`}
	if depth <= 0 || rng.IntN(3) > 0 {
		return scalars[rng.IntN(len(scalars))]
	}
	if rng.IntN(2) == 0 {
		return genObject(rng, depth)
	}
	var es []string
	for range rng.IntN(4) {
		es = append(es, genValue(rng, depth-1))
	}
	return "[" + strings.Join(es, ",") + "]"
}
