//go:build goexperiment.jsonv2

package bind_test

import "github.com/bindguard/bindguard/bind"

// The V2 facts of a GOEXPERIMENT=jsonv2 build, where V2 is the standard
// library's encoding/json/v2: the inlining option is inline, a key two
// case:ignore fields fit binds the first in breadth-first order, format:
// options are read natively, and json.Number reads itself
// (UnmarshalJSONFrom: a number, or a string holding one).

type V2Fields struct {
	HoursBack int    `json:"hours_back,case:ignore"`
	Strict    string `json:"strict_name,case:strict"`
	Plain     bool   `json:"plain"`
	Odd       int    `json:"odd name!"`
	Skipped   int    `json:"-"`
	V2Inner
	Named V2Named `json:",inline"`
}

type v2Fallback struct {
	Limit int            `json:"limit"`
	Rest  map[string]int `json:",inline"`
}

const (
	v2AmbiguousFails  = false
	v2FormatByDefault = true
)

var v2NumberCase = issueCase{`{"number":"abc"}`, "json.Number reads a string only when it holds a number", bind.InvalidValue, "number", `"abc"`, ""}

// stdUnsupportedTags are tags bind.Std's Compile refuses under the
// experiment: v2 options the native mirror does not follow.
var stdUnsupportedTags = []string{`a,inline`, `a,unknown`, `a,format:unix`, `,format:RFC3339`}
