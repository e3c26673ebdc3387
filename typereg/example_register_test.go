package typereg_test

import (
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/invopop/jsonschema"

	"github.com/bindguard/bindguard/refuse"
	"github.com/bindguard/bindguard/typereg"
)

// UpdateDashboard is tagged for a server that reflects its schemas with
// invopop's Reflector{RequiredFromJSONSchemaTags: true}.
type UpdateDashboard struct {
	UID       string `json:"uid" jsonschema:"required,description=The dashboard's UID"`
	Overwrite bool   `json:"overwrite" jsonschema:"description=Replace a dashboard of the same UID"`
}

// A server's own helper registers where it adds the tool, with the type it
// has at hand and the reflector its published schema comes from: only uid
// is required, as in that schema.
func ExampleRegisterType() {
	reflector := &jsonschema.Reflector{RequiredFromJSONSchemaTags: true}
	var in any = &UpdateDashboard{} // what a generic helper holds
	reg := typereg.New()
	if err := typereg.RegisterType(reg, "update_dashboard", reflect.TypeOf(in), typereg.WithReflector(reflector)); err != nil {
		panic(err)
	}
	tool, _ := reg.Tool("update_dashboard")
	required, _ := json.Marshal(tool.Schema().Required)
	fmt.Println(tool.Type(), string(required))
	fmt.Println(refuse.Refuse(reg, "update_dashboard", []byte(`{"uid":"a"}`)) == nil)
	// Output:
	// typereg_test.UpdateDashboard ["uid"]
	// true
}
