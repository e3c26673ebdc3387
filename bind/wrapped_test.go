package bind_test

import (
	"fmt"
	"math/big"
	"math/rand"
	"reflect"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// wrapArgs holds every Go integer kind segmentio reads with its parseInt
// or parseUint: fields, list elements, map values, ,string fields and map
// keys, and time.Duration (read from a number with parseInt).
type wrapArgs struct {
	I   int                `json:"i"`
	I8  int8               `json:"i8"`
	I16 int16              `json:"i16"`
	I32 int32              `json:"i32"`
	I64 int64              `json:"i64"`
	U   uint               `json:"u"`
	U8  uint8              `json:"u8"`
	U16 uint16             `json:"u16"`
	U32 uint32             `json:"u32"`
	U64 uint64             `json:"u64"`
	UP  uintptr            `json:"up"`
	PI  *int               `json:"pi"`
	SI  []int64            `json:"si"`
	SU  []uint32           `json:"su"`
	MI  map[string]int8    `json:"mi"`
	QI  int                `json:"qi,string"`
	QU  uint64             `json:"qu,string"`
	KI  map[int16]bool     `json:"ki"`
	KU  map[uint64]bool    `json:"ku"`
	D   time.Duration      `json:"d"`
	QD  time.Duration      `json:"qd,string"`
	N   struct{ V uint16 } `json:"n"`
}

// wrapKinds are wrapArgs' integer positions: the argument, how a number
// is sent to it, and its size.
var wrapKinds = []struct {
	arg    string
	bits   int
	signed bool
	sent   func(num string) string
}{
	{"i", 64, true, nil}, {"i8", 8, true, nil}, {"i16", 16, true, nil}, {"i32", 32, true, nil}, {"i64", 64, true, nil},
	{"u", 64, false, nil}, {"u8", 8, false, nil}, {"u16", 16, false, nil}, {"u32", 32, false, nil}, {"u64", 64, false, nil},
	{"up", 64, false, nil}, {"pi", 64, true, nil},
	{"si", 64, true, func(n string) string { return "[1," + n + "]" }},
	{"su", 32, false, func(n string) string { return "[" + n + "]" }},
	{"mi", 8, true, func(n string) string { return `{"a":` + n + `}` }},
	{"qi", 64, true, func(n string) string { return `"` + n + `"` }},
	{"qu", 64, false, func(n string) string { return `"` + n + `"` }},
	{"ki", 16, true, func(n string) string { return `{"` + n + `":true}` }},
	{"ku", 64, false, func(n string) string { return `{"` + n + `":true}` }},
	{"d", 64, true, nil},
	{"qd", 64, true, func(n string) string { return `"` + n + `"` }},
	{"n", 16, false, func(n string) string { return `{"V":` + n + `}` }},
}

// segWraps says, by the arithmetic of segmentio v0.5.4's parseInt and
// parseUint (decode.go, parse.go), whether it reads the whole number text
// (no sign) for an integer of the size as another number without failing,
// and which.
func segWraps(text string, bits int, signed bool) (uint64, bool) {
	n, ok := new(big.Int).SetString(text, 10)
	if !ok || n.Sign() < 0 {
		return 0, false
	}
	var v uint64
	for _, ch := range []byte(text) {
		next := v*10 + uint64(ch-'0')
		if signed && int64(next) < int64(v) || !signed && next < v {
			return 0, false // caught: TooLarge
		}
		v = next
	}
	limit := uint64(1)<<bits - 1
	if signed {
		limit = uint64(1)<<(bits-1) - 1
	}
	if bits == 64 && !signed {
		limit = ^uint64(0)
	}
	if v > limit || new(big.Int).SetUint64(v).Cmp(n) == 0 {
		return 0, false
	}
	return v, true
}

// wrapNumbers are numbers past every integer size that segmentio reads as
// another number for a 64-bit one, signed or not, and, as controls, ones
// whose wrap it catches: random walks of its parse that take, digit by
// digit, one its overflow check lets through, to 20 digits or more.
func wrapNumbers(r *rand.Rand, count int) []string {
	out := []string{"21000000000000000000", "20000000000000000000", "99999999999999999999", "18446744073709551616",
		"18446744073709551615", "36893488147419103232", "9223372036854775808", "100000000000000000000"}
	for i := range count {
		signed := i%2 == 0
		text := []byte(strconv.FormatUint(1+r.Uint64()%(1<<62), 10))
		v, _ := strconv.ParseUint(string(text), 10, 64)
		for len(text) < 20+r.Intn(8) {
			var next []byte
			for x := byte('0'); x <= '9'; x++ {
				n := v*10 + uint64(x-'0')
				if signed && int64(n) >= int64(v) || !signed && n >= v {
					next = append(next, x)
				}
			}
			if len(next) == 0 {
				break // the walk is caught whatever the digit: a control
			}
			x := next[r.Intn(len(next))]
			text, v = append(text, x), v*10+uint64(x-'0')
		}
		out = append(out, string(text))
	}
	return out
}

// TestSegmentIO_WrappedNumbers: every number segmentio reads without
// failing as another number, at every integer position, is WrappedNumber
// (a silent loss), in the pass and in the trial check alike, with the
// binder's own value to prove it; encoding/json and V2 fail on it
// (TooLarge).
func TestSegmentIO_WrappedNumbers(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	plans := map[string]*bind.Plan{}
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		p, err := b.Compile(reflect.TypeFor[wrapArgs]())
		if err != nil {
			t.Fatal(err)
		}
		plans[b.Name()] = p
	}
	seen := map[string]bool{}
	for _, num := range wrapNumbers(r, 60) {
		for _, k := range wrapKinds {
			sent := num
			if k.sent != nil {
				sent = k.sent(num)
			}
			v, wraps := segWraps(num, k.bits, k.signed)
			for _, esc := range []bool{false, true} {
				key := k.arg
				if esc {
					key = `\u00` + strconv.FormatInt(int64(k.arg[0]), 16) + k.arg[1:] // declines the pass
				}
				args := []byte(`{"` + key + `":` + sent + `}`)
				seg := plans["segmentio"]
				checkProven(t, seg, args)
				var got wrapArgs
				err := segmentio.Binder.Unmarshal(args, &got)
				exact := fitsExactly(num, k.bits, k.signed)
				if err == nil != (wraps || exact) {
					t.Fatalf("%s: segmentio: %v, but segWraps says %v", args, err, wraps)
				}
				for _, issues := range [][]bind.Issue{seg.Check(args, nil), bind.TrialCheck(seg, args, nil)} {
					if wraps {
						seen[k.arg] = true
						if kinds := kindsOf(issues); !slices.Equal(kinds, []bind.Code{bind.WrappedNumber}) {
							t.Errorf("segmentio %s: %v, want [wrapped_number] (it reads %d)", args, kinds, v)
						}
					} else if exact {
						if len(issues) != 0 {
							t.Errorf("segmentio %s: %v, want none", args, kindsOf(issues))
						}
					} else if !oneFailure(issues) {
						t.Errorf("segmentio %s: %v, want one failure", args, kindsOf(issues))
					}
				}
				if wraps {
					if got := fmt.Sprint(wrapRead(t, &got, k.arg)); got != strconv.FormatUint(v, 10) {
						t.Errorf("segmentio %s reads %s, segWraps says %d", args, got, v)
					}
				}
				for _, name := range []string{bind.Std.Name(), jsonv2.Binder.Name()} {
					if name == jsonv2.Binder.Name() && (k.arg == "d" || k.arg == "qd") {
						continue // V2 reads no number into a Duration
					}
					if issues := plans[name].Check(args, nil); !exact && !oneFailure(issues) || exact && len(issues) != 0 {
						t.Errorf("%s %s: %v, want one failure", name, args, kindsOf(issues))
					}
				}
			}
		}
	}
	// A wrapped value is at least 2^64/10 (the values parsed never
	// decrease, and a wrap needs one that large): only the 64-bit kinds
	// ever read one.
	for _, k := range wrapKinds {
		if seen[k.arg] != (k.bits == 64) {
			t.Errorf("%s (%d bits): wrapped %v", k.arg, k.bits, seen[k.arg])
		}
	}
}

// fitsExactly reports whether the whole number text fits the integer
// size, as strconv reads it.
func fitsExactly(text string, bits int, signed bool) bool {
	var err error
	if signed {
		_, err = strconv.ParseInt(text, 10, bits)
	} else {
		_, err = strconv.ParseUint(text, 10, bits)
	}
	return err == nil
}

// oneFailure reports whether issues is one failure of the binder
// (TooLarge for a value, InvalidKey or InvalidValue for a key).
func oneFailure(issues []bind.Issue) bool {
	return len(issues) == 1 && issues[0].Kind.Class() == bind.BinderFailure
}

// wrapRead is the value segmentio left at argument arg.
func wrapRead(t *testing.T, a *wrapArgs, arg string) any {
	switch arg {
	case "i":
		return a.I
	case "i8":
		return a.I8
	case "i16":
		return a.I16
	case "i32":
		return a.I32
	case "i64":
		return a.I64
	case "u":
		return a.U
	case "u8":
		return a.U8
	case "u16":
		return a.U16
	case "u32":
		return a.U32
	case "u64":
		return a.U64
	case "up":
		return a.UP
	case "pi":
		return *a.PI
	case "si":
		return a.SI[1]
	case "su":
		return a.SU[0]
	case "mi":
		return a.MI["a"]
	case "qi":
		return a.QI
	case "qu":
		return a.QU
	case "ki":
		for k := range a.KI {
			return k
		}
	case "ku":
		for k := range a.KU {
			return k
		}
	case "d":
		return int64(a.D)
	case "qd":
		return int64(a.QD)
	case "n":
		return a.N.V
	}
	t.Fatalf("no argument %s", arg)
	return nil
}

// FuzzSegmentIO_WrappedIffChanged holds the promise against segmentio's
// own decode: for a whole number sent to any integer position, the guard
// reports WrappedNumber exactly when segmentio reads, without failing, a
// value other than the number (strconv's reading of the text), nothing
// when it reads the number, and a failure when it fails; the pass and the
// trial check alike (checkProven).
func FuzzSegmentIO_WrappedIffChanged(f *testing.F) {
	for _, n := range wrapNumbers(rand.New(rand.NewSource(1)), 8) {
		f.Add(n, uint8(0), false)
		f.Add(n, uint8(5), true)
	}
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[wrapArgs]())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, num string, kind uint8, esc bool) {
		if len(num) == 0 || len(num) > 64 || num[0] < '1' || num[0] > '9' {
			return
		}
		for _, ch := range []byte(num) {
			if ch < '0' || ch > '9' {
				return
			}
		}
		k := wrapKinds[int(kind)%len(wrapKinds)]
		sent := num
		if k.sent != nil {
			sent = k.sent(num)
		}
		key := k.arg
		if esc {
			key = `\u00` + strconv.FormatInt(int64(k.arg[0]), 16) + k.arg[1:]
		}
		args := []byte(`{"` + key + `":` + sent + `}`)
		checkProven(t, plan, args)
		issues := plan.Check(args, nil)
		var got wrapArgs
		if err := segmentio.Binder.Unmarshal(args, &got); err != nil {
			if !oneFailure(issues) {
				t.Fatalf("%s: segmentio fails (%v), the guard says %v", args, err, kindsOf(issues))
			}
			return
		}
		read := fmt.Sprint(wrapRead(t, &got, k.arg))
		switch {
		case fitsExactly(num, k.bits, k.signed) && read == num:
			if len(issues) != 0 {
				t.Fatalf("%s: segmentio reads it exactly, the guard says %v", args, kindsOf(issues))
			}
		case read != num:
			if !slices.Equal(kindsOf(issues), []bind.Code{bind.WrappedNumber}) {
				t.Fatalf("%s: segmentio reads %s, the guard says %v", args, read, kindsOf(issues))
			}
		default:
			t.Fatalf("%s: segmentio reads %s, past the type", args, read)
		}
	})
}
