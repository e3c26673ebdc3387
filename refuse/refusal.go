package refuse

import (
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/bindguard/bindguard/bind"
)

// A Code names a kind of problem. Codes are stable: match on them, not on
// the text. A Code is a bind.Code, the one taxonomy of issues and problems:
// its Class says whether the binder fails on it (bind.BinderFailure), the
// tool's policy decides on it (bind.PolicyProblem), or it is a silent loss
// (bind.SilentLoss); each is published under the name below.
type Code = bind.Code

const (
	// The binder's failures, and no such tool: refused in every mode but
	// Off.

	// InvalidJSON: the arguments are not valid JSON.
	InvalidJSON = bind.InvalidJSON
	// NotAnObject: the arguments are valid JSON but not an object.
	NotAnObject = bind.NotAnObject
	// UnknownTool: no tool of that name is registered.
	UnknownTool = bind.UnknownTool
	// UnknownArgument: a key the binder binds to no parameter.
	UnknownArgument = bind.UnknownArgument
	// WrongType: a value of a JSON kind the parameter does not take (text
	// for a number, a number for true or false, an object for a list...).
	WrongType = bind.WrongType
	// NotWholeNumber: a number with a fraction or an exponent, for a whole
	// number parameter.
	NotWholeNumber = bind.NotWholeNumber
	// TooLarge: a number past the largest value the parameter's type holds.
	TooLarge = bind.TooLarge
	// TooSmall: a number past the smallest value the parameter's type holds.
	TooSmall = bind.TooSmall
	// NotOneOf: text that is none of the values the parameter lists.
	NotOneOf = bind.NotOneOf
	// InvalidKey: an object key a map parameter's key type does not read.
	InvalidKey = bind.InvalidKey
	// TooDeep: arrays and objects nested deeper than the binder reads.
	TooDeep = bind.TooDeep
	// InvalidValue: a value of the right JSON kind that the parameter's type
	// still does not read (bad base64, a date that is not RFC 3339, text a
	// custom decoder refuses).
	InvalidValue = bind.InvalidValue
	// DuplicateName: a key sent more than once in one object, which the
	// binder refuses (jsonv2.Binder: go-json-experiment's
	// jsontext.ErrDuplicateName). Sent quotes the key; inside an argument,
	// Sent quotes the argument, Element the key and Path the object. One
	// problem per repeated key, however often it repeats. A binder that
	// reads the last value instead reports DuplicateKey, a silent loss.
	DuplicateName = bind.DuplicateName
	// AmbiguousArgument: a key that names no parameter exactly and that
	// the binder matches, ignoring case, to two or more, and refuses
	// (jsonv2.Binder, with two case:ignore fields whose names fold
	// alike). Argument and Sent name the key as sent, as for
	// UnknownArgument; the refusal's accepted parameters list the names
	// to send instead.
	AmbiguousArgument = bind.AmbiguousArgument
	// AmbiguousField: the same, one level down: a key inside an argument
	// that names no field of its object's struct exactly and that the
	// binder matches, ignoring case, to two or more, and refuses. Element
	// quotes the key, Path and Pointer lead to its member, Sent quotes the
	// argument, as for UnknownField; the binder stops at the first such key
	// (or other failure) in an argument, so there is one per argument.
	AmbiguousField = bind.AmbiguousField

	// Policy problems (see Decide): refused under Reject, warnings under
	// Warn.

	// UnknownField: a key inside an object argument that names no field
	// of the struct it is read into (the binder drops it).
	UnknownField = bind.UnknownField
	// MissingArgument: a required parameter the call does not send, or
	// sends as null where its type cannot hold null (Sent is then null).
	MissingArgument = bind.MissingArgument
	// MissingField: an object argument (or an object inside one) that
	// leaves out a field its struct's published schema requires; Element
	// names the field, Path leads to where it would be.
	MissingField = bind.MissingField
	// AliasConflict: one parameter sent under its name and an alias, under
	// two aliases, or under its name and a key the binder folds to it (or
	// two such keys); the call goes on, if at all, with one member, and
	// Becomes quotes its value.
	AliasConflict = bind.AliasConflict
	// Constraint: a value the binder reads that breaks the tool's own
	// constraint (a validate tag, or a schema tool's keyword): Takes states
	// the constraint. With no Argument, the arguments as a whole break a
	// schema tool's rule of its root (minProperties, maxProperties).
	Constraint = bind.Constraint

	// Silent losses: values the binder reads but changes or drops.
	// Warnings, unless the policy is Strict.

	// NullForValue: null for a parameter (or an element) that cannot hold
	// null; the binder leaves its zero value, which Becomes quotes. Also
	// the key "null" of a map of integer keys, which segmentio.Binder (and
	// encoding/json under GOEXPERIMENT=jsonv2) reads as the key 0.
	NullForValue = bind.NullForValue
	// FoldedKey: a key the binder binds to a parameter or field only by
	// ignoring case ("HOURS_BACK" for hours_back, the Kelvin sign for k).
	FoldedKey = bind.FoldedKey
	// DuplicateKey: a key sent more than once in one object; the binder
	// reads the last value.
	DuplicateKey = bind.DuplicateKey
	// ArrayLength: a fixed-size array sent more elements than it holds
	// (the extra ones are dropped) or fewer (the rest stay zero).
	ArrayLength = bind.ArrayLength
	// RoundedNumber: an integer, written with no fraction and no exponent,
	// that a float (float32, float64, or a number read into any) cannot
	// hold exactly, so the binder rounds it (9007199254740993 for a
	// float64). A number written with a fraction or an exponent is taken
	// as the caller's approximation, and not reported.
	RoundedNumber = bind.RoundedNumber
	// ReplacedText: text with invalid UTF-8 or a lone surrogate escape,
	// which the binder replaces with U+FFFD.
	ReplacedText = bind.ReplacedText
	// WrappedNumber: a whole number past the largest (or smallest) value
	// the parameter's type holds, which the binder reads, without failing,
	// as another number (segmentio.Binder, for a 64-bit integer: its
	// overflow check misses some wraps); Becomes quotes the number the
	// tool reads.
	WrappedNumber = bind.WrappedNumber
)

// A Problem is one thing wrong with a call.
type Problem struct {
	// Argument is the parameter the problem is in, by its declared name;
	// for UnknownArgument, the key as sent (cut short); empty for problems
	// with the arguments as a whole.
	Argument string `json:"argument,omitempty"`
	// Path leads from the argument to the offending value inside it, as in
	// "[2]" or ".a"; empty when the argument itself is the offending value.
	Path string `json:"path,omitempty"`
	// Pointer is the RFC 6901 JSON Pointer to the offending value (for a
	// key, to its member) from the root of the arguments, its first token
	// the argument's key as the call sent it ("/HOURS_BACK" for a key
	// folded to hours_back, "/waits/2"; "~" and "/" in a key written "~0"
	// and "~1"). It is set for every problem with a place in the
	// arguments, and empty for the others (the arguments as a whole, a
	// parameter not sent) and where the place is past a path's bounds
	// (more than 12 steps, or a key past 40 characters, the argument's
	// own included): Path names it then, and a Pointer is never cut short
	// to name another place.
	Pointer string `json:"pointer,omitempty"`
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
	// AliasConflict, the value of the one member kept, empty where the
	// tool reads several merged); empty when it cannot be shown.
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
	// Problems lists the problems found, one per argument (the most
	// serious found in it), then one per unknown key: the binder's
	// failures first, then the parameters left out, then the rest. It
	// holds at most MaxProblems, and no more than the text of Error has
	// room for (see Error).
	Problems []Problem `json:"problems"`
	// More counts the problems found and not listed in Problems: exactly,
	// however many the call has.
	More int `json:"more,omitempty"`
}

// rank orders what is found by its code, for Refusal.Problems: the
// binder's failures first, then the parameters the call leaves out, the
// other policy problems, and silent losses, so that each argument's one
// problem (the first found in it) is its most serious; unknown keys last,
// so that a flood of them cannot push an argument's problem past
// MaxProblems. Among the losses a key repeated (a value dropped, whatever
// the case of its key) comes before the others: an argument's one problem
// must say a value was thrown away.
func rank(c Code) int { return rankIn(c.Class(), c) }

// rankIn is rank for a problem of code c in class cl: a schema tool's
// (schemacheck.Issue.Class), whose schema's verdicts are the tool's policy
// whatever their code, and whose open root holds an unknown key as a loss.
func rankIn(cl bind.Class, c Code) int {
	switch {
	case cl == bind.BinderFailure:
		return 0
	case c == MissingArgument:
		return 1
	case c == UnknownArgument:
		return 5
	case c == DuplicateKey:
		return 3
	case cl == bind.SilentLoss:
		return 4
	}
	return 2 // the other policy problems
}

// MaxProblems bounds Refusal.Problems, so a call with a hundred thousand
// unknown keys costs a bounded refusal.
const MaxProblems = 100

const (
	// maxText bounds the text of a refusal or of warnings, in bytes.
	maxText = 4000
	// maxAcceptedText bounds the line naming the accepted parameters.
	maxAcceptedText = 600
	// maxToolText bounds a tool's name in the text, in bytes.
	maxToolText = 100
	// maxProblemText bounds the sentences of the problems a refusal
	// lists, leaving room for the count of the rest and the accepted
	// parameters.
	maxProblemText = maxText - maxAcceptedText - 64
	// maxProblemJSON bounds the problems a refusal lists in JSON, for
	// structuredContent.
	maxProblemJSON = 12000
)

// Error renders the refusal as text for the caller (a model) to read: a
// sentence for each problem listed (the unknown keys past three in one),
// "And N more problems." for the rest, and the parameters the tool
// accepts. The text is at most 4000 bytes, whatever the call: problems
// that do not fit are counted with the rest, and at least one is always
// named when any is listed.
func (r *Refusal) Error() string { return r.render(maxText) }

// render renders the refusal in at most budget bytes.
func (r *Refusal) render(budget int) string {
	tool := toolText(r.Tool)
	trailer := ""
	switch {
	case len(r.Problems) == 1 && r.Problems[0].Code == UnknownTool:
	case len(r.Accepted) == 0:
		trailer = "Tool '" + tool + "' takes no parameters."
	default:
		trailer = acceptedText(r.Accepted)
	}
	budget -= len(trailer) + len("And 1000000000000 more problems.\n")
	var b strings.Builder
	rest := 0
	// write writes one sentence if it fits, or cut to fit if it is the
	// first, and reports whether it did.
	write := func(s string) bool {
		if b.Len()+len(s)+1 > budget {
			if b.Len() > 0 {
				return false
			}
			s = cutText(s, budget-1)
		}
		b.WriteString(s)
		b.WriteByte('\n')
		return true
	}
	var unknown []Problem
	for _, p := range r.Problems {
		if p.Code == UnknownArgument {
			unknown = append(unknown, p)
			continue
		}
		if !write(p.sentence(tool)) {
			rest++
		}
	}
	rest += max(r.More, 0)
	if len(unknown) > 3 {
		var s strings.Builder
		s.WriteString("Arguments ")
		for i, p := range unknown[:3] {
			if i > 0 {
				s.WriteString(", ")
			}
			s.WriteString("'" + p.Argument + "'")
		}
		s.WriteString(" and " + strconv.Itoa(len(unknown)-3) + " more are not parameters of tool '" + tool + "'.")
		if !write(s.String()) {
			rest += len(unknown)
		}
	} else {
		for _, p := range unknown {
			if !write(p.sentence(tool)) {
				rest++
			}
		}
	}
	switch {
	case rest == 1:
		b.WriteString("And 1 more problem.\n")
	case rest > 1:
		b.WriteString("And " + strconv.Itoa(rest) + " more problems.\n")
	}
	b.WriteString(trailer)
	return strings.TrimSuffix(b.String(), "\n")
}

// toolText is a tool's name as the text names it: cut to maxToolText.
func toolText(name string) string {
	if len(name) <= maxToolText {
		return name
	}
	return cutText(name, maxToolText)
}

// acceptedText is the line naming the accepted parameters, in at most
// maxAcceptedText bytes: the names that fit, and how many more there are.
func acceptedText(names []string) string {
	const head, tail = "Accepted parameters: ", " and 1000000000 more."
	var b strings.Builder
	b.WriteString(head)
	for i, n := range names {
		if len(n) > maxToolText {
			n = cutText(n, maxToolText)
		}
		if b.Len()+len(n)+2+len(tail) > maxAcceptedText && i < len(names)-1 || b.Len()+len(n)+2 > maxAcceptedText {
			b.WriteString(" and " + strconv.Itoa(len(names)-i) + " more.")
			return b.String()
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
	}
	b.WriteString(".")
	return b.String()
}

// cutText cuts s to at most n bytes on a character boundary, marking the
// cut with an ellipsis.
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	n -= len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:max(n, 0)] + "…"
}

// sentence renders one problem.
func (p Problem) sentence(tool string) string {
	w := sentenceWriter{b: make([]byte, 0, p.sentenceLen(tool))}
	p.writeSentence(&w, tool)
	return unsafe.String(unsafe.SliceData(w.b), len(w.b)) // w.b is this string's alone
}

// sentenceLen is the length of p's sentence, counted without writing it.
func (p Problem) sentenceLen(tool string) int {
	w := sentenceWriter{count: true}
	p.writeSentence(&w, tool)
	return w.n
}

// A sentenceWriter is where writeSentence writes: the text, or when count
// is set, only its length.
type sentenceWriter struct {
	b     []byte
	n     int
	count bool
}

// cat writes each of parts.
func (w *sentenceWriter) cat(parts ...string) {
	for _, s := range parts {
		if w.count {
			w.n += len(s)
		} else {
			w.b = append(w.b, s...)
		}
	}
}

// writeSentence writes p's sentence to w.
func (p Problem) writeSentence(w *sentenceWriter, tool string) {
	switch p.Code {
	case UnknownTool:
		w.cat("Tool '", tool, "' is not a registered tool")
		if p.DidYouMean != "" {
			w.cat("; did you mean '", p.DidYouMean, "'?")
			return
		}
		w.cat(".")
		return
	case AmbiguousArgument:
		w.cat("Argument '", p.Argument, "' for tool '", tool, "' names no parameter exactly, and matches more than one when case is ignored, which the tool refuses: send one parameter's name exactly.")
		return
	case UnknownArgument:
		w.cat("Argument '", p.Argument, "' is not a parameter of tool '", tool, "'")
		if p.DidYouMean != "" {
			w.cat("; did you mean '", p.DidYouMean, "'?")
			return
		}
		w.cat(".")
		return
	case InvalidJSON:
		w.cat("The arguments for tool '", tool, "' are not valid JSON: ", p.Sent, ".")
		return
	case DuplicateName:
		if p.Argument == "" {
			w.cat("The arguments for tool '", tool, "' have the key ", p.Sent, " more than once in one object, and the tool refuses a repeated key: send each key once.")
			return
		}
	case NotAnObject:
		w.cat("The arguments for tool '", tool, "' must be ", p.Takes, ", and the call sent ", p.Sent, ".")
		return
	case Constraint:
		switch {
		case p.Argument == "" && p.Sent == "":
			// A schema tool's rule of the arguments as a whole, and no
			// arguments sent (empty, read as {}).
			w.cat("The arguments for tool '", tool, "' must be ", p.Takes, ", and the call sent none.")
			return
		case p.Argument == "":
			// A schema tool's rule of the arguments as a whole
			// (minProperties at the root).
			w.cat("The arguments for tool '", tool, "' must be ", p.Takes, ", and the call sent ", p.Sent, ".")
			return
		}
	case TooDeep:
		// The limit is the binder's (10000 levels for encoding/json, 1000
		// under segmentio.Binder): the sentence states none.
		const deep = " deeper than the binder reads."
		if p.Argument == "" {
			w.cat("The arguments for tool '", tool, "' nest arrays and objects", deep)
			return
		}
		w.cat("Argument '", p.Argument, "' for tool '", tool, "' takes ", p.Takes, ", and the call sent ", p.Sent, ": arrays and objects nested", deep)
		return
	}
	if p.Argument == "" && p.Code == InvalidValue {
		// A bind.Reader binder refused the arguments, and no one of them alone.
		w.cat("The arguments for tool '", tool, "' are refused as a whole, though each argument alone is read: the call sent ", p.Sent, ".")
		return
	}
	w.cat("Argument '", p.Argument, "' for tool '", tool, "'")
	switch p.Code {
	case MissingArgument:
		if p.Sent != "" {
			w.cat(" is required, and the call sent ", p.Sent, ", which does not count as sending it: it takes ", p.Takes, ".")
			return
		}
		w.cat(" is required, and the call did not send it: it takes ", p.Takes, ".")
		return
	case AliasConflict:
		w.cat(" was sent under more than one name (", p.Sent, "); send it once, as '", p.Argument, "'.")
		if p.Becomes != "" {
			w.cat(" The tool reads ", p.Becomes, "; the other values were dropped.")
		}
		return
	case FoldedKey:
		if p.Path == "" {
			w.cat(" was sent under the key ", p.Sent, ", which matches it only when case is ignored.")
			return
		}
		w.cat(" has the key ", p.Sent, " at ", p.Argument, p.Path, ", which matches a field only when case is ignored.")
		return
	case DuplicateName:
		if p.Element == "" {
			w.cat(" was sent more than once, under the key ", p.Sent, ", and the tool refuses a repeated key: send it once.")
			return
		}
		w.cat(" takes ", p.Takes, ", and the call sent ", p.Sent, ", with the key ", p.Element, " more than once at ", p.Argument, p.Path, ", which the tool refuses: send each key once.")
		return
	case DuplicateKey:
		switch {
		case p.Path == "" && p.Becomes != "":
			w.cat(" was sent more than once, under the key ", p.Sent, "; the tool reads only ", p.Becomes, ".")
			return
		case p.Path == "":
			w.cat(" was sent more than once, under the key ", p.Sent, "; the tool reads each value over the one before: send it once.")
			return
		}
		// The key as sent may differ from the one before it (escaped, "01"
		// for 1, a text the key type reads alike): say what the tool does.
		// Which value it keeps depends on the values (a null leaves a
		// number as it was, objects merge), which the issue does not carry.
		w.cat(" has the key ", p.Sent, " at ", p.Argument, p.Path, ", the same key to the tool as one sent before it there; the tool reads each value over the one before: send it once.")
		return
	case UnknownField:
		w.cat(" takes ", p.Takes, ", and the call sent ", p.Sent, ", with the key ", p.Element, " at ", p.Argument, p.Path, ", which names no field there.")
		return
	case AmbiguousField:
		w.cat(" takes ", p.Takes, ", and the call sent ", p.Sent, ", with the key ", p.Element, " at ", p.Argument, p.Path, ", which names no field there exactly, and matches more than one when case is ignored, which the tool refuses: send one field's name exactly.")
		return
	case MissingField:
		w.cat(" takes ", p.Takes, ", and the call sent ", p.Sent, ", without the required field ", p.Element, " at ", p.Argument, p.Path, ".")
		return
	}
	w.cat(" takes ", p.Takes, ", and the call sent ", p.Sent)
	if p.Element != "" {
		w.cat(", with ")
		if p.Code == InvalidKey {
			w.cat("the key ")
		}
		w.cat(p.Element, " at ", p.Argument, p.Path)
	}
	switch p.Code {
	case TooLarge:
		w.cat(", which is too large")
	case TooSmall:
		w.cat(", which is too small")
	case NullForValue, ArrayLength, RoundedNumber, ReplacedText, WrappedNumber:
		if p.Becomes != "" {
			w.cat(", which the tool reads as ", p.Becomes)
		} else {
			w.cat(", which the tool does not read as sent")
		}
	}
	w.cat(".")
}
