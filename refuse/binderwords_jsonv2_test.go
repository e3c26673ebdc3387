//go:build goexperiment.jsonv2

package refuse_test

// jsonv2Build reports a build with GOEXPERIMENT=jsonv2.
const jsonv2Build = true
