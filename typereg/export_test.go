package typereg

import "reflect"

// RegisterType is Register for a type known only at run time, for tests
// that range over types.
func RegisterType(reg *Registry, name string, t reflect.Type, opts ...Option) error {
	return reg.register(name, t, opts)
}
