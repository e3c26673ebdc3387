package refuse_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// hostile is a call built to hurt: huge, deep, or full of bytes that should
// never reach a terminal raw.
type hostile struct {
	name string
	args func() string
	// refused is what encoding/json says: the binder fails on the call (or,
	// for unknown keys, drops part of it).
	refused bool
	// bytesPerInputByte bounds what Refuse may allocate, per byte of input:
	// 0 means its allocations must not grow with the input at all.
	bytesPerInputByte float64
	// unknownKeys: the call holds keys the binder drops, which the guard
	// refuses though the binder reads the call.
	unknownKeys bool
}

func digits(n int) string { return "1" + strings.Repeat("0", n-1) }

func nest(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

var hostileCalls = []hostile{
	{name: "1,000,000-digit number for int8", args: func() string { return `{"int8":` + digits(1e6) + `}` }, refused: true},
	{name: "1,000,000-digit number for int64", args: func() string { return `{"int64":-` + digits(1e6) + `}` }, refused: true},
	{name: "1,000,000-digit number for uint64", args: func() string { return `{"uint64":` + digits(1e6) + `}` }, refused: true},
	{name: "1,000,000-digit number for float64", args: func() string { return `{"float64":` + digits(1e6) + `}` }, refused: true},
	{name: "1,000,000-digit number for any", args: func() string { return `{"any":` + digits(1e6) + `}` }, refused: true},
	{name: "1,000,000-digit number for json.Number", args: func() string { return `{"number":` + digits(1e6) + `}` }, refused: false},
	{name: "1,000,000-digit string for int", args: func() string { return `{"int":"` + digits(1e6) + `"}` }, refused: true},
	{name: "1,000,000-digit string for IntString", args: func() string { return `{"int_string":"` + digits(1e6) + `"}` }, refused: true},
	{name: "1,000,000 leading zeros before 5 for IntString", args: func() string { return `{"int_string":"` + strings.Repeat("0", 1e6) + `5"}` }, refused: false},
	{name: "1e999999999 for float64", args: func() string { return `{"float64":1e999999999}` }, refused: true},
	{name: "1e999999999 for int", args: func() string { return `{"int":1e999999999}` }, refused: true},
	{name: "-0 for uint", args: func() string { return `{"uint":-0}` }, refused: true},
	{name: "-0 for int", args: func() string { return `{"int":-0}` }, refused: false},
	{name: "10 MB string for string", args: func() string { return `{"string":"` + strings.Repeat("a", 10<<20) + `"}` }, refused: false},
	{name: "10 MB string for []byte", args: func() string { return `{"bytes":"` + strings.Repeat("QUJD", 10<<18) + `"}` }, refused: false},
	{name: "10 MB bad base64 for []byte", args: func() string { return `{"bytes":"` + strings.Repeat("QUJD", 10<<18) + `!"}` }, refused: true},
	// A type that decodes itself sees the value whole, as in the binder:
	// the guard's cost is the binder's (a copy), not more.
	{name: "10 MB string for Color", args: func() string { return `{"color":"` + strings.Repeat("a", 10<<20) + `"}` }, refused: true, bytesPerInputByte: 3},
	{name: "1,000,000-element list for []int", args: func() string {
		return `{"ints":[` + strings.TrimSuffix(strings.Repeat("7,", 1e6), ",") + `]}`
	}, refused: false},
	{name: "1,000,000-element list for []int, last one bad", args: func() string {
		return `{"ints":[` + strings.Repeat("7,", 1e6) + `0.5]}`
	}, refused: true},
	{name: "100,000 unknown keys", args: func() string {
		var b strings.Builder
		b.WriteString(`{"int":1`)
		for i := 0; i < 100000; i++ {
			b.WriteString(`,"k` + strings.Repeat("z", i%5) + itoa(i) + `":0`)
		}
		return b.String() + "}"
		// The keys past bind.MaxIssues are counted exactly, each once: a
		// Bloom filter of about a byte a key (0.1 a byte of input).
	}, refused: true, bytesPerInputByte: 0.6, unknownKeys: true},
	{name: "1,000,000 levels of nesting", args: func() string { return `{"any":` + nest(1e6) + `}` }, refused: true},
	{name: "9,999 levels of nesting (the binder's limit)", args: func() string { return `{"any":` + nest(9999) + `}` }, refused: false},
	{name: "10,000 levels of nesting (one past it)", args: func() string { return `{"any":` + nest(10000) + `}` }, refused: true},
	{name: "1,000,000 levels of nesting, unclosed", args: func() string { return `{"raw":` + strings.Repeat(`{"a":`, 1e6) }, refused: true},
}

func init() {
	// A 1,000,000-digit number, as a JSON number and as a JSON string, for
	// every integer kind, both signs.
	for _, kind := range []string{"int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64"} {
		for _, sign := range []string{"", "-"} {
			hostileCalls = append(hostileCalls,
				hostile{name: "1,000,000-digit number " + sign + "for " + kind, args: func() string { return `{"` + kind + `":` + sign + digits(1e6) + `}` }, refused: true},
				hostile{name: "1,000,000-digit string " + sign + "for " + kind, args: func() string { return `{"` + kind + `":"` + sign + digits(1e6) + `"}` }, refused: true},
			)
		}
	}
}

func TestRefuse_HostileInput(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	reg := typereg.New()
	if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
		t.Fatal(err)
	}
	for _, h := range hostileCalls {
		t.Run(h.name, func(t *testing.T) {
			args := json.RawMessage(h.args())
			var v probe.Args
			dec := json.NewDecoder(strings.NewReader(string(args)))
			dec.DisallowUnknownFields()
			binderFails := dec.Decode(&v) != nil
			if binderFails != h.refused {
				t.Fatalf("the table says refused=%v, but encoding/json (unknown fields disallowed) fails=%v", h.refused, binderFails)
			}
			r := refuse.Refuse(reg, probe.Tool, args)
			if (r != nil) != h.refused {
				t.Fatalf("Refuse = %v, want refused=%v", r, h.refused)
			}
			if r != nil {
				text := r.Error()
				if len(text) > 6000 {
					t.Errorf("refusal text is %d bytes", len(text))
				}
				for _, p := range r.Problems {
					if n := len([]rune(p.Sent)); n > 80 {
						t.Errorf("Sent is %d characters: %.100q", n, p.Sent)
					}
				}
			}
			allowed := h.bytesPerInputByte * float64(len(args))
			if got := allocatedBytes(func() { refuse.Refuse(reg, probe.Tool, args) }); float64(got) > allowed+64<<10 {
				t.Errorf("Refuse allocated %d bytes for %d bytes of input (allowed %.0f + 64 KiB)", got, len(args), allowed)
			}
		})
	}
}

// TestRefuse_HostileInput_TrialBinders runs the hostile calls against the
// binders mirrored by trial (V2, SegmentIO): the verdict is the binder's,
// and what Refuse allocates grows at most linearly with the input (32
// bytes a byte, or three times what the binder allocates on the call when
// that is more, plus 1 MiB). It decodes the call with the binder, and a
// refused call again argument by argument, each copied into a one-field
// object: measured, up to 17 bytes a byte (100,000 unknown keys under
// segmentio), where Std's native reading allocates nothing that grows.
func TestRefuse_HostileInput_TrialBinders(t *testing.T) {
	if testing.Short() {
		t.Skip("large inputs")
	}
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
			t.Fatal(err)
		}
		for _, h := range hostileCalls {
			t.Run(b.Name()+"/"+h.name, func(t *testing.T) {
				args := json.RawMessage(h.args())
				want := h.unknownKeys || b.Unmarshal(args, new(probe.Args)) != nil
				r := refuse.Refuse(reg, probe.Tool, args)
				if (r != nil) != want {
					t.Fatalf("Refuse = %.300v, want refused=%v", r, want)
				}
				if r != nil {
					if text := r.Error(); len(text) > 6000 {
						t.Errorf("refusal text is %d bytes", len(text))
					}
				}
				binder := allocatedBytes(func() { _ = b.Unmarshal(args, new(probe.Args)) })
				if got := allocatedBytes(func() { refuse.Refuse(reg, probe.Tool, args) }); got > max(32*uint64(len(args)), 3*binder)+1<<20 {
					t.Errorf("Refuse allocated %d bytes for %d bytes of input; the binder alone, %d", got, len(args), binder)
				}
			})
		}
	}
}

// allocatedBytes reports the bytes f allocates (one run, after a warm-up).
func allocatedBytes(f func()) uint64 {
	f()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestRefuse_EscapesWhatItQuotes: invalid UTF-8, lone surrogates, NUL, a BOM,
// control characters and terminal escapes, in values and in keys, are
// quoted escaped, never raw.
func TestRefuse_EscapesWhatItQuotes(t *testing.T) {
	reg := newRegistry(t)
	for _, args := range []string{
		"{\"hours_back\":\"\xff\xfe\"}",
		`{"hours_back":"\ud800"}`,
		`{"hours_back":"nul\u0000"}`,
		"{\"hours_back\":\"\ufeffbom\"}",
		"{\"hours_back\":\"\u202eevil\"}",
		`{"hours_back":"\u001b[31mred\u001b[0m"}`,
		"{\"k\xff\":1}",
		"{\"\u001b]0;title\u0007\":1}",
		"{\"\ufeffhours_back\":1}",
		"\ufeff{\"hours_back\":1}",
		"{\"hours_back\":1}\x00",
		"{\"hours_back\":\"a\x1bb\"}", // a raw control character: invalid JSON
	} {
		r := refuse.Refuse(reg, "get_wait_stats", json.RawMessage(args))
		if r == nil {
			t.Errorf("%q: not refused", args)
			continue
		}
		text := r.Error()
		for _, c := range text {
			if c == '\n' {
				continue
			}
			if c < 0x20 || c == 0x7f || c == 0xfffd || c == 0xfeff || c == 0x202e || 0x80 <= c && c < 0xa0 {
				t.Errorf("%q: the refusal holds %U raw: %q", args, c, text)
			}
		}
		if strings.ContainsRune(text, '\xff') {
			t.Errorf("%q: raw invalid UTF-8 in %q", args, text)
		}
	}
}

// Boom's decoding methods panic.
type Boom string

func (*Boom) UnmarshalJSON([]byte) error { panic("boom") }

type Bang int

func (*Bang) UnmarshalText([]byte) error { panic(errors.New("bang")) }

type panicky struct {
	Boom Boom `json:"boom"`
	Bang Bang `json:"bang"`
	N    int  `json:"n"`
}

// TestRefuse_PanickingDecoderIsRefused: a type's own decoder that panics
// never crashes the server. The binder would panic on the same value, so
// the call is refused (invalid_value), naming the argument.
func TestRefuse_PanickingDecoderIsRefused(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[panicky](reg, "p"); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Error("the binder was expected to panic on this value: the test's premise is wrong")
			}
		}()
		var v panicky
		_ = json.Unmarshal([]byte(`{"boom":1}`), &v)
	}()
	r := refuse.Refuse(reg, "p", json.RawMessage(`{"boom":1,"bang":"x","n":0.5}`))
	if r == nil {
		t.Fatal("not refused")
	}
	var got []string
	for _, p := range r.Problems {
		got = append(got, p.Argument+":"+string(p.Code))
	}
	want := []string{"boom:invalid_value", "bang:invalid_value", "n:not_whole_number"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("problems = %v, want %v", got, want)
	}
	// null is the pointer's business for *Boom, but Boom reads null itself.
	if r := refuse.Refuse(reg, "p", json.RawMessage(`{"boom":null}`)); r == nil {
		t.Error("null for Boom: the binder calls UnmarshalJSON (which panics), so the guard must refuse")
	}
}

// TestRefuse_NeverQuotesAnotherArgument sends a secret beside each kind of
// bad value: no refusal may contain it.
func TestRefuse_NeverQuotesAnotherArgument(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		t.Run(b.Name(), func(t *testing.T) { neverQuotesAnotherArgument(t, b) })
	}
}

// neverQuotesAnotherArgument holds for every binder, segmentio included,
// whose own errors quote up to 32 bytes past the offending value.
func neverQuotesAnotherArgument(t *testing.T, b bind.Binder) {
	reg := typereg.New(typereg.WithBinder(b))
	if err := typereg.Register[probe.Args](reg, probe.Tool); err != nil {
		t.Fatal(err)
	}
	const secret = "hunter2-SECRET-TOKEN"
	for _, bad := range []string{
		`"int":"x"`, `"ints":[1,"x"]`, `"nested":{"a":"x"}`, `"names":{"x":"y"}`, `"color":"red"`, `"flex":"x"`,
		`"time":"x"`, `"bytes":"!"`, `"unknown":1`, `"int_string":5`, `"pair":[1,2.5]`, `"any":[1e400]`,
	} {
		for _, args := range []string{
			`{"string":"` + secret + `",` + bad + `}`,
			`{` + bad + `,"string":"` + secret + `"}`,
			`{` + bad + `,"strings":["` + secret + `"]}`,
		} {
			r := refuse.Refuse(reg, probe.Tool, json.RawMessage(args))
			if r == nil {
				t.Errorf("%s: not refused", args)
				continue
			}
			b, _ := json.Marshal(r)
			if strings.Contains(r.Error(), "hunter2") || strings.Contains(string(b), "hunter2") {
				t.Errorf("%s: the refusal quotes another argument: %s", args, r.Error())
			}
		}
	}
}

// TestRefuse_PanickingDecoderIsRefused_TrialBinders: under the binders
// mirrored by trial, a panicking decoder is recovered too, and the call
// refused.
func TestRefuse_PanickingDecoderIsRefused_TrialBinders(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		reg := typereg.New(typereg.WithBinder(b))
		if err := typereg.Register[panicky](reg, "p"); err != nil {
			t.Fatal(err)
		}
		for _, args := range []string{`{"boom":1}`, `{"bang":"x"}`, `{"boom":1,"n":2}`} {
			if r := refuse.Refuse(reg, "p", json.RawMessage(args)); r == nil {
				t.Errorf("%s %s: not refused", b.Name(), args)
			}
		}
	}
}

// TestDecide_HostileAliases: a tool with aliases reads every top-level key
// of a call that uses one; 100,000 keys (escaped, or not, or all aliases)
// cost time and memory in proportion to the input (the renamed copy, and
// each escaped key's text, read twice: about 3 bytes a byte; 8 allowed, for
// the race detector's own), plus the issues Check lists, which MaxIssues
// bounds whatever the input (a flood of one class, grown by append, in the
// check of the call and of its renamed copy), and the verdict stays
// bounded. -short: 30,000
// keys.
func TestDecide_HostileAliases(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[statsArgs](reg, "stats"); err != nil {
		t.Fatal(err)
	}
	n := 100000
	if testing.Short() {
		n = 30000
	}
	for _, keys := range []string{"unknown", "escaped", "aliases"} {
		var b strings.Builder
		b.WriteString(`{"hrs":1`)
		for i := range n {
			key := "k" + itoa(i) + "a"
			switch keys {
			case "escaped":
				key = "k" + itoa(i) + `\u0061`
			case "aliases":
				key = []string{"hrs", "hours_back"}[i%2]
			}
			b.WriteString(`,"` + key + `":1`)
		}
		b.WriteString("}")
		args := json.RawMessage(b.String())
		d := refuse.Decide(reg, "stats", args)
		if d.Refusal == nil || len(d.Refusal.Problems) == 0 || len(d.Refusal.Problems)+d.Refusal.More > n+1 {
			t.Fatalf("%s: Decide = %+v, want a bounded refusal", keys, d.Refusal)
		}
		escaped := keys
		listed := 2 * 2 * bind.MaxIssues * uint64(unsafe.Sizeof(bind.Issue{}))
		if got := allocatedBytes(func() { refuse.Decide(reg, "stats", args) }); got > 8*uint64(len(args))+listed {
			t.Errorf("%s: Decide allocated %d bytes for %d bytes of input (allowed 8 a byte, and %d for the issues listed)", escaped, got, len(args), listed)
		}
	}
}
