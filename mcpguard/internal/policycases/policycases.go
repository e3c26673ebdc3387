// Package policycases is the table of policy cases both MCP adapters'
// tests run: a call, and what comes of it under each mode, through the
// adapter and the SDK.
package policycases

import (
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// Params has an alias by tag (hrs for hours); the tests add one by
// option (limit_rows for limit) and an exempt key (format).
type Params struct {
	Query string `json:"query"`
	Hours int    `json:"hours" bindguard:"alias=hrs"`
	Limit int    `json:"limit,omitempty"`
}

// ToolOpts are the options of the policy tests' two tools: "t" has an
// exempt key and an alias by option, "open" is open.
func ToolOpts(mode typereg.Mode) map[string][]typereg.Option {
	return map[string][]typereg.Option{
		"t":    {typereg.WithMode(mode), typereg.WithExempt("format"), typereg.WithAlias("limit_rows", "limit")},
		"open": {typereg.WithMode(mode), typereg.WithOpen()},
	}
}

// An Outcome is what a policy case comes to in one mode.
type Outcome struct {
	Refused []refuse.Code // the refusal's codes, in order; nil: not refused
	Warned  []refuse.Code // the warnings' codes; nil: none
	In      Params        // what the handler gets, when it runs
	// DecodeErr: the binder fails, so the handler does not run and the
	// result is the SDK's own decoding or binding error (Off only).
	DecodeErr bool
	RawHas    []string // keys the handler's raw arguments hold (and, under mcp-go, its map of them)
	RawLacks  []string // keys they do not
}

// A Case is a call and what comes of it in each mode.
type Case struct {
	Name, Tool, Args string
	Why              string
	Reject, Warn     Outcome
	Off              Outcome
}

func Cases() []Case {
	q1 := Params{Query: "q", Hours: 1}
	return []Case{
		{
			Name: "unknown argument", Tool: "t", Args: `{"query":"q","hours":1,"bogus":1}`,
			Why:    "a top-level key that names no parameter",
			Reject: Outcome{Refused: []refuse.Code{refuse.UnknownArgument}},
			Warn:   Outcome{Warned: []refuse.Code{refuse.UnknownArgument}, In: q1, RawHas: []string{"bogus"}},
			Off:    Outcome{In: q1, RawHas: []string{"bogus"}},
		},
		{
			Name: "exempt key", Tool: "t", Args: `{"query":"q","hours":1,"format":"csv"}`,
			Why:    "format is exempt: it passes and reaches the handler's raw arguments untouched",
			Reject: Outcome{In: q1, RawHas: []string{"format"}},
			Warn:   Outcome{In: q1, RawHas: []string{"format"}},
			Off:    Outcome{In: q1, RawHas: []string{"format"}},
		},
		{
			Name: "open tool", Tool: "open", Args: `{"query":"q","hours":1,"extra":true}`,
			Why:    "an open tool lets keys that name no parameter through",
			Reject: Outcome{In: q1, RawHas: []string{"extra"}},
			Warn:   Outcome{In: q1, RawHas: []string{"extra"}},
			Off:    Outcome{In: q1, RawHas: []string{"extra"}},
		},
		{
			Name: "alias by tag", Tool: "t", Args: `{"query":"q","hrs":3}`,
			Why:    "hrs is renamed to hours; under Off nothing is renamed and the binder drops hrs",
			Reject: Outcome{In: Params{Query: "q", Hours: 3}, RawHas: []string{"hours"}, RawLacks: []string{"hrs"}},
			Warn:   Outcome{In: Params{Query: "q", Hours: 3}, RawHas: []string{"hours"}, RawLacks: []string{"hrs"}},
			Off:    Outcome{In: Params{Query: "q"}, RawHas: []string{"hrs"}},
		},
		{
			Name: "alias by option", Tool: "t", Args: `{"query":"q","hours":1,"limit_rows":5}`,
			Why:    "limit_rows is renamed to limit",
			Reject: Outcome{In: Params{Query: "q", Hours: 1, Limit: 5}, RawHas: []string{"limit"}, RawLacks: []string{"limit_rows"}},
			Warn:   Outcome{In: Params{Query: "q", Hours: 1, Limit: 5}, RawHas: []string{"limit"}, RawLacks: []string{"limit_rows"}},
			Off:    Outcome{In: q1, RawHas: []string{"limit_rows"}},
		},
		{
			Name: "alias and name both sent", Tool: "t", Args: `{"query":"q","hours":1,"hrs":2}`,
			Why:    "Refused naming both under Reject; under Warn the parameter's own value wins, with a warning",
			Reject: Outcome{Refused: []refuse.Code{refuse.AliasConflict}},
			Warn:   Outcome{Warned: []refuse.Code{refuse.AliasConflict}, In: q1, RawHas: []string{"hours"}, RawLacks: []string{"hrs"}},
			Off:    Outcome{In: q1, RawHas: []string{"hrs"}},
		},
		{
			Name: "fraction for an int", Tool: "t", Args: `{"query":"q","hours":1.5}`,
			Why:    "the binder fails on it: Refused in every mode but Off, where the binder's own error answers",
			Reject: Outcome{Refused: []refuse.Code{refuse.NotWholeNumber}},
			Warn:   Outcome{Refused: []refuse.Code{refuse.NotWholeNumber}},
			Off:    Outcome{DecodeErr: true},
		},
		{
			Name: "missing required parameter", Tool: "t", Args: `{"hours":1}`,
			Why:    "query is required (no omitempty)",
			Reject: Outcome{Refused: []refuse.Code{refuse.MissingArgument}},
			Warn:   Outcome{Warned: []refuse.Code{refuse.MissingArgument}, In: Params{Hours: 1}},
			Off:    Outcome{In: Params{Hours: 1}},
		},
		{
			Name: "duplicate key", Tool: "t", Args: `{"query":"q","hours":1,"hours":2}`,
			Why:    "a silent loss: Warned under Reject (not Strict) and Warn; the binder keeps the last",
			Reject: Outcome{Warned: []refuse.Code{refuse.DuplicateKey}, In: Params{Query: "q", Hours: 2}},
			Warn:   Outcome{Warned: []refuse.Code{refuse.DuplicateKey}, In: Params{Query: "q", Hours: 2}},
			Off:    Outcome{In: Params{Query: "q", Hours: 2}},
		},
	}
}

func (c Case) Want(m typereg.Mode) Outcome {
	switch m {
	case typereg.Reject:
		return c.Reject
	case typereg.Warn:
		return c.Warn
	}
	return c.Off
}
