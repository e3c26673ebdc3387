package bench

import (
	"context"
	"encoding/json"
	"testing"
)

// Each BenchmarkE2EPAYLOAD runs the end-to-end routes on one payload as
// sub-benchmarks named guard=ROUTE: bind (json.Unmarshal, no session, the
// 1.00x of cmd/ratio's columns), adapter (gosdk.AddTool), addtool (go-sdk's
// mcp.AddTool) and noop (the same session route, arguments ignored). One
// operation of the last three is a whole ClientSession.CallTool over
// in-memory transports. cmd/ratio prints each route's server-side cost
// (its time less noop's) and the pair: (adapter − noop) ÷
// (addtool − noop). Before the timer starts, each route passes E2E.Check.

func BenchmarkE2ETypical(b *testing.B)    { benchE2E(b, "Typical") }
func BenchmarkE2EStrings200(b *testing.B) { benchE2E(b, "Strings200") }
func BenchmarkE2EInts10k(b *testing.B)    { benchE2E(b, "Ints10k") }

func benchE2E(b *testing.B, name string) {
	p := PayloadNamed(name)
	ctx := context.Background()
	for _, route := range E2ERoutes {
		b.Run("guard="+route, func(b *testing.B) {
			var call func() error
			if route == RouteBind {
				call = func() error { return json.Unmarshal(p.Args, p.New()) }
			} else {
				e, err := NewE2E(ctx, p, route)
				if err != nil {
					b.Fatal(err)
				}
				defer e.Close()
				if err := e.Check(ctx); err != nil {
					b.Fatal(err)
				}
				call = func() error { return e.Call(ctx) }
			}
			if err := call(); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(p.Args)))
			for b.Loop() {
				_ = call()
			}
		})
	}
}

// TestE2EVerdicts runs, without timing anything, the checks each end-to-end
// sub-benchmark makes before its timer starts.
func TestE2EVerdicts(t *testing.T) {
	ctx := context.Background()
	for _, name := range E2EPayloads {
		p := PayloadNamed(name)
		for _, route := range E2ERoutes[1:] {
			e, err := NewE2E(ctx, p, route)
			if err != nil {
				t.Fatal(err)
			}
			if err := e.Check(ctx); err != nil {
				t.Error(err)
			}
			e.Close()
		}
	}
}

// TestE2EProbes checks every end-to-end payload has its probes, and that
// they are what they claim.
func TestE2EProbes(t *testing.T) {
	for _, name := range E2EPayloads {
		p := PayloadNamed(name)
		pr, ok := e2eProbes[p.Type]
		if !ok {
			t.Errorf("%s: no probes for %v", name, p.Type)
			continue
		}
		if !json.Valid([]byte(pr.wrong)) || (pr.big != "" && (!json.Valid([]byte(pr.big)) || pr.int == nil)) {
			t.Errorf("%s: bad probes %+v", name, pr)
		}
		if pr.big != "" && pr.big == string(p.Args) {
			t.Errorf("%s: the 2^53+1 probe is the payload itself", name)
		}
	}
}
