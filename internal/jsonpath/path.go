// Package jsonpath holds the one form of a path into a call's arguments:
// the steps from the arguments object to an offending value, bounded, and
// its one renderer, which writes both the readable path a refusal's text
// shows (".a[2]", `["odd key"]`) and the RFC 6901 JSON Pointer its JSON
// carries ("/a/2"). Package bind builds paths as it reads (bind.Path wraps
// one), package schemacheck likewise; package refuse reads their steps,
// never their text.
//
// # Bounds
//
// A path costs the same at any depth and for any key: past MaxSteps steps
// inside the argument it keeps the first Head and the last Tail, and an
// elision between ("[…]" in the readable form); each key keeps its first
// MaxKey characters, and is marked cut ("…" in the readable form) past
// them. The readable form shows the bound; a JSON Pointer cannot show one
// without naming another place in the document, so a path that is elided
// or holds a cut key (the argument's own key included) has no pointer:
// Pointer returns "", and a refusal then names the place by its readable
// path alone. "" never names a located value: every located problem lies
// in some argument, whose pointer is at least "/" and its key.
//
// # Readable form
//
// Each step inside the argument: "[2]" into an array's element, ".name"
// into an object's member whose key is a plain name (letters, digits, _,
// at most MaxKey), and `["key"]` for any other key, quoted as
// strconv.Quote does, but with the single quote and the ellipsis escaped
// (\u0027, \u2026), so the text of a key can neither end the quotes a
// refusal puts around a name nor fake a cut: every "…" in a readable path
// is a bound. The argument's own key is not shown: a refusal names the
// argument by the parameter's name.
package jsonpath

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

const (
	// Head and Tail are the steps a path keeps past MaxSteps.
	Head     = 4
	Tail     = 8
	MaxSteps = Head + Tail
	// MaxKey is how many characters of a key a path keeps.
	MaxKey = 40
	// Elided is the readable form of the steps a path leaves out.
	Elided = "[…]"
)

// Tags of the encoded steps. Each step is a tag byte, a length byte, and
// as many bytes of payload: an index in decimal, or a key's decoded text
// (at most MaxKey characters, so at most maxPayload bytes).
const (
	tagArg    = 'a' // the argument's own key, decoded (its head, when cut)
	tagArgCut = 'A'
	tagIndex  = 'i'
	tagKey    = 'k'
	tagKeyCut = 'K'
	tagElided = 'e'
)

const (
	maxPayload = MaxKey * utf8.UTFMax
	// MaxBytes bounds an encoded path: the argument's key, MaxSteps steps
	// and an elision.
	MaxBytes = (MaxSteps+1)*(2+maxPayload) + 2
)

// A Path leads from the arguments object to a value inside it: the
// argument's key, as sent, then the steps inside the argument's value.
// The zero Path is no location (the arguments as a whole). A Path is a
// comparable value, the size of a string. A path to an argument's own
// value keeps the argument's key as the JSON token sent, read from the
// arguments the path was built on (not copied: it allocates nothing),
// which must not change while the path is used (written over, they read
// as whatever they hold then, a step of no sense or none, never a panic);
// a path with steps holds its own copy of everything, in one allocation.
type Path struct {
	// s is the encoded steps, the argument's key first (tagArg); or, for
	// a path to an argument's own value, the key's JSON token itself (it
	// starts with '"', which no tag is).
	s string
}

// A Builder writes a Path step by step, with no allocation until Path.
// Its zero value is an empty path; it must not be copied once used.
type Builder struct {
	buf [MaxBytes]byte
	n   int
	arg []byte // the argument's key token, when set
	// Read counts the bytes of keys the builder read: the cost of the
	// path, which is bounded whatever the key.
	Read int
}

func (b *Builder) put(tag byte, payload []byte) {
	b.buf[b.n], b.buf[b.n+1] = tag, byte(len(payload))
	b.n += 2 + copy(b.buf[b.n+2:], payload)
}

// Arg sets the argument's own key, raw its JSON string token in the
// arguments (kept, not copied, for a path with no step; read, bounded as
// any key, for one with steps). It must come before the steps.
func (b *Builder) Arg(raw []byte) {
	b.arg = raw
	var tb [keyRoom]byte
	text, cut := b.keyHead(tb[:0], raw)
	b.putKey(tagArg, tagArgCut, text, cut)
}

// Index writes the step into an array's element i.
func (b *Builder) Index(i int) {
	var nb [20]byte
	b.put(tagIndex, strconv.AppendInt(nb[:0], int64(i), 10))
}

// Key writes the step into the member whose key is raw, its JSON string
// token (quotes included). It reads only as much of raw as the step
// keeps: a key of a megabyte costs what one of 41 characters does.
func (b *Builder) Key(raw []byte) {
	var tb [keyRoom]byte
	text, cut := b.keyHead(tb[:0], raw)
	b.putKey(tagKey, tagKeyCut, text, cut)
}

// Name writes the step into the member named name (text, not JSON).
func (b *Builder) Name(name string) {
	text, cut := cutKey([]byte(name))
	b.putKey(tagKey, tagKeyCut, text, cut)
}

// Elide writes the elision of the steps a bounded path leaves out.
func (b *Builder) Elide() { b.put(tagElided, nil) }

// Path returns the path written.
func (b *Builder) Path() Path {
	switch {
	case b.n == 0:
		return Path{}
	case b.arg != nil && b.n == 2+int(b.buf[1]):
		return Path{unsafeString(b.arg)} // the argument alone: no copy
	}
	return Path{string(b.buf[:b.n])}
}

func (b *Builder) putKey(whole, cutTag byte, text []byte, cut bool) {
	if cut {
		b.put(cutTag, text)
	} else {
		b.put(whole, text)
	}
}

// keyHead returns the decoded text of the first MaxKey characters of the
// key token raw, and whether raw holds more, in dst's array.
func (b *Builder) keyHead(dst, raw []byte) ([]byte, bool) {
	text, cut, read := keyHead(dst, raw)
	b.Read += read
	return text, cut
}

// keyHead appends to dst the decoded text of the first MaxKey characters
// of the key token raw (dst needs room for keyRoom bytes to append without
// growing), and returns it, whether raw holds more, and the bytes it read.
// Text that is not a key token reads as no text.
func keyHead(dst, raw []byte) (text []byte, cut bool, read int) {
	if len(raw) < 2 {
		return dst, false, len(raw)
	}
	if len(raw)-2 <= MaxKey {
		// A token of plain ASCII: its text is its bytes, a character each.
		if end, f, ok := jsonlex.String(raw, 0); ok && end == len(raw) && f == 0 {
			return append(dst, raw[1:end-1]...), false, end
		}
	}
	end, more := jsonlex.CutString(raw, MaxKey)
	var kb [MaxKey*12 + 2]byte // MaxKey characters, each at most a surrogate pair's two escapes
	prefix := append(append(kb[:0], raw[:end]...), '"')
	text, _ = jsonlex.Unquote(dst, prefix)
	text, cut = cutKey(text)
	return text, cut || more, end + 1
}

// keyRoom is the most keyHead appends: 2*(MaxKey+1) characters' worth.
const keyRoom = 2*(MaxKey+1)*utf8.UTFMax + 8

// cutKey cuts text to its first MaxKey characters, and reports whether it
// held more.
func cutKey(text []byte) ([]byte, bool) {
	n := 0
	for i := range unsafeString(text) {
		if n == MaxKey {
			return text[:i], true
		}
		n++
	}
	return text, false
}

// token reports whether p is the key token of an argument alone (a path
// to the argument's own value), not encoded steps: the first byte of
// encoded steps is a tag.
func (p Path) token() bool {
	if p.s == "" {
		return false
	}
	switch p.s[0] {
	case tagArg, tagArgCut, tagIndex, tagKey, tagKeyCut, tagElided:
		return false
	}
	return true
}

// A Step is one step of a path, as Steps yields it.
type Step struct {
	// Index is the element's index, when IsKey is false.
	Index int
	// IsKey reports a step into a member, whose key is Key: its decoded
	// text, or its first MaxKey characters when Cut.
	IsKey bool
	Key   string
	Cut   bool
	// Elided reports the steps a bounded path leaves out.
	Elided bool
}

// each calls f for each encoded step, the argument's key included.
func (p Path) each(f func(tag byte, payload string) bool) {
	if p.token() { // the argument alone, as sent
		var tb [keyRoom]byte
		text, cut, _ := keyHead(tb[:0], unsafe.Slice(unsafe.StringData(p.s), len(p.s))) // read only
		tag := byte(tagArg)
		if cut {
			tag = tagArgCut
		}
		f(tag, string(text))
		return
	}
	for i := 0; i+1 < len(p.s); {
		tag, n := p.s[i], int(p.s[i+1])
		if i+2+n > len(p.s) {
			return // no encoding: the arguments a token viewed were written over (see Path)
		}
		if !f(tag, p.s[i+2:i+2+n]) {
			return
		}
		i += 2 + n
	}
}

// Steps calls yield for each step inside the argument, in order.
func (p Path) Steps(yield func(Step) bool) {
	p.each(func(tag byte, payload string) bool {
		switch tag {
		case tagIndex:
			i, _ := strconv.Atoi(payload)
			return yield(Step{Index: i})
		case tagKey, tagKeyCut:
			return yield(Step{IsKey: true, Key: payload, Cut: tag == tagKeyCut})
		case tagElided:
			return yield(Step{Elided: true})
		}
		return true // the argument's key
	})
}

// Inside reports whether the path has steps inside the argument: its
// readable form is not empty.
func (p Path) Inside() bool {
	inside := false
	if p.s != "" && !p.token() {
		p.each(func(tag byte, _ string) bool {
			inside = tag != tagArg && tag != tagArgCut
			return !inside
		})
	}
	return inside
}

// Last returns the path's last step inside the argument, if any.
func (p Path) Last() (last Step, ok bool) {
	p.Steps(func(st Step) bool {
		last, ok = st, true
		return true
	})
	return last, ok
}

// Key returns p with one more step, into the member whose key is raw (a
// JSON string token), bounded: past MaxSteps, the step is elided.
func (p Path) Key(raw []byte) Path {
	var b Builder
	return p.extend(&b, func() { b.Key(raw) })
}

// Name returns p with one more step, into the member named name, bounded
// as Key is.
func (p Path) Name(name string) Path {
	var b Builder
	return p.extend(&b, func() { b.Name(name) })
}

// Index returns p with one more step, into an array's element i, bounded
// as Key is.
func (p Path) Index(i int) Path {
	var b Builder
	return p.extend(&b, func() { b.Index(i) })
}

// ArgPath returns the path to the value of the argument whose key is raw,
// a JSON string token in the arguments (kept, not copied).
func ArgPath(raw []byte) Path {
	if len(raw) < 2 {
		return Path{}
	}
	return Path{unsafeString(raw)}
}

func (p Path) extend(b *Builder, step func()) Path {
	steps, elided := 0, false
	p.each(func(tag byte, _ string) bool {
		switch tag {
		case tagArg, tagArgCut:
		case tagElided:
			elided = true
		default:
			steps++
		}
		return true
	})
	// The path shows its first Head steps and its last Tail: past
	// MaxSteps, the step added is the last, and the first of the tail
	// joins the elided.
	full := elided || steps >= MaxSteps
	d := 0
	p.each(func(tag byte, payload string) bool {
		switch {
		case tag == tagArg || tag == tagArgCut:
			b.put(tag, []byte(payload))
		case tag == tagElided:
		case full && d == Head:
			b.Elide()
			d++
		default:
			b.put(tag, []byte(payload))
			d++
		}
		return true
	})
	step()
	return b.Path()
}

// String returns the readable form of the path (see the package
// documentation): "" when the argument itself is the place.
func (p Path) String() string {
	if !p.Inside() {
		return ""
	}
	var buf [256]byte // most paths: one allocation, the string
	out := buf[:0]
	p.each(func(tag byte, payload string) bool {
		switch tag {
		case tagIndex:
			out = append(append(append(out, '['), payload...), ']')
		case tagElided:
			out = append(out, Elided...)
		case tagKey, tagKeyCut:
			out = appendReadable(out, payload, tag == tagKeyCut)
		}
		return true
	})
	return string(out)
}

// Readable renders one step into the member whose key is text (its first
// MaxKey characters, when cut): ".name" for a plain name, `["key"]`
// otherwise, as the package documentation says.
func Readable(text string, cut bool) string {
	return string(appendReadable(nil, text, cut))
}

// appendReadable appends Readable's text to dst.
func appendReadable(dst []byte, text string, cut bool) []byte {
	if !cut && isIdent(text) {
		return append(append(dst, '.'), text...)
	}
	return append(append(append(dst, '['), QuoteKey(text, cut)...), ']')
}

// QuoteKey quotes a key's text as a readable path does (with "…" before
// the closing quote when cut): the form a refusal names a field by.
func QuoteKey(text string, cut bool) string {
	q := strconv.Quote(text)
	if strings.ContainsAny(q, "'…") {
		q = strings.NewReplacer("'", `\u0027`, "…", `\u2026`).Replace(q)
	}
	if cut {
		q = q[:len(q)-1] + `…"`
	}
	return q
}

// Pointer returns the path as an RFC 6901 JSON Pointer from the root of
// the arguments: the argument's key as sent, then each step, "~" written
// "~0" and "/" written "~1". It returns "" for the zero Path, and for a
// path its bounds cut short (see the package documentation), which a
// pointer cannot show.
func (p Path) Pointer() string {
	var buf [2 * MaxBytes]byte // every byte escaped: no growth, one copy
	out, ok := p.AppendPointer(buf[:0])
	if !ok {
		return ""
	}
	return string(out)
}

// AppendPointer appends Pointer's text to dst, and reports whether there
// is one (false for the zero Path and a path cut short, dst unchanged):
// with room for 2*MaxBytes bytes in dst it allocates nothing.
func (p Path) AppendPointer(dst []byte) ([]byte, bool) {
	out := dst
	if p.token() { // the argument alone, as sent
		var tb [keyRoom]byte
		text, cut, _ := keyHead(tb[:0], unsafe.Slice(unsafe.StringData(p.s), len(p.s))) // read only
		if cut {
			return dst, false
		}
		return appendToken(append(out, '/'), text), true
	}
	ok, first := true, true
	p.each(func(tag byte, payload string) bool {
		if first && tag != tagArg || tag == tagArgCut || tag == tagKeyCut || tag == tagElided {
			ok = false // no argument, or a bound cut the path short
			return false
		}
		first = false
		out = appendToken(append(out, '/'), unsafe.Slice(unsafe.StringData(payload), len(payload)))
		return true
	})
	if !ok || p.s == "" {
		return dst, false
	}
	return out, true
}

// appendToken appends a pointer's token for the key text: "~" written
// "~0" and "/" written "~1".
func appendToken(out, text []byte) []byte {
	for _, c := range text {
		switch c {
		case '~':
			out = append(out, "~0"...)
		case '/':
			out = append(out, "~1"...)
		default:
			out = append(out, c)
		}
	}
	return out
}

func isIdent(s string) bool {
	if len(s) == 0 || len(s) > MaxKey {
		return false
	}
	for _, c := range []byte(s) {
		if !(c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}

func unsafeString(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}
