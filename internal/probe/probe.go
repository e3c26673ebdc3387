// Package probe holds the probe tool: one parameter of each type in the
// vocabulary the default value table covers, for bindprobe and the tests.
package probe

import (
	"encoding/json"
	"errors"
	"time"

	"github.com/invopop/jsonschema"
)

// Tool is the probe tool's name.
const Tool = "probe_argument_types"

// Nested is a small struct parameter.
type Nested struct {
	A int `json:"a"`
}

// Color is a text enum: its UnmarshalText accepts exactly crimson, teal and
// amber.
type Color string

// UnmarshalText accepts exactly crimson, teal and amber.
func (c *Color) UnmarshalText(b []byte) error {
	switch s := string(b); s {
	case "crimson", "teal", "amber":
		*c = Color(s)
		return nil
	}
	return errors.New("not a color")
}

// JSONSchema advertises the members.
func (Color) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{Type: "string", Enum: []any{"crimson", "teal", "amber"}}
}

// Flex accepts a JSON number, or a JSON string of one or more ASCII digits,
// and nothing else (null included).
type Flex string

// UnmarshalJSON accepts a number, or a string of ASCII digits.
func (f *Flex) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && (b[0] == '-' || '0' <= b[0] && b[0] <= '9') {
		*f = Flex(b)
		return nil
	}
	if len(b) >= 3 && b[0] == '"' && b[len(b)-1] == '"' {
		for _, c := range b[1 : len(b)-1] {
			if c < '0' || c > '9' {
				return errors.New("flex: not digits")
			}
		}
		*f = Flex(b[1 : len(b)-1])
		return nil
	}
	return errors.New("flex: takes a number or a string of digits")
}

// JSONSchema advertises what UnmarshalJSON accepts.
func (Flex) JSONSchema() *jsonschema.Schema {
	return &jsonschema.Schema{OneOf: []*jsonschema.Schema{
		{Type: "number"},
		{Type: "string", Pattern: "^[0-9]+$"},
	}}
}

// IntString is an int read from inside a JSON string (the field carries
// the ,string option).
type IntString int

// Args has one parameter per vocabulary type. Every field is optional, so a
// call may send any one of them alone.
type Args struct {
	Int        int             `json:"int,omitempty"`
	Int8       int8            `json:"int8,omitempty"`
	Int16      int16           `json:"int16,omitempty"`
	Int32      int32           `json:"int32,omitempty"`
	Int64      int64           `json:"int64,omitempty"`
	Uint       uint            `json:"uint,omitempty"`
	Uint8      uint8           `json:"uint8,omitempty"`
	Uint16     uint16          `json:"uint16,omitempty"`
	Uint32     uint32          `json:"uint32,omitempty"`
	Uint64     uint64          `json:"uint64,omitempty"`
	Float32    float32         `json:"float32,omitempty"`
	Float64    float64         `json:"float64,omitempty"`
	Bool       bool            `json:"bool,omitempty"`
	String     string          `json:"string,omitempty"`
	IntPtr     *int            `json:"int_ptr,omitempty"`
	BoolPtr    *bool           `json:"bool_ptr,omitempty"`
	StringPtr  *string         `json:"string_ptr,omitempty"`
	Float64Ptr *float64        `json:"float64_ptr,omitempty"`
	Ints       []int           `json:"ints,omitempty"`
	Strings    []string        `json:"strings,omitempty"`
	IntPtrs    []*int          `json:"int_ptrs,omitempty"`
	Pair       [2]int          `json:"pair,omitempty"`
	Counts     map[string]int  `json:"counts,omitempty"`
	Names      map[int]string  `json:"names,omitempty"`
	Bytes      []byte          `json:"bytes,omitempty"`
	Number     json.Number     `json:"number,omitempty"`
	Raw        json.RawMessage `json:"raw,omitempty"`
	Any        any             `json:"any,omitempty"`
	Time       time.Time       `json:"time,omitempty"`
	Duration   time.Duration   `json:"duration,omitempty"`
	TimePtr    *time.Time      `json:"time_ptr,omitempty"`
	Nested     Nested          `json:"nested,omitempty"`
	NestedPtr  *Nested         `json:"nested_ptr,omitempty"`
	Color      Color           `json:"color,omitempty"`
	Flex       Flex            `json:"flex,omitempty"`
	IntString  IntString       `json:"int_string,string,omitempty"`
	Colors     []Color         `json:"colors,omitempty"`
}
