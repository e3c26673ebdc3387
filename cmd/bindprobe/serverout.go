package main

import (
	"encoding/json"
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

func (c counts) String() string {
	return fmt.Sprintf("%d calls: %d named refusals, %d generic errors, %d accepted, %d protocol errors, %d timeouts",
		c.Calls, c.Named, c.Generic, c.Accepted, c.Protocol, c.Timeout)
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
	GaveUp    string       `json:"gave_up,omitempty"`
	NotMade   int          `json:"not_made,omitempty"`
	Arguments []*argReport `json:"arguments"`
	counts
}

type argReport struct {
	Name     string `json:"name"`
	Type     string `json:"type"` // the kind of value its schema says it takes
	Required bool   `json:"required"`
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
	Planned int `json:"planned"`
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

// writeServerReport writes the readable report: per tool, a line of counts
// and a table of its arguments, with the first generic error and the first
// protocol error of each argument quoted; then why the run stopped, if it
// did; then the summary.
func writeServerReport(w io.Writer, r *serverReport) error {
	r.finish()
	var b strings.Builder
	fmt.Fprintf(&b, "server %s: %d tools\n", r.Server, len(r.Tools))
	if r.SkippedLines > 0 {
		fmt.Fprintf(&b, "skipped %d lines of the server's stdout that are not JSON-RPC; the first: %s\n", r.SkippedLines, cell(r.FirstSkippedLine, 120))
	}
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
		fmt.Fprintf(&b, "%s: %s\n", t.Name, t.counts)
		if t.GaveUp != "" {
			fmt.Fprintf(&b, "  gave up: %s (%d calls not made)\n", t.GaveUp, t.NotMade)
		}
		var out strings.Builder
		tw := tabwriter.NewWriter(&out, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  ARGUMENT\tTYPE\tCALLS\tNAMED\tGENERIC\tACCEPTED\tPROTOCOL\tTIMEOUT")
		for _, a := range t.Arguments {
			name := a.Name
			if a.Required {
				name += " (required)"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%d\t%d\t%d\t%d\t%d\t%d\n", cell(name, 40), a.Type, a.Calls, a.Named, a.Generic, a.Accepted, a.Protocol, a.Timeout)
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
	fmt.Fprintf(&b, "\n%d tools (%d probed, %d skipped), %s", s.Tools, s.Probed, s.Skipped, s.counts)
	if s.Calls < s.Planned {
		fmt.Fprintf(&b, " (of %d planned)", s.Planned)
	}
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// cut cuts s to n characters, marking a cut with "…".
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
