package main

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The texts are answers seen from real servers: the guarded example, the
// plain go-sdk (its schema validator and its decoder), and handlers.
func TestNamedIn(t *testing.T) {
	for _, tc := range []struct {
		text, arg, want string
	}{
		{"Argument 'hours_back' for tool 'get_wait_stats' takes a whole number, and the call sent 0.5.", "hours_back", byQuote},
		{`missing "limit"`, "limit", byQuote},
		{"bad `limit`", "limit", byQuote},
		{"bad “limit”", "limit", byQuote},
		{"hours_back must be from 1 to 168; the call sent 0", "hours_back", byWord},
		{"the call sent too much for limit.", "limit", byWord},
		{"(limit) is wrong", "limit", byWord},
		// go-sdk's validator and decoder: a path, a qualified Go field.
		{`validating "arguments": validating root: validating /properties/limit: minimum: -2147483649/1 is less than -2147483648.000000`, "limit", ""},
		{"json: cannot unmarshal number 9223372036854776000} overflows into Go struct field main.GetWaitStatsArgs.hours_back of type int", "hours_back", ""},
		// Inside a longer name.
		{"unknown argument 'limits'", "limit", ""},
		{"rate_limit must be positive", "limit", ""},
		{"limit_ms must be positive", "limit", ""},
		{"max-limit must be positive", "limit", ""},
		// A quote of another argument's value.
		{`cannot convert from "x"`, "unit", ""},
		{"", "limit", ""},
		{"anything", "", ""},
		// A word first, a quote later: the quote counts.
		{"limit is wrong: 'limit' takes a number", "limit", byQuote},
	} {
		if got := namedIn(tc.text, tc.arg); got != tc.want {
			t.Errorf("namedIn(%q, %q) = %q, want %q", tc.text, tc.arg, got, tc.want)
		}
	}
}

func TestGradeResult(t *testing.T) {
	text := func(s string) []mcp.Content { return []mcp.Content{&mcp.TextContent{Text: s}} }
	refusal := func(args ...string) any {
		var problems []any
		for _, a := range args {
			problems = append(problems, map[string]any{"argument": a, "code": "wrong_type"})
		}
		return map[string]any{"tool": "t", "accepted": []any{"a", "b"}, "problems": problems}
	}
	for _, tc := range []struct {
		name    string
		res     *mcp.CallToolResult
		grade   grade
		namedBy string
	}{
		{"a result", &mcp.CallToolResult{Content: text("ok, 'a'")}, accepted, ""},
		{"a refusal naming the argument in its problems", &mcp.CallToolResult{IsError: true, Content: text("no"), StructuredContent: refusal("b", "a")}, named, byProblems},
		{"a refusal naming only another argument, whatever its text", &mcp.CallToolResult{IsError: true, Content: text("'a' is fine"), StructuredContent: refusal("b")}, generic, ""},
		{"an error quoting the argument", &mcp.CallToolResult{IsError: true, Content: text("Argument 'a' takes a whole number")}, named, byQuote},
		{"an error naming it as a word, in its second block", &mcp.CallToolResult{IsError: true, Content: append(text("bad call"), &mcp.TextContent{Text: "a must be positive"})}, named, byWord},
		{"structured content that is not a refusal", &mcp.CallToolResult{IsError: true, Content: text("'a' is wrong"), StructuredContent: map[string]any{"x": 1}}, named, byQuote},
		{"an error naming nothing", &mcp.CallToolResult{IsError: true, Content: text(`validating /properties/a: type: 0.5 has type "number", want "integer"`)}, generic, ""},
		{"an error with no text", &mcp.CallToolResult{IsError: true}, generic, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Through JSON, as the client receives it.
			b, err := json.Marshal(tc.res)
			if err != nil {
				t.Fatal(err)
			}
			var res mcp.CallToolResult
			if err := json.Unmarshal(b, &res); err != nil {
				t.Fatal(err)
			}
			g, by, _ := gradeResult(&res, "a")
			if g != tc.grade || by != tc.namedBy {
				t.Errorf("graded %s by %q, want %s by %q", g, by, tc.grade, tc.namedBy)
			}
		})
	}
}

func TestWrites(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		name        string
		annotations *mcp.ToolAnnotations
		writes      bool
	}{
		{"delete_something", nil, true},
		{"create_issue", nil, true},
		{"update_row", nil, true},
		{"remove_user", nil, true},
		{"set_status", nil, true},
		{"github_create_issue", nil, true},
		{"deleteUser", nil, true},
		{"Users.Remove", nil, true},
		{"SET-MODE", nil, true},
		{"get_wait_stats", nil, false},
		{"reset_view", nil, false},
		{"get_settings", nil, false},
		{"list_updates", nil, false},
		{"created_by_me", nil, false},
		{"purge_cache", &mcp.ToolAnnotations{DestructiveHint: &yes}, true},
		{"purge_cache", &mcp.ToolAnnotations{DestructiveHint: &no}, false},
		{"read_cache", &mcp.ToolAnnotations{DestructiveHint: &yes, ReadOnlyHint: true}, false},
	} {
		if got := writes(&mcp.Tool{Name: tc.name, Annotations: tc.annotations}); (got != "") != tc.writes {
			t.Errorf("writes(%s, %+v) = %q; want writes %v", tc.name, tc.annotations, got, tc.writes)
		}
	}
}
