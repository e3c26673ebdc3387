//go:build !goexperiment.jsonv2

package bindtest

// thisBuild is the Row.Build of this build: none, encoding/json is its own.
const thisBuild = ""
