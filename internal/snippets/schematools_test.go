package snippets

import (
	"encoding/json"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

func TestHowItWorks_RegisterSchema(t *testing.T) {
	reg := typereg.New()
	// snippet: how-it-works-register-schema
	err := reg.RegisterSchema("list_issues", json.RawMessage(`{
		"type": "object",
		"properties": {"limit": {"type": "integer", "minimum": 1, "maximum": 100}},
		"required": ["limit"]
	}`))
	// end snippet
	if err != nil {
		t.Fatal(err)
	}
	r := refuse.Refuse(reg, "list_issues", json.RawMessage(`{"limit":0.5}`))
	const want = "Argument 'limit' for tool 'list_issues' takes a whole number from 1 to 100, and the call sent 0.5."
	if r == nil || len(r.Problems) != 1 || r.Problems[0].Code != refuse.NotWholeNumber {
		t.Fatalf("refusal %v, want %q", r, want)
	}
}
