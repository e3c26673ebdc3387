package bind_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// Map keys of a string kind with methods under V2 and SegmentIO: the one
// pass calls a key type's UnmarshalText as the binder does (see
// bind/textkeys.go) and gives the verdict, the trial check's.

// textValKey has an UnmarshalText of a value receiver: the binder calls it
// on a copy, so every key it reads is ""; it fails on "bad".
type textValKey string

func (textValKey) UnmarshalText(b []byte) error {
	if string(b) == "bad" {
		return errors.New("textValKey: bad")
	}
	return nil
}

// textFoldKey folds its text to lower case: "a" and "A" are one key.
type textFoldKey string

func (k *textFoldKey) UnmarshalText(b []byte) error {
	*k = textFoldKey(strings.ToLower(string(b)))
	return nil
}

// textShownKey reads its text, but "bad", and formats itself otherwise
// (segmentio's error path names a key by fmt.Sprint of it).
type textShownKey string

func (k *textShownKey) UnmarshalText(b []byte) error {
	if string(b) == "bad" {
		return errors.New("textShownKey: bad")
	}
	*k = textShownKey(b)
	return nil
}

func (k textShownKey) String() string { return "shown " + string(k) }

// textJSONKey has an UnmarshalJSON, which V2 calls on a key's name, quoted,
// and segmentio does not (it reads the key as a string).
type textJSONKey string

func (k *textJSONKey) UnmarshalJSON(b []byte) error {
	*k = textJSONKey(b)
	return nil
}

// textNamedKey has a method no binder reads a key by.
type textNamedKey string

func (k textNamedKey) Upper() string { return strings.ToUpper(string(k)) }

// textIntKey is of an integer kind, read by its UnmarshalText.
type textIntKey int

func (k *textIntKey) UnmarshalText(b []byte) error {
	*k = textIntKey(len(b))
	return nil
}

// textTypedKey fails on "bad" with a *json.UnmarshalTypeError of its own.
type textTypedKey string

func (k *textTypedKey) UnmarshalText(b []byte) error {
	if string(b) == "bad" {
		return &json.UnmarshalTypeError{Value: "string", Type: reflect.TypeFor[textTypedKey]()}
	}
	*k = textTypedKey(b)
	return nil
}

// textPanicKey panics on "boom", and reads anything else as its text.
type textPanicKey string

func (k *textPanicKey) UnmarshalText(b []byte) error {
	if string(b) == "boom" {
		panic("boom")
	}
	*k = textPanicKey(b)
	return nil
}

// textKeyRows are calls of selfArgs's maps of such keys and, for each
// binder, the verdict: each issue's kind and path, "; " between them, or
// declines where the pass declines (the trial check decides).
var textKeyRows = []struct {
	args    string
	v2, seg string
}{
	{`{"mk":{"teal":1,"amber":2}}`, "", ""},
	{`{"mk":{}}`, "", ""},
	{`{"mk":null}`, "", ""},
	{`{"mk":{"te\u0061l":1,"cr\u0069mson":2}}`, "", ""},
	// UnmarshalText fails: V2 stops at the key (InvalidKey, at it);
	// segmentio's error is the method's, of no place (at the argument).
	{`{"mk":{"red":1}}`, "invalid_key .red", "invalid_value "},
	{`{"mk":{"teal":1,"red":"x"}}`, "invalid_key .red", "invalid_value "},
	{`{"mk":{"red":"x","teal":"y"}}`, "invalid_key .red", "invalid_value "},
	{`{"mk":{"\u00e9":1}}`, `invalid_key ["é"]`, "invalid_value "},
	{"{\"mk\":{\"\u00e9\":1}}", `invalid_key ["é"]`, "invalid_value "},
	{`{"mk":{"":1}}`, `invalid_key [""]`, "invalid_value "},
	{`{"mk":{"a.b":1}}`, `invalid_key ["a.b"]`, "invalid_value "},
	{`{"i":"x","mk":{"red":1}}`, "wrong_type ; invalid_key .red", "wrong_type ; invalid_value "},
	{`{"mk":{"red":1},"i":"x"}`, "invalid_key .red; wrong_type ", "invalid_value ; wrong_type "},
	{`{"n":{"mk":{"red":1}}}`, "invalid_key .mk.red", "invalid_value "},
	{`{"n":{"mk":{"red":1},"i":"x"}}`, "invalid_key .mk.red", "invalid_value "},
	{`{"n":{"i":"x","mk":{"red":1}}}`, "wrong_type .i", "wrong_type .i"},
	{`{"n":{"mk":{"teal":1}},"mk":{"crimson":2}}`, "", ""},
	// The values: read as a map of string keys reads them.
	{`{"mk":{"teal":"x"}}`, "wrong_type .teal", "wrong_type .teal"},
	{`{"mk":{"teal":null}}`, "null_for_value .teal", "null_for_value .teal"},
	{`{"mk":{"teal":1.5}}`, "not_whole_number .teal", "not_whole_number .teal"},
	{`{"ma":{"teal":1e400}}`, "too_large .teal", "too_large .teal"},
	{`{"ma":{"teal":9007199254740993,"amber":[null]}}`, "rounded_number .teal", "rounded_number .teal"},
	{`{"ma":{"teal":"\ud800"}}`, "invalid_value .teal", "replaced_text .teal"},
	{`{"ma":{"teal":{"a":1,"a":2}}}`, "invalid_value .teal", "duplicate_key .teal.a"},
	// A repeated key: V2 fails on the name before it calls the method;
	// segmentio keeps the last value.
	{`{"mk":{"teal":1,"teal":2}}`, "invalid_value ", "duplicate_key .teal"},
	{`{"mk":{"teal":1,"te\u0061l":2}}`, "invalid_value ", "duplicate_key .teal"},
	// (A call that fails with a repeated key segmentio's pass declines.)
	{`{"mk":{"red":1,"red":2}}`, "invalid_key .red", "declines"},
	{`{"mk":{"teal":1,"teal":2,"red":3}}`, "invalid_value ", "declines"},
	{`{"mk":{"teal":1},"mk":{"amber":1}}`, "invalid_value ", "duplicate_key "},
	{`{"mk":{"red":1},"mk":{"teal":1}}`, "invalid_key .red; invalid_value ", "declines"},
	{`{"mk":{"teal":1},"mk":{"red":1}}`, "invalid_key .red; invalid_value ", "declines"},
	// Text that is not UTF-8 in a key: V2 fails on the name; segmentio
	// replaces it, which the pass declines.
	{`{"mk":{"\ud800":1}}`, "invalid_value ", "declines"},
	{"{\"mk\":{\"te\xffl\":1}}", "invalid_value ", "declines"},
	// Not JSON after a key the method fails on.
	{`{"mk":{"red":1`, "invalid_json ", "invalid_json "},
	{`{"mk":{"red":1,}}`, "invalid_json ", "invalid_json "},
	// A key the method reads into another Go value than its text: the
	// binder tells keys by it (V2 fails on the second of two names of one
	// value, segmentio keeps the last), the trial check by the text.
	{`{"mv":{"a":1}}`, "declines", "declines"},
	{`{"mv":{"a":1,"b":2}}`, "declines", "declines"},
	{`{"mv":{"":1}}`, "", ""},
	{`{"mv":{"bad":1}}`, "invalid_key .bad", "invalid_value "},
	{`{"mf":{"a":1}}`, "", ""},
	{`{"mf":{"a":1,"A":2}}`, "declines", "declines"},
	// A key type of a String method: segmentio's path names the key by
	// it, the trial check by its text.
	{`{"ms":{"a":1}}`, "", "declines"},
	{`{"ms":{"a":"x"}}`, "wrong_type .a", "declines"},
	{`{"ms":{"bad":1}}`, "invalid_key .bad", "declines"},
	// UnmarshalJSON: V2 calls it on the name; segmentio reads a string.
	{`{"mj":{"a":1}}`, "declines", ""},
	{`{"mj":{"a":"x","b":1}}`, "declines", "wrong_type .a"},
	{`{"mj":{"a":1,"a":2}}`, "declines", "duplicate_key .a"},
	// A method no binder reads a key by: a string key.
	{`{"mt":{"a":1,"b":2}}`, "", ""},
	{`{"mt":{"a":1,"a":2}}`, "invalid_value ", "duplicate_key .a"},
	{`{"mt":{"a":"x"}}`, "wrong_type .a", "wrong_type .a"},
	// A method's error holding a *json.UnmarshalTypeError: V2 reads it as
	// any other; segmentio turns it into a syntax error.
	{`{"mu":{"ok":1}}`, "", ""},
	{`{"mu":{"bad":1}}`, "invalid_key .bad", "declines"},
	// A key type of another kind.
	{`{"mi":{"a":1}}`, "declines", "declines"},
}

// TestTextKeys_HeldToTheBinder: for every row, on each binder, the one
// pass gives the row's verdict or declines it, as the row says; the
// verdict is the trial check's (checkProven, which also holds it to the
// binder's failing), and where the binder reads the call, each map it
// decodes holds exactly the keys sent, by their text: the Go key of each
// is its text, so the pass and the trial check tell repeated keys as the
// binder does.
func TestTextKeys_HeldToTheBinder(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[selfArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range textKeyRows {
			want := row.v2
			if b == segmentio.Binder {
				want = row.seg
			}
			args := []byte(row.args)
			checkProven(t, plan, args)
			is, _, ok := bind.NativeVerdict(plan, args)
			got := "declines"
			if ok {
				got = verdictOf(is)
			}
			if got != want {
				trial, _ := bind.TrialVerdict(plan, args)
				t.Errorf("%s %s: the pass says %q, want %q (the trial check: %s)", b.Name(), row.args, got, want, brief(trial))
			}
			var v selfArgs
			if err := b.Unmarshal(args, &v); err != nil || want == "declines" {
				continue
			}
			for name, m := range map[string]any{"mk": v.MK, "ma": v.MA, "mv": v.MV, "mf": v.MF, "ms": v.MS, "mt": v.MT, "mu": v.MU} {
				if keys := sentKeys(t, args, name); !sameKeys(m, keys) {
					t.Errorf("%s %s: the binder's %s holds %v, the call sends %q", b.Name(), row.args, name, m, keys)
				}
			}
		}
	}
}

// verdictOf writes issues as textKeyRows does.
func verdictOf(issues []bind.Issue) string {
	var parts []string
	for _, is := range issues {
		parts = append(parts, string(is.Kind)+" "+is.Path.String())
	}
	return strings.Join(parts, "; ")
}

// sentKeys is the texts of the keys of the objects the top-level key name
// holds in args (every occurrence: segmentio merges them), unquoted, each
// once.
func sentKeys(t *testing.T, args []byte, name string) []string {
	dec := json.NewDecoder(bytes.NewReader(args))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var obj map[string]json.RawMessage
		if err := dec.Decode(&obj); err != nil && k == name {
			t.Fatal(err)
		}
		for key := range obj {
			if k == name && !slices.Contains(keys, key) {
				keys = append(keys, key)
			}
		}
	}
	return keys
}

// sameKeys reports whether map m's keys, as strings, are keys.
func sameKeys(m any, keys []string) bool {
	v := reflect.ValueOf(m)
	if v.Len() != len(keys) {
		return false
	}
	for _, k := range v.MapKeys() {
		if !slices.Contains(keys, k.String()) {
			return false
		}
	}
	return true
}
