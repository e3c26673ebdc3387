package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A grade is what a server's answer to one call says about the argument
// probed.
type grade string

const (
	// named: a tool error (isError true) that names the argument.
	named grade = "named_refusal"
	// generic: a tool error that does not name it.
	generic grade = "generic_error"
	// accepted: a result that is not an error.
	accepted grade = "accepted"
	// protocol: a JSON-RPC error instead of a result, or the connection
	// failed.
	protocol grade = "protocol_error"
	// timedOut: no answer within -timeout.
	timedOut grade = "timeout"
)

// How a tool error named the argument.
const (
	byProblems = "problems" // a problem of a bindguard refusal in structuredContent
	byQuote    = "quote"    // the text quotes the name: 'name', "name", `name`
	byWord     = "word"     // the text holds the name as a word of its own
)

// gradeResult grades a tool's result for a call that probed argument arg,
// and returns its text (the text content blocks, joined by line breaks).
//
// A result that is not an error is accepted. An error is a named refusal
// when its structuredContent is a bindguard refusal (an object with a
// "problems" list) one of whose problems has argument arg; when it is such a
// refusal but no problem names arg, it is a generic error, whatever the
// text says. Without one, the error is a named refusal when its text names
// arg (see namedIn), and a generic error otherwise.
func gradeResult(res *mcp.CallToolResult, arg string) (g grade, by, text string) {
	var texts []string
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			texts = append(texts, t.Text)
		}
	}
	text = strings.Join(texts, "\n")
	if !res.IsError {
		return accepted, "", text
	}
	if problems, ok := refusalProblems(res.StructuredContent); ok {
		for _, p := range problems {
			if p, ok := p.(map[string]any); ok && p["argument"] == arg {
				return named, byProblems, text
			}
		}
		return generic, "", text
	}
	if by := namedIn(text, arg); by != "" {
		return named, by, text
	}
	return generic, "", text
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

// namedIn reports how text names the argument arg: byQuote when it quotes
// it ('arg', "arg", `arg`, ‘arg’, “arg”), byWord when it holds it as a
// word of its own ("hours_back must be from 1 to 168"), and "" when it does
// neither. An occurrence inside a longer name does not count, nor one that
// ends a path or a qualified name (/properties/hours_back, a decoder's
// Args.hours_back): those are the decoder's or the validator's words, which
// a caller cannot be expected to map to the argument.
func namedIn(text, arg string) string {
	if arg == "" {
		return ""
	}
	by := ""
	for i := 0; ; {
		j := strings.Index(text[i:], arg)
		if j < 0 {
			return by
		}
		start, end := i+j, i+j+len(arg)
		before, _ := utf8.DecodeLastRuneInString(text[:start])
		after, _ := utf8.DecodeRuneInString(text[end:])
		if start == 0 {
			before = utf8.RuneError
		}
		if end == len(text) {
			after = utf8.RuneError
		}
		switch {
		case quotePair(before, after):
			return byQuote
		case !wordRune(before) && before != '/' && before != '.' && !wordRune(after):
			by = byWord
		}
		i = start + 1
	}
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
