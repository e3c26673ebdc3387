//go:build goexperiment.jsonv2

package v2dec

import stdv2 "encoding/json/v2"

// Under GOEXPERIMENT=jsonv2, github.com/go-json-experiment/json is an
// alias of the standard library's encoding/json/v2, which (Go 1.26) reads
// only its own sentinel, SkipFunc, as "try the next function"
// (arshal_funcs.go: err != SkipFunc); errors.ErrUnsupported from an
// unmarshal function is a failure there.
var skip = stdv2.SkipFunc

// methodMaySkip: no method may skip in the standard library's v2: the
// error an UnmarshalJSONFrom returns is a failure whatever it is
// (arshal_methods.go: wrapSkipFunc).
const methodMaySkip = false
