package refuse_test

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// GetWaitStats is a tool's parameter struct, as a server declares it.
type GetWaitStats struct {
	HoursBack int      `json:"hours_back"`
	Limit     *int32   `json:"limit,omitempty"`
	Waits     []string `json:"waits,omitempty"`
}

func Example() {
	reg := typereg.New()
	if err := typereg.Register[GetWaitStats](reg, "get_wait_stats"); err != nil {
		panic(err)
	}

	// A call the binder reads goes on.
	fmt.Println(refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"hours_back":24,"limit":10}`)) == nil)

	// A call it would fail on, or would silently drop part of, is refused.
	r := refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"hours_back":0.5,"limit":3000000000,"hours":2}`))
	fmt.Println(r)
	// Output:
	// true
	// Argument 'hours_back' for tool 'get_wait_stats' takes a whole number, and the call sent 0.5.
	// Argument 'limit' for tool 'get_wait_stats' takes a whole number, and the call sent 3000000000, which is too large.
	// Argument 'hours' is not a parameter of tool 'get_wait_stats'; did you mean 'hours_back'?
	// Accepted parameters: hours_back, limit, waits.
}

func ExampleRefusal() {
	reg := typereg.New()
	if err := typereg.Register[GetWaitStats](reg, "get_wait_stats"); err != nil {
		panic(err)
	}
	var err error = refuse.Refuse(reg, "get_wait_stats", json.RawMessage(`{"hours_back":24,"waits":["CXPACKET",7]}`))

	// A refusal is an error value: read its fields, not its text.
	var r *refuse.Refusal
	if errors.As(err, &r) {
		for _, p := range r.Problems {
			fmt.Printf("%s%s: %s (sent %s, with %s there)\n", p.Argument, p.Path, p.Code, p.Sent, p.Element)
		}
	}
	// Output:
	// waits[1]: wrong_type (sent ["CXPACKET",7], with 7 there)
}

// Decide under Warn: the call goes on, with the alias renamed for the
// handler and the unknown key reported with the result.
func ExampleDecide() {
	type Stats struct {
		Hours int    `json:"hours" bindguard:"alias=hrs"`
		Name  string `json:"name,omitempty"`
	}
	reg := typereg.New(typereg.WithMode(typereg.Warn))
	if err := typereg.Register[Stats](reg, "stats"); err != nil {
		panic(err)
	}
	d := refuse.Decide(reg, "stats", json.RawMessage(`{"hrs":6,"colour":"teal"}`))
	fmt.Println(d.Refusal == nil)
	fmt.Println(string(d.Args)) // decode these, not the call's own
	fmt.Println(d.Warnings)
	// Output:
	// true
	// {"hours":6,"colour":"teal"}
	// The call to tool 'stats' went on with these warnings:
	// Argument 'colour' is not a parameter of tool 'stats'.
	// Accepted parameters: hours, name.
}
