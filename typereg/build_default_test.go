//go:build !goexperiment.jsonv2

package typereg_test

// badTagKey is the key encoding/json binds to the field tagged `json:"a\"b"`:
// not a valid name, so the Go name.
const badTagKey = "BadName"

// stdRefusesInline: encoding/json reads no inline tag option (the field
// RecInline.Self is a member named Self), so Register takes it.
const stdRefusesInline = false
