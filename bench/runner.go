package bench

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// errInvalid is json.Valid's verdict on invalid text.
var errInvalid = errors.New("json.Valid: invalid JSON")

// Setup prepares rival for payload p on registry reg (whose binder is the
// one Refuse mirrors) and returns the call to measure, which returns nil
// when the rival accepts the arguments, and a cleanup to run once done.
func Setup(ctx context.Context, reg *typereg.Registry, p *Payload, rival string) (call func() error, cleanup func()) {
	cleanup = func() {}
	args := p.Args
	switch base(rival) {
	case RivalBind:
		b, ok := BinderOf(rival)
		if !ok {
			panic("bench: no binder for " + rival)
		}
		if b == bind.Std {
			call = func() error { return json.Unmarshal(args, p.New()) }
		} else {
			call = func() error { return b.Unmarshal(args, p.New()) }
		}
	case RivalSegmentio:
		call = func() error { return Segmentio(p) }
	case RivalValid:
		call = func() error {
			if !json.Valid(args) {
				return errInvalid
			}
			return nil
		}
	case RivalNaive:
		n := NewNaive(reg, p.Tool)
		call = func() error { return n.Check(args) }
	case RivalRefuse:
		tool := p.Tool
		call = func() error {
			if r := refuse.Refuse(reg, tool, args); r != nil {
				return r
			}
			return nil
		}
	case RivalSanthosh:
		s := NewSanthosh(reg, p.Tool)
		call = func() error { return s.Check(args) }
	case RivalMCPGo, RivalMCPGoPlain:
		m := NewMCPGo(reg, p, rival == RivalMCPGo)
		call = func() error { return m.Call(ctx) }
	case RivalGoSDK:
		g := NewGoSDK(p.Type)
		call = func() error { _, err := g.Check(args); return err }
	case RivalGoSDKSession, RivalGoSDKPlain:
		s := NewGoSDKSession(ctx, reg, p, rival == RivalGoSDKSession)
		call = func() error { return s.Call(ctx) }
		cleanup = s.Close
	default:
		panic("bench: no rival " + rival)
	}
	return call, cleanup
}

// CheckVerdict runs call once and reports an error unless it gives the
// verdict Expected says rival gives on p. A binder's own decode and Refuse
// with it must each give that binder's verdict: Refuse refuses exactly when
// that binder's Unmarshal fails (so a payload the binder itself refuses is
// one the guard refuses too), or, on a Policy payload, always. With
// bind.Std, and on a Policy payload with every binder, the refusal must
// also name the payload's expected problem code (every problem of it: a
// Policy payload's unknown keys are one problem each).
func CheckVerdict(p *Payload, rival string, call func() error) error {
	_, err := checkVerdict(p, rival, call)
	return err
}

// ReportVerdict reports v as the sub-benchmark's "refused" metric (1 when
// the rival refuses the call, 0 when it lets it through), so cmd/ratio
// tells the calls a binder reads from those it refuses. Call it after the
// timed loop: the timer's reset deletes reported metrics.
func ReportVerdict(b *testing.B, v Verdict) {
	refused := 0.0
	if v == Refuses {
		refused = 1
	}
	b.ReportMetric(refused, "refused")
}

// checkVerdict is CheckVerdict, returning the verdict the call gave.
func checkVerdict(p *Payload, rival string, call func() error) (Verdict, error) {
	want := Expected(p, rival)
	b, isBinder := BinderOf(rival)
	if isBinder && b != bind.Std {
		want = Accepts
		if b.Unmarshal(p.Args, p.New()) != nil || p.Policy && base(rival) == RivalRefuse {
			want = Refuses
		}
	}
	err := call()
	got := Accepts
	if err != nil {
		got = Refuses
	}
	if got != want {
		return got, fmt.Errorf("%s/%s: %v, want it to %v (error: %v)", p.Name, rival, got, want, err)
	}
	if isBinder && base(rival) == RivalRefuse && err != nil && (b == bind.Std || p.Policy) {
		var r *refuse.Refusal
		if !errors.As(err, &r) || len(r.Problems) == 0 || !p.Policy && len(r.Problems) != 1 {
			return got, fmt.Errorf("%s/%s: refusal %v, want problems of code %s", p.Name, rival, err, p.Refused)
		}
		for _, pr := range r.Problems {
			if string(pr.Code) != p.Refused {
				return got, fmt.Errorf("%s/%s: refusal %v, want only problems of code %s", p.Name, rival, err, p.Refused)
			}
		}
	}
	return got, nil
}

// base returns the rival a sub-benchmark name stands for: "refuse-NAME"
// (Refuse with another binder) is "refuse", "bind-NAME" is "bind".
func base(rival string) string {
	if b, ok := BinderOf(rival); ok {
		if rival == BindRival(b) {
			return RivalBind
		}
		return RivalRefuse
	}
	return rival
}
