package toolcache

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/bindguard/bindguard/typereg"
)

type schemaLike struct {
	Type       string
	Properties map[string]any
	Required   []string
	Extra      any
}

func TestIdentity_SameValuesOnly(t *testing.T) {
	props := map[string]any{"a": 1}
	req := []string{"a"}
	s := schemaLike{Type: "object", Properties: props, Required: req, Extra: false}
	same := schemaLike{Type: s.Type, Properties: props, Required: req, Extra: false}
	if !Identity(s).equal(Identity(same)) {
		t.Errorf("the same maps, slices and strings: identities differ")
	}
	for name, other := range map[string]schemaLike{
		"a new map with the same content": {Type: s.Type, Properties: map[string]any{"a": 1}, Required: req, Extra: false},
		"a shorter slice":                 {Type: s.Type, Properties: props, Required: req[:0], Extra: false},
		"another string":                  {Type: string([]byte("object")), Properties: props, Required: req, Extra: false},
		"another scalar":                  {Type: s.Type, Properties: props, Required: req, Extra: true},
		"another dynamic type":            {Type: s.Type, Properties: props, Required: req, Extra: 0},
	} {
		if Identity(s).equal(Identity(other)) {
			t.Errorf("%s: the same identity", name)
		}
	}
	if Identity(s, json.RawMessage(nil)).equal(Identity(s)) {
		t.Errorf("another number of values: the same identity")
	}
	if k := Identity(schemaLike{Extra: func() {}}); k.ok || k.equal(k) {
		t.Errorf("a value holding a func has an identity")
	}
	if k := Identity(make([]schemaLike, 1), [maxIdentityWords]int{}); k.ok {
		t.Errorf("a value with more inline parts than the bound has an identity")
	}
}

func TestCache_SweepForgetsWhatTheServerNoLongerHas(t *testing.T) {
	reg := typereg.New()
	c := New(reg, nil, nil)
	const n = 9
	for i := range n {
		name := fmt.Sprintf("t%d", i)
		c.Served(name, Identity(i), i == 0, func() ([]byte, error) {
			return []byte(`{"type":"object","properties":{"p":{"type":"string"}}}`), nil
		})
		if _, ok := reg.Tool(name); !ok {
			t.Fatalf("%s not recorded", name)
		}
	}
	gone := map[string]bool{"t0": true, "t3": true, "t4": true, "t8": true} // t0 is kept
	visits := map[string]int{}
	served := func(name string) bool { visits[name]++; return !gone[name] }
	for range n {
		c.Sweep(1, served)
	}
	for i := range n {
		name := fmt.Sprintf("t%d", i)
		_, ok := reg.Tool(name)
		if want := !gone[name] || name == "t0"; ok != want {
			t.Errorf("%s recorded: %v, want %v", name, ok, want)
		}
		if visits[name] > 1 {
			t.Errorf("%s visited %d times in one round", name, visits[name])
		}
	}
	if c.Len() != n-3 {
		t.Errorf("%d tools held, want %d", c.Len(), n-3)
	}
	// A round over what is left visits each once more.
	clear(visits)
	for range c.Len() {
		c.Sweep(1, served)
	}
	for i := range n {
		name := fmt.Sprintf("t%d", i)
		if want := !gone[name] && name != "t0"; (visits[name] == 1) != want {
			t.Errorf("second round: %s visited %d times", name, visits[name])
		}
	}
}

func TestCache_ReportsOncePerDefinition(t *testing.T) {
	reg := typereg.New()
	var reports int
	c := New(reg, nil, func(string, error) { reports++ })
	reads := 0
	uncheckable := func() ([]byte, error) {
		reads++
		return []byte(`{"type":"object","properties":{"q":{"type":"array","unevaluatedItems":{"type":"string"}}}}`), nil
	}
	v := map[string]any{}
	for range 3 {
		c.Served("search", Identity(v), false, uncheckable)
	}
	c.Served("search", Identity(map[string]any{}), false, uncheckable) // a new value, the same JSON
	if reports != 1 || reads != 2 {
		t.Errorf("reported %d times, read %d times; want 1 and 2", reports, reads)
	}
	if _, ok := reg.Tool("search"); ok {
		t.Errorf("an uncheckable tool was recorded")
	}
	c.Gone("search")
	c.Served("search", Identity(v), false, uncheckable)
	if reports != 2 {
		t.Errorf("after Gone, the tool served again was not tried again")
	}
}
