//go:build goexperiment.jsonv2

package bindtest

// thisBuild is the Row.Build of this build: encoding/json (and
// github.com/go-json-experiment/json) are built on encoding/json/v2.
const thisBuild = BuildJSONv2
