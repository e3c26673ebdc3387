package bind_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// benchTypical is the benchmark suite's Typical tool: eight fields, one a
// nested struct.
type benchTypical struct {
	Count  int32    `json:"count"`
	Limit  int      `json:"limit"`
	Query  string   `json:"query"`
	Tags   []string `json:"tags"`
	Score  float64  `json:"score"`
	Exact  bool     `json:"exact"`
	Cursor *string  `json:"cursor"`
	Window struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"window"`
}

type benchStrings struct {
	Items []string `json:"items"`
}

type benchInts struct {
	Values []int `json:"values"`
}

var benchCalls = []struct {
	name string
	typ  reflect.Type
	args string
}{
	{"Typical", reflect.TypeFor[benchTypical](), `{"count":12,"limit":50,"query":"error rate by region","tags":["prod","eu-west-1","p99"],"score":0.75,"exact":true,"cursor":"c2Vjb25kLXBhZ2U=","window":{"from":"2026-01-01T00:00:00Z","to":"2026-01-02T00:00:00Z"}}`},
	{"Strings200", reflect.TypeFor[benchStrings](), `{"items":[` + strings.TrimSuffix(strings.Repeat(`"an item of some forty bytes, plain text",`, 200), ",") + `]}`},
	{"Ints10k", reflect.TypeFor[benchInts](), func() string {
		var sb strings.Builder
		sb.WriteString(`{"values":[`)
		for i := range 10000 {
			if i > 0 {
				sb.WriteByte(',')
			}
			fmt.Fprint(&sb, i*7919)
		}
		sb.WriteString("]}")
		return sb.String()
	}()},
}

// BenchmarkTrialCheck measures Check on clean calls for the binders
// mirrored by trial, next to the binder's own decode of the call
// (binder=...): Check decodes once, and walks the text for silent losses.
func BenchmarkTrialCheck(b *testing.B) {
	for _, bd := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		for _, c := range benchCalls {
			plan, err := bd.Compile(c.typ)
			if err != nil {
				b.Fatal(err)
			}
			args := []byte(c.args)
			if is := plan.Check(args, nil); len(is) != 0 {
				b.Fatalf("%s %s: %+v", bd.Name(), c.name, is)
			}
			b.Run(bd.Name()+"/"+c.name+"/binder", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(args)))
				for b.Loop() {
					_ = bd.Unmarshal(args, reflect.New(c.typ).Interface())
				}
			})
			b.Run(bd.Name()+"/"+c.name+"/check", func(b *testing.B) {
				b.ReportAllocs()
				b.SetBytes(int64(len(args)))
				var buf []bind.Issue
				for b.Loop() {
					buf = plan.Check(args, buf[:0])
				}
			})
		}
	}
}

// trialArgs is a tool whose parameters cover the positions the silent
// losses are about: plain types only, so that encoding/json re-marshals
// what the binder decoded in a form the oracle can compare with what was
// sent.
type trialArgs struct {
	I    int                `json:"i"`
	U8   uint8              `json:"u8"`
	F    float64            `json:"f"`
	F32  float32            `json:"f32"`
	S    string             `json:"s"`
	B    bool               `json:"b"`
	P    *int               `json:"p"`
	A    any                `json:"a"`
	Arr  [2]int             `json:"arr"`
	Sl   []string           `json:"sl"`
	M    map[string]float64 `json:"m"`
	N    trialInner         `json:"n"`
	NP   *trialInner        `json:"np"`
	Ns   []trialInner       `json:"ns"`
	Q    float64            `json:"q,string"`
	HB   int                `json:"hours_back,case:ignore"`
	Deep [1][]trialInner    `json:"deep"`
}

type trialInner struct {
	X  int         `json:"x"`
	Y  string      `json:"y"`
	Z  []float64   `json:"z"`
	In *trialInner `json:"in"`
	HB int         `json:"hours_back,case:ignore"`
}

// faithful is the oracle for silent losses, independent of the guard: it
// decodes args with the binder, and compares each parameter the call sends
// (under its exact name), as received, with what was sent, read strictly
// (jsontext: no repeated names, no invalid UTF-8): numbers by exact value
// (a number with a fraction or an exponent only as a float reads it),
// objects key by key (a key sent must be there; one not sent must be
// zero), arrays element by element. A parameter the call does not name
// must come out zero. It returns "" when every one is received as sent, or
// what differs; err is the binder's.
func faithful(b bind.Binder, typ reflect.Type, params []bind.Param, args []byte) (string, error) {
	v := reflect.New(typ)
	if err := b.Unmarshal(args, v.Interface()); err != nil {
		return "", err
	}
	got := received(v.Elem(), false).(map[string]any)
	sent := map[string][]jsontext.Value{}
	dec := jsontext.NewDecoder(bytes.NewReader(args), jsontext.AllowDuplicateNames(true), jsontext.AllowInvalidUTF8(true))
	if tok, err := dec.ReadToken(); err == nil && tok.Kind() == '{' {
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return "", err
			}
			name := tok.String()
			val, err := dec.ReadValue()
			if err != nil {
				return "", err
			}
			sent[name] = append(sent[name], val.Clone())
		}
	}
	for _, p := range params {
		vals := sent[p.Name]
		switch {
		case len(vals) == 0:
			if !zeroJSON(got[p.Name]) {
				return p.Name + ": not sent, yet received " + fmt.Sprint(got[p.Name]), nil
			}
			continue
		case len(vals) > 1:
			return p.Name + ": sent more than once", nil
		}
		if !vals[0].IsValid() {
			return p.Name + ": sent with repeated names or invalid UTF-8", nil
		}
		var want any
		d := json.NewDecoder(bytes.NewReader(vals[0]))
		d.UseNumber()
		if err := d.Decode(&want); err != nil {
			return "", err
		}
		if why := receivedAsSent(want, got[p.Name]); why != "" {
			return p.Name + why, nil
		}
	}
	return "", nil
}

// A quotedNumber is a number received through the ,string option.
type quotedNumber struct{ *big.Rat }

// received is the decoded value v as JSON-shaped Go values, numbers as
// their exact value (*big.Rat), so that a float's rounding shows. It knows
// the plain types of trialArgs only.
func received(v reflect.Value, quoted bool) any {
	num := func(r *big.Rat) any {
		if quoted {
			return quotedNumber{r}
		}
		return r
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return received(v.Elem(), quoted)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return num(new(big.Rat).SetInt64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return num(new(big.Rat).SetUint64(v.Uint()))
	case reflect.Float32, reflect.Float64:
		return num(new(big.Rat).SetFloat64(v.Float()))
	case reflect.String:
		return v.String()
	case reflect.Bool:
		return v.Bool()
	case reflect.Slice:
		if v.IsNil() {
			return nil
		}
		fallthrough
	case reflect.Array:
		out := make([]any, v.Len())
		for i := range out {
			out[i] = received(v.Index(i), false)
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return nil
		}
		out := map[string]any{}
		for it := v.MapRange(); it.Next(); {
			out[it.Key().String()] = received(it.Value(), false)
		}
		return out
	case reflect.Struct:
		out := map[string]any{}
		for i := range v.NumField() {
			name, opts, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			out[name] = received(v.Field(i), strings.Contains(opts, "string"))
		}
		return out
	}
	panic("received: " + v.Type().String())
}

// receivedAsSent compares a value as sent with the value as received.
func receivedAsSent(sent, got any) string {
	differ := fmt.Sprintf(": sent %v, received %v", sent, got)
	switch s := sent.(type) {
	case nil:
		if got != nil {
			return differ
		}
	case json.Number:
		if q, ok := got.(quotedNumber); ok { // V2 reads a ,string field from a number too
			got = q.Rat
		}
		if g, ok := got.(*big.Rat); !ok || !numberAsSent(string(s), g) {
			return differ
		}
	case string:
		if q, ok := got.(quotedNumber); ok {
			if !numberAsSent(strings.TrimSpace(s), q.Rat) {
				return differ
			}
		} else if got != s {
			return differ
		}
	case bool:
		if got != s {
			return differ
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(s) {
			return differ
		}
		for i := range s {
			if why := receivedAsSent(s[i], g[i]); why != "" {
				return fmt.Sprintf("[%d]%s", i, why)
			}
		}
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return differ
		}
		for k, sv := range s {
			gv, ok := g[k]
			if !ok {
				return "." + k + ": dropped"
			}
			if why := receivedAsSent(sv, gv); why != "" {
				return "." + k + why
			}
		}
		for k, gv := range g {
			if _, ok := s[k]; !ok && !zeroJSON(gv) {
				return "." + k + ": not sent, yet received " + fmt.Sprint(gv)
			}
		}
	}
	return ""
}

// numberAsSent compares a JSON number as sent with its value as received:
// an integer literal must be received exactly; any other number as a
// float64 or float32 reads it.
func numberAsSent(sent string, got *big.Rat) bool {
	want, ok := new(big.Rat).SetString(sent)
	if !ok {
		return false
	}
	if want.Cmp(got) == 0 {
		return true
	}
	if strings.ContainsAny(sent, ".eE") {
		g, _ := got.Float64()
		f64, _ := strconv.ParseFloat(sent, 64)
		f32, _ := strconv.ParseFloat(sent, 32)
		return g == f64 || g == f32
	}
	return false
}

func zeroJSON(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case *big.Rat:
		return v.Sign() == 0
	case quotedNumber:
		return v.Sign() == 0
	case string:
		return v == ""
	case bool:
		return !v
	case []any:
		for _, e := range v {
			if !zeroJSON(e) {
				return false
			}
		}
		return true
	case map[string]any:
		for _, e := range v {
			if !zeroJSON(e) {
				return false
			}
		}
		return true
	}
	return false
}

// reported lists the issues of a call that say something is dropped or
// changed.
func reported(issues []bind.Issue) []bind.Issue {
	var out []bind.Issue
	for _, is := range issues {
		if is.Kind.Class() == bind.SilentLoss || is.Kind == bind.UnknownField {
			out = append(out, is)
		}
	}
	return out
}

// checkLossOracle runs the oracle on a call the binder reads: Check must
// report a loss (or an unknown field) exactly when the oracle finds the
// call not received as sent, FoldedKey aside (a folded key may carry a
// zero value, which the oracle cannot tell from no key).
func checkLossOracle(t *testing.T, plan *bind.Plan, args []byte) {
	t.Helper()
	why, err := faithful(plan.Binder(), plan.Type(), plan.Params(), args)
	if err != nil {
		return
	}
	issues := plan.Check(args, nil)
	for _, is := range issues {
		if is.Kind.Class() == bind.BinderFailure {
			t.Fatalf("%s: %q: the binder reads it, the guard says %+v", plan.Binder().Name(), args, is)
		}
	}
	losses := reported(issues)
	onlyFolded := len(losses) > 0
	for _, is := range losses {
		onlyFolded = onlyFolded && is.Kind == bind.FoldedKey
	}
	switch {
	case why != "" && len(losses) == 0:
		t.Errorf("%s: %q: not received as sent (%s), and Check reports no loss", plan.Binder().Name(), args, why)
	case why == "" && len(losses) > 0 && !onlyFolded:
		t.Errorf("%s: %q: received as sent, and Check reports %+v", plan.Binder().Name(), args, losses)
	}
}

// lossSeeds are calls with and without silent losses, for the fuzz targets.
var lossSeeds = []string{
	`{}`, `{"i":1,"f":1.5,"s":"x","b":true,"p":null,"a":[1,"x",{"k":null}],"arr":[1,2],"sl":["a"],"m":{"k":1},"n":{"x":1,"y":"y","z":[1.5]},"np":null,"ns":[{"in":{"x":2}}],"q":"2.5","deep":[[{"x":1}]]}`,
	`{"i":null}`, `{"s":null,"b":null,"u8":null}`, `{"n":null}`, `{"arr":[null,1]}`, `{"m":{"k":null}}`, `{"sl":[null]}`, `{"np":{"x":null}}`,
	`{"i":1,"i":2}`, `{"n":{"x":1,"x":2}}`, `{"m":{"k":1,"k":2}}`, `{"a":{"k":1,"k":2}}`, `{"m":{"k":1,"\u006b":2}}`,
	`{"arr":[1,2,3]}`, `{"arr":[1]}`, `{"arr":[]}`, `{"deep":[[{"x":1}],[{"x":2}]]}`,
	`{"f":9007199254740993}`, `{"f":9007199254740992}`, `{"f32":16777217}`, `{"f32":16777216}`, `{"a":9007199254740993}`, `{"a":[12345678901234567890]}`, `{"q":"9007199254740993"}`, `{"m":{"k":100000000000000000000000}}`, `{"f":-0}`,
	"{\"s\":\"a\xffb\"}", `{"s":"\ud800"}`, `{"s":"\udc00x"}`, `{"s":"\ud83d\ude00"}`, "{\"m\":{\"\xff\":1}}", "{\"a\":\"\xff\"}", `{"sl":["\ud800\u0041"]}`, "{\"zz\":\"\xff\"}",
	`{"n":{"zz":1}}`, `{"ns":[{"X":1}]}`, `{"np":{"in":{"q":1}}}`,
	`{"HOURS_BACK":3}`, `{"hoursback":0}`, `{"n":{"Hours-Back":2}}`, `{"q":"null"}`, `{"q":null}`,
}

// FuzzTrialLosses: on every call the binder reads, Check reports a silent
// loss or an unknown field exactly when the oracle (faithful) finds a
// parameter not received as sent.
func FuzzTrialLosses(f *testing.F) {
	for _, s := range lossSeeds {
		f.Add([]byte(s))
	}
	var plans []*bind.Plan
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[trialArgs]())
		if err != nil {
			f.Fatal(err)
		}
		plans = append(plans, plan)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		for _, plan := range plans {
			checkLossOracle(t, plan, args)
		}
	})
}

// Facts about the binders mirrored by trial, pinned by decoding with the
// binder itself: what each does with null, with case, with repeated keys,
// with fixed-size arrays, with large integers, with invalid text and with
// unknown keys in nested objects. Check's silent losses follow them; a
// binder upgrade that changes one fails here first.

// textOnly is read by UnmarshalText; jsonOnly by UnmarshalJSON.
type textOnly string

func (t *textOnly) UnmarshalText(b []byte) error { *t = textOnly("text:" + string(b)); return nil }

type jsonOnly string

func (j *jsonOnly) UnmarshalJSON(b []byte) error { *j = jsonOnly("json:" + string(b)); return nil }

type factsArgs struct {
	I    int                `json:"i"`
	S    string             `json:"s"`
	N    trialInner         `json:"n"`
	Arr  [2]int             `json:"arr"`
	M    map[string]int     `json:"m"`
	MI   map[int]string     `json:"mi"`
	F    float64            `json:"f"`
	F32  float32            `json:"f32"`
	A    any                `json:"a"`
	Txt  textOnly           `json:"txt"`
	Jsn  jsonOnly           `json:"jsn"`
	Time time.Time          `json:"time"`
	QI   int                `json:"qi,string"`
	MS   map[string]string  `json:"ms"`
	MT   map[textOnly]int   `json:"mt"`
	Fold int                `json:"fold,case:ignore"`
	PN   *trialInner        `json:"pn"`
	Sl   []int              `json:"sl"`
	MF   map[string]float64 `json:"mf"`
	Num  json.Number        `json:"num"`
	Dur  time.Duration      `json:"dur"`
}

func TestTrialBinders_SilentLossFacts(t *testing.T) {
	const fails = "fails"
	for _, tc := range []struct {
		binder      bind.Binder
		args, field string // the call, and the Go field whose value it shows
		want        string // the field's value as encoding/json marshals it, or fails
	}{
		// null for a value that has no nil: the zero value, never an error.
		{jsonv2.Binder, `{"i":null}`, "I", `0`},
		{jsonv2.Binder, `{"i":5,"i":null}`, "I", fails}, // (repeated)
		{jsonv2.Binder, `{"s":null}`, "S", `""`},
		{jsonv2.Binder, `{"n":null}`, "N", `{"x":0,"y":"","z":null,"in":null,"hours_back":0}`},
		{jsonv2.Binder, `{"arr":[null,1]}`, "Arr", `[0,1]`},
		{jsonv2.Binder, `{"m":{"k":null}}`, "M", `{"k":0}`},
		{jsonv2.Binder, `{"sl":[null]}`, "Sl", `[0]`},
		{jsonv2.Binder, `{"txt":null}`, "Txt", `""`},          // UnmarshalText is not called
		{jsonv2.Binder, `{"jsn":null}`, "Jsn", `"json:null"`}, // UnmarshalJSON is
		{jsonv2.Binder, `{"time":null}`, "Time", `"0001-01-01T00:00:00Z"`},
		{jsonv2.Binder, `{"qi":null}`, "QI", `0`},
		{jsonv2.Binder, `{"qi":"null"}`, "QI", fails},
		{segmentio.Binder, `{"i":null}`, "I", `0`},
		{segmentio.Binder, `{"i":5,"i":null}`, "I", `5`}, // null leaves it as it was
		{segmentio.Binder, `{"s":null}`, "S", `""`},
		{segmentio.Binder, `{"n":null}`, "N", `{"x":0,"y":"","z":null,"in":null,"hours_back":0}`},
		{segmentio.Binder, `{"arr":[null,1]}`, "Arr", `[0,1]`},
		{segmentio.Binder, `{"m":{"k":null}}`, "M", `{"k":0}`},
		{segmentio.Binder, `{"sl":[null]}`, "Sl", `[0]`},
		{segmentio.Binder, `{"txt":null}`, "Txt", `""`},
		{segmentio.Binder, `{"jsn":null}`, "Jsn", `"json:null"`},
		{segmentio.Binder, `{"time":null}`, "Time", `"0001-01-01T00:00:00Z"`},
		{segmentio.Binder, `{"qi":null}`, "QI", `0`},
		{segmentio.Binder, `{"qi":"null"}`, "QI", `0`}, // a ,string "null" is null
		{segmentio.Binder, `{"num":null}`, "Num", `0`}, // "", which Marshal writes as 0
		{segmentio.Binder, `{"dur":null}`, "Dur", `0`},
		{jsonv2.Binder, `{"num":null}`, "Num", `0`},
		{jsonv2.Binder, `{"dur":null}`, "Dur", fails}, // no representation for a Duration

		// Case: both bind keys by exact name, in nested objects too; V2
		// folds for a field tagged case:ignore (case, dashes, underscores).
		{jsonv2.Binder, `{"I":1}`, "I", `0`},
		{jsonv2.Binder, `{"n":{"X":1}}`, "N", `{"x":0,"y":"","z":null,"in":null,"hours_back":0}`},
		{jsonv2.Binder, `{"FOLD":1}`, "Fold", `1`},
		{jsonv2.Binder, `{"n":{"HoursBack":2}}`, "N", `{"x":0,"y":"","z":null,"in":null,"hours_back":2}`},
		{segmentio.Binder, `{"I":1}`, "I", `0`},
		{segmentio.Binder, `{"n":{"X":1}}`, "N", `{"x":0,"y":"","z":null,"in":null,"hours_back":0}`},
		{segmentio.Binder, `{"FOLD":1}`, "Fold", `0`},
		{segmentio.Binder, `{"n":{"HoursBack":2}}`, "N", `{"x":0,"y":"","z":null,"in":null,"hours_back":0}`},

		// Repeated keys: V2 fails at any depth; segmentio reads each
		// occurrence, so the last wins (an object merges into the first).
		{jsonv2.Binder, `{"i":1,"i":2}`, "I", fails},
		{jsonv2.Binder, `{"n":{"x":1,"x":2}}`, "N", fails},
		{jsonv2.Binder, `{"m":{"k":1,"k":2}}`, "M", fails},
		{jsonv2.Binder, `{"a":{"k":1,"k":2}}`, "A", fails},
		{segmentio.Binder, `{"i":1,"i":2}`, "I", `2`},
		{segmentio.Binder, `{"n":{"x":1,"x":2}}`, "N", `{"x":2,"y":"","z":null,"in":null,"hours_back":0}`},
		{segmentio.Binder, `{"n":{"x":1},"n":{"y":"b"}}`, "N", `{"x":1,"y":"b","z":null,"in":null,"hours_back":0}`},
		{segmentio.Binder, `{"m":{"k":1,"k":2}}`, "M", `{"k":2}`},
		{segmentio.Binder, `{"m":{"k":1,"\u006b":2}}`, "M", `{"k":2}`},
		{segmentio.Binder, `{"mi":{"-0":"a","0":"b"}}`, "MI", `{"0":"b"}`},
		{segmentio.Binder, `{"a":{"k":1,"k":2}}`, "A", `{"k":2}`},

		// Fixed-size arrays: V2 takes exactly their length; segmentio drops
		// extra elements and leaves missing ones zero.
		{jsonv2.Binder, `{"arr":[1,2,3]}`, "Arr", fails},
		{jsonv2.Binder, `{"arr":[1]}`, "Arr", fails},
		{segmentio.Binder, `{"arr":[1,2,3]}`, "Arr", `[1,2]`},
		{segmentio.Binder, `{"arr":[1]}`, "Arr", `[1,0]`},
		{segmentio.Binder, `{"arr":[]}`, "Arr", fails}, // segmentio v0.5.4 fails on [] for a fixed-size array

		// Integers past 2^53 (2^24 for float32): both round, into any too.
		{jsonv2.Binder, `{"f":9007199254740993}`, "F", `9007199254740992`},
		{jsonv2.Binder, `{"f32":16777217}`, "F32", `16777216`},
		{jsonv2.Binder, `{"a":9007199254740993}`, "A", `9007199254740992`},
		{segmentio.Binder, `{"f":9007199254740993}`, "F", `9007199254740992`},
		{segmentio.Binder, `{"f32":16777217}`, "F32", `16777216`},
		{segmentio.Binder, `{"a":9007199254740993}`, "A", `9007199254740992`},

		// Invalid UTF-8 and lone surrogates: V2 fails; segmentio replaces
		// them with U+FFFD, in values and keys, and before UnmarshalText.
		{jsonv2.Binder, "{\"s\":\"a\xffb\"}", "S", fails},
		{jsonv2.Binder, `{"s":"\ud800"}`, "S", fails},
		{jsonv2.Binder, "{\"m\":{\"\xff\":1}}", "M", fails},
		{segmentio.Binder, "{\"s\":\"a\xffb\"}", "S", `"a\ufffdb"`},
		{segmentio.Binder, `{"s":"\ud800"}`, "S", `"\ufffd"`},
		{segmentio.Binder, `{"s":"\udc00x"}`, "S", `"\ufffdx"`},
		{segmentio.Binder, `{"s":"\ud800\u0041"}`, "S", `"\ufffdA"`},
		{segmentio.Binder, `{"s":"\ud83d\ude00"}`, "S", `"😀"`},
		{segmentio.Binder, "{\"m\":{\"\xff\":1}}", "M", `{"\ufffd":1}`},
		{segmentio.Binder, "{\"a\":\"\xff\"}", "A", `"\ufffd"`},
		{segmentio.Binder, "{\"ms\":{\"k\":\"\xff\"}}", "MS", `{"k":"\ufffd"}`},
		{segmentio.Binder, `{"txt":"\ud800"}`, "Txt", `"text:\ufffd"`},
		{segmentio.Binder, `{"mt":{"\ud800":1}}`, "MT", `{"text:\ufffd":1}`},

		// Unknown keys in nested objects: both drop them.
		{jsonv2.Binder, `{"n":{"zz":1,"x":1}}`, "N", `{"x":1,"y":"","z":null,"in":null,"hours_back":0}`},
		{jsonv2.Binder, `{"pn":{"in":{"zz":1}}}`, "PN", `{"x":0,"y":"","z":null,"in":{"x":0,"y":"","z":null,"in":null,"hours_back":0},"hours_back":0}`},
		{segmentio.Binder, `{"n":{"zz":1,"x":1}}`, "N", `{"x":1,"y":"","z":null,"in":null,"hours_back":0}`},
		{segmentio.Binder, `{"pn":{"in":{"zz":1}}}`, "PN", `{"x":0,"y":"","z":null,"in":{"x":0,"y":"","z":null,"in":null,"hours_back":0},"hours_back":0}`},
	} {
		v := new(factsArgs)
		err := tc.binder.Unmarshal([]byte(tc.args), v)
		got := fails
		if err == nil {
			out, merr := json.Marshal(reflect.ValueOf(v).Elem().FieldByName(tc.field).Interface())
			if merr != nil {
				t.Fatal(merr)
			}
			got = string(out)
		}
		if !sameText(got, tc.want) {
			t.Errorf("%s %s: %s is %s, want %s (error: %v)", tc.binder.Name(), tc.args, tc.field, got, tc.want, err)
		}
	}
}

// sameText compares two JSON texts as values (numbers by their text), or
// two other strings as they are.
func sameText(a, b string) bool {
	var va, vb any
	da, db := json.NewDecoder(strings.NewReader(a)), json.NewDecoder(strings.NewReader(b))
	da.UseNumber()
	db.UseNumber()
	if da.Decode(&va) != nil || db.Decode(&vb) != nil {
		return a == b
	}
	return reflect.DeepEqual(va, vb)
}

// A trialLossCase is a call the binder reads and the first silent loss (or
// unknown field) Check must report in it, kind 0 for none: the argument,
// the offending bytes, the path to them (to the key's member, for a key),
// the Go type there (for a key: the struct it is in for UnknownField, the
// key's type for Replaced, the type its value is read into for FoldedKey
// and DuplicateKey; any inside an interface) and, for ArrayLength, the
// elements sent.
type trialLossCase struct {
	args, why  string
	kind       bind.Code
	param      string
	sent, path string
	typ        string
	n          int
}

// checkLosses runs each case against a plan of trialArgs. The oracle
// (faithful, with the real binder) must agree that the call is changed
// exactly when the row says there is a loss.
func checkLosses(t *testing.T, b bind.Binder, cases []trialLossCase) {
	t.Helper()
	plan, err := b.Compile(reflect.TypeFor[trialArgs]())
	if err != nil {
		t.Fatal(err)
	}
	idx := map[string]int{}
	for i, p := range plan.Params() {
		idx[p.Name] = i
	}
	for _, tc := range cases {
		args := []byte(tc.args)
		if tc.why == "" {
			t.Fatalf("%s: a row needs a reason", tc.args)
		}
		why, err := faithful(b, plan.Type(), plan.Params(), args)
		if err != nil {
			t.Errorf("%s (%s): %s fails: %v", tc.args, tc.why, b.Name(), err)
			continue
		}
		if (why != "") != (tc.kind != "" && tc.kind != bind.FoldedKey) && tc.kind != bind.FoldedKey {
			t.Errorf("%s (%s): the oracle says %q", tc.args, tc.why, why)
		}
		checkLossOracle(t, plan, args)
		losses := reported(plan.Check(args, nil))
		for _, is := range plan.Check(args, nil) {
			if is.Kind == bind.FoldedKey {
				losses = append([]bind.Issue{is}, losses...)
				break
			}
		}
		if tc.kind == "" {
			if len(losses) != 0 {
				t.Errorf("%s (%s): Check reports %+v", tc.args, tc.why, losses)
			}
			continue
		}
		if len(losses) == 0 {
			t.Errorf("%s (%s): no loss reported", tc.args, tc.why)
			continue
		}
		got := losses[0]
		typ := ""
		if got.Type != nil {
			typ = got.Type.String()
		}
		if got.Kind != tc.kind || got.Param != idx[tc.param] || string(args[got.Start:got.End]) != tc.sent || got.Path.String() != tc.path || typ != tc.typ || got.N != tc.n {
			t.Errorf("%s (%s):\n got %v in %d, %q at %q, type %s, n %d\nwant %v in %d, %q at %q, type %s, n %d", tc.args, tc.why,
				got.Kind, got.Param, args[got.Start:got.End], got.Path.String(), typ, got.N, tc.kind, idx[tc.param], tc.sent, tc.path, tc.typ, tc.n)
		}
	}
}

// Losses both binders have.
var commonLossCases = []trialLossCase{
	{args: `{"i":1,"f":1.5,"s":"x","a":[1,"x",{"k":null}],"arr":[1,2],"m":{"k":1},"n":{"x":1,"z":[2.5]},"p":null,"np":null,"sl":null,"q":"2.5"}`, why: "a clean call"},
	{args: `{"i":null}`, why: "null for an int", kind: bind.NullForValue, param: "i", sent: "null", typ: "int"},
	{args: `{"s":null}`, why: "null for a string", kind: bind.NullForValue, param: "s", sent: "null", typ: "string"},
	{args: `{"n":null}`, why: "null for a struct", kind: bind.NullForValue, param: "n", sent: "null", typ: "bind_test.trialInner"},
	{args: `{"arr":[null,1]}`, why: "null for an array element", kind: bind.NullForValue, param: "arr", sent: "null", path: "[0]", typ: "int"},
	{args: `{"m":{"k":null}}`, why: "null for a map value", kind: bind.NullForValue, param: "m", sent: "null", path: ".k", typ: "float64"},
	{args: `{"ns":[{"in":{"y":null}}]}`, why: "null deep inside", kind: bind.NullForValue, param: "ns", sent: "null", path: "[0].in.y", typ: "string"},
	{args: `{"q":null}`, why: "null for a ,string float", kind: bind.NullForValue, param: "q", sent: "null", typ: "float64"},
	{args: `{"p":null,"np":null,"sl":null,"a":null,"m":null}`, why: "null for what has nil is no loss", kind: ""},
	{args: `{"n":{"zz":1,"x":1}}`, why: "a nested unknown key is dropped", kind: bind.UnknownField, param: "n", sent: `"zz"`, path: ".zz", typ: "bind_test.trialInner"},
	{args: `{"ns":[{},{"in":{"X":1}}]}`, why: "keys bind by exact name inside", kind: bind.UnknownField, param: "ns", sent: `"X"`, path: "[1].in.X", typ: "bind_test.trialInner"},
	{args: `{"a":{"zz":1},"m":{"zz":1}}`, why: "an object for any or a map keeps every key", kind: ""},
	{args: `{"f":9007199254740993}`, why: "2^53+1 rounds in a float64", kind: bind.RoundedNumber, param: "f", sent: "9007199254740993", typ: "float64"},
	{args: `{"f":9007199254740992,"f32":16777216,"a":-9007199254740992}`, why: "2^53 and 2^24 are exact", kind: ""},
	{args: `{"f32":16777217}`, why: "2^24+1 rounds in a float32", kind: bind.RoundedNumber, param: "f32", sent: "16777217", typ: "float32"},
	{args: `{"a":{"k":[12345678901234567890]}}`, why: "a number in any is a float64", kind: bind.RoundedNumber, param: "a", sent: "12345678901234567890", path: ".k[0]", typ: "interface {}"},
	{args: `{"m":{"k":100000000000000000000000}}`, why: "10^23 is not a float64", kind: bind.RoundedNumber, param: "m", sent: "100000000000000000000000", path: ".k", typ: "float64"},
	{args: `{"q":"9007199254740993"}`, why: "a ,string float rounds too", kind: bind.RoundedNumber, param: "q", sent: `"9007199254740993"`, typ: "float64"},
	{args: `{"f":1.00000000000000000001,"f32":0.1}`, why: "a fraction is not an integer: out of scope", kind: ""},
	{args: `{"i":9007199254740993}`, why: "an int holds it", kind: ""},
	{args: `{"m":{"a b":null}}`, why: "a key that is no identifier is quoted in the path", kind: bind.NullForValue, param: "m", sent: "null", path: `["a b"]`, typ: "float64"},
	{args: `{"np":` + strings.Repeat(`{"in":`, 40) + `{"in":{"y":null}}` + strings.Repeat(`}`, 41), why: "a path past 12 steps keeps the first 4 and the last 8", kind: bind.NullForValue, param: "np", sent: "null", path: strings.Repeat(".in", 4) + "[…]" + strings.Repeat(".in", 7) + ".y", typ: "string"},
	{args: `{"np":` + strings.Repeat(`{"in":`, 40) + `{"in":{"zz":1}}` + strings.Repeat(`}`, 41), why: "a key's path past 12 steps, likewise", kind: bind.UnknownField, param: "np", sent: `"zz"`, path: strings.Repeat(".in", 4) + "[…]" + strings.Repeat(".in", 7) + ".zz", typ: "bind_test.trialInner"},
}

func TestV2_SilentLosses(t *testing.T) {
	cases := slices.Clone(commonLossCases)
	cases = append(cases,
		trialLossCase{args: `{"HOURS_BACK":3}`, why: "case:ignore folds case", kind: bind.FoldedKey, param: "hours_back", sent: `"HOURS_BACK"`, typ: "int"},
		trialLossCase{args: `{"hoursback":0}`, why: "and drops underscores, even for a zero value", kind: bind.FoldedKey, param: "hours_back", sent: `"hoursback"`, typ: "int"},
		trialLossCase{args: `{"n":{"Hours-Back":2}}`, why: "in a nested struct too", kind: bind.FoldedKey, param: "n", sent: `"Hours-Back"`, path: `["Hours-Back"]`, typ: "int"},
		trialLossCase{args: `{"hours_back":3,"n":{"hours_back":1}}`, why: "the exact name is no fold", kind: ""},
	)
	checkLosses(t, jsonv2.Binder, cases)
}

func TestSegmentIO_SilentLosses(t *testing.T) {
	cases := slices.Clone(commonLossCases)
	cases = append(cases,
		trialLossCase{args: `{"HOURS_BACK":3,"n":{"Hours-Back":2}}`, why: "no folding: case:ignore is V2's", kind: bind.UnknownField, param: "n", sent: `"Hours-Back"`, path: `["Hours-Back"]`, typ: "bind_test.trialInner"},
		trialLossCase{args: `{"qq":"null"}`, why: "a ,string null", kind: ""},
		trialLossCase{args: `{"q":"null"}`, why: "a ,string \"null\" is null", kind: bind.NullForValue, param: "q", sent: `"null"`, typ: "float64"},
		trialLossCase{args: `{"i":1,"i":2}`, why: "the last of a repeated key wins", kind: bind.DuplicateKey, param: "i", sent: `"i"`, typ: "int"},
		trialLossCase{args: `{"i":1,"\u0069":2}`, why: "an escaped repeat is a repeat", kind: bind.DuplicateKey, param: "i", sent: `"\u0069"`, typ: "int"},
		trialLossCase{args: `{"n":{"x":1,"y":"a","x":2}}`, why: "in a nested struct too", kind: bind.DuplicateKey, param: "n", sent: `"x"`, path: ".x", typ: "int"},
		trialLossCase{args: `{"m":{"k":1,"k":2}}`, why: "in a map", kind: bind.DuplicateKey, param: "m", sent: `"k"`, path: ".k", typ: "float64"},
		trialLossCase{args: `{"a":[{"k":1,"j":0,"k":2}]}`, why: "in an object inside any", kind: bind.DuplicateKey, param: "a", sent: `"k"`, path: "[0].k", typ: "interface {}"},
		trialLossCase{args: `{"a":{"k":1},"m":{"k":1},"n":{"x":1}}`, why: "one key in each object", kind: ""},
		trialLossCase{args: `{"zz":1,"zz":2,"n":{"zz":1,"zz":2}}`, why: "a dropped key repeated is two unknown fields, not a repeat", kind: bind.UnknownField, param: "n", sent: `"zz"`, path: ".zz", typ: "bind_test.trialInner"},
		trialLossCase{args: `{"arr":[1,2,3]}`, why: "an extra element is dropped", kind: bind.ArrayLength, param: "arr", sent: "[1,2,3]", typ: "[2]int", n: 3},
		trialLossCase{args: `{"arr":[5]}`, why: "a missing element stays zero", kind: bind.ArrayLength, param: "arr", sent: "[5]", typ: "[2]int", n: 1},
		trialLossCase{args: `{"deep":[[{"x":1}],[{"zz":2}]]}`, why: "what is inside a dropped element is not read", kind: bind.ArrayLength, param: "deep", sent: `[[{"x":1}],[{"zz":2}]]`, typ: "[1][]bind_test.trialInner", n: 2},
		trialLossCase{args: "{\"s\":\"a\xffb\"}", why: "invalid UTF-8 becomes U+FFFD", kind: bind.ReplacedText, param: "s", sent: "\"a\xffb\"", typ: "string"},
		trialLossCase{args: `{"sl":["ok","\ud800\u0041"]}`, why: "so does a lone surrogate", kind: bind.ReplacedText, param: "sl", sent: `"\ud800\u0041"`, path: "[1]", typ: "string"},
		trialLossCase{args: `{"s":"\udc00"}`, why: "a low surrogate alone", kind: bind.ReplacedText, param: "s", sent: `"\udc00"`, typ: "string"},
		trialLossCase{args: `{"s":"\ud83d\ude00\u00e9"}`, why: "a pair is no loss", kind: ""},
		trialLossCase{args: "{\"m\":{\"\xff\":1}}", why: "in a map key", kind: bind.ReplacedText, param: "m", sent: "\"\xff\"", path: "[\"\ufffd\"]", typ: "string"},
		trialLossCase{args: "{\"a\":{\"k\":\"\xed\xa0\x80\"}}", why: "UTF-8 of a surrogate is invalid", kind: bind.ReplacedText, param: "a", sent: "\"\xed\xa0\x80\"", path: ".k", typ: "interface {}"},
		trialLossCase{args: "{\"zz\":\"\xff\",\"n\":{\"x\":1}}", why: "in a dropped key's value, nothing is read", kind: ""},
	)
	checkLosses(t, segmentio.Binder, cases)
}

// TestTrial_MissingRequired: a required parameter no key binds to (by the
// binder's own matching) is Missing, whether or not the call fails
// otherwise; not when the text is unreadable.
func TestTrial_MissingRequired(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[trialArgs]())
		if err != nil {
			t.Fatal(err)
		}
		plan = plan.WithRequired([]string{"i", "hours_back", "no_such"}, nil)
		foldBinds := b == jsonv2.Binder
		for _, tc := range []struct {
			args    string
			missing []string
			other   bind.Code // the first issue other than Missing, if any
		}{
			{"", []string{"i", "hours_back"}, ""},
			{"null", []string{"i", "hours_back"}, ""},
			{" {} ", []string{"i", "hours_back"}, ""},
			{`{"i":null,"hours_back":0}`, nil, bind.NullForValue},
			{`{"I":1,"hours_back":0}`, []string{"i"}, bind.UnknownArgument},
			{`{"i":1,"HOURS_BACK":0}`, map[bool][]string{true: nil, false: {"hours_back"}}[foldBinds], map[bool]bind.Code{true: bind.FoldedKey, false: bind.UnknownArgument}[foldBinds]},
			{`{"i":"x"}`, []string{"hours_back"}, bind.WrongType},
			{`{"i":1`, nil, bind.InvalidJSON},
			{`[1]`, nil, bind.NotAnObject},
			{`{"hours_back":` + strings.Repeat("[", 20000) + strings.Repeat("]", 20000) + `}`, nil, bind.TooDeep},
		} {
			issues := plan.Check([]byte(tc.args), nil)
			var missing []string
			var other bind.Code
			for _, is := range issues {
				if is.Kind == bind.MissingArgument {
					missing = append(missing, plan.Params()[is.Param].Name)
				} else if other == "" {
					other = is.Kind
				}
			}
			if !slices.Equal(missing, tc.missing) || other != tc.other {
				t.Errorf("%s: %.40s: missing %q and %v, want %q and %v", b.Name(), tc.args, missing, other, tc.missing, tc.other)
			}
		}
	}
}

// TestTrial_LossesAtTypesWithMethods: null is lost for a type read by
// UnmarshalText (neither binder calls it on null) or read natively
// (time.Time), not for one whose UnmarshalJSON reads null itself; segmentio
// replaces invalid text before UnmarshalText, in values and map keys. The
// facts are pinned in TestTrialBinders_SilentLossFacts.
func TestTrial_LossesAtTypesWithMethods(t *testing.T) {
	for _, tc := range []struct {
		binder bind.Binder
		args   string
		want   bind.Code // 0: none
		sent   string
	}{
		{jsonv2.Binder, `{"txt":null}`, bind.NullForValue, "null"},
		{jsonv2.Binder, `{"jsn":null}`, "", ""},
		{jsonv2.Binder, `{"time":null}`, bind.NullForValue, "null"},
		{jsonv2.Binder, `{"qi":null}`, bind.NullForValue, "null"},
		{segmentio.Binder, `{"txt":null}`, bind.NullForValue, "null"},
		{segmentio.Binder, `{"jsn":null}`, "", ""},
		{segmentio.Binder, `{"jsn":"\ud800"}`, "", ""},
		{segmentio.Binder, `{"time":null}`, bind.NullForValue, "null"},
		{segmentio.Binder, `{"qi":"null"}`, bind.NullForValue, `"null"`},
		{segmentio.Binder, `{"num":null}`, bind.NullForValue, "null"},
		{segmentio.Binder, `{"dur":null}`, bind.NullForValue, "null"},
		{jsonv2.Binder, `{"num":null}`, bind.NullForValue, "null"},
		{segmentio.Binder, `{"txt":"\ud800"}`, bind.ReplacedText, `"\ud800"`},
		{segmentio.Binder, `{"mt":{"\ud800":1}}`, bind.ReplacedText, `"\ud800"`},
		{segmentio.Binder, `{"mi":{"-0":"a","0":"b"}}`, bind.DuplicateKey, `"0"`},
		{segmentio.Binder, `{"mi":{"1":"a","2":"b"}}`, "", ""},
	} {
		plan, err := tc.binder.Compile(reflect.TypeFor[factsArgs]())
		if err != nil {
			t.Fatal(err)
		}
		args := []byte(tc.args)
		if err := tc.binder.Unmarshal(args, new(factsArgs)); err != nil {
			t.Fatalf("%s %s: %v", tc.binder.Name(), tc.args, err)
		}
		var got bind.Code
		sent := ""
		if ls := reported(plan.Check(args, nil)); len(ls) > 0 {
			got, sent = ls[0].Kind, string(args[ls[0].Start:ls[0].End])
		}
		if got != tc.want || sent != tc.sent {
			t.Errorf("%s %s: %v at %q, want %v at %q", tc.binder.Name(), tc.args, got, sent, tc.want, tc.sent)
		}
	}
}
