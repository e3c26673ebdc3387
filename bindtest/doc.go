// Package bindtest is the value table for a server's own tests: rows of
// (Go type, JSON value, verdict), and a runner that checks both halves of
// each row against a registered tool.
//
// # Rows
//
// A Row names a parameter type (Row.Type, as reflect writes it, less the
// package qualifier of the tool's own types), a value as raw JSON text, and
// whether encoding/json refuses it (Row.Refused), with a phrase a refusal
// must say (Row.Says), and, for a value the binder reads but changes or
// drops, the code the guard reports for it (Row.Loss: null_for_value,
// rounded_number...). The runner finds the first parameter of the tool
// whose type the row names and sends the call {"<parameter>": <value>}.
//
// # Two halves
//
// The binder half decodes the call with the registry's binder into a fresh
// value of the tool's parameter struct: it must fail exactly on the rows
// marked refused. That half states what the binder does, so a row that
// fails it is a wrong row (or a changed binder). The guard half sends the
// call to refuse.Decide: it must refuse exactly the same rows, with a
// refusal that names the argument, contains Says and quotes the value (or
// the element of it at fault). Only the problems the binder fails on count:
// what the tool's policy adds (a required parameter the row does not send,
// an unknown key) is not the binder's verdict. Run reports the rows that do not hold, with
// a go-cmp diff of the verdict wanted and the verdict got; Check returns
// the same findings as data, for tools such as bindprobe.
//
// # Census
//
// Census fails for every parameter type of every registered tool that no
// row covers, so a new parameter type cannot ship without rows.
//
// # Constraints
//
// Constraints proves, for every parameter with a validate tag (or bounds in
// its schema) of every registered tool, that the published schema, the
// validator and the guard agree on each bound, its neighbours, each listed
// value and a value none of them, sizes around each size bound, and the
// same for elements under dive: no parameter has two ranges.
//
// # Tools recorded from their schema
//
// A tool recorded with typereg.Registry.RegisterSchema has no Go struct:
// Check and Run refuse it (Run as a fatal test error), and Census and
// Constraints pass over it. Its verdicts are the published schema's, read
// as encoding/json reads the arguments into map[string]any; the project's
// own fuzz targets hold them to github.com/google/jsonschema-go's
// validator.
//
// # Tables
//
// Default is the project's own table, several hundred rows over the
// vocabulary of the probe tool, each verdict the one encoding/json really
// gives, surprising ones included (9007199254740993 read into a float64 and
// rounded, null read into an int and left zero, -0 refused for a uint), and
// each silent loss the guard reports, named.
// ReadTable reads the same format from a file.
package bindtest
