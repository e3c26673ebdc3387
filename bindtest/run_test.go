package bindtest_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/internal/probe"
	"github.com/bindguard/bindguard/typereg"
)

// recorder is a testing.TB that records what Run and Census report, so a
// test can require them to fail. Any method it does not define panics (its
// embedded TB is nil), so an unexpected use shows.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper()           {}
func (r *recorder) Error(args ...any) { r.errors = append(r.errors, fmt.Sprint(args...)) }
func (r *recorder) Errorf(f string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(f, args...))
}
func (r *recorder) Fatalf(f string, args ...any) {
	r.Errorf(f, args...)
	r.fatal = true
}

// run runs rows through Run on the probe tool and returns what it reported.
func run(t *testing.T, rows ...bindtest.Row) *recorder {
	t.Helper()
	rec := &recorder{}
	bindtest.Run(rec, probeRegistry(t), probe.Tool, rows)
	return rec
}

// wantReported requires exactly n reports, the i-th containing every
// string in contains[i], where runs of space (go-cmp's diff mixes in
// non-breaking ones) match any run of space.
func wantReported(t *testing.T, rec *recorder, contains ...[]string) {
	t.Helper()
	if len(rec.errors) != len(contains) {
		t.Fatalf("got %d reports, want %d:\n%s", len(rec.errors), len(contains), strings.Join(rec.errors, "\n----\n"))
	}
	for i, want := range contains {
		for _, s := range want {
			if !strings.Contains(squeeze(rec.errors[i]), squeeze(s)) {
				t.Errorf("report %d lacks %q:\n%s", i, s, rec.errors[i])
			}
		}
	}
}

func squeeze(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) }), " ")
}

func TestRun_RowThatHolds_ReportsNothing(t *testing.T) {
	rec := run(t,
		bindtest.Row{Type: "int32", Value: "3000000000", Refused: true, Says: "which is too large"},
		bindtest.Row{Type: "int32", Value: "7"},
		bindtest.Row{Type: "[]byte", Value: `"!!!!"`, Refused: true, Says: "base64 text"},
		bindtest.Row{Type: "any", Value: "[1,1e400]", Refused: true},
		bindtest.Row{Type: "interface {}", Value: "1"},
		bindtest.Row{Type: "map[int]string", Value: `{"x":"y"}`, NoVerdict: true},
	)
	wantReported(t, rec)
}

// A row marked read whose value the binder fails on fails both halves, and
// the report shows the go-cmp diff of the verdicts with the binder's error
// and the refusal.
func TestRun_RowMarkedReadThatTheBinderFails_ReportsDiffOfBothHalves(t *testing.T) {
	rec := run(t, bindtest.Row{Type: "int", Value: `"5"`, Refused: false})
	wantReported(t, rec, []string{
		`probe_argument_types.int (int) <- "5"`,
		"the row says the binder reads the value, but it fails: json: cannot unmarshal string",
		"the guard refused a value the row says the binder reads",
		"-want +got",
		"- BinderFails: false, + BinderFails: true,",
		"- Refused: false, + Refused: true,",
		"binder: json: cannot unmarshal",
		"guard: Argument 'int'",
	})
}

// A row marked refused whose value the binder reads fails both halves.
func TestRun_RowMarkedRefusedThatTheBinderReads_ReportsBothHalves(t *testing.T) {
	rec := run(t, bindtest.Row{Type: "float64", Value: "9007199254740993", Refused: true, Says: "too large", Why: "flipped"})
	wantReported(t, rec, []string{
		"(flipped)",
		"the row says the binder fails on the value, but it reads it",
		"the guard passed a value the row says the binder cannot read",
		"- BinderFails: true, + BinderFails: false,",
	})
}

func TestRun_RefusalWithoutTheRowsWords_Reported(t *testing.T) {
	rec := run(t, bindtest.Row{Type: "int8", Value: "300", Refused: true, Says: "which is too small"})
	wantReported(t, rec, []string{
		`the refusal does not say "which is too small"`,
		"- SaysPhrase: true, + SaysPhrase: false,",
		"guard: Argument 'int8' for tool 'probe_argument_types' takes a whole number, and the call sent 300, which is too large.",
	})
}

func TestRun_TypeNoParameterHas_IsAnErrorNamingTheRow_AndOtherRowsStillRun(t *testing.T) {
	rec := run(t,
		bindtest.Row{Type: "int", Value: "1"},
		bindtest.Row{Type: "complex128", Value: "1"},
		bindtest.Row{Type: "probe.Nested", Value: "{}"},
		bindtest.Row{Type: "int", Value: "1.5", Refused: false},
	)
	wantReported(t, rec,
		[]string{"row 2 (complex128 1)", `tool "probe_argument_types" has no parameter of type complex128`, "its types: int, int8"},
		[]string{"row 3 (probe.Nested {})", "no parameter of type probe.Nested", "Nested, *Nested"},
		[]string{"row 4: ", "the row says the binder reads the value, but it fails"},
	)
}

func TestRun_ValueThatIsNotOneJSONValue_IsAnErrorNamingTheRow(t *testing.T) {
	rec := run(t,
		bindtest.Row{Type: "int", Value: "01"},
		bindtest.Row{Type: "int", Value: "1 2"},
		bindtest.Row{Type: "int", Value: ""},
	)
	wantReported(t, rec,
		[]string{"row 1 (int 01): the value is not one JSON value"},
		[]string{"row 2 (int 1 2): the value is not one JSON value"},
		[]string{"row 3 (int ): the value is not one JSON value"},
	)
}

func TestRun_UnregisteredTool_IsFatal(t *testing.T) {
	rec := &recorder{}
	bindtest.Run(rec, probeRegistry(t), "no_such_tool", bindtest.Default())
	if !rec.fatal || len(rec.errors) != 1 || !strings.Contains(rec.errors[0], `tool "no_such_tool" is not registered`) {
		t.Errorf("fatal=%v, reports %q", rec.fatal, rec.errors)
	}
}

// A row without a verdict holds when the guard agrees with the binder,
// whichever way; its refusal must still name the argument and quote it.
func TestRun_RowWithoutVerdict_HoldsWhenBinderAndGuardAgree(t *testing.T) {
	rec := run(t,
		bindtest.Row{Type: "uint", Value: "-0", NoVerdict: true},
		bindtest.Row{Type: "uint", Value: "0", NoVerdict: true},
		bindtest.Row{Type: "uint", Value: "-0", NoVerdict: true, Says: "which is too large"},
	)
	wantReported(t, rec, []string{"row 3: ", `the refusal does not say "which is too large"`})
}

// Rows find their parameter in a tool declared outside the probe package,
// with the package qualifier kept for types from other packages.
type schedule struct {
	At     time.Time       `json:"at"`
	Every  time.Duration   `json:"every"`
	Tags   map[string]any  `json:"tags"`
	Limits []uint16        `json:"limits"`
	Sub    *probe.Nested   `json:"sub"`
	Table  [3][]bool       `json:"table"`
	Bytes  map[int8][]byte `json:"bytes"`
}

func TestRun_TypeNames_AsReflectWritesThem(t *testing.T) {
	reg := typereg.New()
	if err := typereg.Register[schedule](reg, "schedule"); err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	bindtest.Run(rec, reg, "schedule", []bindtest.Row{
		{Type: "time.Time", Value: `"2024-01-02"`, Refused: true, Says: "RFC 3339"},
		{Type: "time.Duration", Value: "5"},
		{Type: "map[string]any", Value: `{"k":[1e400]}`, Refused: true},
		{Type: "map[string]interface{}", Value: `{"k":1}`},
		{Type: "[]uint16", Value: "[65536]", Refused: true, Says: "too large"},
		{Type: "*probe.Nested", Value: `{"a":"x"}`, Refused: true},
		{Type: "[3][]bool", Value: "[[true],null,[1]]", Refused: true, Says: "true or false"},
		{Type: "map[int8][]byte", Value: `{"200":"YQ=="}`, Refused: true},
		{Type: "map[int8][]uint8", Value: `{"-1":"YQ=="}`},
		{Type: "Nested", Value: "{}"},
	})
	wantReported(t, rec, []string{"row 10 (Nested {})", "no parameter of type Nested", "*probe.Nested"})
}
