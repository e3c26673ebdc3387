package bind

import (
	"encoding/json"
	"reflect"
)

// A Binder is the JSON decoder a server binds tool arguments with. The guard
// mirrors the binder it is given: which keys it binds to which fields, and
// which values it reads into each field's type.
//
// Binder is sealed: only this package's binders implement it, because each
// needs a mirror (its compiled plans) written against its exact behaviour.
type Binder interface {
	// Name is the binder's short name ("std").
	Name() string

	// Unmarshal decodes data into v exactly as the server does.
	Unmarshal(data []byte, v any) error

	// Compile records the parameters of the struct type t as this binder
	// sees them and prepares the checks Plan.Check runs. It fails, naming the
	// field, when t is not a struct or holds a field the binder cannot decode
	// into (a chan, a func, a complex number, an interface with methods, a map
	// whose keys it cannot read, a pointer type that points to itself, on
	// which the binder allocates forever). Recursive types are compiled
	// once each and checked at every depth.
	Compile(t reflect.Type) (*Plan, error)

	capable // what it reads where binders differ (bindcap.go)
	sealed()
}

// Std is encoding/json (version 1): json.Unmarshal into the tool's struct.
// It binds a key to a field by exact name, then by case folding (so
// HOURS_BACK binds to hours_back, and the Kelvin sign to k); it drops keys no
// field takes; every occurrence of a repeated key is decoded, the last one
// wins; null leaves a non-pointer field as it was.
var Std Binder = stdBinder{}

type stdBinder struct{}

func (stdBinder) Name() string                       { return "std" }
func (stdBinder) Unmarshal(data []byte, v any) error { return json.Unmarshal(data, v) }
func (b stdBinder) Compile(t reflect.Type) (*Plan, error) {
	return compile(b, t)
}
func (stdBinder) sealed() {}
