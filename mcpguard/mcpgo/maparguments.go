package mcpgo

import (
	"encoding/json"

	"github.com/bindguard/bindguard/bind"
)

// MapArguments is mcp-go's map of the arguments, re-marshalled, as a
// binder: what a handler does that reads CallToolRequest.GetArguments (or
// Params.Arguments) and decodes it into its struct through JSON
// (json.Marshal, then json.Unmarshal), as servers that wrap their tools in
// a generic helper do. Give it to the registry
// (typereg.WithBinder(mcpgo.MapArguments)) of such a server, so that the
// guard refuses exactly what that path refuses and passes what it reads.
//
// It runs the same calls, through bind.Reader: the arguments are decoded
// into an any with encoding/json (as mcp-go's CallToolParams does), taken
// as GetArguments takes them (a JSON object; anything else is no
// arguments, which the struct reads as all zero), written back with
// encoding/json and decoded into the struct. What this path changes on the
// way is a silent loss the guard names: a number past 2^53 rounded by the
// map's float64 (9007199254740993 for an int64 arrives as
// 9007199254740992), a repeated key (the map keeps the last value).
//
// A handler that reads RawArguments (mcp.NewTypedToolHandler, or
// BindArguments on a call that came over the wire) decodes the caller's
// bytes with encoding/json: that is bind.Std, the default. A server with
// coercions of its own (text to numbers, a value to a one-element list)
// gives its own decode function to bind.Reader instead.
var MapArguments bind.Binder = bind.Reader("mcp-go-map", decodeMap)

func decodeMap(data []byte, v any) error {
	var a any
	if err := json.Unmarshal(data, &a); err != nil {
		return err
	}
	m, _ := a.(map[string]any) // CallToolRequest.GetArguments
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}
