// Package toolcache is what both MCP adapters' ServerTools do with the
// tools a server serves: keep a registry's schema record of each in step
// with the tool's current definition. Each adapter finds the definition
// its SDK's way and hands it here; this package records it from its input
// schema (typereg.RegisterSchema), compiles a schema once per definition,
// reports a tool it cannot guard once per definition, and removes the
// record of a tool the server no longer serves.
//
// A definition is known by its identity (Identity): the same identity is
// the same definition, so a call of a tool whose definition has not
// changed costs a map lookup and a comparison of a few words, never a read
// of its schema. A new identity costs one marshal of the schema, and a
// compile only when the schema's JSON differs from the one recorded.
package toolcache

import (
	"bytes"
	"math"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"unsafe"

	"github.com/bindguard/bindguard/internal/schemacheck"
	"github.com/bindguard/bindguard/internal/toolrec"
	"github.com/bindguard/bindguard/typereg"
)

// A Cache keeps reg's schema records of the tools a server serves. Its
// methods are safe for concurrent use.
type Cache struct {
	reg    *typereg.Registry
	opts   []typereg.Option
	report func(tool string, err error)

	mu    sync.Mutex
	seen  map[string]*entry
	order []string // the names in seen, in the order Sweep visits them
	next  int      // where Sweep goes on in order
}

type entry struct {
	id  Key
	raw []byte // the input schema's JSON the record was made from
	err error  // why the tool is not guarded; nil when it is recorded
	at  int    // its index in order
	// kept: Sweep passes it by (a tool served to one session, which
	// another session's sweep cannot see)
	kept bool
}

// New returns a Cache that records into reg with opts and gives report
// (when not nil) each tool it cannot guard, once per definition.
func New(reg *typereg.Registry, opts []typereg.Option, report func(tool string, err error)) *Cache {
	return &Cache{reg: reg, opts: opts, report: report, seen: map[string]*entry{}}
}

// StructRecord reports whether reg records tool name from a Go struct
// (typereg.Register, an adapter's AddTool): such a record says more than
// the schema and is never replaced, so its tool needs no lookup.
func (c *Cache) StructRecord(name string) bool {
	rec, ok := c.reg.Tool(name)
	return ok && published(rec) == nil
}

// Served makes reg's record of tool name the one of the definition id
// names. schema returns the definition's input schema as JSON; it is
// called only when id is not the identity last seen for name. A tool
// served with keep set is passed by Sweep: only Gone forgets it.
func (c *Cache) Served(name string, id Key, keep bool, schema func() ([]byte, error)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	prev, had := c.seen[name]
	if had {
		prev.kept = keep
	}
	if had && id.ok && prev.id.equal(id) {
		return
	}
	raw, err := schema()
	if had && err == nil && prev.raw != nil && bytes.Equal(raw, prev.raw) {
		prev.id = id // the same schema in a new value: nothing to compile
		return
	}
	if err == nil {
		err = c.reg.RegisterSchema(name, raw, c.opts...)
	}
	if err != nil {
		c.removeSchemaRecord(name)
		if c.report != nil {
			c.report(name, err)
		}
	}
	if !had {
		prev = &entry{at: len(c.order), kept: keep}
		c.seen[name] = prev
		c.order = append(c.order, name)
	}
	prev.id, prev.raw, prev.err = id, raw, err
}

// Gone forgets tool name: the server no longer serves it, so its schema
// record goes (a struct record stays: it is the owner's).
func (c *Cache) Gone(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.forget(name)
}

// Sweep visits up to n of the tools the cache records, going on each time
// where it stopped, and forgets those served reports the server no longer
// serves. An adapter whose SDK answers a call of a removed tool itself,
// before any middleware sees it, sweeps a little on each call: a record
// the cache made is then forgotten within a number of calls proportional
// to the records it holds, at a cost per call that does not grow with
// them.
func (c *Cache) Sweep(n int, served func(name string) bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for range min(n, len(c.order)) {
		if c.next >= len(c.order) {
			c.next = 0
		}
		name := c.order[c.next]
		if c.seen[name].kept || served(name) {
			c.next++
			continue
		}
		c.forget(name) // the last name moves to c.next: visit it next
	}
}

// forget removes name from the cache and its schema record from reg; c.mu
// is held.
func (c *Cache) forget(name string) {
	e, ok := c.seen[name]
	if !ok {
		return
	}
	last := len(c.order) - 1
	c.order[e.at] = c.order[last]
	c.seen[c.order[e.at]].at = e.at
	c.order = c.order[:last]
	delete(c.seen, name)
	c.removeSchemaRecord(name)
}

// published reads a record's compiled schema in place (internal/toolrec):
// nil for a tool recorded from a Go struct.
var published = toolrec.Published.(func(*typereg.Tool) *schemacheck.Schema)

func (c *Cache) removeSchemaRecord(name string) {
	if rec, ok := c.reg.Tool(name); ok && published(rec) != nil {
		c.reg.Remove(name)
	}
}

// Len returns the number of tools the cache records (for tests).
func (c *Cache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.seen)
}

// A Key is a definition's identity (see Identity).
type Key struct {
	words string         // the walk's words: addresses, lengths, scalar bits
	types []reflect.Type // the dynamic types the walk met, in order
	ok    bool
	// hold keeps the values alive while their identity is kept, so that
	// no address in words is reused by another value meanwhile.
	hold []any
}

func (k Key) equal(o Key) bool {
	return k.ok && o.ok && k.words == o.words && slices.Equal(k.types, o.types)
}

// maxIdentityWords bounds the walk of a value's inline parts (structs and
// arrays, never what a pointer, map or slice refers to): past it the value
// has no identity and is compared by its JSON.
const maxIdentityWords = 256

// Identity returns the identity of the values a definition is made of,
// read without reading what they refer to: a pointer, map or slice is
// known by its address and length, a string by its address and length, a
// number or bool by its value, a struct, array or interface by its parts.
// Two equal identities hold the same definition as long as no value a
// definition refers to is changed in place once the tool is served (go-sdk
// and mcp-go read them concurrently, so such a change is a data race
// anyway); a schema changed so is seen when the tool is added again with
// a new value. A value with a func or channel in it, or with more inline
// parts than a schema has, has no identity (Key.ok is false): its
// definition is compared by its JSON on each call.
func Identity(vs ...any) Key {
	w := walker{buf: make([]byte, 0, 64)}
	for _, v := range vs {
		w.value(reflect.ValueOf(v))
	}
	return Key{words: string(w.buf), types: w.types, ok: !w.fail, hold: vs}
}

type walker struct {
	buf   []byte
	types []reflect.Type
	words int
	fail  bool
}

func (w *walker) word(u uint64) {
	w.words++
	if w.words > maxIdentityWords {
		w.fail = true
		return
	}
	w.buf = strconv.AppendUint(w.buf, u, 36)
	w.buf = append(w.buf, ' ')
}

func (w *walker) value(v reflect.Value) {
	if w.fail {
		return
	}
	if !v.IsValid() {
		w.word(0)
		return
	}
	w.types = append(w.types, v.Type())
	w.value1(v)
}

func (w *walker) value1(v reflect.Value) {
	if w.fail {
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		if v.Bool() {
			w.word(1)
		} else {
			w.word(0)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		w.word(uint64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		w.word(v.Uint())
	case reflect.Float32, reflect.Float64:
		w.word(math.Float64bits(v.Float()))
	case reflect.Complex64, reflect.Complex128:
		w.word(math.Float64bits(real(v.Complex())))
		w.word(math.Float64bits(imag(v.Complex())))
	case reflect.String:
		s := v.String()
		w.word(uint64(uintptr(unsafe.Pointer(unsafe.StringData(s)))))
		w.word(uint64(len(s)))
	case reflect.Pointer, reflect.UnsafePointer:
		w.word(uint64(uintptr(v.UnsafePointer())))
	case reflect.Map:
		w.word(uint64(uintptr(v.UnsafePointer())))
		w.word(uint64(v.Len()))
	case reflect.Slice:
		w.word(uint64(uintptr(v.UnsafePointer())))
		w.word(uint64(v.Len()))
	case reflect.Array:
		for i := range v.Len() {
			w.value1(v.Index(i))
		}
	case reflect.Struct:
		for i := range v.NumField() {
			w.value1(v.Field(i))
		}
	case reflect.Interface:
		w.value(v.Elem())
	default: // func, chan
		w.fail = true
	}
}
