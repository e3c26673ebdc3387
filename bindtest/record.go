package bindtest

import (
	"github.com/bindguard/bindguard/internal/schemacheck"
	"github.com/bindguard/bindguard/internal/toolrec"
	"github.com/bindguard/bindguard/typereg"
)

var published = toolrec.Published.(func(*typereg.Tool) *schemacheck.Schema)

// schemaTool reports whether t was recorded from its published schema
// (typereg.RegisterSchema): it has no Go types, and no validate tags.
func schemaTool(t *typereg.Tool) bool { return published(t) != nil }
