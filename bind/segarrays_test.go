package bind_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/probe"
)

// segEmptyArrays has fixed-size arrays of each element kind, at each
// kind of position: segmentio v0.5.4's decodeArray fails on [] for an
// array of one element or more (it hands the element's decoder the ']',
// on which every decoder's inputError is a syntax error), and reads it
// into a [0]T.
type segEmptyArrays struct {
	A   [2]int              `json:"a"`
	P   *[2]string          `json:"p"`
	Z   [0]int              `json:"z"`
	N   [2][1]int           `json:"n"`
	L   [][2]int            `json:"l"`
	M   map[string][1]bool  `json:"m"`
	MI  map[int][1]float64  `json:"mi"`
	T   [1]time.Time        `json:"t"`
	C   [1]probe.Color      `json:"c"`
	F   [1]probe.Flex       `json:"f"`
	R   [1]json.RawMessage  `json:"r"`
	B   [1][]byte           `json:"b"`
	Num [1]json.Number      `json:"num"`
	Any [1]any              `json:"any"`
	D   [1]time.Duration    `json:"d"`
	PP  [1]*int             `json:"pp"`
	S   segEmptyArraysInner `json:"s"`
	X   int                 `json:"x"`
}

type segEmptyArraysInner struct {
	A [2]int `json:"a"`
	X int    `json:"x"`
	Z [0]int `json:"z"`
}

// TestNative_SegmentIOEmptyArray: [] for a fixed-size array is
// segmentio's failure, which names no path (a syntax error): the trial
// check's InvalidValue at the argument's value, where it is the
// argument's first failure; into a [0]T it is read, and its elements are
// dropped (ArrayLength). The pass gives the verdict, the trial check's,
// and the binder fails exactly then (checkProven); V2's verdicts on the
// same calls are held to the trial check too.
func TestNative_SegmentIOEmptyArray(t *testing.T) {
	calls := []string{
		`{"a":[]}`, `{"a":[ ]}`, `{"p":[]}`, `{"z":[]}`, `{"z":[1]}`, `{"z":[ ]}`, `{"n":[]}`, `{"n":[[]]}`, `{"n":[[1],[]]}`,
		`{"l":[[1,2],[]]}`, `{"l":[[],[1,"x"]]}`, `{"m":{"k":[]}}`, `{"m":{"a.b":[]}}`, `{"m":{"":[]}}`, `{"mi":{"1":[]}}`,
		`{"mi":{"x":[]}}`, `{"t":[]}`, `{"c":[]}`, `{"f":[]}`, `{"r":[]}`, `{"b":[]}`, `{"num":[]}`, `{"any":[]}`, `{"d":[]}`,
		`{"pp":[]}`, `{"s":{"a":[]}}`, `{"s":{"x":"y","a":[]}}`, `{"s":{"a":[],"x":"y"}}`, `{"s":{"z":[]}}`, `{"s":{"z":[1,2]}}`,
		`{"a":[],"x":"y"}`, `{"x":"y","a":[]}`, `{"a":[],"zz":1}`, `{"a":[],"a":[1]}`, `{"a":[1],"a":[]}`, `{"a":[],"n":[[]],"l":[[]]}`,
		`{"s":{"a":[1],"a":[]}}`, `{"a":[1,2,3],"s":{"a":[]}}`,
	}
	declines := map[string]bool{ // a repeated key in a call that fails (segmentio may fail on the pair)
		`{"a":[],"a":[1]}`: true, `{"a":[1],"a":[]}`: true, `{"s":{"a":[1],"a":[]}}`: true,
	}
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		plan, err := b.Compile(reflect.TypeFor[segEmptyArrays]())
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range calls {
			checkProven(t, plan, []byte(args))
			if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok && b == segmentio.Binder && !declines[args] {
				trial, _ := bind.TrialVerdict(plan, []byte(args))
				t.Errorf("%s %.80q: the pass declines; the trial check says %s", b.Name(), args, brief(trial))
			}
		}
	}
}
