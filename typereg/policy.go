package typereg

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/bindguard/bindguard/bind"
)

// A Mode says what the guard does with the problems its policies find.
//
// The policies are: unknown keys (at the top level and inside a nested
// struct), missing required parameters, an argument sent under both its
// name and an alias, the tool's own constraints (validate tags), and, under
// Strict, silent losses. A value the binder cannot decode is not a policy:
// the handler cannot run on it, so it is refused in every mode but Off.
type Mode uint8

const (
	// Reject refuses a call with a policy problem before the handler runs.
	// It is the default.
	Reject Mode = iota + 1
	// Warn runs the handler and sends the policy problems with its result.
	Warn
	// Off checks nothing: every call goes to the binder and the handler as
	// if there were no guard.
	Off
)

func (m Mode) String() string {
	switch m {
	case Reject:
		return "reject"
	case Warn:
		return "warn"
	case Off:
		return "off"
	}
	return fmt.Sprintf("Mode(%d)", uint8(m))
}

// EnvMode is the environment variable that, when set, overrides the mode
// of every tool of every registry, whatever the code says: reject, warn,
// or off (also 0, false, no), in any case. It is read by New. Set to the
// empty string it is unset, as most environment conventions take it
// (`BINDGUARD_MODE=` in a unit or compose file clears it). Any other value
// makes every Register on that registry fail, white space included: the
// value is not trimmed, so " off" is no mode, and a server stops at
// start-up rather than run with a mode nobody wrote.
const EnvMode = "BINDGUARD_MODE"

func parseMode(s string) (Mode, error) {
	switch strings.ToLower(s) {
	case "reject":
		return Reject, nil
	case "warn":
		return Warn, nil
	case "off", "0", "false", "no":
		return Off, nil
	}
	return 0, fmt.Errorf("typereg: %s=%q is not a mode: want reject, warn, or off (also 0, false, no)", EnvMode, s)
}

// A Policy is what a tool's calls are held to beyond the binder's verdict.
// Tool.Policy is the one in force: the registry's defaults, the tool's own
// options, and BINDGUARD_MODE over both. Its slice and map are shared by
// every reader of the record: do not modify them.
type Policy struct {
	// Mode is what happens to a problem the policies find.
	Mode Mode
	// Strict refuses silent losses (values the binder changes or drops
	// without failing: a null for a value, a folded or repeated key, a fixed
	// array's extra or missing elements, a number a float rounds, text with
	// invalid UTF-8) instead of warning about them. Under Warn they are
	// warnings either way.
	Strict bool
	// Open lets keys that name no parameter through at the top level, as
	// the tool's published schema then says (additionalProperties is left
	// open). Nested structs stay closed.
	Open bool
	// Exempt lists keys that are never unknown arguments: keys the server
	// itself injects into calls (format, cursor...). They are not published
	// in the schema, and they reach the handler's raw arguments untouched.
	Exempt []string
	// Aliases maps each hidden legacy name to the parameter it stands for.
	// A call using an alias is read as if it used the parameter's name.
	// Aliases are never published in the schema.
	Aliases map[string]string
	// IntReads names the parameters of a tool recorded from its schema
	// (RegisterSchema) that the handler reads with an int accessor, such as
	// mcp-go's RequireInt or GetInt: a number the schema lets have a
	// fraction, or lets be past int64's range, is a silent loss there (the
	// accessor truncates it). See WithIntReads.
	IntReads []string
}

// An Option configures a registry (passed to New) or one tool (passed to
// Register). Options that only make sense for one of the two make the
// other fail: WithBinder applies to a registry, WithOpen and WithAlias to a
// tool.
type Option struct {
	name string
	reg  func(*Registry) // nil: not a registry option
	tool func(*Policy)   // nil: not a tool option
}

// WithBinder sets the binder the server decodes arguments with, which the
// guard mirrors. The default is bind.Std. Registry only.
func WithBinder(b bind.Binder) Option {
	return Option{name: "WithBinder", reg: func(r *Registry) { r.binder = b }}
}

// WithMode sets the mode: for every tool when given to New, for one tool
// when given to Register. The default is Reject. BINDGUARD_MODE, when set,
// overrides it.
func WithMode(m Mode) Option {
	set := func(p *Policy) { p.Mode = m }
	return Option{name: "WithMode", reg: func(r *Registry) { set(&r.policy) }, tool: set}
}

// WithStrict makes silent losses refusals (under Reject) rather than
// warnings: for every tool when given to New, for one tool when given to
// Register. The default is false.
func WithStrict(strict bool) Option {
	set := func(p *Policy) { p.Strict = strict }
	return Option{name: "WithStrict", reg: func(r *Registry) { set(&r.policy) }, tool: set}
}

// WithExempt adds keys that are never unknown arguments: for every tool
// when given to New, for one tool (on top of the registry's) when given to
// Register.
func WithExempt(keys ...string) Option {
	add := func(p *Policy) {
		for _, k := range keys {
			if !slices.Contains(p.Exempt, k) {
				p.Exempt = append(p.Exempt, k)
			}
		}
	}
	return Option{name: "WithExempt", reg: func(r *Registry) { add(&r.policy) }, tool: add}
}

// WithOpen gives the tool open arguments: keys that name no parameter pass
// at the top level, and its published schema leaves additionalProperties
// open. Tool only.
func WithOpen() Option {
	return Option{name: "WithOpen", tool: func(p *Policy) { p.Open = true }}
}

// WithIntReads states that the handler reads the parameters named with an
// int accessor (mcp-go's RequireInt and GetInt turn 0.5 into 0): where
// the published schema takes a number with a fraction for one of them, the
// guard reports the fraction as a silent loss (RoundedNumber, Becomes the
// value the accessor returns), and so a number past int64's range. Names
// the tool has no top-level parameter of are ignored, so that one option
// can speak for every tool a middleware records (see the adapters'
// ServerTools). For tools recorded from their schema only: Register
// fails with it. Tool only.
func WithIntReads(params ...string) Option {
	return Option{name: "WithIntReads", tool: func(p *Policy) {
		for _, n := range params {
			if !slices.Contains(p.IntReads, n) {
				p.IntReads = append(p.IntReads, n)
			}
		}
	}}
}

// WithAlias makes alias a hidden legacy name of the tool's parameter param,
// as the struct tag bindguard:"alias=..." does. Tool only.
func WithAlias(alias, param string) Option {
	return Option{name: "WithAlias", tool: func(p *Policy) {
		if p.Aliases == nil {
			p.Aliases = map[string]string{}
		}
		p.Aliases[alias] = param
	}}
}

// toolPolicy resolves the policy of a tool registered with opts.
func (r *Registry) toolPolicy(opts []Option) (Policy, error) {
	p := r.policy
	p.Exempt = slices.Clone(p.Exempt)
	for _, o := range opts {
		if o.tool == nil {
			return p, fmt.Errorf("typereg: %s configures a registry, not a tool: pass it to New", o.name)
		}
		o.tool(&p)
	}
	if r.envMode != 0 {
		p.Mode = r.envMode
	}
	if p.Mode < Reject || p.Mode > Off {
		return p, fmt.Errorf("typereg: %v is not a mode", p.Mode)
	}
	return p, nil
}

// aliases gathers the tool's aliases, from its fields' bindguard tags and
// from WithAlias, and checks each stands for a parameter and stands for
// nothing else.
func aliases(p *Policy, params []bind.Param) error {
	for _, bp := range params {
		tag, ok := bp.Tag.Lookup("bindguard")
		if !ok {
			continue
		}
		for opt := range strings.SplitSeq(tag, ";") {
			names, ok := strings.CutPrefix(strings.TrimSpace(opt), "alias=")
			if !ok {
				return fmt.Errorf("field %s: bindguard tag %q: want alias=name[,name...]", bp.GoName, tag)
			}
			for a := range strings.SplitSeq(names, ",") {
				if a = strings.TrimSpace(a); a == "" {
					return fmt.Errorf("field %s: bindguard tag %q: an empty alias", bp.GoName, tag)
				}
				if prev, dup := p.Aliases[a]; dup && prev != bp.Name {
					return fmt.Errorf("alias %q stands for both %q and %q", a, prev, bp.Name)
				}
				if p.Aliases == nil {
					p.Aliases = map[string]string{}
				}
				p.Aliases[a] = bp.Name
			}
		}
	}
	for a, name := range p.Aliases {
		known := false
		for _, bp := range params {
			if bp.Name == a {
				return fmt.Errorf("alias %q is already the name of a parameter", a)
			}
			known = known || bp.Name == name
		}
		if !known {
			return fmt.Errorf("alias %q stands for %q, which is not a parameter", a, name)
		}
		if slices.Contains(p.Exempt, a) {
			return fmt.Errorf("alias %q is also an exempt key", a)
		}
	}
	return nil
}

// envMode reads BINDGUARD_MODE: empty is unset.
func envMode() (Mode, error) {
	s, ok := os.LookupEnv(EnvMode)
	if !ok || s == "" {
		return 0, nil
	}
	return parseMode(s)
}
