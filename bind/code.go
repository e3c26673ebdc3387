package bind

// A Code names what is wrong with a call: with its arguments as a whole,
// with one value or key in them, or (UnknownTool) with the tool it names.
// It is the one taxonomy of the module: Check reports a Code on each Issue,
// and package refuse publishes the same Code on each Problem (refuse.Code
// is this type, under the same constant names). Its value is the name on
// the wire ("not_whole_number"), stable: match on the code, not on the text.
//
// What a code means for the call is its Class; the order in which a
// refusal lists its problems is refuse's (see refuse.Refusal.Problems).
type Code string

// The binder's failures: the handler cannot run on the call as sent.
const (
	// InvalidJSON: the arguments are not valid JSON.
	InvalidJSON Code = "invalid_json"
	// NotAnObject: the arguments are valid JSON but not an object (nor
	// null).
	NotAnObject Code = "not_an_object"
	// UnknownTool: no tool of the name the call gives is registered. Check
	// never reports it; the server fails the call as the binder would.
	UnknownTool Code = "unknown_tool"
	// WrongType: a value of a JSON kind its position does not read.
	WrongType Code = "wrong_type"
	// NotWholeNumber: a number with a fraction or an exponent, for an
	// integer.
	NotWholeNumber Code = "not_whole_number"
	// TooLarge: a number past the largest value its type holds.
	TooLarge Code = "too_large"
	// TooSmall: a number past the smallest value its type holds.
	TooSmall Code = "too_small"
	// NotOneOf: text that is none of the values its position lists. Check
	// never reports it: a type's decoder refusing the text is InvalidValue,
	// which refuse publishes as NotOneOf where the published schema lists
	// the values taken.
	NotOneOf Code = "not_one_of"
	// InvalidKey: an object key a map's key type does not read.
	InvalidKey Code = "invalid_key"
	// TooDeep: arrays and objects nested deeper than the binder reads.
	TooDeep Code = "too_deep"
	// InvalidValue: text of the right JSON kind that its type's decoder
	// still refuses (bad base64, a time that is not RFC 3339, text a
	// custom decoder refuses).
	InvalidValue Code = "invalid_value"
	// DuplicateName: a key sent more than once in one object, which the
	// binder refuses (V2). Check never reports it: the issue is the
	// failure the binder's error lies in, with Err holding
	// jsontext.ErrDuplicateName, which refuse publishes as DuplicateName.
	DuplicateName Code = "duplicate_name"
	// AmbiguousArgument: a top-level key that names no parameter exactly
	// and that the binder matches, ignoring case, to two or more (V2's
	// case:ignore fields whose names fold alike), and fails on
	// (go-json-experiment; the standard library's v2 binds the first).
	// The issue spans the key, in no argument.
	AmbiguousArgument Code = "ambiguous_argument"
	// AmbiguousField: a key inside an argument that names no field of the
	// struct its object is read into exactly and that the binder matches,
	// ignoring case, to two or more, and fails on (as AmbiguousArgument,
	// one level down). The issue spans the key, as UnknownField's does,
	// and Type is the struct.
	AmbiguousField Code = "ambiguous_field"
)

// The tool's policy: what the binder reads, but the tool may refuse.
const (
	// UnknownArgument: a top-level key the binder binds to no parameter.
	UnknownArgument Code = "unknown_argument"
	// UnknownField: a key inside a nested struct's object that the binder
	// binds to no field, and drops.
	UnknownField Code = "unknown_field"
	// MissingArgument: a required parameter (Plan.WithRequired) no
	// top-level key names.
	MissingArgument Code = "missing_argument"
	// MissingField: a required field of a struct below the top level that
	// an object read into it does not name.
	MissingField Code = "missing_field"
	// AliasConflict: one parameter sent under more than one of its names.
	// Check never reports it; refuse finds it from the members.
	AliasConflict Code = "alias_conflict"
	// Constraint: a value the binder reads that breaks the tool's own
	// constraint (a validate tag). Check never reports it; refuse does.
	Constraint Code = "constraint"
)

// The silent losses: what the binder reads, but drops or changes without
// a word.
const (
	// NullForValue: null for a position that cannot hold it: the binder
	// leaves the zero value. Also the key "null" of a map of integer keys,
	// which segmentio (and encoding/json under GOEXPERIMENT=jsonv2) reads
	// as the key 0; the issue spans the key.
	NullForValue Code = "null_for_value"
	// FoldedKey: a key the binder binds to a field only by folding its
	// case.
	FoldedKey Code = "folded_key"
	// DuplicateKey: a key repeated in one object: the binder keeps the
	// last value.
	DuplicateKey Code = "duplicate_key"
	// ArrayLength: a fixed-size array sent more elements (dropped) or
	// fewer (zero) than it has.
	ArrayLength Code = "array_length"
	// RoundedNumber: an integer, written with no fraction and no exponent,
	// that a float position (float32, float64, any) cannot hold exactly.
	RoundedNumber Code = "rounded_number"
	// ReplacedText: text with invalid UTF-8 or a lone surrogate escape,
	// which the binder replaces with U+FFFD.
	ReplacedText Code = "replaced_text"
	// WrappedNumber: a whole number past the largest (or smallest) value
	// the parameter's type holds, which the binder reads, without
	// failing, as another number (segmentio, whose overflow check misses
	// some wraps of its 64-bit arithmetic: see bind/segmentio).
	WrappedNumber Code = "wrapped_number"
)

// Omitted is no problem but a count: issues of code Of in argument Param
// that Check found past MaxIssues and did not list (Issue.N of them). Its
// Class is none; refuse publishes no problem with it.
const Omitted Code = "omitted"

// A Class says what a code means for the call: whether the binder fails on
// it, or reads it and leaves the tool's policy to decide. The zero Class is
// none: Omitted's, and any string that is not a code.
type Class uint8

const (
	_ Class = iota
	// BinderFailure: the handler cannot run on the call as sent, because
	// the binder fails on it (or, for UnknownTool, there is no such tool).
	// The guard refuses it in every mode but Off.
	BinderFailure
	// PolicyProblem: the binder reads the call, but the tool's policy may
	// refuse what it holds or leaves out: a key no parameter or field
	// takes, a required one left out, a parameter under two names, a
	// constraint broken. Refused under Reject, warned of under Warn.
	PolicyProblem
	// SilentLoss: the binder reads the call, but not as sent: a value
	// dropped or changed without a word. Warned of, refused when the policy
	// is Strict.
	SilentLoss
)

// Class returns c's class, none for Omitted and for a string that is not
// a code.
func (c Code) Class() Class {
	switch c {
	case InvalidJSON, NotAnObject, UnknownTool, WrongType, NotWholeNumber, TooLarge, TooSmall, NotOneOf,
		InvalidKey, TooDeep, InvalidValue, DuplicateName, AmbiguousArgument, AmbiguousField:
		return BinderFailure
	case UnknownArgument, UnknownField, MissingArgument, MissingField, AliasConflict, Constraint:
		return PolicyProblem
	case NullForValue, FoldedKey, DuplicateKey, ArrayLength, RoundedNumber, ReplacedText, WrappedNumber:
		return SilentLoss
	}
	return 0
}

// Policy reports whether problems of code c are the tool's policy's to
// decide on (its mode: Reject, Warn, Off), rather than refused in every
// mode but Off: whether c's class is PolicyProblem or SilentLoss.
func (c Code) Policy() bool {
	cl := c.Class()
	return cl == PolicyProblem || cl == SilentLoss
}

func (cl Class) String() string {
	switch cl {
	case BinderFailure:
		return "binder failure"
	case PolicyProblem:
		return "policy problem"
	case SilentLoss:
		return "silent loss"
	}
	return "none"
}
