package refuse

import (
	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/typereg"
)

// hasConstraints reports whether tool t's parameters carry validate tags.
func hasConstraints(t *typereg.Tool) bool { return false }

// constraintProblems decodes args for tool t and checks the tool's own
// constraints; issues are what else was found (an argument with a problem
// already is not checked again).
func constraintProblems(t *typereg.Tool, args []byte, issues []bind.Issue) []Problem { return nil }
