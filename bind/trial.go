package bind

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sync"
)

// trialBufs holds the buffers trial decodes build their one-field objects in.
var trialBufs = sync.Pool{New: func() any { return new([]byte) }}

// A PanicError reports that a type's own decoding method panicked while the
// guard tried a value. The binder would have panicked on the same value.
type PanicError struct {
	Type  reflect.Type
	Value any // what the method panicked with
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("bind: decoding into %v panicked: %v", e.Type, e.Value)
}

// trial decodes the value text[start:end] with the binder into a fresh
// value of n's type, as the binder decodes a field of that type (n.trial
// wraps the type in a one-field struct), and records an issue if it fails.
func (c *checker) trial(n *node, start, end int) {
	if err := decodeTrial(c.binder, n, c.data[start:end]); err != nil {
		kind := Rejected
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			kind = WrongType
		}
		n0 := len(c.issues)
		c.issue(kind, n, start, end)
		if len(c.issues) > n0 {
			c.issues[n0].Err = err
		}
	}
}

func decodeTrial(b Binder, n *node, value []byte) (err error) {
	bp := trialBufs.Get().(*[]byte)
	buf := append(append(append((*bp)[:0], `{"F":`...), value...), '}')
	defer func() {
		if r := recover(); r != nil {
			err = &PanicError{Type: n.typ, Value: r}
		}
		if cap(buf) <= 1<<16 { // keep small buffers only
			*bp = buf[:0]
			trialBufs.Put(bp)
		}
	}()
	return b.Unmarshal(buf, reflect.New(n.trial).Interface())
}
