// Package refuse decides, before a tool's handler runs, whether the call's
// arguments are ones the server's binder reads, and words a refusal a model
// can correct itself from.
//
// Decide(reg, tool, args) returns the verdict on a call: a *Refusal when
// the handler must not run, Warnings when it runs with problems the caller
// should see, and the arguments to decode (aliases renamed). Refuse(reg,
// tool, args) is its Refusal alone: nil when the call may go on. A Refusal
// is a structured error listing one Problem for every bad argument, each
// with the argument's name, a stable Code, what the argument takes in
// words, and the value sent, quoted and cut short. Its Error method renders
// text such as:
//
//	Argument 'hours_back' for tool 'get_wait_stats' takes a whole number, and the call sent 0.5.
//	Accepted parameters: hours_back, limit, database, waits.
//
// # What is refused
//
// A value is refused exactly when the binder would fail on it (see package
// bind for how the verdict is reached), in every mode but Off: nothing the
// binder reads is refused as a binder failure. What the binder would let
// through in silence is the tool's policy (typereg.Policy): unknown keys,
// missing required parameters, an argument sent under two names, the
// tool's own constraints, and silent losses (values the binder changes or
// drops). Under Reject (the default) the policy problems refuse the call,
// silent losses only under Strict; under Warn they travel with the result
// as Warnings. docs/policies.md lists every policy with its code and
// default. A Code is a bind.Code, the one taxonomy of the module: the code
// each issue of the verdict carries is its problem's, and Code.Class tells
// a binder failure (bind.BinderFailure) from a policy problem
// (bind.PolicyProblem) and a silent loss (bind.SilentLoss); Code.Policy
// reports the last two. A tool recorded from its schema
// (typereg.RegisterSchema) has the map reader for its binder, which reads
// any JSON value: there what the schema refuses is the tool's policy, as a
// validate tag's breach is, whatever its code (wrong_type for a type the
// schema does not take, not_one_of for enum), and a key an open root holds
// and no parameter reads is a silent loss (unknown_argument); problems are
// ordered as a struct tool's (see Refusal.Problems).
//
// # The tool's own constraints
//
// A parameter's validate tag (github.com/go-playground/validator/v10) is
// the tool's own constraint; typereg publishes it in the schema and says
// which tags it takes, and compiles them at registration. When the binder
// reads a call of a tool with such tags, the guard checks each argument's
// literal against its compiled tag as the validator would check the value
// the binder decodes from it, in the binder's one pass, as that pass reads
// the value (see One pass), without decoding, without reading the value
// again and without allocating on a call that passes; a call the compiled checks cannot judge from its text
// (a tag or type not compiled, an argument with a silent loss, an escaped
// or non-UTF-8 string, a ,string field) is decoded with the binder and held
// to the validator itself. Each argument that breaks its tag is a Constraint problem (under
// Reject, refused; under Warn, a warning): Takes states the constraint as
// the schema publishes it ("a whole number from 1 to 168", "text of at most
// 64 characters", "one of crimson, teal, amber", "a list (a JSON array) of
// whole numbers of at least 1, with 1 to 5 elements"; "(or 0)" where
// omitempty lets the zero value past); Sent quotes the argument; under dive,
// and for a tag on a nested struct's field, Path, Pointer and Element point
// at the first offending element or field as sent. A oneof is
// a Constraint too, not NotOneOf, which is the binder's own refusal of a
// type that lists its values. An argument with another problem is not
// checked again; a parameter the call leaves out whose zero value breaks
// its tag is a MissingArgument. When the binder fails on some arguments,
// the others are checked all the same (decoded with the failing members
// left out), so that under Reject one refusal names every bad argument:
// {"state":7,"limit":-1} names both.
//
// # One pass
//
// Decide reads the call's bytes once, in the plan's Check, which hands
// back with the issues the members of the top-level object (each key's and
// value's span, the parameter the key binds, exactly, by folding case or
// as an alias). The constraints, the aliases (the pass binds an alias sent
// plain to its parameter, as the renamed call is read), an argument sent
// under its name and a key the binder folds to it, the unknown keys past
// bind's cap, and the values a refusal quotes are all read from those
// members; a clean call that uses aliases is renamed from them. The text
// is read again only where the pass finds anything in a call that uses an
// alias, or meets one sent escaped (checked as sent, then renamed and
// checked once more), and on an alias conflict. What is read
// inside one value (the element a dive breaks) is read with the module's
// one lexer, and so are the members past the first 1,024 of a call that
// has that many (only a call with issues, or an open tool's, has: a clean
// one holds a member per parameter at most).
//
// # What a refusal says
//
// Takes says what the parameter takes: a whole number; a number; true or
// false; text; a list (a JSON array) of whole numbers; an object with fields
// a, b; an object whose values are texts; base64 text; a date and time as
// RFC 3339 text; a whole number of nanoseconds (time.Duration); one of
// crimson, teal, amber (where the advertised schema lists values). A number
// out of the type's range is "too large" or "too small". The one range a
// refusal states is the tool's own, its validate tags as the schema
// publishes them, and it states it for every problem in a constrained
// argument ("takes a whole number from 1 to 168, and the call sent
// 3000000000, which is too large"; a missing argument "takes a whole number
// from 1 to 168"), so one correction fixes the call; it never states the
// range of a Go type, which is not the tool's. A nested struct's field
// with a constraint of its own has it beside its name ("an object with
// fields port (a whole number from 1 to 65535), host"), so a refusal of a
// value inside the argument says which rule it broke.
//
// A key sent more than once in one object is a silent loss (DuplicateKey)
// under a binder that reads the last value; under jsonv2.Binder, which refuses
// it, it is DuplicateName: one problem per repeated key, naming the key and
// the argument it binds or lies in, never text "not valid JSON". So is a
// key jsonv2.Binder refuses because it fits two case:ignore parameters
// whose names fold alike and names neither exactly: AmbiguousArgument,
// naming the key as sent, or, for such a key inside an argument,
// AmbiguousField, naming the key at its path.
//
// Sent quotes the argument's value as sent, and, when the problem lies
// inside it, Element the offending value there (at Path), never another
// argument's: at most 40 characters of each, cut on a character boundary,
// with control characters and other unprintable ones escaped (line
// separators included), and the full length named when cut. The two
// characters the text is built with are escaped too wherever the caller's
// text appears (a key, a value, a path, an unknown tool's name): the single
// quote around a name and the ellipsis that marks a cut, as \u0027 and
// \u2026. No key or value can end the quotes around it, start a line of
// its own ("Accepted parameters: ...") or fake a cut.
// docs/refusals.md lists every wording, generated from this package's tests.
//
// Where a problem lies, two fields say, from one path (package bind's
// typed bind.Path, or a schema tool's own): Path, readable and shown in the
// text ("[2].name" after the argument's name), and Pointer, in the JSON
// form only, an RFC 6901 JSON Pointer from the root of the arguments to
// the offending value, its first token the argument's key as the call sent
// it ("/HOURS_BACK" for a key folded to hours_back, "/waits/2/name"; "~"
// and "/" in a key written "~0" and "~1"; for a problem with a key, to that
// key's member; for a missing field, to where it would be). Every problem
// with a place in the arguments has one; the arguments as a whole and a
// parameter the call did not send have none. A path is bounded (12 steps,
// 40 characters of a key); where those bounds cut it short, Path shows the
// cut ("[…]", "…") and Pointer is empty: a pointer cut short would lead to
// another place, so a program reading the JSON can trust every pointer it
// is given to lead to the value quoted.
//
// # Bounds
//
// However many problems a call has, the verdict is the same as for a call
// with one of each: package bind lists up to bind.MaxIssues issues of each
// class and every argument's most serious one, and counts the rest, and
// the counts are judged here (an unknown key past the cap is judged key by
// key against the tool's exempt keys). A schema tool's check does the
// same: past its cap, the first issue of each rank in every top-level
// member (a key no property names is one of its own) is listed, and of
// what it only counts the unknown keys past the cap alone are problems of
// their own, counted in More; the rest lies in arguments listed. A
// Refusal lists the binder's
// failures first, then the required parameters left out, then the rest,
// one problem per argument and one per unknown key (as sent), at most
// MaxProblems of them and no more than its text has room for; More counts
// the others, exactly. The text of a Refusal, and of Warnings, is at most
// 4000 bytes, names at least one problem before "And N more problems.",
// and cuts the accepted parameters and a long tool name short; the
// problems a Refusal lists take at most 12,000 bytes as JSON (the first,
// always listed, aside: each of its fields is cut short on its own).
//
// What a Refusal does not list costs no allocation: an unknown key's
// problem is worded in a buffer and becomes one string only when it is
// listed, and once the list is full the unknown keys left are counted
// from the verdict, not the text: the one pass reads every top-level key
// against the tool's exempt keys and aliases and counts the distinct
// unknown keys, as sent, in its pooled key table, so More is the pass's
// count less the keys met, and no member is read again (only the members
// of a trial check or a bind.Reader are counted from the text, each key
// told apart from those before it by a Bloom filter and, for the few the
// filter may hold, by its text). A refused call with 100 unknown keys or
// 10,000, distinct or repeated, allocates the same, about 130 times under
// every binder, the binder's issues included; the lists a flood fills
// (the issues past 64, the members past 16) take room whole from a pool,
// which Decide hands back once its decision is made, so that the
// refusal's words are most of what it allocates (about 76 KB for 10,000
// unknown keys). The closest-name search (DidYouMean) runs for the first ten
// unknown keys, allocates nothing, and is bounded for each parameter
// whatever the key: keys past 64 bytes are not looked up, and the edit
// distance (at most 3) is computed only for a name within 3 characters of
// the key's length.
package refuse
