package typereg_test

import (
	"testing"

	"github.com/bindguard/bindguard/typereg"
	"github.com/invopop/jsonschema"
)

// hostileValue panics when it is printed, with itself.
type hostileValue struct{}

func (hostileValue) Error() string  { panic(hostileValue{}) }
func (hostileValue) String() string { panic(hostileValue{}) }

// extendPanics is read by its UnmarshalText, and its JSONSchemaExtend
// panics with a value that panics when printed.
type extendPanics struct{ v string }

func (e *extendPanics) UnmarshalText(b []byte) error     { e.v = string(b); return nil }
func (extendPanics) JSONSchemaExtend(*jsonschema.Schema) { panic(hostileValue{}) }

type extendPanicsArgs struct {
	E extendPanics `json:"e"`
}

// TestRegister_SchemaMethodPanicsWithAHostileValue: a type's own schema
// method that panics fails registration with an error, even where the
// panic's value panics when printed: it is printed under recovery
// (contain.Sprint). It was printed with fmt, whose panic in the deferred
// recovery took the process down.
func TestRegister_SchemaMethodPanicsWithAHostileValue(t *testing.T) {
	err := typereg.Register[extendPanicsArgs](typereg.New(), "t")
	if err == nil {
		t.Fatal("registered, though its schema method panicked")
	}
	_ = err.Error()
}
