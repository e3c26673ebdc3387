package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// A grade is what a server's answer to one call says about the argument
// probed.
type grade string

const (
	// named: a tool error (isError true) that names the argument.
	named grade = "named_refusal"
	// generic: a tool error that names no argument, for a call the input
	// schema does not accept.
	generic grade = "generic_error"
	// otherArgument: a tool error that names another argument and not
	// this one: the filler, not the value probed, was refused.
	otherArgument grade = "other_argument"
	// validCall: a tool error that names no argument, for a call the input
	// schema accepts: the tool failed on a good value (a file not found,
	// an unknown time zone), which says nothing about its refusals.
	validCall grade = "valid_call_error"
	// accepted: a result that is not an error.
	accepted grade = "accepted"
	// changed: accepted, and the answer shows the value changed (sent
	// 9007199254740993, it says 9007199254740992).
	changed grade = "accepted_changed"
	// warned: accepted with bindguard warnings.
	warned grade = "accepted_warned"
	// protocol: a JSON-RPC error instead of a result, or the connection
	// failed.
	protocol grade = "protocol_error"
	// timedOut: no answer within -timeout.
	timedOut grade = "timeout"
)

// How a tool error named the argument.
const (
	byProblems   = "problems"   // a problem of a bindguard refusal in structuredContent
	byQuote      = "quote"      // 'name', "name", `name`, ‘name’, “name”
	byPath       = "path"       // a JSON Pointer or path segment: /properties/name, .name, [name]
	byLabel      = "label"      // argument name, parameter name, field name, property name, key name
	byColon      = "colon"      // name: or name=
	byIdentifier = "identifier" // a name no English word could be (snake_case, camelCase, digits), standing alone
	byValue      = "value"      // the name, then the value sent, quoted: Schema 'a' does not exist
	byLine       = "line"       // the name alone on a line of its own, as pydantic lists its errors
)

// A probed is the argument a call probes, as grading needs it.
type probed struct {
	top   string   // the top-level argument
	path  []string // the field names from top to the value probed (for a field of an object, or of each object of an array)
	value string   // the value sent, JSON text
	// others are the names of the tool's other arguments, and of the
	// other fields beside the one probed.
	others []string
	// inner are the names of the fields of the value probed, when it is an
	// object (or an array of objects): a refusal naming one is about it.
	inner []string
	// valid says whether the input schema accepts the call's arguments;
	// nil when bindprobe could not tell.
	valid *bool
}

// leaf is the name the probed value is under: the field, or the argument.
func (p probed) leaf() string {
	if len(p.path) > 0 {
		return p.path[len(p.path)-1]
	}
	return p.top
}

// gradeResult grades a tool's result for a call that probes p, and returns
// its text (the text content blocks, joined by line breaks). raw is the
// result as the server sent it, when known (go-sdk's client reads the
// numbers of structuredContent as float64, so only raw shows them exact).
//
// A result that is not an error is accepted, warned when it carries
// bindguard warnings (a "bindguard_warnings" object in structuredContent,
// or a text block saying the call "went on with these warnings"), changed
// when it shows the value changed (see changedIn). An error is a named
// refusal when its structuredContent is a bindguard refusal (an object
// with a "problems" list) one of whose problems is about the value probed,
// or, without one, when its text names it (see namedIn: the argument, or
// for a field the field or the argument); other_argument when it names
// only other arguments; else valid_call_error when the input schema
// accepts the call, and a generic error when it does not.
func gradeResult(res *mcp.CallToolResult, raw []byte, p probed) (g grade, by, text string) {
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	text = strings.Join(texts, "\n")
	if !res.IsError {
		if m, ok := res.StructuredContent.(map[string]any); ok {
			if _, ok := m["bindguard_warnings"].(map[string]any); ok {
				return warned, "", text
			}
		}
		for _, t := range texts {
			if strings.Contains(t, "went on with these warnings") {
				return warned, "", text
			}
		}
		if raw == nil {
			raw = []byte(text)
		}
		if changedIn(raw, p.value) {
			return changed, "", text
		}
		return accepted, "", text
	}
	if problems, ok := refusalProblems(res.StructuredContent); ok {
		for _, pr := range problems {
			if pr, ok := pr.(map[string]any); ok && pr["argument"] == p.top && problemAt(pr, p.path) {
				return named, byProblems, text
			}
		}
		return otherArgument, "", text
	}
	if by := p.namedBy(text); by != "" {
		return named, by, text
	}
	for _, o := range p.others {
		if namedIn(text, o, "") != "" {
			return otherArgument, "", text
		}
	}
	if len(p.path) > 0 {
		if by := namedIn(text, p.top, ""); by != "" {
			return named, by, text // the argument the field is in, and none of its other fields
		}
	}
	if p.valid != nil && *p.valid {
		return validCall, "", text
	}
	return generic, "", text
}

// namedBy says how text names the value probed: the leaf (the argument,
// or the field), or for an object one of its fields. (For a field, the
// argument it is in counts too, but only when no other argument or field
// is named: gradeResult sees to that.)
func (p probed) namedBy(text string) string {
	if by := namedIn(text, p.leaf(), p.value); by != "" {
		return by
	}
	for _, f := range p.inner {
		if by := namedIn(text, f, ""); by != "" {
			return by
		}
	}
	return ""
}

// problemAt reports whether a bindguard problem's path reaches the field
// path names (any problem does for the argument itself).
func problemAt(pr map[string]any, path []string) bool {
	if len(path) == 0 {
		return true
	}
	at, _ := pr["path"].(string)
	for _, f := range path {
		i := strings.Index(at, "."+f)
		if i < 0 {
			return false
		}
		at = at[i+1+len(f):]
	}
	return true
}

// refusalProblems returns the problems of a bindguard refusal in a result's
// structuredContent, and whether it holds one.
func refusalProblems(sc any) ([]any, bool) {
	m, ok := sc.(map[string]any)
	if !ok {
		return nil, false
	}
	problems, ok := m["problems"].([]any)
	return problems, ok
}

// labels are the words that, before a name, say it is one.
var labels = []string{"argument", "parameter", "param", "field", "property", "key", "option", "arg", "→ at"}

// namedIn reports how text names the argument name, matched without regard
// to case, or "" when it does not. A name is named when it is set off as a
// name, so that a model could tell which argument is wrong: quoted
// ('name', "name", `name`, ‘name’, “name”); a segment of a JSON Pointer or
// a path (/properties/name, Args.name, [name]); after a label (argument
// name, parameter name, field, property, key, option, param, arg); before
// a colon or an equals sign (name: must be..., name=5); after "at" at the
// end of the text, a line or a clause (the TypeScript SDK's "expected
// number, received string at head"); alone on a line
// of its own, in a text of several lines (pydantic's "1 validation
// error\nlimit\n  Input should be..."); the name, then the
// value sent, quoted (Schema 'a' does not exist, for schema sent "a"); or,
// for a name that no English word could be (one holding _ - or a digit, or
// an upper-case letter after a lower-case one: hours_back, maxLines), the
// name standing alone. An ordinary word in an ordinary sentence is not a
// name: "Access denied - path outside allowed directories" does not name
// path, nor "Invalid time zone specified" time. A name inside a longer
// name never counts (limit in rate_limit, limits or max-limit).
//
// value is the value sent, JSON text, or "" when the value-quote rule is
// not to be tried.
func namedIn(text, name, value string) string {
	if name == "" {
		return ""
	}
	lt, ln := strings.ToLower(text), strings.ToLower(name)
	if len(lt) != len(text) {
		text = lt // lower-casing changed lengths: read the lower-cased text alone
	}
	var sentQuoted []string
	if s, ok := jsonString(value); ok && s != "" {
		for _, q := range []string{"'", "\"", "`"} {
			sentQuoted = append(sentQuoted, q+strings.ToLower(s)+q)
		}
	}
	by := ""
	for i := 0; i <= len(lt); {
		j := strings.Index(lt[i:], ln)
		if j < 0 {
			return by
		}
		start, end := i+j, i+j+len(ln)
		i = start + 1
		before, _ := utf8.DecodeLastRuneInString(lt[:start])
		after, _ := utf8.DecodeRuneInString(lt[end:])
		if start == 0 {
			before = utf8.RuneError
		}
		if end == len(lt) {
			after = utf8.RuneError
		}
		if wordRune(before) || wordRune(after) {
			continue // inside a longer name
		}
		rest := lt[end:]
		switch {
		case quotePair(before, after):
			return byQuote
		case before == '/' || before == '.' || before == '[' && after == ']' || pathAfter(lt[end:]):
			by = pick(by, byPath)
		case after == ':' || after == '=':
			by = pick(by, byColon)
		case labelBefore(lt[:start]) || atEnd(lt, start, after):
			by = pick(by, byLabel)
		case aloneOnLine(lt, start, end):
			by = pick(by, byLine)
		case startsQuoted(strings.TrimLeft(rest, " "), sentQuoted):
			by = pick(by, byValue)
		case identifier(text[min(start, len(text)):min(end, len(text))]):
			by = pick(by, byIdentifier)
		}
	}
	return by
}

// pick keeps the first way found.
func pick(by, next string) string {
	if by != "" {
		return by
	}
	return next
}

func lastRune(s string) rune {
	r, _ := utf8.DecodeLastRuneInString(s)
	return r
}

// labelBefore reports whether s ends with a label and a space (argument ,
// parameter ...).
func labelBefore(s string) bool {
	s = strings.TrimRight(s, " ")
	for _, l := range labels {
		if rest, ok := strings.CutSuffix(s, l); ok && !wordRune(lastRune(rest)) {
			return true
		}
	}
	return false
}

// pathAfter reports whether rest, what follows a name, goes on as a path
// into it: [0], /0, or .field (not the full stop of a sentence).
func pathAfter(rest string) bool {
	if len(rest) < 2 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(rest[1:])
	switch rest[0] {
	case '[':
		return true
	case '.', '/':
		return wordRune(r)
	}
	return false
}

// atEnd reports whether the name at start follows "at " and ends the text,
// a line or a clause, as the TypeScript SDK writes zod's issues ("expected
// number, received string at head").
func atEnd(text string, start int, after rune) bool {
	return strings.HasSuffix(text[:start], " at ") && (after == utf8.RuneError || after == '\n' || after == ';' || after == ',' || after == ')')
}

// aloneOnLine reports whether text[start:end] is a line of text of its
// own, spaces aside.
func aloneOnLine(text string, start, end int) bool {
	before := strings.TrimRight(text[:start], " \t")
	after := strings.TrimLeft(text[end:], " \t\r")
	return (before == "" || strings.HasSuffix(before, "\n")) && (after == "" || after[0] == '\n') && strings.Contains(text, "\n")
}

func startsQuoted(s string, quoted []string) bool {
	for _, q := range quoted {
		if strings.HasPrefix(s, q) {
			return true
		}
	}
	return false
}

// identifier reports whether name, as the text writes it, is one no
// English word could be: it holds _ - or a digit, or an upper-case letter
// after a lower-case one.
func identifier(name string) bool {
	prev := rune(0)
	for _, r := range name {
		if r == '_' || r == '-' || unicode.IsDigit(r) || unicode.IsUpper(r) && unicode.IsLower(prev) {
			return true
		}
		prev = r
	}
	return false
}

// jsonString returns the text of a JSON string value.
func jsonString(v string) (string, bool) {
	var s string
	if jsonlex.KindAt([]byte(v), 0) != jsonlex.KindString || json.Unmarshal([]byte(v), &s) != nil {
		return "", false
	}
	return s, true
}

func quotePair(open, closing rune) bool {
	switch open {
	case '\'', '"', '`':
		return closing == open
	case '‘':
		return closing == '’'
	case '“':
		return closing == '”'
	}
	return false
}

// wordRune reports whether r can be part of a parameter's name.
func wordRune(r rune) bool {
	return r == '_' || r == '-' || r != utf8.RuneError && (unicode.IsLetter(r) || unicode.IsDigit(r))
}

// changedIn reports whether an answer (raw, its JSON or text) shows the
// number value changed: value, a JSON number, is one a float64 reads as
// another number (its shortest form is not the number sent), and the
// answer holds, as a number of its own, how a float64 (as Go or
// JavaScript prints it) reads it, and not value itself.
func changedIn(raw []byte, value string) bool {
	if jsonlex.KindAt([]byte(value), 0) != jsonlex.KindNumber {
		return false
	}
	f, err := strconv.ParseFloat(value, 64)
	if err != nil || math.IsInf(f, 0) {
		return false
	}
	// The float64's shortest form must be another number than the one
	// sent: 3.5e38 is not held exactly, but a float64 still reads as it.
	sent, ok := new(big.Rat).SetString(value)
	if !ok {
		return false
	}
	if short, ok := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64)); !ok || short.Cmp(sent) == 0 {
		return false
	}
	text := string(raw)
	if hasNumber(text, value) {
		return false
	}
	for _, form := range []string{strconv.FormatFloat(f, 'f', -1, 64), strconv.FormatFloat(f, 'g', -1, 64), jsNumber(f)} {
		if form != value && len(strings.Trim(form, "-0.")) >= 4 && hasNumber(text, form) {
			return true
		}
	}
	return false
}

// jsNumber is f as JavaScript's Number.prototype.toString writes it, for
// the magnitudes where it differs from Go's shortest form: whole numbers
// from 1e21 up as 1e+21.
func jsNumber(f float64) string {
	if a := math.Abs(f); a >= 1e21 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		m, e, _ := strings.Cut(s, "e")
		e = strings.TrimLeft(strings.TrimPrefix(e, "+"), "0")
		return m + "e+" + e
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// hasNumber reports whether text holds n as a number of its own: not
// inside a longer run of digits, dots or exponents.
func hasNumber(text, n string) bool {
	for i := 0; ; {
		j := strings.Index(text[i:], n)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(n)
		i = start + 1
		numRune := func(b byte) bool { return b >= '0' && b <= '9' || b == '.' || b == 'e' || b == 'E' || b == '+' }
		if (start == 0 || !numRune(text[start-1]) && (n[0] == '-' || text[start-1] != '-')) && (end == len(text) || !numRune(text[end])) {
			return true
		}
	}
}

// A callFailureKind says how a call that got no result failed.
type callFailureKind int

const (
	failNone      callFailureKind = iota
	failJSONRPC                   // a JSON-RPC error answer: the server is there
	failTimeout                   // no answer within -timeout
	failTransport                 // the connection failed
)

// callFailure describes, for a call that got no result, what it got
// instead, and how it failed.
func callFailure(err error, callCtx context.Context, timeout time.Duration) (string, callFailureKind) {
	var wire *jsonrpc.Error
	switch {
	case errors.As(err, &wire):
		return fmt.Sprintf("JSON-RPC error %d: %s", wire.Code, wire.Message), failJSONRPC
	case errors.Is(callCtx.Err(), context.DeadlineExceeded):
		return fmt.Sprintf("no answer within %v", timeout), failTimeout
	}
	return err.Error(), failTransport
}
