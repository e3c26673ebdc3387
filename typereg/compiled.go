package typereg

import (
	"reflect"
	"strconv"

	"github.com/bindguard/bindguard/internal/constraint"
)

func init() {
	constraint.ToolOf = func(tool any) *constraint.Tool { return tool.(*Tool).checks }
}

// valuerType is validator/v10's Valuer (v10.27.0 and later validate what
// ValidatorValue returns instead of the value): named here, not by the
// validator's type, so that the core builds at its validator floor
// (docs/compatibility.md). A type with the method is never compiled: the
// validator the build selects decides what it validates.
var valuerType = reflect.TypeFor[interface{ ValidatorValue() any }]()

// compileTags compiles a parameter's validate tag, parsed into levels, for
// a value of Go type t into the checks refuse runs on the literal. It
// reports false for a tag or a type it does not compile, whose calls are
// then decoded and held to the validator itself. The tag has been
// translated (see translate), so its rules suit t's kind.
func compileTags(levels []level, t reflect.Type) (*constraint.Node, bool) {
	return compileTagsIn(levels, t, &compileState{
		onPath:  map[reflect.Type]bool{},
		fields:  map[reflect.Type][]constraint.Field{},
		pending: map[reflect.Type][]*constraint.Node{},
	})
}

// compileState is what compiling one parameter's tags knows: the nested
// structs being compiled, the nodes of those met inside themselves, which
// take their fields once compiled (a recursive type's nodes make a cycle),
// and each struct's fields compiled once, so that a type that holds
// another many times over, many levels deep, costs one compile per type.
type compileState struct {
	onPath  map[reflect.Type]bool
	fields  map[reflect.Type][]constraint.Field
	pending map[reflect.Type][]*constraint.Node
}

// compileTagsIn is compileTags inside the nested structs seen (levels nil:
// no tag of its own, for a struct the validator walks into).
func compileTagsIn(levels []level, t reflect.Type, seen *compileState) (*constraint.Node, bool) {
	var lv level
	if len(levels) > 0 {
		lv = levels[0]
	}
	n := &constraint.Node{OmitEmpty: lv.omitEmpty, Required: lv.required}
	for t.Kind() == reflect.Pointer {
		if t.Implements(valuerType) {
			return nil, false
		}
		n.Nullable = true
		t = t.Elem()
	}
	if t.Implements(valuerType) || reflect.PointerTo(t).Implements(valuerType) {
		return nil, false
	}
	if t.Kind() == reflect.Interface {
		n.Nullable = true
	}
	n.NoTag = lv.tag == "" && len(levels) <= 1
	kind := kindOf(t)
	if walkedStruct(t) && hasNestedTags(t, map[reflect.Type]bool{}) {
		if len(levels) > 1 {
			return nil, false
		}
		return compileStruct(n, lv, t, seen)
	}
	switch kind {
	case "":
		if len(lv.rules) > 0 || len(levels) > 1 {
			return nil, false
		}
		if !n.Nullable {
			if lv.required || t.Kind() == reflect.Slice || t.Kind() == reflect.Map {
				return nil, false
			}
			// omitempty alone, on a value that is no pointer and holds no
			// tags of its own: whatever it holds passes.
			n.NoTag = true
		}
		return n, true
	case "int":
		n.Kind = constraint.Int
	case "uint":
		n.Kind = constraint.Uint
	case "float":
		n.Kind, n.Bits = constraint.Float, t.Bits()
	case "string":
		n.Kind = constraint.String
	case "bool":
		n.Kind = constraint.Bool
	case "slice":
		n.Kind = constraint.Slice
	case "map":
		switch t.Key().Kind() {
		case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		default:
			return nil, false
		}
		if decodesItselfType(t.Key()) {
			return nil, false // two texts may read as one key
		}
		n.Kind = constraint.Map
	default:
		return nil, false
	}
	for _, r := range lv.rules {
		cr, ok := compileRule(r, n.Kind, t)
		if !ok {
			return nil, false
		}
		n.Rules = append(n.Rules, cr)
	}
	if len(levels) > 1 {
		if n.Kind != constraint.Slice && n.Kind != constraint.Map {
			return nil, false
		}
		elem, ok := compileTagsIn(levels[1:], t.Elem(), seen)
		if !ok {
			return nil, false
		}
		n.Elem = elem
	}
	return n, true
}

// compileRule parses rule r's value as the validator does for a value of
// kind k (Go type t): asInt, asUint, asFloat32/asFloat64, asBool, and
// oneof's split.
func compileRule(r rule, k constraint.Kind, t reflect.Type) (constraint.Rule, bool) {
	ops := map[string]constraint.Op{
		"min": constraint.Gte, "gte": constraint.Gte, "max": constraint.Lte, "lte": constraint.Lte,
		"gt": constraint.Gt, "lt": constraint.Lt, "eq": constraint.Eq, "len": constraint.Eq,
		"ne": constraint.Ne, "oneof": constraint.OneOf,
	}
	cr := constraint.Rule{Op: ops[r.name]}
	var err error
	switch k {
	case constraint.Int:
		if cr.Op == constraint.OneOf {
			cr.Vals = oneofValues(r.param)
			return cr, true
		}
		cr.I, err = strconv.ParseInt(r.param, 0, 64)
	case constraint.Uint:
		if cr.Op == constraint.OneOf {
			cr.Vals = oneofValues(r.param)
			return cr, true
		}
		cr.U, err = strconv.ParseUint(r.param, 0, 64)
	case constraint.Float:
		if cr.Op == constraint.OneOf {
			return cr, false
		}
		cr.F, err = strconv.ParseFloat(r.param, t.Bits())
	case constraint.String:
		switch cr.Op {
		case constraint.OneOf:
			cr.Vals = oneofValues(r.param)
		case constraint.Eq, constraint.Ne:
			if r.name == "len" {
				cr.Len = true
				cr.I, err = strconv.ParseInt(r.param, 0, 64)
			} else {
				cr.S = r.param
			}
		default:
			cr.Len = true
			cr.I, err = strconv.ParseInt(r.param, 0, 64)
		}
	case constraint.Slice, constraint.Map:
		if cr.Op == constraint.OneOf {
			return cr, false
		}
		cr.Len = true
		cr.I, err = strconv.ParseInt(r.param, 0, 64)
	case constraint.Bool:
		if cr.Op != constraint.Eq && cr.Op != constraint.Ne {
			return cr, false
		}
		cr.B, err = strconv.ParseBool(r.param)
	default:
		return cr, false
	}
	return cr, err == nil
}
