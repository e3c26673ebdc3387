// Package toolrec is the door through which the guard's own packages
// (refuse, bindtest, the adapters) read a *typereg.Tool's record in place.
// typereg's exported accessors hand out copies, so that no caller can
// change a record after registration; the guard reads the record on every
// call and must not pay for them. typereg sets the functions here when it
// initializes; each caller asserts the type it is documented to hold.
// What they return is the record's own memory: read it, never change it.
package toolrec

// Params is a func(*typereg.Tool) []typereg.Param: the record's
// parameters, in field order.
var Params any

// Policy is a func(*typereg.Tool) *typereg.Policy: the policy in force.
var Policy any

// Schema is a func(*typereg.Tool) *jsonschema.Schema
// (github.com/invopop/jsonschema): the published input schema.
var Schema any

// Published is a func(*typereg.Tool) *schemacheck.Schema: the compiled
// schema of a tool recorded with typereg.RegisterSchema, nil for a tool
// recorded from a Go struct.
var Published any

// ParamIndex is a func(*typereg.Param) []int: the parameter's field
// index sequence in the tool's struct type (nil for a schema tool), the
// record's own copy, not the plan's.
var ParamIndex any

// ParamSchema is a func(*typereg.Param) *jsonschema.Schema: the
// parameter's property in the published schema.
var ParamSchema any

// TopKeys is a func(*typereg.Tool) bindcap.TopKeys: what the pass is told
// of the tool's top-level keys (its policy's exempt keys and aliases),
// built once at registration.
var TopKeys any

// DerivedSlot is a func(*typereg.Tool) *atomic.Pointer[toolrec.Derived]: the
// record's one slot that is not read-only, refuse's, for what it derives
// from the record once (refuse cannot at registration: it imports
// typereg). Set once, by the first call that needs it; never changed after.
var DerivedSlot any

// A Derived is what refuse derives from a tool's record once.
type Derived struct {
	// Words says what each parameter takes, in words ("a whole number
	// from 1 to 168"), by index in the record's parameters.
	Words []string
	// Rules says, per parameter, how the binder reads its type sent more
	// than once (refuse's paramRules bits).
	Rules []uint8
	// Names holds the parameters' names, in field order (read only: a
	// refusal's Accepted is a copy).
	Names []string
	// Near holds the parameters' names, in field order, as refuse
	// compares an unknown key to them (closest): normalized once.
	Near []NearName
	// Pointers is each parameter's own value's JSON Pointer ("/name"),
	// for a call that sends the parameter under its name as it is.
	Pointers []string
}

// A NearName is a name as refuse compares a key to it: lowered, without
// '_', '-', ' ' and '.', its first characters (at most refuse's bound),
// its length in bytes as UTF-8 up to where it is cut, whether it is
// cut, and the classes of its runes (bit r&63 set for each rune r).
type NearName struct {
	Name    string
	Runes   []rune
	Bytes   int
	Cut     bool
	Classes uint64
}
