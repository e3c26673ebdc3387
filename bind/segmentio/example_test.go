package segmentio_test

import (
	"encoding/json"
	"fmt"

	"github.com/bindguard/bindguard/bind/segmentio"
	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// A server that decodes as go-sdk does registers its tools with
// segmentio.Binder: the guard reads keys by exact name, as segmentio does
// when go-sdk sets it, so HOURS_BACK is no parameter.
func Example() {
	type Stats struct {
		HoursBack int `json:"hours_back"`
	}
	reg := typereg.New(typereg.WithBinder(segmentio.Binder))
	if err := typereg.Register[Stats](reg, "get_wait_stats"); err != nil {
		panic(err)
	}
	fmt.Println(refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"hours_back":24}`)) == nil)
	fmt.Println(refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"HOURS_BACK":24}`)))
	// Output:
	// true
	// Argument 'hours_back' for tool 'get_wait_stats' is required, and the call did not send it: it takes a whole number.
	// Argument 'HOURS_BACK' is not a parameter of tool 'get_wait_stats'; did you mean 'hours_back'?
	// Accepted parameters: hours_back.
}
