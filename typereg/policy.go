package typereg

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"slices"
	"strings"

	"github.com/bindguard/bindguard/bind"
	"github.com/invopop/jsonschema"
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
// Tool.Policy returns the one in force: the registry's defaults, the
// tool's own options, and BINDGUARD_MODE over both, with its slices and map
// copied, so that changing them changes no record.
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
	// open). Nested structs stay closed, unless OpenNested.
	Open bool
	// OpenNested lets keys that name no field of a nested struct through
	// too, and publishes every struct's definition open: as a schema
	// reflected with invopop's AllowAdditionalProperties admits them (see
	// WithReflector, which sets it with Open).
	OpenNested bool
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
	tool func(*Policy)   // nil: not a tool option, unless tags is set
	tags func(*tagRules) // how the struct's tags are read, for a tool
	err  error           // a bad option: New and Register report it
}

// tagRules say how a parameter struct's tags are read into the published
// schema: which library's reading the server's own schema follows.
type tagRules struct {
	// requiredFromTags is invopop's Reflector.RequiredFromJSONSchemaTags:
	// only a field tagged jsonschema:"required" is required.
	requiredFromTags bool
	// jsonschemaGo reads the tags as google/jsonschema-go does: a
	// jsonschema tag is the field's whole description, and a field
	// without omitempty or omitzero is required.
	jsonschemaGo bool
	// openNested publishes nested structs open (Policy.OpenNested, which
	// sets it at registration).
	openNested bool
	// comments and lookupComment are the server's reflector's
	// descriptions from Go comments (Reflector.CommentMap, LookupComment).
	comments      map[string]string
	lookupComment func(reflect.Type, string) string
}

// WithReflector says the server publishes its tools' input schemas as
// invopop/jsonschema's Reflector r reflects them, so that the guard
// requires what that schema requires and admits what it admits: for every
// tool when given to New, for one tool when given to Register. The
// registry takes the options of r that change what a call must or may
// send:
//
//   - RequiredFromJSONSchemaTags: only the fields tagged
//     jsonschema:"required" are required, at the top level and in nested
//     structs, rather than every field without omitempty or omitzero.
//   - AllowAdditionalProperties: the tool is open at every level (Open and
//     OpenNested): keys that name no parameter pass at the top level, keys
//     that name no field pass inside a nested struct, and the published
//     schema leaves every object open, as r's does.
//
// The descriptions r takes from Go comments (CommentMap, as AddGoComments
// fills it, and LookupComment) are published too. The options that only
// change how the schema is written (DoNotReference, ExpandedStruct,
// Anonymous, BaseSchemaID...) are not taken: the published schema is the
// registry's; nor are Mapper and IgnoredTypes, since what a value may be
// is the binder's to say. Options that name properties
// otherwise than the binder matches keys (FieldNameTag, KeyNamer), and a
// nil r, fail every registration the option is given to. A field's
// validate tag still adds to what is required (see the package
// documentation, Constraints). The last of WithReflector and
// WithJSONSchemaGo given wins.
func WithReflector(r *jsonschema.Reflector) Option {
	o := Option{name: "WithReflector"}
	switch {
	case r == nil:
		o.err = errors.New("typereg: WithReflector(nil)")
	case r.FieldNameTag != "" && r.FieldNameTag != "json":
		o.err = fmt.Errorf("typereg: WithReflector: FieldNameTag %q names properties by another tag than the binder's json", r.FieldNameTag)
	case r.KeyNamer != nil:
		o.err = errors.New("typereg: WithReflector: a KeyNamer names properties otherwise than the binder matches keys")
	}
	set := func(t *tagRules) {
		*t = tagRules{requiredFromTags: r.RequiredFromJSONSchemaTags, comments: r.CommentMap, lookupComment: r.LookupComment}
	}
	open := func(p *Policy) {
		if r.AllowAdditionalProperties {
			p.Open, p.OpenNested = true, true
		}
	}
	o.reg = func(reg *Registry) { set(&reg.tags); open(&reg.policy) }
	o.tool, o.tags = open, set
	return o
}

// WithJSONSchemaGo says the server's input schemas are inferred as
// github.com/google/jsonschema-go infers them from a struct, as go-sdk's
// mcp.AddTool and mcp-go's mcp.WithInputSchema do: for every tool when
// given to New, for one tool when given to Register. A jsonschema tag is
// then the field's description, the whole of it
// (jsonschema:"the text to search for, case-insensitive"), at every level;
// and a field is required when its json tag has neither omitempty nor
// omitzero, whatever its jsonschema tag says. A jsonschema tag that begins
// with WORD= (jsonschema:"description=...,minimum=1"), which
// jsonschema-go refuses, is invopop's syntax and is read as invopop reads
// it, as is a jsonschema_description tag, so one struct may carry either.
// A field's validate tag still adds to what is required (see the package
// documentation, Constraints). gosdk.AddTool and gosdk.Register read tags
// this way unless told otherwise. The last of WithReflector and
// WithJSONSchemaGo given wins.
func WithJSONSchemaGo() Option {
	set := func(t *tagRules) { *t = tagRules{jsonschemaGo: true} }
	return Option{name: "WithJSONSchemaGo", reg: func(r *Registry) { set(&r.tags) }, tags: set}
}

// WithBinder sets the binder the server decodes arguments with, which the
// guard mirrors. The default is bind.Std. A server that reads arguments
// its own way gives that reading, through bind.Reader (or a profile built
// on it, such as gosdk.InputPath). Registry only. A nil binder is an
// error, which Register reports (a registry is never left without one).
func WithBinder(b bind.Binder) Option {
	if b == nil {
		return Option{name: "WithBinder", err: errors.New("typereg: WithBinder(nil): a registry mirrors a binder (bind.Std, jsonv2.Binder, segmentio.Binder, bind.Reader)")}
	}
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

// toolPolicy resolves the policy of a tool registered with opts, and how
// its struct's tags are read.
func (r *Registry) toolPolicy(opts []Option) (Policy, tagRules, error) {
	p, tags := r.policy, r.tags
	p.Exempt = slices.Clone(p.Exempt)
	for _, o := range opts {
		if o.err != nil {
			return p, tags, o.err
		}
		if o.tool == nil && o.tags == nil {
			return p, tags, fmt.Errorf("typereg: %s configures a registry, not a tool: pass it to New", o.name)
		}
		if o.tool != nil {
			o.tool(&p)
		}
		if o.tags != nil {
			o.tags(&tags)
		}
	}
	if r.envMode != 0 {
		p.Mode = r.envMode
	}
	if p.Mode < Reject || p.Mode > Off {
		return p, tags, fmt.Errorf("typereg: %v is not a mode", p.Mode)
	}
	return p, tags, nil
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
