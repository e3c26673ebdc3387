package bind_test

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// Positions the proving compile declines, each a way the clean mode reads
// (see bind/clean.go): maps of keys V2 reads by rules of its own, named
// bytes, ,string options the pass does not port, an interface with
// methods.
type (
	cleanByte   uint8
	cleanKey    int
	cleanStruct struct {
		X float32 `json:"x"`
		Y int     `json:"y"`
	}
	cleanFloatKeys map[float64]float32
)

func (k cleanKey) String() string { return fmt.Sprint(int(k)) }

type cleanArgs struct {
	FM  map[float64]float32      `json:"fm"`
	FS  map[float64]*cleanStruct `json:"fs"`
	BM  map[bool]int             `json:"bm"`
	KM  map[cleanKey]float32     `json:"km"`
	PFM *cleanFloatKeys          `json:"pfm"`
	LFM []cleanFloatKeys         `json:"lfm"`
	NB  []cleanByte              `json:"nb"`
	NBA [3]cleanByte             `json:"nba"`
	QN  json.Number              `json:"qn,string"`
	QS  string                   `json:"qs,string"`
	QB  bool                     `json:"qb,string"`
	PQS *string                  `json:"pqs,string"`
	I   fmt.Stringer             `json:"i"`
	N   int                      `json:"n"`
}

// cleanV2Args and cleanSegArgs are cleanArgs' fields V2 and segmentio
// compile, for the native fuzz targets (nativeFixed).
type (
	cleanV2Args struct {
		FM  map[float64]float32      `json:"fm"`
		FS  map[float64]*cleanStruct `json:"fs"`
		KM  map[cleanKey]float32     `json:"km"`
		PFM *cleanFloatKeys          `json:"pfm"`
		NB  []cleanByte              `json:"nb"`
		NBA [3]cleanByte             `json:"nba"`
		QN  json.Number              `json:"qn,string"`
		QS  string                   `json:"qs,string"`
		PQS *string                  `json:"pqs,string"`
		N   int                      `json:"n"`
	}
	cleanSegArgs struct {
		KM  map[cleanKey]float32 `json:"km"`
		NB  []cleanByte          `json:"nb"`
		NBA [3]cleanByte         `json:"nba"`
		QN  json.Number          `json:"qn,string"`
		QB  bool                 `json:"qb,string"`
		PQS *string              `json:"pqs,string"`
		N   float32              `json:"n"`
	}
)

// cleanValues are calls of cleanArgs: each binder reads some and fails on
// others, and those it reads hold losses or none.
var cleanValues = []string{
	`{}`, `{"fm":null}`, `{"fm":{}}`, `{"fm":{"1.5":1}}`, `{"fm":{"1":16777217}}`, `{"fm":{"1":null,"2":3}}`,
	`{"fm":{"x":1}}`, `{"fm":{"1":"a"}}`, `{"fm":{"1":1,"1.0":2}}`, `{"fm":[1]}`,
	`{"fs":{"1":{"x":16777217,"y":1,"z":2}}}`, `{"fs":{"1":null,"2":{"y":null}}}`,
	`{"bm":{"true":1}}`, `{"bm":{"x":1}}`,
	`{"km":{"1":16777217,"2":null}}`, `{"km":{"1":1,"01":2}}`, `{"km":{"x":1}}`,
	`{"pfm":null}`, `{"pfm":{"1":16777217}}`, `{"lfm":[{"1":null},null,{"2":16777217}]}`,
	`{"nb":null}`, `{"nb":"AAEC"}`, `{"nb":[1,2,null]}`, `{"nb":"!"}`,
	`{"nba":null}`, `{"nba":"AAEC"}`, `{"nba":[1,2,3]}`, `{"nba":[1,null,3,4]}`, `{"nba":[1]}`,
	`{"qn":null}`, `{"qn":"1"}`, `{"qn":"\"1\""}`, `{"qn":1}`,
	`{"qs":null}`, `{"qs":"\"x\""}`, `{"qs":"x"}`, `{"qs":"null"}`,
	`{"qb":null}`, `{"qb":"true"}`, `{"qb":true}`, `{"pqs":null}`, `{"pqs":"\"x\""}`, `{"pqs":"null"}`,
	`{"i":null}`, `{"i":1}`, `{"n":1,"fm":{"1":null},"n":null}`, `{"fm":{"1":null},"zz":1,"n":16777217.5}`,
}

// TestClean_DeclinedPositions: each binder's Check, on a call of
// cleanArgs (or of the struct without the fields it cannot decode), is the
// trial check's, and on a call the binder reads the clean mode's too
// (checkProven); every call the binder reads and the pass declines the
// clean mode decides.
func TestClean_DeclinedPositions(t *testing.T) {
	for _, b := range []bind.Binder{jsonv2.Binder, segmentio.Binder} {
		typ := compilable(t, b, reflect.TypeFor[cleanArgs]())
		plan, err := b.Compile(typ)
		if err != nil {
			t.Fatalf("%s: %v", b.Name(), err)
		}
		decided := 0
		for _, args := range cleanValues {
			checkProven(t, plan, []byte(args))
			if _, _, proved := bind.NativeVerdict(plan, []byte(args)); proved {
				continue
			}
			if b.Unmarshal([]byte(args), reflect.New(typ).Interface()) != nil {
				continue
			}
			if _, _, ok := bind.CleanVerdict(plan, []byte(args)); !ok {
				t.Errorf("%s %s: the binder reads it, and the pass and the clean mode decline it", b.Name(), args)
			}
			decided++
		}
		t.Logf("%s: %v, %d calls the pass declines decided by the clean mode", b.Name(), typ, decided)
		if decided == 0 {
			t.Errorf("%s: no call went to the clean mode", b.Name())
		}
	}
}

// TestClean_FixedTypesCompile: the native fuzz targets' clean types
// (nativeFixed) compile under the binder each is for, so that the targets
// read their declined positions.
func TestClean_FixedTypesCompile(t *testing.T) {
	if _, err := jsonv2.Binder.Compile(reflect.TypeFor[cleanV2Args]()); err != nil {
		t.Error(err)
	}
	if _, err := segmentio.Binder.Compile(reflect.TypeFor[cleanSegArgs]()); err != nil {
		t.Error(err)
	}
}

// compilable returns struct type t without the fields binder b cannot
// compile (each alone, in a struct of its own).
func compilable(t *testing.T, b bind.Binder, typ reflect.Type) reflect.Type {
	t.Helper()
	var fields []reflect.StructField
	for i := range typ.NumField() {
		f := typ.Field(i)
		one := reflect.StructOf([]reflect.StructField{f})
		if _, err := b.Compile(one); err != nil {
			t.Logf("%s: field %s left out: %v", b.Name(), f.Name, err)
			continue
		}
		fields = append(fields, f)
	}
	return reflect.StructOf(fields)
}

// TestClean_CostGrowsLinearly: a call the pass declines and the binder
// reads, read by the clean mode, costs Check work and memory in proportion
// to its size (besides the binder's own decode of it), at 1x, 10x and 100x:
// maps of keys V2 reads by rules of its own and maps of a key type with
// methods segmentio reads as integers, each value lossy, with a named
// byte list beside them.
func TestClean_CostGrowsLinearly(t *testing.T) {
	entries := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			v := "16777217"
			if i%2 == 1 {
				v = "null"
			}
			fmt.Fprintf(&b, `"%d":%s`, i, v)
		}
		return b.String()
	}
	bytesList := func(n int) string { return strings.TrimSuffix(strings.Repeat("7,", n), ",") }
	shapes := []struct {
		b    bind.Binder
		typ  reflect.Type
		args func(k int) string
	}{
		{jsonv2.Binder, reflect.TypeFor[cleanV2Args](), func(k int) string {
			return `{"fm":{` + entries(200*k) + `},"pfm":{` + entries(100*k) + `},"nba":[1,null,3],"n":1}`
		}},
		{segmentio.Binder, reflect.TypeFor[cleanSegArgs](), func(k int) string {
			return `{"km":{` + entries(200*k) + `},"nb":[` + bytesList(300*k) + `],"qn":"1","n":16777217}`
		}},
	}
	for _, sh := range shapes {
		plan, err := sh.b.Compile(sh.typ)
		if err != nil {
			t.Fatal(err)
		}
		scales := growthScales
		if testing.Short() {
			scales = scales[:2]
		}
		var costs []growthCost
		for _, k := range scales {
			args := []byte(sh.args(k))
			if _, _, proved := bind.NativeVerdict(plan, args); proved {
				t.Fatalf("%s %dx: the pass decides it; the test wants a call it declines", sh.b.Name(), k)
			}
			if err := sh.b.Unmarshal(args, reflect.New(sh.typ).Interface()); err != nil {
				t.Fatalf("%s %dx: the binder fails on it (%v); the test wants a call it reads", sh.b.Name(), k, err)
			}
			if _, _, ok := bind.CleanVerdict(plan, args); !ok {
				t.Fatalf("%s %dx: the clean mode declines it", sh.b.Name(), k)
			}
			costs = append(costs, measureCheck(plan, args))
		}
		for i, c := range costs {
			t.Logf("%s %dx: %d bytes, %d issues: work %d (%.2f/byte), %v allocations, %d bytes allocated",
				sh.b.Name(), scales[i], c.size, c.issues, c.work, float64(c.work)/float64(c.size), c.allocs, c.bytes)
		}
		assertLinear(t, costs, scales)
	}
}

// TestClean_RequiredFieldsInDeclinedPositions: a struct read through a
// declined position (a V2 map of float keys) whose fields are required
// (Plan.WithRequired) has its missing fields listed by the clean mode, as
// by the trial check (FuzzNativeValues' 6449992cf730c7a8, under
// GOEXPERIMENT=jsonv2: a ,string struct V2 reads as without the option).
func TestClean_RequiredFieldsInDeclinedPositions(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[cleanV2Args]())
	if err != nil {
		t.Fatal(err)
	}
	plan = plan.WithRequired(nil, func(t reflect.Type) []string {
		if t == reflect.TypeFor[cleanStruct]() {
			return []string{"x"}
		}
		return nil
	})
	for _, args := range []string{`{"fs":{"1":{"y":1}}}`, `{"fs":{"1":{"x":1},"2":{}}}`, `{"fs":{"1":null}}`} {
		checkProven(t, plan, []byte(args))
	}
	issues := plan.Check([]byte(`{"fs":{"1":{"y":1}}}`), nil)
	if len(issues) != 1 || issues[0].Kind != bind.MissingField {
		t.Errorf(`{"fs":{"1":{"y":1}}}: %s, want one missing_field`, brief(issues))
	}
}

// FuzzClean_AnyCallNoPanic: the clean mode, meant for calls the binder
// reads (declinedCheck runs it only then), asked of any call of
// FuzzNativeValues's shapes, broken ones included, under V2 and segmentio
// (Std's plan has no clean mode: its pass is the verdict), returns a
// verdict or declines, and never panics: a mode misused must not take the
// host down. (It found replaces reading a ,string field's text that was
// no whole token.)
func FuzzClean_AnyCallNoPanic(f *testing.F) {
	f.Add([]byte{0}, []byte{})
	f.Add([]byte{1, 18, 2, 0, 8, 1, 8}, []byte{1, 40, 0})
	f.Add([]byte{70, 2, 2, 200, 3, 1, 9, 4, 0}, []byte{0, 0, 7, 1, 12, 6})
	f.Fuzz(func(t *testing.T, shape, choices []byte) {
		forEachPlan(shape, choices, func(b bind.Binder, plan *bind.Plan, args []byte) {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("%s, %v, %q: the clean mode panicked: %v", b.Name(), plan.Type(), args, r)
				}
			}()
			bind.CleanVerdict(plan, args)
		})
	})
}
