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
	if uint(i) >= uint(len(d)) {
		return KindInvalid
	}
	return kinds[d[i]]
}

// kinds is KindAt's answer for each first byte.
var kinds = func() (t [256]Kind) {
	for _, k := range []Kind{KindNull, KindFalse, KindTrue, KindString, KindObject, KindArray} {
		t[k] = k
	}
	t['-'] = KindNumber
	for c := '0'; c <= '9'; c++ {
		t[c] = KindNumber
	}
	return t
}()

// closer is the byte that closes an object or array of kind k: '}' is
// '{'+2, ']' is '['+2.
func closer(k Kind) byte { return byte(k) + 2 }

// Open reads the '{' or '[' at d[i] and the white space after it. It
// returns the offset of the first member's key or the first element
// (more true) or, for an empty object or array, the offset past its
// closing brace or bracket (more false). ok is false, next the offending
// byte, when d[i] opens neither or the text ends first.
func Open(d []byte, i int) (next int, more, ok bool) {
	if k := KindAt(d, i); k == KindObject || k == KindArray {
		return First(d, i+1, k)
	}
	return i, false, false
}

// First is Open for a walker that has read the '{' or '[' itself (it
// knows the kind k, from KindAt, and the byte ends just before d[i]): it
// reads the white space after it, then finds the first member's key or
// element (more true, next its offset) or k's closing brace or bracket
// (more false, next past it). ok is false, next the offending byte (the
// text's end), when the text ends first.
func First(d []byte, i int, k Kind) (next int, more, ok bool) {
	if i = Space(d, i); i < len(d) {
		if d[i] == closer(k) {
			return i + 1, false, true
		}
		return i, true, true
	}
	return i, false, false
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
	if value, ok = Colon(d, end); !ok {
		return Span{}, f, value, false
	}
	return Span{Start: i, End: end}, f, value, true
}

// Colon reads what follows a member's key that ends just before d[i]:
// white space, the colon, and the white space after it. It returns the
// offset of the member's value; ok is false, value the offending byte, on
// anything else. A walker that reads the key itself (with String, to act
// on it before the colon) steps past it with Colon, as Key does.
func Colon(d []byte, i int) (value int, ok bool) {
	j := Space(d, i)
	if j >= len(d) || d[j] != ':' {
		return j, false
	}
	return Space(d, j+1), true
}

// Next reads what follows a member's value or an element that ends just
// before d[i], inside an object or array of kind k: white space, then a
// comma and the white space after it (more true, next the offset of the
// following key or element) or k's closing brace or bracket (more false,
// next past it). ok is false, next the offending byte, on anything else.
func Next(d []byte, i int, k Kind) (next int, more, ok bool) {
	if i = Space(d, i); i < len(d) {
		if d[i] == ',' {
			return Space(d, i+1), true, true
		}
		if d[i] == closer(k) {
			return i + 1, false, true
		}
	}
	return i, false, false
}
