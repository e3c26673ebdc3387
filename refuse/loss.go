package refuse

import (
	"encoding/json"
	"reflect"

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
	defer func() {
		if recover() != nil { // a type's own methods panicked
			s = ""
		}
	}()
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
