package refuse

import (
	"strconv"
	"strings"
)

// A Code names a kind of problem. Codes are stable: match on them, not on
// the text.
type Code string

const (
	// InvalidJSON: the arguments are not valid JSON.
	InvalidJSON Code = "invalid_json"
	// NotAnObject: the arguments are valid JSON but not an object.
	NotAnObject Code = "not_an_object"
	// UnknownTool: no tool of that name is registered.
	UnknownTool Code = "unknown_tool"
	// UnknownArgument: a key the binder binds to no parameter.
	UnknownArgument Code = "unknown_argument"
	// WrongType: a value of a JSON kind the parameter does not take (text
	// for a number, a number for true or false, an object for a list...).
	WrongType Code = "wrong_type"
	// NotWholeNumber: a number with a fraction or an exponent, for a whole
	// number parameter.
	NotWholeNumber Code = "not_whole_number"
	// TooLarge: a number past the largest value the parameter's type holds.
	TooLarge Code = "too_large"
	// TooSmall: a number past the smallest value the parameter's type holds.
	TooSmall Code = "too_small"
	// NotOneOf: text that is none of the values the parameter lists.
	NotOneOf Code = "not_one_of"
	// InvalidKey: an object key a map parameter's key type does not read.
	InvalidKey Code = "invalid_key"
	// TooDeep: arrays and objects nested deeper than the binder reads.
	TooDeep Code = "too_deep"
	// InvalidValue: a value of the right JSON kind that the parameter's type
	// still does not read (bad base64, a date that is not RFC 3339, text a
	// custom decoder refuses).
	InvalidValue Code = "invalid_value"
	// DuplicateName: a key sent more than once in one object, which the
	// binder refuses (bind.V2: go-json-experiment's
	// jsontext.ErrDuplicateName). Sent quotes the key; inside an argument,
	// Sent quotes the argument, Element the key and Path the object. One
	// problem per repeated key, however often it repeats. A binder that
	// reads the last value instead reports DuplicateKey, a silent loss.
	DuplicateName Code = "duplicate_name"

	// Policy problems (see Decide): refused under Reject, warnings under
	// Warn.

	// UnknownField: a key inside an object argument that names no field
	// of the struct it is read into (the binder drops it).
	UnknownField Code = "unknown_field"
	// MissingArgument: a required parameter the call does not send.
	MissingArgument Code = "missing_argument"
	// MissingField: an object argument (or an object inside one) that
	// leaves out a field its struct's published schema requires; Element
	// names the field, Path leads to where it would be.
	MissingField Code = "missing_field"
	// AliasConflict: one parameter sent under its name and an alias, under
	// two aliases, or under its name and a key the binder folds to it (or
	// two such keys); the call goes on, if at all, with one member, and
	// Becomes quotes its value.
	AliasConflict Code = "alias_conflict"
	// Constraint: a value the binder reads that breaks the tool's own
	// constraint (a validate tag): Takes states the constraint.
	Constraint Code = "constraint"

	// Silent losses: values the binder reads but changes or drops.
	// Warnings, unless the policy is Strict.

	// NullForValue: null for a parameter (or an element) that cannot hold
	// null; the binder leaves its zero value.
	NullForValue Code = "null_for_value"
	// FoldedKey: a key the binder binds to a parameter or field only by
	// ignoring case ("HOURS_BACK" for hours_back, the Kelvin sign for k).
	FoldedKey Code = "folded_key"
	// DuplicateKey: a key sent more than once in one object; the binder
	// reads the last value.
	DuplicateKey Code = "duplicate_key"
	// ArrayLength: a fixed-size array sent more elements than it holds
	// (the extra ones are dropped) or fewer (the rest stay zero).
	ArrayLength Code = "array_length"
	// RoundedNumber: an integer a float (float32, float64, or a number read
	// into any) cannot hold exactly, so the binder rounds it.
	RoundedNumber Code = "rounded_number"
	// ReplacedText: text with invalid UTF-8 or a lone surrogate escape,
	// which the binder replaces with U+FFFD.
	ReplacedText Code = "replaced_text"
)

// Policy reports whether problems of code c come from the tool's policy
// (unknown keys, missing or doubled arguments, constraints, silent
// losses), which its mode decides on, rather than from the binder failing
// on the call or from there being no such tool, which are refused in every
// mode but Off.
func (c Code) Policy() bool {
	switch c {
	case UnknownArgument, UnknownField, MissingArgument, MissingField, AliasConflict, Constraint,
		NullForValue, FoldedKey, DuplicateKey, ArrayLength, RoundedNumber, ReplacedText:
		return true
	}
	return false
}

// A Problem is one thing wrong with a call.
type Problem struct {
	// Argument is the parameter the problem is in, by its declared name;
	// for UnknownArgument, the key as sent (cut short); empty for problems
	// with the arguments as a whole.
	Argument string `json:"argument,omitempty"`
	// Path leads from the argument to the offending value inside it, as in
	// "[2]" or ".a"; empty when the argument itself is the offending value.
	Path string `json:"path,omitempty"`
	// Code says what kind of problem it is.
	Code Code `json:"code"`
	// Takes says in words what the parameter takes ("a whole number").
	// It states the tool's own range wherever the parameter has one, for
	// every code ("a whole number from 1 to 168"), and never the range of
	// a Go type, which is not the range of the tool.
	Takes string `json:"takes,omitempty"`
	// Sent is the argument's value as sent, quoted: at most 40 characters
	// of it, control characters escaped, with the full length named when
	// cut. For an unknown argument, the key as sent.
	Sent string `json:"sent,omitempty"`
	// Element is, when the problem lies inside the argument (at Path), the
	// offending value there, quoted as Sent is.
	Element string `json:"element,omitempty"`
	// DidYouMean is, for UnknownArgument and UnknownTool, the closest name
	// that exists, or empty.
	DidYouMean string `json:"did_you_mean,omitempty"`
	// Becomes is, for a silent loss, what the tool reads instead, quoted as
	// Sent is (for FoldedKey, the parameter the key binds to; for
	// AliasConflict, the value of the one member kept); empty when it
	// cannot be shown.
	Becomes string `json:"becomes,omitempty"`
}

// A Refusal is the guard's verdict on a call the handler must not run. It
// is an error; Error renders it as text for the caller (a model) to read,
// and it marshals to JSON (for an MCP result's structuredContent) with the
// field names its tags give.
// The text is for reading, not parsing: its wording may change, its fields
// will not.
type Refusal struct {
	// Tool is the tool the call named.
	Tool string `json:"tool"`
	// Accepted lists the tool's parameters, in declaration order.
	Accepted []string `json:"accepted"`
	// Problems lists every problem found, one per argument (the first found
	// in it), then one per unknown key, up to MaxProblems.
	Problems []Problem `json:"problems"`
	// More counts the problems found past MaxProblems.
	More int `json:"more,omitempty"`
}

// MaxProblems bounds Refusal.Problems, so a call with a hundred thousand
// unknown keys costs a bounded refusal.
const MaxProblems = 100

func (r *Refusal) Error() string {
	var b strings.Builder
	var unknown []Problem
	for _, p := range r.Problems {
		if p.Code == UnknownArgument {
			unknown = append(unknown, p)
			continue
		}
		b.WriteString(p.sentence(r.Tool))
		b.WriteByte('\n')
	}
	if len(unknown) > 3 {
		b.WriteString("Arguments ")
		for i, p := range unknown[:3] {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString("'" + p.Argument + "'")
		}
		b.WriteString(" and " + strconv.Itoa(len(unknown)-3+r.More) + " more are not parameters of tool '" + r.Tool + "'.\n")
	} else {
		for _, p := range unknown {
			b.WriteString(p.sentence(r.Tool))
			b.WriteByte('\n')
		}
		if r.More > 0 {
			b.WriteString("And " + strconv.Itoa(r.More) + " more problems.\n")
		}
	}
	switch {
	case len(r.Problems) == 1 && r.Problems[0].Code == UnknownTool:
	case len(r.Accepted) == 0:
		b.WriteString("Tool '" + r.Tool + "' takes no parameters.")
	default:
		b.WriteString("Accepted parameters: " + strings.Join(r.Accepted, ", ") + ".")
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// sentence renders one problem.
func (p Problem) sentence(tool string) string {
	p.Path = pathText(p.Path) // a key in it is the caller's
	switch p.Code {
	case UnknownTool:
		s := "Tool '" + tool + "' is not a registered tool"
		if p.DidYouMean != "" {
			return s + "; did you mean '" + p.DidYouMean + "'?"
		}
		return s + "."
	case UnknownArgument:
		s := "Argument '" + p.Argument + "' is not a parameter of tool '" + tool + "'"
		if p.DidYouMean != "" {
			return s + "; did you mean '" + p.DidYouMean + "'?"
		}
		return s + "."
	case InvalidJSON:
		return "The arguments for tool '" + tool + "' are not valid JSON: " + p.Sent + "."
	case DuplicateName:
		if p.Argument == "" {
			return "The arguments for tool '" + tool + "' have the key " + p.Sent + " more than once in one object, and the tool refuses a repeated key: send each key once."
		}
	case NotAnObject:
		return "The arguments for tool '" + tool + "' must be " + p.Takes + ", and the call sent " + p.Sent + "."
	case TooDeep:
		// The limit is the binder's (10000 levels for encoding/json, 1000
		// under bind.SegmentIO): the sentence states none.
		deep := " deeper than the binder reads."
		if p.Argument == "" {
			return "The arguments for tool '" + tool + "' nest arrays and objects" + deep
		}
		return "Argument '" + p.Argument + "' for tool '" + tool + "' takes " + p.Takes + ", and the call sent " + p.Sent + ": arrays and objects nested" + deep
	}
	arg := "Argument '" + p.Argument + "' for tool '" + tool + "'"
	switch p.Code {
	case MissingArgument:
		return arg + " is required, and the call did not send it: it takes " + p.Takes + "."
	case AliasConflict:
		s := arg + " was sent under more than one name (" + p.Sent + "); send it once, as '" + p.Argument + "'."
		if p.Becomes != "" {
			s += " The tool reads " + p.Becomes + "; the other values were dropped."
		}
		return s
	case FoldedKey:
		if p.Path == "" {
			return arg + " was sent under the key " + p.Sent + ", which matches it only when case is ignored."
		}
		return arg + " has the key " + p.Sent + " at " + p.Argument + p.Path + ", which matches a field only when case is ignored."
	case DuplicateName:
		if p.Element == "" {
			return arg + " was sent more than once, under the key " + p.Sent + ", and the tool refuses a repeated key: send it once."
		}
		return arg + " takes " + p.Takes + ", and the call sent " + p.Sent + ", with the key " + p.Element + " more than once at " + p.Argument + p.Path + ", which the tool refuses: send each key once."
	case DuplicateKey:
		if p.Path == "" {
			return arg + " was sent more than once, under the key " + p.Sent + "; the tool reads only the last value."
		}
		return arg + " has the key " + p.Sent + " more than once at " + p.Argument + p.Path + "; the tool reads only the last value."
	case UnknownField:
		return arg + " takes " + p.Takes + ", and the call sent " + p.Sent + ", with the key " + p.Element + " at " + p.Argument + p.Path + ", which names no field there."
	case MissingField:
		return arg + " takes " + p.Takes + ", and the call sent " + p.Sent + ", without the required field " + p.Element + " at " + p.Argument + p.Path + "."
	}
	s := arg + " takes " + p.Takes + ", and the call sent " + p.Sent
	if p.Element != "" {
		s += ", with "
		if p.Code == InvalidKey {
			s += "the key "
		}
		s += p.Element + " at " + p.Argument + p.Path
	}
	switch p.Code {
	case TooLarge:
		s += ", which is too large"
	case TooSmall:
		s += ", which is too small"
	case NullForValue, ArrayLength, RoundedNumber, ReplacedText:
		if p.Becomes != "" {
			s += ", which the tool reads as " + p.Becomes
		} else {
			s += ", which the tool does not read as sent"
		}
	}
	return s + "."
}
