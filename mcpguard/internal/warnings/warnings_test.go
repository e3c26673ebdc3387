package warnings

import (
	"encoding/json"
	"testing"

	"github.com/bindguard/bindguard/refuse"
)

// TestMerge_OnlyIntoAnObject: structuredContent that is not a JSON object
// (null among them, which json.Unmarshal reads into a nil map) is left as
// it is; an object, white space around it or not, gains the warnings.
func TestMerge_OnlyIntoAnObject(t *testing.T) {
	w := &refuse.Warnings{Tool: "t"}
	for _, c := range []struct {
		structured string
		ok         bool
	}{
		{`{}`, true}, {" \t\r\n{\"a\":1} ", true}, {`null`, false}, {`[]`, false}, {`"{}"`, false},
		{``, false}, {` `, false}, {`{`, false}, {`1`, false},
	} {
		out, ok := Merge(json.RawMessage(c.structured), w)
		if ok != c.ok {
			t.Errorf("Merge(%q) ok = %v, want %v (%s)", c.structured, ok, c.ok, out)
			continue
		}
		if ok {
			var m map[string]json.RawMessage
			if err := json.Unmarshal(out, &m); err != nil || m[Key] == nil {
				t.Errorf("Merge(%q) = %s: no %s", c.structured, out, Key)
			}
		}
	}
}
