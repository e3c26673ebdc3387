package typereg_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type genInner struct {
	A int `json:"a"`
}

type genOuter[T any] struct {
	Item T `json:"item"`
}

type genParams struct {
	P genOuter[genInner]   `json:"p"`
	Q []genOuter[genInner] `json:"q,omitempty"`
}

// TestRegister_GenericFieldType_PublishesRefsThatResolve pins that a field
// of a generic type, whose Go name holds its type argument's package path
// ("genOuter[github.com/.../typereg_test.genInner]"), publishes a $ref a
// JSON Schema validator resolves, and that a bad value inside it is worded
// from that definition. It failed: the definition's name held '/', which a
// JSON Pointer reads as a step ("no key \"genOuter[github.com\" in map"),
// so go-sdk's mcp.AddTool panicked on the published schema.
func TestRegister_GenericFieldType_PublishesRefsThatResolve(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[genParams](reg, "g"); err != nil {
		t.Fatal(err)
	}
	tl, _ := reg.Tool("g")
	b, err := json.Marshal(tl.Schema())
	if err != nil {
		t.Fatal(err)
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	rs, err := s.Resolve(nil)
	if err != nil {
		t.Fatalf("the published schema does not resolve: %v\n%s", err, b)
	}
	if err := rs.Validate(map[string]any{"p": map[string]any{"item": map[string]any{"a": 1.0}}}); err != nil {
		t.Errorf("a good value is invalid: %v", err)
	}
	if err := rs.Validate(map[string]any{"p": map[string]any{"item": map[string]any{"a": "x"}}}); err == nil {
		t.Error("a bad value deep inside the generic type is valid")
	}
	r := refuse.Refuse(reg, "g", json.RawMessage(`{"p":{"item":{"a":"x"}}}`))
	if r == nil || !strings.Contains(r.Error(), "an object with fields") {
		t.Errorf("refusal %v, want one that says what p takes", r)
	}
}
