package bindtest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/bindguard/bindguard/typereg"
)

// Run checks each row that speaks for the registry's binder (see
// Row.Binder) against tool, as Check does, and reports every row
// that does not hold: with the binder left alone, it must fail exactly on
// the rows marked Refused; with the guard, exactly those rows must be
// refused, by a refusal that names the argument, contains the row's Says
// and quotes the value. A failure shows the difference between the
// verdict the row wants and the one it got, as a go-cmp diff, with the
// binder's error and the refusal's text.
//
// When t is a *testing.T, each row runs as a subtest named by its type and
// value. A row whose type no parameter of the tool has, or whose value is
// not one JSON value, is a test error naming the row; the other rows still
// run. An unregistered tool is a fatal test error.
func Run(t testing.TB, reg *typereg.Registry, tool string, rows []Row) {
	t.Helper()
	tl, ok := reg.Tool(tool)
	if !ok {
		t.Fatalf("bindtest: tool %q is not registered", tool)
		return
	}
	if schemaTool(tl) {
		t.Fatalf("bindtest: %v", errSchemaTool(tool))
		return
	}
	for i, row := range ForBinder(rows, rowsBinder(reg.Binder())) {
		p, err := paramFor(tl, row)
		if err != nil {
			t.Errorf("bindtest: row %d %s: %v", i+1, rowName(row), err)
			continue
		}
		check := func(t testing.TB) {
			t.Helper()
			res, want, got := checkRow(reg, tl, p, row)
			if want == got {
				return
			}
			var b strings.Builder
			fmt.Fprintf(&b, "row %d: %s.%s (%s) <- %s", i+1, tool, res.Argument, row.Type, short(row.Value, 200))
			if row.Why != "" {
				fmt.Fprintf(&b, " (%s)", row.Why)
			}
			fmt.Fprintf(&b, ": %s\nverdict (-want +got):\n%s", strings.Join(res.Faults, "; "), cmp.Diff(want, got))
			if !res.BinderOK {
				fmt.Fprintf(&b, "binder: %s\n", res.BinderError)
			}
			if res.Refused {
				fmt.Fprintf(&b, "guard: %s\n", res.Message)
			}
			t.Error(strings.TrimSuffix(b.String(), "\n"))
		}
		if tt, ok := t.(*testing.T); ok {
			tt.Run(row.Type+"="+short(row.Value, 32), func(t *testing.T) {
				t.Helper()
				check(t)
			})
		} else {
			check(t)
		}
	}
}

// Census reports, as a test error for each, every parameter of every tool
// in reg whose Go type no row covers (by Row.Type, read as it is for the
// tool that declares the parameter), naming the tool, the parameter and
// the type. A table that passes the census has a row for every type the
// server's tools take.
func Census(t testing.TB, reg *typereg.Registry, rows []Row) {
	t.Helper()
	covered := map[string]bool{}
	for _, row := range rows {
		covered[canonical(row.Type)] = true
	}
	for _, tl := range reg.Tools() {
		if schemaTool(tl) {
			continue // no Go types: its values are the schema's
		}
		for _, p := range tl.Params() {
			if name := typeName(p.Type, tl.Type().PkgPath()); !covered[name] {
				t.Errorf("bindtest: no row covers type %s, of parameter %q of tool %q", display(name), p.Name, tl.Name())
			}
		}
	}
}
