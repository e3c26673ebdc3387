package gosdk_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestAdapter_LinksOnlyItsBinder: go-sdk decodes with segmentio, and the
// adapter mirrors it (segmentio.Binder), so a server using the adapter
// links segmentio, which go-sdk links anyway, and not go-json-experiment
// (go list -deps).
func TestAdapter_LinksOnlyItsBinder(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(goTool, "list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}", "github.com/bindguard/bindguard/mcpguard/gosdk").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	linked := map[string]bool{}
	for _, m := range strings.Fields(string(out)) {
		linked[m] = true
	}
	if linked["github.com/go-json-experiment/json"] {
		t.Error("a server using the go-sdk adapter links github.com/go-json-experiment/json")
	}
	if !linked["github.com/segmentio/encoding"] {
		t.Error("a server using the go-sdk adapter does not link github.com/segmentio/encoding, its binder's decoder")
	}
}
