package main

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

const sample = `goos: linux
goarch: amd64
pkg: github.com/bindguard/bindguard/bench
BenchmarkTypical/guard=bind-2         	   31078	      4000 ns/op	  50.00 MB/s	     616 B/op	      18 allocs/op
BenchmarkTypical/guard=refuse-2       	  311804	       400 ns/op	 500.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkTypical/guard=mcpgo-2        	    4425	     40000 ns/op	   5.00 MB/s	   11256 B/op	     254 allocs/op
BenchmarkTypical/guard=mcpgo-plain-2  	    6589	     20000 ns/op	  10.00 MB/s	    4568 B/op	     116 allocs/op
BenchmarkTypical/guard=bind-2         	   31078	      6000 ns/op	  33.33 MB/s	     616 B/op	      18 allocs/op
BenchmarkTypical/guard=refuse-2       	  311804	       500 ns/op	 400.00 MB/s	       0 B/op	       0 allocs/op
BenchmarkTypical/guard=bind-2         	   31078	      5000 ns/op	  40.00 MB/s	     616 B/op	      18 allocs/op
BenchmarkTypical/guard=refuse-2       	  311804	       450 ns/op	 444.44 MB/s	       0 B/op	       0 allocs/op
BenchmarkInts10k/guard=bind-2         	     100	   1000000 ns/op	  68.89 MB/s	  357880 B/op	      25 allocs/op
BenchmarkInts10k/guard=refuse-2       	     612	    100000 ns/op	 688.86 MB/s	       0 B/op	       0 allocs/op
BenchmarkInts100k/guard=bind-2        	       4	  10000000 ns/op	  68.89 MB/s	 4101624 B/op	      34 allocs/op
BenchmarkInts100k/guard=refuse-2      	      67	   1300000 ns/op	 529.92 MB/s	       0 B/op	       0 allocs/op
--- SKIP: BenchmarkNest999/guard=gosdk-session
PASS
`

func TestParse(t *testing.T) {
	res, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Payloads) != 3 || len(res.Failed) != 0 {
		t.Fatalf("%d payloads, %d failures", len(res.Payloads), len(res.Failed))
	}
	typ := res.Payload("Typical")
	bind, refuse := typ.Sub("bind"), typ.Sub("refuse")
	if bind == nil || refuse == nil || typ.Sub("mcpgo-plain") == nil {
		t.Fatalf("sub-benchmarks %+v", typ.Subs)
	}
	if bind.NsOp != 5000 || bind.Runs != 3 || bind.Allocs != 18 || bind.BOp != 616 {
		t.Errorf("bind: %+v, want the median 5000 ns/op of 3 runs", bind)
	}
	if refuse.NsOp != 450 || refuse.Allocs != 0 {
		t.Errorf("refuse: %+v", refuse)
	}
	if b := bind.Bytes; b < 199 || b > 201 {
		t.Errorf("bind bytes %v, want 200", b)
	}
}

func TestSplitName(t *testing.T) {
	for _, c := range []struct{ in, payload, sub string }{
		{"BenchmarkTypical/guard=gosdk-session-plain-2", "Typical", "gosdk-session-plain"},
		{"BenchmarkTypical/guard=refuse", "Typical", "refuse"},
		{"BenchmarkNest9999/bind-16", "Nest9999", "bind"},
	} {
		if p, s := splitName(c.in); p != c.payload || s != c.sub {
			t.Errorf("splitName(%q) = %q, %q, want %q, %q", c.in, p, s, c.payload, c.sub)
		}
	}
}

func TestPrint(t *testing.T) {
	res, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	w := &printer{out: &out}
	w.ratios(res)
	w.growth(res, [][2]string{{"Ints10k", "Ints100k"}})
	w.targets(res)
	got := out.String()
	for _, want := range []string{
		"Typical (200 B)",
		"0.09x",               // refuse: 450 / 5000
		"8.00x",               // mcpgo: 40000 / 5000
		"mcpgo − mcpgo-plain", // the cost validation adds
		"4.00x",               // (40000 - 20000) / 5000
		"Ints10k → Ints100k",  // growth
		"13.0x",               // refuse: 1.3 ms / 100 µs
		"Typical/refuse",      // targets
		"NO",                  // refuse grows 13x for 10x the input
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
}

func TestFailures(t *testing.T) {
	res, err := Parse(strings.NewReader(sample + "--- FAIL: BenchmarkTypical/guard=santhosh\nFAIL\tgithub.com/x\t1.0s\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Failed) != 2 {
		t.Errorf("failures %q, want 2", res.Failed)
	}
}

// e2eSample is three interleaved passes of an end-to-end pair: per pass,
// adapter − noop is 10, 30, 20 µs and addtool − noop 100, 50, 80 µs; the
// medians are noop 500 µs, adapter 520 µs, addtool 590 µs.
const e2eSample = `BenchmarkE2ETypical/guard=bind-2     	 1000	      4000 ns/op	 616 B/op	 18 allocs/op
BenchmarkE2ETypical/guard=adapter-2  	 1000	    510000 ns/op	 387000 B/op	 208 allocs/op
BenchmarkE2ETypical/guard=addtool-2  	 1000	    600000 ns/op	 458000 B/op	 410 allocs/op
BenchmarkE2ETypical/guard=noop-2     	 1000	    500000 ns/op	 386000 B/op	 190 allocs/op
BenchmarkE2ETypical/guard=bind-2     	 1000	      4000 ns/op	 616 B/op	 18 allocs/op
BenchmarkE2ETypical/guard=adapter-2  	 1000	    480000 ns/op	 387000 B/op	 208 allocs/op
BenchmarkE2ETypical/guard=addtool-2  	 1000	    500000 ns/op	 458000 B/op	 410 allocs/op
BenchmarkE2ETypical/guard=noop-2     	 1000	    450000 ns/op	 386000 B/op	 190 allocs/op
BenchmarkE2ETypical/guard=bind-2     	 1000	      4000 ns/op	 616 B/op	 18 allocs/op
BenchmarkE2ETypical/guard=adapter-2  	 1000	    540000 ns/op	 387000 B/op	 208 allocs/op
BenchmarkE2ETypical/guard=addtool-2  	 1000	    600000 ns/op	 458000 B/op	 410 allocs/op
BenchmarkE2ETypical/guard=noop-2     	 1000	    520000 ns/op	 386000 B/op	 190 allocs/op
`

func TestE2E(t *testing.T) {
	res, err := Parse(strings.NewReader(sample + e2eSample))
	if err != nil {
		t.Fatal(err)
	}
	if res.Payload("Typical").E2E() != nil {
		t.Errorf("Typical has no adapter, addtool and noop, but an end-to-end pair")
	}
	e := res.Payload("E2ETypical").E2E()
	if e == nil {
		t.Fatal("no end-to-end pair for E2ETypical")
	}
	// Medians: noop 500 µs, adapter 510 µs, addtool 600 µs.
	if e.AdapterCost != 10e3 || e.AddToolCost != 100e3 {
		t.Errorf("costs %v and %v ns, want 10,000 and 100,000", e.AdapterCost, e.AddToolCost)
	}
	if e.Ratio != 0.1 || !e.Met() {
		t.Errorf("ratio %v, met %v; want 0.1, met", e.Ratio, e.Met())
	}
	// Per pass: 10/100, 30/50, 20/80.
	want := []float64{0.1, 0.6, 0.25}
	if len(e.PassRatios) != len(want) {
		t.Fatalf("per-pass ratios %v, want %v", e.PassRatios, want)
	}
	for i, r := range e.PassRatios {
		if math.Abs(r-want[i]) > 1e-9 {
			t.Errorf("pass %d: ratio %v, want %v", i, r, want[i])
		}
	}

	var out bytes.Buffer
	w := &printer{out: &out, md: true}
	w.ratios(res)
	w.e2e(res)
	w.targets(res)
	got := out.String()
	for _, want := range []string{
		"| adapter − noop | 10.00µs | +1000 | +18 | 2.50x |",
		"| addtool − noop | 100.00µs | +72000 | +220 | 25.00x |",
		"| (adapter − noop) ÷ (addtool − noop) |  |  |  | 0.10x |",
		"| E2ETypical | 4.00µs | 500.00µs | 510.00µs | 600.00µs | 10.00µs (2.50x bind) | 100.00µs (25.00x bind) | 0.10x | 0.25x [0.17x, 0.42x] of 3 |",
		"| E2ETypical: (adapter − noop) ÷ (addtool − noop) | ≤ 0.5x | 0.10x | yes |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	// The matrix of ratios to bind leaves the end-to-end payloads to their
	// own table.
	out.Reset()
	w.matrix(res)
	if m := out.String(); !strings.Contains(m, "| Typical |") || strings.Contains(m, "E2ETypical") || strings.Contains(m, "noop") {
		t.Errorf("the matrix holds the end-to-end pair, or lacks Typical:\n%s", m)
	}
}

func TestE2EMissed(t *testing.T) {
	for _, c := range []struct {
		name, adapter, addtool string
		ratio                  float64 // NaN: undefined
	}{
		{"over the bar", "560000", "600000", 0.6},
		{"adapter costlier", "700000", "600000", 2},
		{"addtool no costlier than noop", "510000", "490000", math.NaN()},
	} {
		in := "BenchmarkE2EX/guard=adapter-2 1 " + c.adapter + " ns/op\n" +
			"BenchmarkE2EX/guard=addtool-2 1 " + c.addtool + " ns/op\n" +
			"BenchmarkE2EX/guard=noop-2 1 500000 ns/op\n"
		res, err := Parse(strings.NewReader(in))
		if err != nil {
			t.Fatal(err)
		}
		e := res.Payload("E2EX").E2E()
		if e == nil {
			t.Fatalf("%s: no pair", c.name)
		}
		if math.IsNaN(c.ratio) != math.IsNaN(e.Ratio) || (!math.IsNaN(c.ratio) && math.Abs(e.Ratio-c.ratio) > 1e-9) {
			t.Errorf("%s: ratio %v, want %v", c.name, e.Ratio, c.ratio)
		}
		if e.Met() {
			t.Errorf("%s: met", c.name)
		}
		var out bytes.Buffer
		(&printer{out: &out}).targets(res)
		if !strings.Contains(out.String(), "NO") {
			t.Errorf("%s: targets do not say missed:\n%s", c.name, out.String())
		}
	}
}

// TestE2ENoise checks that an adapter measured no costlier than noop meets
// the bar, and that the targets say its cost is within the noise.
func TestE2ENoise(t *testing.T) {
	in := "BenchmarkE2EX/guard=adapter-2 1 495000 ns/op\n" +
		"BenchmarkE2EX/guard=addtool-2 1 580000 ns/op\n" +
		"BenchmarkE2EX/guard=noop-2 1 500000 ns/op\n"
	res, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	e := res.Payload("E2EX").E2E()
	if e == nil || math.Abs(e.Ratio-(-0.0625)) > 1e-9 || !e.Met() {
		t.Fatalf("pair %+v, want ratio -0.0625, met", e)
	}
	var out bytes.Buffer
	(&printer{out: &out}).targets(res)
	if got := out.String(); !strings.Contains(got, "-0.06x") || !strings.Contains(got, "yes (adapter − noop ≤ 0") {
		t.Errorf("targets:\n%s", got)
	}
}
