package weight_test

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	// What a program using the core imports (the README's "Use it").
	_ "github.com/bindguard/bindguard/refuse"
	_ "github.com/bindguard/bindguard/typereg"
)

// linkedModules are the modules a program importing typereg and refuse
// links, each for what it does (docs/performance.md). A new one fails the
// test: say in the docs what it costs and why, then add it here.
var linkedModules = map[string]string{
	"golang.org/x/sys":                              "the validator's and the ordered map's dependencies (and segmentio/asm's CPU detection, with bind/segmentio)",
	"github.com/go-playground/validator/v10":        "validate tags (typereg, refuse)",
	"github.com/gabriel-vasile/mimetype":            "the validator's mimetype tags",
	"github.com/go-playground/locales":              "the validator's translations",
	"github.com/go-playground/universal-translator": "the validator's translations",
	"github.com/leodido/go-urn":                     "the validator's urn_rfc2141 tag",
	"golang.org/x/crypto":                           "the validator's sha3 hashes",
	"golang.org/x/text":                             "the validator's bcp47 tag",
	"github.com/invopop/jsonschema":                 "the published schema (typereg)",
	"github.com/google/jsonschema-go":               "a published input schema read (typereg.RegisterSchema, internal/schemacheck), go-sdk's own schema type",
	"github.com/wk8/go-ordered-map/v2":              "invopop v0.13's properties",
	"github.com/pb33f/ordered-map/v2":               "invopop v0.14's properties",
	"github.com/bahlo/generic-list-go":              "the ordered map's list",
	"github.com/buger/jsonparser":                   "the ordered map's UnmarshalJSON",
	"github.com/mailru/easyjson":                    "wk8's ordered map's MarshalEasyJSON",
	"gopkg.in/yaml.v3":                              "wk8's ordered map's YAML methods",
	"github.com/pb33f/go-yaml":                      "pb33f's ordered map's YAML methods (v2.3.2)",
	"go.yaml.in/yaml/v4":                            "pb33f's ordered map's YAML methods (v2.3.1)",
}

// heavyStd are standard packages the core must not link: a server that
// speaks stdio would carry an HTTP stack for nothing.
var heavyStd = []string{"net/http", "crypto/tls", "os/exec", "text/template", "html/template"}

// TestCore_LinksOnlyWhatItNeeds lists what typereg and refuse pull into a
// program (go list -deps) against linkedModules and heavyStd.
func TestCore_LinksOnlyWhatItNeeds(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{with .Module}}{{.Path}}{{end}}{{else}}std {{.ImportPath}}{{end}}",
		"github.com/bindguard/bindguard/typereg", "github.com/bindguard/bindguard/refuse").Output()
	if err != nil {
		t.Skipf("go list: %v", err) // no go command: nothing to compare with
	}
	seen := map[string]bool{}
	for _, line := range strings.Fields(strings.ReplaceAll(string(out), "std ", "std:")) {
		if pkg, ok := strings.CutPrefix(line, "std:"); ok {
			if slices.Contains(heavyStd, pkg) {
				t.Errorf("the core links %s", pkg)
			}
			continue
		}
		if line == "github.com/bindguard/bindguard" || seen[line] {
			continue
		}
		seen[line] = true
		if _, ok := linkedModules[line]; !ok {
			t.Errorf("the core links module %s, not in the list of what it needs", line)
		}
	}
}

// selectedModules are the decoders of the binders beside encoding/json,
// which a program links only by importing the binder's package.
var selectedModules = map[string][]string{
	"github.com/bindguard/bindguard/bind/jsonv2":    {"github.com/go-json-experiment/json"},
	"github.com/bindguard/bindguard/bind/segmentio": {"github.com/segmentio/encoding", "github.com/segmentio/asm"},
}

// TestCore_LinksOnlyTheBindersItSelects: a program that mirrors
// encoding/json (bind, typereg, refuse) links neither go-json-experiment
// nor segmentio, and one that imports bind/jsonv2 or bind/segmentio links
// that binder's decoder and not the other's (go list -deps).
func TestCore_LinksOnlyTheBindersItSelects(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	const mod = "github.com/bindguard/bindguard"
	modules := func(pkgs ...string) map[string]bool {
		out, err := exec.Command(goTool, append([]string{"list", "-deps", "-f", "{{with .Module}}{{.Path}}{{end}}"}, pkgs...)...).Output()
		if err != nil {
			t.Fatalf("go list -deps %v: %v", pkgs, err)
		}
		m := map[string]bool{}
		for _, f := range strings.Fields(string(out)) {
			m[f] = true
		}
		return m
	}
	core := modules(mod+"/bind", mod+"/typereg", mod+"/refuse")
	for _, mods := range selectedModules {
		for _, m := range mods {
			if core[m] {
				t.Errorf("a program importing only bind, typereg and refuse links %s", m)
			}
		}
	}
	for pkg, mine := range selectedModules {
		got := modules(pkg)
		for _, m := range mine {
			if !got[m] {
				t.Errorf("a program importing %s does not link its decoder %s", pkg, m)
			}
		}
		for other, theirs := range selectedModules {
			for _, m := range theirs {
				if other != pkg && got[m] {
					t.Errorf("a program importing %s links %s, %s's decoder", pkg, m, other)
				}
			}
		}
	}
}

// TestCore_InitDoesLittle runs this test binary again with
// GODEBUG=inittrace=1 and reads what each of the module's own packages
// allocates at start-up: a package may keep tables, but builds nothing
// heavy (a validator, a regexp) before a program asks for it.
func TestCore_InitDoesLittle(t *testing.T) {
	if os.Getenv("BINDGUARD_WEIGHT_CHILD") != "" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "BINDGUARD_WEIGHT_CHILD=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %s", err, stderr.Bytes())
	}
	found := 0
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// init github.com/bindguard/bindguard/bind @1.2 ms, 0.01 ms clock, 1234 bytes, 5 allocs
		f := strings.Fields(sc.Text())
		if len(f) < 10 || f[0] != "init" || !strings.HasPrefix(f[1], "github.com/bindguard/bindguard/") {
			continue
		}
		found++
		bytes, _ := strconv.Atoi(f[7])
		allocs, _ := strconv.Atoi(f[9])
		if allocs > 40 || bytes > 8<<10 {
			t.Errorf("package %s allocates %d bytes in %d allocations at init", f[1], bytes, allocs)
		}
	}
	if found == 0 {
		t.Fatalf("no init trace of the module's packages in:\n%s", stderr.Bytes())
	}
}
