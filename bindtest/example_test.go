package bindtest_test

import (
	"fmt"
	"strings"

	"github.com/bindguard/bindguard/bindtest"
	"github.com/bindguard/bindguard/typereg"
)

type listArgs struct {
	Limit int32    `json:"limit,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

// Check sends each row to the binder and to the guard, and says what each
// did. (In a test, Run does the same and reports the rows that do not hold.)
func ExampleCheck() {
	reg := typereg.New()
	if err := typereg.Register[listArgs](reg, "list_items"); err != nil {
		panic(err)
	}
	results, err := bindtest.Check(reg, "list_items", []bindtest.Row{
		{Type: "int32", Value: "50"},
		{Type: "int32", Value: "3000000000", Refused: true, Says: "which is too large"},
		{Type: "[]string", Value: `["a",5]`, Refused: true},
	})
	if err != nil {
		panic(err)
	}
	for _, r := range results {
		fmt.Printf("%s <- %s: binder ok %v, refused %v, faults %d\n", r.Argument, r.Value, r.BinderOK, r.Refused, len(r.Faults))
		if r.Refused {
			fmt.Println("  " + strings.SplitN(r.Message, "\n", 2)[0])
		}
	}
	// Output:
	// limit <- 50: binder ok true, refused false, faults 0
	// limit <- 3000000000: binder ok false, refused true, faults 0
	//   Argument 'limit' for tool 'list_items' takes a whole number, and the call sent 3000000000, which is too large.
	// tags <- ["a",5]: binder ok false, refused true, faults 0
	//   Argument 'tags' for tool 'list_items' takes a list (a JSON array) of texts, and the call sent ["a",5], with 5 at tags[1].
}

// A table file keeps each value's JSON text exactly; a row without
// "refused" states no verdict.
func ExampleReadTable() {
	rows, err := bindtest.ReadTable(strings.NewReader(`[
		{"type": "uint64", "value": 18446744073709551615, "refused": false},
		{"type": "int32", "value": 3000000000, "refused": true, "says": "too large"},
		{"type": "string", "value": "\ud800"}
	]`))
	if err != nil {
		panic(err)
	}
	for _, r := range rows {
		fmt.Printf("%s %s refused=%v no-verdict=%v says=%q\n", r.Type, r.Value, r.Refused, r.NoVerdict, r.Says)
	}
	// Output:
	// uint64 18446744073709551615 refused=false no-verdict=false says=""
	// int32 3000000000 refused=true no-verdict=false says="too large"
	// string "\ud800" refused=false no-verdict=true says=""
}
