package refuse_test

import (
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"

	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// waitStats is the tool the docs use: get_wait_stats(hours_back, limit, ...).
type waitStats struct {
	HoursBack int      `json:"hours_back"`
	Limit     *int32   `json:"limit,omitempty"`
	Database  string   `json:"database,omitempty"`
	Waits     []string `json:"waits,omitempty"`
}

func newRegistry(t testing.TB) *typereg.Registry {
	t.Helper()
	reg := typereg.New()
	if err := typereg.Register[waitStats](reg, "get_wait_stats"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[struct{}](reg, "ping"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[struct {
		A int     `json:"a"`
		B *int    `json:"b,omitempty"`
		C *string `json:"c"`
	}](reg, "two_required"); err != nil {
		t.Fatal(err)
	}
	return reg
}

var waitAccepted = []string{"hours_back", "limit", "database", "waits"}

func TestRefuse(t *testing.T) {
	reg := newRegistry(t)
	for _, tc := range []struct {
		name string
		tool string
		args string
		want *refuse.Refusal // nil: the call goes on
	}{
		{name: "good call", tool: "get_wait_stats", args: `{"hours_back":24,"limit":10,"waits":["CXPACKET"]}`},
		{name: "no arguments, for a tool whose parameters are all optional", tool: probe.Tool, args: ``},
		{name: "null arguments read as none", tool: probe.Tool, args: `null`},
		{
			name: "no arguments: the required parameter is missing", tool: "get_wait_stats", args: ``,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{{Argument: "hours_back", Code: refuse.MissingArgument, Takes: "a whole number"}}},
		},
		{
			name: "null arguments name no parameter: the required one is missing", tool: "get_wait_stats", args: `null`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{{Argument: "hours_back", Code: refuse.MissingArgument, Takes: "a whole number"}}},
		},
		{
			name: "every missing parameter in one refusal", tool: "two_required", args: `{}`,
			want: &refuse.Refusal{Tool: "two_required", Accepted: []string{"a", "b", "c"}, Problems: []refuse.Problem{
				{Argument: "a", Code: refuse.MissingArgument, Takes: "a whole number"},
				{Argument: "c", Code: refuse.MissingArgument, Takes: "text"},
			}},
		},
		{name: "a required pointer sent as null is sent", tool: "two_required", args: `{"a":1,"c":null}`},
		{name: "a required parameter sent under a folded key is sent", tool: "two_required", args: `{"A":1,"C":"x"}`},
		{name: "null for an optional non-pointer is read (left zero)", tool: "get_wait_stats", args: `{"hours_back":1,"database":null}`},
		{
			name: "null for a required non-pointer is not sending it", tool: "get_wait_stats", args: `{"hours_back":null}`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.MissingArgument, Takes: "a whole number", Sent: "null"},
			}},
		},
		{name: "a case variant the binder folds is bound, not unknown", tool: "get_wait_stats", args: `{"HOURS_BACK":5}`},
		{
			name: "fraction for an int", tool: "get_wait_stats", args: `{"hours_back":0.5}`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.NotWholeNumber, Takes: "a whole number", Sent: "0.5"},
			}},
		},
		{
			name: "every bad argument, not only the first", tool: "get_wait_stats",
			args: `{"hours_back":"24","limit":3000000000,"database":7,"waits":["a",5]}`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.WrongType, Takes: "a whole number", Sent: `"24"`},
				{Argument: "limit", Code: refuse.TooLarge, Takes: "a whole number", Sent: "3000000000"},
				{Argument: "database", Code: refuse.WrongType, Takes: "text", Sent: "7"},
				{Argument: "waits", Path: "[1]", Code: refuse.WrongType, Takes: "a list (a JSON array) of texts", Sent: `["a",5]`, Element: "5"},
			}},
		},
		{
			name: "a bad occurrence of a repeated key is refused though a later one is good", tool: "get_wait_stats",
			args: `{"hours_back":"x","hours_back":5}`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.WrongType, Takes: "a whole number", Sent: `"x"`},
			}},
		},
		{
			name: "one problem per argument: the first found in it", tool: "get_wait_stats",
			args: `{"hours_back":"x","hours_back":0.5,"waits":[1,2]}`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.WrongType, Takes: "a whole number", Sent: `"x"`},
				{Argument: "waits", Path: "[0]", Code: refuse.WrongType, Takes: "a list (a JSON array) of texts", Sent: "[1,2]", Element: "1"},
			}},
		},
		{
			name: "unknown key with a suggestion", tool: "get_wait_stats", args: `{"hours":5}`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{
				{Argument: "hours_back", Code: refuse.MissingArgument, Takes: "a whole number"},
				{Argument: "hours", Code: refuse.UnknownArgument, Sent: `"hours"`, DidYouMean: "hours_back"},
			}},
		},
		{
			name: "too small", tool: "get_wait_stats", args: `{"limit":-99999999999999999999999}`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{
				{Argument: "limit", Code: refuse.TooSmall, Takes: "a whole number", Sent: "-99999999999999999999999"},
				{Argument: "hours_back", Code: refuse.MissingArgument, Takes: "a whole number"},
			}},
		},
		{
			name: "not an object", tool: "get_wait_stats", args: `[1,2]`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{
				{Code: refuse.NotAnObject, Takes: "a JSON object", Sent: "[1,2]"},
			}},
		},
		{
			name: "invalid JSON", tool: "get_wait_stats", args: `{"hours_back":5,}`,
			want: &refuse.Refusal{Tool: "get_wait_stats", Accepted: waitAccepted, Problems: []refuse.Problem{
				{Code: refuse.InvalidJSON, Takes: "a JSON object", Sent: `byte 16 ("}") cannot stand there`},
			}},
		},
		{
			name: "unregistered tool", tool: "get_wait_stat", args: `{}`,
			want: &refuse.Refusal{Tool: "get_wait_stat", Problems: []refuse.Problem{
				{Code: refuse.UnknownTool, Sent: "get_wait_stat", DidYouMean: "get_wait_stats"},
			}},
		},
		{
			name: "a tool with no parameters refuses any argument", tool: "ping", args: `{"x":1}`,
			want: &refuse.Refusal{Tool: "ping", Accepted: []string{}, Problems: []refuse.Problem{
				{Argument: "x", Code: refuse.UnknownArgument, Sent: `"x"`},
			}},
		},
		{
			name: "text enum", tool: probe.Tool, args: `{"color":"Crimson"}`,
			want: &refuse.Refusal{Tool: probe.Tool, Accepted: probeAccepted(t, reg), Problems: []refuse.Problem{
				{Argument: "color", Code: refuse.NotOneOf, Takes: "one of crimson, teal, amber", Sent: `"Crimson"`},
			}},
		},
		{
			name: "a list of a text enum names its members", tool: probe.Tool, args: `{"colors":["teal",0.5]}`,
			want: &refuse.Refusal{Tool: probe.Tool, Accepted: probeAccepted(t, reg), Problems: []refuse.Problem{
				{Argument: "colors", Path: "[1]", Code: refuse.WrongType, Takes: "a list (a JSON array) of values, each one of crimson, teal, amber", Sent: `["teal",0.5]`, Element: "0.5"},
			}},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := refuse.Refuse(reg, tc.tool, json.RawMessage(tc.args))
			if diff := cmp.Diff(tc.want, got, noPointer); diff != "" {
				t.Errorf("Refuse(%s, %s) (-want +got):\n%s", tc.tool, tc.args, diff)
			}
		})
	}
}

func probeAccepted(t *testing.T, reg *typereg.Registry) []string {
	tool, _ := reg.Tool(probe.Tool)
	return tool.Accepted()
}

func TestRefusal_IsAnErrorValue(t *testing.T) {
	reg := newRegistry(t)
	var err error = refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"hours_back":0.5}`))
	var r *refuse.Refusal
	if !errors.As(err, &r) || r.Problems[0].Argument != "hours_back" {
		t.Fatalf("errors.As gave %v", r)
	}
	want := "Argument 'hours_back' for tool 'get_wait_stats' takes a whole number, and the call sent 0.5.\n" +
		"Accepted parameters: hours_back, limit, database, waits."
	if diff := cmp.Diff(want, err.Error()); diff != "" {
		t.Errorf("text (-want +got):\n%s", diff)
	}
}

func TestRefuse_TooLarge_StatesNoRange(t *testing.T) {
	reg := newRegistry(t)
	for _, v := range []string{"3000000000", "-3000000000", "99999999999999999999999", "1e400"} {
		for _, arg := range []string{"int8", "int32", "uint16", "uint64", "float32"} {
			r := refuse.Refuse(reg, probe.Tool, json.RawMessage(`{"`+arg+`":`+v+`}`))
			if r == nil {
				if arg == "uint64" && v == "3000000000" {
					continue
				}
				if arg == "float32" && v != "1e400" {
					continue
				}
				t.Errorf("%s <- %s: not refused", arg, v)
				continue
			}
			text := r.Error()
			for _, bound := range []string{"127", "128", "2147483647", "2147483648", "65535", "18446744073709551615", "3.4", " from ", " to "} {
				if strings.Contains(text, bound) {
					t.Errorf("%s <- %s: the refusal states a range (%q): %s", arg, v, bound, text)
				}
			}
			if !strings.Contains(text, "which is too large") && !strings.Contains(text, "which is too small") && !strings.Contains(text, "whole number") {
				t.Errorf("%s <- %s: %s", arg, v, text)
			}
		}
	}
}

func TestRefuse_ManyUnknownKeys_BoundedText(t *testing.T) {
	reg := newRegistry(t)
	var b strings.Builder
	b.WriteString(`{"hours_back":1`)
	for i := 0; i < 100000; i++ {
		b.WriteString(",")
		b.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `_` + itoa(i) + `":1`)
	}
	b.WriteString("}")
	r := refuse.Refuse(reg, "get_wait_stats", json.RawMessage(b.String()))
	if r == nil {
		t.Fatal("not refused")
	}
	if len(r.Problems) > refuse.MaxProblems || len(r.Problems) < 10 || len(r.Problems)+r.More != 100000 {
		t.Errorf("%d problems and %d more, want at most %d and 100000 in all", len(r.Problems), r.More, refuse.MaxProblems)
	}
	text := r.Error()
	named := "and " + itoa(len(r.Problems)-3) + " more are not parameters of tool 'get_wait_stats'.\nAnd " + itoa(r.More) + " more problems."
	if len(text) > 1000 || !strings.Contains(text, named) {
		t.Errorf("text (%d bytes): %.600s", len(text), text)
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

func TestRefuse_QuotesOnlyTheOffendingValue(t *testing.T) {
	reg := newRegistry(t)
	secret := "sk-live-0123456789abcdef"
	r := refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"database":"`+secret+`","hours_back":"`+strings.Repeat("z", 5000000)+`"}`))
	if r == nil {
		t.Fatal("not refused")
	}
	text := r.Error()
	if strings.Contains(text, secret) {
		t.Errorf("the refusal quotes another argument's value: %s", text)
	}
	want := `"` + strings.Repeat("z", 40) + `…" (5000000 characters)`
	if r.Problems[0].Sent != want {
		t.Errorf("Sent = %q, want %q", r.Problems[0].Sent, want)
	}
}

func TestRefuse_AllocatesNothingOnAGoodCall(t *testing.T) {
	reg := newRegistry(t)
	args := json.RawMessage(`{"hours_back":24,"limit":10,"database":"main","waits":["CXPACKET","PAGEIOLATCH_SH"]}`)
	if r := refuse.Refuse(reg, "get_wait_stats", args); r != nil {
		t.Fatal(r)
	}
	if n := testing.AllocsPerRun(100, func() { refuse.Refuse(reg, "get_wait_stats", args) }); n != 0 {
		t.Errorf("Refuse allocated %v times on a good call, want 0", n)
	}
}

func TestRefuse_ConcurrentWithReRegistration(t *testing.T) {
	reg := newRegistry(t)
	good := json.RawMessage(`{"hours_back":24,"waits":["a"]}`)
	bad := json.RawMessage(`{"hours_back":0.5}`)
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 300; i++ {
				if r := refuse.Refuse(reg, "get_wait_stats", good); r != nil {
					t.Errorf("good call refused: %v", r)
					return
				}
				r := refuse.Refuse(reg, "get_wait_stats", bad)
				if r == nil || r.Problems[0].Code != refuse.NotWholeNumber {
					t.Errorf("bad call: %v", r)
					return
				}
			}
		}()
	}
	for i := 0; i < 100; i++ {
		if err := typereg.Register[waitStats](reg, "get_wait_stats"); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
}

// noPointer leaves Problem.Pointer out of a comparison: the tables that
// pin the other fields predate it, and TestPointer_ResolvesToTheValue pins
// every pointer against the document sent.
var noPointer = cmpopts.IgnoreFields(refuse.Problem{}, "Pointer")

func TestRefusal_MarshalsToJSON(t *testing.T) {
	reg := newRegistry(t)
	r := refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"waits":[1],"hours":2}`))
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"tool":"get_wait_stats","accepted":["hours_back","limit","database","waits"],"problems":[` +
		`{"argument":"waits","path":"[0]","pointer":"/waits/0","code":"wrong_type","takes":"a list (a JSON array) of texts","sent":"[1]","element":"1"},` +
		`{"argument":"hours_back","code":"missing_argument","takes":"a whole number"},` +
		`{"argument":"hours","pointer":"/hours","code":"unknown_argument","sent":"\"hours\"","did_you_mean":"hours_back"}]}`
	if diff := cmp.Diff(want, string(got)); diff != "" {
		t.Errorf("JSON (-want +got):\n%s", diff)
	}
}
