package bindtest

import (
	"bytes"
	_ "embed"
	"slices"
	"sync"
)

// A Row is one value sent for a parameter of one Go type, and what the
// binder and the guard do with it.
type Row struct {
	// Type names the parameter's Go type as reflect's Type.String writes
	// it, except that a named type declared in the package of the tool's
	// parameter struct is written without its package qualifier (Nested,
	// *Nested, []Color); any, interface{} and byte may stand for
	// interface {} and uint8.
	Type string
	// Value is the value sent, as raw JSON text, so that its digits and
	// escapes reach the binder exactly as written.
	Value string
	// Refused says whether the binder fails on the value, and so whether
	// the guard must refuse it.
	Refused bool
	// NoVerdict marks a row that states no verdict (a table row without
	// "refused"): Refused is ignored, and the row holds when the binder and
	// the guard agree, whichever way.
	NoVerdict bool
	// Says is a phrase a refusal of the value must contain, such as
	// "which is too large"; empty for none.
	Says string
	// Why is the reason the row is in the table, for the people reading it.
	Why string
}

//go:embed table.json
var defaultTable []byte

var parsedDefault = sync.OnceValue(func() []Row {
	rows, err := ReadTable(bytes.NewReader(defaultTable))
	if err != nil {
		panic("bindtest: the default table is malformed: " + err.Error())
	}
	return rows
})

// Default returns a copy of the project's own value table: several hundred
// rows over the vocabulary of types the probe tool declares (every integer
// and float kind, bool, string, pointers, slices, arrays, maps, []byte,
// json.Number, json.RawMessage, any, time.Time, time.Duration, a struct, a
// text enum, a type with its own UnmarshalJSON and a ,string field), each
// with the verdict encoding/json really gives. It is the table bindprobe
// runs when given none.
func Default() []Row {
	return slices.Clone(parsedDefault())
}
