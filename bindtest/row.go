package bindtest

import (
	"bytes"
	_ "embed"
	"slices"
	"sync"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/bindcap"
)

// A Row is one value sent for a parameter of one Go type, and what the
// binder and the guard do with it.
type Row struct {
	// Type names the parameter's Go type as reflect's Type.String writes
	// it, except that a named type declared in the package of the tool's
	// parameter struct is written without its package qualifier (Nested,
	// *Nested, []Color); any, interface{} and byte may stand for
	// interface {} and uint8.
	Type string
	// Value is the value sent, as raw JSON text, so that its digits and
	// escapes reach the binder exactly as written.
	Value string
	// Refused says whether the binder fails on the value, and so whether
	// the guard must refuse it.
	Refused bool
	// NoVerdict marks a row that states no verdict (a table row without
	// "refused"): Refused is ignored, and the row holds when the binder and
	// the guard agree, whichever way.
	NoVerdict bool
	// Says is a phrase a refusal of the value must contain, such as
	// "which is too large"; empty for none.
	Says string
	// Loss is, for a value the binder reads but changes or drops, the
	// refuse.Code the guard reports for it ("null_for_value",
	// "rounded_number", "unknown_field"...): as a warning under the default
	// policy, in the refusal under Strict. Empty means the guard reports
	// nothing of the kind for the value: a row holds only when the guard
	// reports such a problem exactly when the row names one.
	Loss string
	// Why is the reason the row is in the table, for the people reading it.
	Why string
	// Binder names the binder (bind.Binder's Name) the row's verdict is
	// for. A row without one speaks for every binder, except one that has
	// its own row of the same type and value: binders differ on some values
	// (case, duplicate keys, invalid UTF-8...), and the table says so with a
	// row per binder where they do. Check and Run keep the rows that speak
	// for the registry's binder.
	Binder string
	// Build, with a Binder, names the build the row's verdict is for:
	// BuildJSONv2 for a test binary built with GOEXPERIMENT=jsonv2, under
	// which encoding/json and github.com/go-json-experiment/json are the
	// standard library's encoding/json/v2 and read some values otherwise.
	// Such a row replaces, in that build only, the row of the same binder,
	// type and value; other builds skip it. Empty speaks for every build.
	Build string
}

// BuildJSONv2 is the Row.Build of a row whose verdict is the one of a build
// with GOEXPERIMENT=jsonv2.
const BuildJSONv2 = "jsonv2"

// forBuild reports whether a row of build b speaks in this build.
func forBuild(b string) bool { return b == "" || b == thisBuild }

// ForBinder keeps the rows that speak for binder (a bind.Binder's Name) in
// the running build, in order: of each type and value, its own row for this
// build (Row.Build), else its own row, else the row with no binder. Check and Run apply it; a harness that
// sends rows another way (through an MCP SDK, say) applies it itself.
// Check and Run give a server's own reader (bind.Reader) the rows no binder
// claims, whatever its name: a row speaks for a binder the guard mirrors.
func ForBinder(rows []Row, binder string) []Row {
	// rank: 0 speaks not; 1 every binder; 2 this binder; 3 this binder in this build.
	rank := func(r Row) int {
		switch {
		case !forBuild(r.Build):
			return 0
		case r.Binder == "":
			return 1
		case r.Binder != binder:
			return 0
		case r.Build != "":
			return 3
		}
		return 2
	}
	best := map[[2]string]int{}
	for _, r := range rows {
		k := [2]string{canonical(r.Type), r.Value}
		best[k] = max(best[k], rank(r))
	}
	var out []Row
	for _, r := range rows {
		if n := rank(r); n > 0 && n == best[[2]string{canonical(r.Type), r.Value}] {
			out = append(out, r)
		}
	}
	return out
}

//go:embed table.json
var defaultTable []byte

var parsedDefault = sync.OnceValue(func() []Row {
	rows, err := ReadTable(bytes.NewReader(defaultTable))
	if err != nil {
		panic("bindtest: the default table is malformed: " + err.Error())
	}
	return rows
})

// Default returns a copy of the project's own value table: several hundred
// rows over the vocabulary of types the probe tool declares (every integer
// and float kind, bool, string, pointers, slices, arrays, maps, []byte,
// json.Number, json.RawMessage, any, time.Time, time.Duration, a struct, a
// text enum, a type with its own UnmarshalJSON and a ,string field), each
// with the verdict encoding/json really gives (and, in rows of build
// BuildJSONv2, the one it gives under GOEXPERIMENT=jsonv2). It is the table bindprobe
// runs when given none.
func Default() []Row {
	return slices.Clone(parsedDefault())
}

// rowsBinder is the Row.Binder whose rows speak for b: a mirrored binder's
// name, and none for a server's own reader, which takes the shared rows
// (encoding/json's, whose parameters it takes) whatever it is called.
func rowsBinder(b bind.Binder) string {
	if !bindcap.ReadsLiteral(b) {
		return ""
	}
	return b.Name()
}
