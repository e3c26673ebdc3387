package refuse_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

type wrapTool struct {
	Count  int64            `json:"count,omitempty"`
	Limit  uint64           `json:"limit,omitempty"`
	Small  int32            `json:"small,omitempty"`
	IDs    []int            `json:"ids,omitempty"`
	Quoted int64            `json:"quoted,omitempty,string"`
	ByID   map[uint64]bool  `json:"by_id,omitempty"`
	Wait   time.Duration    `json:"wait,omitempty"`
	Sums   map[string]int64 `json:"sums,omitempty"`
}

// TestDecide_WrappedNumber: under segmentio.Binder, a whole number past a
// 64-bit integer that segmentio reads, without failing, as another number
// (its overflow check misses the wrap) is a silent loss, WrappedNumber,
// whose Becomes is the number the handler gets: a warning under the
// default policy, a refusal when Strict; encoding/json and V2 fail on it
// (TooLarge, or for a key InvalidKey), in every policy but Off. It failed
// before: segmentio's calls went to the handler with no word.
func TestDecide_WrappedNumber(t *testing.T) {
	rows := []struct {
		args, path, becomes string
	}{
		{`{"count":21000000000000000000}`, "", "2553255926290448384"},
		{`{"limit":21000000000000000000}`, "", "2553255926290448384"},
		{`{"limit":18446744073709551615999}`, "", "18446744073709551615"},
		{`{"count":8198552921648689607` + strings.Repeat("1", 100000) + `}`, "", "8198552921648689607"},
		{`{"ids":[1,21000000000000000000]}`, "[1]", "2553255926290448384"},
		{`{"quoted":"0021000000000000000000"}`, "", "2553255926290448384"},
		{`{"by_id":{"21000000000000000000":true}}`, ".21000000000000000000", "2553255926290448384"},
		{`{"wait":21000000000000000000}`, "", "2553255926290448384"},
		{`{"sums":{"a":21000000000000000000}}`, ".a", "2553255926290448384"},
		{`{"c\u006funt":21000000000000000000}`, "", "2553255926290448384"}, // the trial check
	}
	seg := typereg.New(typereg.WithBinder(segmentio.Binder))
	strict := typereg.New(typereg.WithBinder(segmentio.Binder))
	std := typereg.New()
	v2 := typereg.New(typereg.WithBinder(jsonv2.Binder))
	for _, reg := range []*typereg.Registry{seg, std, v2} {
		if err := typereg.Register[wrapTool](reg, "t"); err != nil {
			t.Fatal(err)
		}
	}
	if err := typereg.Register[wrapTool](strict, "t", typereg.WithStrict(true)); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		args := json.RawMessage(r.args)
		d := refuse.Decide(seg, "t", args)
		if d.Refusal != nil || d.Warnings == nil || len(d.Warnings.Problems) != 1 {
			t.Errorf("segmentio %s: refusal %v, warnings %v, want one warning", r.args, d.Refusal, d.Warnings)
			continue
		}
		p := d.Warnings.Problems[0]
		if p.Code != refuse.WrappedNumber || p.Becomes != r.becomes || p.Path != r.path {
			t.Errorf("segmentio %s: %+v, want wrapped_number at %q, becomes %s", r.args, p, r.path, r.becomes)
		}
		if !strings.Contains(d.Warnings.String(), "which the tool reads as "+r.becomes) {
			t.Errorf("segmentio %s: %s", r.args, d.Warnings)
		}
		d = refuse.Decide(strict, "t", args)
		if d.Refusal == nil || len(d.Refusal.Problems) != 1 || d.Refusal.Problems[0].Code != refuse.WrappedNumber {
			t.Errorf("segmentio, Strict %s: %v, want refused as wrapped_number", r.args, d.Refusal)
		}
		for name, reg := range map[string]*typereg.Registry{"std": std, "v2": v2} {
			if name == "v2" && strings.Contains(r.args, "wait") {
				continue // V2 reads no number into a Duration
			}
			d := refuse.Decide(reg, "t", args)
			if d.Refusal == nil || len(d.Refusal.Problems) != 1 || d.Refusal.Problems[0].Code.Class() != bind.BinderFailure {
				t.Errorf("%s %s: %v, want refused by the binder", name, r.args, d.Refusal)
			}
		}
	}
	// Read exactly, or failed on: no WrappedNumber.
	for _, args := range []string{`{"limit":18446744073709551615}`, `{"count":9223372036854775807}`, `{"small":21000000000000000000}`, `{"count":99999999999999999999}`} {
		d := refuse.Decide(seg, "t", json.RawMessage(args))
		for _, w := range []*refuse.Warnings{d.Warnings} {
			if w != nil {
				t.Errorf("segmentio %s: warned %v", args, w)
			}
		}
		if d.Refusal != nil && d.Refusal.Problems[0].Code == refuse.WrappedNumber {
			t.Errorf("segmentio %s: %v", args, d.Refusal)
		}
	}
}

// TestDecide_NullIntegerKey: the key "null" of a map of integer keys,
// which segmentio (and encoding/json under GOEXPERIMENT=jsonv2) reads as
// the key 0, is a silent loss, NullForValue at the key, whose Becomes is
// the 0 the handler gets: a warning by default, a refusal when Strict;
// where the binder fails on it, a refusal. It failed before: the call
// went to the handler with no word.
func TestDecide_NullIntegerKey(t *testing.T) {
	seg := typereg.New(typereg.WithBinder(segmentio.Binder))
	strict := typereg.New(typereg.WithBinder(segmentio.Binder))
	std := typereg.New()
	for _, reg := range []*typereg.Registry{seg, std} {
		if err := typereg.Register[wrapTool](reg, "t"); err != nil {
			t.Fatal(err)
		}
	}
	if err := typereg.Register[wrapTool](strict, "t", typereg.WithStrict(true)); err != nil {
		t.Fatal(err)
	}
	for _, r := range []struct{ args, pointer string }{
		{`{"by_id":{"null":true}}`, "/by_id/null"},
		{`{"by_id":{"nu\u006cl ":true,"1":false}}`, "/by_id/null "},
	} {
		args := r.args
		for name, reg := range map[string]*typereg.Registry{"segmentio": seg, "std": std} {
			d := refuse.Decide(reg, "t", json.RawMessage(args))
			if name == "std" && json.Unmarshal([]byte(args), new(wrapTool)) != nil {
				if d.Refusal == nil || d.Refusal.Problems[0].Code.Class() != bind.BinderFailure {
					t.Errorf("std %s: %v, want refused by the binder", args, d.Refusal)
				}
				continue
			}
			if d.Refusal != nil || d.Warnings == nil || len(d.Warnings.Problems) != 1 {
				t.Errorf("%s %s: refusal %v, warnings %v, want one warning", name, args, d.Refusal, d.Warnings)
				continue
			}
			p := d.Warnings.Problems[0]
			if p.Code != refuse.NullForValue || p.Becomes != "0" || p.Pointer != r.pointer {
				t.Errorf("%s %s: %+v, want null_for_value at the key, becomes 0", name, args, p)
			}
			if !strings.Contains(d.Warnings.String(), "which the tool reads as 0") {
				t.Errorf("%s %s: %s", name, args, d.Warnings)
			}
		}
		if d := refuse.Decide(strict, "t", json.RawMessage(args)); d.Refusal == nil || d.Refusal.Problems[0].Code != refuse.NullForValue {
			t.Errorf("segmentio, Strict %s: %v, want refused as null_for_value", args, d.Refusal)
		}
	}
}
