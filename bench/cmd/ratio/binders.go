package main

import (
	"fmt"
	"strings"
)

// This file holds issue 11's speed table: for each binder the run
// measured, Refuse through it against that binder's own decode of the
// same bytes into the struct, and against json.Valid.
//
// A binder is known from the sub-benchmark names alone: encoding/json is
// "bind" (its decode) and "refuse" (Refuse with it); any other binder NAME
// is "bind-NAME" and "refuse-NAME", measured in the same payload. Which
// calls a binder reads is the "refused" metric its decode reports (0: it
// reads the call), checked by the benchmark before its timer.

// issuePayloads are the payloads of issue 11's table, in its order; a
// payload the run did not measure is named below its binder's table.
var issuePayloads = []string{
	"Typical", "TypicalTagged", "TypicalWrongValue", "TypicalUnknownKey", "Strings200", "Text1MB",
	"Number100kDigits", "Number1MDigits", "Ints10k", "Ints100k",
	"Nest999", "Nest9999", "NestObjects999", "Keys10k", "UnknownKeys10k", "AliasKeys10k",
}

// zeroAllocPayloads are the typical call, of the tool without validate
// tags and of the same tool with them: the guard allocates nothing there.
var zeroAllocPayloads = map[string]bool{"Typical": true, "TypicalTagged": true}

// The issue's bars.
const (
	ownDecodeMax = 0.5 // guard ÷ the binder's own decode, on a call it reads
	validMax     = 2.0 // guard ÷ json.Valid, on every payload
	growthSlack  = 1.2 // time ≤ 1.2 × the input's growth (10x → 12x)
)

// A targetRow is one line of a binder's table.
type targetRow struct {
	What, Target, Measured, Met string
}

// A binderTable is one binder's targets.
type binderTable struct {
	// Binder is the binder's name: "encoding/json", or the NAME of
	// bind-NAME.
	Binder      string
	Guard, Own  string // the sub-benchmark names: "refuse", "bind"
	Rows        []targetRow
	Unmeasured  []string // what the run did not measure
	Met, Missed int      // rows whose Met is "yes", "NO"
}

// binderSuffixes returns the suffix of each binder measured on an issue
// payload, in order of appearance: "" for encoding/json, "-NAME" for the
// others.
func binderSuffixes(res *Results) []string {
	var out []string
	seen := map[string]bool{}
	for _, name := range issuePayloads {
		p := res.Payload(name)
		if p == nil {
			continue
		}
		for _, s := range p.Subs {
			sfx, ok := strings.CutPrefix(s.Name, "refuse")
			if !ok || sfx != "" && !strings.HasPrefix(sfx, "-") || p.Sub("bind"+sfx) == nil || seen[sfx] {
				continue
			}
			seen[sfx] = true
			out = append(out, sfx)
		}
	}
	return out
}

// binderTables returns issue 11's table for every binder measured.
func binderTables(res *Results) []*binderTable {
	var ts []*binderTable
	for _, sfx := range binderSuffixes(res) {
		ts = append(ts, newBinderTable(res, sfx))
	}
	return ts
}

func newBinderTable(res *Results, sfx string) *binderTable {
	t := &binderTable{Binder: "encoding/json", Guard: "refuse" + sfx, Own: "bind" + sfx}
	if sfx != "" {
		t.Binder = sfx[1:]
	}
	add := func(what, target, measured, met string) {
		t.Rows = append(t.Rows, targetRow{what, target, measured, met})
		switch met {
		case "yes":
			t.Met++
		case "NO":
			t.Missed++
		}
	}
	for _, name := range issuePayloads {
		p := res.Payload(name)
		if p == nil {
			t.Unmeasured = append(t.Unmeasured, name)
			continue
		}
		label := name
		if name == "Typical" {
			label = "Typical (untagged)"
		}
		guard, own, valid := p.Sub(t.Guard), p.Sub(t.Own), p.Sub("valid")
		if guard == nil || guard.NsOp <= 0 {
			t.Unmeasured = append(t.Unmeasured, name+"/"+t.Guard)
			continue
		}
		switch {
		case own == nil || own.NsOp <= 0:
			t.Unmeasured = append(t.Unmeasured, name+"/"+t.Own)
		case own.Refused == 0:
			r := guard.NsOp / own.NsOp
			add(label+": "+t.Guard+" ÷ "+t.Own, fmt.Sprintf("≤ %.1fx (the binder reads it)", ownDecodeMax), fmt.Sprintf("%.2fx", r), verdict(r <= ownDecodeMax))
		case own.Refused > 0:
			// The binder refuses the call: no bar against its decode, but
			// the guard must refuse it too.
			met := "n/a"
			if guard.Refused == 0 {
				met = "NO"
			}
			add(label+": "+t.Guard+" ÷ "+t.Own, "none (the binder refuses it; so does the guard)", fmt.Sprintf("%.2fx", guard.NsOp/own.NsOp), met)
		default:
			add(label+": "+t.Guard+" ÷ "+t.Own, fmt.Sprintf("≤ %.1fx if the binder reads it", ownDecodeMax), fmt.Sprintf("%.2fx", guard.NsOp/own.NsOp), "unknown (no refused metric)")
		}
		if zeroAllocPayloads[name] {
			add(label+": "+t.Guard+" allocs/op", "0", count(guard.Allocs), verdict(guard.Allocs == 0))
		}
		if valid == nil || valid.NsOp <= 0 {
			t.Unmeasured = append(t.Unmeasured, name+"/valid")
		} else {
			r := guard.NsOp / valid.NsOp
			add(label+": "+t.Guard+" ÷ valid", fmt.Sprintf("≤ %.0fx", validMax), fmt.Sprintf("%.2fx", r), verdict(r <= validMax))
		}
	}
	for _, g := range growthTargets {
		small, large := res.Payload(g[0]), res.Payload(g[1])
		if small == nil || large == nil {
			continue // named above
		}
		s, l := small.Sub(t.Guard), large.Sub(t.Guard)
		if s == nil || l == nil || s.NsOp <= 0 {
			continue // named above
		}
		in := 10.0
		if sb, lb := small.Bytes(), large.Bytes(); sb > 0 && lb > 0 {
			in = lb / sb
		}
		grow := l.NsOp / s.NsOp
		what := g[0] + " → " + g[1] + ": " + t.Guard
		timeMet, allocsMet := verdict(grow <= growthSlack*in), verdict(s.Allocs >= 0 && s.Allocs == l.Allocs)
		if so, lo := small.Sub(t.Own), large.Sub(t.Own); so != nil && lo != nil && so.Refused != lo.Refused {
			// The binder reads one and refuses the other (segmentio's
			// 1,000-level cap): not the same call grown.
			timeMet, allocsMet = "n/a (the binder reads one, refuses the other)", "n/a (the binder reads one, refuses the other)"
		}
		add(what+" time", fmt.Sprintf("≤ %.1fx (%.1f × %.1fx input)", growthSlack*in, growthSlack, in), fmt.Sprintf("%.1fx", grow), timeMet)
		add(what+" allocs/op", "unchanged", count(s.Allocs)+" → "+count(l.Allocs), allocsMet)
	}
	return t
}

// binders prints issue 11's table for every binder measured, then one
// line per binder: how many targets it meets.
func (w *printer) binders(res *Results) {
	ts := binderTables(res)
	if len(ts) == 0 {
		return
	}
	for _, t := range ts {
		rows := make([][]string, 0, len(t.Rows))
		for _, r := range t.Rows {
			rows = append(rows, []string{r.What, r.Target, r.Measured, r.Met})
		}
		w.table(fmt.Sprintf("Issue 11's speed targets for %s: %s against %s (its own decode into the struct) and json.Valid", t.Binder, t.Guard, t.Own),
			[]string{"what", "target", "measured", "met"}, rows)
		if len(t.Unmeasured) > 0 {
			fmt.Fprintf(w.out, "\nnot measured in this run: %s\n", strings.Join(t.Unmeasured, ", "))
		}
	}
	var sum [][]string
	for _, t := range ts {
		sum = append(sum, []string{t.Binder, fmt.Sprint(t.Met), fmt.Sprint(t.Missed), fmt.Sprint(len(t.Unmeasured))})
	}
	w.table("Issue 11's speed targets, per binder", []string{"binder", "met", "not met", "not measured"}, sum)
}
