package bench

import (
	"context"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/typereg"
)

// Each BenchmarkPAYLOAD runs every rival on one payload as a sub-benchmark
// named guard=RIVAL (BenchmarkTypical/guard=bind,
// BenchmarkTypical/guard=refuse, ...), so one `go test -bench` run measures
// them side by side, `benchstat -col /guard` compares each with bind (the
// first column), and cmd/ratio divides each by its payload's bind. Before the timer starts, each sub-benchmark
// checks that its rival gives the expected verdict on the payload, so a
// broken rival cannot look fast.

func BenchmarkTypical(b *testing.B)          { benchPayload(b, "Typical") }
func BenchmarkStrings200(b *testing.B)       { benchPayload(b, "Strings200") }
func BenchmarkText1MB(b *testing.B)          { benchPayload(b, "Text1MB") }
func BenchmarkNumber100kDigits(b *testing.B) { benchPayload(b, "Number100kDigits") }
func BenchmarkNumber1MDigits(b *testing.B)   { benchPayload(b, "Number1MDigits") }
func BenchmarkInts10k(b *testing.B)          { benchPayload(b, "Ints10k") }
func BenchmarkInts100k(b *testing.B)         { benchPayload(b, "Ints100k") }
func BenchmarkNest999(b *testing.B)          { benchPayload(b, "Nest999") }
func BenchmarkNest9999(b *testing.B)         { benchPayload(b, "Nest9999") }
func BenchmarkNestObjects999(b *testing.B)   { benchPayload(b, "NestObjects999") }
func BenchmarkKeys10k(b *testing.B)          { benchPayload(b, "Keys10k") }
func BenchmarkUnknownKeys10k(b *testing.B)   { benchPayload(b, "UnknownKeys10k") }

// subBenchmarks lists the sub-benchmark names: the rivals, then a
// bind-NAME and a refuse-NAME per binder other than bind.Std.
func subBenchmarks() []string {
	names := append([]string(nil), Rivals...)
	for _, bd := range Binders {
		if bd != bind.Std {
			names = append(names, BindRival(bd), RefuseRival(bd))
		}
	}
	return names
}

// registryFor returns the registry sub-benchmark rival runs with: its
// binder's, or bind.Std's.
func registryFor(rival string) *typereg.Registry {
	if b, ok := BinderOf(rival); ok {
		return RegistryFor(b)
	}
	return Registry()
}

func benchPayload(b *testing.B, name string) {
	p := PayloadNamed(name)
	ctx := context.Background()
	for _, rival := range subBenchmarks() {
		b.Run("guard="+rival, func(b *testing.B) {
			if why, ok := Unmeasured[[2]string{p.Name, rival}]; ok {
				b.Skip("not measured: " + why)
			}
			call, cleanup := Setup(ctx, registryFor(rival), p, rival)
			defer cleanup()
			v, err := checkVerdict(p, rival, call)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(p.Args)))
			for b.Loop() {
				_ = call()
			}
			ReportVerdict(b, v)
		})
	}
}
