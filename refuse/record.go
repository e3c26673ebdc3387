package refuse

import (
	"sync/atomic"

	"github.com/bindguard/bindguard/internal/bindcap"
	"github.com/bindguard/bindguard/internal/schemacheck"
	"github.com/bindguard/bindguard/internal/toolrec"
	"github.com/bindguard/bindguard/typereg"
	"github.com/invopop/jsonschema"
)

// The record of a tool, read in place (internal/toolrec): typereg's
// exported accessors copy, and a call must not pay for that.
var (
	recParams    = toolrec.Params.(func(*typereg.Tool) []typereg.Param)
	recPolicy    = toolrec.Policy.(func(*typereg.Tool) *typereg.Policy)
	recTopKeys   = toolrec.TopKeys.(func(*typereg.Tool) bindcap.TopKeys)
	recSchema    = toolrec.Schema.(func(*typereg.Tool) *jsonschema.Schema)
	recPublished = toolrec.Published.(func(*typereg.Tool) *schemacheck.Schema)
	paramSchema  = toolrec.ParamSchema.(func(*typereg.Param) *jsonschema.Schema)
	fieldIndexOf = toolrec.ParamIndex.(func(*typereg.Param) []int)
	recDerived   = toolrec.DerivedSlot.(func(*typereg.Tool) *atomic.Pointer[toolrec.Derived])
)
