package typereg_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/typereg"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

type inner struct {
	Deep  int `json:"deep"`
	Shade int `json:"shade"`
}

type Outer struct {
	Top int `json:"top"`
}

type named struct {
	Tagged   int    `json:"tagged"`
	Untagged string // the binder matches the Go name
	Hidden   int    `json:"-"`
	//lint:ignore SA5008 a key named "-", on purpose
	Dash int `json:"-,"` // a key named "-"
	//lint:ignore U1000 present to show unexported fields are left out
	private int
	Opt     *int  `json:"opt,omitempty"`
	Quoted  int64 `json:"quoted,string"`
	//lint:ignore SA5008 not a valid tag name, on purpose: the Go name is used
	BadName  int    `json:"a\"b"` // not a valid tag name: the Go name is used
	inner           // unexported embedded struct: its fields are promoted
	Outer           // exported embedded struct: promoted
	Shade    string `json:"shade"` // shallower than inner.Shade: wins
	List     []int  `json:"list"`
	Dict     map[string]int
	Anything any `json:"anything"`
	Flat     struct {
		X int `json:"x"`
	} `json:"flat"`
}

func TestRegister_RecordsKeysAsTheBinderMatchesThem(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[named](reg, "t"); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool("t")
	var got []string
	for _, p := range tool.Params() {
		got = append(got, p.Name)
	}
	want := []string{"tagged", "Untagged", "-", "opt", "quoted", badTagKey, "deep", "top", "shade", "list", "Dict", "anything", "flat"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
	// The record must say what encoding/json does with each key: every
	// recorded key binds, by the same field.
	for _, p := range tool.Params() {
		v := reflect.New(tool.Type())
		sample := sampleFor(p.Type)
		if p.Quoted {
			sample = mustQuote(sample)
		}
		raw := `{` + mustQuote(p.Name) + `:` + sample + `}`
		if err := json.Unmarshal([]byte(raw), v.Interface()); err != nil {
			t.Errorf("%s: binder fails: %v", raw, err)
			continue
		}
		if v.Elem().IsZero() {
			t.Errorf("%s: the binder bound no field, yet %q is recorded", raw, p.Name)
		}
	}
}

func mustQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func sampleFor(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Pointer:
		return sampleFor(t.Elem())
	case reflect.String:
		return `"x"`
	case reflect.Slice:
		return `[1]`
	case reflect.Map:
		return `{"k":1}`
	case reflect.Struct:
		return `{"x":1}`
	case reflect.Interface:
		return `1`
	}
	return `7`
}

func TestRegister_ParamDetails(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[named](reg, "t"); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool("t")
	type detail struct {
		GoName                                string
		Quoted, OmitEmpty, Nullable, Required bool
	}
	got := map[string]detail{}
	for _, p := range tool.Params() {
		got[p.Name] = detail{p.GoName, p.Quoted, p.OmitEmpty, p.Nullable, p.Required}
	}
	want := map[string]detail{
		"tagged":   {"Tagged", false, false, false, true},
		"Untagged": {"Untagged", false, false, false, true},
		"-":        {"Dash", false, false, false, true},
		"opt":      {"Opt", false, true, true, false},
		"quoted":   {"Quoted", true, false, false, true},
		badTagKey:  {"BadName", false, false, false, true},
		"deep":     {"inner.Deep", false, false, false, true},
		"top":      {"Outer.Top", false, false, false, true},
		"shade":    {"Shade", false, false, false, true},
		"list":     {"List", false, false, true, true},
		"Dict":     {"Dict", false, false, true, true},
		"anything": {"Anything", false, false, true, true},
		"flat":     {"Flat", false, false, false, true},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
}

type conflict struct {
	A1 `json:""`
	A2
}
type A1 struct{ Same int }
type A2 struct{ Same int }

func TestRegister_ConflictingNamesAreDroppedLikeTheBinderDrops(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[conflict](reg, "t"); err != nil {
		t.Fatal(err)
	}
	tool, _ := reg.Tool("t")
	if len(tool.Params()) != 0 {
		t.Errorf("params = %v, want none: two embedded Same fields at one depth cancel out", tool.Accepted())
	}
}

type withChan struct {
	OK   int      `json:"ok"`
	Feed chan int `json:"feed"`
}
type withFunc struct{ Hook func() }
type withComplex struct{ Z []complex128 }
type withIface struct{ E error }
type withBadMap struct{ M map[bool]int }

type hidden struct{ X int }
type withUnsettable struct {
	*hidden
}

func TestRegister_RefusesFieldsTheBinderCannotDecodeInto(t *testing.T) {
	reg := typereg.New()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"not a struct", typereg.Register[int](reg, "x"), "must be a struct"},
		{"chan", typereg.Register[withChan](reg, "x"), "field Feed"},
		{"func", typereg.Register[withFunc](reg, "x"), "field Hook"},
		{"complex in a list", typereg.Register[withComplex](reg, "x"), "field Z.[]"},
		{"interface with methods", typereg.Register[withIface](reg, "x"), "field E"},
		{"map with bool keys", typereg.Register[withBadMap](reg, "x"), "field M"},
		{"unsettable embedded pointer", typereg.Register[withUnsettable](reg, "x"), "field hidden.X"},
		{"no name", typereg.Register[named](reg, ""), "needs a name"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, tc.err, tc.want)
		}
	}
	if _, ok := reg.Tool("x"); ok {
		t.Error("a failed registration left a record")
	}
}

type selfDecoding struct{ A int }

func (*selfDecoding) UnmarshalJSON([]byte) error { return nil }

func TestRegister_RefusesAStructThatDecodesItself(t *testing.T) {
	err := typereg.Register[selfDecoding](typereg.New(), "x")
	if err == nil || !strings.Contains(err.Error(), "decodes itself") {
		t.Errorf("err = %v", err)
	}
}

// TestSchemaCensus is the census: for every tool the tests register, every
// recorded parameter is a property of the advertised schema, and every
// property is a recorded parameter; the root is closed.
func TestSchemaCensus(t *testing.T) {
	reg := typereg.New()
	mustRegister(t, typereg.Register[named](reg, "named"))
	mustRegister(t, typereg.Register[conflict](reg, "conflict"))
	mustRegister(t, typereg.Register[probe.Args](reg, probe.Tool))
	mustRegister(t, typereg.Register[jsonschemaHidden](reg, "hidden"))
	for _, tool := range reg.Tools() {
		var props []string
		for p := tool.Schema().Properties.Oldest(); p != nil; p = p.Next() {
			props = append(props, p.Key)
		}
		if diff := cmp.Diff(tool.Accepted(), props, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: params vs schema properties (-params +schema):\n%s", tool.Name(), diff)
		}
		if b, _ := json.Marshal(tool.Schema().AdditionalProperties); string(b) != "false" {
			t.Errorf("%s: root additionalProperties = %s, want false", tool.Name(), b)
		}
		for _, p := range tool.Params() {
			if p.Schema() == nil {
				t.Errorf("%s.%s: no property schema recorded", tool.Name(), p.Name)
			}
		}
		var required []string
		for _, p := range tool.Params() {
			if p.Required {
				required = append(required, p.Name)
			}
		}
		if diff := cmp.Diff(required, tool.Schema().Required, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: required (-params +schema):\n%s", tool.Name(), diff)
		}
	}
}

type jsonschemaHidden struct {
	Shown  int `json:"shown"`
	Secret int `json:"secret" jsonschema:"-"` // the binder still binds it
}

func TestSchema_IsClosedJSON(t *testing.T) {
	reg := typereg.New()
	mustRegister(t, typereg.Register[jsonschemaHidden](reg, "t"))
	tool, _ := reg.Tool("t")
	b, err := json.Marshal(tool.Schema())
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["type"] != "object" || got["additionalProperties"] != false {
		t.Errorf("schema = %s, want a closed object", b)
	}
	if _, ok := got["$schema"]; ok {
		t.Errorf("schema = %s: the input schema of a tool carries no $schema", b)
	}
}

func mustRegister(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRegistry_ReplaceAndRemove(t *testing.T) {
	reg := typereg.New()
	mustRegister(t, typereg.Register[named](reg, "t"))
	mustRegister(t, typereg.Register[jsonschemaHidden](reg, "t"))
	tool, ok := reg.Tool("t")
	if !ok || tool.Type() != reflect.TypeFor[jsonschemaHidden]() {
		t.Fatalf("after re-registering, Tool = %v, %v", tool, ok)
	}
	if !reg.Remove("t") || reg.Remove("t") {
		t.Error("Remove should report true once, then false")
	}
	if _, ok := reg.Tool("t"); ok {
		t.Error("removed tool still recorded")
	}
}

func TestRegistry_ConcurrentReadsSeeWholeRecords(t *testing.T) {
	reg := typereg.New()
	mustRegister(t, typereg.Register[named](reg, "t"))
	var wg sync.WaitGroup
	for g := 0; g < 4; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 200; i++ {
				tool, ok := reg.Tool("t")
				if !ok {
					continue
				}
				if len(tool.Params()) != tool.Schema().Properties.Len() {
					t.Errorf("a mixed record: %d params, %d properties", len(tool.Params()), tool.Schema().Properties.Len())
					return
				}
			}
		}()
	}
	for i := 0; i < 50; i++ {
		if i%2 == 0 {
			mustRegister(t, typereg.Register[jsonschemaHidden](reg, "t"))
		} else {
			mustRegister(t, typereg.Register[named](reg, "t"))
		}
		if i%7 == 0 {
			reg.Remove("t")
		}
	}
	wg.Wait()
}
