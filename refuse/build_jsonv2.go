//go:build goexperiment.jsonv2

package refuse

// numberReadsItself: under GOEXPERIMENT=jsonv2, json.Number reads itself
// (UnmarshalJSONFrom) for V2 too: a JSON number, or a string holding one.
const numberReadsItself = true
