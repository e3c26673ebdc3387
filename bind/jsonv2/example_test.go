package jsonv2_test

import (
	"encoding/json"
	"fmt"

	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// A server that decodes with go-json-experiment registers its tools with
// jsonv2.Binder: the guard refuses what V2 refuses, here a repeated key,
// which encoding/json would read.
func Example() {
	type Stats struct {
		HoursBack int `json:"hours_back"`
	}
	reg := typereg.New(typereg.WithBinder(jsonv2.Binder))
	if err := typereg.Register[Stats](reg, "get_wait_stats"); err != nil {
		panic(err)
	}
	fmt.Println(refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"hours_back":24}`)) == nil)
	fmt.Println(refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"hours_back":24,"hours_back":48}`)))
	// Output:
	// true
	// Argument 'hours_back' for tool 'get_wait_stats' was sent more than once, under the key "hours_back", and the tool refuses a repeated key: send it once.
	// Accepted parameters: hours_back.
}
