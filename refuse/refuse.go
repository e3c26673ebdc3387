package refuse

import (
	"encoding/json"
	"strconv"

	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/typereg"
)

// Refuse decides whether a call of tool with args may go on to the handler.
// It returns nil when the registry's binder reads args into the tool's
// parameter struct and every key names a parameter; otherwise a Refusal
// naming every bad argument.
//
// The verdict on each value is the binder's own: a value is refused exactly
// when the binder would fail on it, never when the binder reads it. That
// covers values of the wrong JSON kind (text for a number, a number for
// true or false), numbers the type cannot hold (a fraction or an exponent
// for an integer, a number past the type's range), and values a type's own
// UnmarshalJSON or UnmarshalText refuses (the real method runs).
//
// A top-level key the binder would drop (no field matches it, even by the
// binder's case folding) is an unknown argument and is refused; a key the
// binder binds, in any case it folds, is not. Keys inside a nested object
// are the binder's business: it drops the ones it does not bind.
//
// Empty args mean {}; null means no arguments, as the binder reads it.
// Arguments that are not valid JSON, or valid JSON but not an object, are
// refused with one problem for the whole. A repeated key is read at every
// occurrence, as the binder reads it, and a bad occurrence is refused even
// when a later one is good. An unregistered tool is refused by name.
//
// Refuse is safe for concurrent use and allocates nothing when it returns
// nil. It returns a *Refusal rather than an error so that a nil result stays
// nil: store it in an error variable only when it is not nil.
func Refuse(reg *typereg.Registry, tool string, args json.RawMessage) *Refusal {
	t, ok := reg.Tool(tool)
	if !ok {
		return unknownTool(reg, tool)
	}
	issues := t.Plan().Check(args, nil)
	if len(issues) == 0 {
		return nil
	}
	return refusal(t, args, issues)
}

func unknownTool(reg *typereg.Registry, tool string) *Refusal {
	var names []string
	for _, t := range reg.Tools() {
		names = append(names, t.Name)
	}
	name := quoteKey([]byte(strconv.Quote(tool)))
	return &Refusal{
		Tool:     name,
		Problems: []Problem{{Code: UnknownTool, Argument: "", Sent: name, DidYouMean: closest(tool, names)}},
	}
}

// maxSuggestions bounds the unknown keys a refusal looks for a close
// parameter name for: the text names only the first few.
const maxSuggestions = 10

func refusal(t *typereg.Tool, args []byte, issues []bind.Issue) *Refusal {
	r := &Refusal{Tool: t.Name, Accepted: t.Accepted()}
	w := words{defs: t.Schema.Definitions, binder: t.Plan().Binder().Name()}
	seenParam := make([]bool, len(t.Params))
	var seenKey map[string]bool
	add := func(p Problem) {
		if len(r.Problems) >= MaxProblems {
			r.More++
			return
		}
		r.Problems = append(r.Problems, p)
	}
	for _, is := range issues {
		switch is.Kind {
		case bind.Syntax:
			add(Problem{Code: InvalidJSON, Takes: "a JSON object", Sent: syntaxSent(args, is.Start)})
		case bind.Omitted:
			r.More += is.N
		case bind.TooDeep:
			p := Problem{Code: TooDeep}
			if is.Param >= 0 {
				tp := t.Params[is.Param]
				p.Argument, p.Takes = tp.Name, w.takes(tp.Type, tp.Quoted, tp.Schema)
				head := args[is.Start:min(len(args), is.Start+4*maxSent)]
				cut, _ := cutChars(head, maxSent)
				p.Sent = escapeText(head[:cut]) + "…"
			}
			add(p)
		case bind.NotObject:
			add(Problem{Code: NotAnObject, Takes: "a JSON object", Sent: quoteSent(args[is.Start:is.End])})
		case bind.UnknownKey:
			raw := args[is.Start:is.End]
			if len(r.Problems) >= MaxProblems {
				r.More++
				continue
			}
			if seenKey == nil {
				seenKey = map[string]bool{}
			}
			if seenKey[string(raw)] {
				continue
			}
			seenKey[string(raw)] = true
			p := Problem{Code: UnknownArgument, Argument: quoteKey(raw), Sent: quoteSent(raw)}
			if len(seenKey) <= maxSuggestions {
				p.DidYouMean = closest(unquoteKey(raw), r.Accepted)
			}
			add(p)
		default:
			if is.Param < 0 || seenParam[is.Param] {
				continue
			}
			seenParam[is.Param] = true
			p := t.Params[is.Param]
			pr := Problem{
				Argument: p.Name,
				Path:     is.Path,
				Code:     code(is, w.resolve(w.at(p.Schema, is.Path))),
				Takes:    w.takes(p.Type, p.Quoted, p.Schema),
				Sent:     quoteSent(args[is.Start:is.End]),
			}
			if whole := memberValue(args, is.Start); whole != nil && len(whole) != is.End-is.Start {
				pr.Element, pr.Sent = pr.Sent, quoteSent(whole)
			}
			add(pr)
		}
	}
	return r
}

// code maps a binder issue to the problem's code; s is the advertised
// schema of the offending value.
func code(is bind.Issue, s *jsonschema.Schema) Code {
	switch is.Kind {
	case bind.WrongType:
		return WrongType
	case bind.NotWhole:
		return NotWholeNumber
	case bind.TooLarge:
		return TooLarge
	case bind.TooSmall:
		return TooSmall
	case bind.BadKey:
		return InvalidKey
	}
	if s != nil && len(s.Enum) > 0 {
		return NotOneOf
	}
	return InvalidValue
}

func syntaxSent(args []byte, at int) string {
	if at >= len(args) {
		return "the text ends before the JSON value does"
	}
	cut, _ := cutChars(args[at:], 1)
	return "byte " + strconv.Itoa(at) + " (" + strconv.Quote(escapeText(args[at:at+max(cut, 1)])) + ") cannot stand there"
}

func unquoteKey(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return string(raw)
	}
	return s
}
