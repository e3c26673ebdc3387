package bind_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
)

type fuzzInner struct {
	X      int    `json:"x"`
	Colour string `json:"colour"`
}

// fuzzLossArgs is the struct FuzzCheck_NoLossRoundTrips decodes into: its
// keys are lossArgs's, so the loss table's rows seed it.
type fuzzLossArgs struct {
	N     int            `json:"n"`
	F     float64        `json:"f"`
	S     string         `json:"s"`
	Pair  [2]int         `json:"pair"`
	Inner fuzzInner      `json:"inner"`
	Meta  map[string]any `json:"meta"`
	Any   any            `json:"any"`
	Ptr   *int           `json:"ptr"`
	Fs    []float64      `json:"fs"`
	Tags  []string       `json:"tags"`
}

// FuzzCheck_NoLossRoundTrips: when Check finds nothing the binder fails
// on, no silent loss and no dropped nested field, the struct
// encoding/json decodes holds everything the call sent: marshalled back,
// every member the call sent for a parameter reads as what was sent (the
// same text; numbers of the same value, exactly for whole numbers, as
// float64 for the rest; objects member by member, lists element by
// element). The oracle is encoding/json's own decode and encode, not the
// checker's rules: a loss Check misses (a rounded integer, replaced text,
// a null left as a zero value, an array cut or padded, a nested key
// dropped) breaks it.
func FuzzCheck_NoLossRoundTrips(f *testing.F) {
	plan, err := bind.Std.Compile(reflect.TypeFor[fuzzLossArgs]())
	if err != nil {
		f.Fatal(err)
	}
	for _, tc := range lossCases {
		f.Add([]byte(tc.args))
	}
	for _, s := range []string{
		`{"n":1,"f":9007199254740993,"s":"\ud800","pair":[1,2,3],"inner":{"x":1,"z":2},"meta":{"k":9007199254740993},"ptr":null}`,
		`{"f":9007199254740992,"fs":[0.1,1e21,123456789012345678901234567890],"meta":{"a":[1,"\udc00",null]}}`,
		`{"inner":null,"pair":null,"tags":["a",null]}`, `{"N":1,"inner":{"X":1}}`, `{"meta":{"a":1,"a":{"b":2}}}`,
		`{"f":-0,"meta":{"z":-0}}`, `{"s":"a\u2028<>&\ufffd"}`, `{"any":{"a":[1,2.5,"x",true,null,{}]}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		var v fuzzLossArgs
		if json.Unmarshal(args, &v) != nil {
			return
		}
		issues := plan.Check(args, nil)
		for _, is := range issues {
			switch {
			case is.Kind == bind.UnknownArgument:
			case is.Kind == bind.FoldedKey || is.Kind == bind.DuplicateKey:
				// Keys, not values: which members the call meant is
				// ambiguous, so the comparison below cannot be made.
				return
			default:
				return // a failure, a loss, a dropped nested field
			}
		}
		out, err := json.Marshal(&v)
		if err != nil {
			t.Fatal(err)
		}
		sent, back := decodeNumbers(t, args), decodeNumbers(t, out)
		if sent == nil {
			return // null: no arguments
		}
		// The decode of what was sent replaces text as the binder does:
		// count the U+FFFD each member reads as against those it carries.
		var members map[string]json.RawMessage
		if err := json.Unmarshal(args, &members); err != nil {
			t.Fatal(err)
		}
		for name, val := range sent.(map[string]any) {
			held, ok := back.(map[string]any)[name]
			if !ok {
				continue // an unknown key, dropped and reported
			}
			if why := sameJSON(val, held); why != "" {
				t.Errorf("%s: Check finds no loss, but %s reads back as %s: %s", args, name, mustMarshal(held), why)
			}
			if read, carried := countReplacement(val), carriedReplacement(members[name]); read != carried {
				t.Errorf("%s: Check finds no loss, but %s reads as %d U+FFFD where the call sent %d", args, name, read, carried)
			}
		}
	})
}

// countReplacement counts U+FFFD in the strings and keys of v.
func countReplacement(v any) int {
	n := 0
	switch v := v.(type) {
	case string:
		n = strings.Count(v, "\ufffd")
	case []any:
		for _, e := range v {
			n += countReplacement(e)
		}
	case map[string]any:
		for k, e := range v {
			n += strings.Count(k, "\ufffd") + countReplacement(e)
		}
	}
	return n
}

// carriedReplacement counts the U+FFFD raw JSON text carries: as UTF-8,
// or as a \ufffd escape (of any case, not itself escaped).
func carriedReplacement(raw []byte) int {
	n := bytes.Count(raw, []byte("\ufffd"))
	for i := 0; i < len(raw); i++ {
		if raw[i] == '\\' {
			if i+5 < len(raw) && raw[i+1] == 'u' && strings.EqualFold(string(raw[i+2:i+6]), "fffd") {
				n++
			}
			i++ // the escaped byte
		}
	}
	return n
}

func decodeNumbers(t *testing.T, b []byte) any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	return v
}

func mustMarshal(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// sameJSON compares what a call sent with what the decoded struct holds,
// both decoded with UseNumber: "" when they agree.
func sameJSON(sent, held any) string {
	switch s := sent.(type) {
	case map[string]any:
		h, ok := held.(map[string]any)
		if !ok {
			return "an object became " + mustMarshal(held)
		}
		for k, sv := range s {
			hv, ok := h[k]
			if !ok {
				return "member " + strconv.Quote(k) + " is gone"
			}
			if why := sameJSON(sv, hv); why != "" {
				return k + ": " + why
			}
		}
		return ""
	case []any:
		h, ok := held.([]any)
		if !ok || len(h) != len(s) {
			return "a list of " + strconv.Itoa(len(s)) + " became " + mustMarshal(held)
		}
		for i := range s {
			if why := sameJSON(s[i], h[i]); why != "" {
				return "[" + strconv.Itoa(i) + "]: " + why
			}
		}
		return ""
	case json.Number:
		h, ok := held.(json.Number)
		if !ok {
			return "a number became " + mustMarshal(held)
		}
		if !sameNumber(string(s), string(h)) {
			return string(s) + " became " + string(h)
		}
		return ""
	}
	if !reflect.DeepEqual(sent, held) {
		return mustMarshal(sent) + " became " + mustMarshal(held)
	}
	return ""
}

// sameNumber: a whole number sent (no fraction, no exponent) must come
// back as exactly that value; any other must come back as the same
// float64, which is what the binder's float64 positions read.
func sameNumber(sent, held string) bool {
	whole := true
	for _, c := range sent {
		if c == '.' || c == 'e' || c == 'E' {
			whole = false
		}
	}
	if whole {
		a, ok1 := new(big.Rat).SetString(sent)
		b, ok2 := new(big.Rat).SetString(held)
		if ok1 && ok2 && a.Cmp(b) == 0 {
			return true
		}
		// A float64 is written back as the shortest text that reads as
		// it (2^64 as 18446744073709552000): compare its exact value.
		f, err := strconv.ParseFloat(held, 64)
		if err != nil || math.IsInf(f, 0) {
			return false
		}
		return ok1 && a.Cmp(new(big.Rat).SetFloat64(f)) == 0
	}
	a, err1 := strconv.ParseFloat(sent, 64)
	b, err2 := strconv.ParseFloat(held, 64)
	return err1 == nil && err2 == nil && a == b
}
