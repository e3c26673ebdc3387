package main

import (
	"bytes"
	"strings"
	"testing"
)

// bindersSample is `go test -bench -benchmem` output of four payloads with
// the three binders' decode and guard, json.Valid, and the "refused"
// metric; segmentio refuses Nest9999 (its 1,000-level cap), and so does its
// guard. The numbers are made up so that every kind of row is met on one
// binder and missed on another.
const bindersSample = `goos: linux
goarch: amd64
pkg: github.com/bindguard/bindguard/bench
cpu: Intel Xeon Processor
BenchmarkTypical/guard=bind-2                 	  300000	      4000 ns/op	  53.75 MB/s	         0 refused	     616 B/op	      18 allocs/op
BenchmarkTypical/guard=valid-2                	 1000000	      1000 ns/op	 215.00 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkTypical/guard=refuse-2               	 2000000	       500 ns/op	 430.00 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkTypical/guard=bind-segmentio-2       	  400000	      3000 ns/op	  71.67 MB/s	         0 refused	     400 B/op	      10 allocs/op
BenchmarkTypical/guard=refuse-segmentio-2     	 1000000	       900 ns/op	 238.89 MB/s	         0 refused	      64 B/op	       2 allocs/op
BenchmarkTypical/guard=bind-v2-2              	  600000	      2000 ns/op	 107.50 MB/s	         0 refused	     240 B/op	       5 allocs/op
BenchmarkTypical/guard=refuse-v2-2            	 1000000	      1200 ns/op	 179.17 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkTypicalTagged/guard=bind-2           	  300000	      4000 ns/op	  53.75 MB/s	         0 refused	     616 B/op	      18 allocs/op
BenchmarkTypicalTagged/guard=refuse-2         	  800000	      1500 ns/op	 143.33 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkTypicalTagged/guard=bind-segmentio-2 	  400000	      3000 ns/op	  71.67 MB/s	         0 refused	     400 B/op	      10 allocs/op
BenchmarkTypicalTagged/guard=refuse-segmentio-2         	  800000	      1400 ns/op	 153.57 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkTypicalTagged/guard=bind-v2-2                  	  600000	      2000 ns/op	 107.50 MB/s	         0 refused	     240 B/op	       5 allocs/op
BenchmarkTypicalTagged/guard=refuse-v2-2                	  500000	      2500 ns/op	  86.00 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkTypicalTagged/guard=valid-2                    	 1000000	      1000 ns/op	 215.00 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkTypicalTagged/guard=refuse-untagged-2          	 2000000	       500 ns/op	 430.00 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkNest999/guard=bind-2                 	   10000	    100000 ns/op	  20.09 MB/s	         0 refused	   96000 B/op	    1000 allocs/op
BenchmarkNest999/guard=valid-2                	  100000	     10000 ns/op	 200.90 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkNest999/guard=refuse-2               	   80000	     15000 ns/op	 133.93 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkNest999/guard=bind-segmentio-2       	   20000	     60000 ns/op	  33.48 MB/s	         0 refused	   64000 B/op	    1000 allocs/op
BenchmarkNest999/guard=refuse-segmentio-2     	   40000	     25000 ns/op	  80.36 MB/s	         0 refused	     100 B/op	       1 allocs/op
BenchmarkNest999/guard=bind-v2-2              	   20000	     50000 ns/op	  40.18 MB/s	         0 refused	   64000 B/op	    1000 allocs/op
BenchmarkNest999/guard=refuse-v2-2            	   50000	     20000 ns/op	 100.45 MB/s	         0 refused	     200 B/op	       3 allocs/op
BenchmarkNest9999/guard=bind-2                	    1000	   1000000 ns/op	  20.01 MB/s	         0 refused	  960000 B/op	   10000 allocs/op
BenchmarkNest9999/guard=valid-2               	   10000	    100000 ns/op	 200.09 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkNest9999/guard=refuse-2              	    8000	    160000 ns/op	 125.06 MB/s	         0 refused	       0 B/op	       0 allocs/op
BenchmarkNest9999/guard=bind-segmentio-2      	  200000	      5000 ns/op	4001.80 MB/s	         1.000 refused	     200 B/op	       4 allocs/op
BenchmarkNest9999/guard=refuse-segmentio-2    	   50000	     20000 ns/op	1000.45 MB/s	         1.000 refused	    9000 B/op	       5 allocs/op
BenchmarkNest9999/guard=bind-v2-2             	    2000	    500000 ns/op	  40.02 MB/s	         0 refused	  640000 B/op	   10000 allocs/op
BenchmarkNest9999/guard=refuse-v2-2           	    3000	    300000 ns/op	  66.70 MB/s	         0 refused	     200 B/op	       3 allocs/op
PASS
ok  	github.com/bindguard/bindguard/bench	12.345s
`

// TestBinderTargets checks every row of every binder's table on
// bindersSample: none missing, none extra, each judged as the bars
// say.
func TestBinderTargets(t *testing.T) {
	res, err := Parse(strings.NewReader(bindersSample))
	if err != nil {
		t.Fatal(err)
	}
	if r := res.Payload("Nest9999").Sub("bind-segmentio"); r == nil || r.Refused != 1 {
		t.Fatalf("Nest9999/bind-segmentio: %+v, want refused 1", r)
	}
	if r := res.Payload("Typical").Sub("bind"); r == nil || r.Refused != 0 {
		t.Fatalf("Typical/bind: %+v, want refused 0", r)
	}
	want := map[string]map[string]string{ // binder → row → measured, met
		"encoding/json": {
			"Typical (untagged): refuse ÷ bind":    "0.12x yes",
			"Typical (untagged): refuse allocs/op": "0 yes",
			"Typical (untagged): refuse ÷ valid":   "0.50x yes",
			"TypicalTagged: refuse ÷ bind":         "0.38x yes",
			"TypicalTagged: refuse allocs/op":      "0 yes",
			"TypicalTagged: refuse ÷ valid":        "1.50x yes",
			"Nest999: refuse ÷ bind":               "0.15x yes",
			"Nest999: refuse ÷ valid":              "1.50x yes",
			"Nest9999: refuse ÷ bind":              "0.16x yes",
			"Nest9999: refuse ÷ valid":             "1.60x yes",
			"Nest999 → Nest9999: refuse time":      "10.7x yes", // ≤ 1.2 × 9.96x input
			"Nest999 → Nest9999: refuse allocs/op": "0 → 0 yes",
		},
		"segmentio": {
			"Typical (untagged): refuse-segmentio ÷ bind-segmentio": "0.30x yes",
			"Typical (untagged): refuse-segmentio allocs/op":        "2 NO",
			"Typical (untagged): refuse-segmentio ÷ valid":          "0.90x yes",
			"TypicalTagged: refuse-segmentio ÷ bind-segmentio":      "0.47x yes",
			"TypicalTagged: refuse-segmentio allocs/op":             "0 yes",
			"TypicalTagged: refuse-segmentio ÷ valid":               "1.40x yes",
			"Nest999: refuse-segmentio ÷ bind-segmentio":            "0.42x yes",
			"Nest999: refuse-segmentio ÷ valid":                     "2.50x NO",
			"Nest9999: refuse-segmentio ÷ bind-segmentio":           "4.00x n/a", // the binder refuses it
			"Nest9999: refuse-segmentio ÷ valid":                    "0.20x yes",
			// segmentio reads Nest999 and refuses Nest9999: no growth bar.
			"Nest999 → Nest9999: refuse-segmentio time":      "0.8x n/a (the binder reads one, refuses the other)",
			"Nest999 → Nest9999: refuse-segmentio allocs/op": "1 → 5 n/a (the binder reads one, refuses the other)",
		},
		"v2": {
			"Typical (untagged): refuse-v2 ÷ bind-v2": "0.60x NO",
			"Typical (untagged): refuse-v2 allocs/op": "0 yes",
			"Typical (untagged): refuse-v2 ÷ valid":   "1.20x yes",
			"TypicalTagged: refuse-v2 ÷ bind-v2":      "1.25x NO",
			"TypicalTagged: refuse-v2 allocs/op":      "0 yes",
			"TypicalTagged: refuse-v2 ÷ valid":        "2.50x NO",
			"Nest999: refuse-v2 ÷ bind-v2":            "0.40x yes",
			"Nest999: refuse-v2 ÷ valid":              "2.00x yes", // the bar is inclusive
			"Nest9999: refuse-v2 ÷ bind-v2":           "0.60x NO",
			"Nest9999: refuse-v2 ÷ valid":             "3.00x NO",
			"Nest999 → Nest9999: refuse-v2 time":      "15.0x NO",
			"Nest999 → Nest9999: refuse-v2 allocs/op": "3 → 3 yes",
		},
	}
	tables := binderTables(res)
	var names []string
	for _, tb := range tables {
		names = append(names, tb.Binder)
	}
	if strings.Join(names, ",") != "encoding/json,segmentio,v2" {
		t.Fatalf("binders %v, want encoding/json, segmentio, v2 in order of appearance", names)
	}
	for _, tb := range tables {
		rows := want[tb.Binder]
		got := map[string]bool{}
		met, missed := 0, 0
		for _, r := range tb.Rows {
			got[r.What] = true
			w, ok := rows[r.What]
			if !ok {
				t.Errorf("%s: unexpected row %+v", tb.Binder, r)
				continue
			}
			if g := r.Measured + " " + r.Met; g != w {
				t.Errorf("%s: %s: %q, want %q", tb.Binder, r.What, g, w)
			}
			switch {
			case strings.HasSuffix(w, " yes"):
				met++
			case strings.HasSuffix(w, " NO"):
				missed++
			}
		}
		for what := range rows {
			if !got[what] {
				t.Errorf("%s: row %q missing", tb.Binder, what)
			}
		}
		if tb.Met != met || tb.Missed != missed {
			t.Errorf("%s: %d met, %d not, want %d and %d", tb.Binder, tb.Met, tb.Missed, met, missed)
		}
		// The payloads this run left out are named, each once.
		if u := strings.Join(tb.Unmeasured, ","); u != "TypicalWrongValue,TypicalUnknownKey,Strings200,Text1MB,Number100kDigits,Number1MDigits,Ints10k,Ints100k,NestObjects999,Keys10k,UnknownKeys10k,AliasKeys10k" {
			t.Errorf("%s: not measured %q", tb.Binder, u)
		}
	}
	var out bytes.Buffer
	(&printer{out: &out}).binders(res)
	for _, s := range []string{
		"Issue 11's speed targets for encoding/json: refuse against bind",
		"Issue 11's speed targets for segmentio: refuse-segmentio against bind-segmentio",
		"Issue 11's speed targets for v2: refuse-v2 against bind-v2",
		"not measured in this run: TypicalWrongValue, TypicalUnknownKey, Strings200, Text1MB",
		"Issue 11's speed targets, per binder",
	} {
		if !strings.Contains(out.String(), s) {
			t.Errorf("output lacks %q:\n%s", s, out.String())
		}
	}
}

// TestBinderTargetsGuardLetThrough: a call the binder refuses that the
// guard lets through is a missed target, not "n/a"; a guard with no decode
// of its binder beside it, or a run without the "refused" metric, is said.
func TestBinderTargetsGuardLetThrough(t *testing.T) {
	in := "BenchmarkNest9999/guard=bind-segmentio-2 1 5000 ns/op 1 refused\n" +
		"BenchmarkNest9999/guard=refuse-segmentio-2 1 2000 ns/op 0 refused\n" +
		"BenchmarkNest9999/guard=valid-2 1 2000 ns/op 0 refused\n" +
		"BenchmarkTypical/guard=bind-segmentio-2 1 5000 ns/op\n" +
		"BenchmarkTypical/guard=refuse-segmentio-2 1 1000 ns/op\n" +
		"BenchmarkTypical/guard=valid-2 1 1000 ns/op\n" +
		"BenchmarkStrings200/guard=refuse-segmentio-2 1 1000 ns/op 0 refused\n" +
		"BenchmarkStrings200/guard=valid-2 1 1000 ns/op 0 refused\n"
	res, err := Parse(strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	tables := binderTables(res)
	if len(tables) != 1 || tables[0].Binder != "segmentio" {
		t.Fatalf("tables %+v, want segmentio's alone", tables)
	}
	rows := map[string]string{}
	for _, r := range tables[0].Rows {
		rows[r.What] = r.Met
	}
	if m := rows["Nest9999: refuse-segmentio ÷ bind-segmentio"]; m != "NO" {
		t.Errorf("the guard let through a call the binder refuses: %q, want NO", m)
	}
	if m := rows["Typical (untagged): refuse-segmentio ÷ bind-segmentio"]; !strings.HasPrefix(m, "unknown") {
		t.Errorf("no refused metric: %q, want unknown", m)
	}
	if !strings.Contains(strings.Join(tables[0].Unmeasured, ","), "Strings200/bind-segmentio") {
		t.Errorf("not measured %q lacks Strings200/bind-segmentio", tables[0].Unmeasured)
	}
}
