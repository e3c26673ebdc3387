package main

import (
	"strings"
	"testing"
	"time"
)

// TestServer_Banner_SkippedAndCounted: a server that prints lines that are
// not JSON-RPC on stdout (a banner, a JSON log line, a line after the
// handshake) is probed all the same; the lines are counted, and the report
// shows the first.
func TestServer_Banner_SkippedAndCounted(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, _ := fixtureCommand(t, "-banner")
	code, doc, errOut := probeServer(t, cmd, "-values", "2", "-skip", "strict_params")
	if code != 0 || errOut != "" || doc.Stopped != "" {
		t.Fatalf("exit %d, stderr %q, stopped %q", code, errOut, doc.Stopped)
	}
	if doc.SkippedLines == nil || *doc.SkippedLines != 3 || doc.FirstSkippedLine != "fixture MCP server v1.0 starting on stdio" {
		t.Errorf("skipped lines %v, first %q; want 3, the banner first", doc.SkippedLines, doc.FirstSkippedLine)
	}
	if doc.Summary.Probed != 6 || doc.Summary.Calls != doc.Summary.Planned {
		t.Errorf("summary %+v", doc.Summary)
	}
	_, out, _ := bindprobe(t, "-server", cmd, "-values", "1", "-skip", "strict_params")
	if want := "\nskipped 3 lines of the server's stdout that are not JSON-RPC; the first: fixture MCP server v1.0 starting on stdio\n"; !strings.Contains(out, want) {
		t.Errorf("the report lacks %q:\n%s", want, out)
	}
}

// TestServer_SlowTool_GivenUpRunGoesOn: a tool that sleeps past -timeout
// is given up after two timeouts, graded timeout, and the tools after it
// are probed; the run ends with exit status 0.
func TestServer_SlowTool_GivenUpRunGoesOn(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, _ := fixtureCommand(t, "-sleep", "5s")
	code, doc, errOut := probeServer(t, cmd, "-timeout", "300ms", "-values", "4")
	if code != 0 || errOut != "" || doc.Stopped != "" {
		t.Fatalf("exit %d, stderr %q, stopped %q", code, errOut, doc.Stopped)
	}
	for _, tool := range doc.Tools {
		switch {
		case tool.Name == "slow_report":
			if tool.Timeout != 2 || tool.Calls != 2 || tool.NotMade != 2 || !strings.HasPrefix(tool.GaveUp, "no answer within 300ms to 2 calls in a row") {
				t.Errorf("slow_report: %v, gave up %q, %d not made", tool.docCounts, tool.GaveUp, tool.NotMade)
			}
		case tool.Skipped == "" && (tool.Calls == 0 || tool.Timeout != 0 || tool.GaveUp != ""):
			t.Errorf("%s: %v, gave up %q", tool.Name, tool.docCounts, tool.GaveUp)
		}
	}
	if n := doc.callsTo("nested_query"); n == 0 {
		t.Error("nested_query, listed after slow_report, was not probed")
	}
}

// TestServer_NoPing_Stops: a server that answers neither a call nor a ping
// stops the run after the first timeout, with exit status 1.
func TestServer_NoPing_Stops(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, _ := fixtureCommand(t, "-hang-all")
	code, doc, errOut := probeServer(t, cmd, "-timeout", "200ms")
	if code != 1 || errOut != "" {
		t.Errorf("exit %d, stderr %q; want 1", code, errOut)
	}
	if len(doc.Calls) != 1 || doc.Calls[0].Grade != "timeout" ||
		!strings.HasPrefix(doc.Stopped, "the server no longer answers a ping (none within 2s) after call 1 of ") {
		t.Errorf("%d calls, stopped %q", len(doc.Calls), doc.Stopped)
	}
}

// TestServer_JSONRPCErrors_NoWait: JSON-RPC error answers are protocol
// errors, and bindprobe goes on at once (it waited 2 s after each, as if
// the connection might be closing).
func TestServer_JSONRPCErrors_NoWait(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, _ := fixtureCommand(t)
	start := time.Now()
	code, doc, errOut := probeServer(t, cmd, "-values", "25", "-skip", "lookup_time,read_text,echo_number,warn_limit,slow_report,nested_query")
	took := time.Since(start)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if doc.Summary.Protocol < 4 {
		t.Fatalf("%v: want JSON-RPC errors", doc.Summary.docCounts)
	}
	if limit := time.Duration(doc.Summary.Protocol) * time.Second; took > limit {
		t.Errorf("%d JSON-RPC errors took %v", doc.Summary.Protocol, took)
	}
}

// TestServer_Progress_OnLongRuns: on a stderr that is not a terminal, a
// run shows a progress line each time progressEvery has passed.
func TestServer_Progress_OnLongRuns(t *testing.T) {
	defer func(d time.Duration) { progressEvery = d }(progressEvery)
	progressEvery = 0
	cmd, _ := fixtureCommand(t)
	code, _, errOut := bindprobe(t, "-server", cmd, "-values", "2", "-json", "-tools", "stamp", "-skip", "strict_params")
	if code != 0 || !strings.Contains(errOut, "bindprobe: call 2 of ") || !strings.Contains(errOut, " (stamp)\n") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
}
