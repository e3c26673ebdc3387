package typereg_test

import (
	"encoding/json"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/typereg"
	"github.com/google/go-cmp/cmp"
	"strconv"
	"strings"
	"testing"
)

type aliased struct {
	Hours int    `json:"hours" bindguard:"alias=hrs, hours_back"`
	Name  string `json:"name,omitempty"`
}

func TestRegister_PolicyResolvesRegistryToolAndEnvironment(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      string // BINDGUARD_MODE, when not empty
		regOpts  []typereg.Option
		toolOpts []typereg.Option
		want     typereg.Policy
	}{
		{name: "defaults", want: typereg.Policy{Mode: typereg.Reject}},
		{
			name:    "registry settings reach every tool",
			regOpts: []typereg.Option{typereg.WithMode(typereg.Warn), typereg.WithStrict(true), typereg.WithExempt("format", "cursor")},
			want:    typereg.Policy{Mode: typereg.Warn, Strict: true, Exempt: []string{"format", "cursor"}},
		},
		{
			name:     "a tool's settings over the registry's; exempt keys add up",
			regOpts:  []typereg.Option{typereg.WithMode(typereg.Warn), typereg.WithExempt("format")},
			toolOpts: []typereg.Option{typereg.WithMode(typereg.Reject), typereg.WithExempt("format", "max_tokens"), typereg.WithOpen(), typereg.WithAlias("n", "name")},
			want:     typereg.Policy{Mode: typereg.Reject, Open: true, Exempt: []string{"format", "max_tokens"}, Aliases: map[string]string{"n": "name"}},
		},
		{name: "environment over the code: off", env: "off", toolOpts: []typereg.Option{typereg.WithMode(typereg.Reject)}, want: typereg.Policy{Mode: typereg.Off}},
		{name: "environment: 0 is off", env: "0", want: typereg.Policy{Mode: typereg.Off}},
		{name: "environment: false is off", env: "false", want: typereg.Policy{Mode: typereg.Off}},
		{name: "environment: no is off", env: "no", want: typereg.Policy{Mode: typereg.Off}},
		{name: "environment: WARN, any case", env: "WARN", regOpts: []typereg.Option{typereg.WithMode(typereg.Reject)}, want: typereg.Policy{Mode: typereg.Warn}},
		{name: "environment: reject over a tool's warn", env: "reject", toolOpts: []typereg.Option{typereg.WithMode(typereg.Warn)}, want: typereg.Policy{Mode: typereg.Reject}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv(typereg.EnvMode, tc.env)
			}
			reg := typereg.New(tc.regOpts...)
			if err := typereg.Register[struct {
				Name string `json:"name"`
			}](reg, "t", tc.toolOpts...); err != nil {
				t.Fatal(err)
			}
			tool, _ := reg.Tool("t")
			if diff := cmp.Diff(tc.want, tool.Policy()); diff != "" {
				t.Errorf("policy (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRegister_FailsOnABadModeInTheEnvironment(t *testing.T) {
	t.Setenv(typereg.EnvMode, "rejct")
	reg := typereg.New()
	err := typereg.Register[aliased](reg, "t")
	if err == nil || !strings.Contains(err.Error(), `BINDGUARD_MODE="rejct"`) {
		t.Fatalf("Register with BINDGUARD_MODE=rejct: err = %v, want one naming the variable and the value", err)
	}
	if _, ok := reg.Tool("t"); ok {
		t.Error("the tool was recorded anyway")
	}
}

// BINDGUARD_MODE set to the empty string is unset (as `BINDGUARD_MODE=`
// in a unit file or a compose file clears it); a value is taken exactly as
// written, but for case: white space around it is not trimmed, so " off"
// is no mode and fails every Register rather than switching the guard off.
func TestRegister_EnvironmentModeEmptyIsUnsetAndNothingIsTrimmed(t *testing.T) {
	for _, tc := range []struct {
		env     string
		want    typereg.Mode // 0: Register fails
		because string
	}{
		{"", typereg.Warn, "empty is unset: the code's mode stands"},
		{"off", typereg.Off, "a mode"},
		{"Off", typereg.Off, "any case"},
		{" off", 0, "a leading space is not trimmed"},
		{"off\n", 0, "a trailing newline is not trimmed"},
		{"\toff ", 0, "tabs and spaces are not trimmed"},
		{" ", 0, "white space alone is not empty"},
		{"of", 0, "not a mode"},
	} {
		t.Run(tc.because, func(t *testing.T) {
			t.Setenv(typereg.EnvMode, tc.env)
			reg := typereg.New(typereg.WithMode(typereg.Warn))
			err := typereg.Register[aliased](reg, "t")
			if tc.want == 0 {
				if err == nil {
					tool, _ := reg.Tool("t")
					t.Fatalf("BINDGUARD_MODE=%q: Register succeeded with mode %v; want it to fail", tc.env, tool.Policy().Mode)
				}
				if want := typereg.EnvMode + "=" + strconv.Quote(tc.env); !strings.Contains(err.Error(), want) {
					t.Errorf("BINDGUARD_MODE=%q: err = %v, want it to name %s", tc.env, err, want)
				}
				return
			}
			if err != nil {
				t.Fatalf("BINDGUARD_MODE=%q: %v", tc.env, err)
			}
			if tool, _ := reg.Tool("t"); tool.Policy().Mode != tc.want {
				t.Errorf("BINDGUARD_MODE=%q: mode %v, want %v", tc.env, tool.Policy().Mode, tc.want)
			}
		})
	}
}

// TestRegister_NilBinderIsAnError: a registry given no binder
// (WithBinder(nil)) says so at Register and RegisterSchema, rather than
// panicking there (it did, on the nil binder's Compile).
func TestRegister_NilBinderIsAnError(t *testing.T) {
	reg := typereg.New(typereg.WithBinder(nil))
	if err := typereg.Register[aliased](reg, "t"); err == nil || !strings.Contains(err.Error(), "WithBinder(nil)") {
		t.Errorf("Register: err = %v, want WithBinder(nil) named", err)
	}
	if err := reg.RegisterSchema("s", json.RawMessage(`{"type":"object"}`)); err == nil || !strings.Contains(err.Error(), "WithBinder(nil)") {
		t.Errorf("RegisterSchema: err = %v, want WithBinder(nil) named", err)
	}
	if err := typereg.Register[aliased](typereg.New(), "t", typereg.WithBinder(nil)); err == nil {
		t.Errorf("Register(..., WithBinder(nil)): no error")
	}
}

func TestRegister_FailsOnOptionsInTheWrongPlace(t *testing.T) {
	if err := typereg.Register[aliased](typereg.New(typereg.WithOpen()), "t"); err == nil || !strings.Contains(err.Error(), "WithOpen configures a tool") {
		t.Errorf("New(WithOpen()): Register err = %v, want WithOpen named as a tool option", err)
	}
	if err := typereg.Register[aliased](typereg.New(), "t", typereg.WithBinder(jsonv2.Binder)); err == nil || !strings.Contains(err.Error(), "WithBinder configures a registry") {
		t.Errorf("Register(WithBinder): err = %v, want WithBinder named as a registry option", err)
	}
	if err := typereg.Register[aliased](typereg.New(), "t", typereg.WithMode(0)); err == nil {
		t.Error("Register(WithMode(0)): no error")
	}
}

func TestRegister_AliasesFromTagsAndOptions(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[aliased](reg, "t", typereg.WithAlias("n", "name")); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool("t")
	want := map[string]string{"hrs": "hours", "hours_back": "hours", "n": "name"}
	if diff := cmp.Diff(want, tool.Policy().Aliases); diff != "" {
		t.Errorf("aliases (-want +got):\n%s", diff)
	}
	// Aliases are hidden: the schema publishes the parameters alone.
	var props []string
	for p := tool.Schema().Properties.Oldest(); p != nil; p = p.Next() {
		props = append(props, p.Key)
	}
	if diff := cmp.Diff([]string{"hours", "name"}, props); diff != "" {
		t.Errorf("schema properties (-want +got):\n%s", diff)
	}
}

func TestRegister_FailsOnBadAliases(t *testing.T) {
	type tagTypo struct {
		A int `json:"a" bindguard:"alias:b"`
	}
	type twoParams struct {
		A int `json:"a" bindguard:"alias=c"`
		B int `json:"b" bindguard:"alias=c"`
	}
	type aliasIsAParam struct {
		A int `json:"a" bindguard:"alias=b"`
		B int `json:"b"`
	}
	for _, tc := range []struct {
		name     string
		register func(*typereg.Registry) error
		want     string
	}{
		{"tag without alias=", func(r *typereg.Registry) error { return typereg.Register[tagTypo](r, "t") }, "want alias=name"},
		{"one alias, two parameters", func(r *typereg.Registry) error { return typereg.Register[twoParams](r, "t") }, `alias "c" stands for both "a" and "b"`},
		{"alias is a parameter's name", func(r *typereg.Registry) error { return typereg.Register[aliasIsAParam](r, "t") }, `alias "b" is already the name of a parameter`},
		{"alias of no parameter", func(r *typereg.Registry) error {
			return typereg.Register[aliased](r, "t", typereg.WithAlias("x", "nope"))
		}, `alias "x" stands for "nope", which is not a parameter`},
		{"alias also exempt", func(r *typereg.Registry) error {
			return typereg.Register[aliased](r, "t", typereg.WithExempt("hrs"))
		}, `alias "hrs" is also an exempt key`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.register(typereg.New())
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestRegister_OpenToolPublishesAnOpenRoot(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[aliased](reg, "closed"); err != nil {
		t.Fatal(err)
	}
	if err := typereg.Register[aliased](reg, "open", typereg.WithOpen()); err != nil {
		t.Fatal(err)
	}
	closed, _ := reg.Tool("closed")
	open, _ := reg.Tool("open")
	// The schema handed out is a copy: false is a schema that marshals
	// to false, not invopop's FalseSchema itself.
	if b, _ := json.Marshal(closed.Schema().AdditionalProperties); string(b) != "false" {
		t.Errorf("closed tool: additionalProperties = %s, want false", b)
	}
	if open.Schema().AdditionalProperties != nil {
		t.Errorf("open tool: additionalProperties = %v, want none (open)", open.Schema().AdditionalProperties)
	}
}

func TestRegister_ValidateRequiredJoinsTheRequiredList(t *testing.T) {
	type p struct {
		A int   `json:"a,omitempty" validate:"required"`
		B int   `json:"b,omitempty" validate:"omitempty,min=1"`
		C []int `json:"c,omitempty" validate:"dive,required"`
		D int   `json:"d"`
	}
	reg := typereg.New()
	if err := typereg.Register[p](reg, "t"); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool("t")
	if diff := cmp.Diff([]string{"a", "d"}, tool.Schema().Required); diff != "" {
		t.Errorf("required (-want +got):\n%s", diff)
	}
}
