package bind_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
)

// V2's options and types its one pass reads by V2's own rules (see
// bind/v2options.go): the ,string option, time.Duration, json.Number,
// jsontext.Value and [N]byte.

type v2Opts struct {
	I   int     `json:"i,string"`
	U8  uint8   `json:"u8,string"`
	F32 float32 `json:"f32,string"`
	F   float64 `json:"f,string"`
	PI  *int    `json:"pi,string"`
	B   bool    `json:"b,string"`
	S   string  `json:"s,string"`
	PB  *bool   `json:"pb,string"`
	//lint:ignore SA5008 ,string on a slice, on purpose: V2 fails on every value
	SL []int          `json:"sl,string"`
	D  time.Duration  `json:"d"`
	PD *time.Duration `json:"pd"`
	N  json.Number    `json:"n"`
	V  jsontext.Value `json:"v"`
	A  [3]byte        `json:"a"`
	PA *[0]byte       `json:"pa"`
	BS []byte         `json:"bs"`
	MI map[int]string `json:"mi"`
	MU map[uint8]*int `json:"mu"`
	In v2OptsInner    `json:"in"`
	X  int            `json:"x"`
}

type v2OptsInner struct {
	Q  int             `json:"q,string"`
	F  float64         `json:"f,string"`
	D  []time.Duration `json:"d"`
	HB int             `json:"hb,string,case:ignore"`
}

// v2OptVerdicts are calls on v2Opts the pass gives the verdict of, under
// V2, and the kinds it lists; only: "default", a row of this build of
// go-json-experiment alone (see v2OwnStrings).
var v2OptVerdicts = []struct {
	args string
	want []bind.Code
	only string
}{
	// ,string integers and floats.
	{`{"i":"5","u8":"255","f32":"1.5","f":"-2e3","pi":"7","x":1,"in":{"q":"-0","f":"0.5"}}`, nil, ""},
	{`{"i":"\u0031","u8":"0","pi":null,"f":"1E-400"}`, nil, ""},
	{`{"i":"007"}`, []bind.Code{kWrong}, ""},
	{`{"i":"1.5"}`, []bind.Code{kNotWhole}, ""},
	{`{"i":"1e2"}`, []bind.Code{kNotWhole}, ""},
	{`{"u8":"256"}`, []bind.Code{kLarge}, ""},
	{`{"u8":"-0"}`, []bind.Code{kSmall}, ""},
	{`{"u8":"-1"}`, []bind.Code{kSmall}, ""},
	{`{"i":"-99999999999999999999"}`, []bind.Code{kSmall}, ""},
	{`{"i":"9223372036854775808"}`, []bind.Code{kLarge}, ""},
	{`{"i":"null"}`, []bind.Code{kWrong}, ""},
	{`{"i":" 1"}`, []bind.Code{kWrong}, ""},
	{`{"i":""}`, []bind.Code{kWrong}, ""},
	{`{"i":"+1"}`, []bind.Code{kWrong}, ""},
	{`{"i":5}`, []bind.Code{kWrong}, ""},
	{`{"i":true}`, []bind.Code{kWrong}, ""},
	{`{"i":{"a":1}}`, []bind.Code{kWrong}, ""},
	{`{"pi":[1]}`, []bind.Code{kWrong}, ""},
	{`{"i":null}`, []bind.Code{kNull}, ""},
	{`{"f32":"1e39"}`, []bind.Code{kLarge}, ""},
	{`{"f":"-1e400"}`, []bind.Code{kSmall}, ""},
	{`{"f":"0x1p3"}`, []bind.Code{kWrong}, ""},
	{`{"f":"NaN"}`, []bind.Code{kWrong}, ""},
	{`{"f":"9007199254740993"}`, []bind.Code{kRounded}, ""},
	{`{"in":{"f":"9007199254740993"}}`, []bind.Code{kRounded}, ""},
	{`{"in":{"q":"1.5"}}`, []bind.Code{kNotWhole}, ""}, // as V2 reads it at any depth (TestV2_QuotedNumberKindIsV2s)
	{`{"in":{"q":"300000000000000000000"}}`, []bind.Code{kLarge}, ""},
	{`{"in":{"q":5}}`, []bind.Code{kWrong}, ""},
	{`{"in":{"HB":"5"}}`, []bind.Code{bind.FoldedKey}, ""},
	{`{"i":"\ud800"}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"i":"x","u8":"300","zz":1}`, []bind.Code{kWrong, kLarge, kUnknown}, ""},
	// ,string on other kinds: go-json-experiment fails on every value.
	{`{"b":true}`, []bind.Code{bind.InvalidValue}, "default"},
	{`{"b":null}`, []bind.Code{bind.InvalidValue}, "default"},
	{`{"pb":null}`, nil, "default"},
	{`{"pb":"true"}`, []bind.Code{bind.InvalidValue}, "default"},
	{`{"s":"x"}`, []bind.Code{bind.InvalidValue}, "default"},
	{`{"sl":[1,{"a":"b"}]}`, []bind.Code{bind.InvalidValue}, "default"},
	// time.Duration with no format: V2 fails on every value.
	{`{"d":1}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"d":"1s"}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"d":null}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"pd":null}`, nil, ""},
	{`{"pd":[1]}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"in":{"d":[1,2]}}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"in":{"d":[]}}`, nil, ""},
	// json.Number: a string type to go-json-experiment.
	{`{"n":"x"}`, nil, "default"},
	{`{"n":5}`, []bind.Code{kWrong}, "default"},
	{`{"n":null}`, []bind.Code{kNull}, "default"},
	// jsontext.Value: any valid value, kept raw.
	{`{"v":{"a":[1,"x",null]}}`, nil, ""},
	{`{"v":null}`, nil, ""},
	// [N]byte: base64 of exactly N bytes.
	{`{"a":"AAEC","pa":""}`, nil, ""},
	{`{"a":"\u0041AEC"}`, nil, ""},
	{`{"a":"AAE="}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"a":"AAECAA=="}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"a":"AAE"}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"a":"AA\nEC"}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"a":"AA=C"}`, []bind.Code{bind.InvalidValue}, ""},
	{"{\"a\":\"AAE\xc3\xa9\"}", []bind.Code{bind.InvalidValue}, ""},
	{`{"a":[1,2,3]}`, []bind.Code{kWrong}, ""},
	{`{"a":1}`, []bind.Code{kWrong}, ""},
	{`{"a":null}`, []bind.Code{kNull}, ""},
	{`{"pa":"AA=="}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"bs":"","a":"AAEC"}`, nil, ""},
	{`{"bs":"AAECAwQ="}`, nil, ""},
	{`{"bs":null}`, nil, ""},
	{`{"bs":"AAE"}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"bs":"AA==\n"}`, []bind.Code{bind.InvalidValue}, ""},
	{`{"bs":[1,2]}`, []bind.Code{kWrong}, ""},
	{`{"bs":true}`, []bind.Code{kWrong}, ""},
	// Maps of integer keys: V2 reads a key as a ,string integer.
	{`{"mi":{"1":"a","-5":"b","0":"c","9223372036854775807":"d","\u0032":"e"},"mu":{"255":1,"0":null}}`, nil, ""},
	{`{"mi":{"01":"a"}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mi":{"+1":"a"}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mi":{"null":"a"}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mi":{"1.0":"a"}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mi":{" 1":"a"}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mi":{"9223372036854775808":"a"}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mu":{"-0":1}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mu":{"256":1,"x":2}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mi":{"1":5}}`, []bind.Code{kWrong}, ""},
	{`{"mi":{"1":"a","x":"b"},"mu":{"1":"x"}}`, []bind.Code{bind.InvalidKey, kWrong}, ""},
	{`{"mi":{"x":"a","2":5}}`, []bind.Code{bind.InvalidKey}, ""},
	// V2 skips the value of a key it fails on, validating its text and
	// names alone: no issue of its own.
	{`{"mi":{"x":5}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mi":{"x":{"a":[1,2,{"b":null}]}}}`, []bind.Code{bind.InvalidKey}, ""},
	{`{"mi":{"1":"a","x":[true,"\u00e9"]},"mu":{"x":9007199254740993}}`, []bind.Code{bind.InvalidKey, bind.InvalidKey}, ""},
}

// TestNative_V2Options: the pass gives the verdict of each row under V2,
// the trial check's (checkProven), with the kinds the row wants.
func TestNative_V2Options(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[v2Opts]())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range v2OptVerdicts {
		if tc.only == "default" && !v2OwnStrings {
			continue
		}
		args := []byte(tc.args)
		checkProven(t, plan, args)
		got, _, ok := bind.NativeVerdict(plan, args)
		if !ok {
			t.Errorf("%.60q: the pass declines (trial: %v)", tc.args, kindsOf(bind.TrialCheck(plan, args, nil)))
			continue
		}
		if kinds := kindsOf(got); !slices.Equal(kinds, tc.want) {
			t.Errorf("%.60q: %v, want %v", tc.args, kinds, tc.want)
		}
	}
}
