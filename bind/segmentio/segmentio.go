// Package segmentio selects github.com/segmentio/encoding/json, as the MCP
// go-sdk decodes tool arguments with it, as the binder bindguard mirrors:
// a server built on go-sdk registers its tools with Binder
// (mcpguard/gosdk does). Only a program that imports this package links
// segmentio (a server that mirrors encoding/json, bind.Std, does not).
package segmentio

import (
	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/internal/decoders"
	_ "github.com/bindguard/bindguard/internal/segdec" // installs segmentio into bind
)

// Binder is github.com/segmentio/encoding/json (v0.5.4) as the MCP
// go-sdk decodes tool arguments with it. Binder.Unmarshal(data, v):
//
//  1. fails when data nests deeper than bind.SegmentIOMaxDepth arrays and
//     objects, counting brackets outside strings as go-sdk does, before
//     segmentio sees data;
//  2. decodes the first JSON value in data with a segmentio Decoder set to
//     DontMatchCaseInsensitiveStructFields, as go-sdk's internal json
//     package does (the Decoder validates the whole value, then decodes it
//     with segmentio's Parse; when data is one valid value, Unmarshal calls
//     Valid and Parse itself, which is the same, without the Decoder's
//     32 KiB read buffer);
//  3. fails, as encoding/json's and segmentio's own Unmarshal do, when
//     anything but space follows that value (a go-sdk Decoder would leave
//     it unread; arguments that reach a handler are one JSON value).
//
// Where it differs from bind.Std:
//
//   - Keys bind by exact, case-sensitive name: HOURS_BACK is dropped.
//   - A repeated key is decoded at every occurrence, as in Std.
//   - Invalid UTF-8 is replaced by U+FFFD, as in Std; so are escaped
//     surrogates without their pair.
//   - null leaves a non-pointer field as it was, as in Std.
//   - An integer type reads a whole JSON number only ("1e2" and "1.0"
//     fail), as in Std.
//   - A json.Number reads a JSON number only; Std also reads a string
//     holding one.
//   - A time.Duration reads an integer (nanoseconds) or a string in
//     time.ParseDuration's syntax ("1s"); Std reads integers only.
//   - A time.Time reads a string by segmentio's own ISO 8601 parser.
//   - A fixed-size array drops extra elements and leaves missing ones, as
//     in Std.
//   - The ,string option is read by segmentio's own code: for a float
//     field, "05" fails and "5 " is read, the other way round from Std.
//   - Fields promoted from embedded structs are settled by segmentio's
//     rules: a field of the outer struct always wins, two promoted fields
//     of one name drop each other unless exactly one is tagged, and two
//     fields tagged alike in one struct both stay (the key binds the first
//     of them, or on CPUs without the instructions segmentio's keyset uses,
//     the last).
//   - Nesting is limited to bind.SegmentIOMaxDepth (1,000) arrays and objects;
//     Std's limit is 10,000.
//   - Anything but space after the value fails, as in Std.
//
// On a call segmentio reads, bind.Plan.Check also reports what it changes or drops
// without failing (the silent losses; see bind.Code), found by walking the
// text against the struct's positions as segmentio binds them:
//
//   - NullForValue: null for a position that has no nil (a number, string,
//     bool, struct or fixed-size array, json.Number, time.Time,
//     time.Duration, a type read by UnmarshalText), which segmentio leaves
//     as it was; a ,string field's "null" too, and the key "null" of a
//     map of integer keys, which segmentio reads as the key 0. Not for a
//     type whose UnmarshalJSON reads null itself.
//   - RoundedNumber: an integer, written with no fraction and no exponent,
//     that a float32, float64 or any (a float64) cannot hold exactly, which
//     segmentio rounds, ,string fields included.
//   - UnknownField: a key inside a nested struct's object that names no
//     field exactly, which segmentio drops.
//   - DuplicateKey: each repeat of a key in one object, at the top level, in
//     a nested struct, in a map (keys compared as the key type reads them:
//     "-0" and "null" repeat "0" for an integer key, segmentio reading the
//     key null as 0) or in an object read into any.
//     segmentio reads every occurrence: the last value wins, but for a
//     null after a value of a type with no nil (the value stays) and a
//     repeated object, decoded into what the first one left.
//   - ArrayLength: a fixed-size array sent more elements (dropped) or fewer
//     (left zero) than it has; N is the number sent. (segmentio v0.5.4
//     fails on [] for a fixed-size array.)
//   - ReplacedText: invalid UTF-8 or a lone surrogate escape in a string read
//     into a string kind, any, a map key, a ,string string or a type read
//     by UnmarshalText, which segmentio replaces with U+FFFD before it
//     stores the text or calls the method. A json.RawMessage or a type with
//     UnmarshalJSON gets the bytes as sent: no loss.
//   - WrappedNumber: a whole number past a 64-bit integer's range (into an
//     int, int64, uint, uint64, uintptr, or a time.Duration sent as a
//     number; a value, a ,string field's text or a map key) that segmentio
//     reads as another number without failing: it parses in wrapping
//     64-bit arithmetic and fails only where a step makes the value
//     smaller, so 21000000000000000000 reads as 2553255926290448384. The
//     smaller integer kinds fail on every number past them, as Std does.
//
// SegmentIO has no FoldedKey: keys bind by exact name only. A parameter
// bind.Plan.WithRequired names is MissingArgument unless a top-level key names it.
//
// Check reads the arguments first with segmentio's own rules (its field
// list, exact names as go-sdk sets it, bind.SegmentIOMaxDepth), in one pass
// that proves a call clean or declines (see package bind's documentation): a
// call it proves clean segmentio reads without error and without loss,
// and Check returns no issue without decoding. Every other call is
// mirrored by trial: Check decodes the arguments with Binder.Unmarshal
// itself, once, into a fresh value of the tool's struct, so the verdict is
// segmentio's own and costs about one extra decode. Only when it fails does Check decode each argument
// alone (into a one-field struct of the field's type and tag options) to
// name the ones it fails on. Nesting past bind.SegmentIOMaxDepth is one TooDeep
// issue, in the argument it happens in. segmentio's own error text quotes
// up to 32 bytes of what follows the offending value, other arguments
// included; an issue's Start and End delimit the offending value only, and
// its Err comes from decoding that argument alone, so it quotes no other.
//
// Binder.Compile refuses a type that holds itself through no struct (type Tree
// []Tree, map[string]*M, [2]*A): segmentio builds a type's decoder by a
// recursion that stops only at structs, so on such a type its first
// Unmarshal overflows the stack, which kills the process. Recursion through
// a struct (Next *Node, Kids []Node) is read and mirrored at every depth.
var Binder bind.Binder = decoders.SegmentIOBinder.(bind.Binder)
