package main

import (
	"bytes"
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
