// Package schemacheck compiles a tool's published input schema (JSON
// Schema, draft 2020-12 or draft-07, as github.com/google/jsonschema-go
// reads it) into a checker of argument bytes, and checks calls with it as
// the map reader reads them: encoding/json into map[string]any, keys
// exact, a repeated key's last value kept, numbers as float64.
//
// Compile takes only the keywords the checker checks exactly as
// jsonschema-go validates them; any other keyword that constrains a value
// fails it, naming the keyword and where it is (see KeywordError).
//
// Branches: anyOf or oneOf over branches of distinct JSON types, alone, is
// read once (the branch of the value's type). Any other anyOf or oneOf,
// allOf, not and if/then/else read the value once more per branch, as a
// trial whose issues are taken back or kept (see Node.AllOf): Compile
// bounds how many times one byte is read, through their nesting, to
// maxReads, and refuses such a keyword that holds itself through a $ref,
// so that Check costs at most maxReads times the size of its input. They
// are refused at the root, whose properties are the tool's parameters.
// So are patternProperties (a member read once more per pattern it
// matches), propertyNames (each key read as a string) and
// dependentSchemas (the object read again); contains (each element read
// once more), uniqueItems and an enum of arrays or objects (the value
// read into any, as the map reader reads it) count in the same bound.
// Draft-07 (the root's $schema, exactly as jsonschema-go tells it) has no
// prefixItems, dependentRequired or dependentSchemas: they are ignored
// there, as jsonschema-go ignores them.
// Annotations (title, description, default, examples, format, $comment,
// deprecated, readOnly, writeOnly, content*, unknown keywords) constrain
// nothing and are ignored, as jsonschema-go ignores them.
package schemacheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Types is a set of JSON Schema types.
type Types uint8

const (
	Null Types = 1 << iota
	Boolean
	Object
	Array
	Number // any number; "integer" is Integer
	Integer
	String
)

// AnyType is the set of every type: a schema without "type".
const AnyType Types = Null | Boolean | Object | Array | Number | Integer | String

var typeNames = [...]struct {
	t    Types
	name string
}{{Null, "null"}, {Boolean, "boolean"}, {Object, "object"}, {Array, "array"}, {Number, "number"}, {Integer, "integer"}, {String, "string"}}

// Has reports whether s holds every type of t.
func (s Types) Has(t Types) bool { return s&t == t }

// A Value is a JSON value an enum or const lists.
type Value struct {
	Kind Types // Null, Boolean, Number, String, Array or Object
	Bool bool
	Num  float64
	Text string
	// JSON is an array or object as encoding/json reads it into any.
	JSON any
}

// A Bound is a number bound, with the text it is worded by.
type Bound struct {
	Value float64
	Text  string
}

// A Node is the compiled schema of one value position.
type Node struct {
	// False: the schema false, which no value passes.
	False bool
	// Ref, when not nil, is the schema a $ref beside "type" names: the
	// value must be of Types, then is checked against Ref.
	Ref *Node
	// AnyOf, when not nil, are the branches of anyOf (or oneOf, OneOf
	// set), each of its own JSON types: the value is checked against the
	// branch of its type (Types is their union).
	AnyOf []*Node
	OneOf bool
	// AllOf, Some (anyOf, or oneOf with SomeOne set, whose branches take
	// values of one type or stand beside other keywords), Not and If
	// (with Then and Else) are schemas the value is read against again,
	// once per branch, before it is read against the node's own keywords:
	// the value passes every AllOf, at least one of Some (exactly one,
	// SomeOne set), not Not, and Then when it passes If, Else when not.
	// Compile bounds how often they make a value be read (see maxReads).
	AllOf, Some    []*Node
	SomeOne        bool
	Not            *Node
	If, Then, Else *Node
	// Types are the types the value may be (AnyType when the schema
	// states none).
	Types Types
	// Enum lists the values the value must be one of; Const reports it
	// came from const (one value).
	Enum  []Value
	Const bool

	Minimum, Maximum, ExclusiveMinimum, ExclusiveMaximum, MultipleOf *Bound

	MinLength, MaxLength *int
	Pattern              *regexp.Regexp

	Items *Node // nil: any element
	// Prefix are the schemas of the first elements (prefixItems); Items
	// is then the schema of the rest.
	Prefix             []*Node
	MinItems, MaxItems *int
	// Unique: uniqueItems true, no two elements equal.
	Unique bool
	// Contains, when not nil, is the schema elements are counted against
	// (each read once more): at least one must pass it, or MinContains,
	// and at most MaxContains.
	Contains                 *Node
	MinContains, MaxContains *int

	// Properties are the object's named members, sorted by name.
	Properties []Property
	// Patterns are patternProperties: a member whose key matches one is
	// read against its schema too (once more per pattern it matches), and
	// is not a member Additional describes.
	Patterns []Pattern
	// Required lists the names the object must hold.
	Required []string
	// Additional is the schema of a member Properties does not name (nil:
	// any); Closed reports additionalProperties false.
	Additional                   *Node
	Closed                       bool
	MinProperties, MaxProperties *int
	// PropertyNames, when not nil, is the schema each key is read against
	// as a string (once more).
	PropertyNames *Node
	// DependentRequired and DependentSchemas (draft 2020-12) apply where
	// the object holds the member Name: the names it must hold too, the
	// schema the object is read against once more.
	DependentRequired []Dependent
	DependentSchemas  []Dependent
}

// A Dependent is one member of dependentRequired or dependentSchemas.
type Dependent struct {
	Name     string
	Required []string
	Node     *Node
}

// A Pattern is one member of patternProperties.
type Pattern struct {
	Re   *regexp.Regexp
	Node *Node
}

// A Property is one named member of an object schema.
type Property struct {
	Name     string
	Node     *Node
	Required bool
}

// Property returns the index of the property named name, or -1.
func (n *Node) Property(name string) int {
	i, ok := slices.BinarySearchFunc(n.Properties, name, func(p Property, name string) int { return strings.Compare(p.Name, name) })
	if !ok {
		return -1
	}
	return i
}

// A Schema is a compiled input schema: an object schema.
type Schema struct {
	Root *Node
	// Open reports that the published root leaves unknown members open:
	// additionalProperties absent or true.
	Open bool
	// OpenRoot and Exempt are the guard's policy on the root's unknown
	// members, where the schema leaves it open: OpenRoot lets every one
	// through; a member whose key is in Exempt passes either way, even
	// where the schema closes the root. Without them Check reports each
	// unknown member of an open root as an UnknownArgument loss (see
	// Issue.Code).
	OpenRoot bool
	Exempt   []string
	// IntRead marks, per root property, a parameter the handler reads
	// with an int accessor, which truncates: a number with a fraction, or
	// past int64's range, that the schema takes there is a Truncated loss.
	IntRead []bool
}

// A KeywordError reports a keyword Compile cannot check, or one it cannot
// read: Path is the JSON Pointer of the schema holding it.
type KeywordError struct {
	Path    string
	Keyword string
	Why     string
}

func (e *KeywordError) Error() string {
	at := e.Path
	if at == "" {
		at = "the root"
	}
	return fmt.Sprintf("schema keyword %q at %s: %s", e.Keyword, at, e.Why)
}

// maxRefs bounds the $ref chain Compile follows from one position.
const maxRefs = 64

// Compile compiles the JSON Schema text raw. The root must be an object
// schema (type "object", as MCP requires of an input schema).
func Compile(raw []byte) (*Schema, error) {
	var s jsonschema.Schema
	if err := json.Unmarshal(raw, &s); err != nil {
		return nil, fmt.Errorf("the schema is not JSON Schema: %w", err)
	}
	return CompileSchema(&s)
}

// CompileSchema compiles a schema as jsonschema-go holds it.
func CompileSchema(s *jsonschema.Schema) (*Schema, error) {
	if s == nil {
		return nil, errors.New("the schema is nil")
	}
	c := &compiler{root: s, done: map[*jsonschema.Schema]*Node{}, paths: map[*Node]string{},
		draft7: s.Schema == "http://json-schema.org/draft-07/schema#" || s.Schema == "https://json-schema.org/draft-07/schema#"}
	root, err := c.node(s, "")
	if err != nil {
		return nil, err
	}
	if root.False || root.Types != Object {
		return nil, &KeywordError{Path: "", Keyword: "type", Why: `an input schema's root must be of type "object" alone`}
	}
	if rereads(root) {
		return nil, &KeywordError{Path: "", Keyword: rereadWord(root), Why: "the guard checks it below the root only: the root's properties are the tool's parameters"}
	}
	for _, kw := range [...]struct {
		name string
		set  bool
	}{{"patternProperties", root.Patterns != nil}, {"propertyNames", root.PropertyNames != nil}, {"dependentSchemas", root.DependentSchemas != nil},
		{enumWord(root), root.Enum != nil}} {
		if kw.set {
			return nil, &KeywordError{Path: "", Keyword: kw.name, Why: "the guard checks it below the root only: the root's properties are the tool's parameters"}
		}
	}
	if err := c.bound(); err != nil {
		return nil, err
	}
	return &Schema{Root: root, Open: root.Additional == nil && !root.Closed}, nil
}

type compiler struct {
	root  *jsonschema.Schema
	done  map[*jsonschema.Schema]*Node // a schema compiled once: $ref may recur
	paths map[*Node]string             // where each node is, for bound's error
	order []*Node                      // every node, in the order compiled
	// draft7: the root's $schema is draft-07, as jsonschema-go tells it.
	draft7 bool
}

// maxReads bounds how many times Check reads one byte of a value: once,
// and once more for each branch of allOf, anyOf and oneOf (where they
// read the value again), not, if, then and else around it, multiplied
// through their nesting. Past it, or where such a keyword holds itself
// (a value nested n deep would be read n times), Compile refuses the
// schema: a call then costs at most maxReads times its size.
const maxReads = 256

// bound computes, for every node, reads: how many times Check reads a
// byte of a value checked against it, at most (a fixpoint: a node's reads
// are its own read, its children's, and each branch's, added), and
// refuses the schema where they pass maxReads.
func (c *compiler) bound() error {
	nodes := c.order // in the order compiled: the same error every time
	if err := c.loops(nodes); err != nil {
		return err
	}
	reads := make(map[*Node]int, len(nodes))
	for _, n := range nodes {
		reads[n] = 1
	}
	// Last compiled first: a node's children are compiled after it, so
	// that they are mostly computed before it and a tree settles in one
	// pass.
	for changed := true; changed; {
		changed = false
		for _, n := range slices.Backward(nodes) {
			r := nodeReads(n, reads)
			if r <= reads[n] {
				continue
			}
			if r > maxReads {
				return &KeywordError{Path: c.paths[n], Keyword: rereadWord(n), Why: fmt.Sprintf(
					"branches that read a value more than %d times, nested in one another or holding themselves", maxReads)}
			}
			reads[n], changed = r, true
		}
	}
	return nil
}

// loops refuses a node that leads back to itself through a $ref beside
// "type" or an anyOf read by type, without reading into the value: such
// a schema is a chain that does not end (jsonschema-go recurses on it
// until its stack overflows).
func (c *compiler) loops(nodes []*Node) error {
	const (
		unseen = iota
		open
		done
	)
	state := make(map[*Node]int, len(c.done))
	var visit func(n *Node) *Node
	visit = func(n *Node) *Node {
		switch state[n] {
		case open:
			return n
		case done:
			return nil
		}
		state[n] = open
		next := n.AnyOf
		if n.Ref != nil {
			next = []*Node{n.Ref}
		}
		for _, m := range next {
			if at := visit(m); at != nil {
				return at
			}
		}
		state[n] = done
		return nil
	}
	for _, n := range nodes {
		if at := visit(n); at != nil {
			kw := "$ref"
			if at.AnyOf != nil {
				kw = "anyOf"
				if at.OneOf {
					kw = "oneOf"
				}
			}
			return &KeywordError{Path: c.paths[at], Keyword: kw, Why: "a chain of references that does not end"}
		}
	}
	return nil
}

// nodeReads is n's reads, from its neighbours' as reads holds them.
func nodeReads(n *Node, reads map[*Node]int) int {
	own := 1
	for _, m := range [...]*Node{n.Ref, n.Items, n.Additional} {
		if m != nil {
			own = max(own, reads[m])
		}
	}
	for _, b := range n.AnyOf {
		own = max(own, reads[b])
	}
	// A member's value is read against its property's schema and each
	// pattern's it matches; a key no property names, against each
	// pattern's (or else Additional's).
	patterns, props := 0, 0
	for _, p := range n.Patterns {
		patterns += reads[p.Node]
	}
	for _, p := range n.Properties {
		props = max(props, reads[p.Node])
	}
	if n.Properties != nil {
		own = max(own, props+patterns)
	}
	own = max(own, patterns)
	if n.Additional != nil {
		own = max(own, reads[n.Additional])
	}
	elems := 1
	if n.Items != nil {
		elems = reads[n.Items]
	}
	for _, p := range n.Prefix {
		elems = max(elems, reads[p])
	}
	if n.Contains != nil {
		elems += reads[n.Contains]
	}
	own = max(own, elems)
	if n.PropertyNames != nil {
		own = max(own, 1+reads[n.PropertyNames]) // a key: read, then read against it
	}
	for _, d := range n.DependentSchemas {
		own += reads[d.Node]
	}
	if composite(n.Enum) || n.Unique {
		own++ // the value is read once more into any, to compare
	}
	most := 0 // the closest branch of Some is read once more, to list its issues
	for _, group := range [...][]*Node{n.AllOf, n.Some, {n.Not, n.If, n.Then, n.Else}} {
		for _, b := range group {
			if b != nil {
				own += reads[b]
			}
		}
	}
	for _, b := range n.Some {
		most = max(most, reads[b])
	}
	return own + most
}

// rereadWord names the first keyword of n that reads a value again.
func rereadWord(n *Node) string {
	switch {
	case n.AllOf != nil:
		return "allOf"
	case n.Some != nil && n.SomeOne:
		return "oneOf"
	case n.Some != nil:
		return "anyOf"
	case n.Not != nil:
		return "not"
	case n.If != nil:
		return "if"
	case n.Patterns != nil:
		return "patternProperties"
	case n.DependentSchemas != nil:
		return "dependentSchemas"
	case n.Contains != nil:
		return "contains"
	case n.PropertyNames != nil:
		return "propertyNames"
	}
	return "$ref"
}

// isFalse reports the schema false, which jsonschema-go reads as
// {"not": {}}.
func isFalse(s *jsonschema.Schema) bool {
	return s.Not != nil && isEmpty(s.Not) && onlyNot(s)
}

func onlyNot(s *jsonschema.Schema) bool {
	c := *s
	c.Not = nil
	return isEmpty(&c)
}

func isEmpty(s *jsonschema.Schema) bool {
	b, err := json.Marshal(s)
	return err == nil && string(b) == "{}" || err == nil && string(b) == "true"
}

func (c *compiler) node(s *jsonschema.Schema, path string) (*Node, error) {
	// A $ref is the schema it names: follow the chain first, so that a
	// schema reached again is the one node. A $ref beside "type" (as
	// jsonschema-go's inference writes a named struct: {"$ref": ...,
	// "type": "object"}) is a node of its own types that goes on to the
	// one named.
	for hops := 0; s.Ref != ""; hops++ {
		if hops >= maxRefs {
			return nil, &KeywordError{Path: path, Keyword: "$ref", Why: "a chain of references that does not end"}
		}
		if n, ok := c.done[s]; ok {
			return n, nil
		}
		rest := *s
		rest.Ref, rest.Defs, rest.Definitions, rest.Schema, rest.ID = "", nil, nil, "", ""
		rest.Title, rest.Description, rest.Comment, rest.Default, rest.Examples = "", "", "", nil, nil
		rest.Deprecated, rest.ReadOnly, rest.WriteOnly, rest.Format = false, false, false, ""
		typed := rest.Type != "" || rest.Types != nil
		rest.Type, rest.Types = "", nil
		if !isEmpty(&rest) {
			return nil, &KeywordError{Path: path, Keyword: "$ref", Why: `the guard checks a $ref only with no other keyword than "type" beside it`}
		}
		if err := c.defs(s, path); err != nil {
			return nil, err
		}
		target, err := c.resolve(s.Ref, path)
		if err != nil {
			return nil, err
		}
		if typed {
			n := &Node{}
			c.done[s] = n
			c.paths[n] = path
			c.order = append(c.order, n)
			t, err := types(s, path)
			if err != nil {
				return nil, err
			}
			if n.Ref, err = c.node(target, refPath(s.Ref)); err != nil {
				return nil, err
			}
			n.Types = t
			return n, nil
		}
		s, path = target, refPath(s.Ref)
	}
	if n, ok := c.done[s]; ok {
		return n, nil
	}
	n := &Node{Types: AnyType}
	c.done[s] = n
	c.paths[n] = path
	c.order = append(c.order, n)
	if isFalse(s) {
		n.False = true
		return n, nil
	}
	unsupported := func(kw string, set bool) error {
		if set {
			return &KeywordError{Path: path, Keyword: kw, Why: "the guard does not check it"}
		}
		return nil
	}
	for _, u := range [...]struct {
		kw  string
		set bool
	}{
		{"$dynamicRef", s.DynamicRef != ""}, {"$dynamicAnchor", s.DynamicAnchor != ""},
		{"$id", s.ID != "" && s != c.root}, {"$anchor", s.Anchor != ""},
		{"dependencies", s.DependencySchemas != nil || s.DependencyStrings != nil},
		{"items", s.ItemsArray != nil},
		{"additionalItems", s.AdditionalItems != nil},
		{"unevaluatedItems", s.UnevaluatedItems != nil},
		{"unevaluatedProperties", s.UnevaluatedProperties != nil},
		{"anyOf", s.AnyOf != nil && s.OneOf != nil},
	} {
		if err := unsupported(u.kw, u.set); err != nil {
			return nil, err
		}
	}
	if s.Schema != "" && !validDraft(s.Schema) {
		return nil, &KeywordError{Path: path, Keyword: "$schema", Why: "only draft 2020-12 and draft-07 are read"}
	}
	if err := c.defs(s, path); err != nil {
		return nil, err
	}
	t, err := types(s, path)
	if err != nil {
		return nil, err
	}
	n.Types = t
	if s.Enum != nil {
		for i, e := range s.Enum {
			v, err := enumValue(e)
			if err != nil {
				return nil, &KeywordError{Path: path, Keyword: "enum", Why: fmt.Sprintf("value %d is %s", i, err)}
			}
			n.Enum = append(n.Enum, v)
		}
		if len(n.Enum) == 0 {
			n.False = true
		}
	}
	if s.Const != nil {
		v, err := enumValue(*s.Const)
		if err != nil {
			return nil, &KeywordError{Path: path, Keyword: "const", Why: err.Error()}
		}
		// Beside enum, a value must equal const and be in enum: const,
		// where enum lists it; no value, where it does not.
		if s.Enum != nil && !slices.ContainsFunc(n.Enum, func(e Value) bool { return equalValue(e, v) }) {
			n.False = true
		}
		n.Enum, n.Const = []Value{v}, true
	}
	for _, b := range [...]struct {
		kw  string
		src *float64
		dst **Bound
	}{{"minimum", s.Minimum, &n.Minimum}, {"maximum", s.Maximum, &n.Maximum},
		{"exclusiveMinimum", s.ExclusiveMinimum, &n.ExclusiveMinimum}, {"exclusiveMaximum", s.ExclusiveMaximum, &n.ExclusiveMaximum},
		{"multipleOf", s.MultipleOf, &n.MultipleOf}} {
		if b.src == nil {
			continue
		}
		f := *b.src
		if math.IsNaN(f) || math.IsInf(f, 0) || b.kw == "multipleOf" && f <= 0 {
			return nil, &KeywordError{Path: path, Keyword: b.kw, Why: "not a finite number (multipleOf: greater than 0)"}
		}
		*b.dst = &Bound{Value: f, Text: strconv.FormatFloat(f, 'f', -1, 64)}
	}
	for _, l := range [...]struct {
		kw  string
		src *int
		dst **int
	}{{"minLength", s.MinLength, &n.MinLength}, {"maxLength", s.MaxLength, &n.MaxLength},
		{"minItems", s.MinItems, &n.MinItems}, {"maxItems", s.MaxItems, &n.MaxItems},
		{"minProperties", s.MinProperties, &n.MinProperties}, {"maxProperties", s.MaxProperties, &n.MaxProperties}} {
		if l.src == nil {
			continue
		}
		if *l.src < 0 {
			return nil, &KeywordError{Path: path, Keyword: l.kw, Why: "a negative count"}
		}
		v := *l.src
		*l.dst = &v
	}
	if s.Pattern != "" {
		re, err := regexp.Compile(s.Pattern)
		if err != nil {
			return nil, &KeywordError{Path: path, Keyword: "pattern", Why: "not a regular expression Go's regexp reads, as jsonschema-go compiles it: " + err.Error()}
		}
		n.Pattern = re
	}
	n.Unique = s.UniqueItems
	if s.PrefixItems != nil && !c.draft7 { // draft-07 has no prefixItems: jsonschema-go ignores it there
		for i, p := range s.PrefixItems {
			pn, err := c.node(p, path+"/prefixItems/"+strconv.Itoa(i))
			if err != nil {
				return nil, err
			}
			n.Prefix = append(n.Prefix, pn)
		}
	}
	if s.Contains != nil {
		cn, err := c.node(s.Contains, path+"/contains")
		if err != nil {
			return nil, err
		}
		n.Contains, n.MinContains, n.MaxContains = cn, s.MinContains, s.MaxContains
		for _, l := range [...]struct {
			kw string
			v  *int
		}{{"minContains", s.MinContains}, {"maxContains", s.MaxContains}} {
			if l.v != nil && *l.v < 0 {
				return nil, &KeywordError{Path: path, Keyword: l.kw, Why: "a negative count"}
			}
		}
	} // minContains and maxContains without contains constrain nothing
	if s.PropertyNames != nil {
		if n.PropertyNames, err = c.node(s.PropertyNames, path+"/propertyNames"); err != nil {
			return nil, err
		}
	}
	if !c.draft7 { // draft-07 reads dependencies instead: jsonschema-go ignores these there
		for _, name := range sortedKeys(s.DependentRequired) {
			n.DependentRequired = append(n.DependentRequired, Dependent{Name: name, Required: s.DependentRequired[name]})
		}
		for _, name := range sortedKeys(s.DependentSchemas) {
			dn, err := c.node(s.DependentSchemas[name], path+"/dependentSchemas/"+escapePointer(name))
			if err != nil {
				return nil, err
			}
			n.DependentSchemas = append(n.DependentSchemas, Dependent{Name: name, Node: dn})
		}
	}
	if s.PatternProperties != nil {
		res := make([]string, 0, len(s.PatternProperties))
		for re := range s.PatternProperties {
			res = append(res, re)
		}
		slices.Sort(res)
		for _, re := range res {
			r, err := regexp.Compile(re)
			if err != nil {
				return nil, &KeywordError{Path: path, Keyword: "patternProperties", Why: "not a regular expression Go's regexp reads, as jsonschema-go compiles it: " + err.Error()}
			}
			pn, err := c.node(s.PatternProperties[re], path+"/patternProperties/"+escapePointer(re))
			if err != nil {
				return nil, err
			}
			n.Patterns = append(n.Patterns, Pattern{Re: r, Node: pn})
		}
	}
	if s.Items != nil {
		it, err := c.node(s.Items, path+"/items")
		if err != nil {
			return nil, err
		}
		n.Items = it
	}
	names := make([]string, 0, len(s.Properties))
	for name := range s.Properties {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		pn, err := c.node(s.Properties[name], path+"/properties/"+escapePointer(name))
		if err != nil {
			return nil, err
		}
		n.Properties = append(n.Properties, Property{Name: name, Node: pn, Required: slices.Contains(s.Required, name)})
	}
	for _, r := range s.Required {
		if !slices.Contains(n.Required, r) {
			n.Required = append(n.Required, r)
		}
	}
	if ap := s.AdditionalProperties; ap != nil {
		an, err := c.node(ap, path+"/additionalProperties")
		if err != nil {
			return nil, err
		}
		if an.False {
			n.Closed = true
		} else if an.Types != AnyType || an.Enum != nil || hasRules(an) {
			n.Additional = an
		}
	}
	if err := c.branches(n, s, path); err != nil {
		return nil, err
	}
	if s.AnyOf != nil || s.OneOf != nil {
		if err := c.alternatives(n, s, path); err != nil {
			return nil, err
		}
	}
	return n, nil
}

// branches compiles allOf, not and if/then/else into n. A then or else
// without if constrains nothing: jsonschema-go reads them only beside if.
func (c *compiler) branches(n *Node, s *jsonschema.Schema, path string) error {
	if s.AllOf != nil {
		if len(s.AllOf) == 0 {
			return &KeywordError{Path: path, Keyword: "allOf", Why: "an empty list"}
		}
		for i, b := range s.AllOf {
			bn, err := c.node(b, path+"/allOf/"+strconv.Itoa(i))
			if err != nil {
				return err
			}
			n.AllOf = append(n.AllOf, bn)
		}
	}
	var err error
	if s.Not != nil {
		if n.Not, err = c.node(s.Not, path+"/not"); err != nil {
			return err
		}
	}
	if s.If != nil {
		if n.If, err = c.node(s.If, path+"/if"); err != nil {
			return err
		}
		if s.Then != nil {
			if n.Then, err = c.node(s.Then, path+"/then"); err != nil {
				return err
			}
		}
		if s.Else != nil {
			if n.Else, err = c.node(s.Else, path+"/else"); err != nil {
				return err
			}
		}
	}
	return nil
}

// alternatives compiles anyOf (or oneOf) into n. Branches of distinct
// JSON types (integer and number counting as one) with no other keyword
// beside them, as in {"anyOf": [{"type": "string"}, {"type": "null"}]},
// make a node that stands for its branches alone: a value can then pass
// only the branch of its type, so anyOf and oneOf are both that branch's
// verdict, read once. Any others are Some, read once per branch.
func (c *compiler) alternatives(n *Node, s *jsonschema.Schema, path string) error {
	kw, branches := "anyOf", s.AnyOf
	if s.OneOf != nil {
		kw, branches = "oneOf", s.OneOf
	}
	if len(branches) == 0 {
		return &KeywordError{Path: path, Keyword: kw, Why: "an empty list"}
	}
	var seen Types
	var bns []*Node
	distinct := n.Types == AnyType && n.Enum == nil && !hasRules(n)
	for i, b := range branches {
		bn, err := c.node(b, path+"/"+kw+"/"+strconv.Itoa(i))
		if err != nil {
			return err
		}
		t := typeClass(branchTypes(bn))
		if t&seen != 0 {
			distinct = false
		}
		seen |= t
		bns = append(bns, bn)
	}
	if !distinct {
		// Branches a value of one type may pass, or keywords beside them:
		// each branch reads the value again.
		n.Some, n.SomeOne = bns, kw == "oneOf"
		return nil
	}
	n.AnyOf = bns
	n.OneOf = kw == "oneOf"
	n.Types = 0
	for _, b := range n.AnyOf {
		n.Types |= branchTypes(b)
	}
	return nil
}

// branchTypes returns the types a value may have to pass n.
func branchTypes(n *Node) Types {
	t := AnyType
	for hops := 0; n != nil && hops <= maxRefs; hops++ {
		if n.False {
			return 0
		}
		t &= n.Types
		if n.Ref == nil {
			break
		}
		n = n.Ref
	}
	return t
}

// typeClass merges integer into number: one JSON type.
func typeClass(t Types) Types {
	if t&(Integer|Number) != 0 {
		t |= Integer | Number
	}
	return t
}

// defs compiles the definitions s holds, so that a keyword the guard
// cannot check fails there even when nothing refers to it.
func (c *compiler) defs(s *jsonschema.Schema, path string) error {
	for _, kw := range [...]struct {
		name string
		m    map[string]*jsonschema.Schema
	}{{"$defs", s.Defs}, {"definitions", s.Definitions}} {
		names := make([]string, 0, len(kw.m))
		for name := range kw.m {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			if _, err := c.node(kw.m[name], path+"/"+kw.name+"/"+escapePointer(name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// types reads the type keyword of s: AnyType when it has none.
func types(s *jsonschema.Schema, path string) (Types, error) {
	t := AnyType
	switch {
	case s.Type != "":
		var ok bool
		if t, ok = typeOf(s.Type); !ok {
			return 0, &KeywordError{Path: path, Keyword: "type", Why: fmt.Sprintf("%q is not a JSON Schema type", s.Type)}
		}
	case s.Types != nil:
		t = 0
		for _, name := range s.Types {
			one, ok := typeOf(name)
			if !ok {
				return 0, &KeywordError{Path: path, Keyword: "type", Why: fmt.Sprintf("%q is not a JSON Schema type", name)}
			}
			t |= one
		}
	}
	if t.Has(Number) {
		t |= Integer // "number" takes whole numbers too
	}
	return t, nil
}

// hasRules reports whether n constrains a value beyond its types.
func hasRules(n *Node) bool {
	return n.False || n.Ref != nil || n.AnyOf != nil || rereads(n) || n.Enum != nil || n.Minimum != nil || n.Maximum != nil || n.ExclusiveMinimum != nil ||
		n.ExclusiveMaximum != nil || n.MultipleOf != nil || n.MinLength != nil || n.MaxLength != nil ||
		n.Pattern != nil || n.Items != nil || n.Prefix != nil || n.MinItems != nil || n.MaxItems != nil || n.Unique || n.Properties != nil || n.Patterns != nil ||
		n.Contains != nil || n.PropertyNames != nil || n.DependentRequired != nil || n.DependentSchemas != nil ||
		n.Required != nil || n.Additional != nil || n.Closed || n.MinProperties != nil || n.MaxProperties != nil
}

// composite reports whether enum lists an array or object.
func composite(enum []Value) bool {
	return slices.ContainsFunc(enum, func(v Value) bool { return v.Kind&(Object|Array) != 0 })
}

// rereads reports whether n reads a value again per branch.
func rereads(n *Node) bool {
	return n.AllOf != nil || n.Some != nil || n.Not != nil || n.If != nil
}

func validDraft(u string) bool {
	u = strings.TrimSuffix(strings.TrimPrefix(strings.TrimPrefix(u, "https://"), "http://"), "#")
	return u == "json-schema.org/draft/2020-12/schema" || u == "json-schema.org/draft-07/schema"
}

func typeOf(name string) (Types, bool) {
	for _, tn := range typeNames {
		if tn.name == name {
			return tn.t, true
		}
	}
	return 0, false
}

// TypeNames returns the names of the types in t, in a fixed order.
func TypeNames(t Types) []string {
	var out []string
	for _, tn := range typeNames {
		if t.Has(tn.t) && !(tn.t == Integer && t.Has(Number)) {
			out = append(out, tn.name)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// enumValue reads an enum's or const's value as the map reader reads a
// value: what it marshals to, read back into any (a schema built in Go
// may hold an int, or a struct). A value that does not read back as it
// was (a number float64 cannot hold, text that is not UTF-8) fails.
func enumValue(e any) (Value, error) {
	raw, err := json.Marshal(e)
	if err != nil {
		return Value{}, fmt.Errorf("not a JSON value: %v", err)
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return Value{}, fmt.Errorf("not a JSON value: %v", err)
	}
	if again, err := json.Marshal(v); err != nil || string(again) != string(raw) {
		return Value{}, errors.New("not what a call's value reads as (a number float64 cannot hold, or text that is not UTF-8)")
	}
	if sv, ok := scalar(v); ok {
		return sv, nil
	}
	if _, ok := v.(map[string]any); ok {
		return Value{Kind: Object, JSON: v}, nil
	}
	return Value{Kind: Array, JSON: v}, nil
}

// equalValue reports whether enum values a and b are equal, as
// jsonschema-go compares values (numbers by value, -0 equal to 0).
func equalValue(a, b Value) bool {
	if a.Kind&(Object|Array) != 0 || b.Kind&(Object|Array) != 0 {
		return a.Kind == b.Kind && equalJSON(a.JSON, b.JSON)
	}
	return a.Kind == b.Kind && a.Bool == b.Bool && a.Num == b.Num && a.Text == b.Text
}

// equalJSON reports whether two values as encoding/json reads them into
// any are equal. Its cost is linear in the smaller.
func equalJSON(a, b any) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case bool:
		bb, ok := b.(bool)
		return ok && a == bb
	case float64:
		bf, ok := b.(float64)
		return ok && a == bf
	case string:
		bs, ok := b.(string)
		return ok && a == bs
	case []any:
		bl, ok := b.([]any)
		if !ok || len(a) != len(bl) {
			return false
		}
		for i := range a {
			if !equalJSON(a[i], bl[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, av := range a {
			bv, ok := bm[k]
			if !ok || !equalJSON(av, bv) {
				return false
			}
		}
		return true
	}
	return false
}

func scalar(v any) (Value, bool) {
	switch v := v.(type) {
	case nil:
		return Value{Kind: Null}, true
	case bool:
		return Value{Kind: Boolean, Bool: v}, true
	case float64:
		return Value{Kind: Number, Num: v}, true
	case string:
		return Value{Kind: String, Text: v}, true
	}
	return Value{}, false
}

func escapePointer(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func refPath(ref string) string { return strings.TrimPrefix(ref, "#") }

// resolve finds the schema a local $ref names: "#", or a JSON Pointer
// into the root ("#/$defs/name", "#/definitions/name", "#/properties/a").
func (c *compiler) resolve(ref, path string) (*jsonschema.Schema, error) {
	bad := &KeywordError{Path: path, Keyword: "$ref", Why: fmt.Sprintf("%q is not a reference into this schema the guard follows", ref)}
	p, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return nil, bad
	}
	s := c.root
	if p == "" {
		return s, nil
	}
	steps := strings.Split(strings.TrimPrefix(p, "/"), "/")
	if !strings.HasPrefix(p, "/") || len(steps) > maxRefs {
		return nil, bad
	}
	for i := 0; i < len(steps); i++ {
		step := strings.ReplaceAll(strings.ReplaceAll(steps[i], "~1", "/"), "~0", "~")
		var next *jsonschema.Schema
		switch step {
		case "$defs", "definitions", "properties":
			if i+1 >= len(steps) {
				return nil, bad
			}
			name := strings.ReplaceAll(strings.ReplaceAll(steps[i+1], "~1", "/"), "~0", "~")
			m := map[string]map[string]*jsonschema.Schema{"$defs": s.Defs, "definitions": s.Definitions, "properties": s.Properties}[step]
			next = m[name]
			i++
		case "items":
			next = s.Items
		case "additionalProperties":
			next = s.AdditionalProperties
		}
		if next == nil {
			return nil, bad
		}
		s = next
	}
	return s, nil
}
