//go:build goexperiment.jsonv2

package bind_test

// v2OwnStrings: the standard library's v2 reads ,string on bools and
// strings as without it, quotes numbers inside slices, and reads
// json.Number as a number: the pass declines those.
const v2OwnStrings = false
