package bind

import (
	"fmt"
	"reflect"
)

// rules are one binder's field and value rules as the compiled positions
// (node) and the one walker (checker) read them. Std's pass is its
// verdict; V2's and SegmentIO's passes prove (see prove and native).
type rules struct {
	// prove: the pass gives the verdict of a call only where it is the
	// trial check's (trialPlan): a clean call, or one whose issues are all
	// of the classes the native verdict models (see native). Anything the
	// pass does not model exactly for the binder, and every other issue,
	// it declines, and the trial check decides. A proving pass reads only
	// positions it models (declines marks the rest) and declines on: an
	// issue it does not model (null for a position with no nil is one:
	// NullForValue; null for a pointer, a slice, a map or any sets nil, in V2
	// and segmentio as in Std, a fresh value's nil, since a repeated key
	// is an issue); an escape or a byte past ASCII in a key; nesting
	// deeper than depth.
	// Numbers for a float or any are read as in Std: V2 and segmentio
	// both parse them with strconv.ParseFloat (V2's arshal_default.go and
	// arshal_any.go, segmentio's decodeFloat32/64 and decodeInterface), so
	// Std's range (TooLarge, TooSmall) and RoundedNumber rules are theirs.
	prove bool
	// dupDropped: the binder fails on a top-level key it drops sent
	// twice (V2: a duplicate name), which a native verdict then declines.
	dupDropped bool
	// foldsMore reports, for a proving pass, a struct type some key
	// binds to a field of by a folding of the binder's own that the pass
	// does not model: V2's, where two case:ignore fields fold alike (a
	// key that fits both fails, or, under GOEXPERIMENT=jsonv2, binds the
	// first in breadth-first order).
	foldsMore func(t reflect.Type) bool
	// v2Folds returns, for V2, the case:ignore fields of struct type t by
	// their names folded as V2 folds them (v2Fold), but those two fields
	// share (see foldsMore), or nil for none: a key no field names
	// exactly binds the field its fold names (FoldedKey).
	v2Folds func(t reflect.Type) map[string]int
	// dupLoss: a key repeated in one object is a silent loss, the last
	// value kept (segmentio; V2 fails on it), which a native verdict lists.
	dupLoss bool
	// wrapsInts: the binder reads a whole number of 20 digits or more as
	// segmentio does (see segIntVerdict).
	wrapsInts bool
	// textKeys: the binder binds an escaped or non-ASCII key by its text
	// and fails on one whose text is not valid UTF-8 (V2), which the pass
	// then reads (see plainKey; segmentio's, which replaces such text,
	// the pass reads too, with replaces).
	textKeys bool
	// replaces: the binder replaces a string value's invalid UTF-8 and
	// lone surrogate escapes with U+FFFD, a silent loss (segmentio; V2
	// fails on them), which a native verdict lists.
	replaces bool
	// arrays: a fixed-size array sent another length is a silent loss
	// (segmentio), which the pass reads (V2's arrays it declines).
	arrays bool
	// durations: the binder reads a time.Duration from a whole number, as
	// an int64 (it may wrap), or from a string time.ParseDuration takes,
	// and fails on any other number or string (segmentio's decodeDuration,
	// InvalidValue), which the pass reads (see durationText).
	durations bool
	// jsonKeys: the binder reads an integer map key as a ,string
	// integer and fails the map on any other (segmentio), which the pass
	// reads (see segKey).
	jsonKeys bool
	// v2Keys: the binder reads an integer map key as V2 does, as the text
	// of a ,string integer, and fails on any other (see v2Key), which the
	// pass reads.
	v2Keys bool
	// segReads: the binder reads a ,string field, a json.Number, a
	// json.RawMessage and a []byte as segmentio does, which the pass reads
	// (see segQuotedNode and segTypeNode; otherwise it declines them).
	segReads bool
	// repeatFields is, for segmentio, the trial check's reading of struct
	// type st's fields (segMirror.repeatFields): a field sent again that
	// it does not call fresh (its value fails otherwise than alone) makes
	// the pass ask the binder whether it reads the call, and decline it
	// where it does not (see fieldSet.stale, fieldAgain, native).
	repeatFields func(st reflect.Type) func(key string) (t reflect.Type, quoted, fresh, ok bool)
	// staleLists: an empty list keeps the backing array of the list read
	// before it, and a fixed array sent short keeps its elements past the
	// ones sent (segmentio); encoding/json makes a new, empty list and
	// zeroes those elements. It decides which objects a key sent twice
	// merges (see merged.go).
	staleLists bool
	// fold: a key no field names exactly binds by encoding/json's case
	// folding (Std). Otherwise keys bind by exact name only.
	fold bool
	// depth is the deepest nesting of arrays and objects the pass reads:
	// past it Std fails (TooDeep), a proving pass declines.
	depth int
	// textDepth: the binder's caller refuses text nested past depth before
	// the binder reads it, valid JSON or not (go-sdk's checkMaxDepth for
	// segmentio, see segmentioTooDeep): text that is not JSON is TooDeep
	// where it nests that deep anywhere, after the error too.
	textDepth bool
	// custom reports that the binder reads t by a method of t's own (Std:
	// the binder's trial decode of the value decides).
	custom func(t reflect.Type) bool
	// self returns, for a proving pass, the trial check's loss node of a
	// type the binder reads by a method of the type's own (or, time.Time,
	// by its own rule for it), whose values the pass has the binder
	// decode alone (see selfNode); nil for any other type.
	self func(t reflect.Type) *selfLeaf
	// declines reports, for a proving pass, a type the binder reads by
	// rules the pass does not model.
	declines func(t reflect.Type) bool
	// own, for a proving pass, fills position n of type t where the
	// binder reads t by a rule of its own the pass models (a kOwn node,
	// or a kind the checker reads already), and reports whether it did
	// (V2: v2Own); nil for none.
	own func(n *node, t reflect.Type) bool
	// quoted, for a proving pass, is the position of a field of type t
	// under the ,string option, by the binder's own rule (V2: v2Quoted),
	// or nil where the pass declines it; nil for none.
	quoted func(t reflect.Type) *node
	// format, for a proving pass, is the position of a field of type t
	// under the format: option, by the binder's own rule (V2:
	// v2FormatNode), or nil where the pass declines it; nil for none.
	format func(t reflect.Type, format string) *node
	// formatOf is the format: option of struct type t's field p, "" for
	// none (V2: v2FormatOf).
	formatOf func(t reflect.Type, p Param) string
	// fields lists the fields of struct type t as the binder binds them,
	// in the binder's order; declined, when not nil, marks fields the
	// pass does not model (V2's ,string option, a format, a name two
	// fields share).
	fields func(t reflect.Type) (params []Param, declined []bool)
}

// stdRules are encoding/json's.
var stdRules = &rules{
	fold:   true,
	depth:  MaxDepth,
	custom: decodesItself,
	fields: func(t reflect.Type) ([]Param, []bool) { return stdFields(t), nil },
}

// v2ProveDepth and segProveDepth are the nesting a proving pass reads,
// each binder's limit (V2: jsontext's 10,000; SegmentIO: go-sdk's 1,000,
// counted on the text before segmentio reads it, which for valid JSON is
// the nesting): deeper, the binder fails, and the pass's verdict is the
// trial check's TooDeep (see native).
const (
	v2ProveDepth  = v2MaxDepth
	segProveDepth = SegmentIOMaxDepth
)

// v2Rules are V2's, from its field set (v2StructFields).
var v2Rules = &rules{
	prove:      true,
	dupDropped: true,
	textKeys:   true,
	v2Keys:     true,
	foldsMore: func(t reflect.Type) bool {
		folds := v2CaseIgnored(t)
		for _, c := range folds {
			if len(c) > 1 {
				return true
			}
		}
		return false
	},
	v2Folds: func(t reflect.Type) map[string]int {
		var m map[string]int
		for k, c := range v2CaseIgnored(t) {
			if m == nil {
				m = map[string]int{}
			}
			m[k] = c[0]
			if len(c) > 1 {
				m[k] = -1 // shared (see fieldSet.sharedFold)
			}
		}
		return m
	},
	depth:    v2ProveDepth,
	custom:   v2Custom,
	self:     v2Self,
	own:      v2Own,
	quoted:   v2Quoted,
	format:   v2FormatNode,
	formatOf: v2FormatOf,
	// declines is asked only of what v2Own and v2Self leave (see
	// compiler.fill): never a time.Time, a time.Duration, a json.Number
	// (a string type to go-json-experiment, of its own UnmarshalJSONFrom
	// in the standard library's v2), a json.RawMessage, a jsontext.Value
	// or a type of V2's own methods.
	declines: func(t reflect.Type) bool {
		if v2IntKeys(t) {
			return false // its keys read as checker.v2Key says
		}
		if t.Kind() == reflect.Uintptr {
			return false // makeUintArshaler reads it as a uint64, of t.Bits()
		}
		if t.Kind() == reflect.Array && t.Elem().Kind() != reflect.Uint8 {
			return false // of its length exactly (see checker.v2Array); [N]byte is base64 to V2 (v2Own), of a named byte declined
		}
		if t.Kind() == reflect.Map && v2MapKeys(t.Key()) {
			return false // its keys read as strings, or as checker.textKey says
		}
		return provedKind(t)
	},
	fields: func(t reflect.Type) ([]Param, []bool) {
		fs := v2StructFields(t)
		params := make([]Param, len(fs.flattened))
		declined := make([]bool, len(fs.flattened))
		for i, f := range fs.flattened {
			params[i] = Param{Name: f.name, GoName: fieldPath(t, f.index, true), Type: f.typ, Index: f.index}
			// ,string is read by V2's rule (v2Quoted), format: options
			// where V2 reads them natively by its own (v2Format); an
			// exact name binds a case:ignore field too, a folded one by
			// V2's fold (v2Folds).
			params[i].Quoted = f.str
			declined[i] = f.format != "" && (f.str || v2FormatNode(f.typ, f.format) == nil)
		}
		return params, declined
	},
}

// segRules are SegmentIO's, from its field set (segStructFields), exact
// names only (go-sdk sets DontMatchCaseInsensitiveStructFields).
var segRules = &rules{
	prove:        true,
	dupLoss:      true,
	replaces:     true,
	arrays:       true,
	durations:    true,
	jsonKeys:     true,
	wrapsInts:    true,
	segReads:     true,
	staleLists:   true,
	repeatFields: new(segMirror).repeatFields,
	depth:        segProveDepth,
	textDepth:    true,
	custom:       segCustom,
	self:         segSelf,
	declines: func(t reflect.Type) bool {
		switch t {
		case goNumber, goRawMessage, goBytes:
			return false // read by segReads (time.Time is segSelf's; time.Duration: see durations)
		}
		if t.Kind() == reflect.Uintptr && !segCustom(t) {
			return false // decodeUintptr is decodeUint64 (parseUint), but for the type it names
		}
		if t.Kind() == reflect.Array && !segCustom(t) {
			return false // read as Std reads it, but [] (see checker.arrays)
		}
		if kt := t; t.Kind() == reflect.Map && !segCustom(t) {
			kt = t.Key()
			switch kt.Kind() {
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
				reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				if kt.NumMethod() == 0 && reflect.PointerTo(kt).NumMethod() == 0 {
					return false // its keys read as checker.segKey says
				}
			}
			if segMapKeys(kt) {
				return false // its keys read as strings, or as checker.textKey says
			}
		}
		return segCustom(t) || provedKind(t)
	},
	fields: func(t reflect.Type) ([]Param, []bool) {
		fields := segStructFields(t, map[reflect.Type]*segStruct{}).fields
		params := make([]Param, len(fields))
		declined := make([]bool, len(fields))
		idx := segIndex(fields)
		for i, f := range fields {
			params[i] = Param{Name: f.name, GoName: fieldPath(t, f.index, false), Type: f.typ, Index: f.index, Quoted: f.stringify}
			// Of two fields of one name a key binds the one segIndex
			// finds, as segmentio's decoder on this CPU does; the other
			// no key binds (fieldSet keeps the name's for the first).
			// A ,string field segQuotedNode reads.
			declined[i] = idx[f.name] != i
		}
		return params, declined
	},
}

// v2CaseIgnored lists the case:ignore fields of struct type t (indexes
// into its flattened fields, the plan's order) by their names folded as
// V2 folds them: as V2's lookupByFoldedName and matchFoldedName find them
// for a name no field has exactly. Under GOEXPERIMENT=jsonv2 each name
// keeps the one field the standard library's v2 binds it to
// (v2FoldFirst), so no fold is shared; go-json-experiment fails on a key
// of a fold two fields share.
func v2CaseIgnored(t reflect.Type) map[string][]int {
	folds := map[string][]int{}
	fields := v2StructFields(t).flattened
	for i, f := range fields {
		if f.casing == caseIgnore {
			k := string(v2Fold([]byte(f.name)))
			folds[k] = append(folds[k], i)
		}
	}
	v2FoldFirst(folds, fields) // the one the standard library's v2 binds, under GOEXPERIMENT=jsonv2
	return folds
}

// provedKind reports a type whose kind a proving pass does not read: fixed
// arrays (each binder's rules read them but [N]byte: see v2Rules and
// segRules),
// byte slices (base64, each binder its own), maps but those of plain
// string keys (each binder's rules read those of integer keys, and of
// keys of a string kind with methods or of any kind with UnmarshalText:
// see v2Rules, segRules and textkeys.go), interfaces but empty ones, uintptr (each binder's rules
// read it as a uint64: see v2Rules and segRules), and kinds no binder
// reads.
func provedKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Pointer, reflect.Struct,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return false
	case reflect.Slice:
		return t.Elem().Kind() == reflect.Uint8
	case reflect.Interface:
		return t.NumMethod() != 0 // an empty one, any or of a name of its own, each binder reads as any (see namedany.go)
	case reflect.Map:
		kt := t.Key()
		return kt.Kind() != reflect.String || kt.NumMethod() != 0 || reflect.PointerTo(kt).NumMethod() != 0
	}
	return true
}

// nativeRoot compiles the positions of a V2 or SegmentIO plan's struct
// type under the binder's rules, for its proving pass and its clean mode,
// which read every call the binder reads (see clean.go): a type the binder
// compiles and they cannot read is an error, as is one whose parameters
// they list otherwise than the trial check (the required params are the
// plan's, by index), which no type is known to be.
func nativeRoot(b Binder, r *rules, t reflect.Type, params []Param) (*node, error) {
	root, err := compileNodes(b, r, t)
	if err != nil {
		return nil, err
	}
	same := root.kind == kStruct && len(root.fields.params) == len(params)
	for i := 0; same && i < len(params); i++ {
		same = root.fields.params[i].Name == params[i].Name
	}
	if !same {
		return nil, fmt.Errorf("bind: %v: the %s pass lists the parameters otherwise than the binder's field rules", t, b.Name())
	}
	return root, nil
}
