package v2dec

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
)

// jsonv2Tamed is guardUnmarshal as it was for every type: with the taming
// functions.
func jsonv2Tamed(data []byte, v any) error { return jsonv2.Unmarshal(data, v, v2Methods) }

type textKey string

func (k *textKey) UnmarshalText([]byte) error { return nil }

type ownJSON struct{ N int }

func (o *ownJSON) UnmarshalJSON([]byte) error { return nil }

type valueJSON struct{}

func (valueJSON) UnmarshalJSON([]byte) error { return nil }

type tree struct {
	Kids []tree
	Next *tree
	At   time.Time
}

type treeWithMethod struct {
	Kids []treeWithMethod
	Leaf *ownJSON
}

type hidden struct {
	own ownJSON // unexported: V2 never reads it, but it is looked at all the same
}

var _ = hidden{}.own

// TestMethodFree_OnlyWhereNoMethodIsReached: a type is decoded without the
// taming functions only where no type in it (at any depth, through
// pointers, lists, maps' keys and values, fields, recursion) but
// time.Time has a method they would call, and no interface in it has
// methods.
func TestMethodFree_OnlyWhereNoMethodIsReached(t *testing.T) {
	for _, c := range []struct {
		v    any
		free bool
	}{
		{new(struct{ A int }), true},
		{new([]time.Time), true},
		{new(map[string][]*time.Time), true},
		{new(tree), true},
		{new(any), true},
		{new(map[string]any), true},
		{new(ownJSON), false},
		{new([]ownJSON), false},
		{new(valueJSON), false},
		{new(map[textKey]int), false},
		{new(map[string]*ownJSON), false},
		{new(treeWithMethod), false},
		{new(hidden), false},
		{new(json.RawMessage), true},
		{new([]json.RawMessage), true},
		{new(map[string]*json.RawMessage), true},
		{new(json.Unmarshaler), false},
		{new(struct{ E error }), false},
	} {
		if got := methodFree(reflect.TypeOf(c.v)); got != c.free {
			t.Errorf("methodFree(%T) = %v, want %v", c.v, got, c.free)
		}
	}
	if methodFree(nil) {
		t.Error("methodFree(nil) = true")
	}
}

// TestGuardUnmarshal_MethodFreeAsV2 decodes method-free values and reports
// V2's own verdict and value: the same with the taming functions and
// without.
func TestGuardUnmarshal_MethodFreeAsV2(t *testing.T) {
	for _, data := range []string{
		`{"Kids":[{"At":"2026-01-02T03:04:05Z"}],"Next":{"At":"2026-01-02T03:04:05+02:00"}}`,
		`{"At":"yesterday"}`, `{"At":null}`, `{"At":1}`, `{"Kids":[{"Kids":[{"At":"2026-01-02T03:04:05Z"}]}],"Kids":[]}`,
		`{"Next":{"Next":{"At":"x"}}}`, `{"kids":[]}`, `{"At":"2026-01-02T03:04:05Z",}`,
	} {
		var plain, tamed tree
		perr := guardUnmarshal([]byte(data), &plain)
		terr := jsonv2Tamed([]byte(data), &tamed)
		if (perr == nil) != (terr == nil) || perr != nil && perr.Error() != terr.Error() || !reflect.DeepEqual(plain, tamed) {
			t.Errorf("%s: %v %+v without the functions, %v %+v with them", data, perr, plain, terr, tamed)
		}
	}
}

type rawHolder struct {
	R json.RawMessage            `json:"r"`
	L []json.RawMessage          `json:"l"`
	M map[string]json.RawMessage `json:"m"`
}

// TestGuardUnmarshal_RawMessagesAsV2: json.RawMessage, decoded without the
// taming functions, gets V2's verdict and value with them.
func TestGuardUnmarshal_RawMessagesAsV2(t *testing.T) {
	for _, data := range []string{
		`{"r":{"a":[1,2]},"l":[1,"x",null,{}],"m":{"a":true}}`, `{"r":null}`, `{"l":null}`, `{"r":[1,}`,
		`{"r":"\ud800"}`, `{"m":{"a":1,"a":2}}`, `{"r":{"a":1,"a":2}}`, `{"l":[` + "\"\xff\"" + `]}`,
	} {
		var plain, tamed rawHolder
		perr := guardUnmarshal([]byte(data), &plain)
		terr := jsonv2Tamed([]byte(data), &tamed)
		if (perr == nil) != (terr == nil) || perr != nil && perr.Error() != terr.Error() || !reflect.DeepEqual(plain, tamed) {
			t.Errorf("%s: %v %+v without the functions, %v %+v with them", data, perr, plain, terr, tamed)
		}
	}
}
