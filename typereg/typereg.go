package typereg

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/constraint"
	"github.com/bindguard/bindguard/internal/contain"
	"github.com/bindguard/bindguard/internal/schemacheck"
	"github.com/bindguard/bindguard/internal/toolrec"
	"github.com/invopop/jsonschema"
)

// A Registry records tools and their parameters. Its methods are safe for
// concurrent use; lookups take no lock.
type Registry struct {
	binder  bind.Binder
	policy  Policy                           // the defaults of every tool
	tags    tagRules                         // how every tool's tags are read, by default
	envMode Mode                             // BINDGUARD_MODE, or 0
	err     error                            // a bad option or BINDGUARD_MODE: every Register fails with it
	mu      sync.Mutex                       // serializes writers
	tools   atomic.Pointer[map[string]*Tool] // copied on write, never changed in place
}

// New returns an empty registry configured by opts. It reads
// BINDGUARD_MODE (see EnvMode). A value there that is not a mode, or an
// option that configures a tool rather than a registry, is reported by
// every Register: a server that registers its tools at start-up fails
// there, rather than running with a mode nobody chose.
func New(opts ...Option) *Registry {
	r := &Registry{binder: bind.Std, policy: Policy{Mode: Reject}}
	for _, o := range opts {
		if o.err != nil {
			r.err = o.err
			continue
		}
		if o.reg == nil {
			r.err = fmt.Errorf("typereg: %s configures a tool, not a registry: pass it to Register", o.name)
			continue
		}
		o.reg(r)
	}
	if m, err := envMode(); err != nil {
		r.err = err
	} else {
		r.envMode = m
	}
	empty := map[string]*Tool{}
	r.tools.Store(&empty)
	return r
}

// Binder returns the binder the registry's tools are decoded with.
func (r *Registry) Binder() bind.Binder { return r.binder }

// A Tool is the record of one registered tool. It is read-only once
// registered: its fields are unexported, and every accessor returns a
// value the caller owns (a copy of a slice, a map or a schema), so that
// nothing a caller does to what it was handed changes the record, the
// plan the guard judges calls by, or the schema the next caller is given.
// The accessors that copy say what it costs; the guard itself reads the
// record in place, at no cost per call.
type Tool struct {
	name        string
	typ         reflect.Type
	params      []Param
	schema      *jsonschema.Schema
	policy      Policy
	plan        *bind.Plan
	constrained bool                            // a parameter has a validate tag
	checks      *constraint.Tool                // the validate tags compiled, nil when none
	published   *schemacheck.Schema             // a tool recorded from its published schema (RegisterSchema)
	top         bindcap.TopKeys                 // a struct tool's: what the pass is told of the top-level keys, the policy's exempt keys and aliases
	derived     atomic.Pointer[toolrec.Derived] // refuse's: what it derives from the record once (toolrec.DerivedSlot)
}

// Name returns the tool's name, as callers send it.
func (t *Tool) Name() string { return t.name }

// Type returns the parameter struct type.
func (t *Tool) Type() reflect.Type { return t.typ }

// Params returns the parameters a caller may send, in field order: a new
// slice on each call (one allocation), whose elements the caller may
// change freely. Each Param's Schema is copied only when asked for.
func (t *Tool) Params() []Param { return slices.Clone(t.params) }

// Schema returns the input schema the tool advertises: an object whose
// properties are exactly Params, closed with additionalProperties false
// unless the policy is Open. It is a deep copy, made on each call (a few
// allocations per keyword of the schema, as many as building it from the
// struct's JSON would take): the caller may change it freely, and the
// record, and the schema the next call returns, keep what was published.
// Take it once, where the tool is added to a server, not per call.
func (t *Tool) Schema() *jsonschema.Schema { return copySchema(t.schema) }

// Policy returns what the tool's calls are held to beyond the binder's
// verdict: the registry's defaults, the tool's own options, and
// BINDGUARD_MODE over both. Its Exempt, Aliases and IntReads are copies
// made on each call (one allocation each that is not empty), which the
// caller may change freely.
func (t *Tool) Policy() Policy { return t.policy.clone() }

// Constrained reports whether any parameter has a validate tag: the
// tool's own constraints, which the guard checks on the decoded arguments
// and the schema publishes (see Param.Validate).
func (t *Tool) Constrained() bool { return t.constrained }

// Plan returns the binder's compiled plan for the tool's parameters.
func (t *Tool) Plan() *bind.Plan { return t.plan }

// Accepted returns the parameter names, in field order, in a new slice.
func (t *Tool) Accepted() []string {
	names := make([]string, len(t.params))
	for i, p := range t.params {
		names[i] = p.Name
	}
	return names
}

// Param returns the parameter named name, exactly as recorded: a copy,
// which the caller may change freely.
func (t *Tool) Param(name string) (Param, bool) {
	for _, p := range t.params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// A Param is the record of one parameter. A Param is a value: the one a
// Tool hands out is a copy, and its schema is copied when asked for (see
// Schema), so that changing it changes nothing in the record.
type Param struct {
	// Name is the JSON key the binder matches (the binder may also match
	// case variants of it; see the binder's documentation).
	Name string
	// GoName is the Go field, dotted through embedded structs.
	GoName string
	// Type is the field's Go type.
	Type reflect.Type
	// Quoted reports the ,string tag option: the value travels inside a
	// JSON string.
	Quoted bool
	// OmitEmpty reports the omitempty tag option.
	OmitEmpty bool
	// Nullable reports that null leaves a value the handler can tell apart
	// from any value sent: Type is a pointer, slice, map or interface.
	Nullable bool
	// Required reports that the advertised schema lists the parameter as
	// required.
	Required bool
	// Validate is the parameter's validate tag, as written: the tool's own
	// constraint on it (github.com/go-playground/validator/v10), published in
	// the schema; empty when it has none (or the tag is "-"). See Register
	// for the tags the registry takes.
	Validate string

	schema *jsonschema.Schema // the property in the tool's schema, shared with it
	index  []int
}

// Schema returns the parameter's property in the advertised schema: a
// deep copy made on each call, at the cost Tool.Schema states for the
// property alone, which the caller may change freely. It is nil for a
// Param not handed out by a Tool.
func (p Param) Schema() *jsonschema.Schema { return copySchema(p.schema) }

// Register records tool name, whose parameters are the fields of the struct
// type T, under the registry's policy adjusted by opts, replacing any
// earlier record of that name. T may be a pointer to the struct, as go-sdk's
// mcp.AddTool takes it (In = *T): the record is the struct's (Tool.Type is
// the struct type), and a call is judged as the struct's. It fails, naming
// the field, when T is not a struct or has a field the registry's binder
// cannot decode into; it fails on an alias that stands for no parameter, or
// for two, or that is a parameter's name; it fails, naming the field and the
// tag, on a validate tag the registry cannot publish in the schema, or whose
// jsonschema tags state another range (see the package documentation,
// Constraints); and it fails when the registry was configured wrongly (see
// New).
func Register[T any](reg *Registry, name string, opts ...Option) error {
	return RegisterType(reg, name, reflect.TypeFor[T](), opts...)
}

// RegisterType is Register for a type known only at run time: a server's
// own generic helper that adds tools registers where the tool is added,
// with the reflect.Type of its parameter (reflect.TypeFor[In]() in the
// helper, or the handler's argument type). Registering a name again, with
// the same struct or another, replaces its record: a call already being
// judged keeps the record it started with, and later calls get the new
// one.
func RegisterType(reg *Registry, name string, t reflect.Type, opts ...Option) error {
	if t == nil {
		return fmt.Errorf("typereg: tool %q: no parameter type", name)
	}
	if t.Kind() == reflect.Pointer && t.Elem().Kind() == reflect.Struct {
		t = t.Elem()
	}
	return reg.register(name, t, opts)
}

func (r *Registry) register(name string, t reflect.Type, opts []Option) error {
	if r.err != nil {
		return r.err
	}
	if name == "" {
		return errors.New("typereg: a tool needs a name")
	}
	policy, tags, err := r.toolPolicy(opts)
	if err != nil {
		return fmt.Errorf("typereg: tool %q: %w", name, err)
	}
	tags.openNested = policy.OpenNested
	if len(policy.IntReads) > 0 {
		return fmt.Errorf("typereg: tool %q: WithIntReads is for tools recorded from their schema; a struct field's type says how it is read", name)
	}
	plan, err := r.binder.Compile(t)
	if err != nil {
		return fmt.Errorf("typereg: tool %q: %w", name, err)
	}
	if err := aliases(&policy, plan.Params()); err != nil {
		return fmt.Errorf("typereg: tool %q: %w", name, err)
	}
	schema, err := schemaFor(t, plan.Params(), tags, r.binder)
	if err != nil {
		return fmt.Errorf("typereg: tool %q: %w", name, err)
	}
	if policy.Open {
		schema.AdditionalProperties = nil
	}
	tool := &Tool{name: name, typ: t, schema: schema, policy: policy}
	tool.top = bindcap.NewTopKeys(tool.policy.Exempt, tool.policy.Aliases)
	for _, bp := range plan.Params() {
		ps, _ := schema.Properties.Get(bp.Name)
		tool.params = append(tool.params, Param{
			Name:      bp.Name,
			GoName:    bp.GoName,
			Type:      bp.Type,
			Quoted:    bp.Quoted,
			OmitEmpty: bp.OmitEmpty,
			Nullable:  nullable(bp.Type),
			Validate:  validateTag(bp.Tag),
			schema:    ps,
			index:     slices.Clone(bp.Index), // the record's own: the plan hands its Params out
		})
	}
	var constrainedFields map[reflect.Type][]string
	if tool.checks, constrainedFields, err = constrain(t, tool.params, schema); err != nil {
		return fmt.Errorf("typereg: tool %q: %w", name, err)
	}
	tool.constrained = tool.checks != nil
	if tool.checks != nil && !bindcap.ReadsLiteral(r.binder) {
		// A server's own reader may bind another value than the text
		// sent: its tags are checked on the value it decodes.
		tool.checks.Decode = true
	}
	// The schema goes out as JSON (an SDK panics on one that does not
	// marshal): a type's own JSONSchema method can state what JSON cannot.
	if _, err := json.Marshal(schema); err != nil {
		return fmt.Errorf("typereg: tool %q: the schema does not marshal to JSON: %w", name, err)
	}
	required := nestedRequired(tags, r.binder)
	tool.plan = plan.WithRequired(schema.Required, func(t reflect.Type) []string {
		// the schema library's required fields, and those whose zero
		// value breaks their validate tag (see publishNested).
		names := required(t)
		for _, n := range constrainedFields[t] {
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
		return names
	})
	for i := range tool.params {
		tool.params[i].Required = slices.Contains(schema.Required, tool.params[i].Name)
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	next := maps.Clone(*r.tools.Load())
	next[name] = tool
	r.tools.Store(&next)
	return nil
}

func nullable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
		return true
	}
	return false
}

// Remove deletes tool name's record. It reports whether there was one.
func (r *Registry) Remove(name string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	cur := *r.tools.Load()
	if _, ok := cur[name]; !ok {
		return false
	}
	next := maps.Clone(cur)
	delete(next, name)
	r.tools.Store(&next)
	return true
}

// Tool returns the record of tool name.
func (r *Registry) Tool(name string) (*Tool, bool) {
	t, ok := (*r.tools.Load())[name]
	return t, ok
}

// Tools returns every record, sorted by name.
func (r *Registry) Tools() []*Tool {
	m := *r.tools.Load()
	return slices.SortedFunc(maps.Values(m), func(a, b *Tool) int { return strings.Compare(a.name, b.name) })
}

// schemaFor builds the advertised schema of struct type t with
// invopop/jsonschema, then makes its properties exactly the binder's
// params: invopop names fields by their own reading of the tags (it drops
// jsonschema:"-" fields and does not settle name conflicts), and the binder
// is the truth about which keys a tool takes.
//
// tags say whose reading of the tags the schema follows (see tagRules).
func schemaFor(t reflect.Type, params []bind.Param, tags tagRules, b bind.Binder) (schema *jsonschema.Schema, err error) {
	defer func() {
		if r := recover(); r != nil { // invopop panics on some types
			err = fmt.Errorf("cannot build the input schema of %v: %s", t, contain.Sprint(r)) // r may be a type's own, hostile when printed
		}
	}()
	r := newSchemaReflector(tags)
	s := r.reflectRoot(t)
	props := jsonschema.NewProperties()
	var required []string
	isRequired := map[string]bool{}
	for _, n := range s.Required {
		isRequired[n] = true
	}
	for _, p := range params {
		ps, ok := (*jsonschema.Schema)(nil), false
		if s.Properties != nil {
			ps, ok = s.Properties.Get(p.Name)
		}
		if !ok {
			// A field invopop left out or named otherwise: reflect its type
			// alone, and require it by the rule invopop would apply.
			sub := r.reflectRoot(p.Type)
			for name, def := range sub.Definitions {
				if s.Definitions == nil {
					s.Definitions = jsonschema.Definitions{}
				}
				if _, dup := s.Definitions[name]; !dup {
					s.Definitions[name] = def
				}
			}
			sub.Definitions = nil
			ps = sub
			isRequired[p.Name] = tags.required(p.Tag, false)
		}
		if tags.jsonschemaGo {
			isRequired[p.Name] = tags.required(p.Tag, true)
		}
		props.Set(p.Name, ps)
		if isRequired[p.Name] {
			required = append(required, p.Name)
		}
	}
	s.Properties = props
	s.Required = required
	s.Type = "object"
	s.AdditionalProperties = jsonschema.FalseSchema
	if tags.jsonschemaGo {
		w := goWalker{root: s, binder: b, r: r, seen: map[*jsonschema.Schema]bool{}}
		for _, p := range params {
			ps, _ := props.Get(p.Name)
			w.field(ps, p.Tag, p.Type)
		}
		if !ownSchema(t) {
			w.ownRules(s, params)
		}
	}
	return s, nil
}

// validateTag returns a field's validate tag, or "" for none or "-".
func validateTag(tag reflect.StructTag) string {
	if v := tag.Get("validate"); v != "-" {
		return v
	}
	return ""
}

// nestedRequired returns the function that gives the JSON names of the
// fields the published schema requires in an object read into struct type
// t below the top level: the required list of t's own definition, as
// invopop/jsonschema reflects it under tags, or as jsonschema-go infers it.
func nestedRequired(tags tagRules, b bind.Binder) func(t reflect.Type) []string {
	return func(t reflect.Type) (names []string) {
		defer func() {
			if recover() != nil { // invopop panics on some types; they publish nothing
				names = nil
			}
		}()
		if tags.jsonschemaGo {
			return goRequired(t, b)
		}
		return newSchemaReflector(tags).reflectRoot(t).Required
	}
}
