package bindtest

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/internal/toolrec"
	"github.com/bindguard/bindguard/typereg"
	"github.com/invopop/jsonschema"
)

// Tools with many kinds of constraint, for the census.
type (
	censusNumbers struct {
		HoursBack int      `json:"hours_back" validate:"min=1,max=168"`
		Limit     int32    `json:"limit,omitempty" validate:"omitempty,min=1,max=100"`
		Offset    *int64   `json:"offset,omitempty" validate:"omitempty,gte=0"`
		Small     int8     `json:"small,omitempty" validate:"gt=-5,lt=5"`
		Count     uint16   `json:"count,omitempty" validate:"omitempty,lte=0x10"`
		Ratio     float64  `json:"ratio,omitempty" validate:"omitempty,gt=0,lt=1"`
		Scale     *float32 `json:"scale,omitempty" validate:"omitempty,min=0.25,max=4"`
		Level     uint     `json:"level,omitempty" validate:"omitempty,oneof=1 2 3"`
		NotZero   int      `json:"not_zero,omitempty" validate:"required"`
		Skip      int      `json:"skip,omitempty" validate:"ne=13"`
		Exact     int      `json:"exact,omitempty" validate:"omitempty,eq=7"`
	}
	censusTexts struct {
		Name   string  `json:"name" validate:"required,max=8"`
		Code   string  `json:"code,omitempty" validate:"omitempty,len=3"`
		Color  string  `json:"color,omitempty" validate:"omitempty,oneof=crimson teal 'dark amber'"`
		Nick   *string `json:"nick,omitempty" validate:"omitempty,min=2,max=4"`
		Word   string  `json:"word,omitempty" validate:"omitempty,gt=1,lt=5"`
		Role   string  `json:"role,omitempty" validate:"ne=admin"`
		Agreed bool    `json:"agreed" validate:"required"`
	}
	censusCollections struct {
		IDs     []int            `json:"ids,omitempty" validate:"omitempty,min=1,max=3,dive,min=1,max=9"`
		Tags    []string         `json:"tags" validate:"required,dive,oneof=a b c"`
		Grid    [][]int          `json:"grid,omitempty" validate:"dive,max=2,dive,ne=0"`
		Weights map[string]int   `json:"weights,omitempty" validate:"omitempty,max=3,dive,gte=0,lte=10"`
		ByID    map[int]string   `json:"by_id,omitempty" validate:"dive,min=1"`
		Ptrs    []*int           `json:"ptrs,omitempty" validate:"dive,gte=2"`
		Lists   map[string][]int `json:"lists,omitempty" validate:"min=1,dive,len=2"`
	}
	censusEmbedded struct {
		censusInner
		Other int `json:"other,omitempty"`
	}
	censusInner struct {
		Depth int `json:"depth,omitempty" validate:"omitempty,min=2,max=3"`
	}
)

func censusRegistry(t *testing.T, opts ...typereg.Option) *typereg.Registry {
	t.Helper()
	reg := typereg.New(opts...)
	for _, err := range []error{
		typereg.Register[censusNumbers](reg, "numbers"),
		typereg.Register[censusTexts](reg, "texts"),
		typereg.Register[censusCollections](reg, "collections"),
		typereg.Register[censusEmbedded](reg, "embedded"),
		typereg.Register[censusNumbers](reg, "numbers_warned", typereg.WithMode(typereg.Warn)),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	return reg
}

// TestConstraints_Agree: for every constrained tool, the published schema,
// the validator and the guard agree on every probe, under every binder.
func TestConstraints_Agree(t *testing.T) {
	for _, b := range []bind.Binder{bind.Std, jsonv2.Binder, segmentio.Binder} {
		t.Run(b.Name(), func(t *testing.T) {
			Constraints(t, censusRegistry(t, typereg.WithBinder(b)))
		})
	}
}

// TestConstraints_ProbesEnough: the census sends each kind of value it
// promises; a census that sent nothing would pass anything.
func TestConstraints_ProbesEnough(t *testing.T) {
	reg := censusRegistry(t)
	tl, _ := reg.Tool("collections")
	p, _ := tl.Param("ids")
	got := probes(p.Type, p.Schema(), tl.Schema().Definitions, levelTags(p.Validate))
	for _, want := range []string{"[]", "[1]", "[1,1,1]", "[1,1,1,1]", "[0]", "[9]", "[10]"} {
		if !strings.Contains(" "+strings.Join(got, " ")+" ", " "+want+" ") {
			t.Errorf("probes of ids %v lack %s", got, want)
		}
	}
	tl, _ = reg.Tool("texts")
	p, _ = tl.Param("name")
	got = probes(p.Type, p.Schema(), tl.Schema().Definitions, levelTags(p.Validate))
	for _, want := range []string{`""`, `"éééééééé"`, `"ééééééééé"`} {
		if !strings.Contains(strings.Join(got, " "), want) {
			t.Errorf("probes of name %v lack %s", got, want)
		}
	}
}

// TestConstraints_CatchesBrokenSchema breaks the agreement on purpose, by
// hand-editing a published bound in the record's own memory (through
// internal/toolrec: a caller of typereg's accessors gets copies, and
// cannot), and by a jsonschema bound with no validate tag: the census must
// name the parameter and the value.
func TestConstraints_CatchesBrokenSchema(t *testing.T) {
	reg := censusRegistry(t)
	recorded := toolrec.ParamSchema.(func(*typereg.Param) *jsonschema.Schema)
	tl, _ := reg.Tool("numbers")
	p, _ := tl.Param("hours_back")
	recorded(&p).Maximum = json.Number("100") // the property in the record's schema too
	tl, _ = reg.Tool("collections")
	p, _ = tl.Param("ids")
	recorded(&p).Items.Minimum = json.Number("0")
	tl, _ = reg.Tool("texts")
	p, _ = tl.Param("color")
	recorded(&p).AnyOf[1].Enum = append(recorded(&p).AnyOf[1].Enum, "violet")
	if err := typereg.Register[struct {
		N int `json:"n,omitempty" jsonschema:"minimum=1"`
	}](reg, "schema_only"); err != nil {
		t.Fatal(err)
	}
	got := strings.Join(constraintFindings(reg), "\n")
	for _, want := range []string{
		`tool "numbers", parameter "hours_back" (validate:"min=1,max=168"), value 101: the published schema refuses it, the validator accepts it, the guard accepts it`,
		`tool "collections", parameter "ids" (validate:"omitempty,min=1,max=3,dive,min=1,max=9"), value [0]: the published schema accepts it, the validator refuses it, the guard refuses it`,
		`tool "texts", parameter "color"`,
		`tool "schema_only", parameter "n" (validate:""), value 0: the published schema refuses it, the validator accepts it, the guard accepts it`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the census does not report\n%s\nit reports\n%s", want, got)
		}
	}
	if strings.Contains(got, `"embedded"`) {
		t.Errorf("the census reports a tool nobody broke:\n%s", got)
	}

	// Constraints itself reports them as test errors.
	rec := &recorder{TB: t}
	Constraints(rec, reg)
	if len(rec.errors) == 0 {
		t.Error("Constraints reported nothing")
	}
}

// recorder is a testing.TB that records errors instead of failing.
type recorder struct {
	testing.TB
	errors []string
}

func (r *recorder) Helper()           {}
func (r *recorder) Error(args ...any) { r.errors = append(r.errors, fmt.Sprint(args...)) }

type (
	censusTree     []censusTree
	censusTreeNode struct {
		V    int              `json:"v"`
		Kids []censusTreeNode `json:"kids,omitempty"`
	}
	censusRecursive struct {
		Forest []censusTree     `json:"forest,omitempty" validate:"max=2"`
		Nodes  []censusTreeNode `json:"nodes,omitempty" validate:"omitempty,min=1,max=2"`
	}
)

// TestConstraints_RecursiveTypes: the census ends on a constrained
// parameter whose elements hold themselves, and finds nothing to report.
func TestConstraints_RecursiveTypes(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[censusRecursive](reg, "recursive"); err != nil {
		t.Fatal(err)
	}
	tl, _ := reg.Tool("recursive")
	p, _ := tl.Param("forest")
	if got := probes(p.Type, p.Schema(), tl.Schema().Definitions, levelTags(p.Validate)); !strings.Contains(strings.Join(got, " "), "[[],[],[]]") {
		t.Errorf("probes of forest %v lack [[],[],[]]", got)
	}
	Constraints(t, reg)
}
