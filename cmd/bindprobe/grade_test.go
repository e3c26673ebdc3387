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

// TestSkipReason: by default only a tool annotated readOnlyHint: true is
// called, unless -tools names it; a name that suggests a write is skipped
// without -allow-writes whatever its annotations or -tools say; -skip and
// a required task execution skip a tool whatever else is given.
func TestSkipReason(t *testing.T) {
	yes, no := true, false
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true}
	for _, tc := range []struct {
		name        string
		annotations *mcp.ToolAnnotations
		task        string
		o           serverOptions
		code        string
	}{
		{"get_wait_stats", ro, "", serverOptions{}, ""},
		{"get_wait_stats", nil, "", serverOptions{}, skipReadOnly},
		{"get_wait_stats", &mcp.ToolAnnotations{}, "", serverOptions{}, skipReadOnly},
		{"get_wait_stats", &mcp.ToolAnnotations{DestructiveHint: &no}, "", serverOptions{}, skipReadOnly},
		{"flush_cache", &mcp.ToolAnnotations{DestructiveHint: &yes}, "", serverOptions{}, skipReadOnly},
		{"get_wait_stats", nil, "", serverOptions{tools: map[string]bool{"get_wait_stats": true}}, ""},
		{"get_wait_stats", nil, "", serverOptions{allowWrites: true}, ""},
		{"delete_something", ro, "", serverOptions{}, skipName},
		{"delete_something", nil, "", serverOptions{tools: map[string]bool{"delete_something": true}}, skipName},
		{"delete_something", nil, "", serverOptions{allowWrites: true}, ""},
		{"git_init", ro, "", serverOptions{}, skipName},
		{"git_push", ro, "", serverOptions{}, skipName},
		{"create_entities", ro, "", serverOptions{}, skipName},
		{"add_observations", ro, "", serverOptions{}, skipName},
		{"write_file", ro, "", serverOptions{}, skipName},
		{"get_wait_stats", ro, "", serverOptions{skip: map[string]bool{"get_wait_stats": true}, allowWrites: true}, skipFlag},
		{"get_wait_stats", ro, "required", serverOptions{allowWrites: true}, skipTask},
		{"get_wait_stats", ro, "optional", serverOptions{}, ""},
	} {
		code, why := skipReason(tc.o, &mcp.Tool{Name: tc.name, Annotations: tc.annotations}, tc.task)
		if code != tc.code || (code == "") != (why == "") {
			t.Errorf("skipReason(%+v, %s, %+v, %q) = %q, %q; want %q", tc.o, tc.name, tc.annotations, tc.task, code, why, tc.code)
		}
	}
}

func TestNameWrites(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes bool
	}{
		{"delete_something", true},
		{"create_issue", true},
		{"update_row", true},
		{"remove_user", true},
		{"set_status", true},
		{"github_create_issue", true},
		{"deleteUser", true},
		{"Users.Remove", true},
		{"SET-MODE", true},
		{"git_reset", true},
		{"git_stash", true},
		{"get_wait_stats", false},
		{"reset_view", true},
		{"get_settings", false},
		{"list_updates", false},
		{"created_by_me", false},
		{"read_text_file", false},
		{"search_nodes", false},
	} {
		if got := nameWrites(tc.name); (got != "") != tc.writes {
			t.Errorf("nameWrites(%s) = %q; want writes %v", tc.name, got, tc.writes)
		}
	}
}
