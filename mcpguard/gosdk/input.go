package gosdk

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// InputPath is go-sdk's own input path as a binder: what mcp.AddTool does
// with a call's arguments before its handler runs. Give it to the registry
// (typereg.WithBinder(gosdk.InputPath)) of a server that keeps adding its
// tools with mcp.AddTool and guards them with Middleware, so that the guard
// refuses exactly what go-sdk refuses, naming the argument, and passes
// everything go-sdk passes.
//
// It runs the same calls go-sdk (v1.6 to v1.8) makes, through bind.Reader:
// the arguments are decoded into a map[string]any with segmentio's
// decoder as go-sdk sets it (segmentio.Binder: keys by exact name, 1,000
// levels), the schema's defaults applied (jsonschema-go's
// Resolved.ApplyDefaults), the map validated (Resolved.Validate) against the
// schema go-sdk infers for the parameter struct (jsonschema.ForType with
// no options, resolved with ValidateDefaults), written back with
// encoding/json and decoded into the struct with the same decoder. So null
// for a parameter whose schema does not take it is refused, in the
// guard's words, naming the argument; HOURS_BACK for hours_back is an
// unknown argument (the inferred schema is closed); and an integer past
// 2^53 for an int64, which the map holds as a float64 and the handler gets
// rounded (9007199254740993 arrives as 9007199254740992), is a silent loss
// (a warning; refused under Strict).
//
// InputPath infers the schema from the struct, as mcp.AddTool does for a
// tool added without an InputSchema; a tool added with its own
// InputSchema is validated by go-sdk against that one, which InputPath
// does not see. A tool added with AddTool (this package's) does not go
// through go-sdk's input path at all: there, the registry's binder is
// the one the handler's struct is decoded with, and InputPath makes it go-sdk's
// path again.
var InputPath bind.Binder = bind.Reader("gosdk-input", decodeInput)

// inputSchemas caches, per parameter struct type, the resolved schema
// go-sdk infers for it.
var inputSchemas sync.Map // reflect.Type → inputSchema

type inputSchema struct {
	resolved *jsonschema.Resolved
	err      error
}

func resolvedInput(rt reflect.Type) (*jsonschema.Resolved, error) {
	if s, ok := inputSchemas.Load(rt); ok {
		return s.(inputSchema).resolved, s.(inputSchema).err
	}
	var s inputSchema
	schema, err := jsonschema.ForType(rt, &jsonschema.ForOptions{})
	switch {
	case err != nil:
		s.err = err
	case schema == nil:
		s.err = fmt.Errorf("schema is nil for type %v", rt)
	default:
		s.resolved, s.err = schema.Resolve(&jsonschema.ResolveOptions{ValidateDefaults: true})
	}
	inputSchemas.Store(rt, s)
	return s.resolved, s.err
}

// decodeInput is go-sdk's applySchema for tool input, then its decode of
// the result into the parameter struct v points to.
func decodeInput(data []byte, v any) error {
	rt := reflect.TypeOf(v)
	if rt == nil || rt.Kind() != reflect.Pointer {
		return fmt.Errorf("gosdk: decoding into %T, not a pointer", v)
	}
	st := rt.Elem()
	if st.Kind() == reflect.Pointer { // go-sdk infers the schema of *T's T
		st = st.Elem()
	}
	resolved, err := resolvedInput(st)
	if err != nil {
		return fmt.Errorf("input schema: %w", err)
	}
	m := make(map[string]any)
	if len(data) > 0 {
		if err := segmentio.Binder.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("unmarshaling arguments: %w", err)
		}
	}
	var unmarshaled any = m
	if err := resolved.ApplyDefaults(&unmarshaled); err != nil {
		return fmt.Errorf("applying schema defaults:\n%w", err)
	}
	if err := resolved.Validate(&unmarshaled); err != nil {
		return err
	}
	out, err := json.Marshal(unmarshaled)
	if err != nil {
		return fmt.Errorf("marshalling with defaults: %v", err)
	}
	return segmentio.Binder.Unmarshal(out, v)
}
