package refuse_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// foldArgs has a parameter of each way encoding/json reads a value sent
// again into the place an earlier one filled: a scalar (null leaves the
// value before it), a pointer and an empty interface (null clears them),
// a struct, a pointer to one and a map (members merge), a list of structs
// and a fixed array (element by element), and types that decode
// themselves (a list that grows with every value; time.Time).
type foldArgs struct {
	N  int              `json:"n" validate:"max=10"`
	S  string           `json:"s,omitempty"`
	F  float64          `json:"f,omitempty"`
	P  *int             `json:"p,omitempty"`
	Y  any              `json:"y,omitempty"`
	In foldInner        `json:"in"`
	PI *foldInner       `json:"pi,omitempty"`
	M  map[string]int   `json:"m,omitempty"`
	L  []foldInner      `json:"l,omitempty"`
	A  [2]int           `json:"a,omitempty"`
	C  foldGrows        `json:"c,omitempty"`
	T  time.Time        `json:"t,omitzero"`
	MM map[string][]int `json:"mm,omitempty"`
	PP **int            `json:"pp,omitempty"`
	Q  string           `json:"q,omitempty,string"`
}

type foldInner struct {
	B int    `json:"b,omitempty"`
	C string `json:"c,omitempty"`
}

// foldGrows appends every value it is given.
type foldGrows []string

func (g *foldGrows) UnmarshalJSON(b []byte) error {
	*g = append(*g, string(b))
	return nil
}

func foldRegistry(t testing.TB, mode typereg.Mode) *typereg.Registry {
	t.Helper()
	reg := typereg.New(typereg.WithMode(mode))
	if err := typereg.Register[foldArgs](reg, "fold"); err != nil {
		t.Fatal(err)
	}
	return reg
}

// checkArgsReadAsSent decodes the call as sent and Decision.Args with
// encoding/json, the binder of reg, and fails unless both read alike.
func checkArgsReadAsSent(t *testing.T, args string, d refuse.Decision) {
	t.Helper()
	var sent, got foldArgs
	serr := json.Unmarshal([]byte(args), &sent)
	gerr := json.Unmarshal(d.Args, &got)
	if serr != nil || gerr != nil {
		t.Fatalf("%s: the binder fails on the call (%v) or on Args %s (%v), yet it went on", args, serr, d.Args, gerr)
	}
	if !reflect.DeepEqual(sent, got) {
		t.Errorf("%s: Args %s read as\n\t%+v\nthe call as sent as\n\t%+v", args, d.Args, got, sent)
	}
}

// TestDecide_FoldConflictArgsReadAsSent: a parameter sent under its name
// and a key encoding/json folds to it goes on (under Warn) with Args the
// binder reads as it reads the call sent, whatever the parameter's type;
// the warning quotes the value read where it is one member's. Before,
// Args kept the last member alone, which the binder does not read when
// it is a null for a scalar (the value before it stays) or when values
// merge: {"n":5,"N":null} went on as {"n":null}, read as 0, where the
// binder reads 5; {"in":{"b":1},"IN":{"c":"x"}} as {"in":{"c":"x"}}, b
// lost.
func TestDecide_FoldConflictArgsReadAsSent(t *testing.T) {
	reg := foldRegistry(t, typereg.Warn)
	for _, tc := range []struct {
		args    string
		becomes string // the conflict's Becomes, "" when no one member's
	}{
		{`{"n":5,"N":null,"in":{}}`, "5"},
		{`{"n":null,"N":7,"in":{}}`, "7"},
		{`{"n":1,"N":2,"in":{}}`, "2"},
		{`{"n":1,"s":"a","S":null,"in":{}}`, `"a"`},
		{`{"n":1,"f":1.5,"F":null,"f":null,"in":{}}`, "1.5"},
		{`{"n":1,"p":3,"P":null,"in":{}}`, "null"},
		{`{"n":1,"y":{"x":1},"Y":{"y":2},"in":{}}`, `{"y":2}`},
		{`{"n":1,"in":{"b":1},"IN":{"c":"x"}}`, ""},
		{`{"n":1,"in":{"b":1},"In":null}`, ""},
		{`{"n":1,"in":{},"pi":{"b":1},"PI":{"c":"x"}}`, ""},
		{`{"n":1,"in":{},"pi":{"b":1},"Pi":null,"pI":{"c":"x"}}`, ""},
		{`{"n":1,"in":{},"m":{"x":1},"M":{"y":2}}`, ""},
		{`{"n":1,"in":{},"l":[{"b":1},{"b":2}],"L":[{"c":"x"}]}`, ""},
		{`{"n":1,"in":{},"a":[1,2],"A":[3]}`, ""},
		{`{"n":1,"in":{},"c":"x","C":"y"}`, ""},
		{`{"n":1,"in":{},"t":"2024-01-01T00:00:00Z","T":null}`, ""},
		{`{"n":1,"in":{},"mm":{"k":[1,2]},"MM":{"k":[3]}}`, ""},
		{`{"n":1,"in":{"b":1},"IN":{"c":"x"},"in":{"c":"y"},"n":2}`, ""},
		{`{"n":1,"in":{},"pp":3,"PP":null}`, ""},
	} {
		d := refuse.Decide(reg, "fold", []byte(tc.args))
		if d.Refusal != nil {
			t.Errorf("%s: refused:\n%s", tc.args, d.Refusal)
			continue
		}
		checkArgsReadAsSent(t, tc.args, d)
		var conflict *refuse.Problem
		if d.Warnings != nil {
			for i, p := range d.Warnings.Problems {
				switch p.Code {
				case refuse.AliasConflict:
					conflict = &d.Warnings.Problems[i]
				case refuse.MissingArgument:
					t.Errorf("%s: %+v", tc.args, p)
				}
			}
		}
		if conflict == nil {
			t.Errorf("%s: no alias_conflict: %v", tc.args, d.Warnings)
			continue
		}
		if conflict.Becomes != tc.becomes {
			t.Errorf("%s: the conflict quotes %q as the value read, want %q", tc.args, conflict.Becomes, tc.becomes)
		}
		if tc.becomes == "" && strings.Contains(d.Warnings.String(), "dropped") {
			t.Errorf("%s: the warning says values were dropped, where they merge:\n%s", tc.args, d.Warnings)
		}
	}
}

// TestDecide_NullAfterAValueIsNoMissingArgument: a required parameter
// sent with a value, then null (a null its type cannot hold, which the
// binder skips), was sent: under Reject the call is not refused as
// missing it. Before, {"n":5,"N":null} was refused with missing_argument
// ("sent null, which does not count as sending it"), and so was the same
// key sent twice.
func TestDecide_NullAfterAValueIsNoMissingArgument(t *testing.T) {
	reg := foldRegistry(t, typereg.Reject)
	for _, args := range []string{`{"n":5,"N":null,"in":{}}`, `{"n":5,"n":null,"in":{}}`, `{"n":5,"in":{"b":1},"in":null}`} {
		d := refuse.Decide(reg, "fold", []byte(args))
		for _, p := range problemsOf(d) {
			if p.Code == refuse.MissingArgument {
				t.Errorf("%s: %+v", args, p)
			}
		}
	}
	// Nothing but nulls is still missing.
	d := refuse.Decide(reg, "fold", []byte(`{"n":null,"N":null,"in":{}}`))
	if d.Refusal == nil || !hasCode(d.Refusal, refuse.MissingArgument) {
		t.Errorf(`{"n":null,"N":null}: want missing_argument, got %v`, d.Refusal)
	}
}

// FuzzDecide_ArgsReadAsSent: under encoding/json, every call that goes
// on (under Warn) goes on with Args the binder reads exactly as it reads
// the call sent, whatever keys repeat or fold, into every kind of
// parameter.
func FuzzDecide_ArgsReadAsSent(f *testing.F) {
	reg := foldRegistry(f, typereg.Warn)
	for _, s := range []string{
		`{"n":5,"N":null,"in":{}}`, `{"in":{"b":1},"IN":{"c":"x"},"in":{"c":"y"}}`,
		`{"pi":{"b":1},"Pi":null,"pI":{"c":"x"}}`, `{"m":{"x":1},"M":{"y":2}}`,
		`{"l":[{"b":1},{"b":2}],"L":[{"c":"x"}]}`, `{"a":[1,2],"A":[3]}`, `{"c":"x","C":"y"}`,
		`{"y":{"x":1},"Y":null}`, `{"mm":{"k":[1,2]},"MM":{"k":[3]},"mM":null}`, `{"pp":1,"PP":null,"pp":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		if !json.Valid(args) {
			return
		}
		d := refuse.Decide(reg, "fold", args)
		if d.Refusal != nil {
			return
		}
		checkArgsReadAsSent(t, string(args), d)
	})
}

// textOwn is read by its UnmarshalText, and renders as {}.
type textOwn struct{ got string }

func (s *textOwn) UnmarshalText(b []byte) error { s.got = string(b); return nil }

type textOwnArgs struct {
	T textOwn   `json:"t"`
	L []textOwn `json:"l,omitempty"`
}

// TestDecide_ReplacedTextForATextMethod: a string with a lone surrogate
// read by a type's UnmarshalText is a replaced_text warning, under
// bind.Std as under segmentio, quoting the text the method was handed
// (Std said nothing; segmentio's warning said the tool reads it "as {}",
// the type's own rendering).
func TestDecide_ReplacedTextForATextMethod(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b), typereg.WithMode(typereg.Warn))
		if err := typereg.Register[textOwnArgs](reg, "t"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct{ args, becomes string }{
			{`{"t":"a\ud800b"}`, "\"a\ufffdb\""},
			{`{"t":"x","l":["ok","\udc00"]}`, "\"\ufffd\""},
		} {
			d := refuse.Decide(reg, "t", []byte(tc.args))
			if d.Refusal != nil || d.Warnings == nil || len(d.Warnings.Problems) != 1 {
				t.Errorf("%s: %s: %v %v", b.Name(), tc.args, d.Refusal, d.Warnings)
				continue
			}
			if p := d.Warnings.Problems[0]; p.Code != refuse.ReplacedText || p.Becomes != tc.becomes {
				t.Errorf("%s: %s: %+v, want replaced_text becoming %s", b.Name(), tc.args, p, tc.becomes)
			}
		}
	}
}

// TestDecide_RepeatedKeySaysWhatTheToolReads: a parameter sent more than
// once under one key is a duplicate_key warning whose Becomes is the value
// the binder reads where that is one member's (the last; for a scalar,
// the last that is not null), checked against the binder's own decode,
// under encoding/json and segmentio; where values merge, it quotes none
// and says so. Before, every one said "the tool reads only the last
// value", which {"n":5,"n":null} (read as 5) and two objects (merged)
// belie.
func TestDecide_RepeatedKeySaysWhatTheToolReads(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b), typereg.WithMode(typereg.Warn))
		if err := typereg.Register[foldArgs](reg, "fold"); err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			args, key, becomes string
		}{
			{`{"n":5,"n":null,"in":{}}`, "n", "5"},
			{`{"n":5,"n":7,"in":{}}`, "n", "7"},
			{`{"n":1,"s":"a","s":null,"s":null,"in":{}}`, "s", `"a"`},
			{`{"n":1,"p":3,"p":null,"in":{}}`, "p", "null"},
			{`{"n":1,"y":[1],"y":{"a":1},"in":{}}`, "y", `{"a":1}`},
			{`{"n":1,"in":{"b":1},"in":{"c":"x"}}`, "in", ""},
			{`{"n":1,"in":{},"m":{"x":1},"m":{"y":2}}`, "m", ""},
			// segmentio decodes the null into the inner pointer, and
			// leaves the outer one set; encoding/json clears it.
			{`{"n":1,"pp":3,"pp":null,"in":{}}`, "pp", ""},
		} {
			d := refuse.Decide(reg, "fold", []byte(tc.args))
			if d.Refusal != nil || d.Warnings == nil {
				t.Errorf("%s: %s: %v", b.Name(), tc.args, d.Refusal)
				continue
			}
			var dup *refuse.Problem
			for i, p := range d.Warnings.Problems {
				if p.Code == refuse.DuplicateKey && p.Argument == tc.key {
					dup = &d.Warnings.Problems[i]
				}
			}
			if dup == nil {
				t.Errorf("%s: %s: no duplicate_key for %s: %v", b.Name(), tc.args, tc.key, d.Warnings)
				continue
			}
			if dup.Becomes != tc.becomes {
				t.Errorf("%s: %s: Becomes %q, want %q", b.Name(), tc.args, dup.Becomes, tc.becomes)
			}
			text := d.Warnings.String()
			if strings.Contains(text, "the last value") {
				t.Errorf("%s: %s: %s", b.Name(), tc.args, text)
			}
			if tc.becomes == "" {
				continue
			}
			// What the binder reads is what Becomes quotes.
			var sent, read foldArgs
			if err := b.Unmarshal([]byte(tc.args), &sent); err != nil {
				t.Fatal(err)
			}
			if err := b.Unmarshal([]byte(`{"n":1,"in":{},"`+tc.key+`":`+tc.becomes+`}`), &read); err != nil {
				t.Fatal(err)
			}
			field := map[string]func(a foldArgs) any{"n": func(a foldArgs) any { return a.N }, "s": func(a foldArgs) any { return a.S },
				"p": func(a foldArgs) any { return a.P }, "y": func(a foldArgs) any { return a.Y }}[tc.key]
			if !reflect.DeepEqual(field(sent), field(read)) {
				t.Errorf("%s: %s: the binder reads %v, Becomes %s reads as %v", b.Name(), tc.args, field(sent), tc.becomes, field(read))
			}
		}
	}
}

// TestDecide_NullAfterAValue_ArgsAndWordsHoldTheValue: a scalar parameter
// sent twice under one key, a value then null, goes on (under Warn) with
// Args holding the value alone, which the binder reads alike and a map of
// the arguments (mcp-go's GetArguments) reads as the value, not null; and
// a constraint it breaks quotes the value read. Before, Args kept both
// members (a map held null, RequireInt failed) and the constraint said
// "the call sent null".
func TestDecide_NullAfterAValue_ArgsAndWordsHoldTheValue(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, segmentio.Binder} {
		warn := typereg.New(typereg.WithBinder(b), typereg.WithMode(typereg.Warn))
		reject := typereg.New(typereg.WithBinder(b))
		for _, reg := range []*typereg.Registry{warn, reject} {
			if err := typereg.Register[foldArgs](reg, "fold"); err != nil {
				t.Fatal(err)
			}
		}
		for _, tc := range []struct{ args, key, want string }{
			{`{"n":5,"n":null,"in":{}}`, "n", "5"},
			{`{"n":1,"s":"a","s":null,"in":{},"s":null}`, "s", `"a"`},
			{`{"n":null,"n":3,"n":null,"in":{}}`, "n", "3"},
		} {
			d := refuse.Decide(warn, "fold", []byte(tc.args))
			if d.Refusal != nil {
				t.Errorf("%s: %s: refused: %v", b.Name(), tc.args, d.Refusal)
				continue
			}
			var m map[string]json.RawMessage
			if err := json.Unmarshal(d.Args, &m); err != nil || string(m[tc.key]) != tc.want {
				t.Errorf("%s: %s: Args %s: a map reads %s as %s, want %s", b.Name(), tc.args, d.Args, tc.key, m[tc.key], tc.want)
			}
			var sent, got foldArgs
			if b.Unmarshal([]byte(tc.args), &sent) != nil || b.Unmarshal(d.Args, &got) != nil || !reflect.DeepEqual(sent, got) {
				t.Errorf("%s: %s: Args %s read as %+v, the call as %+v", b.Name(), tc.args, d.Args, got, sent)
			}
		}
		r := refuse.Refuse(reject, "fold", []byte(`{"n":50,"n":null,"in":{}}`))
		if r == nil || len(r.Problems) != 1 || r.Problems[0].Code != refuse.Constraint || r.Problems[0].Sent != "50" {
			t.Errorf("%s: {\"n\":50,\"n\":null}: %v, want the constraint broken by 50", b.Name(), r)
		}
	}
}

// TestDecide_ReplacedTextInAStringField: replaced text inside a ,string
// string field's text is quoted as the tool reads it, the text inside read
// too ("a\ufffd"), not as the JSON text inside the string. (Under
// GOEXPERIMENT=jsonv2 encoding/json fails on it, and the call is refused.)
func TestDecide_ReplacedTextInAStringField(t *testing.T) {
	reg := foldRegistry(t, typereg.Warn)
	d := refuse.Decide(reg, "fold", []byte(`{"n":1,"in":{},"q":"\"a\\ud800\""}`))
	var sent foldArgs
	if err := json.Unmarshal([]byte(`{"q":"\"a\\ud800\""}`), &sent); err != nil {
		if !jsonv2Build || d.Refusal == nil {
			t.Errorf("encoding/json fails (%v); the guard: %v %v", err, d.Refusal, d.Warnings)
		}
		return
	}
	if sent.Q != "a\ufffd" {
		t.Fatalf("the binder reads %q", sent.Q)
	}
	if d.Warnings == nil || len(d.Warnings.Problems) != 1 || d.Warnings.Problems[0].Code != refuse.ReplacedText || d.Warnings.Problems[0].Becomes != "\"a\ufffd\"" {
		t.Errorf("%v %v, want replaced_text becoming \"a\ufffd\"", d.Refusal, d.Warnings)
	}
}
