// Command bindprobe runs a value table against encoding/json and the guard,
// and says where they part; with -server, it sends the table's values to a
// live MCP server's tools and grades the answers.
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
//	bindprobe [-table FILE] [-json] [-binder std|v2|segmentio]
//	bindprobe -server 'CMD ARGS...' [-tools A,B] [-skip A,B] [-allow-writes]
//		[-fill NAME=VALUE] [-fill-file FILE] [-timeout D] [-values N]
//		[-json | -format text|json|markdown|junit] [-min-score S]
//
// With no flags, bindprobe runs the default table (bindtest.Default) and
// prints a readable table. Its first line says what it compares ("the
// default table: does the guard refuse just what encoding/json (binder
// std) fails on?"); then one row per line: type, value, the binder's
// verdict (reads or fails), the guard's (passes or refuses), the row's
// standing (ok, DISAGREE or UNEXPECTED) and the refusal's sentences (without
// the tool's name, the same in every row, and the list of accepted
// parameters that ends every refusal; -json has the whole text and the
// parameter sent). Every line fits 100 columns: long cells are cut, and
// unprintable characters escaped. The faults of every row that does not
// hold follow the table, wrapped, then a summary.
//
// Types are named as the table names them under every build: with
// GOEXPERIMENT=jsonv2, json.RawMessage is an alias of jsontext.Value, and
// bindprobe still calls it json.RawMessage.
//
// The flags are:
//
//	-table FILE
//		Run the rows of FILE instead: a JSON array of rows such as
//		{"type": "int32", "value": 3000000000, "refused": true, "says": "too large"}
//		where value is any JSON value, kept as its exact text, and refused,
//		says, loss and why are optional. A row with refused expects that
//		verdict from both the binder and the guard, and a refusal holding
//		says; a row without it expects only that the two agree. loss names
//		the code of the silent loss the guard must report for a value the
//		binder reads but changes (null_for_value, rounded_number...); a
//		row without it expects none.
//	-json
//		Print one JSON document instead of the readable table:
//		{"binder": "std", "rows": [...], "summary": {"rows": N, "agree": N,
//		"disagree": N, "unexpected": N}}. Each row has type, value (the raw
//		JSON value), argument (the probe parameter sent), binder_ok,
//		binder_error, refused, message (the refusal's text), agree, loss
//		(the silent loss the guard reported, left out when none), expected (the row's refused, left out when it gave none),
//		unexpected, and faults (in words, left out when there are none).
//	-binder NAME
//		The binder to mirror: std (encoding/json, version 1, the default),
//		v2 (github.com/go-json-experiment/json) or segmentio
//		(github.com/segmentio/encoding/json as go-sdk decodes with it). The
//		table's rows speak for the binder named (see bindtest.Row.Binder).
//
// A row disagrees when the guard refuses a value the binder reads, or
// passes one it fails on. A row is unexpected when the binder's or the
// guard's verdict differs from the row's refused, or when a refusal does
// not name the argument, hold the row's says or quote the value, or when
// the guard reports a silent loss other than the row's loss.
//
// Exit status: 0 when every row agrees and none is unexpected; 1 when any
// row disagrees or is unexpected; 2 when bindprobe cannot run the table (a
// bad flag, an unknown binder, a table file that cannot be read or is
// malformed, a row whose type the probe tool has no parameter of); the
// error names the row.
//
// # A live server
//
// With -server, bindprobe starts an MCP server, written in any language,
// as a child process speaking over stdio, lists its tools, and probes
// every parameter of every tool it may call (see Which tools are called):
// one call at a time, each call sending one value for the parameter probed
// and a filler for each other required parameter (see Fillers). It grades
// every answer (see Grades) and reports a score per argument, per tool and
// for the server (see Scores and the report).
//
// The command is split into words as a shell would split it, without a
// shell: words are separated by unquoted spaces; single quotes keep what
// they hold as it is; double quotes too, except that a backslash in them
// escapes \, ", $ and `; outside quotes a backslash keeps the next
// character. Nothing is expanded ($HOME, ~, *) and there are no pipes or
// redirections. The server inherits bindprobe's environment and working
// directory; its stderr is kept, and its end shown when it fails.
//
// The values come from the default table (bindtest.Default), chosen by the
// type the parameter's input schema advertises (its first type other than
// null, or that of its first anyOf, oneOf or allOf alternative, or of its
// enum's first member): for an integer the rows of int alternate with the
// refused rows of the other integer types (3000000000 for int32, -1 for
// uint...), so fractions, exponents, numbers past 64 bits, text, true,
// null, lists and objects are all sent; a number takes the rows of float64
// and the other float types; a string those of string (a string with an
// enum gets its first member, that member with its case changed, and the
// table's own enum rows first; one of format date-time those of
// time.Time); a boolean those of bool; an array those of the list types
// ([]string's first when the items are strings); an object those of the
// map and struct types; a parameter of no known type those of any. Repeats
// are dropped, and at most -values values are sent per parameter. The
// alternatives are followed 16 deep at most, and a schema whose $ref leads
// back to itself cannot hang or crash bindprobe.
//
// The fields of an object parameter, and of the objects of an array
// parameter, are probed one by one too, two levels deep at most: reported
// as filter.min or rows[].id, each value is sent inside an object whose
// other required fields are filled (an array holds that one object).
//
// # Fillers
//
// Each call sends, beside the value probed, a value for every other
// required parameter, and for every parameter -fill names. A -fill value
// (-fill NAME=VALUE, repeatable; -fill TOOL.NAME=VALUE for one tool only;
// or -fill-file FILE, a JSON object of the same names to values; the
// command line wins) is kept as JSON when it is JSON and sent as text
// otherwise: -fill path=/tmp/notes.txt. Without one, a required parameter
// gets a valid value from its schema: its const, its first enum member,
// its default or its first example; else 1 (or the whole number nearest to
// it within minimum and maximum), 1.5, "x" (or a text of its format:
// date-time, date, time, email, uri, uuid, ipv4, ipv6, hostname, duration;
// padded to minLength), true, an array of minItems valid items, or an
// object with its required properties filled, four levels deep at most.
// $ref is followed within the schema ($defs, definitions). A tool that
// needs a real file, a real time zone or a real id fails on such a filler:
// give it with -fill, or the failure is graded apart (other_argument,
// valid_call_error), not charged to the argument probed.
//
// # Grades
//
// Each answer gets one grade:
//
//	named_refusal     a tool error (isError true) that names the argument
//	generic_error     a tool error that names no argument, for a call the
//	                  input schema does not accept
//	other_argument    a tool error that names another argument and not this
//	                  one: the filler was refused, not the value probed
//	valid_call_error  a tool error that names no argument, for a call the
//	                  input schema accepts (by github.com/google/jsonschema-go,
//	                  as go-sdk validates): the tool failed on a good value
//	accepted          a result that is not an error
//	accepted_changed  a result that shows the value changed: the number sent
//	                  is one a float64 cannot hold (9007199254740993), and the
//	                  answer holds how a float64 reads it (9007199254740992, or
//	                  as JavaScript writes it) and not the number itself
//	accepted_warned   a result carrying bindguard warnings: a
//	                  "bindguard_warnings" object in structuredContent, or a
//	                  text block saying the call "went on with these warnings"
//	protocol_error    a JSON-RPC error instead of a result, or the connection
//	                  failed
//	timeout           no answer within -timeout
//
// A tool error names the argument when its structuredContent is a bindguard
// refusal (an object with a "problems" list) and one problem is about it
// (its argument, and for a field its path; such a refusal that names only
// other arguments is other_argument, whatever its text says); or, without
// one, when its text names it so that a model could tell which argument is
// wrong. The rule, matched without regard to case, is that the name is set
// off as a name:
//
//   - quoted: 'limit', "limit", `limit`, or in typographic quotes;
//   - a segment of a JSON Pointer or a path: /properties/hours_back (go-sdk's
//     own validation error), .hours_back, Args.hours_back, [limit],
//     names[1], filter.min;
//   - after a label: argument limit, parameter limit, param, arg, field,
//     property, key, option;
//   - before a colon or an equals sign: "hours: must be a whole number",
//     "limit=abc";
//   - alone on a line of its own, in a text of several lines (pydantic,
//     FastMCP's validator, lists each failing field so), after zod's
//     "→ at", or after "at" at the end of the text, a line or a clause
//     (the TypeScript SDK's "expected number, received string at head");
//   - followed by the value sent, quoted: "Schema 'a' does not exist" names
//     schema when the call sent "a";
//   - standing alone, when no English word could be the name: it holds _ -
//     or a digit, or an upper-case letter after a lower-case one
//     ("hours_back must be from 1 to 168", maxLines).
//
// An ordinary English word in an ordinary sentence is not a name: "Access
// denied - path outside allowed directories" does not name path, "Invalid
// time zone specified" does not name time, and "the call sent too much for
// limit." does not name limit. The name inside a longer name never counts
// (limit in rate_limit, limits or max-limit). For a field, the field or the
// argument it is in must be named. -json says, for each named refusal, how
// (named_by: problems, quote, path, label, colon, line, value or
// identifier), and
// has every text.
//
// # Which tools are called
//
// bindprobe sends bad arguments on purpose, so it calls only the tools that
// say they do not write. By default a tool is called only when it is
// annotated readOnlyHint: true. By the MCP specification a tool with no
// annotations may write, and readOnlyHint false without destructiveHint
// means destructiveHint true; mcp-go's mcp.NewTool marks every tool so
// unless its author says otherwise. Every other tool is skipped unless
// -tools names it or -allow-writes is given. A tool whose name suggests it
// writes (a word of the name, split at _ - . / spaces and lower-to-upper
// case changes, is one of add append apply approve archive assign checkout
// clean clear clone close commit cp create delete deploy destroy disable
// drop edit enable exec execute import init insert install invite kill lock
// mark merge mkdir modify move mv patch post publish pull purge push put
// rebase remove rename replace reset restart restore revert rm run save
// send set shutdown start stash stop store terminate toggle trigger
// truncate uninstall unlock update upload upsert write, in any case) stays
// skipped without -allow-writes, whatever its annotations or -tools say. -skip
// names tools never to call, whatever else is given; a tool that requires
// task-based execution (execution.taskSupport "required") is skipped too,
// since bindprobe does not use tasks. -tools naming a tool the server does
// not list is a usage error (exit status 2): a typo would probe less than
// meant.
//
// The report gives each skipped tool with why and how to include it, and
// says plainly when no tool was probed at all, with the command that
// probes the tools skipped for their annotations (-tools naming them: keep
// only those safe to call with bad arguments) and the one that probes
// every tool (-allow-writes).
//
// The flags of -server are:
//
//	-tools A,B,...
//		Probe these tools too, though not annotated readOnlyHint: true
//		(not those whose names suggest writes). Repeatable.
//	-skip A,B,...
//		Never call these tools. Repeatable.
//	-allow-writes
//		Probe every tool but -skip's and those requiring tasks, writes
//		included.
//	-timeout D
//		How long to wait for each answer (default 10s). The server's start
//		(initialize) and tools/list get at least 10s. A call that times out
//		is graded timeout; after two in a row on one tool, bindprobe gives
//		up on that tool.
//	-values N
//		Send at most N values per parameter (default 25).
//	-fill NAME=VALUE, -fill TOOL.NAME=VALUE, -fill-file FILE
//		Values to send for the parameters not probed (see Fillers).
//	-json, -format json
//		Print one JSON document: {"server": CMD, "tools": [...], "calls":
//		[...], "stopped": WHY, "include": CMD, "skipped_lines": N,
//		"first_skipped_line": LINE, "summary": {...}}. Each tool has name,
//		skipped and skip_code (why it was not probed: skip_flag,
//		task_required, write_name, not_read_only or bad_schema; left out
//		when it was), gave_up and not_made (when bindprobe gave up on it),
//		score, arguments (each with name, type, required, score and its
//		counts) and its counts; each call has tool, argument (limit,
//		filter.min, rows[].id), value (the raw JSON value probed), arguments
//		(the whole arguments object sent), grade, named_by (for a named
//		refusal), text (the answer's text or the error, cut to 200
//		characters) and duration_ms. Counts are calls and one per grade;
//		the summary adds tools, probed, skipped, planned (the calls
//		bindprobe meant to make) and score. stopped is left out when the run
//		was not stopped; include is the command that probes the tools
//		skipped as not_read_only. A score is null when no call was refused.
//	-format text|markdown|junit
//		text is the readable report (the default). markdown is the same for
//		a CI step summary (the score, a table row per probed tool, the
//		skipped tools and the command that includes them, why the run
//		stopped). junit is JUnit XML: a test case per tool, failing when its
//		score is below -min-score (below 100% when -min-score is not given)
//		or bindprobe gave up on it, skipped when it was skipped, and a test
//		case "bindprobe run" failing when the run stopped early.
//	-min-score S
//		Exit with status 1 when the server's score is below S, a share from
//		0 to 1 or a percentage (0.9, 90%), or when no call was refused and
//		there is nothing to score (nothing probed passes no gate).
//
// # Scores and the report
//
// A score is the share of the refused calls (named refusals, generic
// errors and protocol errors) that were named refusals: the share of bad
// calls answered with a refusal a model can act on. Calls accepted (a
// server may take more than its schema says), errors about another
// argument or for a valid call, and timeouts do not count. There is a
// score per argument, per tool and for the server.
//
// The readable report opens with the server's score, then gives a table
// with a line per tool (skipped ones marked), then per tool its score, its
// counts and a table of its arguments, with the first answer of each
// grade worth reading quoted (cut short: generic error, other argument,
// valid call error, accepted changed, protocol error, timeout), what was
// skipped and how to include it, why the run stopped, and the summary.
//
// # A server that misbehaves
//
// Lines of the server's stdout that are not JSON-RPC messages (a banner, a
// log line, even one in JSON) are skipped, as the TypeScript SDK's client
// skips them; the report says how many, and shows the first (-json:
// skipped_lines, first_skipped_line). A line longer than 16 MiB is skipped
// without being held whole.
//
// A call with no answer within -timeout is graded timeout. After two in a
// row on one tool, bindprobe gives up on that tool (the report says so,
// and how many of its calls were not made) and goes on with the others.
// After each timeout it pings the server: the run stops early only when
// the server no longer answers a ping (within twice -timeout, at least
// 2s), or
// is gone: it closed the connection, crashed or exited. Then bindprobe
// reports the calls made and why it stopped (the server's exit status and
// the end of its stderr, when there are). A JSON-RPC error answer is an
// answer (graded protocol_error) and the run goes on at once; only a
// failure of the transport itself makes bindprobe wait (up to 2s) to learn
// whether the connection is closing.
//
// While it runs, a progress line is shown on stderr: rewritten at each
// call when stderr is a terminal, else (a CI log) one line every 10s, so a
// short run prints nothing.
//
// Exit status with -server: 0 when the run was not stopped (the grades are
// information, not a verdict, unless -min-score is given; calls not made
// to a tool given up on do not count); 1 when the server stopped answering
// a ping, or was gone, before the end, or the score is below -min-score; 2 for a usage error (-table or -binder with -server, a command that
// cannot be split or is empty) or when the server cannot be started or its
// tools cannot be listed.
package main
