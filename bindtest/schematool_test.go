package bindtest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/typereg"
)

// A registry that also holds a tool recorded from its published schema:
// the value table and the census are about struct tools, so Check names
// the schema tool as out of its reach, and Census and Constraints find
// nothing to report about it.
func TestSchemaTools_AreNotStructTools(t *testing.T) {
	reg := typereg.New()
	const schema = `{"type":"object","properties":{"limit":{"type":"integer","minimum":1,"maximum":100},"q":{"type":"string","maxLength":3}}}`
	if err := reg.RegisterSchema("list", json.RawMessage(schema)); err != nil {
		t.Fatal(err)
	}
	if _, err := bindtest.Check(reg, "list", bindtest.Default()); err == nil || !strings.Contains(err.Error(), "schema") {
		t.Errorf("Check on a schema tool: %v, want an error saying it is recorded from its schema", err)
	}
	rec := &recorder{}
	bindtest.Census(rec, reg, bindtest.Default())
	bindtest.Constraints(rec, reg)
	if len(rec.errors) > 0 {
		t.Errorf("reported on a schema tool: %q", rec.errors)
	}
}
