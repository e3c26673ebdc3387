package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segCtlArgs has ,string strings at the top level, behind a pointer and
// in a nested struct, with plain fields beside them.
type segCtlArgs struct {
	S string  `json:"s,string"`
	P *string `json:"p,string"`
	N struct {
		S string  `json:"s,string"`
		T string  `json:"t"`
		F float64 `json:"f,string"`
		B *bool   `json:"b,string"`
	} `json:"n"`
	X string `json:"x"`
	L []struct {
		S string `json:"s,string"`
	} `json:"l"`
}

// TestSegmentIO_QuotedControlText: a ,string string's text that opens
// with a JSON string holding a control character and no backslash
// segmentio reads (as is) where the whole call, but its surrounding
// space, is printable ASCII (its validAsciiPrint flag), and fails on
// otherwise; the trial check, which decodes a failing call's arguments
// alone, finds the failure in the argument where the argument's own
// bytes are not printable, and in none where they are. The pass's verdict
// is the trial check's, held to segmentio's own decode: the guard fails
// exactly when segmentio does (checkProven), and where it reads the text
// the handler gets it as sent.
func TestSegmentIO_QuotedControlText(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[segCtlArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args string
		want string // what segmentio reads into S, P or N.S; "" where it fails
	}{
		{`{"s":"\"a\nb\""}`, "a\nb"},
		{`{"s":"\"a\nb\" "}`, "a\nb"},
		{`{"p":"\"\u0001\""}`, "\x01"},
		{`{"s":"\"a\nb\"","x":"\u00e9"}`, "a\nb"},
		{" {\"s\":\"\\\"a\\nb\\\"\"}\n", "a\nb"},
		{`{"n":{"s":"\"a\tb\"","t":"x"}}`, "a\tb"},
		{`{"s":"\"a\nb\"","x":"é"}`, ""},
		{"{\"s\":\"\\\"a\\nb\\\"\",\n\"x\":\"y\"}", ""},
		{`{"n":{"s":"\"a\tb\"","t":"é"}}`, ""},
		{`{"n":{"s":"\"a\tb\""},"x":"é"}`, ""},
		{`{"n":{"s":"\"a\tb\""},"x":"é","s":1}`, ""},
		{`{"x":"é","p":"\"\u0001\"","zz":1}`, ""},
		{`{"s":"\"a\n\\\"b\""}`, ""},
		{`{"s":"\"a\nb\"x"}`, ""},
		{`{"n":{"s":"\"a\nb\" x"}}`, ""},
		{`{"n":{"f":"\"a\nb\""}}`, ""},
		{`{"n":{"f":"\"a\nb\" x","t":"x"}}`, ""},
		{`{"n":{"b":"\"\u0000\""},"x":"é"}`, ""},
		{`{"n":{"f":"\"a\nb\"","t":"é"}}`, ""},
		{`{"n":{"b":"[\"\n\"]","t":"é"}}`, ""},
	} {
		args := []byte(tc.args)
		checkProven(t, plan, args)
		if _, _, ok := bind.NativeVerdict(plan, args); !ok {
			t.Errorf("%q: the pass declines", tc.args)
		}
		// A value holding such a string segmentio reads as the call's
		// bytes say (parseValue): the pass declines it.
		for _, args := range []string{`{"n":{"f":"[\"\n\"]"}}`, `{"n":{"b":"{\"a\":\"\t\"}"},"x":"é"}`} {
			checkProven(t, plan, []byte(args))
			if _, _, ok := bind.NativeVerdict(plan, []byte(args)); ok {
				t.Errorf("%q: the pass gives a verdict", args)
			}
		}
		var v segCtlArgs
		if err := segmentio.Binder.Unmarshal(args, &v); (err == nil) != (tc.want != "") {
			t.Fatalf("%q: segmentio: %v, want it to read %q", tc.args, err, tc.want)
		} else if err == nil {
			got := v.S + v.N.S
			if v.P != nil {
				got += *v.P
			}
			if got != tc.want {
				t.Errorf("%q: segmentio reads %q, want %q", tc.args, got, tc.want)
			}
		}
	}
}

// TestSegmentIO_QuotedControlGrowth: a list of ,string strings holding
// control characters costs the pass work linear in the call, read, failed
// on in the call alone (the call's bytes are not printable), or failed on
// in the argument: each argument's bytes and the call's are judged
// printable once, not once per string.
func TestSegmentIO_QuotedControlGrowth(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[segCtlArgs]())
	if err != nil {
		t.Fatal(err)
	}
	scales := growthScales
	if testing.Short() {
		scales = scales[:2]
	}
	for _, tc := range []struct {
		name string
		args func(k int) string
	}{
		{"read", func(k int) string { return `{"l":[` + rep(`{"s":"\"a\nb\""}`, 100*k, ",") + `]}` }},
		{"hidden", func(k int) string { return `{"l":[` + rep(`{"s":"\"a\nb\""}`, 100*k, ",") + `],"x":"é"}` }},
		{"argument", func(k int) string { return `{"l":[` + rep(`{"s":"\"a\nb\""}`, 100*k, ",") + `,{"s":"é"}]}` }},
	} {
		var costs []growthCost
		for _, k := range scales {
			args := []byte(tc.args(k))
			if _, _, ok := bind.NativeVerdict(plan, args); !ok {
				t.Fatalf("%s %dx: the pass declines", tc.name, k)
			}
			costs = append(costs, measureCheck(plan, args))
		}
		assertLinear(t, costs, scales)
	}
}
