//go:build !goexperiment.jsonv2

package bind_test

// v2OwnStrings: go-json-experiment fails on ,string for a kind that is no
// number, and reads json.Number as a string type (v2options_jsonv2_test.go
// holds the other build's).
const v2OwnStrings = true
