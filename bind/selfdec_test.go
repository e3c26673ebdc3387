package bind_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/probe"
)

// Types that decode themselves under V2 and SegmentIO: the one pass runs
// the binder on such a value alone (see bind/selfdec.go) and gives the
// verdict, the trial check's.

// selfValueRecv has an UnmarshalJSON of a value receiver: the binder calls
// it on a copy, so the value stays zero; it fails on a string.
type selfValueRecv struct{ N int }

func (selfValueRecv) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return errors.New("selfValueRecv: no strings")
	}
	return nil
}

// selfPanics panics on the string "boom", and reads anything else.
type selfPanics struct{ Seen bool }

func (s *selfPanics) UnmarshalJSON(b []byte) error {
	if string(b) == `"boom"` {
		panic("boom")
	}
	s.Seen = true
	return nil
}

// selfSpaced fails on a value holding white space: what the binder hands
// the method, its bytes exactly, decides.
type selfSpaced struct{ Raw string }

func (s *selfSpaced) UnmarshalJSON(b []byte) error {
	if bytes.ContainsAny(b, " \t\r\n") {
		return errors.New("selfSpaced: white space")
	}
	s.Raw = string(b)
	return nil
}

// selfTyped fails with a *json.UnmarshalTypeError of its own (segmentio
// prefixes its Field with the path to the value).
type selfTyped struct{ N int }

func (s *selfTyped) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '[' {
		return &json.UnmarshalTypeError{Value: "array", Type: reflect.TypeFor[selfTyped]()}
	}
	s.N = 1
	return nil
}

// selfInt is an integer kind that decodes itself: UnmarshalJSON takes
// unsigned digits, and fails on anything else with an error of its own (a
// *json.UnmarshalTypeError for a string, which segmentio prefixes).
type selfInt int

func (s *selfInt) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return &json.UnmarshalTypeError{Value: "string", Type: reflect.TypeFor[selfInt]()}
	}
	if len(b) == 0 || bytes.ContainsFunc(b, func(r rune) bool { return r < '0' || r > '9' }) {
		return errors.New("selfInt: digits only")
	}
	*s = selfInt(len(b))
	return nil
}

// selfBool is a bool kind that decodes itself: UnmarshalText takes yes
// and no.
type selfBool bool

func (s *selfBool) UnmarshalText(b []byte) error {
	switch string(b) {
	case "yes", "no":
		*s = string(b) == "yes"
		return nil
	}
	return errors.New("selfBool: yes or no")
}

// selfFloat is a float kind that decodes itself: UnmarshalJSON takes what
// strconv.ParseFloat does.
type selfFloat float64

func (s *selfFloat) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	*s = selfFloat(f)
	return err
}

// selfNested holds self-decoding fields below an argument.
type selfNested struct {
	F  probe.Flex  `json:"f"`
	C  probe.Color `json:"c"`
	T  *time.Time  `json:"t"`
	I  int         `json:"i"`
	TT time.Time   `json:"tt"`
	// A map whose key type decodes itself, below an argument.
	MK map[probe.Color]int `json:"mk"`
}

// selfArgs is a tool whose parameters decode themselves, at every kind of
// position.
type selfArgs struct {
	F   probe.Flex             `json:"f"`
	C   probe.Color            `json:"c"`
	T   time.Time              `json:"t"`
	PF  *probe.Flex            `json:"pf"`
	PC  *probe.Color           `json:"pc"`
	LF  []probe.Flex           `json:"lf"`
	MC  map[string]probe.Color `json:"mc"`
	N   selfNested             `json:"n"`
	LN  []selfNested           `json:"ln"`
	V   selfValueRecv          `json:"v"`
	W   selfSpaced             `json:"w"`
	Y   selfTyped              `json:"y"`
	LY  []selfTyped            `json:"ly"`
	Raw json.RawMessage        `json:"raw"`
	I   int                    `json:"i"`
	S   string                 `json:"s"`
	// Under the ,string option: V2 hands the value to the method as sent
	// (and fails on a time.Time); segmentio reads the text inside with the
	// type's codec for a bool, number or string kind (Flex, Color, selfInt,
	// selfBool, selfFloat), and ignores the option for a struct.
	QF  probe.Flex   `json:"qf,string"`
	QC  probe.Color  `json:"qc,string"`
	QI  selfInt      `json:"qi,string"`
	QB  selfBool     `json:"qb,string"`
	QR  selfFloat    `json:"qr,string"`
	PQC *probe.Color `json:"pqc,string"`
	//lint:ignore SA5008 ,string on a type that decodes itself, on purpose
	QT time.Time `json:"qt,string"`
	//lint:ignore SA5008 ,string on a type that decodes itself, on purpose
	QY selfTyped `json:"qy,string"`
	QN struct {
		F probe.Flex `json:"f,string"`
		I selfInt    `json:"i,string"`
		//lint:ignore SA5008 ,string on a type that decodes itself, on purpose
		Y selfTyped `json:"y,string"`
		//lint:ignore SA5008 ,string on a type that decodes itself, on purpose
		T time.Time `json:"t,string"`
	} `json:"qn"`
	// Maps whose key type decodes itself, or is of a string kind with
	// methods (see textKeyRows).
	MK map[probe.Color]int    `json:"mk"`
	MA map[probe.Color]any    `json:"ma"`
	MV map[textValKey]int     `json:"mv"`
	MF map[textFoldKey]int    `json:"mf"`
	MS map[textShownKey]int   `json:"ms"`
	MJ map[textJSONKey]int    `json:"mj"`
	MT map[textNamedKey]int   `json:"mt"`
	MI map[textIntKey]int     `json:"mi"`
	MU map[textTypedKey]int   `json:"mu"`
	MD map[textDotKey]int     `json:"md"`
	MG map[textJSONBadKey]int `json:"mg"`
}

// selfCalls are calls of selfArgs: clean, with losses, and failing, each
// binder's way.
var selfCalls = []string{
	`{"f":1,"c":"teal","t":"2026-01-02T03:04:05Z"}`,
	`{"f":"12","pf":3,"pc":"amber","lf":[1,"2"],"mc":{"a":"teal"}}`,
	`{"f":null}`,
	`{"c":null,"t":null,"pf":null,"pc":null}`,
	`{"f":"x"}`,
	`{"f":true,"c":"teal"}`,
	`{"c":"red"}`,
	`{"c":1}`,
	`{"c":{"a":1}}`,
	`{"t":"yesterday"}`,
	`{"t":1}`,
	`{"t":[1]}`,
	`{"pf":"x","pc":"red"}`,
	`{"lf":[1,"x",2,"y"]}`,
	`{"mc":{"a":"teal","b":"red"}}`,
	`{"mc":{"a":1}}`,
	`{"n":{"f":"x","c":"red"}}`,
	`{"n":{"i":"x","f":"x"}}`,
	`{"n":{"f":"x","i":"x"}}`,
	`{"n":{"t":"no"}}`,
	`{"n":{"t":null,"tt":null}}`,
	`{"n":{"tt":"no","f":1}}`,
	`{"ln":[{"f":1},{"c":"red"},{"f":"x"}]}`,
	`{"v":1}`,
	`{"v":"x"}`,
	`{"v":null}`,
	`{"w":1}`,
	`{"w": 1 }`,
	`{"w":{"a":1}}`,
	`{"w":{"a": 1}}`,
	`{"w":[1, 2]}`,
	`{"y":[1]}`,
	`{"ly":[{},[1]]}`,
	`{"y":1,"ly":[[1]]}`,
	`{"raw":{"a":[1,2]},"raw2":1}`,
	`{"raw":null}`,
	`{"f":"x","i":"y","c":"red","s":1}`,
	`{"i":"y","f":"x"}`,
	`{"zz":1,"f":"x"}`,
	`{"f":"x","f":1}`,
	`{"f":1,"f":"x"}`,
	`{"c":"teal","c":"red"}`,
	`{"c":"te\u0061l"}`,
	"{\"c\":\"te\xffl\"}",
	`{"c":"te\ud800l"}`,
	"{\"f\":\"\xff\"}",
	`{"raw":{"a":1,"a":2}}`,
	`{"f":{"a":1,"a":2}}`,
	`{"n":{"f":{"a":1,"a":2}}}`,
	`{"w":{"a":1,"a":2}}`,
	`{"c":"teal","n":{"c":"teal"},"ln":[{"c":null}]}`,
	`{"qy":[1]}`,
	`{"qy":"[1]"}`,
	`{"qy":1,"qt":"2026-01-02T03:04:05Z"}`,
	`{"qt":null}`,
	`{"qn":{"y":[1]}}`,
	`{"qn":{"t":"x"}}`,
	`{"qn":{"t":null}}`,
	`{"qn":{"t":"2026-01-02T03:04:05Z","y":{}}}`,
}

// selfQuoted are calls of selfArgs with ,string fields of bool, number
// and string kinds that decode themselves: V2 hands the value to the
// method as sent, segmentio the text inside the string (decodeFromString,
// decodeFromStringToInt for an integer kind), each read by the pass.
var selfQuoted = []string{
	`{"qf":1}`,
	`{"qf":"1"}`,
	`{"qf":"\"12\""}`,
	`{"qf":null}`,
	`{"qc":"teal"}`,
	`{"qc":"\"teal\""}`,
	`{"qc":null}`,
	`{"qn":{"f":"x"}}`,
	`{"qn":{"f":"\"1\""}}`,
	`{"qn":{"f":"1"}}`,
	`{"qf":"12 "}`, `{"qf":" 12"}`, `{"qf":"12x"}`, `{"qf":"x"}`, `{"qf":"null"}`, `{"qf":"{}"}`, `{"qf":"[1]"}`, `{"qf":""}`, `{"qf":"-1"}`,
	`{"qc":"\"red\""}`, `{"qc":"\"te\\u0061l\""}`, `{"qc":"\"teal\" "}`, `{"qc":"\"teal\"x"}`, `{"qc":"null"}`, `{"qc":"null "}`,
	`{"qc":1}`, `{"qc":""}`, `{"qc":"\"te\ud800l\""}`, "{\"qc\":\"\\\"te\xffl\\\"\"}", `{"qc":"\"\u00e9\""}`, `{"qc":true}`,
	`{"qi":"1"}`, `{"qi":"01"}`, `{"qi":"-1"}`, `{"qi":"+1"}`, `{"qi":"1.5"}`, `{"qi":"x"}`, `{"qi":"1x"}`, `{"qi":"null"}`, `{"qi":null}`,
	`{"qi":1}`, `{"qi":1.5}`, `{"qi":1e400}`, `{"qi":""}`, `{"qi":"21000000000000000000"}`, `{"qi":"1 "}`, `{"qi":"\"1\""}`, `{"qi":"-x"}`,
	`{"qb":"\"yes\""}`, `{"qb":"\"no\""}`, `{"qb":"\"maybe\""}`, `{"qb":"true"}`, `{"qb":"null"}`, `{"qb":null}`, `{"qb":true}`, `{"qb":"\"yes\" "}`,
	`{"qr":"1.5"}`, `{"qr":"9007199254740993"}`, `{"qr":"x"}`, `{"qr":"null"}`, `{"qr":"1e400"}`, `{"qr":1.5}`, `{"qr":null}`,
	`{"pqc":null}`, `{"pqc":"null"}`, `{"pqc":"\"teal\""}`, `{"pqc":"\"red\""}`, `{"pqc":"null "}`,
	`{"qn":{"i":"1.5"}}`, `{"qn":{"i":"x"}}`, `{"qn":{"i":"-x"}}`, `{"qn":{"i":"1x"}}`, `{"qn":{"i":"\"1\""}}`, `{"qn":{"f":"12","i":"2"}}`,
	`{"qn":{"f":"x","i":"x"}}`, `{"qn":{"i":1.5,"f":"x"}}`, `{"qn":{"i":1e400}}`, `{"qn":{"f":"null"}}`,
	`{"qi":"x","qf":"x","i":"y"}`, `{"i":"y","qc":"\"red\""}`, `{"qc":"\"teal\"","qb":"\"no\"","zz":1}`,
}

// selfQuotedDeclined are calls of selfQuoted segmentio's pass declines:
// a ,string string of a type that decodes itself whose text holds a
// control character, which segmentio reads or not by the call's bytes.
var selfQuotedDeclined = []string{`{"qc":"\"\t\""}`, `{"qf":"\n1"}`}

// selfSegRepeats are the calls of selfCalls the segmentio pass declines
// for a reason of another class.
var selfSegRepeats = map[string]bool{`{"f":"x","f":1}`: true, `{"f":1,"f":"x"}`: true, `{"c":"teal","c":"red"}`: true}

// TestSelfDecoding_Verdicts: for every call of selfCalls, each binder's one
// pass gives a verdict (it declines none), and that verdict is the trial
// check's and fails exactly when the binder fails (checkProven).
func TestSelfDecoding_Verdicts(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[selfArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range slices.Concat(selfCalls, selfQuoted, selfQuotedDeclined) {
			checkProven(t, plan, []byte(args))
			if b == jsonv2.Binder && args == `{"raw":{"a":1,"a":2}}` && reflect.TypeFor[json.RawMessage]().Name() == "Value" {
				continue // under GOEXPERIMENT=jsonv2, json.RawMessage is jsontext.Value, read natively (kRaw), whose repeated names the pass declines
			}
			if b == segmentio.Binder && (selfSegRepeats[args] || slices.Contains(selfQuotedDeclined, args)) {
				continue // a repeated key in a call that fails: segmentio decodes the repeat into what the first left (declined, see nativeDeclines); a control character
			}
			if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok {
				trial, _ := bind.TrialVerdict(plan, []byte(args))
				t.Errorf("%s %.80q: the pass declines; the trial check says %s", b.Name(), args, brief(trial))
			}
		}
	}
}

// selfPanicArgs has fields whose UnmarshalJSON panics on "boom".
type selfPanicArgs struct {
	P  selfPanics   `json:"p"`
	LP []selfPanics `json:"lp"`
	N  struct {
		P  selfPanics           `json:"p"`
		I  int                  `json:"i"`
		MK map[textPanicKey]int `json:"mk"`
	} `json:"n"`
	F  probe.Flex           `json:"f"`
	I  int                  `json:"i"`
	MK map[textPanicKey]int `json:"mk"` // its key type's UnmarshalText panics on "boom"
}

// selfPanicCalls are calls of selfPanicArgs.
var selfPanicCalls = []string{
	`{"p":"boom"}`,
	`{"p":1,"f":"x"}`,
	`{"lp":[1,"boom","boom"]}`,
	`{"n":{"i":1,"p":"boom"}}`,
	`{"n":{"i":"x","p":"boom"}}`,
	`{"n":{"p":"boom","i":"x"}}`,
	`{"f":"x","p":"boom"}`,
	`{"p":"boom","i":"x","lp":["boom"]}`,
	`{"mk":{"a":1,"boom":2}}`,
	`{"mk":{"boom":"x"},"p":"boom"}`,
	`{"mk":{"a":"x","boom":1}}`,
	`{"i":"x","mk":{"boom":1}}`,
	`{"n":{"i":1,"mk":{"boom":1}}}`,
	`{"n":{"mk":{"boom":1},"i":"x"}}`,
}

// TestSelfDecoding_Panics: a method that panics is a *PanicError issue,
// the trial check's (its kind, span, path), wherever the binder itself
// panics on the call (it stops at its first failure before).
func TestSelfDecoding_Panics(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[selfPanicArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range selfPanicCalls {
			trial, trialMembers := bind.TrialVerdict(plan, []byte(args))
			is, ms, ok := bind.NativeVerdict(plan, []byte(args))
			if !ok {
				t.Errorf("%s %.80q: the pass declines; the trial check says %s", b.Name(), args, brief(trial))
				continue
			}
			if !sameIssues(is, trial) || sameMembers(&ms, &trialMembers) != "" {
				t.Errorf("%s %.80q: the pass says %s, the trial check %s", b.Name(), args, brief(is), brief(trial))
			}
			if got := plan.Check([]byte(args), nil); !sameIssues(got, trial) {
				t.Errorf("%s %.80q: Check says %s, the trial check %s", b.Name(), args, brief(got), brief(trial))
			}
			panics := false
			for i, x := range is {
				var pe, want *bind.PanicError
				if errors.As(x.Err, &pe) != errors.As(trial[i].Err, &want) {
					t.Errorf("%s %.80q: issue %d: Err %v, the trial check's %v", b.Name(), args, i, x.Err, trial[i].Err)
				}
				panics = panics || pe != nil
			}
			var v selfPanicArgs
			panicked := func() (p bool) {
				defer func() { p = recover() != nil }()
				_ = b.Unmarshal([]byte(args), &v)
				return false
			}()
			if panicked && !panics {
				t.Errorf("%s %.80q: the binder panics, the pass says %s", b.Name(), args, brief(is))
			}
		}
	}
}

// TestSelfDecoding_HeldToTheBinder holds the pass's verdict on
// self-decoding values to each binder's own decode of the whole call, not
// to the trial check: it fails exactly when the binder fails, lists a null
// lost exactly where the binder leaves the zero value of a value that
// cannot hold null.
func TestSelfDecoding_HeldToTheBinder(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[selfArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range slices.Concat(selfCalls, selfQuoted) {
			is, _, ok := bind.NativeVerdict(plan, []byte(args))
			if !ok {
				continue // TestSelfDecoding_Verdicts says so
			}
			var got selfArgs
			decErr := b.Unmarshal([]byte(args), &got)
			fails := false
			for _, x := range is {
				fails = fails || x.Kind.Class() == bind.BinderFailure
			}
			switch {
			case decErr != nil:
				if !fails {
					t.Errorf("%s %s: the binder fails (%v), the pass says %s", b.Name(), args, decErr, brief(is))
				}
			case fails:
				t.Errorf("%s %s: the binder reads it, the pass says %s", b.Name(), args, brief(is))
			}
		}
	}
	// Nulls: a Color (no UnmarshalText for null) and a time.Time are left
	// zero, a loss; a pointer and a raw value hold null. Under segmentio,
	// a ,string Color's text null too (its codec reads null as without the
	// option).
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, _ := b.Compile(reflect.TypeFor[selfArgs]())
		for _, tc := range []struct {
			args string
			lost bool
			seg  bool // segmentio's only
		}{
			{`{"c":null}`, true, false},
			{`{"t":null}`, true, false},
			{`{"pc":null}`, false, false},
			{`{"raw":null}`, false, false},
			{`{"n":{"t":null}}`, false, false},
			{`{"n":{"tt":null}}`, true, false},
			{`{"qc":null}`, true, true},
			{`{"qc":"null"}`, true, true},
			{`{"qc":"null "}`, true, true},
			{`{"pqc":"null"}`, false, true},
			{`{"pqc":null}`, false, true},
		} {
			if tc.seg && b != segmentio.Binder {
				continue
			}
			var got selfArgs
			if err := b.Unmarshal([]byte(tc.args), &got); err != nil {
				t.Fatalf("%s %s: %v", b.Name(), tc.args, err)
			}
			if tc.lost && !reflect.ValueOf(got).IsZero() {
				t.Fatalf("%s %s: the binder makes something of null: %+v", b.Name(), tc.args, got)
			}
			is, _, ok := bind.NativeVerdict(plan, []byte(tc.args))
			lost := len(is) == 1 && is[0].Kind == bind.NullForValue
			if !ok || lost != tc.lost || !tc.lost && len(is) != 0 {
				t.Errorf("%s %s: the pass says %s (%v), want a null lost: %v", b.Name(), tc.args, brief(is), ok, tc.lost)
			}
		}
	}
}

// selfDecodes reports a type of the tests' vocabulary that decodes itself.
func selfDecodes(t reflect.Type) bool {
	switch t {
	case reflect.TypeFor[probe.Color](), reflect.TypeFor[probe.Flex](), reflect.TypeFor[time.Time](),
		reflect.TypeFor[selfTyped](), reflect.TypeFor[selfSpaced](), reflect.TypeFor[selfValueRecv]():
		return true
	}
	return false
}

// TestSelfDecoding_UnmarshalJSONFrom: V2 reads a type by its
// UnmarshalJSONFrom; its pass decodes the value alone, as the trial check
// does, and gives the trial check's verdict.
func TestSelfDecoding_UnmarshalJSONFrom(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[fromArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"f":1}`, `{"f":"x"}`, `{"f":null}`, `{"l":[1,"x",{}]}`, `{"n":{"f":[1]}}`, `{"i":"x","f":"x"}`, `{"f": 1 ,"l":[ 2 ]}`} {
		checkProven(t, plan, []byte(args))
		if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok {
			trial, _ := bind.TrialVerdict(plan, []byte(args))
			t.Errorf("%.80q: the pass declines; the trial check says %s", args, brief(trial))
		}
	}
}

// fromArgs holds selfFrom values at every depth.
type fromArgs struct {
	F selfFrom   `json:"f"`
	L []selfFrom `json:"l"`
	N struct {
		F selfFrom `json:"f"`
	} `json:"n"`
	I int `json:"i"`
}

// TestStd_UnmarshalJSONFrom: encoding/json reads selfFrom as the struct
// it is, but under GOEXPERIMENT=jsonv2, where it is built on v2 and reads
// it by its UnmarshalJSONFrom; Std's check agrees with it in both builds.
// (Under the experiment it refused {"f":1}, which encoding/json reads.)
func TestStd_UnmarshalJSONFrom(t *testing.T) {
	plan, err := bind.Std.Compile(reflect.TypeFor[fromArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []string{`{"f":1}`, `{"f":"x"}`, `{"f":{"Raw":"x"}}`, `{"l":[1,2]}`, `{"l":[1,"x"]}`, `{"n":{"f":[1]}}`, `{"n":{"f":3}}`, `{"i":"x","f":1}`} {
		checkAgainstStd(t, plan, []byte(args))
	}
}

// TestSelfDecoding_CostGrowsLinearly: a call of 1x, 10x and 100x
// self-decoding values, clean or failing in each, for V2 and SegmentIO:
// the pass gives the verdict, reads each byte once and decodes each value
// at most once, none past its argument's first failure (work: two passes), and allocates per value, a bounded number per
// decode (linear in the values, not more); a call of none allocates
// nothing (TestNative_TypicalCallAllocatesNothing).
func TestSelfDecoding_CostGrowsLinearly(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[selfArgs]())
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range []struct {
			name string
			args func(k int) string
		}{
			{"clean", func(k int) string { return `{"lf":[` + rep(`1,"12"`, 100*k, ",") + `],"i":1}` }},
			{"failing", func(k int) string {
				return `{"ln":[` + rep(`{"f":"x","c":"red","t":"2026-01-02T03:04:05Z"}`, 20*k, ",") + `]}`
			}},
		} {
			var costs []growthCost
			for _, k := range growthScales {
				args := []byte(g.args(k))
				if k == 1 {
					checkProven(t, plan, args)
				}
				if _, _, ok := bind.NativeVerdict(plan, args); !ok {
					t.Fatalf("%s %s %dx: the pass declines", b.Name(), g.name, k)
				}
				w0 := bind.WorkDone()
				plan.Check(args, nil)
				c := growthCost{size: len(args), work: bind.WorkDone() - w0}
				if c.work > 2*int64(len(args))+16*bind.MaxIssues {
					t.Errorf("%s %s %dx: work %d for %d bytes, want two passes", b.Name(), g.name, k, c.work, len(args))
				}
				allocs, bytes := memCost(func() { plan.Check(args, nil) })
				c.allocs, c.bytes = float64(allocs), bytes
				costs = append(costs, c)
			}
			assertLinear(t, costs, growthScales)
		}
	}
}

// TestSelfDecoding_QuotedNumbersAreTheMethods: a ,string field of a number
// kind that decodes itself is read by its method, whatever the binder's
// number rules: segmentio hands the text inside the string to it, so a
// number past the kind's range is not wrapped, nor one past a float's
// precision rounded, by the binder. The verdict (the trial check's and
// the pass's, both, by Check) names no such loss, and segmentio's own
// decode leaves exactly what the method reads from the text.
func TestSelfDecoding_QuotedNumbersAreTheMethods(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[selfArgs]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ args, text string }{
		{`{"qi":"21000000000000000000"}`, "21000000000000000000"},
		{`{"qi":"99999999999999999999999"}`, "99999999999999999999999"},
		{`{"qn":{"i":"18446744073709551616"}}`, "18446744073709551616"},
		{`{"qr":"9007199254740993"}`, "9007199254740993"},
		{`{"qr":"1.00000000000000000000001"}`, "1.00000000000000000000001"},
	} {
		var got selfArgs
		if err := segmentio.Binder.Unmarshal([]byte(tc.args), &got); err != nil {
			t.Fatalf("%s: segmentio fails: %v", tc.args, err)
		}
		var wi selfInt
		var wr selfFloat
		switch {
		case strings.Contains(tc.args, `"qi"`):
			_ = wi.UnmarshalJSON([]byte(tc.text))
			if got.QI != wi {
				t.Errorf("%s: segmentio read %d, the method %d", tc.args, got.QI, wi)
			}
		case strings.Contains(tc.args, `"qn"`):
			_ = wi.UnmarshalJSON([]byte(tc.text))
			if got.QN.I != wi {
				t.Errorf("%s: segmentio read %d, the method %d", tc.args, got.QN.I, wi)
			}
		default:
			_ = wr.UnmarshalJSON([]byte(tc.text))
			if got.QR != wr {
				t.Errorf("%s: segmentio read %v, the method %v", tc.args, got.QR, wr)
			}
		}
		for _, p := range []struct {
			name  string
			check func([]byte) []bind.Issue
		}{
			{"Check", func(b []byte) []bind.Issue { return plan.Check(b, nil) }},
			{"trial check", func(b []byte) []bind.Issue { return bind.TrialCheck(plan, b, nil) }},
		} {
			if is := p.check([]byte(tc.args)); len(is) != 0 {
				t.Errorf("%s %s: the method reads the text, yet %s", p.name, tc.args, brief(is))
			}
		}
	}
}
