package bind

import (
	"reflect"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/decoders"
	"github.com/bindguard/bindguard/internal/jsonlex"
)

// The capabilities of each binder (see package bindcap), as unexported
// methods of the sealed binders: what they read where binders differ,
// asked by the packages that must never tell binders apart by name.

// A capable binder says what it reads: every Binder is one, so a binder
// added without its capabilities does not compile.
type capable interface {
	caps() bindcap.Caps
	readsLiteral() bool
	duplicateName(err error) (name string, quoted []byte, ok bool)
}

func (stdBinder) caps() bindcap.Caps { return bindcap.Caps{} }

func (v2Binder) caps() bindcap.Caps {
	c := bindcap.Caps{Number: bindcap.NumberAsText, Duration: bindcap.DurationNever, V2Unmarshal: true}
	if jsonv2Build {
		c.Number = bindcap.NumberOrNumericText // json.Number reads itself (UnmarshalJSONFrom)
	}
	return c
}

func (segmentioBinder) caps() bindcap.Caps {
	return bindcap.Caps{Number: bindcap.NumberOnly, Duration: bindcap.DurationNanosecondsOrText}
}

// A Reader takes its parameters as encoding/json does, whatever its name.
func (*readerBinder) caps() bindcap.Caps { return bindcap.Caps{} }

func (stdBinder) readsLiteral() bool       { return true }
func (v2Binder) readsLiteral() bool        { return true }
func (segmentioBinder) readsLiteral() bool { return true }
func (*readerBinder) readsLiteral() bool   { return false }

// duplicateName: of the binders bind mirrors, only V2 refuses a repeated
// name, with an error of its own; a server's own function may return that
// error too (one built on V2), told apart when go-json-experiment is
// linked through bind/jsonv2, whose error it then is.
func (stdBinder) duplicateName(error) (string, []byte, bool)       { return "", nil, false }
func (segmentioBinder) duplicateName(error) (string, []byte, bool) { return "", nil, false }
func (*readerBinder) duplicateName(err error) (string, []byte, bool) {
	if decoders.V2 == nil {
		return "", nil, false
	}
	return v2Binder{}.duplicateName(err)
}
func (v2Binder) duplicateName(err error) (string, []byte, bool) {
	name, ok := decoders.V2.DuplicateName(err)
	if !ok {
		return "", nil, false
	}
	return name, decoders.V2.AppendQuote(nil, name), true
}

func init() {
	// The binders bind/jsonv2 and bind/segmentio export.
	decoders.V2Binder, decoders.SegmentIOBinder = Binder(v2Binder{}), Binder(segmentioBinder{})
	// b is a Binder (the callers hold one), or nil: no binder, no
	// capability beyond encoding/json's.
	bindcap.ReadsLiteral = func(b any) bool {
		c, ok := b.(capable)
		return ok && c.readsLiteral()
	}
	bindcap.DuplicateName = func(b any, err error) (string, []byte, bool) {
		if c, ok := b.(capable); ok {
			return c.duplicateName(err)
		}
		return "", nil, false
	}
	bindcap.Field = func(p any, st reflect.Type, raw []byte) ([]int, reflect.StructTag, bool, bool) {
		plan, ok := p.(*Plan)
		if !ok || plan == nil {
			return nil, "", false, false
		}
		return plan.field(st, raw)
	}
	bindcap.Of = func(b any) bindcap.Caps {
		if c, ok := b.(capable); ok {
			return c.caps()
		}
		return bindcap.Caps{}
	}
}

// field is bindcap.Field: the plan's compiled positions hold the field set
// of every struct type they read, by the binder's rules.
func (p *Plan) field(st reflect.Type, raw []byte) (index []int, tag reflect.StructTag, ok, known bool) {
	end, f, valid := jsonlex.String(raw, 0)
	if len(raw) < 2 || !valid || end != len(raw) {
		return nil, "", false, false
	}
	fs := p.fieldSetOf(st)
	if fs == nil {
		return nil, "", false, false
	}
	i, _ := fs.lookup(raw, f&jsonlex.Escaped != 0)
	if i < 0 {
		return nil, "", false, true
	}
	index = fs.params[i].Index
	return index, st.FieldByIndex(index).Tag, true, true // the Go field's own tag (a proving pass's field rules keep none)
}

// fieldSetOf returns the field set of a struct position of type st among
// the plan's compiled positions, or nil: a plan without them (a Reader's),
// or one that reads no struct of that type (or declines its position).
func (p *Plan) fieldSetOf(st reflect.Type) *fieldSet {
	seen := map[*node]bool{}
	var walk func(n *node) *fieldSet
	walk = func(n *node) *fieldSet {
		if n == nil || seen[n] {
			return nil
		}
		seen[n] = true
		if fs := walk(n.elem); fs != nil {
			return fs
		}
		if n.kind != kStruct {
			return nil
		}
		if n.typ == st {
			return n.fields
		}
		for _, c := range n.fields.nodes {
			if fs := walk(c); fs != nil {
				return fs
			}
		}
		return nil
	}
	return walk(p.root)
}
