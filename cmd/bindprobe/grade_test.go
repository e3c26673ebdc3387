package main

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestNamedIn pins the "named" rule of the doc on the examples,
// and answers seen from real servers: the guarded example, the plain
// go-sdk (its schema validator and its decoder), and handlers.
func TestNamedIn(t *testing.T) {
	for _, tc := range []struct {
		text, arg, value, want string
	}{
		// The examples.
		{"Access denied - path outside allowed directories", "path", `"x"`, ""},
		{"Invalid time zone specified", "time", `"x"`, ""},
		{`validating "arguments": validating root: validating /properties/hours_back: minimum: 0 is less than 1`, "hours_back", "0", byPath},
		{"Schema 'a' does not exist", "schema", `"a"`, byValue},
		{"Schema 'a' does not exist", "schema", `"b"`, ""},
		// Quoted, in any case.
		{"Argument 'hours_back' for tool 'get_wait_stats' takes a whole number, and the call sent 0.5.", "hours_back", "0.5", byQuote},
		{`missing "limit"`, "limit", "", byQuote},
		{"bad `limit`", "limit", "", byQuote},
		{"bad “limit”", "limit", "", byQuote},
		{"bad 'LIMIT'", "limit", "", byQuote},
		// Paths and qualified names.
		{".limit must be positive", "limit", "", byPath},
		{"json: cannot unmarshal number 9223372036854776000} overflows into Go struct field main.GetWaitStatsArgs.hours_back of type int", "hours_back", "", byPath},
		{"/rows/0/id must be a whole number", "id", "", byPath},
		// Labels, colons.
		{"invalid argument limit: too large", "limit", "", byColon},
		{"Invalid parameter limit, want a number", "limit", "", byLabel},
		{"the field Query is required", "query", "", byLabel},
		{"Invalid arguments: hours: must be a whole number from 0 to 48", "hours", "", byColon},
		{"limit=abc is not a number", "limit", "", byColon},
		// Other SDKs' validators: pydantic (FastMCP), zod 4 (the TypeScript SDK).
		{"Error executing tool get: 1 validation error for getArguments\nlimit\n  Input should be a valid integer [type=int_type, input_value='abc', input_type=str]", "limit", `"abc"`, byLine},
		{"Invalid arguments for tool get: ✖ Invalid input: expected number, received string\n  → at limit", "limit", `"5"`, byLabel},
		{"MCP error -32602: Input validation error: Invalid arguments for tool read_file: Invalid input: expected number, received string at head", "head", `"1.5"`, byLabel},
		{"the server was at head office", "head", "", ""},
		{"Invalid input: expected string, received number at names[1]", "names", "", byPath},
		{"names.first must be text", "names", "", byPath},
		{"the list of names. it is long", "names", "", ""},
		{"limit", "limit", "", ""},
		// A name no word could be, standing alone.
		{"hours_back must be from 1 to 168; the call sent 0", "hours_back", "0", byIdentifier},
		{"maxLines must be positive", "maxlines", "", byIdentifier},
		{"maxLines must be positive", "maxLines", "", byIdentifier},
		// Ordinary words in ordinary sentences.
		{"the call sent too much for limit.", "limit", "", ""},
		{"Invalid query specified", "query", `"x"`, ""},
		{"No such file or directory: x", "file", `"x"`, ""},
		// Inside a longer name.
		{"unknown argument 'limits'", "limit", "", ""},
		{"rate_limit must be positive", "limit", "", ""},
		{"limit_ms must be positive", "limit", "", ""},
		{"max-limit must be positive", "limit", "", ""},
		// A quote of another argument's value.
		{`cannot convert from "x"`, "unit", `"x"`, ""},
		{"", "limit", "", ""},
		{"anything", "", "", ""},
		// A path first, a quote later: the quote counts.
		{"/limit is wrong: 'limit' takes a number", "limit", "", byQuote},
	} {
		if got := namedIn(tc.text, tc.arg, tc.value); got != tc.want {
			t.Errorf("namedIn(%q, %q, %s) = %q, want %q", tc.text, tc.arg, tc.value, got, tc.want)
		}
	}
}

func TestChangedIn(t *testing.T) {
	for _, tc := range []struct {
		answer, value string
		want          bool
	}{
		{"n = 9007199254740992", "9007199254740993", true},
		{`{"n":9007199254740992}`, "9007199254740993", true},
		{"n = 9223372036854776000", "9223372036854775807", true},
		{"n = 1e+21", "1000000000000000000001", true},
		{"n = 9007199254740993", "9007199254740993", false},
		{"n = 9007199254740993 (as 9007199254740992)", "9007199254740993", false},
		{"n = 1.5", "1.5", false},
		{"n = 90071992547409921", "9007199254740993", false},
		{"no number", "9007199254740993", false},
		{"n = 100", "1e2", false},
		{"The sum of 3.5e+38 and 1.5 is 3.5e+38.", "3.5e38", false},
		{"n = 0.30000000000000004", "0.30000000000000004", false},
		{"n = 0.1", "0.10000000000000000001", false}, // a form too short to tell from other numbers
		{"n = 1.2345678901234567", "1.23456789012345678901", true},
		{"n = 9007199254740992", `"9007199254740993"`, false},
	} {
		if got := changedIn([]byte(tc.answer), tc.value); got != tc.want {
			t.Errorf("changedIn(%q, %s) = %v, want %v", tc.answer, tc.value, got, tc.want)
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
	yes, no := true, false
	for _, tc := range []struct {
		name    string
		res     *mcp.CallToolResult
		valid   *bool
		grade   grade
		namedBy string
	}{
		{"a result", &mcp.CallToolResult{Content: text("ok, 'a'")}, nil, accepted, ""},
		{"a result with warnings in structuredContent", &mcp.CallToolResult{Content: text("ok"), StructuredContent: map[string]any{"bindguard_warnings": refusal("a")}}, nil, warned, ""},
		{"a result with warnings in text", &mcp.CallToolResult{Content: append(text("ok"), &mcp.TextContent{Text: "The call to tool 't' went on with these warnings:\n..."})}, nil, warned, ""},
		{"a result showing the value rounded", &mcp.CallToolResult{Content: text("a = 9007199254740992")}, nil, changed, ""},
		{"a refusal naming the argument in its problems", &mcp.CallToolResult{IsError: true, Content: text("no"), StructuredContent: refusal("b", "a")}, nil, named, byProblems},
		{"a refusal naming only another argument, whatever its text", &mcp.CallToolResult{IsError: true, Content: text("'a' is fine"), StructuredContent: refusal("b")}, nil, otherArgument, ""},
		{"an error quoting the argument", &mcp.CallToolResult{IsError: true, Content: text("Argument 'a' takes a whole number")}, nil, named, byQuote},
		{"an error naming it by a colon, in its second block", &mcp.CallToolResult{IsError: true, Content: append(text("bad call"), &mcp.TextContent{Text: "a: must be positive"})}, nil, named, byColon},
		{"structured content that is not a refusal", &mcp.CallToolResult{IsError: true, Content: text("'a' is wrong"), StructuredContent: map[string]any{"x": 1}}, nil, named, byQuote},
		{"an error naming another argument", &mcp.CallToolResult{IsError: true, Content: text("'b' is not a file")}, &no, otherArgument, ""},
		{"an error naming nothing, for a call the schema refuses", &mcp.CallToolResult{IsError: true, Content: text("Access denied")}, &no, generic, ""},
		{"an error naming nothing, for a call the schema accepts", &mcp.CallToolResult{IsError: true, Content: text("Access denied")}, &yes, validCall, ""},
		{"an error naming nothing, the schema unread", &mcp.CallToolResult{IsError: true, Content: text("Access denied")}, nil, generic, ""},
		{"an error with no text", &mcp.CallToolResult{IsError: true}, nil, generic, ""},
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
			g, by, _ := gradeResult(&res, b, probed{top: "a", value: "9007199254740993", others: []string{"b"}, valid: tc.valid})
			if g != tc.grade || by != tc.namedBy {
				t.Errorf("graded %s by %q, want %s by %q", g, by, tc.grade, tc.namedBy)
			}
		})
	}
}

// TestGradeResult_Fields: for a field, the field named is a named refusal;
// a sibling named is another argument, though the text names the object
// too; the object alone named is a named refusal.
func TestGradeResult_Fields(t *testing.T) {
	p := probed{top: "filter", path: []string{"label"}, value: "5", others: []string{"rows", "min"}}
	for _, tc := range []struct {
		text  string
		grade grade
	}{
		{"'label' must be text", named},
		{"filter.label must be text", named},
		{"filter.min must be a whole number", otherArgument},
		{"filter: must be an object", named},
		{"bad call", generic},
	} {
		res := &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: tc.text}}}
		if g, _, _ := gradeResult(res, nil, p); g != tc.grade {
			t.Errorf("%q: %s, want %s", tc.text, g, tc.grade)
		}
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
		{"open_nodes", false},
		{"git_clean", true},
		{"start_process", true},
		{"close_issue", true},
		{"fetch", false},
	} {
		if got := nameWrites(tc.name); (got != "") != tc.writes {
			t.Errorf("nameWrites(%s) = %q; want writes %v", tc.name, got, tc.writes)
		}
	}
}
