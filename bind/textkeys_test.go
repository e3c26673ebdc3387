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

// textDotKey formats itself with a dot (segmentio's error path names a
// key by fmt.Sprint of it, and splits the path at dots), and has no
// UnmarshalText: a key is its text.
type textDotKey string

func (k textDotKey) String() string { return string(k) + ".k" }

// textJSONKey has an UnmarshalJSON, which V2 calls on a key's name, quoted,
// and segmentio does not (it reads the key as a string).
type textJSONKey string

func (k *textJSONKey) UnmarshalJSON(b []byte) error {
	*k = textJSONKey(b)
	return nil
}

// textJSONBadKey is textJSONKey whose UnmarshalJSON fails on the token
// "red" and panics on "boom" (keysKept's and checkProven's own decodes
// run the binder bare: no row sends it).
type textJSONBadKey string

func (k *textJSONBadKey) UnmarshalJSON(b []byte) error {
	switch string(b) {
	case `"red"`:
		return errors.New("no red key")
	case `"boom"`:
		panic("boom key")
	}
	*k = textJSONBadKey(b)
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
	// A call that fails with a key repeated: segmentio reads each key
	// and value of a map into a fresh one (a map sent again too, into
	// the map the value before left), and the pass decides it.
	{`{"mk":{"red":1,"red":2}}`, "invalid_key .red", "invalid_value "},
	{`{"mk":{"teal":1,"teal":2,"red":3}}`, "invalid_value ", "invalid_value "},
	{`{"mk":{"teal":1},"mk":{"amber":1}}`, "invalid_value ", "duplicate_key "},
	{`{"mk":{"red":1},"mk":{"teal":1}}`, "invalid_key .red; invalid_value ", "invalid_value "},
	{`{"mk":{"teal":1},"mk":{"red":1}}`, "invalid_key .red; invalid_value ", "invalid_value "},
	// Text that is not UTF-8 in a key: V2 fails on the name; segmentio
	// replaces it, and hands the method the replaced text.
	{`{"mk":{"\ud800":1}}`, "invalid_value ", "invalid_value "},
	{`{"mi":{"\ud800":1}}`, "invalid_value ", "replaced_text [\"\ufffd\"]"},
	{`{"mi":{"abc":1,"\ud800":2}}`, "invalid_value ", "replaced_text [\"\ufffd\"]; duplicate_key [\"\ufffd\"]"}, // segmentio: one Go key, len 3
	{`{"mi":{"\ud800":null}}`, "invalid_value ", "replaced_text [\"\ufffd\"]; null_for_value [\"\ufffd\"]"},     // segmentio: the key's loss first, as the trial check lists it
	{"{\"mk\":{\"te\xffl\":1}}", "invalid_value ", "invalid_value "},
	// Not JSON after a key the method fails on.
	{`{"mk":{"red":1`, "invalid_json ", "invalid_json "},
	{`{"mk":{"red":1,}}`, "invalid_json ", "invalid_json "},
	// A key the method reads into another Go value than its text: the
	// binder tells keys by it (V2 fails on the second of two names of one
	// value, segmentio keeps the last), and so do the pass and the trial
	// check.
	{`{"mv":{"a":1}}`, "", ""},
	{`{"mv":{"a":1,"b":2}}`, "invalid_value ", "duplicate_key .b"},
	{`{"mv":{"a":1,"b":2,"c":3}}`, "invalid_value ", "duplicate_key .b; duplicate_key .c"},
	{`{"mv":{"":1}}`, "", ""},
	{`{"mv":{"bad":1}}`, "invalid_key .bad", "invalid_value "},
	{`{"mv":{"a":1,"bad":2}}`, "invalid_key .bad", "invalid_value "},
	{`{"mf":{"a":1}}`, "", ""},
	{`{"mf":{"a":1,"A":2}}`, "invalid_value ", "duplicate_key .A"},
	{`{"mf":{"A":1,"a":2,"B":3,"b":4,"c":5}}`, "invalid_value ", "duplicate_key .a; duplicate_key .b"},
	{`{"mf":{"a":1,"A":"x"}}`, "invalid_value ", "wrong_type .A"}, // a repeated key in a call that fails
	{`{"mf":{"a":"x","A":2}}`, "wrong_type .a", "wrong_type .a"},
	{`{"mf":{"a":[1],"A":2}}`, "wrong_type .a", "wrong_type .a"},
	{`{"mf":{"a":1,"a":2,"A":3}}`, "invalid_value ", "duplicate_key .a; duplicate_key .A"},
	{`{"mf":{"A":1,"a":2}}`, "invalid_value ", "duplicate_key .a"},
	{`{"mf":{"a":1},"mf":{"A":2}}`, "invalid_value ", "duplicate_key "},
	{`{"n":{"i":1},"mf":{"Q":1,"q":null}}`, "invalid_value ", "duplicate_key .q; null_for_value .q"}, // a repeated key whose value holds a loss: the key's listed first
	// A key type of a String method: segmentio's path names the key by
	// it, and so does the trial check.
	{`{"ms":{"a":1}}`, "", ""},
	{`{"ms":{"a":"x"}}`, "wrong_type .a", "wrong_type .a"},
	{`{"ms":{"bad":1}}`, "invalid_key .bad", "invalid_value "},
	{`{"ms":{"b":1,"a":[1]}}`, "wrong_type .a", "wrong_type .a"},
	{`{"md":{"a":1,"b":"x"}}`, "wrong_type .b", "wrong_type .b"},
	{`{"md":{"a":{"k":1},"a.k":"x"}}`, "wrong_type .a", "wrong_type .a"},
	{`{"md":{"b.k":1,"b":"x"}}`, "wrong_type .b", "wrong_type .b"},
	// UnmarshalJSON: V2 calls it on the name's token, quotes and all
	// (and fails on a name repeated first); segmentio reads a string.
	{`{"mj":{"a":1}}`, "", ""},
	{`{"mj":{"a":"x","b":1}}`, "wrong_type .a", "wrong_type .a"},
	{`{"mj":{"a":1,"a":2}}`, "invalid_value ", "duplicate_key .a"},
	{`{"mj":{"a":1,"\u0061":2}}`, "invalid_value ", "duplicate_key .a"}, // V2's name is its text: a repeat
	{`{"mj":{"a":1,"b":{"k":null}}}`, "wrong_type .b", "wrong_type .b"},
	{`{"mg":{"teal":1}}`, "", ""},
	{`{"mg":{"red":1}}`, "invalid_key .red", ""},
	{`{"mg":{"teal":1,"red":"x"}}`, "invalid_key .red", "wrong_type .red"},
	{`{"i":"x","mg":{"red":1}}`, "wrong_type ; invalid_key .red", "wrong_type "},
	{`{"mg":{"red":1},"mg":{"teal":1}}`, "invalid_key .red; invalid_value ", "duplicate_key "},
	// A method no binder reads a key by: a string key.
	{`{"mt":{"a":1,"b":2}}`, "", ""},
	{`{"mt":{"a":1,"a":2}}`, "invalid_value ", "duplicate_key .a"},
	{`{"mt":{"a":"x"}}`, "wrong_type .a", "wrong_type .a"},
	// A method's error holding a *json.UnmarshalTypeError: V2 reads it as
	// any other; segmentio turns it into a syntax error.
	{`{"mu":{"ok":1}}`, "", ""},
	{`{"mu":{"bad":1}}`, "invalid_key .bad", "declines"},
	// A key type of another kind: its method reads the text all the same.
	{`{"mi":{"a":1}}`, "", ""},
	{`{"mi":{"a":1,"b":2}}`, "invalid_value ", "duplicate_key .b"}, // one Go key: len("a") == len("b")
	{`{"mi":{"a":1,"a":2}}`, "invalid_value ", "duplicate_key .a"},
	{`{"mi":{"7":"x"}}`, "wrong_type .7", "wrong_type .7"},
	{`{"mi":{"a":null,"bb":1}}`, "null_for_value .a", "null_for_value .a"},
	{`{"mi":{"a":{"k":1}}}`, "wrong_type .a", "wrong_type .a"},
}

// TestTextKeys_HeldToTheBinder: for every row, on each binder, the one
// pass gives the row's verdict or declines it, as the row says; the
// verdict is the trial check's (checkProven, which also holds it to the
// binder's failing), and where the binder reads the call, each key sent
// that its maps do not keep is a DuplicateKey (keysKept): the pass and the
// trial check tell keys as the binder's map does, by the Go key read.
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
			keysKept(t, plan, args)
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

// textKeyLosses are calls of selfArgs's maps whose key type's
// UnmarshalText reads each key, where a binder that reads the call may
// keep fewer keys than were sent: two keys of one text, or of two texts
// the method reads into one Go value (a value receiver's leaves every key
// zero; textFoldKey folds case; textIntKey reads a key's length).
var textKeyLosses = []string{
	`{"mk":{"teal":1,"teal":2}}`,
	`{"mk":{"teal":1,"te\u0061l":2,"amber":3}}`,
	`{"ma":{"teal":[1],"teal":{"a":1},"amber":null}}`,
	`{"mv":{"a":1}}`,
	`{"mv":{"a":1,"b":2}}`,
	`{"mv":{"a":1,"b":2,"c":3,"":4}}`,
	`{"mf":{"a":1,"A":2}}`,
	`{"mf":{"a":1,"b":2,"A":3}}`,
	`{"mf":{"A":1,"a":2,"B":3,"b":4,"c":5}}`,
	`{"mf":{"\u0041":1,"a":2}}`,
	`{"mf":{"a":1},"mf":{"A":2}}`,
	`{"mi":{"a":1,"b":2}}`,
	`{"mi":{"a":1,"bb":2,"cc":3}}`,
	`{"mu":{"a":1,"A":2}}`,
	`{"mt":{"a":1,"a":2}}`,
	`{"ms":{"a":1,"a":2,"b":3}}`,
	`{"n":{"f":1},"mv":{"x":1,"y":[2]},"mf":{"Q":1,"q":2}}`,
}

// TestTextKeys_NothingLost: on every binder, where the binder reads a
// call, each key it did not keep of the maps of selfArgs whose key type
// decodes itself is a DuplicateKey issue in that map, and no other is
// (keysKept). The binder tells keys by the Go value its key type's
// UnmarshalText reads, so must the check.
func TestTextKeys_NothingLost(t *testing.T) {
	calls := slices.Clone(textKeyLosses)
	for _, row := range textKeyRows {
		calls = append(calls, row.args)
	}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[selfArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range calls {
			keysKept(t, plan, []byte(c))
		}
	}
}

// FuzzTextKeys_NothingLost holds keysKept on calls of selfArgs's maps of
// keys that decode themselves, of keys drawn from texts the key types read
// alike, apart, or fail on, on every binder.
func FuzzTextKeys_NothingLost(f *testing.F) {
	f.Add([]byte{0, 0, 1, 2, 3})
	f.Add([]byte{2, 0, 1, 5, 0})
	f.Add([]byte{3, 0, 1, 2, 1, 4})
	f.Add([]byte{1, 6, 7, 6})
	plans := map[bind.Binder]*bind.Plan{}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[selfArgs]())
		if err != nil {
			f.Fatal(err)
		}
		plans[b] = plan
	}
	maps := []string{"mk", "ma", "mv", "mf", "ms", "mt", "mu", "mi", "md", "mj", "mg"}
	keys := []string{`"a"`, `"A"`, `"b"`, `""`, `"teal"`, `"te\u0061l"`, `"amber"`, `"bb"`, `"\u0041"`, `"bad"`, `"red"`, `"\ud800"`, "\"a\xff\"", `"abc"`}
	values := []string{`1`, `2`, `"x"`, `null`, `[1]`, `{"a":1,"a":2}`, `1.5`, `9007199254740993`}
	f.Fuzz(func(t *testing.T, shape []byte) {
		if len(shape) == 0 || len(shape) > 64 {
			return
		}
		var b strings.Builder
		b.WriteString(`{"` + maps[int(shape[0])%len(maps)] + `":{`)
		for i, c := range shape[1:] {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(keys[int(c)%len(keys)] + ":" + values[int(c)/len(keys)%len(values)])
		}
		b.WriteString("}}")
		for _, plan := range plans {
			keysKept(t, plan, []byte(b.String()))
		}
	})
}

// keysKept: where plan's binder reads args, for each map of selfArgs
// whose key type decodes itself, the keys sent less the keys the binder's
// map holds are the DuplicateKey issues plan.Check lists one step inside
// the argument (unless it lists the argument itself as sent again, its
// loss listed there).
func keysKept(t *testing.T, plan *bind.Plan, args []byte) {
	t.Helper()
	v := reflect.New(plan.Type())
	if err := plan.Binder().Unmarshal(args, v.Interface()); err != nil {
		return
	}
	issues := plan.Check(args, nil)
	for _, name := range []string{"mk", "ma", "mv", "mf", "ms", "mt", "mu", "mi", "md", "mj", "mg"} {
		param := slices.IndexFunc(plan.Params(), func(p bind.Param) bool { return p.Name == name })
		m := v.Elem().FieldByName(strings.ToUpper(name))
		lost := sentMembers(t, args, name) - m.Len()
		dups, repeated := 0, false
		for _, is := range issues {
			if is.Param == param && is.Kind == bind.DuplicateKey {
				switch strings.Count(is.Path.Pointer(), "/") {
				case 1:
					repeated = true
				case 2:
					dups++
				}
			}
		}
		if !repeated && dups != lost {
			t.Errorf("%s %s: the binder's %s keeps %d of the keys sent, losing %d; the check lists %d repeated: %s",
				plan.Binder().Name(), args, name, m.Len(), lost, dups, brief(issues))
		}
	}
}

// sentMembers is how many members the objects the top-level key name
// holds in args have, every occurrence's (the binders merge them).
func sentMembers(t *testing.T, args []byte, name string) int {
	dec := json.NewDecoder(bytes.NewReader(args))
	if _, err := dec.Token(); err != nil { // {
		t.Fatal(err)
	}
	n := 0
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			t.Fatal(err)
		}
		if k != name || raw[0] != '{' {
			continue
		}
		obj := json.NewDecoder(bytes.NewReader(raw))
		obj.Token()
		for obj.More() {
			obj.Token()
			var skip json.RawMessage
			if err := obj.Decode(&skip); err != nil {
				t.Fatal(err)
			}
			n++
		}
	}
	return n
}

// textKeyStdRows are calls of selfArgs's maps of keys that decode
// themselves and Std's verdict (as textKeyRows writes it): the binder
// decides the map whole (a failure is at the argument's value), and the
// check walks a map it reads for the losses any map has, and for the keys
// its map keeps once, told by the Go value the key type reads.
var textKeyStdRows = []struct{ args, std string }{
	{`{"mk":{"teal":1,"amber":2}}`, ""},
	{`{"mk":null}`, ""},
	{`{"mk":{"red":1}}`, "invalid_value "},
	{`{"mk":{"teal":1.5}}`, "wrong_type "},
	{`{"mk":{"teal":null}}`, "null_for_value .teal"},
	{`{"ma":{"teal":9007199254740993,"amber":[null]}}`, "rounded_number .teal"},
	{`{"ma":{"teal":"\ud800"}}`, "replaced_text .teal"},
	{`{"ma":{"teal":{"a":1,"a":2}}}`, "duplicate_key .teal.a"},
	{`{"mk":{"teal":1,"te\u0061l":2}}`, "duplicate_key .teal"},
	{`{"mk":{"teal":1,"teal":2,"red":3}}`, "invalid_value "},
	{`{"mv":{"a":1,"b":2,"c":3,"":4}}`, `duplicate_key .b; duplicate_key .c; duplicate_key [""]`},
	{`{"mf":{"A":1,"a":2,"B":3,"b":4,"c":5}}`, "duplicate_key .a; duplicate_key .b"},
	{`{"mi":{"a":1,"bb":2,"cc":3}}`, "duplicate_key .cc"},
	{`{"mu":{"a":1,"A":2}}`, ""},
	{`{"n":{"mk":{"teal":1}},"mk":{"crimson":2,"crimson":3}}`, "duplicate_key .crimson"},
	{`{"n":{"f":1},"mv":{"x":1,"y":[2]},"mf":{"Q":1,"q":2}}`, "wrong_type ; duplicate_key .q"},
}

// TestTextKeys_Std: Std's verdict on each row is the row's.
func TestTextKeys_Std(t *testing.T) {
	plan, err := bind.Std.Compile(reflect.TypeFor[selfArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, row := range textKeyStdRows {
		if got := verdictOf(plan.Check([]byte(row.args), nil)); got != row.std {
			t.Errorf("%s: %q, want %q", row.args, got, row.std)
		}
		keysKept(t, plan, []byte(row.args))
	}
}
