package main

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
)

// counts are the grades of a set of calls.
type counts struct {
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

func (c *counts) add(g grade) {
	c.Calls++
	switch g {
	case named:
		c.Named++
	case generic:
		c.Generic++
	case otherArgument:
		c.Other++
	case validCall:
		c.Valid++
	case accepted:
		c.Accepted++
	case changed:
		c.Changed++
	case warned:
		c.Warned++
	case protocol:
		c.Protocol++
	case timedOut:
		c.Timeout++
	}
}

// A serverReport is what bindprobe -server found; -json prints it.
type serverReport struct {
	Server string        `json:"server"`
	Tools  []*toolReport `json:"tools"`
	Calls  []callRecord  `json:"calls"`
	// Stopped says why bindprobe stopped before making every call; empty
	// when it made them all.
	Stopped string `json:"stopped,omitempty"`
	// Include is the command that probes the tools skipped for not being
	// annotated readOnlyHint: true (-tools naming them); empty when none
	// is.
	Include string `json:"include,omitempty"`
	// SkippedLines counts the lines of the server's stdout that were not
	// JSON-RPC messages (a banner, a log line), and were skipped;
	// FirstSkippedLine is the first, cut short.
	SkippedLines     int           `json:"skipped_lines"`
	FirstSkippedLine string        `json:"first_skipped_line,omitempty"`
	Summary          serverSummary `json:"summary"`
}

type toolReport struct {
	Name string `json:"name"`
	// Skipped says why the tool was not probed; empty when it was.
	Skipped string `json:"skipped,omitempty"`
	// SkipCode says it as a code: skip_flag, task_required, write_name,
	// not_read_only, bad_schema.
	SkipCode string `json:"skip_code,omitempty"`
	// GaveUp says why bindprobe stopped calling the tool (it left calls
	// unanswered); NotMade counts the calls it then did not make.
	GaveUp string `json:"gave_up,omitempty"`
	// Score is the share of its refused calls that were named refusals
	// (see counts.score); null when none was refused.
	Score     *float64     `json:"score"`
	NotMade   int          `json:"not_made,omitempty"`
	Arguments []*argReport `json:"arguments"`
	counts
}

type argReport struct {
	Name     string   `json:"name"`
	Type     string   `json:"type"` // the kind of value its schema says it takes
	Required bool     `json:"required"`
	Score    *float64 `json:"score"`
	counts
	first map[grade]callRecord // the first call of each grade
}

// A callRecord is one call and its grade.
type callRecord struct {
	Tool     string `json:"tool"`
	Argument string `json:"argument"`
	// Value is the value probed; Arguments the whole arguments object sent.
	Value     json.RawMessage `json:"value"`
	Arguments json.RawMessage `json:"arguments"`
	Grade     grade           `json:"grade"`
	// NamedBy says how a named refusal named the argument: problems, quote
	// or word.
	NamedBy string `json:"named_by,omitempty"`
	// Text is the answer's text (for a protocol error, the error), cut to
	// maxCallText characters.
	Text       string  `json:"text"`
	DurationMS float64 `json:"duration_ms"`
}

type serverSummary struct {
	Tools   int `json:"tools"`
	Probed  int `json:"probed"`
	Skipped int `json:"skipped"`
	// Planned counts the calls bindprobe meant to make; Calls (in counts)
	// those it made.
	Planned int      `json:"planned"`
	Score   *float64 `json:"score"`
	counts
}

// maxCallText bounds the text a call record keeps.
const maxCallText = 200

// tool returns the report of the tool named name.
func (r *serverReport) tool(name string) *toolReport {
	for _, t := range r.Tools {
		if t.Name == name {
			return t
		}
	}
	return &toolReport{}
}

// add records a call and counts its grade for its tool, its argument and
// the summary.
func (r *serverReport) add(rec callRecord) {
	r.Calls = append(r.Calls, rec)
	r.Summary.add(rec.Grade)
	for _, t := range r.Tools {
		if t.Name != rec.Tool {
			continue
		}
		t.add(rec.Grade)
		for _, a := range t.Arguments {
			if a.Name == rec.Argument {
				a.add(rec.Grade)
				if a.first == nil {
					a.first = map[grade]callRecord{}
				}
				if _, ok := a.first[rec.Grade]; !ok {
					a.first[rec.Grade] = rec
				}
			}
		}
	}
}

// finish counts the tools, and writes the command that includes the
// tools skipped for their annotations.
func (r *serverReport) finish() {
	r.Summary.Tools, r.Summary.Probed, r.Summary.Skipped = len(r.Tools), 0, 0
	var mayWrite []string
	for _, t := range r.Tools {
		if t.Skipped != "" {
			r.Summary.Skipped++
		} else {
			r.Summary.Probed++
		}
		if t.SkipCode == skipReadOnly {
			mayWrite = append(mayWrite, t.Name)
		}
	}
	r.Summary.Score = r.Summary.score()
	for _, t := range r.Tools {
		t.Score = t.score()
		for _, a := range t.Arguments {
			a.Score = a.score()
		}
	}
	r.Include = ""
	if len(mayWrite) > 0 {
		r.Include = "bindprobe -server " + shellQuote(r.Server) + " -tools " + shellQuote(strings.Join(mayWrite, ","))
	}
}

// writeSkipped writes, after the tools, what was skipped for safety and
// how to include it: plainly, when no tool was probed at all.
func writeSkipped(b *strings.Builder, r *serverReport) {
	byCode := map[string]int{}
	for _, t := range r.Tools {
		byCode[t.SkipCode]++
	}
	mayWrite, named := byCode[skipReadOnly], byCode[skipName]
	if mayWrite+named == 0 {
		return
	}
	b.WriteString("\n")
	if r.Summary.Probed == 0 {
		fmt.Fprintf(b, "No tool was probed: all %d tools were skipped.", len(r.Tools))
		if mayWrite > 0 {
			b.WriteString(" bindprobe calls only the tools annotated readOnlyHint: true unless told otherwise." +
				" A tool with no annotations may write, and mcp-go's mcp.NewTool marks every tool readOnlyHint: false," +
				" destructiveHint: true unless its author says otherwise.")
		}
		b.WriteString("\n")
	} else {
		fmt.Fprintf(b, "%d of %d tools were skipped because they may write.\n", mayWrite+named, len(r.Tools))
	}
	if r.Include != "" {
		fmt.Fprintf(b, "To probe chosen tools (they may write; name only those that are safe to call with bad arguments):\n  %s\n", r.Include)
	}
	fmt.Fprintf(b, "To probe every tool, writes included:\n  bindprobe -server %s -allow-writes\n", shellQuote(r.Server))
}

func writeServerJSON(w io.Writer, r *serverReport) error {
	r.finish()
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(r)
}

// gradeColumns are the grades in the order the tables give them, with
// their column headings.
var gradeColumns = []struct {
	g                   grade
	heading, words, one string // one: the words for one call
}{
	{named, "NAMED", "named refusals", "named refusal"},
	{generic, "GENERIC", "generic errors", "generic error"},
	{otherArgument, "OTHER", "errors naming another argument", "error naming another argument"},
	{validCall, "VALID", "errors for valid calls", "error for a valid call"},
	{accepted, "ACCEPTED", "accepted", "accepted"},
	{changed, "CHANGED", "accepted changed", "accepted changed"},
	{warned, "WARNED", "accepted with warnings", "accepted with warnings"},
	{protocol, "PROTOCOL", "protocol errors", "protocol error"},
	{timedOut, "TIMEOUT", "timeouts", "timeout"},
}

// of returns the count of grade g.
func (c counts) of(g grade) int {
	switch g {
	case named:
		return c.Named
	case generic:
		return c.Generic
	case otherArgument:
		return c.Other
	case validCall:
		return c.Valid
	case accepted:
		return c.Accepted
	case changed:
		return c.Changed
	case warned:
		return c.Warned
	case protocol:
		return c.Protocol
	case timedOut:
		return c.Timeout
	}
	return 0
}

// refusedCalls counts the calls a score is taken over: the ones the server
// refused, with a named refusal, a generic error or a protocol error. The
// other grades say nothing about how the server refuses the argument probed.
func (c counts) refusedCalls() int { return c.Named + c.Generic + c.Protocol }

// score is the share of the refused calls that were named refusals, or nil
// when no call was refused.
func (c counts) score() *float64 {
	n := c.refusedCalls()
	if n == 0 {
		return nil
	}
	s := float64(c.Named) / float64(n)
	return &s
}

// percent writes a score, "-" when there is none; it never rounds a score
// below 1 up to 100%.
func percent(s *float64) string {
	switch {
	case s == nil:
		return "-"
	case *s < 1 && *s >= 0.995:
		return "99%"
	}
	return fmt.Sprintf("%.0f%%", *s*100)
}

// describe says a set of counts in words, leaving out the grades with none.
func (c counts) describe() string {
	var parts []string
	for _, col := range gradeColumns {
		if n := c.of(col.g); n > 0 {
			words := col.words
			if n == 1 {
				words = col.one
			}
			parts = append(parts, fmt.Sprintf("%d %s", n, words))
		}
	}
	s := fmt.Sprintf("%d calls", c.Calls)
	if c.Calls == 1 {
		s = "1 call"
	}
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	return s
}

// scoreLine says the server's score in a sentence.
func (r *serverReport) scoreLine() string {
	s := r.Summary.counts
	if s.score() == nil {
		return "score -: no call was refused, nothing to score"
	}
	return fmt.Sprintf("score %s: %d of the %d refused calls named the argument", percent(s.score()), s.Named, s.refusedCalls())
}

// writeServerReport writes the readable report: the server's score, a line
// per tool, then per tool its arguments (with the first answer of each
// grade worth reading quoted), what was skipped and how to include it, why
// the run stopped, if it did, and the summary.
func writeServerReport(w io.Writer, r *serverReport) error {
	r.finish()
	var b strings.Builder
	fmt.Fprintf(&b, "server %s: %d tools (%d probed, %d skipped); %s\n", r.Server, len(r.Tools), r.Summary.Probed, r.Summary.Skipped, r.scoreLine())
	if r.SkippedLines > 0 {
		fmt.Fprintf(&b, "skipped %d lines of the server's stdout that are not JSON-RPC; the first: %s\n", r.SkippedLines, cell(r.FirstSkippedLine, 120))
	}

	b.WriteString("\n")
	var out strings.Builder
	tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
	heading := "TOOL\tSCORE\tCALLS"
	for _, col := range gradeColumns {
		heading += "\t" + col.heading
	}
	fmt.Fprintln(tw, heading)
	for _, t := range r.Tools {
		if t.Skipped != "" {
			fmt.Fprintf(tw, "%s\tskipped\t-%s\n", cell(t.Name, 40), strings.Repeat("\t-", len(gradeColumns)))
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%d%s\n", cell(t.Name, 40), percent(t.score()), t.Calls, gradeCells(t.counts))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	b.WriteString(trimLines(out.String()))

	for _, t := range r.Tools {
		b.WriteString("\n")
		switch {
		case t.Skipped != "":
			fmt.Fprintf(&b, "%s: skipped: %s\n", t.Name, t.Skipped)
			continue
		case len(t.Arguments) == 0:
			fmt.Fprintf(&b, "%s: no parameters, nothing to probe\n", t.Name)
			continue
		}
		fmt.Fprintf(&b, "%s: score %s, %s\n", t.Name, percent(t.score()), t.counts.describe())
		if t.GaveUp != "" {
			fmt.Fprintf(&b, "  gave up: %s (%d calls not made)\n", t.GaveUp, t.NotMade)
		}
		out.Reset()
		tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
		heading := "  ARGUMENT\tTYPE\tSCORE\tCALLS"
		for _, col := range gradeColumns {
			heading += "\t" + col.heading
		}
		fmt.Fprintln(tw, heading)
		for _, a := range t.Arguments {
			name := a.Name
			if a.Required {
				name += " (required)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%d%s\n", cell(name, 40), a.Type, percent(a.score()), a.Calls, gradeCells(a.counts))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		b.WriteString(out.String())
		for _, a := range t.Arguments {
			for _, g := range []grade{generic, otherArgument, validCall, changed, protocol, timedOut} {
				if c, ok := a.first[g]; ok {
					fmt.Fprintf(&b, "  first %s for %s: sent %s: %s\n", strings.ReplaceAll(string(g), "_", " "),
						cell(a.Name, 40), cell(string(c.Value), 40), cell(c.Text, 160))
				}
			}
		}
	}
	writeSkipped(&b, r)
	if r.Stopped != "" {
		fmt.Fprintf(&b, "\nstopped: %s\n", r.Stopped)
	}
	s := r.Summary
	fmt.Fprintf(&b, "\n%d tools (%d probed, %d skipped), %s", s.Tools, s.Probed, s.Skipped, s.counts.describe())
	if s.Calls < s.Planned {
		fmt.Fprintf(&b, " (of %d planned)", s.Planned)
	}
	fmt.Fprintf(&b, "; %s\n", r.scoreLine())
	_, err := io.WriteString(w, b.String())
	return err
}

func gradeCells(c counts) string {
	var s string
	for _, col := range gradeColumns {
		s += fmt.Sprintf("\t%d", c.of(col.g))
	}
	return s
}

// trimLines drops the spaces tabwriter leaves at the ends of lines.
func trimLines(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		b.WriteString(strings.TrimRight(line, " \n") + "\n")
	}
	return b.String()
}

// writeServerMarkdown writes the report as Markdown, for a CI step
// summary: the score, a table with a row per tool, what was skipped and
// how to include it, and why the run stopped.
func writeServerMarkdown(w io.Writer, r *serverReport) error {
	r.finish()
	var b strings.Builder
	fmt.Fprintf(&b, "## bindprobe: %s\n\n", mdCode(r.Server))
	s := r.Summary
	fmt.Fprintf(&b, "**Score: %s**: %s. %d tools, %d probed, %d skipped; %s.\n\n", percent(s.score()),
		strings.TrimPrefix(r.scoreLine(), "score "+percent(s.score())+": "), s.Tools, s.Probed, s.Skipped, s.counts.describe())
	if r.Stopped != "" {
		fmt.Fprintf(&b, "**Stopped early:** %s\n\n", mdText(r.Stopped))
	}
	b.WriteString("| Tool | Score | Calls |")
	for _, col := range gradeColumns {
		b.WriteString(" " + col.words + " |")
	}
	b.WriteString("\n|---|---:|---:|" + strings.Repeat("---:|", len(gradeColumns)) + "\n")
	for _, t := range r.Tools {
		if t.Skipped != "" {
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %d |", mdCode(t.Name), percent(t.score()), t.Calls)
		for _, col := range gradeColumns {
			fmt.Fprintf(&b, " %d |", t.of(col.g))
		}
		b.WriteString("\n")
	}
	var skipped []*toolReport
	for _, t := range r.Tools {
		if t.Skipped != "" {
			skipped = append(skipped, t)
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintf(&b, "\n### Skipped (%d)\n\n", len(skipped))
		for _, t := range skipped {
			fmt.Fprintf(&b, "- %s: %s\n", mdCode(t.Name), mdText(t.Skipped))
		}
		if r.Include != "" {
			fmt.Fprintf(&b, "\nTo probe chosen tools (they may write; name only those safe to call with bad arguments):\n\n```\n%s\n```\n", r.Include)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mdCode writes s as Markdown code, in a fence of backticks longer than
// any it holds.
func mdCode(s string) string {
	s = cell(s, 200)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// mdText escapes what Markdown or a table would read specially.
func mdText(s string) string {
	r := strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "\n", " ")
	return r.Replace(cell(s, 400))
}

// A junitSuite is -format junit's document: one test case per tool.
type junitSuites struct {
	XMLName  xml.Name   `xml:"testsuites"`
	Name     string     `xml:"name,attr"`
	Tests    int        `xml:"tests,attr"`
	Failures int        `xml:"failures,attr"`
	Skipped  int        `xml:"skipped,attr"`
	Suites   []junitSet `xml:"testsuite"`
}

type junitSet struct {
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Skipped  int         `xml:"skipped,attr"`
	Time     string      `xml:"time,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitFailure `xml:"failure,omitempty"`
	Skipped   *junitSkipped `xml:"skipped,omitempty"`
}

type junitFailure struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",chardata"`
}

type junitSkipped struct {
	Message string `xml:"message,attr"`
}

// writeServerJUnit writes the report as JUnit XML: a test case per tool,
// failing when the tool's score is below bar (-min-score, or 1 when it is
// not given) or bindprobe gave up on it, skipped when the tool was; and
// one more, "bindprobe run", failing when the run stopped early.
func writeServerJUnit(w io.Writer, r *serverReport, bar float64) error {
	r.finish()
	set := junitSet{Name: "bindprobe -server " + r.Server}
	ms := map[string]float64{}
	for _, c := range r.Calls {
		ms[c.Tool] += c.DurationMS
	}
	var total float64
	for _, t := range r.Tools {
		tc := junitCase{Name: t.Name, Classname: "bindprobe", Time: fmt.Sprintf("%.3f", ms[t.Name]/1000)}
		total += ms[t.Name]
		switch sc := t.score(); {
		case t.Skipped != "":
			tc.Skipped = &junitSkipped{Message: t.Skipped}
			set.Skipped++
		case t.GaveUp != "":
			tc.Failure = &junitFailure{Message: t.GaveUp, Type: "timeout", Text: t.counts.describe()}
		case sc != nil && *sc < bar:
			tc.Failure = &junitFailure{Message: fmt.Sprintf("score %s, below %s: %s", percent(sc), percent(&bar), t.counts.describe()),
				Type: "score", Text: firstFailures(t)}
		}
		if tc.Failure != nil {
			set.Failures++
		}
		set.Cases = append(set.Cases, tc)
	}
	run := junitCase{Name: "bindprobe run", Classname: "bindprobe", Time: "0"}
	if r.Stopped != "" {
		run.Failure = &junitFailure{Message: "the run stopped early", Type: "stopped", Text: r.Stopped}
		set.Failures++
	}
	set.Cases = append(set.Cases, run)
	set.Tests = len(set.Cases)
	set.Time = fmt.Sprintf("%.3f", total/1000)
	doc := junitSuites{Name: "bindprobe", Tests: set.Tests, Failures: set.Failures, Skipped: set.Skipped, Suites: []junitSet{set}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// firstFailures quotes, for a tool, the first generic and protocol error of
// each argument.
func firstFailures(t *toolReport) string {
	var b strings.Builder
	for _, a := range t.Arguments {
		for _, g := range []grade{generic, protocol} {
			if c, ok := a.first[g]; ok {
				fmt.Fprintf(&b, "%s for %s: sent %s: %s\n", strings.ReplaceAll(string(g), "_", " "), a.Name, cut(string(c.Value), 60), c.Text)
			}
		}
	}
	return b.String()
}

// cut cuts s to n characters, marking a cut with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
