package snippets

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// docFiles are the documents whose Go code blocks must be held.
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"../../README.md"}
	more, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append(files, more...)
}

// A block is one ```go code block of a document.
type block struct {
	file string
	line int // of the opening fence
	text string
}

// goBlocks returns the ```go blocks of the document at path, dedented.
func goBlocks(t *testing.T, path string) []block {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []block
	var cur *block
	var lines []string
	for i, l := range strings.Split(string(data), "\n") {
		trimmed := strings.TrimSpace(l)
		switch {
		case cur == nil && trimmed == "```go":
			cur = &block{file: path, line: i + 1}
			lines = nil
		case cur != nil && trimmed == "```":
			cur.text = dedent(lines)
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			lines = append(lines, l)
		}
	}
	if cur != nil {
		t.Fatalf("%s:%d: a ```go block is never closed", path, cur.line)
	}
	return out
}

// regions returns the snippet regions of this package's test files, by
// name, dedented.
func regions(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("*_test.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		name, line := "", 0
		var lines []string
		for sc.Scan() {
			line++
			l := sc.Text()
			trimmed := strings.TrimSpace(l)
			switch {
			case strings.HasPrefix(trimmed, "// snippet: "):
				if name != "" {
					t.Fatalf("%s:%d: snippet %q opens inside snippet %q", f, line, trimmed, name)
				}
				name, lines = strings.TrimPrefix(trimmed, "// snippet: "), nil
				if _, dup := out[name]; dup {
					t.Fatalf("%s:%d: snippet %q is declared twice", f, line, name)
				}
			case trimmed == "// end snippet":
				if name == "" {
					t.Fatalf("%s:%d: an end with no snippet open", f, line)
				}
				out[name] = dedent(lines)
				name = ""
			case name != "":
				lines = append(lines, l)
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
		if name != "" {
			t.Fatalf("%s: snippet %q is never ended", f, name)
		}
	}
	return out
}

// dedent removes the indentation every non-blank line shares, and the
// blank lines around the text.
func dedent(lines []string) string {
	prefix := ""
	first := true
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ind := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if first {
			prefix, first = ind, false
			continue
		}
		for !strings.HasPrefix(ind, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = strings.TrimPrefix(l, prefix)
		if strings.TrimSpace(l) == "" {
			out[i] = ""
		}
	}
	return strings.Trim(strings.Join(out, "\n"), "\n")
}

func TestDocSnippets(t *testing.T) {
	regs := regions(t)
	used := map[string]bool{}
	n := 0
	for _, f := range docFiles(t) {
		for _, b := range goBlocks(t, f) {
			n++
			found := false
			for name, text := range regs {
				if text == b.text {
					used[name], found = true, true
				}
			}
			if !found {
				t.Errorf("%s:%d: this Go block is held by no snippet region of internal/snippets; copy it into one, where it compiles and runs:\n%s", b.file, b.line, b.text)
			}
		}
	}
	for name := range regs {
		if !used[name] {
			t.Errorf("snippet region %q matches no Go block of the README or docs/: remove it, or fix the document", name)
		}
	}
	if n == 0 {
		t.Fatal("no Go block found in the README or docs/: the paths are wrong")
	}
}

func TestDedent(t *testing.T) {
	got := dedent([]string{"", "\tfunc f() {", "\t\treturn", "", "\t}", ""})
	if want := "func f() {\n\treturn\n\n}"; got != want {
		t.Fatalf("dedent = %q, want %q", got, want)
	}
}
