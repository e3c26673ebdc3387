package bind

import "github.com/bindguard/bindguard/internal/bindcap"

// The capabilities of each binder (see package bindcap), as unexported
// methods of the sealed binders: what they read where binders differ,
// asked by the packages that must never tell binders apart by name.

// A capable binder says what it reads: every Binder is one, so a binder
// added without its capabilities does not compile.
type capable interface {
	caps() bindcap.Caps
	readsLiteral() bool
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

func init() {
	// b is a Binder (the callers hold one), or nil: no binder, no
	// capability beyond encoding/json's.
	bindcap.ReadsLiteral = func(b any) bool {
		c, ok := b.(capable)
		return ok && c.readsLiteral()
	}
	bindcap.Of = func(b any) bindcap.Caps {
		if c, ok := b.(capable); ok {
			return c.caps()
		}
		return bindcap.Caps{}
	}
}
