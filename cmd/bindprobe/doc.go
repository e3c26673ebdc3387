// Command bindprobe runs a value table against encoding/json and the guard,
// and says where they part.
//
// Each row of the table names a Go type and a JSON value. bindprobe sends
// the value, as the only argument of a call, to the probe tool (one
// parameter of each type in the vocabulary: int int8 int16 int32 int64 uint
// uint8 uint16 uint32 uint64 float32 float64 bool string *int *bool *string
// *float64 []int []string []*int [2]int map[string]int map[int]string
// []byte json.Number json.RawMessage any time.Time time.Duration *time.Time
// Nested *Nested Color Flex IntString []Color), once to the binder, which
// decodes it into the tool's parameter struct, and once to the guard
// (refuse.Refuse). The two agree on a row when the guard refuses it exactly
// when the binder fails on it.
//
// Usage:
//
//	bindprobe [-table FILE] [-json] [-binder std]
//
// With no flags, bindprobe runs the default table (bindtest.Default) and
// prints a readable table, one row per line: type, value, the parameter
// sent, the binder's verdict (reads or fails), the guard's (passes or
// refuses), the row's standing (ok, DISAGREE or UNEXPECTED) and the
// refusal's sentences (the list of accepted parameters that ends every
// refusal is left out; -json has the whole text). Long cells are cut and
// unprintable characters escaped. The faults of every row that does not
// hold follow the table, then a summary.
//
// The flags are:
//
//	-table FILE
//		Run the rows of FILE instead: a JSON array of rows such as
//		{"type": "int32", "value": 3000000000, "refused": true, "says": "too large"}
//		where value is any JSON value, kept as its exact text, and refused,
//		says and why are optional. A row with refused expects that verdict
//		from both the binder and the guard, and a refusal holding says; a
//		row without it expects only that the two agree.
//	-json
//		Print one JSON document instead of the readable table:
//		{"binder": "std", "rows": [...], "summary": {"rows": N, "agree": N,
//		"disagree": N, "unexpected": N}}. Each row has type, value (the raw
//		JSON value), argument (the probe parameter sent), binder_ok,
//		binder_error, refused, message (the refusal's text), agree,
//		expected (the row's refused, left out when it gave none),
//		unexpected, and faults (in words, left out when there are none).
//	-binder NAME
//		The binder to mirror. Only std (encoding/json, version 1) exists.
//
// A row disagrees when the guard refuses a value the binder reads, or
// passes one it fails on. A row is unexpected when the binder's or the
// guard's verdict differs from the row's refused, or when a refusal does
// not name the argument, hold the row's says or quote the value.
//
// Exit status: 0 when every row agrees and none is unexpected; 1 when any
// row disagrees or is unexpected; 2 when bindprobe cannot run the table (a
// bad flag, an unknown binder, a table file that cannot be read or is
// malformed, a row whose type the probe tool has no parameter of); the
// error names the row.
package main
