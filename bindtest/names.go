package bindtest

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
)

// typeName writes t as a row names it: as reflect's Type.String does, except
// that a named type declared in package pkgPath (the tool's parameter
// struct's package) loses its package qualifier, and json.RawMessage is
// json.RawMessage in every build (under GOEXPERIMENT=jsonv2 it is an alias
// of jsontext.Value, which reflect names instead).
func typeName(t reflect.Type, pkgPath string) string {
	if t == rawMessage {
		return "json.RawMessage"
	}
	if t.Name() != "" {
		if t.PkgPath() != "" && t.PkgPath() == pkgPath {
			return t.Name()
		}
		return t.String()
	}
	switch t.Kind() {
	case reflect.Pointer:
		return "*" + typeName(t.Elem(), pkgPath)
	case reflect.Slice:
		return "[]" + typeName(t.Elem(), pkgPath)
	case reflect.Array:
		return "[" + strconv.Itoa(t.Len()) + "]" + typeName(t.Elem(), pkgPath)
	case reflect.Map:
		return "map[" + typeName(t.Key(), pkgPath) + "]" + typeName(t.Elem(), pkgPath)
	}
	return t.String() // interfaces, structs, funcs, chans: reflect's own words
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// canonical rewrites a type name as a row may write it into the form
// typeName produces: the aliases byte, rune and any become uint8, int32 and
// interface {}, and interface{} gains reflect's space.
func canonical(name string) string {
	name = strings.TrimSpace(strings.ReplaceAll(name, "interface{}", "interface {}"))
	var b strings.Builder
	for i := 0; i < len(name); {
		j := i
		for j < len(name) && isIdentByte(name[j]) {
			j++
		}
		if j == i {
			b.WriteByte(name[i])
			i++
			continue
		}
		word := name[i:j]
		// A qualified name (json.Number) or a field name is never an alias.
		qualified := i > 0 && name[i-1] == '.' || j < len(name) && name[j] == '.'
		switch {
		case qualified:
		case word == "byte":
			word = "uint8"
		case word == "rune":
			word = "int32"
		case word == "any":
			word = "interface {}"
		}
		b.WriteString(word)
		i = j
	}
	return b.String()
}

// display writes a canonical type name the way people write it, for
// messages: interface {} as any, []uint8 as []byte.
func display(name string) string {
	name = strings.ReplaceAll(name, "interface {}", "any")
	return strings.ReplaceAll(name, "[]uint8", "[]byte")
}

func isIdentByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || c >= 0x80
}
