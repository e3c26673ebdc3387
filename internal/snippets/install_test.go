package snippets

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const repoModule = "github.com/bindguard/bindguard"

// requires returns the version at which the go.mod-format file at path
// requires module mod ("" when it does not).
func requires(t *testing.T, path, mod string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(l), "require "))
		if len(f) >= 2 && f[0] == mod {
			return f[1]
		}
	}
	return ""
}

// TestReadme_InstallLinesNameTheModules holds the README's install lines to
// the tree: each `go get` or `go install` names a module of this
// repository (a directory with that go.mod, listed in go.work), and each
// adapter's stated SDK range is the one its go.mod (the floor) and
// go.newest.mod (the newest) require.
func TestReadme_InstallLinesNameTheModules(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	work, err := os.ReadFile("../../go.work")
	if err != nil {
		t.Fatal(err)
	}
	line := regexp.MustCompile(`(?m)^    go (?:get|install) (` + regexp.QuoteMeta(repoModule) + `[^@\s]*)(?:@\S+)?(?:\s+# (.*))?$`)
	sdkRange := regexp.MustCompile(`^(\S+) (v\S+) to (v\S+)$`)
	sdks := map[string]string{"go-sdk": "github.com/modelcontextprotocol/go-sdk", "mcp-go": "github.com/mark3labs/mcp-go"}
	matches := line.FindAllStringSubmatch(string(readme), -1)
	if len(matches) < 4 {
		t.Fatalf("the README has %d install lines, want one for the core, each adapter and bindprobe", len(matches))
	}
	for _, m := range matches {
		mod, comment := m[1], m[2]
		dir := filepath.Join("../..", strings.TrimPrefix(strings.TrimPrefix(mod, repoModule), "/"))
		gomod, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err != nil {
			t.Errorf("README installs %s: no go.mod in %s", mod, dir)
			continue
		}
		if first, _, _ := strings.Cut(string(gomod), "\n"); first != "module "+mod {
			t.Errorf("README installs %s: %s/go.mod says %q", mod, dir, first)
		}
		use := "./" + filepath.ToSlash(strings.TrimPrefix(dir, "../../"))
		if dir == "../.." {
			use = "."
		}
		if !regexp.MustCompile(`(?m)^\s*(use\s+)?` + regexp.QuoteMeta(use) + `\s*$`).Match(work) {
			t.Errorf("README installs %s: go.work does not use %s", mod, use)
		}
		r := sdkRange.FindStringSubmatch(comment)
		if r == nil {
			continue
		}
		sdk, ok := sdks[r[1]]
		if !ok {
			t.Errorf("README: %s: unknown SDK %q", mod, r[1])
			continue
		}
		if got := requires(t, filepath.Join(dir, "go.mod"), sdk); got != r[2] {
			t.Errorf("README says %s supports %s from %s; its go.mod requires %q", mod, r[1], r[2], got)
		}
		if got := requires(t, filepath.Join(dir, "go.newest.mod"), sdk); got != r[3] {
			t.Errorf("README says %s supports %s up to %s; its go.newest.mod requires %q", mod, r[1], r[3], got)
		}
	}
}
