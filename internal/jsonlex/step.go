package jsonlex

// A walker that reads each value itself (one pass, any depth) steps
// through objects and arrays with Open, Key and Next, and asks KindAt
// what a value is before reading it. Each step reports the offending
// byte's offset on text that does not fit, as Skip does: a walker built
// on them finds text invalid where encoding/json does (their fuzz target
// checks this).

// A Kind is the kind of value a token starts, named by its first byte as
// go-json-experiment's jsontext.Kind is ('0' for any number).
type Kind byte

const (
	KindInvalid Kind = 0 // no value starts here
	KindNull    Kind = 'n'
	KindFalse   Kind = 'f'
	KindTrue    Kind = 't'
	KindString  Kind = '"'
	KindNumber  Kind = '0'
	KindObject  Kind = '{'
	KindArray   Kind = '['
)

// KindAt returns the kind of the value whose first byte is d[i], judged by
// that byte alone: KindInvalid past the text or where no value starts.
func KindAt(d []byte, i int) Kind {
	if i < 0 || i >= len(d) {
		return KindInvalid
	}
	switch c := d[i]; {
	case c == 'n' || c == 'f' || c == 't' || c == '"' || c == '{' || c == '[':
		return Kind(c)
	case c == '-' || '0' <= c && c <= '9':
		return KindNumber
	}
	return KindInvalid
}

// closer is the byte that closes an object or array of kind k.
func closer(k Kind) byte {
	if k == KindObject {
		return '}'
	}
	return ']'
}

// Open reads the '{' or '[' at d[i] and the white space after it. It
// returns the offset of the first member's key or the first element
// (more true) or, for an empty object or array, the offset past its
// closing brace or bracket (more false). ok is false, next the offending
// byte, when d[i] opens neither or the text ends first.
func Open(d []byte, i int) (next int, more, ok bool) {
	k := KindAt(d, i)
	if k != KindObject && k != KindArray {
		return i, false, false
	}
	j := Space(d, i+1)
	if j >= len(d) {
		return j, false, false
	}
	if d[j] == closer(k) {
		return j + 1, false, true
	}
	return j, true, true
}

// Key reads the member key at d[i] (a string token), the colon after it
// and the white space around that: it returns the key token's span, what
// the key holds, and the offset of the member's value. ok is false, value
// the offending byte, on text that is no key and colon.
func Key(d []byte, i int) (key Span, f StringFlags, value int, ok bool) {
	if KindAt(d, i) != KindString {
		return Span{}, 0, i, false
	}
	end, f, ok := String(d, i)
	if !ok {
		return Span{}, f, end, false
	}
	j := Space(d, end)
	if j >= len(d) || d[j] != ':' {
		return Span{}, f, j, false
	}
	return Span{Start: i, End: end}, f, Space(d, j+1), true
}

// Next reads what follows a member's value or an element that ends just
// before d[i], inside an object or array of kind k: white space, then a
// comma and the white space after it (more true, next the offset of the
// following key or element) or k's closing brace or bracket (more false,
// next past it). ok is false, next the offending byte, on anything else.
func Next(d []byte, i int, k Kind) (next int, more, ok bool) {
	j := Space(d, i)
	switch {
	case j >= len(d):
		return j, false, false
	case d[j] == ',':
		return Space(d, j+1), true, true
	case d[j] == closer(k):
		return j + 1, false, true
	}
	return j, false, false
}
