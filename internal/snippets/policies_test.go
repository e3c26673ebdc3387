package snippets

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// decideIt is docs/policies.md's Decide block: it returns the refusal, or
// the arguments to decode with the warnings to send.
func decideIt(reg *typereg.Registry, args json.RawMessage) (json.RawMessage, *refuse.Warnings, error) {
	toolError := func(r *refuse.Refusal) error { return r }
	var got refuse.Decision
	err := func() error {
		// snippet: policies-decide
		d := refuse.Decide(reg, "get_wait_stats", args)
		switch {
		case d.Refusal != nil:
			return toolError(d.Refusal) // the handler does not run
		case d.Warnings != nil:
			// the handler runs on d.Args; send d.Warnings with its result
		}
		// decode d.Args (aliases renamed), not args
		// end snippet
		got = d
		return nil
	}()
	return got.Args, got.Warnings, err
}

func TestPolicies_Decide_RefusesWarnsOrRuns(t *testing.T) {
	type GetWaitStats struct {
		HoursBack int `json:"hours_back"`
	}
	reg := typereg.New()
	if err := typereg.Register[GetWaitStats](reg, "get_wait_stats", typereg.WithAlias("hrs", "hours_back")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := decideIt(reg, json.RawMessage(`{"hours_back":"x"}`)); err == nil {
		t.Error("text for an int was not refused")
	}
	args, w, err := decideIt(reg, json.RawMessage(`{"hrs":2}`))
	if err != nil || w != nil || !strings.Contains(string(args), `"hours_back"`) {
		t.Errorf("alias call: args=%s warnings=%v err=%v, want the alias renamed", args, w, err)
	}
	_, w, err = decideIt(reg, json.RawMessage(`{"HOURS_BACK":2}`))
	if err != nil || w == nil {
		t.Errorf("folded key: warnings=%v err=%v, want a warning and no refusal", w, err)
	}
}

func TestPolicies_Aliases_ReadAsTheParameter(t *testing.T) {
	reg := typereg.New()

	// snippet: policies-aliases
	type Params struct {
		Hours int `json:"hours" bindguard:"alias=hrs,hours_back"`
	}
	typereg.Register[Params](reg, "stats", typereg.WithAlias("h", "hours"))
	// end snippet

	for _, key := range []string{"hrs", "hours_back", "h"} {
		d := refuse.Decide(reg, "stats", json.RawMessage(`{"`+key+`":3}`))
		if d.Refusal != nil || string(d.Args) != `{"hours":3}` {
			t.Errorf("%s: refusal=%v args=%s, want {\"hours\":3}", key, d.Refusal, d.Args)
		}
	}
}
