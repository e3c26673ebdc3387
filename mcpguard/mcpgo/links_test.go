package mcpgo_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAdapter_LinksNoOtherBinder: mcp-go decodes with encoding/json, and
// the adapter mirrors it (bind.Std), so a server using the adapter links
// neither go-json-experiment nor segmentio (go list -deps).
func TestAdapter_LinksNoOtherBinder(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "github.com/bindguard/bindguard/mcpguard/mcpgo").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	seen := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		if !seen[m] && (m == "github.com/go-json-experiment/json" || strings.HasPrefix(m, "github.com/segmentio/")) {
			t.Errorf("a server using the mcp-go adapter links %s", m)
		}
		seen[m] = true
	}
}
