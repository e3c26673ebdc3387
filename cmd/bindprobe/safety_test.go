package main

import (
	"os"
	"slices"
	"strings"
	"testing"
)

// fixtureCommand returns the -server command running the fixture server
// with its write tools writing their marker files into a new temporary
// directory, which it returns too, followed by args.
func fixtureCommand(t *testing.T, args ...string) (cmd, dir string) {
	t.Helper()
	dir = t.TempDir()
	return serverCommand(t, fixturePkg, append([]string{"-dir", shellQuote(dir)}, args...)...), dir
}

// written returns the names of the tools that wrote a marker file into
// dir: those that were called.
func written(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".written"))
	}
	slices.Sort(names)
	return names
}

// skipCodes maps each tool of the document to its skip_code ("" when
// probed).
func (d serverDoc) skipCodes() map[string]string {
	m := map[string]string{}
	for _, t := range d.Tools {
		m[t.Name] = t.SkipCode
		if (t.SkipCode == "") != (t.Skipped == "") {
			m[t.Name] = "MISMATCH: " + t.SkipCode + " / " + t.Skipped
		}
	}
	return m
}

var fixtureReadOnly = []string{"echo_number", "lookup_time", "nested_query", "read_text", "slow_report", "strict_params", "warn_limit"}

// TestServer_Safety_WriteToolsSkippedUnlessChosen: by default only the
// tools annotated readOnlyHint: true are called; a tool with no
// annotations, readOnlyHint false (destructiveHint defaulting to true),
// readOnlyHint false with destructiveHint false, or destructiveHint true is
// skipped; a name that suggests a write is skipped though annotated
// read-only, and stays skipped with -tools; -tools probes a chosen tool;
// -allow-writes probes all but -skip's and those requiring tasks. The
// fixture's write tools leave a file when called: none does unless chosen.
func TestServer_Safety_WriteToolsSkippedUnlessChosen(t *testing.T) {
	t.Parallel() // each runs its own server processes
	defaults := map[string]string{
		"tidy": skipReadOnly, "compact": skipReadOnly, "stamp": skipReadOnly, "sweep": skipReadOnly,
		"delete_cache": skipName, "task_export": skipTask, "strict_params": skipFlag,
	}
	for _, tc := range []struct {
		name    string
		flags   []string
		change  map[string]string // from defaults
		written []string
	}{
		{"default", nil, nil, nil},
		{"-tools", []string{"-tools", "stamp,delete_cache", "-tools", "sweep"}, map[string]string{"stamp": "", "sweep": ""}, []string{"stamp", "sweep"}},
		{"-allow-writes", []string{"-allow-writes"}, map[string]string{"tidy": "", "compact": "", "stamp": "", "sweep": "", "delete_cache": ""},
			[]string{"compact", "delete_cache", "stamp", "sweep", "tidy"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd, dir := fixtureCommand(t)
			code, doc, errOut := probeServer(t, cmd, append([]string{"-values", "2", "-skip", "strict_params"}, tc.flags...)...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			want := map[string]string{}
			for _, n := range fixtureReadOnly {
				want[n] = ""
			}
			for n, c := range defaults {
				want[n] = c
			}
			for n, c := range tc.change {
				want[n] = c
			}
			got := doc.skipCodes()
			for n, c := range want {
				if got[n] != c {
					t.Errorf("%s: skip code %q, want %q", n, got[n], c)
				}
				if calls := doc.callsTo(n); (calls > 0) != (c == "") {
					t.Errorf("%s: %d calls, skip code %q", n, calls, c)
				}
			}
			if w := written(t, dir); !slices.Equal(w, tc.written) {
				t.Errorf("tools that wrote: %q, want %q", w, tc.written)
			}
			for _, tool := range doc.Tools {
				if tool.SkipCode == skipReadOnly && !strings.Contains(tool.Skipped, "-tools "+tool.Name+" or -allow-writes probes it") {
					t.Errorf("%s: skipped %q does not say how to include it", tool.Name, tool.Skipped)
				}
			}
		})
	}
}

// TestServer_Safety_AllSkipped_SaysSoAndHowToInclude: a server whose
// every tool is annotated as mcp-go's mcp.NewTool does by default has
// nothing probed; the report says so plainly and gives the command that
// probes chosen tools, and that command works.
func TestServer_Safety_AllSkipped_SaysSoAndHowToInclude(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, dir := fixtureCommand(t, "-mcpgo")
	code, out, errOut := bindprobe(t, "-server", cmd, "-values", "1")
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	include := "bindprobe -server " + shellQuote(cmd) + " -tools echo_number,lookup_time"
	for _, want := range []string{
		"\nNo tool was probed: all 13 tools were skipped.",
		"mcp-go's mcp.NewTool marks every tool readOnlyHint: false, destructiveHint: true",
		"\nTo probe chosen tools (they may write; name only those that are safe to call with bad arguments):\n  bindprobe -server " + shellQuote(cmd) + " -tools lookup_time,read_text,",
		"\nTo probe every tool, writes included:\n  bindprobe -server " + shellQuote(cmd) + " -allow-writes\n",
		"\n13 tools (0 probed, 13 skipped), 0 calls",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if t.Failed() {
		t.Logf("report:\n%s", out)
	}

	// The command, cut down to two tools, as a user would.
	words, err := splitCommand(include)
	if err != nil {
		t.Fatal(err)
	}
	code, doc, errOut := probeServer(t, words[2], append(words[3:], "-values", "1")...)
	if code != 0 || errOut != "" || doc.Summary.Probed != 2 || doc.callsTo("echo_number") != 1 || doc.callsTo("lookup_time") != 2 {
		t.Errorf("%q: exit %d, stderr %q, summary %+v", include, code, errOut, doc.Summary)
	}
	if w := written(t, dir); len(w) != 0 {
		t.Errorf("tools that wrote: %q", w)
	}
}

// TestServer_Safety_UnknownToolNamed_Exit2: -tools naming a tool the
// server does not list is an error (a typo would silently probe less).
func TestServer_Safety_UnknownToolNamed_Exit2(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, _ := fixtureCommand(t)
	code, out, errOut := bindprobe(t, "-server", cmd, "-tools", "stamp,stmp")
	if code != 2 || out != "" || !strings.Contains(errOut, "bindprobe: -tools names stmp, which the server does not list (its tools: lookup_time, read_text,") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
}
