package bindtest

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestForBinder_KeepsOwnRowsAndTheRestOfTheShared(t *testing.T) {
	rows := []Row{
		{Type: "int", Value: `null`},
		{Type: "int", Value: `null`, Binder: "v2", Refused: false, Why: "v2's own"},
		{Type: "int", Value: `1`},
		{Type: "string", Value: `"\ud800"`, Binder: "v2", Refused: true},
		{Type: "string", Value: `"x"`, Binder: "segmentio"},
	}
	got := ForBinder(rows, "v2")
	want := []Row{rows[1], rows[2], rows[3]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("v2 (-want +got):\n%s", diff)
	}
	got = ForBinder(rows, "std")
	want = []Row{rows[0], rows[2]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("std (-want +got):\n%s", diff)
	}
}

func TestReadTable_Binder(t *testing.T) {
	rows, err := ReadTable(strings.NewReader(`[{"type":"int","value":null,"binder":"v2","refused":false}]`))
	if err != nil {
		t.Fatal(err)
	}
	if rows[0].Binder != "v2" {
		t.Errorf("Binder = %q, want v2", rows[0].Binder)
	}
}

// A row of a build replaces, in that build only, the binder's row of the
// same type and value; in another build it is skipped.
func TestForBinder_BuildRowsSpeakInTheirBuildOnly(t *testing.T) {
	rows := []Row{
		{Type: "IntString", Value: `"+5"`, Refused: true},
		{Type: "IntString", Value: `"+5"`, Binder: "std", Build: BuildJSONv2, Why: "jsonv2's"},
		{Type: "int", Value: `1`, Binder: "std", Refused: true, Why: "std's"},
		{Type: "int", Value: `1`, Binder: "std", Build: BuildJSONv2, Why: "std's under jsonv2"},
		{Type: "int", Value: `2`, Binder: "v2", Build: BuildJSONv2},
	}
	want := []Row{rows[0], rows[2]}
	if thisBuild == BuildJSONv2 {
		want = []Row{rows[1], rows[3]}
	}
	if diff := cmp.Diff(want, ForBinder(rows, "std")); diff != "" {
		t.Errorf("ForBinder(std) in build %q (-want +got):\n%s", thisBuild, diff)
	}
	if got := ForBinder(rows, "segmentio"); len(got) != 1 || got[0] != rows[0] {
		t.Errorf("ForBinder(segmentio) = %+v, want the shared row alone", got)
	}
}
