package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"testing"
	"time"
)

// The servers bindprobe -server is tested against, built once for the
// whole test binary into serverDir.
const (
	guardedPkg   = "github.com/bindguard/bindguard/examples/waitstats"
	unguardedPkg = "github.com/bindguard/bindguard/cmd/bindprobe/internal/unguarded"
	fixturePkg   = "github.com/bindguard/bindguard/cmd/bindprobe/internal/fixture"
)

// guardedTools are the example's tools, none annotated: -tools names them.
const guardedTools = "get_wait_stats,list_sessions,get_query_plan"

var (
	serverDir   string
	buildOnce   sync.Once
	buildErr    error
	buildOutput []byte
)

func TestMain(m *testing.M) {
	code := m.Run()
	if serverDir != "" {
		os.RemoveAll(serverDir)
	}
	os.Exit(code)
}

// serverCommand returns the -server command line that runs the server
// built from package pkg (its binary's path in single quotes, so the
// command is split back into that path), followed by args. It builds both
// servers on first use, with -race when the test itself runs with it (so
// the build reuses the packages the test was built from); it skips the
// test when there is no go command, or no guarded example to build.
func serverCommand(t *testing.T, pkg string, args ...string) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command to build the servers with: %v", err)
	}
	buildOnce.Do(func() {
		if serverDir, buildErr = os.MkdirTemp("", "bindprobe-servers-"); buildErr != nil {
			return
		}
		cmdArgs := []string{"build", "-o", serverDir + string(filepath.Separator)}
		if info, ok := debug.ReadBuildInfo(); ok {
			for _, s := range info.Settings {
				if s.Key == "-race" && s.Value == "true" {
					cmdArgs = append(cmdArgs, "-race")
				}
			}
		}
		buildOutput, buildErr = exec.Command(goTool, append(cmdArgs, unguardedPkg, guardedPkg, fixturePkg)...).CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("go build: %v\n%s", buildErr, buildOutput)
	}
	cmd := "'" + filepath.Join(serverDir, filepath.Base(pkg)) + "'"
	for _, a := range args {
		cmd += " " + a
	}
	return cmd
}

// serverDoc is bindprobe -server -json's document, read strictly: every
// field it has, and no other.
type serverDoc struct {
	Server string `json:"server"`
	Tools  []struct {
		Name      string   `json:"name"`
		Skipped   string   `json:"skipped"`
		SkipCode  string   `json:"skip_code"`
		GaveUp    string   `json:"gave_up"`
		Score     *float64 `json:"score"`
		NotMade   int      `json:"not_made"`
		Arguments []struct {
			Name     string   `json:"name"`
			Type     string   `json:"type"`
			Required bool     `json:"required"`
			Score    *float64 `json:"score"`
			docCounts
		} `json:"arguments"`
		docCounts
	} `json:"tools"`
	Calls []struct {
		Tool       string          `json:"tool"`
		Argument   string          `json:"argument"`
		Value      json.RawMessage `json:"value"`
		Arguments  json.RawMessage `json:"arguments"`
		Grade      string          `json:"grade"`
		NamedBy    string          `json:"named_by"`
		Text       string          `json:"text"`
		DurationMS *float64        `json:"duration_ms"`
	} `json:"calls"`
	Stopped          string `json:"stopped"`
	Include          string `json:"include"`
	SkippedLines     *int   `json:"skipped_lines"`
	FirstSkippedLine string `json:"first_skipped_line"`
	Summary          struct {
		Tools   int      `json:"tools"`
		Probed  int      `json:"probed"`
		Skipped int      `json:"skipped"`
		Planned int      `json:"planned"`
		Score   *float64 `json:"score"`
		docCounts
	} `json:"summary"`
}

type docCounts struct {
	Calls    int `json:"calls"`
	Named    int `json:"named_refusal"`
	Generic  int `json:"generic_error"`
	Other    int `json:"other_argument"`
	Valid    int `json:"valid_call_error"`
	Accepted int `json:"accepted"`
	Changed  int `json:"accepted_changed"`
	Warned   int `json:"accepted_warned"`
	Protocol int `json:"protocol_error"`
	Timeout  int `json:"timeout"`
}

// add counts a call of grade g, and reports whether g is a grade.
func (c *docCounts) add(g string) bool {
	c.Calls++
	switch g {
	case "named_refusal":
		c.Named++
	case "generic_error":
		c.Generic++
	case "other_argument":
		c.Other++
	case "valid_call_error":
		c.Valid++
	case "accepted":
		c.Accepted++
	case "accepted_changed":
		c.Changed++
	case "accepted_warned":
		c.Warned++
	case "protocol_error":
		c.Protocol++
	case "timeout":
		c.Timeout++
	default:
		return false
	}
	return true
}

func (c docCounts) String() string {
	return fmt.Sprintf("%d calls: %d named, %d generic, %d other, %d valid, %d accepted, %d changed, %d warned, %d protocol, %d timeout",
		c.Calls, c.Named, c.Generic, c.Other, c.Valid, c.Accepted, c.Changed, c.Warned, c.Protocol, c.Timeout)
}

// probeServer runs bindprobe -server cmd -json with the extra flags, and
// returns its exit status, its document and its stderr.
func probeServer(t *testing.T, cmd string, flags ...string) (int, serverDoc, string) {
	t.Helper()
	code, out, errOut := bindprobe(t, append([]string{"-server", cmd, "-json"}, flags...)...)
	if out == "" {
		return code, serverDoc{}, errOut
	}
	dec := json.NewDecoder(strings.NewReader(out))
	dec.DisallowUnknownFields()
	var doc serverDoc
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("-json output does not parse: %v\n%.2000s", err, out)
	}
	if dec.More() {
		t.Fatal("-json output holds more than one document")
	}
	return code, doc, errOut
}

// callsTo counts the calls made to tool.
func (d serverDoc) callsTo(tool string) int {
	n := 0
	for _, c := range d.Calls {
		if c.Tool == tool {
			n++
		}
	}
	return n
}

// TestServer_GuardedExample_EveryRefusalNamed is the "done when",
// first half: the example server, guarded by the go-sdk adapter, answers
// every call it does not accept with an error naming the argument, on
// every argument of every tool, and never with a generic or protocol
// error.
func TestServer_GuardedExample_EveryRefusalNamed(t *testing.T) {
	t.Parallel() // each runs its own server processes
	code, doc, errOut := probeServer(t, serverCommand(t, guardedPkg), "-tools", guardedTools)
	if code != 0 || errOut != "" || doc.Stopped != "" {
		t.Fatalf("exit %d, stderr %q, stopped %q", code, errOut, doc.Stopped)
	}
	if doc.Summary.Tools != 3 || doc.Summary.Probed != 3 || doc.Summary.Calls != doc.Summary.Planned || doc.Summary.Calls < 100 {
		t.Fatalf("summary %+v: want 3 tools probed, every planned call made, at least 100", doc.Summary)
	}
	for _, c := range doc.Calls {
		if c.Grade != "named_refusal" && c.Grade != "accepted" && c.Grade != "accepted_warned" {
			t.Errorf("%s %s <- %s: %s by %q: %s", c.Tool, c.Argument, c.Value, c.Grade, c.NamedBy, c.Text)
		}
	}
	for _, tool := range doc.Tools {
		for _, a := range tool.Arguments {
			if a.Named == 0 || a.Named+a.Accepted+a.Warned != a.Calls {
				t.Errorf("%s %s: %v; want named refusals, and nothing but named refusals and accepted calls", tool.Name, a.Name, a.docCounts)
			}
		}
	}
	t.Logf("guarded example: %v", doc.Summary.docCounts)
}

// TestServer_UnguardedGoSDK_NamedByPath: a server whose tools are added
// with the plain go-sdk mcp.AddTool answers the calls it does not accept
// with go-sdk's own errors: its schema validator's name the argument by a
// JSON Pointer (validating /properties/limit), which counts as naming it;
// a handler's own error for a value the schema accepts (list_sessions
// refuses a limit of -1, in words that name nothing) is a valid call
// error, not charged to the argument.
func TestServer_UnguardedGoSDK_NamedByPath(t *testing.T) {
	t.Parallel() // each runs its own server processes
	code, doc, errOut := probeServer(t, serverCommand(t, unguardedPkg))
	if code != 0 || errOut != "" || doc.Stopped != "" {
		t.Fatalf("exit %d, stderr %q, stopped %q", code, errOut, doc.Stopped)
	}
	s := doc.Summary
	if s.Calls != s.Planned || s.Calls < 100 || s.Generic != 0 || s.Protocol != 0 || s.Valid == 0 {
		t.Fatalf("summary %+v: want every planned call made, at least 100, no generic or protocol errors, valid call errors", s)
	}
	for _, c := range doc.Calls {
		switch {
		case c.Grade == "named_refusal" && c.NamedBy != "path":
			t.Errorf("%s %s <- %s: named by %q: %s", c.Tool, c.Argument, c.Value, c.NamedBy, c.Text)
		case c.Grade == "valid_call_error" && (c.Tool != "list_sessions" || c.Argument != "limit" || c.Text != "a negative number of sessions makes no sense"):
			t.Errorf("%s %s <- %s: valid call error %q", c.Tool, c.Argument, c.Value, c.Text)
		}
	}
	t.Logf("unguarded go-sdk server: %v", s.docCounts)
}

// TestServer_WritesSkippedUnlessAllowed: delete_something is reported as
// skipped and never called without -allow-writes, and probed with it.
func TestServer_WritesSkippedUnlessAllowed(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd := serverCommand(t, unguardedPkg)
	for _, allow := range []bool{false, true} {
		t.Run(fmt.Sprintf("allow-writes=%v", allow), func(t *testing.T) {
			flags := []string{"-values", "3"}
			if allow {
				flags = append(flags, "-allow-writes")
			}
			code, doc, errOut := probeServer(t, cmd, flags...)
			if code != 0 || errOut != "" {
				t.Fatalf("exit %d, stderr %q", code, errOut)
			}
			var skipped string
			found := false
			for _, tool := range doc.Tools {
				if tool.Name == "delete_something" {
					found, skipped = true, tool.Skipped
				}
			}
			calls := doc.callsTo("delete_something")
			switch {
			case !found:
				t.Fatal("delete_something is not in the report")
			case !allow && (calls != 0 || !strings.Contains(skipped, "its name suggests it writes (\"delete\"); -allow-writes probes it") || doc.Summary.Skipped != 1):
				t.Errorf("without -allow-writes: %d calls, skipped %q, %d skipped; want none, skipped for its name", calls, skipped, doc.Summary.Skipped)
			case allow && (calls != 3 || skipped != "" || doc.Summary.Skipped != 0):
				t.Errorf("with -allow-writes: %d calls, skipped %q, %d skipped; want 3 calls, not skipped", calls, skipped, doc.Summary.Skipped)
			}
		})
	}
}

// TestServer_JSON_RecordsAndCountsAgree: -json holds a record per call,
// each with its value, the arguments sent (the value under the argument's
// name, the other required parameters filled), a grade, a duration, and a
// text of at most 200 characters; the counts of each argument, each tool
// and the summary are the records' counts.
func TestServer_JSON_RecordsAndCountsAgree(t *testing.T) {
	t.Parallel() // each runs its own server processes
	code, doc, errOut := probeServer(t, serverCommand(t, guardedPkg), "-values", "6", "-tools", guardedTools)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.HasSuffix(doc.Server, "waitstats'") {
		t.Errorf("server %q", doc.Server)
	}
	type key struct{ tool, arg string }
	perArg := map[key]*docCounts{}
	perTool := map[string]*docCounts{}
	var total docCounts
	for _, c := range doc.Calls {
		var args map[string]json.RawMessage
		if err := json.Unmarshal(c.Arguments, &args); err != nil {
			t.Fatalf("%s %s: arguments %s: %v", c.Tool, c.Argument, c.Arguments, err)
		}
		if string(args[c.Argument]) != string(c.Value) || c.DurationMS == nil || len([]rune(c.Text)) > 200 || c.Text == "" {
			t.Errorf("call %s %s <- %s: arguments %s, duration %v, text %q", c.Tool, c.Argument, c.Value, c.Arguments, c.DurationMS, c.Text)
		}
		if c.Tool == "list_sessions" && c.Argument != "state" && string(args["state"]) != `"running"` {
			t.Errorf("list_sessions %s: the required state is not filled with its enum's first member: %s", c.Argument, c.Arguments)
		}
		if c.Tool == "get_wait_stats" && c.Argument != "hours_back" && string(args["hours_back"]) != "1" {
			t.Errorf("get_wait_stats %s: the required hours_back is not filled with 1 (its minimum): %s", c.Argument, c.Arguments)
		}
		if (c.Grade == "named_refusal") != (c.NamedBy != "") {
			t.Errorf("call %s %s <- %s: grade %s, named_by %q", c.Tool, c.Argument, c.Value, c.Grade, c.NamedBy)
		}
		if perArg[key{c.Tool, c.Argument}] == nil {
			perArg[key{c.Tool, c.Argument}] = &docCounts{}
		}
		if perTool[c.Tool] == nil {
			perTool[c.Tool] = &docCounts{}
		}
		for _, n := range []*docCounts{perArg[key{c.Tool, c.Argument}], perTool[c.Tool], &total} {
			if !n.add(c.Grade) {
				t.Errorf("call %s %s: grade %q", c.Tool, c.Argument, c.Grade)
			}
		}
	}
	for _, tool := range doc.Tools {
		if got := perTool[tool.Name]; got == nil || *got != tool.docCounts {
			t.Errorf("tool %s: counts %v, records %v", tool.Name, tool.docCounts, got)
		}
		for _, a := range tool.Arguments {
			if got := perArg[key{tool.Name, a.Name}]; got == nil || *got != a.docCounts || a.Calls > 6 {
				t.Errorf("%s %s: counts %v, records %v (at most 6 values)", tool.Name, a.Name, a.docCounts, got)
			}
		}
	}
	if total != doc.Summary.docCounts {
		t.Errorf("summary %v, records %v", doc.Summary.docCounts, total)
	}
	// Each score is the share of refused calls that were named refusals.
	check := func(what string, c docCounts, score *float64) {
		t.Helper()
		refused := c.Named + c.Generic + c.Protocol
		switch {
		case refused == 0 && score != nil:
			t.Errorf("%s: score %v with no refused call", what, *score)
		case refused > 0 && (score == nil || *score != float64(c.Named)/float64(refused)):
			t.Errorf("%s: score %v, counts %v", what, score, c)
		}
	}
	check("summary", doc.Summary.docCounts, doc.Summary.Score)
	for _, tool := range doc.Tools {
		check(tool.Name, tool.docCounts, tool.Score)
		for _, a := range tool.Arguments {
			check(tool.Name+" "+a.Name, a.docCounts, a.Score)
		}
	}
}

// TestServer_Report_PerToolAndSummary: without -json the report gives a
// line and a table per tool, the first generic error of each argument, and
// the summary.
func TestServer_Report_PerToolAndSummary(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd := serverCommand(t, unguardedPkg)
	code, out, errOut := bindprobe(t, "-server", cmd)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"server " + cmd + ": 4 tools (3 probed, 1 skipped); score 100%: 120 of the 120 refused calls named the argument\n",
		"\nTOOL              SCORE    CALLS  NAMED  GENERIC  OTHER  VALID  ACCEPTED  CHANGED  WARNED  PROTOCOL  TIMEOUT\n" +
			"delete_something  skipped  -      -      -        -      -      -         -        -       -         -\n" +
			"get_query_plan    100%     25     13     0        0      0      12        0        0       0         0\n",
		"\nget_wait_stats: score 100%, 93 calls: ",
		"  ARGUMENT               TYPE     SCORE  CALLS  NAMED  GENERIC  OTHER  VALID  ACCEPTED  CHANGED  WARNED  PROTOCOL  TIMEOUT\n",
		"  first valid call error for limit: sent -1: a negative number of sessions makes no sense\n",
		"\ndelete_something: skipped: its name suggests it writes (\"delete\"); -allow-writes probes it\n",
		"\n4 tools (3 probed, 1 skipped), ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	if !strings.HasSuffix(out, "; score 100%: 120 of the 120 refused calls named the argument\n") {
		t.Errorf("the report does not end with the summary:\n%s", out)
	}
	if t.Failed() {
		t.Logf("report:\n%s", out)
	}
}

// TestServer_CrashMidRun_ReportedNotHung: a server that exits during the
// run is reported (the call it died on, its exit status, its stderr), the
// calls made before are kept, and bindprobe exits 1.
func TestServer_CrashMidRun_ReportedNotHung(t *testing.T) {
	t.Parallel() // each runs its own server processes
	start := time.Now()
	code, doc, errOut := probeServer(t, serverCommand(t, unguardedPkg, "-crash-after", "5"))
	if code != 1 || errOut != "" {
		t.Errorf("exit %d, stderr %q; want exit 1", code, errOut)
	}
	if len(doc.Calls) != 5 || doc.Calls[4].Grade != "protocol_error" || doc.Summary.Calls != 5 || doc.Summary.Planned <= 5 {
		t.Errorf("%d calls (summary %+v); want 5, the last a protocol error", len(doc.Calls), doc.Summary)
	}
	for _, want := range []string{"the server closed the connection at call 5 of ", "exit status 3", "crashing on call 5"} {
		if !strings.Contains(doc.Stopped, want) {
			t.Errorf("stopped %q lacks %q", doc.Stopped, want)
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestServer_UnansweredCalls_EachToolGivenUp: a server that leaves every
// tools/call unanswered but answers pings has each tool given up after two
// timeouts, graded timeout; the run goes on to every tool and ends with
// exit status 0.
func TestServer_UnansweredCalls_EachToolGivenUp(t *testing.T) {
	t.Parallel() // each runs its own server processes
	start := time.Now()
	code, doc, errOut := probeServer(t, serverCommand(t, unguardedPkg, "-hang"), "-timeout", "200ms", "-values", "5")
	if code != 0 || errOut != "" || doc.Stopped != "" {
		t.Errorf("exit %d, stderr %q, stopped %q; want exit 0", code, errOut, doc.Stopped)
	}
	if len(doc.Calls) != 6 || doc.Summary.Timeout != 6 {
		t.Errorf("%d calls, summary %v; want 2 per probed tool, all timeouts", len(doc.Calls), doc.Summary.docCounts)
	}
	for _, c := range doc.Calls {
		if c.Grade != "timeout" || c.Text != "no answer within 200ms" {
			t.Errorf("%s %s: %s %q", c.Tool, c.Argument, c.Grade, c.Text)
		}
	}
	for _, tool := range doc.Tools {
		if tool.Skipped == "" && (tool.GaveUp != "no answer within 200ms to 2 calls in a row; bindprobe gave up on it" || tool.NotMade == 0) {
			t.Errorf("%s: gave up %q, %d not made", tool.Name, tool.GaveUp, tool.NotMade)
		}
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %v", d)
	}
}

// TestServer_CannotStart_Exit2: a command that is not there, or a server
// that exits before it answers, is an exit status of 2 with the reason
// (and the server's stderr) on stderr, and nothing on stdout.
func TestServer_CannotStart_Exit2(t *testing.T) {
	t.Parallel() // each runs its own server processes
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{filepath.Join(t.TempDir(), "no-such-server"), []string{"bindprobe: starting the server ", "no such file or directory"}},
		{serverCommand(t, unguardedPkg, "-no-such-flag"), []string{"bindprobe: starting the server ", "exit status 2", "flag provided but not defined: -no-such-flag"}},
	} {
		code, out, errOut := bindprobe(t, "-server", tc.cmd)
		if code != 2 || out != "" {
			t.Errorf("%s: exit %d, stdout %q; want exit 2 and no report", tc.cmd, code, out)
		}
		for _, w := range tc.want {
			if !strings.Contains(errOut, w) {
				t.Errorf("%s: stderr %q lacks %q", tc.cmd, errOut, w)
			}
		}
	}
}

// TestRun_ServerFlags_UsageErrors: flags that do not go together, and
// commands that cannot be split, are usage errors, before any server runs.
func TestRun_ServerFlags_UsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-server", "x", "-table", "t.json"}, "bindprobe: -table does not go with -server\n"},
		{[]string{"-server", "x", "-binder", "std"}, "bindprobe: -binder does not go with -server\n"},
		{[]string{"-allow-writes"}, "bindprobe: -allow-writes goes only with -server\n"},
		{[]string{"-timeout", "1s"}, "bindprobe: -timeout goes only with -server\n"},
		{[]string{"-server", "x", "-values", "0"}, "bindprobe: -timeout and -values must be positive\n"},
		{[]string{"-server", ""}, "bindprobe: -server \"\": the command is empty\n"},
		{[]string{"-server", "  "}, "bindprobe: -server \"  \": the command is empty\n"},
		{[]string{"-server", `srv 'a b`}, "bindprobe: -server \"srv 'a b\": a single quote is not closed\n"},
	} {
		code, out, errOut := bindprobe(t, tc.args...)
		if code != 2 || out != "" || errOut != tc.want {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want exit 2 and %q", tc.args, code, out, errOut, tc.want)
		}
	}
}
