package bindtest

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// A Result is what the binder and the guard did with one row.
type Result struct {
	// Type and Value are the row's.
	Type  string          `json:"type"`
	Value json.RawMessage `json:"value"`
	// Argument is the parameter the value was sent as: the first of the
	// tool's parameters whose type the row names.
	Argument string `json:"argument"`
	// BinderOK reports that the binder read the call; BinderError is its
	// error when it did not.
	BinderOK    bool   `json:"binder_ok"`
	BinderError string `json:"binder_error"`
	// Refused reports that the guard refused the call; Message is the
	// refusal's text.
	Refused bool   `json:"refused"`
	Message string `json:"message"`
	// Agree reports that the guard refused exactly when the binder failed.
	Agree bool `json:"agree"`
	// Loss is the code of the silent loss (or unknown field) the guard
	// reported in the argument, or empty.
	Loss string `json:"loss,omitempty"`
	// Expected is the row's Refused, or nil when the row states no verdict.
	Expected *bool `json:"expected,omitempty"`
	// Unexpected reports that the binder's or the guard's verdict differs
	// from Expected, or that the refusal does not say what a refusal of
	// the row must (the argument's name, the row's Says, a quote of the
	// value).
	Unexpected bool `json:"unexpected"`
	// Faults says in words what is wrong with the row: every way the
	// verdicts differ from each other or from what the row expects. It is
	// empty when the row holds.
	Faults []string `json:"faults,omitempty"`
}

// Check keeps the rows that speak for the registry's binder (see
// Row.Binder) and sends each one's value to tool, as the only argument of a call, both
// to the registry's binder (decoding into a fresh value of the tool's
// parameter struct) and to refuse.Refuse, and returns what each did, in
// the order of the rows kept. A row holds when the binder fails exactly when the row says
// Refused, the guard refuses exactly then too, and a refusal names the
// argument, contains Says and quotes the value (or an element of it).
//
// Check fails, before sending anything, when the tool is not registered or
// when a row names a type none of the tool's parameters has or holds a value
// that is not one JSON value; the error names every such row, counting from
// 1.
func Check(reg *typereg.Registry, tool string, rows []Row) ([]Result, error) {
	t, ok := reg.Tool(tool)
	if !ok {
		return nil, fmt.Errorf("bindtest: tool %q is not registered", tool)
	}
	if schemaTool(t) {
		return nil, fmt.Errorf("bindtest: %w", errSchemaTool(tool))
	}
	rows = ForBinder(rows, rowsBinder(reg.Binder()))
	params := make([]typereg.Param, len(rows))
	var errs []error
	for i, row := range rows {
		p, err := paramFor(t, row)
		if err != nil {
			errs = append(errs, fmt.Errorf("bindtest: row %d %s: %v", i+1, rowName(row), err))
		}
		params[i] = p
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	results := make([]Result, len(rows))
	for i, row := range rows {
		results[i], _, _ = checkRow(reg, t, params[i], row)
	}
	return results, nil
}

// errSchemaTool is why a tool recorded from its published schema is not
// checked here: its parameters have no Go type, and its verdicts are the
// schema's, which package bindguard holds to jsonschema-go's validator
// (see typereg.RegisterSchema).
func errSchemaTool(tool string) error {
	return fmt.Errorf("tool %q is recorded from its published schema: the value table checks struct tools", tool)
}

// ParamFor returns the first parameter of tool t whose Go type typ names,
// by the naming rule of Row.Type. Check and Run send each row's value as
// that parameter; a harness that sends rows another way finds it here.
func ParamFor(t *typereg.Tool, typ string) (typereg.Param, error) {
	want := canonical(typ)
	pkg := t.Type().PkgPath()
	var have []string
	for _, p := range t.Params() {
		name := typeName(p.Type, pkg)
		if name == want {
			return p, nil
		}
		if d := display(name); !slices.Contains(have, d) {
			have = append(have, d)
		}
	}
	return typereg.Param{}, fmt.Errorf("tool %q has no parameter of type %s (its types: %s)", t.Name(), typ, strings.Join(have, ", "))
}

// paramFor returns the parameter row's value goes to, and checks the
// value is one JSON value.
func paramFor(t *typereg.Tool, row Row) (typereg.Param, error) {
	p, err := ParamFor(t, row.Type)
	if err != nil {
		return p, err
	}
	if !json.Valid([]byte(row.Value)) {
		return typereg.Param{}, errors.New("the value is not one JSON value")
	}
	return p, nil
}

// rowName names a row in messages: its type and the start of its value.
func rowName(row Row) string {
	return fmt.Sprintf("(%s %s)", row.Type, short(row.Value, 40))
}

// short cuts s to n characters, marking a cut with "…".
func short(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// A verdict is what happened to a row, or what should have; Run reports
// the difference between the two.
type verdict struct {
	BinderFails   bool   // the binder fails on the call
	Refused       bool   // the guard refuses it
	NamesArgument bool   // a problem names the argument, and none names another
	SaysPhrase    bool   // the refusal's text contains the row's Says
	QuotesValue   bool   // the text holds that problem's Sent, a quote of (part of) the value
	Loss          string // the code of the loss (or unknown field) reported in the argument
}

// checkRow sends row's value as argument p of tool t, and returns the
// result with the verdicts it comes from.
func checkRow(reg *typereg.Registry, t *typereg.Tool, p typereg.Param, row Row) (res Result, want, got verdict) {
	key, _ := json.Marshal(p.Name)
	call := []byte("{" + string(key) + ":" + row.Value + "}")

	res = Result{Type: row.Type, Value: json.RawMessage(row.Value), Argument: p.Name, BinderOK: true}
	// The real binder, its type's own methods contained: a panic is a
	// failure, and the error's text is cut.
	panicked, err := contain.Run(func() error { return reg.Binder().Unmarshal(call, reflect.New(t.Type()).Interface()) })
	switch {
	case panicked != nil:
		res.BinderOK, res.BinderError = false, "the binder panicked: "+contain.Sprint(panicked)
	case err != nil:
		res.BinderOK, res.BinderError = false, contain.Text(err)
	}
	got.BinderFails = !res.BinderOK

	d := refuse.Decide(reg, t.Name(), call)
	got.Loss = lossIn(d, p.Name)
	res.Loss = got.Loss
	if r := binderRefusal(d.Refusal); r != nil {
		res.Refused, res.Message = true, r.Error()
		got.Refused = true
		var named *refuse.Problem // the first problem in the argument
		others := false           // a problem in anything else
		for i, pr := range r.Problems {
			switch {
			case pr.Argument != p.Name:
				others = true
			case named == nil:
				named = &r.Problems[i]
			}
		}
		got.NamesArgument = named != nil && !others
		got.SaysPhrase = row.Says != "" && strings.Contains(res.Message, row.Says)
		got.QuotesValue = named != nil && strings.Contains(res.Message, named.Sent) && quotes(row.Value, named.Sent)
	}
	res.Agree = res.Refused == !res.BinderOK

	if row.NoVerdict {
		want.BinderFails = got.BinderFails
		want.Refused = got.BinderFails
	} else {
		res.Expected = &row.Refused
		want.BinderFails = row.Refused
		want.Refused = row.Refused
	}
	want.Loss = row.Loss
	if got.BinderFails || row.NoVerdict && row.Loss == "" {
		want.Loss = got.Loss // a value the binder fails on loses nothing; a row without a verdict asks only for agreement
	}
	if want.Refused && got.Refused {
		want.NamesArgument, want.QuotesValue = true, true
		want.SaysPhrase = row.Says != ""
	} else {
		// The text of a refusal that should not be, or the want of a
		// refusal that is missing, says nothing more.
		want.NamesArgument, want.SaysPhrase, want.QuotesValue = got.NamesArgument, got.SaysPhrase, got.QuotesValue
	}

	res.Faults = faults(row, res, want, got)
	// A row without a verdict asks only that the guard agree with the
	// binder, which Agree reports; anything else wrong is unexpected.
	expect := want
	if row.NoVerdict {
		expect.Refused = got.Refused
	}
	res.Unexpected = expect != got
	return res, want, got
}

// faults says in words how got differs from want.
func faults(row Row, res Result, want, got verdict) []string {
	var fs []string
	if want.BinderFails != got.BinderFails {
		if got.BinderFails {
			fs = append(fs, "the row says the binder reads the value, but it fails: "+res.BinderError)
		} else {
			fs = append(fs, "the row says the binder fails on the value, but it reads it")
		}
	}
	if want.Refused != got.Refused {
		switch {
		case got.Refused && !got.BinderFails:
			fs = append(fs, "the guard refused a value the binder reads")
		case got.Refused:
			fs = append(fs, "the guard refused a value the row says the binder reads")
		case got.BinderFails:
			fs = append(fs, "the guard passed a value the binder cannot read")
		default:
			fs = append(fs, "the guard passed a value the row says the binder cannot read")
		}
	}
	if want.NamesArgument != got.NamesArgument {
		fs = append(fs, fmt.Sprintf("the refusal does not name argument %q (and no other) in a problem", res.Argument))
	}
	if want.SaysPhrase != got.SaysPhrase {
		fs = append(fs, fmt.Sprintf("the refusal does not say %q", row.Says))
	}
	if want.QuotesValue != got.QuotesValue {
		fs = append(fs, "the refusal does not quote the value sent, or a part of it")
	}
	if want.Loss != got.Loss {
		switch {
		case got.Loss == "":
			fs = append(fs, fmt.Sprintf("the guard reports no %s for the value", want.Loss))
		case want.Loss == "":
			fs = append(fs, fmt.Sprintf("the guard reports %s for a value the row says is read as sent", got.Loss))
		default:
			fs = append(fs, fmt.Sprintf("the guard reports %s, and the row says %s", got.Loss, want.Loss))
		}
	}
	return fs
}

// lossIn returns the code of the first problem in argument name, in d's
// refusal or warnings, that reports a value the binder reads but changes or
// drops: a silent loss, or an unknown field. The tool's other policies
// (missing arguments, constraints) are not the table's business.
func lossIn(d refuse.Decision, name string) string {
	var ps []refuse.Problem
	if d.Refusal != nil {
		ps = d.Refusal.Problems
	}
	if d.Warnings != nil {
		ps = append(ps, d.Warnings.Problems...)
	}
	for _, p := range ps {
		if p.Argument != name || !p.Code.Policy() {
			continue
		}
		switch p.Code {
		case refuse.MissingArgument, refuse.MissingField, refuse.Constraint, refuse.AliasConflict, refuse.UnknownArgument:
			continue
		}
		return string(p.Code)
	}
	return ""
}

// binderRefusal keeps, of refusal r, the problems that come from the binder
// failing rather than from the tool's policy (a required parameter the row
// does not send, say): the table is about the binder's verdict. It returns
// nil when none is left.
func binderRefusal(r *refuse.Refusal) *refuse.Refusal {
	if r == nil {
		return nil
	}
	kept := *r
	kept.Problems = nil
	for _, p := range r.Problems {
		if !p.Code.Policy() {
			kept.Problems = append(kept.Problems, p)
		}
	}
	if len(kept.Problems) == 0 {
		return nil
	}
	return &kept
}
