//go:build !goexperiment.jsonv2

package v2dec

import "errors"

// skip is what an unmarshal function returns for V2 to try the next one
// (or its own): github.com/go-json-experiment/json reads
// errors.ErrUnsupported so (arshal_funcs.go). skip_jsonv2.go holds the
// other build's.
var skip = errors.ErrUnsupported

// methodMaySkip: an UnmarshalJSONFrom that returns errors.ErrUnsupported
// having read nothing makes V2 fall back to the type's next
// representation (arshal_methods.go).
const methodMaySkip = true
