package refuse

import (
	"encoding/json"
	"reflect"
	"strconv"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/typereg"
)

// becomes says, for a silent loss in value v, what the tool reads instead:
// v decoded into the position's type and written back as JSON, quoted as
// Sent is. It is empty when that cannot be shown.
func becomes(v []byte, is bind.Issue) (s string) {
	if is.Type == nil {
		return ""
	}
	switch is.Kind {
	case bind.WrappedNumber:
		return wrappedTo(v, is.Type)
	case bind.ReplacedText:
		// The text the binder reads, U+FFFD in place, whatever reads it
		// (a string, a key, a type's UnmarshalText): the type's own
		// rendering of what it made of it is not what the caller sent.
		var text string
		if json.Unmarshal(v, &text) != nil {
			return ""
		}
		if is.Quoted && json.Unmarshal([]byte(text), &text) != nil { // a ,string field's: the text inside
			return ""
		}
		out, _ := json.Marshal(text)
		return quoteSent(out)
	}
	defer func() {
		if recover() != nil { // a type's own methods panicked
			s = ""
		}
	}()
	if is.Kind == bind.NullForValue {
		// null, a ,string field's "null" or segmentio's integer key
		// "null": the binder leaves the zero value, as it does for null.
		v = []byte("null")
	}
	p := reflect.New(is.Type)
	if json.Unmarshal(v, p.Interface()) != nil {
		return ""
	}
	out, err := json.Marshal(p.Elem().Interface())
	if err != nil {
		return ""
	}
	return quoteSent(out)
}

// foldedTo names the parameter a top-level key folded to; nested keys name
// a field the issue does not carry.
func foldedTo(t *typereg.Tool, is bind.Issue) string {
	if is.Path.String() != "" {
		return ""
	}
	return recParams(t)[is.Param].Name
}

// wrappedTo is the number the binder reads for v, a whole number it wraps
// (bind.WrappedNumber: a JSON number, or the JSON string of a ,string
// field or of a map key holding one) into integer type t: segmentio's
// parse, digit by digit in wrapping 64-bit arithmetic, leaves the number
// modulo 2^64, which fits t (else it fails). Linear in v, however long.
func wrappedTo(v []byte, t reflect.Type) string {
	text := string(v)
	var quoted string
	if json.Unmarshal(v, &quoted) == nil {
		text = quoted
	}
	var n uint64
	for _, ch := range text {
		if ch < '0' || ch > '9' {
			return ""
		}
		n = n*10 + uint64(ch-'0')
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(int64(n), 10)
	}
	return strconv.FormatUint(n, 10)
}
