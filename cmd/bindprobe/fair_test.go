package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gradesOf counts the grades of the calls to tool for argument.
func (d serverDoc) gradesOf(tool, argument string) docCounts {
	var c docCounts
	for _, call := range d.Calls {
		if call.Tool == tool && call.Argument == argument {
			c.add(call.Grade)
		}
	}
	return c
}

// fixtureWithFile runs the fixture with read_text allowed under a new
// directory holding a file, whose path it returns.
func fixtureWithFile(t *testing.T) (cmd, file string) {
	t.Helper()
	root := t.TempDir()
	file = filepath.Join(root, "notes.txt")
	if err := os.WriteFile(file, []byte("one\ntwo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd, _ = fixtureCommand(t, "-root", shellQuote(root))
	return cmd, file
}

var onlyFair = []string{"-skip", "slow_report,strict_params"}

// TestServer_Fillers_FromSchemaExamplesAndFill: a required parameter is
// filled with its schema's example (lookup_time's zone with Europe/Paris,
// where "x" was an unknown time zone that hid every answer about hours);
// -fill gives a value the schema cannot (read_text's path), and -fill-file
// does too; a tool error naming the filler is other_argument, and one for
// a call the schema accepts is a valid_call_error, neither charged to the
// argument probed.
func TestServer_Fillers_FromSchemaExamplesAndFill(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, file := fixtureWithFile(t)
	code, doc, errOut := probeServer(t, cmd, onlyFair...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if c := doc.gradesOf("lookup_time", "hours"); c.Calls == 0 || c.Named == 0 || c.Named+c.Accepted != c.Calls {
		t.Errorf("lookup_time hours: %v; want named refusals and accepted calls only", c)
	}
	if c := doc.gradesOf("lookup_time", "zone"); c.Generic == 0 || c.Named != 0 {
		t.Errorf("lookup_time zone: %v; want generic errors (\"Invalid time zone specified\" does not name zone)", c)
	}
	// Without -fill, read_text's path "x" is outside the root: the valid
	// calls fail for it, and max_lines is not reached.
	if c := doc.gradesOf("read_text", "max_lines"); c.Valid == 0 || c.Named != 0 {
		t.Errorf("read_text max_lines without -fill: %v; want valid call errors, no named refusal", c)
	}

	fillFile := filepath.Join(t.TempDir(), "fill.json")
	if err := os.WriteFile(fillFile, []byte(`{"read_text.path": "`+file+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, flags := range [][]string{{"-fill", "path=" + file}, {"-fill-file", fillFile}} {
		code, doc, errOut := probeServer(t, cmd, append(flags, onlyFair...)...)
		if code != 0 || errOut != "" {
			t.Fatalf("%q: exit %d, stderr %q", flags, code, errOut)
		}
		if c := doc.gradesOf("read_text", "max_lines"); c.Calls == 0 || c.Named == 0 || c.Named+c.Accepted != c.Calls {
			t.Errorf("%q: read_text max_lines: %v; want named refusals and accepted calls only", flags, c)
		}
		for _, call := range doc.Calls {
			if call.Tool == "read_text" && call.Argument == "max_lines" && !strings.Contains(string(call.Arguments), `"path":"`+file+`"`) {
				t.Errorf("%q: arguments %s lack the path filled", flags, call.Arguments)
			}
		}
	}

	// A path under the root that is not there: the tool names 'path'.
	code, doc, _ = probeServer(t, cmd, append([]string{"-fill", "path=" + file + ".missing"}, onlyFair...)...)
	if c := doc.gradesOf("read_text", "max_lines"); code != 0 || c.Other == 0 || c.Generic != 0 || c.Valid != 0 {
		t.Errorf("read_text max_lines, path missing: %v; want other_argument", c)
	}
}

// TestServer_ChangedAndWarned: an answer that shows the number sent
// rounded is accepted_changed; a result carrying bindguard warnings is
// accepted_warned.
func TestServer_ChangedAndWarned(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, _ := fixtureCommand(t)
	code, doc, errOut := probeServer(t, cmd, onlyFair...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	grades := map[string]string{}
	for _, c := range doc.Calls {
		grades[c.Tool+" "+string(c.Value)] = c.Grade
	}
	for key, want := range map[string]string{
		"echo_number 9007199254740993": "accepted_changed",
		"echo_number 0":                "accepted",
		"warn_limit 0.5":               "accepted_warned",
		"warn_limit 1":                 "accepted",
	} {
		if grades[key] != want {
			t.Errorf("%s: %q, want %q", key, grades[key], want)
		}
	}
}

// TestServer_NestedFields_ProbedOneByOne: the fields of an object, and of
// the objects of an array, are probed one by one, each sent inside a
// valid object, and a refusal naming the field (.min, 'label', /rows/0/id)
// is a named refusal.
func TestServer_NestedFields_ProbedOneByOne(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, _ := fixtureCommand(t)
	code, doc, errOut := probeServer(t, cmd, onlyFair...)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, arg := range []string{"filter.min", "filter.label", "rows[].id"} {
		if c := doc.gradesOf("nested_query", arg); c.Calls < 5 || c.Named == 0 || c.Named+c.Accepted != c.Calls {
			t.Errorf("nested_query %s: %v; want named refusals and accepted calls only", arg, c)
		}
	}
	for _, c := range doc.Calls {
		if c.Tool == "nested_query" && c.Argument == "rows[].id" && !strings.HasPrefix(string(c.Arguments), `{"rows":[{"id":`+string(c.Value)+`}],"filter":{"label":"x"}}`) {
			t.Errorf("rows[].id <- %s: arguments %s", c.Value, c.Arguments)
			break
		}
	}
}
