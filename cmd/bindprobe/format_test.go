package main

import (
	"encoding/xml"
	"strings"
	"testing"
)

// TestServer_Formats_MarkdownAndJUnit: -format markdown writes the score,
// a row per probed tool and the skipped tools with the command that
// includes them; -format junit writes a test case per tool (failing below
// the bar, skipped when skipped) and one for the run.
func TestServer_Formats_MarkdownAndJUnit(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, _ := fixtureCommand(t)
	flags := []string{"-values", "6", "-skip", "slow_report,strict_params"}
	code, out, errOut := bindprobe(t, append([]string{"-server", cmd, "-format", "markdown"}, flags...)...)
	if code != 0 || errOut != "" {
		t.Fatalf("markdown: exit %d, stderr %q", code, errOut)
	}
	for _, want := range []string{
		"## bindprobe: `" + cmd + "`\n\n**Score: ",
		"\n| Tool | Score | Calls | named refusals | generic errors |",
		"\n| `lookup_time` | ",
		"\n### Skipped (8)\n\n- `slow_report`: -skip names it\n",
		"\n- `tidy`: not annotated readOnlyHint: true: it has no annotations",
		"\n```\nbindprobe -server " + shellQuote(cmd) + " -tools tidy,compact,stamp,sweep\n```\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("markdown lacks %q", want)
		}
	}
	if strings.Contains(out, "| `tidy` |") {
		t.Error("markdown has a row for a skipped tool")
	}
	if t.Failed() {
		t.Logf("markdown:\n%s", out)
	}

	for _, tc := range []struct {
		bar      string
		failures []string
	}{
		{"", []string{"lookup_time", "read_text"}}, // generic errors: below 100%
		{"0", nil},
	} {
		args := append([]string{"-server", cmd, "-format", "junit"}, flags...)
		if tc.bar != "" {
			args = append(args, "-min-score", tc.bar)
		}
		code, out, _ := bindprobe(t, args...)
		if code != 0 && tc.bar == "" {
			t.Errorf("junit: exit %d", code)
		}
		var doc struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
			Skipped  int `xml:"skipped,attr"`
			Suite    struct {
				Cases []struct {
					Name    string `xml:"name,attr"`
					Failure *struct {
						Message string `xml:"message,attr"`
					} `xml:"failure"`
					Skipped *struct {
						Message string `xml:"message,attr"`
					} `xml:"skipped"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("junit does not parse: %v\n%s", err, out)
		}
		var failed []string
		skipped := 0
		for _, c := range doc.Suite.Cases {
			if c.Failure != nil {
				failed = append(failed, c.Name)
				if !strings.HasPrefix(c.Failure.Message, "score ") {
					t.Errorf("%s: failure %q", c.Name, c.Failure.Message)
				}
			}
			if c.Skipped != nil {
				skipped++
			}
		}
		if strings.Join(failed, ",") != strings.Join(tc.failures, ",") || skipped != 8 || doc.Tests != 14 || doc.Failures != len(tc.failures) || doc.Skipped != 8 {
			t.Errorf("-min-score %q: failed %q, %d skipped, totals %d/%d/%d; want failed %q, 8 skipped of 14", tc.bar, failed, skipped,
				doc.Tests, doc.Failures, doc.Skipped, tc.failures)
		}
	}
}

// TestServer_MinScore_Gate: -min-score makes the exit status 1 when the
// server's score is below it, or when nothing was scored.
func TestServer_MinScore_Gate(t *testing.T) {
	t.Parallel() // each runs its own server processes
	cmd, _ := fixtureCommand(t)
	flags := []string{"-values", "4", "-skip", "slow_report,strict_params", "-json"}
	_, doc, _ := probeServer(t, cmd, flags[:len(flags)-1]...)
	if doc.Summary.Score == nil || *doc.Summary.Score >= 1 || *doc.Summary.Score <= 0.2 {
		t.Fatalf("score %v: want one between 0.2 and 1", doc.Summary.Score)
	}
	for _, tc := range []struct {
		bar  string
		code int
	}{{"0.2", 0}, {"20%", 0}, {"1", 1}, {"100%", 1}} {
		code, _, errOut := bindprobe(t, append([]string{"-server", cmd, "-min-score", tc.bar}, flags...)...)
		if code != tc.code || (code == 1) != strings.Contains(errOut, "bindprobe: the server's score is ") {
			t.Errorf("-min-score %s: exit %d, stderr %q; want %d", tc.bar, code, errOut, tc.code)
		}
	}
	all, _ := fixtureCommand(t, "-mcpgo")
	if code, _, errOut := bindprobe(t, "-server", all, "-min-score", "0", "-json"); code != 1 || !strings.Contains(errOut, "score is -, below -min-score 0%") {
		t.Errorf("nothing probed, -min-score 0: exit %d, stderr %q; want 1", code, errOut)
	}
	for _, bad := range []string{"1.5", "x", "-1"} {
		if code, _, errOut := bindprobe(t, "-server", cmd, "-min-score", bad); code != 2 || !strings.Contains(errOut, "want a share from 0 to 1") {
			t.Errorf("-min-score %s: exit %d, stderr %q; want 2", bad, code, errOut)
		}
	}
}
