//go:build !goexperiment.jsonv2

package bind_test

import "github.com/bindguard/bindguard/bind"

// The V2 facts of this build, where V2 is github.com/go-json-experiment/json
// itself (v2build_jsonv2_test.go holds the other build's).

type V2Fields struct {
	HoursBack int    `json:"hours_back,case:ignore"`
	Strict    string `json:"strict_name,case:strict"`
	Plain     bool   `json:"plain"`
	Odd       int    `json:"odd name!"`
	Skipped   int    `json:"-"`
	V2Inner
	Named V2Named `json:",embed"`
}

type v2Fallback struct {
	Limit int            `json:"limit"`
	Rest  map[string]int `json:",embed"`
}

const (
	// v2AmbiguousFails: a key two case:ignore fields fit fails.
	v2AmbiguousFails = true
	// v2FormatByDefault: format: options need ExperimentalGlobalSupportFormatTag.
	v2FormatByDefault = false
)

var v2NumberCase = issueCase{`{"number":5}`, "json.Number is a string type to V2", bind.WrongType, "number", `5`, ""}

// stdUnsupportedTags are tags bind.Std's Compile refuses: none here.
var stdUnsupportedTags []string
