// Package bind knows the JSON decoders servers bind tool arguments with, and
// reads arguments the way they do.
//
// # Terms
//
// A binder is the decoder a server turns a tool call's JSON arguments into
// the tool's parameter struct with. Std is encoding/json (json.Unmarshal),
// the binder of most Go MCP servers; V2 (jsonv2.Binder, package
// github.com/bindguard/bindguard/bind/jsonv2) is
// github.com/go-json-experiment/json with its default options; SegmentIO
// (segmentio.Binder, package github.com/bindguard/bindguard/bind/segmentio)
// is github.com/segmentio/encoding/json as the official Go MCP SDK decodes
// with it. They differ: on key case, repeated keys, invalid UTF-8,
// json.Number, time.Duration, fixed-size arrays and nesting depth (see each
// one's documentation), and the guard mirrors the one it is given.
//
// Each binder beside Std is selected by importing its package, and only
// then linked: a server that mirrors encoding/json links neither
// go-json-experiment nor segmentio. Their field rules and plans
// are this package's, by reflection; their decoders are called only from
// the internal packages bind/jsonv2 and bind/segmentio import.
//
// A plan is a binder's view of one parameter struct, compiled once (at
// registration): the keys it binds, by the binder's own rules for names,
// embedding and conflicts, and for each value position (a field, a list
// element, a map value) how the binder reads it.
//
// # The mirror rule
//
// Plan.Check reads the arguments once, validating the JSON as the binder's
// scanner does (through internal/jsonlex, the module's one lexer, whose
// tokens and steps the checker's walk is built on), and judges every value as the binder would: an issue exactly
// where the binder fails, none where it reads the value. Most positions are
// judged from the tokens themselves, with rules taken from encoding/json's
// decoder and proven equal to it by the package's tests and fuzz targets:
//
//   - null is read by every position (a pointer, slice, map or interface
//     becomes nil; anything else is left as it was), except a type that
//     decodes null itself.
//   - A whole number for an integer type is judged by its sign and digits: a
//     fraction or an exponent fails (as strconv.ParseInt does on "1.0" and
//     "1e2"), more than 20 significant digits is past every integer type
//     without reading them further, and a shorter run is compared with the
//     type's bounds. "-0" fails for an unsigned type, as ParseUint does.
//   - A number for a float type is judged by its order of magnitude: below
//     10^38 (10^308 for a float64) it cannot pass the largest float, from
//     10^39 (10^309) on it does, and too small a number reads as zero; only
//     a number between goes to strconv.ParseFloat, as the binder reads it.
//   - A string for a string type is decided by its token kind: the text is
//     never decoded or copied. A string for []byte must be base64
//     (base64.StdEncoding, which skips newlines); for json.Number, a JSON
//     number.
//   - A JSON value for an empty interface is read whole, and every number in
//     it must fit a float64.
//   - A fixed-size array takes any number of elements: extra ones are read
//     and dropped, missing ones left zero.
//   - Keys bind by exact name, then by case folding (HOURS_BACK binds to
//     hours_back, the Kelvin sign to k); every occurrence of a repeated key
//     is read, and a bad one fails even when a later one is good. Inside a
//     nested struct, a key no field takes is dropped.
//
// # What the binder reads but does not keep
//
// For Std, Check also names what encoding/json reads without failing but
// drops or changes, each where the binder reads the value: never inside a
// value it drops (an unknown key's, an array's extra elements, a
// json.RawMessage, a type that decodes itself).
//
//   - UnknownField: a key inside a nested struct's object that binds to no
//     field (the top level's are UnknownArgument). Maps and interfaces take any
//     key; a struct inside a map's value or a list is closed again.
//   - NullForValue: null for a position that cannot hold it: anything but a
//     pointer, slice, map, interface, json.RawMessage or a type that
//     decodes itself (which decides for itself). The binder leaves the
//     value as it was: for a bool, number, string, json.Number, struct or
//     array; for an element of a list; for a map's value (stored as the
//     zero value); for a ,string field (null, or the text "null", unless
//     the field is a pointer).
//   - FoldedKey: a key that binds to a field only by case folding, at any
//     depth.
//   - DuplicateKey: a key repeated in one object, at each later
//     occurrence. In a struct, keys are the same when they bind the same
//     field ("n", "N" and "\u006e" all do); in a map or an interface's
//     object, when they read as the same key (the text after escapes and
//     U+FFFD replacement, so "a" and "A" differ; for an integer key type,
//     the value, so "1", "01" and "+1" are one). The binder keeps the last
//     value; where the repeated values are read into one struct, pointer
//     to a struct, map, or list or array of structs, it merges the later
//     into the earlier instead (members and elements the later one sends
//     overwrite, the rest stay; an interface's value is replaced whole).
//     Check reports every repeat all the same: which members survive
//     depends on that rule, not on what the caller sent last.
//   - ArrayLength: a fixed-size array sent more elements (the binder drops
//     the extra ones) or fewer (it zeroes the rest); N is the number sent.
//   - RoundedNumber: a whole-number literal (no fraction, no exponent) for a
//     float32, a float64 or an interface (a float64), or the text of a
//     ,string float field, that the float cannot hold exactly:
//     9007199254740993 for a float64, 16777217 for a float32. Up to 15
//     digits (7 for a float32) always fit; a longer one is parsed as the
//     binder parses it and written back whole to compare. Numbers with a
//     fraction or an exponent are not judged.
//   - ReplacedText: text the binder reads as text (a string type, a string in
//     an interface, a key of a map with string keys or of an interface's
//     object, a string a type's UnmarshalText is handed) holding invalid UTF-8 or a \uD800-\uDFFF escape not part of a
//     valid surrogate pair: the binder reads U+FFFD instead. Only strings
//     with a byte past ASCII or an escape are looked at again.
//   - WrappedNumber (SegmentIO only): a whole number past the range of a
//     64-bit integer (int, int64, uint, uint64, uintptr, time.Duration sent
//     as a number; a field, an element, a map value, a ,string field's text,
//     an integer map key) that segmentio v0.5.4 reads as another number
//     without failing. It parses digit by digit in wrapping 64-bit
//     arithmetic and fails only where a step makes the value smaller, so
//     some wraps pass: 21000000000000000000 reads as 2553255926290448384,
//     18446744073709551615 followed by any number of nines as
//     18446744073709551615. The value it reads never decreases and a wrap
//     needs one of 2^64/10 or more, so the smaller integer kinds fail on
//     every number past them (TooLarge), as negative numbers and numbers
//     of 19 digits or fewer are read exactly or failed on. Std and V2 fail
//     on all these numbers (TooLarge).
//
// With Plan.WithRequired, Check reports each required parameter that no
// top-level key names (exactly or by folding) as MissingArgument; a key
// sent with null names it (and may be a NullForValue). Empty and null arguments name
// none; text that is not an object is judged as a whole instead. Given the
// required fields of each struct type as well, Check reports each one an
// object below the top level does not name (by the binder's own key
// matching) as MissingField, with the path to where the field would be.
// It judges each object alone: where a repeated key merges one object into
// another, refuse.Decide keeps only the MissingField issues whose field the
// merged value leaves out too.
//
// Keys are told apart without allocating: a struct's in a set of 64 bits
// (allocated past 64 fields), a map's or an interface's by a hash of each
// key, held in the checker for up to 16 keys an object, then in a map of
// the object's own; equal hashes are confirmed by comparing the keys.
//
// Where a type decodes itself (an UnmarshalJSON or UnmarshalText method,
// time.Time, a map whose key type has UnmarshalText) or under the ,string
// option of a string field, Check does not guess: it decodes the value with
// the binder itself, into a fresh one-field struct of the declared type and
// tag, so the real method runs. A list of such values (a slice, or a map
// of string keys, of them or of pointers to them, whose elements no
// constraint is held to) is decoded whole first, once, in a one-field
// struct of the list's type: the binder reads a list exactly when it reads
// each element alone, so where it reads the list no element is decoded
// again, and where it fails each is, to find the one it fails on
// (batch.go). Null read into such a position is decoded once for all the
// nulls of it a call sends (of the last few positions that met one). A
// method that panics is recovered and reported as an issue carrying a
// *PanicError: the binder would have panicked on the same value. Of a map whose key type has UnmarshalText
// that the binder reads, Check then walks the object for the losses any
// map has: its values' own, and each key the binder's map keeps once,
// told apart as the map tells them, by the Go value the method reads
// (called again, under recovery), not by the text: a value receiver's
// method leaves every key zero, and a method may fold case. Of a ,string
// field of a string kind the binder reads, Check judges the text inside,
// which the binder unquotes again: the text null leaves the field as it
// was (NullForValue; a pointer it sets nil), and invalid UTF-8 or a lone
// surrogate, in the text sent or in the string inside it, is replaced
// (ReplacedText).
//
// # V2 and SegmentIO: native first, trial where the pass declines
//
// A V2 or SegmentIO plan compiles the same positions Std's does, from that
// binder's own field rules (V2's makeStructFields, segmentio's field list,
// exact names only), and Check runs the same walker over them first, in a
// proving mode: it reads the arguments once and either gives the verdict,
// the trial check's issue for issue (kinds, spans, paths, types, the
// Omitted counts past MaxIssues, the members), without calling the
// binder; or it declines. It gives the verdict of a clean call, and of a
// call whose issues are all of the classes it models: a number its
// position cannot hold (NotWholeNumber, TooLarge, TooSmall, however many
// digits; segmentio v0.5.4, as v0.3.5, misses the wrap of some numbers
// of 20 digits and more, reading them as other numbers without an error,
// which the pass, like the trial check, reports as WrappedNumber), a JSON kind its position
// does not read (WrongType, a string of the wrong kind whatever its
// escapes and bytes: both binders read it whole, then fail on its kind,
// V2 first on text that is not valid UTF-8, as below; V2 reads a value of
// the wrong kind for a string or a number whole and fails first on what
// is inside), a top-level key the binder binds to no parameter
// (UnknownArgument, its value read as V2 validates it: a repeated name or
// invalid UTF-8 in it fails, InvalidJSON at it; segmentio skips a dropped
// string of any text, invalid UTF-8 and lone surrogates too, checking its
// syntax only, and replaces nothing in it),
// a required parameter or nested field left out (MissingArgument), null for a
// position with no nil (NullForValue), a whole number a float rounds
// (RoundedNumber), and a nested struct's key no field takes (UnknownField, as
// for UnknownArgument), arguments that are not an object (NotAnObject) or
// not JSON (InvalidJSON, at the first byte that makes them so, as the
// trial check's scan places it, with under V2 V2's error where that is a
// repeated name V2 meets before anything else fails: V2 stops at its
// first error, and reads a '{' or '[' where a struct's or a map's member
// name should be whole before it fails; under SegmentIO, TooDeep where
// the text nests past go-sdk's limit after the error, as go-sdk refuses
// it first), under V2 a key bound to a case:ignore
// field by V2's fold (FoldedKey, before what its value holds; a key of a
// fold two case:ignore fields share, which go-json-experiment fails on, an
// AmbiguousArgument spanning it, in no argument, once per text, after the
// members' issues, its value never read; inside an argument, the
// argument's AmbiguousField spanning the key, from V2's own error, which
// the pass declines to give; under GOEXPERIMENT=jsonv2, whose v2 binds the
// first of them, a FoldedKey), and
// under V2 a top-level key repeated (V2 fails on the name: InvalidValue
// in its argument, or InvalidJSON for a dropped one, each name once,
// after the members' issues, with V2's ErrDuplicateName, as the trial
// check lists them), a name repeated inside a value (V2 fails on it as it
// reads the name: InvalidValue at the object holding it in an argument,
// the path to that object, V2's error naming the name; InvalidJSON at
// the name inside a dropped value; none inside a value of the wrong kind
// V2 fails on at its first token), a key of invalid UTF-8 or a lone
// surrogate (listed as a repeated name, but naming none; at the top level
// an unknown key, no name nor a repeat of one, and V2's InvalidJSON at
// the first such key's first invalid byte where nothing before it fails,
// whatever fails after it: V2 stops at the key) and a string value's invalid UTF-8 or lone surrogate
// (InvalidValue at the string: V2 fails on it), under SegmentIO a repeated key (DuplicateKey, in a
// call that does not fail, listed before its value's issues; in one that
// fails, its values' failure where it lies: segmentio reads each into what
// the one before left, which fails as alone but for the fields below), a
// string value it
// replaces text of
// (ReplacedText), a fixed-size array sent another length (ArrayLength;
// under SegmentIO, which fails on [] for an array of one element or more,
// InvalidValue at the argument's value, as its syntax error names no path;
// under V2, which fails on it, InvalidValue at the array,
// but where the argument's first failure is in an element the array
// holds, which V2 stops at before the length, that failure alone; one in
// an element past the length, which V2 skips validating its text and
// names, that failure, InvalidValue typed by the array's element at the
// element itself, of no type inside one of a scalar or empty interface
// type: inside an element of another type the pass declines) and a
// time.Duration's value (segmentio reads a whole number as an int64,
// WrappedNumber where it wraps, and a string time.ParseDuration takes,
// its raw text up to the first quote, so never one with an escape;
// InvalidValue for any other number or string; V2 reads none without a
// format: option, InvalidValue for every value, null too), under V2 a
// ,string integer or float (a JSON string holding a JSON number in the
// type's range: no space, no '+', no leading zero, no quoted null, no
// sign for an unsigned type; null sets zero, a NullForValue loss; a
// failure is judged from the text at any depth, as V2's own error says:
// NotWholeNumber, TooLarge (strconv.ErrRange), TooSmall, WrongType), a
// ,string field of any other kind (go-json-experiment
// fails on every value: InvalidValue; under GOEXPERIMENT=jsonv2 the
// standard library's v2 reads bools and strings as without the option,
// and the pass declines), a [N]byte or []byte (a string of padded
// base64, no line break, of exactly N bytes for an array; InvalidValue
// otherwise), json.Number
// (a string type to go-json-experiment) and jsontext.Value (any value,
// validated as a dropped one), under V2 a uintptr as a uint64, plain or
// under ,string (makeUintArshaler reads both), and a map of integer or
// uintptr keys (V2 reads a
// key as a ,string integer; on any other it fails, InvalidKey at the key,
// and skips the value, validating it: where the value repeats a name or
// holds invalid text the pass declines),
// and under SegmentIO a map of integer
// keys (segmentio reads a key as a ,string integer: "null" as 0,
// NullForValue at the key, or a JSON integer in range, no '+', no leading
// zero, space after it, 20 digits or more as it wraps them, WrappedNumber at the key; it fails, InvalidValue
// at the argument's value, on any other, wherever the map is; a failure in
// a value at the value, by the key's text, where segmentio's error names
// the integer read, "null" and "-0" 0, "1 " 1; see segkeys.go), and a
// ,string field's value as segmentio reads it (see segstring.go: the
// text of an integer, leading zeros trimmed, a float, a bool or a
// string, null, the losses the loss walk lists; a failure of an
// argument's own ,string value at the value, of the kind its text says,
// of one inside an argument where segmentio's error places it, at the
// field or at the argument's value; text opening with a string that holds
// a control character, which segmentio reads where the call's bytes are
// printable ASCII and fails on otherwise, as its validAsciiPrint flag
// says, but text of an object or array holding one, which the pass
// declines; a ,string json.Number's text any JSON number, or null, then
// only space: decodeNumber under decodeFromString, a float's rules of no
// range; a ,string time.Duration's text as decodeDuration reads it under
// decodeFromStringToInt: leading zeros trimmed after a sign, "null", a
// whole number in range with nothing after it, 20 digits or more as
// parseInt wraps them, or a JSON string time.ParseDuration takes, "\"1s\"",
// with nothing after it; a failure inside an argument at the field where
// segmentio's error is an UnmarshalTypeError, see segQuotedDuration),
// segmentio's uintptr as its uint64, plain or under ,string
// (decodeUintptr is decodeUint64's parseUint), and segmentio's json.Number (a JSON number only), raw value
// (any) and []byte (base64 in a string, or a list of bytes, null in it
// left zero; text that is not base64 InvalidValue at the argument's
// value, as its error names no path) as decode.go reads them (see
// segtypes.go); a map whose key type is of a string kind with methods,
// or of any kind with UnmarshalText (see textkeys.go): as a string where
// the binder calls none of them on a key, and by the key type's
// UnmarshalText where it has one (under V2, by its UnmarshalJSON first,
// on the name's token), which the
// pass calls as both do, on a fresh key, the name's text unquoted, under
// recovery (the method failing, V2 stops at the key, InvalidKey at it, the
// path to its member; segmentio returns the method's error, which names
// no place, InvalidValue at the argument's value; a panic, a *PanicError
// at the argument's value under both; a repeated name V2 fails on before
// it calls the method, segmentio keeps the last value, DuplicateKey); an
// empty interface of a name of its own as any (V2 puts in it what it puts
// in an any, by those types' own arshalers, segmentio parses the value
// into an any; the losses of what it holds are typed any's, as the loss
// walk types them; but V2 reads an object into it member by member, as
// into a map, so that at a member name holding an object it fails on a
// name repeated in that object first); it
// reads a key
// with an escape or a byte past ASCII by its text, as both bind it; and a
// key naming two fields of one struct under SegmentIO it binds to the one
// segmentio's decoder finds on this CPU, the first by its keyset (asm's
// keyset.New: a CPU with AVX or ASIMD, up to 32 fields, names of at most
// 16 bytes without NUL), the last by its map otherwise (segIndex asks
// segmentio's keyset at Compile). A
// value of a type that decodes itself (an UnmarshalJSON or UnmarshalText
// method, V2's UnmarshalJSONFrom, time.Time, under
// V2 json.RawMessage, read by its UnmarshalJSON, and a field of such a
// type under V2's ,string option, which V2 hands the method as sent, or
// under SegmentIO's, for a bool, number or string kind, whose codec
// segmentio hands the text inside the string) the
// binder decodes alone, into a fresh one-field struct of the declared
// type and tag, as Std's check does (see selfdec.go): decoded, the losses
// the loss walk lists in it (null where the type has no nil and
// is left zero, or a time.Time; under SegmentIO a string an UnmarshalText
// reads with text replaced, and a ,string field's losses by its text, as
// for any of its kind: see segQuotedSelf); failing, the trial check's issue, at the
// value where the binder's error locates the failure there (V2's JSON
// pointer, segmentio's own UnmarshalTypeError), of the kind the error or
// the text says, and otherwise (a method's own error under SegmentIO, a
// panic, a *PanicError) at the argument's value, of the kind its text
// says for the parameter's type. Like the trial
// check it lists, when the binder fails, each argument's first failure
// only, and no loss; when it does not, the unknown keys first. It declines
// every other issue (ArrayLength under V2), and everything its
// rules do not model exactly for that binder: under SegmentIO a key
// whose text is not valid UTF-8 (which segmentio binds by its text with
// U+FFFD for the invalid bytes and lone surrogates, as the pass reads it
// where it binds no field, in a map of string keys or any, ReplacedText,
// in a map of integer keys, InvalidValue as for any key not an integer,
// and in a value segmentio skips, with the key's loss listed before what
// the value holds) where a field binds that text; a key inside an
// argument that two of V2's case:ignore fields fold alike may bind,
// text
// the binder replaces or fails on, a slice of a named byte type under V2, a map
// but of string keys and integer keys (of keys of a string kind, under
// SegmentIO a method's error holding an UnmarshalTypeError, which
// segmentio turns into a syntax error; under V2 a key type with
// UnmarshalJSONFrom, which V2 calls on the name; a map a validate
// constraint watches), under SegmentIO a call that sends again a struct's
// field of a type that may hold an empty interface of a name of its own
// or a value that decodes itself, where the pass finds a failure or
// segmentio fails on the call (segmentio decodes the repeat into what
// the value before left: it fails on such an interface holding a value
// but a pointer, where any's it replaces, and a stateful method may fail
// only on the pair; see segFresh; where it reads the call, which the pass
// asks it once, the pass's verdict stands), a ,string field of
// under SegmentIO one of a type that decodes itself whose text holds a
// control character (its codec's parseString reads it or not by the
// call's bytes), under V2 one of a json.Number or a
// jsontext.Value, a format: field (but, under
// GOEXPERIMENT=jsonv2, where the standard library's v2 reads it natively:
// a []byte or [N]byte in base64, base64url, base32, base32hex, base16 or
// hex, a [N]byte as an array, a float with nonfinite, which the pass
// reads). Nesting past the binder's
// limit (V2's 10,000, go-sdk's 1,000 for SegmentIO) is its verdict too:
// the one TooDeep issue the trial check gives. Where it
// declines, the binder decodes the call once. Where it reads it, the same
// walker reads the call again in a clean mode (see clean.go): no failure
// is there to place, so what the pass declines for not knowing where or
// whether the binder fails does not arise (nor is a value that decodes
// itself decoded again alone: the binder read it in the call), and a
// position the proving
// compile declines is read as the binder reads it (null by the position's
// null rule, a map's or a fixed array's elements by their own positions,
// an empty interface's value as any's, anything read by a rule of the binder's own, a format: option, a named
// byte's base64, whole); its verdict is the losses, the unknown keys and
// the missing parameters. Where the binder fails, or the clean mode
// declines, the trial check below decides, so the verdict is always the
// trial check's; FuzzNative and FuzzNativeValues compare every verdict the
// pass and the clean mode give with the trial check's and with the real
// binder's.
//
// The trial check lists the keys each binder binds by its own rules, scans
// the arguments for their members, and lets the binder itself give the
// verdict, decoding each argument alone to name the ones it fails on. Its
// verdicts are exact by construction. The silent losses of a call the
// binder reads are the clean mode's; before it, the trial check walked the
// text for them against a tree of its own (the loss walk), which is now
// the tests' oracle (lossoracle_test.go): the rules below that say what
// "the loss walk" lists say what the clean mode is held to. One type model
// (node) and one walker (the checker) read every call.
//
// # A server's own reader
//
// Some servers do not decode the arguments with a decoder this package
// knows: they read mcp-go's map of the arguments and re-marshal it, run
// go-sdk's input path (a map, schema defaults and validation, then the
// struct), or coerce leniently ("2" or 2.0 for an int). Mirrored as Std,
// such a server would see calls it serves refused. Reader(name, decode)
// makes the server's own decoding the binder: the verdict is decode's
// (it runs on the call), each argument it fails on alone is named, and a
// failure no single argument has is one with the arguments as a whole.
// The parameters and the keys that bind to them are encoding/json's; the
// losses are the ones seen from outside: a repeated top-level key, and a
// number decode reads otherwise than encoding/json (a float64 map's
// rounding). See Reader.
//
// # Under GOEXPERIMENT=jsonv2
//
// Built with GOEXPERIMENT=jsonv2 (Go 1.25+), encoding/json is
// encoding/json/v2 under its legacy options, and
// github.com/go-json-experiment/json an alias of encoding/json/v2. The
// mirror follows both; the rules that differ are in build_jsonv2.go and
// build_default.go:
//
//   - Std reads the text of a ,string number with strconv.ParseInt,
//     ParseUint or ParseFloat ("+5", "007" and, for a float, "Inf" are
//     read), names a field as v2's tag parser does (json:"a\"b" is "a"),
//     and matches a case:strict field by its exact name only. Compile
//     refuses a field tagged inline, unknown or format:, which v2 reads in
//     ways the native mirror does not follow.
//   - V2 is the standard library's v2: the inline and unknown options
//     (not embed), format: options read natively, a key two case:ignore
//     fields fit bound to the first in breadth-first order (by a fold:
//     a FoldedKey loss), json.Number
//     read by its own UnmarshalJSONFrom (a number, or a string holding
//     one).
//
// Both builds are tested: every table, test and fuzz target of the package
// runs under each (make test-jsonv2, make fuzz-jsonv2).
//
// # Cost
//
// Check costs time in proportion to the size of the arguments, whatever
// their shape: deep, wide, long keys, repeated keys, many issues, or all
// at once. It reads the text once; an issue's path comes from the arrays
// and objects it has open, never from reading the argument again. A path
// is bounded: past 12 steps, it keeps the first 4 and the last 8 with
// "[…]" between them (".a.b.c.d[…].w.x.y.z[0][1][2][3]"), each key cut at
// 40 characters (and only that much of it read), so however deep and
// however long the keys, a path holds at most 12 steps of at most 40
// characters of a key each: under 5,000 bytes once quoted, whatever the
// input. Its JSON Pointer (Path.Pointer) names the same value from the
// root of the arguments ("/a/b/c"), and is empty where those bounds cut the
// path short: a pointer is never cut to name another place. A path to an
// argument's own value allocates nothing (it keeps the key as the
// arguments hold it); one inside it allocates once. Memory is
// bounded by the input too: besides the issues (in refuse's check, past
// 64 of them, room taken whole from a pool for every class's MaxIssues,
// which refuse hands back), Std's checker allocates only for the keys of
// maps' and interfaces' objects (a map of its own for an object past 16
// keys, and 8 bytes a key past the 48 the objects open at once hold in
// the checker).
//
// A call V2's or SegmentIO's pass gives the verdict of (a clean one, or a
// refused one of the classes it models: a million-digit number for an int,
// a wrong element in a long list, ten thousand unknown keys) costs that
// one pass, and allocates as Std's does (V2's dropped keys, told apart
// for its repeated names, are held in the pass's pooled key table, where
// every binder's pass counts the unknown top-level keys; its repeated
// top-level names, any number of them, in a pooled list of the ones the
// issue cap may list). A call it declines costs the pass up to where
// it declines and the binder's decode of the whole call; where the binder
// reads it, the clean mode's pass; where it fails, the trial check's: each
// argument decoded alone, but only those the
// binder may have failed on (V2 reads the members in order and stops at
// its first failure, whose offset it gives, so the members before it are
// not tried again) and each distinct value once (a key sent a million
// times with the same value is tried once). What the binder itself costs
// is its own: segmentio's error for a value nested d deep allocates in
// proportion to d², up to its limit of 1,000 levels.
//
// # Deviations
//
// Check reads empty arguments as {} (json.Unmarshal fails on empty input).
// It reports top-level keys the binder would drop as UnknownArgument issues,
// and the codes above, none of which the binder fails on (their Class is
// not BinderFailure). A type's decoding method runs on a
// fresh value each time, where the binder runs it on the value the field
// already holds from an earlier occurrence of the same key: only a method
// whose verdict depends on that earlier state can tell the difference.
package bind
