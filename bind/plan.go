package bind

import (
	"encoding"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// A Plan is a binder's compiled view of one tool's parameter struct: which
// keys it binds to which fields, and how it reads each value. It is built
// once, at registration, and is safe for concurrent use.
type Plan struct {
	binder Binder
	typ    reflect.Type
	params []Param
	root   *node // the compiled positions: Std's verdict, or V2's and SegmentIO's proving pass
	rules  *rules

	// required marks, per param, the ones Check reports MissingArgument
	// when the arguments do not name them (see WithRequired); nil: none.
	required []bool
	// nested lists, per struct type read below the top level, the JSON
	// names of the fields Check reports MissingField when an object read
	// into it does not name them; nestedStd is the same by node and field
	// index, for the native check.
	nested    map[reflect.Type][]string
	nestedStd map[*node][]int

	// check replaces the native reading for binders that are mirrored
	// another way (see V2, SegmentIO). It has Check's contract; required
	// is the plan's; ms, when not nil, records the top-level members (see
	// checkMembers).
	check func(args []byte, required []bool, nested map[reflect.Type][]string, issues []Issue, ms *bindcap.Members) []Issue
	// trial is the trial check of a V2 or SegmentIO plan, for a call its
	// proving pass declines (see declinedCheck); nil for the others.
	trial *trialPlan
	// match, with check, returns the param a top-level key binds to, -1
	// for none (see Binds).
	match func(raw []byte) int
}

// Binder returns the binder the plan mirrors.
func (p *Plan) Binder() Binder { return p.binder }

// Type returns the struct type the plan was compiled from.
func (p *Plan) Type() reflect.Type { return p.typ }

// Params returns the keys a caller may send, in field order: a new slice
// each call (each Index copied too), so that nothing a caller changes in
// it reaches the plan, which reads its own.
func (p *Plan) Params() []Param {
	ps := slices.Clone(p.params)
	for i := range ps {
		ps[i].Index = slices.Clone(ps[i].Index)
	}
	return ps
}

// WithRequired returns a copy of the plan whose Check also reports, with a
// MissingArgument issue each, the parameters of the given names that the
// arguments do not name (by any key the binder binds to them), and, when
// fields is not nil, with a MissingField issue each, the fields of a
// struct below the top level that an object read into it does not name:
// fields(t) returns the JSON names of struct type t's required fields (the
// published schema's required list for t). Names of no parameter or field
// are ignored.
func (p *Plan) WithRequired(names []string, fields func(t reflect.Type) []string) *Plan {
	q := *p
	q.required = make([]bool, len(p.params))
	for i, prm := range p.params {
		q.required[i] = slices.Contains(names, prm.Name)
	}
	q.nested, q.nestedStd = nil, nil
	if fields == nil {
		return &q
	}
	for t := range structTypes(p.typ) {
		if names := fields(t); len(names) > 0 {
			if q.nested == nil {
				q.nested = map[reflect.Type][]string{}
			}
			q.nested[t] = names
		}
	}
	if p.root != nil && q.nested != nil {
		q.nestedStd = map[*node][]int{}
		seen := map[*node]bool{}
		var walk func(n *node)
		walk = func(n *node) {
			if n == nil || seen[n] {
				return
			}
			seen[n] = true
			walk(n.elem)
			walk(n.clean) // a declined position's clean reading (clean.go)
			if n.kind != kStruct {
				return
			}
			for _, name := range q.nested[n.typ] {
				if i, ok := n.fields.exact[name]; ok {
					q.nestedStd[n] = append(q.nestedStd[n], i)
				}
			}
			for _, c := range n.fields.nodes {
				walk(c)
			}
		}
		walk(p.root)
	}
	return &q
}

// structTypes yields every struct type reachable from t through fields,
// pointers, slices, arrays and map values, t included.
func structTypes(t reflect.Type) map[reflect.Type]bool {
	found := map[reflect.Type]bool{}
	seen := map[reflect.Type]bool{} // a type may hold itself: type Tree []Tree
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			walk(t.Elem())
		case reflect.Struct:
			found[t] = true
			for i := range t.NumField() {
				walk(t.Field(i).Type)
			}
		}
	}
	walk(t)
	return found
}

// selfPointer reports whether pointer type t points to itself, through
// pointers only (type P *P): no binder reads such a type, since reading any
// value but null into it allocates pointers forever.
func selfPointer(t reflect.Type) bool {
	seen := map[reflect.Type]bool{}
	for t.Kind() == reflect.Pointer {
		if seen[t] {
			return true
		}
		seen[t] = true
		t = t.Elem()
	}
	return false
}

// selfPointerWhy is the reason a FieldError gives for a selfPointer type.
const selfPointerWhy = "the pointer type %v points to itself, so the binder, reading any value but null into it, allocates pointers forever"

// nodeKind says how a value position is read.
type nodeKind uint8

const (
	kAny     nodeKind = iota // empty interface: any value; numbers must fit a float64
	kRaw                     // json.RawMessage: any value
	kBool                    // bool kinds
	kInt                     // signed integer kinds
	kUint                    // unsigned integer kinds
	kFloat                   // float kinds
	kString                  // string kinds
	kNumber                  // json.Number: a number, or a string holding one
	kSlice                   // slices; a string is base64 when the element kind is uint8
	kArray                   // fixed-size arrays: extra elements are dropped
	kMap                     // maps with string, integer or unsigned keys
	kStruct                  // structs: keys bound by the field set
	kPtr                     // pointers: null sets nil, anything else reads the element
	kQuoted                  // a ,string field of bool, integer or float kind
	kTrial                   // the binder's own decode decides (custom unmarshalers, time.Time)
	kDecline                 // a proving pass does not model the binder here: it declines (see rules)
	kOwn                     // a proving pass reads the binder's own rule for the position (own; see v2options.go)
)

type node struct {
	kind   nodeKind
	bits   int          // kInt, kUint, kFloat, and kQuoted's base; map keys
	base   nodeKind     // kQuoted: kBool, kInt, kUint or kFloat; a quoted kTrial of a string kind: kString
	typ    reflect.Type // the Go type at this position
	elem   *node        // kSlice, kArray, kMap, kPtr; a kTrial map's walk (see textMap), or nil
	length int          // kArray
	bytes  bool         // kSlice: element kind uint8, so a string is base64
	key    nodeKind     // kMap: kString, kInt or kUint
	tkey   bool         // kMap of kString keys the key type's UnmarshalText reads each of: in a proving pass (see textKey), or a kTrial's walk (see textMap)
	jkey   bool         // a tkey map whose key type's UnmarshalJSON reads each key's token (V2; see v2JSONKeyType)
	fields *fieldSet    // kStruct
	trial  reflect.Type // kTrial: the one-field wrapper struct decoded into
	batch  reflect.Type // kSlice or kMap of kTrial elements: the one-field wrapper the whole list is decoded into (see batchOpen)
	// batchElem is the kTrial position batch's elements reach (behind pointers or not).
	batchElem *node
	quoted    bool     // read through the ,string option (kQuoted, or a quoted kTrial)
	dur       bool     // kInt: a time.Duration, read under rules.durations
	own       ownKind  // kOwn: which rule
	seg       nodeKind // kDecline: a position segmentio reads by rules the pass ports (kSegQuoted, kSegNumber, kSegBytes; see segValue)
	self      selfLoss // kTrial: the losses of a value the binder reads (in a proving pass, see selfNode; under Std, selfText alone)
	// clean and cleanNull are a kDecline position's clean reading (see
	// clean.go): the node a value other than null reads into (nil: read
	// whole), and whether null is lost.
	clean     *node
	cleanNull bool
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberType          = reflect.TypeFor[json.Number]()
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
)

// decodesItself reports whether encoding/json reads values of t by a
// method of their own rather than by its rules for t's kind: UnmarshalJSON,
// UnmarshalText, and under GOEXPERIMENT=jsonv2, where it is built on
// encoding/json/v2, v2's UnmarshalJSONFrom (stdReadsFrom).
func decodesItself(t reflect.Type) bool {
	if t.Kind() == reflect.Pointer {
		return false // a pointer's element decides; null is the pointer's
	}
	pt := reflect.PointerTo(t)
	return pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) || stdReadsFrom(pt)
}

// stdReadsText reports whether encoding/json reads a JSON string into a
// value of type t (not a pointer) by t's UnmarshalText, which it hands the
// string's text with invalid UTF-8 and lone surrogates replaced by U+FFFD:
// *t has UnmarshalText, and no method encoding/json prefers to it.
func stdReadsText(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return pt.Implements(textUnmarshalerType) && !pt.Implements(unmarshalerType) && !stdReadsFrom(pt)
}

// A FieldError reports a parameter the binder cannot decode into.
type FieldError struct {
	Type  reflect.Type // the tool's struct type
	Field string       // the Go field, dotted through embedded structs
	Why   string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("bind: field %s of %v: %s", e.Field, e.Type, e.Why)
}

type compiler struct {
	binder Binder
	rules  *rules
	root   reflect.Type
	nodes  map[reflect.Type]*node
	path   []string // Go field path, for errors
}

func compile(b Binder, t reflect.Type) (*Plan, error) {
	if t == nil || t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("bind: tool parameters must be a struct type, not %v", t)
	}
	if decodesItself(t) {
		return nil, fmt.Errorf("bind: %v decodes itself (it has an UnmarshalJSON, UnmarshalJSONFrom or UnmarshalText method), so its parameters cannot be recorded", t)
	}
	root, err := compileNodes(b, stdRules, t)
	if err != nil {
		return nil, err
	}
	return &Plan{binder: b, typ: t, params: root.fields.params, root: root, rules: stdRules}, nil
}

// compileNodes compiles the positions of struct type t under binder b's
// rules.
func compileNodes(b Binder, r *rules, t reflect.Type) (*node, error) {
	c := &compiler{binder: b, rules: r, root: t, nodes: map[reflect.Type]*node{}}
	return c.node(t, false)
}

func (c *compiler) fail(why string, args ...any) error {
	return &FieldError{Type: c.root, Field: strings.Join(c.path, "."), Why: fmt.Sprintf(why, args...)}
}

// node compiles the value position of type t. quoted is the ,string option
// of the field the position belongs to.
func (c *compiler) node(t reflect.Type, quoted bool) (*node, error) {
	if n := c.selfQuoted(t, quoted); n != nil {
		return n, nil // V2 hands the value to the type's own method, the option aside
	}
	if quoted && c.rules.prove && c.rules.segReads {
		return c.segQuotedNode(t)
	}
	if quoted && c.rules.prove {
		return c.provedQuoted(t)
	}
	if quoted && !selfPointer(t) {
		return c.quoted(t)
	}
	if n, ok := c.nodes[t]; ok {
		return n, nil // compiled, or being compiled (a recursive type)
	}
	n := &node{typ: t}
	c.nodes[t] = n
	if err := c.fill(n, t); err != nil {
		delete(c.nodes, t)
		return nil, err
	}
	return n, nil
}

func (c *compiler) fill(n *node, t reflect.Type) error {
	if c.rules.prove && c.rules.segReads {
		if ok, err := c.segTypeNode(n, t); ok {
			return err
		}
	}
	if c.rules.prove && c.rules.own != nil && c.rules.own(n, t) {
		return nil
	}
	if c.rules.prove && c.selfNode(n, t) {
		return nil
	}
	if c.rules.prove && c.rules.declines(t) {
		n.kind = kDecline
		return c.cleanFor(n, t)
	}
	if t == rawMessageType {
		n.kind = kRaw
		return nil
	}
	if c.rules.custom(t) {
		n.kind = kTrial
		n.trial = wrapper(t, false)
		if !c.rules.prove && stdReadsText(t) {
			n.self |= selfText // see checker.value
		}
		return nil
	}
	switch t.Kind() {
	case reflect.Bool:
		n.kind = kBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n.kind, n.bits = kInt, t.Bits()
		n.dur = c.rules.prove && c.rules.durations && t == goDuration
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n.kind, n.bits = kUint, t.Bits()
	case reflect.Float32, reflect.Float64:
		n.kind, n.bits = kFloat, t.Bits()
	case reflect.String:
		n.kind = kString
		if t == numberType {
			n.kind = kNumber
		}
	case reflect.Interface:
		if t.NumMethod() != 0 {
			return c.fail("the binder cannot decode into interface type %v (it has methods); only null would be read", t)
		}
		n.kind = kAny
	case reflect.Pointer:
		if selfPointer(t) {
			return c.fail(selfPointerWhy, t)
		}
		n.kind = kPtr
		e, err := c.node(t.Elem(), false)
		if err != nil {
			return err
		}
		n.elem = e
	case reflect.Slice, reflect.Array:
		n.kind = kSlice
		if t.Kind() == reflect.Array {
			n.kind, n.length = kArray, t.Len()
		}
		n.bytes = t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
		c.path = append(c.path, "[]")
		e, err := c.node(t.Elem(), false)
		c.path = c.path[:len(c.path)-1]
		if err != nil {
			return err
		}
		n.elem = e
		n.batch, n.batchElem = batchType(t, e)
	case reflect.Map:
		n.kind = kMap
		kt := t.Key()
		switch {
		case c.rules.prove && c.rules.v2Keys && v2JSONKeyType(kt):
			// V2 reads each key by the key type's UnmarshalJSON, which
			// the pass calls as V2 does (v2MapKeys lets the map through).
			n.tkey, n.jkey = true, true
		case c.rules.prove && textKeyType(kt):
			// The key type's UnmarshalText reads each key, which the pass
			// calls as the binder does (the rules' declines let the map
			// through: v2MapKeys, segMapKeys).
			n.tkey = true
		case reflect.PointerTo(kt).Implements(textUnmarshalerType):
			// The key type's UnmarshalText reads each key: let the binder
			// decide the whole map, and walk an object it reads for the
			// losses in it (see textMap).
			n.kind = kTrial
			n.trial = wrapper(t, false)
			n.elem = c.textMap(t)
			return nil
		}
		switch kt.Kind() {
		case reflect.String:
			n.key = kString
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			n.key, n.bits = segKeyKind(c.rules, kInt), kt.Bits()
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			n.key, n.bits = segKeyKind(c.rules, kUint), kt.Bits()
		default:
			return c.fail("the binder cannot decode an object into %v: its key type %v is not a string, an integer, or a type with an UnmarshalText method", t, kt)
		}
		if n.tkey {
			n.key = kString // the method reads the key's text, whatever the key type's kind
		}
		c.path = append(c.path, "[]")
		e, err := c.node(t.Elem(), false)
		c.path = c.path[:len(c.path)-1]
		if err != nil {
			return err
		}
		n.elem = e
		if n.key == kString && !n.tkey {
			n.batch, n.batchElem = batchType(t, e)
		}
	case reflect.Struct:
		n.kind = kStruct
		fs, err := c.fieldSet(t)
		if err != nil {
			return err
		}
		n.fields = fs
	default: // Chan, Func, Complex64, Complex128, UnsafePointer
		return c.fail("the binder cannot decode into %v; only null would be read", t)
	}
	return nil
}

// quotedKind is the kind a ,string field of Go kind k reads its text as:
// kBool, kInt, kUint or kFloat; 0 for any other (strings included).
func quotedKind(k reflect.Kind) nodeKind {
	switch k {
	case reflect.Bool:
		return kBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return kInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return kUint
	case reflect.Float32, reflect.Float64:
		return kFloat
	}
	return 0
}

// quoted compiles a field under the ,string option.
func (c *compiler) quoted(t reflect.Type) (*node, error) {
	base := t
	if base.Kind() == reflect.Pointer {
		base = base.Elem() // the option reaches through one unnamed pointer
	}
	kind := quotedKind(base.Kind())
	if kind == 0 || decodesItself(base) {
		// Strings inside strings, and types with their own decoders: the
		// binder's quoted decode decides; of a string it reads, the check
		// judges the text inside (see stringInString).
		n := &node{kind: kTrial, typ: t, trial: wrapper(t, true), quoted: true}
		if base.Kind() == reflect.String && !decodesItself(base) {
			n.base = kString
		}
		return n, nil
	}
	bits := 0
	if kind != kBool {
		bits = base.Bits()
	}
	return &node{kind: kQuoted, base: kind, bits: bits, typ: t, quoted: true}, nil
}

// wrapper returns struct{ F t `json:"F"` } (with ,string when quoted): a
// value decoded as its field is decoded exactly as the binder decodes a
// field of type t.
func wrapper(t reflect.Type, quoted bool) reflect.Type {
	tag := `json:"F"`
	if quoted {
		tag = `json:"F,string"`
	}
	return reflect.StructOf([]reflect.StructField{{Name: "F", Type: t, Tag: reflect.StructTag(tag)}})
}

// fieldSet is a struct's keys, matched the way the binder matches them.
type fieldSet struct {
	params []Param
	nodes  []*node
	exact  map[string]int
	folded map[string]int
	// maxFold is the longest name in folded, in bytes: a key folded
	// longer binds by no fold, and is not folded further.
	maxFold int
	// slots is exact as an open-addressing table (see find): each holds
	// a field's name and index+1, 0 for none, at the slot its name hashes
	// to or a later one in its run. Fixed at compile time, so a key's
	// probes are bounded by the plan, not the input. full: the slots are
	// by every byte of a name (slot), since the few bytes quickSlot reads
	// made runs too long for these names.
	slots []fieldSlot
	shift uint8
	full  bool
	// order holds, at each field's index, its name and index+1 where the
	// name binds that field exactly (exact), else none (i 0): a struct's
	// keys are most often sent in the order its fields are declared, so
	// the field after the last one bound is tried first (lookupNext).
	order []nextSlot
	// foldsMore: a key no field names exactly may still bind one, by the
	// binder's own folding (V2's case:ignore), which the proving pass does
	// not model (see rules.foldsMore).
	foldsMore bool
	// v2folded: the fields a key no field names exactly binds by V2's
	// case:ignore, by folded name (see rules.v2Folds, lookupV2); -1 for
	// a fold two or more such fields share (see sharedFold).
	v2folded map[string]int
	// names tells most keys no field takes before the lookup (see
	// nameFilter).
	names nameFilter
	// stale marks, under segmentio, the fields whose value sent again may
	// fail otherwise than alone (see rules.repeatFields); nil for none.
	stale []bool
}

// A fieldSlot is one slot of a field set's table: the name of the field
// whose index is i-1, or none for i 0.
type fieldSlot struct {
	name string
	i    int32
}

// A nextSlot is a field's entry in a field set's order: a fieldSlot, and
// the name's token as words (see quoted), which most names are whole in.
type nextSlot struct {
	name string
	i    int32
	// The key token's bytes past its opening quote, the name and its
	// closing quote, as two little-endian words, the second masked by
	// qmask (the first too where qlen is at most eight); qlen 0 where the
	// name is no plain token's text (see plainName) or longer than 15
	// bytes: see quoted.
	qw    [2]uint64
	qmask uint64
	qlen  uint8
}

func newNextSlot(name string, i int) nextSlot {
	s := nextSlot{name: name, i: int32(i + 1)}
	if q := name + `"`; len(q) <= 16 && plainName(name) {
		var w [16]byte
		copy(w[:], q)
		s.qw = [2]uint64{binary.LittleEndian.Uint64(w[:8]), binary.LittleEndian.Uint64(w[8:])}
		s.qlen = uint8(len(q))
		s.qmask = ^uint64(0) >> (64 - 8*((len(q)-1)%8+1))
	}
	return s
}

// plainName reports whether "name", quoted, is a whole string token with
// no escape and no byte past ASCII: the token a key of that text is
// sent as by any writer that escapes nothing it need not.
func plainName(name string) bool {
	tok := `"` + name + `"`
	end, f, ok := jsonlex.String([]byte(tok), 0)
	return ok && end == len(tok) && f == 0
}

// quoted reports whether the bytes of data from ks, a key's opening
// quote, are the token of s's name, plain: the name and a closing quote
// (which, the name holding neither quote nor backslash, ends the token).
// It reads them as one or two words, where data holds them whole past
// ks; false otherwise, and for a name quoted cannot tell (qlen 0).
func (s *nextSlot) quoted(data []byte, ks int) bool {
	switch {
	case s.qlen == 0:
		return false
	case s.qlen <= 8:
		return ks+9 <= len(data) && binary.LittleEndian.Uint64(data[ks+1:])&s.qmask == s.qw[0]
	default:
		return ks+17 <= len(data) && binary.LittleEndian.Uint64(data[ks+1:]) == s.qw[0] &&
			binary.LittleEndian.Uint64(data[ks+9:])&s.qmask == s.qw[1]
	}
}

// named reports whether the text of the plain key token raw (quotes
// included, a slice of the arguments, which go on after the key) is s's
// name: yes where quoted, reading raw's array past its end (the checker's
// arguments are cut to their length, so the words never read past them),
// says so; otherwise by the string comparison, which for a key of another
// length compares the lengths alone, and for one of the name's length
// calls memequal.
func (s *nextSlot) named(raw []byte) bool {
	return s.quoted(raw[:cap(raw)], 0) || s.name == string(raw[1:len(raw)-1])
}

// maxQuickRun is the longest run of filled slots a table by quickSlot may
// have: names that make a longer one (alike in length and in the bytes
// it reads) take a table by slot.
const maxQuickRun = 8

// quickSlot returns where the name key starts its probes in a table of
// 1<<(32-shift) slots: a hash of its length and its first, middle and
// last bytes, a few instructions where slot costs a multiply a byte.
// Names seldom agree in all four; a plan whose names do is built by slot
// instead (see fieldSet.full).
func quickSlot(key []byte, shift uint8) uint32 {
	v := uint32(len(key))
	if n := len(key); n > 0 {
		v |= uint32(key[0])<<8 | uint32(key[n/2])<<16 | uint32(key[n-1])<<24
	}
	return (v * 0x9e3779b1) >> shift
}

// slot returns where the name key starts its probes in a table of
// 1<<(32-shift) slots: its FNV-1a hash (every byte, so that names alike
// but for a few bytes still spread), mixed.
func slot(key []byte, shift uint8) uint32 {
	h := uint32(2166136261)
	for _, b := range key {
		h = (h ^ uint32(b)) * 16777619
	}
	return (h * 0x9e3779b1) >> shift
}

// find returns the index of the field named key exactly, or -1.
func (fs *fieldSet) find(key []byte) int {
	var h uint32
	if fs.full {
		h = slot(key, fs.shift)
	} else {
		h = quickSlot(key, fs.shift)
	}
	mask := uint32(len(fs.slots) - 1)
	for ; ; h = (h + 1) & mask {
		s := &fs.slots[h]
		if s.i == 0 {
			return -1
		}
		if s.name == string(key) {
			return int(s.i - 1)
		}
	}
}

// fillSlots builds fs's table of its exact names: by quickSlot, unless
// that makes a run longer than maxQuickRun, then by slot.
func (fs *fieldSet) fillSlots() {
	bits := uint8(2) // four slots a field at least: short runs
	for 1<<bits < 4*len(fs.exact) {
		bits++
	}
	fs.shift = 32 - bits
	if fs.fillSlotsBy(false); fs.longestRun() > maxQuickRun {
		fs.fillSlotsBy(true)
	}
}

// fillSlotsBy builds fs's table by slot if full, else by quickSlot.
func (fs *fieldSet) fillSlotsBy(full bool) {
	fs.slots, fs.full = make([]fieldSlot, 1<<(32-fs.shift)), full
	mask := uint32(len(fs.slots) - 1)
	for name, i := range fs.exact {
		var h uint32
		if full {
			h = slot([]byte(name), fs.shift)
		} else {
			h = quickSlot([]byte(name), fs.shift)
		}
		for fs.slots[h].i != 0 {
			h = (h + 1) & mask
		}
		fs.slots[h] = fieldSlot{name: name, i: int32(i + 1)}
	}
}

// longestRun returns the longest run of filled slots in fs's table, which
// wraps around: the most probes a key makes.
func (fs *fieldSet) longestRun() int {
	run, longest := 0, 0
	for k := range 2 * len(fs.slots) {
		if fs.slots[k%len(fs.slots)].i == 0 {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return min(longest, len(fs.slots))
}

func (c *compiler) fieldSet(t reflect.Type) (*fieldSet, error) {
	params, declined := c.rules.fields(t)
	fs := &fieldSet{
		params: params,
		nodes:  make([]*node, len(params)),
		exact:  make(map[string]int, len(params)),
	}
	if c.rules.fold {
		fs.folded = make(map[string]int, len(params))
	}
	fs.foldsMore = c.rules.foldsMore != nil && c.rules.foldsMore(t)
	if c.rules.repeatFields != nil {
		look := c.rules.repeatFields(t) // the struct's fields read once
		for i, p := range params {
			if _, _, fresh, _ := look(p.Name); !fresh {
				if fs.stale == nil {
					fs.stale = make([]bool, len(params))
				}
				fs.stale[i] = true
			}
		}
	}
	if c.rules.v2Folds != nil {
		fs.v2folded = c.rules.v2Folds(t)
		for f := range fs.v2folded {
			fs.names.addV2(f)
		}
	}
	for i, p := range params {
		if j, ok := fs.exact[p.Name]; !ok || declined == nil || !declined[i] || declined[j] {
			fs.exact[p.Name] = i // a declined field of a name displaces none the binder binds
		}
		fs.names.add(p.Name)
		if declined != nil && declined[i] {
			n, err := c.declinedNode(p.Type, false)
			if err != nil {
				return nil, err
			}
			fs.nodes[i] = n
			continue
		}
		c.path = append(c.path, p.GoName)
		// A proving pass's binder has checked its fields in its own
		// Compile; these are encoding/json's.
		if p.unsettable != "" && !c.rules.prove {
			err := c.fail("it is promoted through the embedded pointer %s to an unexported struct type, which the binder cannot allocate, so every value sent for %q fails", p.unsettable, p.Name)
			c.path = c.path[:len(c.path)-1]
			return nil, err
		}
		if why := stdTagUnsupported(p.Tag); why != "" && !c.rules.prove {
			err := c.fail("%s", why)
			c.path = c.path[:len(c.path)-1]
			return nil, err
		}
		n, err := c.provedFormat(t, p)
		if n == nil && err == nil {
			n, err = c.node(p.Type, p.Quoted)
		}
		c.path = c.path[:len(c.path)-1]
		if err != nil {
			return nil, err
		}
		fs.nodes[i] = n
		if !c.rules.fold {
			continue
		}
		f := string(foldName(nil, []byte(p.Name)))
		if _, ok := fs.folded[f]; !ok && !stdCaseStrict(p.Tag) {
			fs.folded[f] = i
			fs.maxFold = max(fs.maxFold, len(f))
		}
	}
	fs.fillSlots()
	fs.order = make([]nextSlot, len(params))
	for name, i := range fs.exact {
		fs.order[i] = newNextSlot(name, i)
	}
	return fs, nil
}
