package refuse_test

import (
	"strings"
	"testing"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type (
	wordsTree []wordsTree
	wordsMap  map[string]*wordsMap
)

// TestRefuse_RecursiveType_SaysWhatItTakes: a refusal of a value in a type
// that holds itself says what it takes once, in words that end.
func TestRefuse_RecursiveType_SaysWhatItTakes(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[struct {
		Tree   wordsTree   `json:"tree"`
		Forest []wordsTree `json:"forest,omitempty" validate:"max=1"`
		Map    wordsMap    `json:"map,omitempty"`
	}](reg, "t"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, want string }{
		{`{"tree":[[[1]]]}`, "Argument 'tree' for tool 't' takes a list (a JSON array) of lists of the same shape, and the call sent [[[1]]], with 1 at tree[0][0][0]."},
		{`{"tree":[],"forest":[[],[]]}`, "Argument 'forest' for tool 't' takes a list (a JSON array) of lists (JSON arrays) of lists of the same shape, with at most 1 element, and the call sent [[],[]]."},
		{`{"tree":[],"map":{"a":{"b":7}}}`, "Argument 'map' for tool 't' takes an object whose values are objects of the same shape, and the call sent {\"a\":{\"b\":7}}, with 7 at map.a.b."},
	} {
		r := refuse.Refuse(reg, "t", []byte(tc.args))
		if r == nil {
			t.Errorf("%s: not refused", tc.args)
			continue
		}
		if got := r.Error(); !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, got, tc.want)
		}
	}
}
