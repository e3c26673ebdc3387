package bind

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Types that decode themselves each way V2 knows, and composites of them.
type (
	v2dText    struct{ s string }
	v2dJSON    int
	v2dFrom    struct{}
	v2dMap     map[int]string
	v2dArray   [2]int
	v2dByteArr [4]v2dByte
	v2dByte    uint8
)

func (t *v2dText) UnmarshalText(b []byte) error              { t.s = string(b); return nil }
func (v2dJSON) UnmarshalJSON([]byte) error                   { return nil }
func (*v2dFrom) UnmarshalJSONFrom(d *jsontext.Decoder) error { return d.SkipValue() }
func (*v2dMap) UnmarshalJSON([]byte) error                   { return nil }
func (*v2dArray) UnmarshalText([]byte) error                 { return nil }

var _ jsonv2.UnmarshalerFrom = (*v2dFrom)(nil)

// v2dArgs holds every type V2 reads by a rule of its own (v2Own) or by a
// method of the type's own or its rule for time.Time (v2Self), bare and
// inside pointers, lists, fixed arrays and maps, beside types the pass
// reads by kind, declines, or reads by V2's rules for arrays and integer
// keys.
type v2dArgs struct {
	T   time.Time                 `json:"t"`
	PT  *time.Time                `json:"pt"`
	ST  []time.Time               `json:"st"`
	AT  [2]time.Time              `json:"at"`
	MT  map[string]time.Time      `json:"mt"`
	D   time.Duration             `json:"d"`
	PD  *time.Duration            `json:"pd"`
	MD  map[int]time.Duration     `json:"md"`
	N   json.Number               `json:"n"`
	SN  []json.Number             `json:"sn"`
	R   json.RawMessage           `json:"r"`
	PR  *json.RawMessage          `json:"pr"`
	V   jsontext.Value            `json:"v"`
	MV  map[string]jsontext.Value `json:"mv"`
	X   v2dText                   `json:"x"`
	PX  *v2dText                  `json:"px"`
	J   v2dJSON                   `json:"j"`
	F   v2dFrom                   `json:"f"`
	CM  v2dMap                    `json:"cm"`
	CA  v2dArray                  `json:"ca"`
	SCA []v2dArray                `json:"sca"`
	BA  [4]byte                   `json:"ba"`
	BS  []byte                    `json:"bs"`
	NBA v2dByteArr                `json:"nba"`
	NBS []v2dByte                 `json:"nbs"`
	I   int                       `json:"i"`
	A   [3]int                    `json:"a"`
	MI  map[int]string            `json:"mi"`
	U   uintptr                   `json:"u"`
	Any any                       `json:"any"`
}

// TestV2Declines_OnlyWhatOwnAndSelfLeave: compiling a V2 plan's positions
// (compiler.fill) asks v2Own, then v2Self, then declines, so declines is
// never asked about a type either of the first two reads: time.Time,
// time.Duration, json.Number (v2Own's string in the default build, a type
// of its own UnmarshalJSONFrom under GOEXPERIMENT=jsonv2: v2Self's),
// json.RawMessage, jsontext.Value or a type V2 reads by a method of its
// own (v2Custom). Were one to reach it, declines, which no longer lists
// them, would say the pass reads it by kind.
func TestV2Declines_OnlyWhatOwnAndSelfLeave(t *testing.T) {
	r := *v2Rules
	asked := map[reflect.Type]bool{}
	r.declines = func(t reflect.Type) bool {
		asked[t] = true
		return v2Rules.declines(t)
	}
	if _, err := compileNodes(V2, &r, reflect.TypeFor[v2dArgs]()); err != nil {
		t.Fatal(err)
	}
	for typ := range asked {
		if typ == goTime || typ == goDuration || typ == goNumber || typ == goRawMessage || isJSONTextValue(typ) || v2Custom(typ) {
			t.Errorf("declines is asked about %v, which v2Own or v2Self should have read", typ)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[v2dArgs](), reflect.TypeFor[int](), reflect.TypeFor[[3]int](), reflect.TypeFor[uintptr](),
		reflect.TypeFor[map[int]string](), reflect.TypeFor[v2dByteArr](), reflect.TypeFor[[]v2dByte](), reflect.TypeFor[[2]time.Time]()} {
		if !asked[typ] {
			t.Errorf("declines is not asked about %v", typ) // the test reaches declines at all
		}
	}
}

// TestSegDeclines_OnlyWhatSelfLeaves: SegmentIO's plan asks segSelf before
// declines, so declines is never asked about time.Time or a type segmentio
// reads by a method of its own (segCustom): segSelf reads them.
func TestSegDeclines_OnlyWhatSelfLeaves(t *testing.T) {
	r := *segRules
	asked := map[reflect.Type]bool{}
	r.declines = func(t reflect.Type) bool {
		asked[t] = true
		return segRules.declines(t)
	}
	if _, err := compileNodes(segmentioBinder{}, &r, reflect.TypeFor[v2dArgs]()); err != nil {
		t.Fatal(err)
	}
	for typ := range asked {
		if typ == goTime || segCustom(typ) {
			t.Errorf("declines is asked about %v, which segSelf should have read", typ)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeFor[v2dArgs](), reflect.TypeFor[int](), reflect.TypeFor[[3]int](), reflect.TypeFor[[2]time.Time]()} {
		if !asked[typ] {
			t.Errorf("declines is not asked about %v", typ) // the test reaches declines at all
		}
	}
}
