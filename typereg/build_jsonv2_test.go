//go:build goexperiment.jsonv2

package typereg_test

// badTagKey is the key encoding/json binds to the field tagged `json:"a\"b"`
// under GOEXPERIMENT=jsonv2: v2's tag parser reads the identifier "a" and
// drops the rest (an error encoding/json's legacy mode ignores).
const badTagKey = "a"

// stdRefusesInline: under GOEXPERIMENT=jsonv2 encoding/json reads the
// inline tag option as encoding/json/v2 does, which the guard's mirror of
// encoding/json does not follow: Register refuses the field rather than
// judge it by another rule (bind's stdTagUnsupported).
const stdRefusesInline = true
