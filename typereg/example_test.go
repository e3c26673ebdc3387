package typereg_test

import (
	"encoding/json"
	"fmt"

	"github.com/bindguard/bindguard/typereg"
)

type SearchArgs struct {
	Query string `json:"query"`
	Limit *int   `json:"limit,omitempty"`
	Page
}

type Page struct {
	Cursor string `json:"cursor,omitempty"`
}

func ExampleRegister() {
	reg := typereg.New()
	if err := typereg.Register[SearchArgs](reg, "search"); err != nil {
		panic(err)
	}
	tool, _ := reg.Tool("search")
	for _, p := range tool.Params() {
		fmt.Printf("%s: %v (Go field %s, required %v, nullable %v)\n", p.Name, p.Type, p.GoName, p.Required, p.Nullable)
	}
	schema, _ := json.Marshal(tool.Schema())
	fmt.Println(string(schema))
	// Output:
	// query: string (Go field Query, required true, nullable false)
	// limit: *int (Go field Limit, required false, nullable true)
	// cursor: string (Go field Page.Cursor, required false, nullable false)
	// {"properties":{"query":{"type":"string"},"limit":{"type":"integer"},"cursor":{"type":"string"}},"additionalProperties":false,"type":"object","required":["query"]}
}

type WatchArgs struct {
	Updates chan string `json:"updates"`
}

func ExampleRegister_error() {
	err := typereg.Register[WatchArgs](typereg.New(), "watch")
	fmt.Println(err)
	// Output:
	// typereg: tool "watch": bind: field Updates of typereg_test.WatchArgs: the binder cannot decode into chan string; only null would be read
}
