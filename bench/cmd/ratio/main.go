// Command ratio reads `go test -bench -benchmem` output and prints, for each
// payload (BenchmarkPAYLOAD), every sub-benchmark's (guard=NAME) time/op,
// B/op and allocs/op (medians over the runs) and its ratio to the payload's
// own "bind" sub-benchmark. Beside them: for each "X" with an "X-plain", the
// cost X adds over X-plain in units of bind; for each "refuse-NAME" with a
// "bind-NAME", their ratio. It then prints how each sub-benchmark's time
// grows from a small payload to its 10x version, a summary of every ratio
// to bind, the end-to-end pair through the go-sdk adapter (for each
// payload with "adapter", "addtool" and "noop" sub-benchmarks: each
// route's server-side cost, its time less noop's, and (adapter − noop) ÷
// (addtool − noop)), and, with -targets (the default), the targets
// for Refuse and the adapter, met or not, then issue 11's speed table for
// each binder measured (encoding/json's "bind"/"refuse", and every
// "bind-NAME"/"refuse-NAME" pair): Refuse through it against that binder's
// own decode on the calls it reads (≤ 0.5x, 0 allocations on the typical
// call, tagged and untagged), against json.Valid on every payload (≤ 2x),
// and its growth from each small payload to its 10x version (time ≤ 12x,
// allocations unchanged). It exits 1 when the output reports a failure.
//
// Usage:
//
//	go test -run '^$' -bench . -benchmem -count 6 | tee bench.txt
//	go run ./cmd/ratio [-md] [-targets=false] [-pairs small:large,...] bench.txt
//
// With no file, it reads standard input.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
)

func main() {
	md := flag.Bool("md", false, "print Markdown tables")
	targets := flag.Bool("targets", true, "print the issue's targets for refuse, met or not")
	pairs := flag.String("pairs", "Number100kDigits:Number1MDigits,Ints10k:Ints100k,Nest999:Nest9999,"+
		"ShapeDeepLossesx10:ShapeDeepLossesx100,ShapeRepeatedKeysDeepx10:ShapeRepeatedKeysDeepx100,ShapeRepeatedTopKeyx10:ShapeRepeatedTopKeyx100,ShapeLongKeysDeepx10:ShapeLongKeysDeepx100,ShapeRecursiveStructWrongElementsx10:ShapeRecursiveStructWrongElementsx100,ShapeNestedSlicesWrongElementsx10:ShapeNestedSlicesWrongElementsx100,ShapeDeepWideManyx10:ShapeDeepWideManyx100",
		"comma-separated small:large payload pairs whose growth to print")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: ratio [-md] [-targets=false] [-pairs small:large,...] [bench.txt]")
		flag.PrintDefaults()
	}
	flag.Parse()
	var in io.Reader = os.Stdin
	if flag.NArg() > 1 {
		flag.Usage()
		os.Exit(2)
	}
	if flag.NArg() == 1 {
		f, err := os.Open(flag.Arg(0))
		if err != nil {
			fmt.Fprintln(os.Stderr, "ratio:", err)
			os.Exit(1)
		}
		defer f.Close()
		in = f
	}
	res, err := Parse(in)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ratio:", err)
		os.Exit(1)
	}
	if len(res.Payloads) == 0 && len(res.Failed) == 0 {
		fmt.Fprintln(os.Stderr, "ratio: no benchmark results")
		os.Exit(1)
	}
	var ps [][2]string
	for _, p := range strings.Split(*pairs, ",") {
		if small, large, ok := strings.Cut(strings.TrimSpace(p), ":"); ok {
			ps = append(ps, [2]string{small, large})
		}
	}
	w := &printer{out: os.Stdout, md: *md}
	w.ratios(res)
	w.growth(res, ps)
	w.matrix(res)
	w.e2e(res)
	if *targets {
		w.targets(res)
		w.binders(res)
	}
	if len(res.Failed) > 0 {
		fmt.Fprintln(os.Stderr, "\nratio: the benchmark run failed:")
		for _, l := range res.Failed {
			fmt.Fprintln(os.Stderr, "  "+l)
		}
		os.Exit(1)
	}
}

// A Result is one sub-benchmark's medians.
type Result struct {
	Name   string  // the sub-benchmark ("bind")
	NsOp   float64 // median ns/op
	BOp    float64 // median B/op, or -1
	Allocs float64 // median allocs/op, or -1
	Bytes  float64 // bytes per op (MB/s × ns/op), or 0
	// Refused is the sub-benchmark's "refused" metric (1: the rival
	// refused the call, 0: it let it through; checked before the timer),
	// or -1 when the output has none.
	Refused float64
	Runs    int
	// Samples are the ns/op of each run, in order of appearance: with
	// bench/run.sh, sample i of every sub-benchmark comes from pass i.
	Samples []float64
}

// A Payload is one benchmark's sub-benchmarks, in order of appearance.
type Payload struct {
	Name string
	Subs []*Result
}

// Bytes returns the payload's size in bytes, from the sub-benchmark whose
// MB/s is printed with the most digits (the fastest), or 0.
func (p *Payload) Bytes() float64 {
	best, ns := 0.0, 0.0
	for _, s := range p.Subs {
		if s.Bytes > 0 && (ns == 0 || s.NsOp < ns) {
			best, ns = s.Bytes, s.NsOp
		}
	}
	return best
}

// Sub returns the sub-benchmark named name, or nil.
func (p *Payload) Sub(name string) *Result {
	for _, s := range p.Subs {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Results are the parsed benchmarks, in order of appearance.
type Results struct {
	Payloads []*Payload
	// Failed holds the lines that report a failure ("--- FAIL: ...",
	// "FAIL ..."): a benchmark whose rival gave the wrong verdict.
	Failed []string
}

// Payload returns the payload named name, or nil.
func (r *Results) Payload(name string) *Payload {
	for _, p := range r.Payloads {
		if p.Name == name {
			return p
		}
	}
	return nil
}

type samples struct {
	ns, b, allocs, bytes, refused []float64
}

// Parse reads benchmark lines ("BenchmarkX/sub-8  N  T ns/op ...") and
// returns the medians of each sub-benchmark. Other lines are ignored.
func Parse(r io.Reader) (*Results, error) {
	res := &Results{}
	all := map[[2]string]*samples{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); strings.HasPrefix(line, "--- FAIL") || strings.HasPrefix(line, "FAIL") {
			res.Failed = append(res.Failed, line)
			continue
		}
		f := strings.Fields(sc.Text())
		if len(f) < 4 || !strings.HasPrefix(f[0], "Benchmark") {
			continue
		}
		if _, err := strconv.Atoi(f[1]); err != nil {
			continue // not a result line
		}
		payload, sub := splitName(f[0])
		key := [2]string{payload, sub}
		s := all[key]
		if s == nil {
			s = &samples{}
			all[key] = s
			p := res.Payload(payload)
			if p == nil {
				p = &Payload{Name: payload}
				res.Payloads = append(res.Payloads, p)
			}
			p.Subs = append(p.Subs, &Result{Name: sub})
		}
		var ns, mbs float64
		for i := 2; i+1 < len(f); i += 2 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				return nil, fmt.Errorf("%q: %v", sc.Text(), err)
			}
			switch f[i+1] {
			case "ns/op":
				s.ns = append(s.ns, v)
				ns = v
			case "B/op":
				s.b = append(s.b, v)
			case "allocs/op":
				s.allocs = append(s.allocs, v)
			case "MB/s":
				mbs = v
			case "refused":
				s.refused = append(s.refused, v)
			}
		}
		if ns > 0 && mbs > 0 {
			s.bytes = append(s.bytes, mbs*ns/1e3) // MB/s = bytes / ns * 1e3
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for _, p := range res.Payloads {
		for _, r := range p.Subs {
			s := all[[2]string{p.Name, r.Name}]
			r.Runs = len(s.ns)
			r.Samples = s.ns
			r.NsOp = median(s.ns)
			r.BOp, r.Allocs, r.Refused = -1, -1, -1
			if len(s.refused) > 0 {
				r.Refused = median(s.refused)
			}
			if len(s.b) > 0 {
				r.BOp = median(s.b)
			}
			if len(s.allocs) > 0 {
				r.Allocs = median(s.allocs)
			}
			r.Bytes = median(s.bytes)
		}
	}
	return res, nil
}

// splitName splits "BenchmarkTypical/guard=gosdk-session-8" into "Typical"
// and "gosdk-session": the GOMAXPROCS suffix is the last "-N", and a
// "guard=" key is dropped.
func splitName(full string) (payload, sub string) {
	full = strings.TrimPrefix(full, "Benchmark")
	if i := strings.LastIndexByte(full, '-'); i >= 0 {
		if _, err := strconv.Atoi(full[i+1:]); err == nil {
			full = full[:i]
		}
	}
	payload, sub, _ = strings.Cut(full, "/")
	return payload, strings.TrimPrefix(sub, "guard=")
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = append([]float64(nil), v...)
	sort.Float64s(v)
	n := len(v)
	if n%2 == 1 {
		return v[n/2]
	}
	return (v[n/2-1] + v[n/2]) / 2
}

// ---------------------------------------------------------------------------
// Printing.

type printer struct {
	out io.Writer
	md  bool
}

func (w *printer) table(title string, header []string, rows [][]string) {
	if w.md {
		fmt.Fprintf(w.out, "\n%s\n\n", title)
		fmt.Fprintf(w.out, "| %s |\n", strings.Join(header, " | "))
		seps := make([]string, len(header))
		for i := range seps {
			seps[i] = "---"
			if i > 0 {
				seps[i] = "---:"
			}
		}
		fmt.Fprintf(w.out, "|%s|\n", strings.Join(seps, "|"))
		for _, r := range rows {
			fmt.Fprintf(w.out, "| %s |\n", strings.Join(r, " | "))
		}
		return
	}
	fmt.Fprintf(w.out, "\n%s\n", title)
	tw := tabwriter.NewWriter(w.out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\t\n", strings.Join(header, "\t"))
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t\n", strings.Join(r, "\t"))
	}
	tw.Flush()
}

func (w *printer) ratios(res *Results) {
	for _, p := range res.Payloads {
		bind := p.Sub("bind")
		title := p.Name
		if b := p.Bytes(); b > 0 {
			title += " (" + size(b) + ")"
		}
		if bind == nil {
			title += ": no bind sub-benchmark, no ratios"
		}
		var rows [][]string
		for _, r := range p.Subs {
			ratio := ""
			if bind != nil && bind.NsOp > 0 {
				ratio = fmt.Sprintf("%.2fx", r.NsOp/bind.NsOp)
			}
			rows = append(rows, []string{r.Name, duration(r.NsOp), count(r.BOp), count(r.Allocs), ratio})
		}
		for _, r := range p.Subs {
			plain := p.Sub(r.Name + "-plain")
			if plain == nil || bind == nil || bind.NsOp <= 0 {
				continue
			}
			d := r.NsOp - plain.NsOp
			rows = append(rows, []string{r.Name + " − " + plain.Name, duration(d), delta(r.BOp, plain.BOp), delta(r.Allocs, plain.Allocs), fmt.Sprintf("%.2fx", d/bind.NsOp)})
		}
		if e := p.E2E(); e != nil && bind != nil && bind.NsOp > 0 {
			for _, r := range []*Result{e.Adapter, e.AddTool} {
				d := r.NsOp - e.Noop.NsOp
				rows = append(rows, []string{r.Name + " − noop", duration(d), delta(r.BOp, e.Noop.BOp), delta(r.Allocs, e.Noop.Allocs), fmt.Sprintf("%.2fx", d/bind.NsOp)})
			}
			rows = append(rows, []string{"(adapter − noop) ÷ (addtool − noop)", "", "", "", ratioText(e.Ratio)})
		}
		for _, r := range p.Subs {
			name, ok := strings.CutPrefix(r.Name, "refuse-")
			own := p.Sub("bind-" + name)
			if !ok || own == nil || own.NsOp <= 0 {
				continue
			}
			rows = append(rows, []string{r.Name + " ÷ " + own.Name, "", "", "", fmt.Sprintf("%.2fx", r.NsOp/own.NsOp)})
		}
		w.table(title, []string{"sub-benchmark", "time/op", "B/op", "allocs/op", "× bind"}, rows)
	}
}

// matrix prints one row per payload: bind's time/op, then every other
// sub-benchmark's ratio to it.
func (w *printer) matrix(res *Results) {
	var cols []string
	seen := map[string]bool{"bind": true}
	var ps []*Payload // the end-to-end payloads have a table of their own
	for _, p := range res.Payloads {
		if p.E2E() == nil {
			ps = append(ps, p)
		}
	}
	for _, p := range ps {
		for _, s := range p.Subs {
			if !seen[s.Name] {
				seen[s.Name] = true
				cols = append(cols, s.Name)
			}
		}
	}
	var rows [][]string
	for _, p := range ps {
		bind := p.Sub("bind")
		if bind == nil || bind.NsOp <= 0 {
			continue
		}
		row := []string{p.Name, duration(bind.NsOp)}
		for _, c := range cols {
			cell := "-"
			if s := p.Sub(c); s != nil {
				cell = fmt.Sprintf("%.2f", s.NsOp/bind.NsOp)
			}
			row = append(row, cell)
		}
		rows = append(rows, row)
	}
	if len(rows) > 0 {
		w.table("Time/op as a multiple of bind (- : not measured)", append([]string{"payload", "bind"}, cols...), rows)
	}
}

func (w *printer) growth(res *Results, pairs [][2]string) {
	var rows [][]string
	for _, pr := range pairs {
		small, large := res.Payload(pr[0]), res.Payload(pr[1])
		if small == nil || large == nil {
			continue
		}
		for _, l := range large.Subs {
			s := small.Sub(l.Name)
			if s == nil || s.NsOp <= 0 {
				continue
			}
			in := ""
			if sb, lb := small.Bytes(), large.Bytes(); sb > 0 && lb > 0 {
				in = fmt.Sprintf("%.1fx", lb/sb)
			}
			allocs := ""
			if s.Allocs >= 0 && l.Allocs >= 0 {
				allocs = count(s.Allocs) + " → " + count(l.Allocs)
			}
			rows = append(rows, []string{pr[0] + " → " + pr[1], l.Name, in, fmt.Sprintf("%.1fx", l.NsOp/s.NsOp), allocs})
		}
	}
	if len(rows) > 0 {
		w.table("Growth: time of the large payload over the small one", []string{"payloads", "sub-benchmark", "input", "time", "allocs/op"}, rows)
	}
}

// The targets for refuse: a ratio to bind per payload, and linear
// growth with allocations independent of input size.
var ratioTargets = []struct {
	payload string
	max     float64
	zero    bool // 0 allocations
}{
	{"Typical", 0.3, true},
	{"Strings200", 0.3, false},
	{"Text1MB", 0.3, true},
	{"Number1MDigits", 0.5, false},
	{"Ints100k", 0.5, false},
	{"Nest9999", 1, false},
}

var growthTargets = [][2]string{
	{"Number100kDigits", "Number1MDigits"},
	{"Ints10k", "Ints100k"},
	{"Nest999", "Nest9999"},
}

func (w *printer) targets(res *Results) {
	// rows: refuse (bind.Std) against bind, the earlier issue's targets;
	// every binder's, issue 11's, are binders' tables.
	var rows [][]string
	add := func(sub string, row []string) {
		if sub == "refuse" {
			rows = append(rows, row)
		}
	}
	for _, t := range ratioTargets {
		p := res.Payload(t.payload)
		if p == nil || p.Sub("bind") == nil {
			continue
		}
		for _, r := range p.Subs {
			if r.Name != "refuse" && !strings.HasPrefix(r.Name, "refuse-") {
				continue
			}
			// Refuse with another binder is held to the same ratio against
			// that binder's own decode, where it was measured.
			bind := p.Sub("bind")
			if own := p.Sub("bind" + strings.TrimPrefix(r.Name, "refuse")); own != nil {
				bind = own
			}
			ratio := r.NsOp / bind.NsOp
			add(r.Name, []string{t.payload + "/" + r.Name, fmt.Sprintf("≤ %.1fx %s", t.max, bind.Name), fmt.Sprintf("%.2fx", ratio), verdict(ratio <= t.max)})
			if t.zero {
				add(r.Name, []string{t.payload + "/" + r.Name, "0 allocs/op", count(r.Allocs), verdict(r.Allocs == 0)})
			}
		}
	}
	for _, g := range growthTargets {
		small, large := res.Payload(g[0]), res.Payload(g[1])
		if small == nil || large == nil {
			continue
		}
		for _, l := range large.Subs {
			if l.Name != "refuse" && !strings.HasPrefix(l.Name, "refuse-") {
				continue
			}
			s := small.Sub(l.Name)
			if s == nil || s.NsOp <= 0 {
				continue
			}
			in := 10.0
			if sb, lb := small.Bytes(), large.Bytes(); sb > 0 && lb > 0 {
				in = lb / sb
			}
			grow := l.NsOp / s.NsOp
			name := g[0] + " → " + g[1] + "/" + l.Name
			add(l.Name, []string{name, fmt.Sprintf("time ≤ %.1fx (1.2 × %.1fx input)", 1.2*in, in), fmt.Sprintf("%.1fx", grow), verdict(grow <= 1.2*in)})
			add(l.Name, []string{name, "allocs/op unchanged", count(s.Allocs) + " → " + count(l.Allocs), verdict(s.Allocs == l.Allocs)})
		}
	}
	if len(rows) > 0 {
		w.table("Targets for refuse (issue)", []string{"what", "target", "measured", "met"}, rows)
	}
	var e2e [][]string
	for _, p := range res.Payloads {
		if e := p.E2E(); e != nil {
			met := verdict(e.Met())
			if e.Met() && e.AdapterCost <= 0 {
				met += " (adapter − noop ≤ 0: the adapter's cost is within the noise)"
			}
			e2e = append(e2e, []string{p.Name + ": (adapter − noop) ÷ (addtool − noop)", fmt.Sprintf("≤ %.1fx", e2eTarget), ratioText(e.Ratio), met})
		}
	}
	if len(e2e) > 0 {
		w.table("Target for the go-sdk adapter (issue): server-side cost, guarded over mcp.AddTool", []string{"what", "target", "measured", "met"}, e2e)
	}
}

func verdict(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

func duration(ns float64) string {
	a := ns
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 1e9:
		return fmt.Sprintf("%.2fs", ns/1e9)
	case a >= 1e6:
		return fmt.Sprintf("%.2fms", ns/1e6)
	case a >= 1e3:
		return fmt.Sprintf("%.2fµs", ns/1e3)
	}
	return fmt.Sprintf("%.0fns", ns)
}

func count(v float64) string {
	if v < 0 {
		return "-"
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

func delta(a, b float64) string {
	if a < 0 || b < 0 {
		return "-"
	}
	return fmt.Sprintf("%+.0f", a-b)
}

func size(b float64) string {
	switch {
	case b >= 1<<20:
		return fmt.Sprintf("%.2f MiB", b/(1<<20))
	case b >= 1<<10:
		return fmt.Sprintf("%.1f KiB", b/(1<<10))
	}
	return fmt.Sprintf("%.0f B", b)
}

// ---------------------------------------------------------------------------
// The end-to-end pair through the go-sdk adapter.

// e2eTarget is the bar for the adapter: a guarded call's
// server-side cost at most this times that of the same tool added with
// plain mcp.AddTool.
const e2eTarget = 0.5

// An E2E is one payload's end-to-end pair. The routes carry the same call
// over the same go-sdk session: "adapter" (the tool added with
// bindguard's gosdk.AddTool), "addtool" (go-sdk's mcp.AddTool) and "noop"
// (a handler that ignores the arguments). A route's server-side cost is
// its time less noop's, which removes what every route pays alike: the
// client, the framing, the transport and the goroutine hops.
type E2E struct {
	Bind                   *Result // json.Unmarshal alone, or nil
	Adapter, AddTool, Noop *Result
	// AdapterCost and AddToolCost are the routes' server-side costs in ns:
	// median time/op less noop's median.
	AdapterCost, AddToolCost float64
	// Ratio is AdapterCost ÷ AddToolCost, the pair; NaN when
	// AddToolCost is not positive (noise swamped the difference).
	Ratio float64
	// PassRatios is the same ratio within each pass (sample i of each
	// route), where addtool's cost in that pass is positive: its spread
	// says how far the noise moves the ratio. Empty when the routes have
	// different numbers of samples.
	PassRatios []float64
}

// E2E returns the payload's end-to-end pair, or nil when it lacks one of
// the adapter, addtool and noop sub-benchmarks.
func (p *Payload) E2E() *E2E {
	e := &E2E{Bind: p.Sub("bind"), Adapter: p.Sub("adapter"), AddTool: p.Sub("addtool"), Noop: p.Sub("noop")}
	if e.Adapter == nil || e.AddTool == nil || e.Noop == nil {
		return nil
	}
	e.AdapterCost = e.Adapter.NsOp - e.Noop.NsOp
	e.AddToolCost = e.AddTool.NsOp - e.Noop.NsOp
	e.Ratio = math.NaN()
	if e.AddToolCost > 0 {
		e.Ratio = e.AdapterCost / e.AddToolCost
	}
	a, t, n := e.Adapter.Samples, e.AddTool.Samples, e.Noop.Samples
	if len(a) == len(t) && len(t) == len(n) {
		for i := range a {
			if t[i] > n[i] {
				e.PassRatios = append(e.PassRatios, (a[i]-n[i])/(t[i]-n[i]))
			}
		}
	}
	return e
}

// Met reports whether the ratio is defined and within the bar.
func (e *E2E) Met() bool { return !math.IsNaN(e.Ratio) && e.Ratio <= e2eTarget }

// e2e prints the end-to-end pair of every payload that has one.
func (w *printer) e2e(res *Results) {
	var rows [][]string
	for _, p := range res.Payloads {
		e := p.E2E()
		if e == nil {
			continue
		}
		bind, perBind := "-", func(float64) string { return "" }
		if e.Bind != nil && e.Bind.NsOp > 0 {
			bind = duration(e.Bind.NsOp)
			perBind = func(ns float64) string { return fmt.Sprintf(" (%.2fx bind)", ns/e.Bind.NsOp) }
		}
		passes := "-"
		if len(e.PassRatios) > 0 {
			passes = fmt.Sprintf("%s [%s, %s] of %d", ratioText(median(e.PassRatios)),
				ratioText(quantile(e.PassRatios, 0.25)), ratioText(quantile(e.PassRatios, 0.75)), len(e.PassRatios))
		}
		rows = append(rows, []string{p.Name, bind, duration(e.Noop.NsOp), duration(e.Adapter.NsOp), duration(e.AddTool.NsOp),
			duration(e.AdapterCost) + perBind(e.AdapterCost), duration(e.AddToolCost) + perBind(e.AddToolCost),
			ratioText(e.Ratio), passes})
	}
	if len(rows) > 0 {
		w.table("End to end through the go-sdk adapter: server-side cost = time − noop's (medians); per pass: median [quartiles] of each pass's ratio",
			[]string{"payload", "bind", "noop", "adapter", "addtool", "adapter − noop", "addtool − noop", "(adapter − noop) ÷ (addtool − noop)", "per pass"}, rows)
	}
}

func ratioText(r float64) string {
	if math.IsNaN(r) {
		return "undefined"
	}
	return fmt.Sprintf("%.2fx", r)
}

// quantile returns the q-quantile of v (0 ≤ q ≤ 1), interpolating
// linearly between the nearest samples.
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = append([]float64(nil), v...)
	sort.Float64s(v)
	pos := q * float64(len(v)-1)
	i := int(pos)
	if i+1 >= len(v) {
		return v[len(v)-1]
	}
	return v[i] + (pos-float64(i))*(v[i+1]-v[i])
}
