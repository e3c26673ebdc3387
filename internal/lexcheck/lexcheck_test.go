package lexcheck

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/jsonv2"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// notJSON are files whose byte comparisons read text that is not JSON, or
// JSON that is not the guard's to read.
var notJSON = map[string]string{
	"cmd/bindprobe/split.go":  "splits the -server command into shell words",
	"cmd/bindprobe/grade.go":  "grades the English text of a server's error message",
	"internal/probe/probe.go": "Flex.UnmarshalJSON stands for a user type's own method, written as a user writes one",
	"bench/rivals.go":         "gosdkCheckMaxDepth is go-sdk's own code, copied verbatim as the rival measured",
	"typereg/constraint.go":   "reads validator/v10's field namespaces (Args.Window[0]), not JSON",
	"bindtest/constraints.go": "reads validator/v10's field namespaces (Args.Window[0]), not JSON",
	"refuse/constraint.go":    "paramOf reads validator/v10's field namespaces (Args.Window[0]), not JSON",
	"bind/text.go":            "base64Valid skips \\r and \\n inside a []byte's text as base64.StdEncoding does: base64, not JSON",
}

// jsonChars are the characters a JSON lexer tells apart.
const jsonChars = "\"{}[]:, \t\n\r\\"

// A finding is one place a rule is broken.
type finding struct {
	pos  token.Position
	rule string // "lexer" or "binder name"
	what string
}

func (f finding) String() string { return fmt.Sprintf("%s: %s: %s", f.pos, f.rule, f.what) }

// inspect parses the file rel (its path from the repository's root,
// slash-separated) and returns where it breaks the rules; names are the
// binders' names.
func inspect(fset *token.FileSet, rel string, src []byte, names []string) ([]finding, error) {
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	lexerRule := !strings.HasPrefix(rel, "internal/jsonlex/")
	// bind knows its binders; bench measures each against its own decode,
	// so it picks a rival by binder.
	nameRule := filepath.ToSlash(filepath.Dir(rel)) != "bind" && !strings.HasPrefix(rel, "bench/")
	var out []finding
	add := func(n ast.Node, rule, format string, args ...any) {
		out = append(out, finding{pos: fset.Position(n.Pos()), rule: rule, what: fmt.Sprintf(format, args...)})
	}

	for _, decl := range f.Decls {
		// bytes are the names a declaration gives an indexed byte: c := d[i],
		// var c = d[i], c = d[i], for _, c := range d (by name within the
		// declaration: syntax alone does not resolve scopes).
		bytes := map[string]bool{}
		ast.Inspect(decl, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.AssignStmt:
				if len(n.Lhs) == len(n.Rhs) {
					for k, r := range n.Rhs {
						if id, ok := n.Lhs[k].(*ast.Ident); ok && isIndex(r) {
							bytes[id.Name] = true
						}
					}
				}
			case *ast.RangeStmt:
				// for _, b := range data: a byte of a []byte (or a rune of a
				// string, which the same rule holds).
				if id, ok := n.Value.(*ast.Ident); ok {
					bytes[id.Name] = true
				}
			case *ast.ValueSpec:
				if len(n.Names) == len(n.Values) {
					for k, v := range n.Values {
						if isIndex(v) {
							bytes[n.Names[k].Name] = true
						}
					}
				}
			}
			return true
		})
		indexed := func(e ast.Expr) bool {
			e = ast.Unparen(e)
			if id, ok := e.(*ast.Ident); ok {
				return bytes[id.Name]
			}
			return isIndex(e)
		}
		binderName := func(e ast.Expr) (string, bool) {
			s, ok := stringLit(e)
			return s, ok && slices.Contains(names, s)
		}

		ast.Inspect(decl, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.BinaryExpr:
				if n.Op != token.EQL && n.Op != token.NEQ {
					return true
				}
				for _, pair := range [2][2]ast.Expr{{n.X, n.Y}, {n.Y, n.X}} {
					side, other := pair[0], pair[1]
					if c, ok := jsonChar(other); lexerRule && ok && indexed(side) {
						add(n, "lexer", "an indexed byte compared with %q", c)
					}
					if b, ok := nativeBinder(other); nameRule && ok {
						add(n, "binder name", "a value compared with the binder %s", b)
					}
					if s, ok := stringLit(other); nameRule && ok && s != "" && isNameCall(side) {
						add(n, "binder name", "Name() compared with %q", s)
					} else if s, ok := binderName(other); nameRule && ok {
						add(n, "binder name", "a value compared with the binder name %q", s)
					}
				}
			case *ast.CallExpr:
				// bytes.IndexByte(d, '"'), bytes.TrimLeft(d, " \t\r\n"): a
				// search for a JSON character, or a skip of JSON's white
				// space, is a lexer by other means.
				if fn, ok := byteSearch(n); lexerRule && ok {
					for _, a := range n.Args {
						if c, ok := jsonChar(a); ok {
							add(n, "lexer", "%s for %q", fn, c)
						} else if s, ok := stringLit(a); ok && isJSONSpace(s) {
							add(n, "lexer", "%s for %q", fn, s)
						}
					}
				}
			case *ast.SwitchStmt:
				for _, cl := range n.Body.List {
					for _, e := range cl.(*ast.CaseClause).List {
						if c, ok := jsonChar(e); lexerRule && ok && n.Tag != nil && indexed(n.Tag) {
							add(e, "lexer", "a switch on an indexed byte with case %q", c)
						}
						if b, ok := nativeBinder(e); nameRule && ok {
							add(e, "binder name", "a switch with case %s", b)
						}
						if s, ok := stringLit(e); nameRule && ok && s != "" && n.Tag != nil && isNameCall(n.Tag) {
							add(e, "binder name", "a switch on Name() with case %q", s)
						} else if s, ok := binderName(e); nameRule && ok && n.Tag != nil {
							add(e, "binder name", "a switch with case %q, a binder's name", s)
						}
					}
				}
			}
			return true
		})
	}
	return out, nil
}

// byteSearch reports a call of a bytes or strings function that looks for
// given characters, and its name.
func byteSearch(call *ast.CallExpr) (string, bool) {
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	pkg, ok := sel.X.(*ast.Ident)
	if !ok || pkg.Name != "bytes" && pkg.Name != "strings" {
		return "", false
	}
	switch sel.Sel.Name {
	case "IndexByte", "LastIndexByte", "IndexRune", "ContainsRune", "IndexAny", "ContainsAny", "Trim", "TrimLeft", "TrimRight":
		return pkg.Name + "." + sel.Sel.Name, true
	}
	return "", false
}

// isJSONSpace reports a set of exactly JSON's four white-space characters.
func isJSONSpace(s string) bool {
	return len(s) == 4 && strings.Trim(s, " \t\r\n") == "" &&
		strings.Contains(s, " ") && strings.Contains(s, "\t") && strings.Contains(s, "\r") && strings.Contains(s, "\n")
}

// nativeBinder reports bind.Std, jsonv2.Binder or segmentio.Binder (or
// the old bind.V2 and bind.SegmentIO), and which.
func nativeBinder(e ast.Expr) (string, bool) {
	sel, ok := ast.Unparen(e).(*ast.SelectorExpr)
	if !ok {
		return "", false
	}
	pkg, ok := sel.X.(*ast.Ident)
	switch {
	case !ok:
		return "", false
	case pkg.Name == "bind" && sel.Sel.Name == "Std":
		return "bind.Std", true
	case (pkg.Name == "jsonv2" || pkg.Name == "segmentio") && sel.Sel.Name == "Binder":
		return pkg.Name + ".Binder", true
	case pkg.Name == "bind" && (sel.Sel.Name == "V2" || sel.Sel.Name == "SegmentIO"):
		return "bind." + sel.Sel.Name, true // the names before bind/jsonv2 and bind/segmentio
	}
	return "", false
}

func isIndex(e ast.Expr) bool {
	_, ok := ast.Unparen(e).(*ast.IndexExpr)
	return ok
}

// isNameCall reports a call x.Name() with no arguments.
func isNameCall(e ast.Expr) bool {
	call, ok := ast.Unparen(e).(*ast.CallExpr)
	if !ok || len(call.Args) != 0 {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	return ok && sel.Sel.Name == "Name"
}

func jsonChar(e ast.Expr) (rune, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.CHAR {
		return 0, false
	}
	c, _, _, err := strconv.UnquoteChar(lit.Value[1:len(lit.Value)-1], '\'')
	return c, err == nil && strings.ContainsRune(jsonChars, c)
}

func stringLit(e ast.Expr) (string, bool) {
	lit, ok := ast.Unparen(e).(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// root is the repository's root: the directory holding go.work.
func root(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if work, err := os.ReadFile(filepath.Join(dir, "go.work")); err == nil {
			// The repository whole: every module the workspace uses is
			// here (a module cache holds one module, without the others).
			for _, m := range workModules(string(work)) {
				if _, err := os.Stat(filepath.Join(dir, m, "go.mod")); err != nil {
					t.Skipf("module %s of go.work is missing: not the whole repository", m)
				}
			}
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			t.Skip("no go.work above the test's directory: not the repository (a module cache holds one module)")
		}
		dir = up
	}
}

// workModules returns the directories a go.work file uses.
func workModules(work string) []string {
	var dirs []string
	in := false
	for _, line := range strings.Split(work, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "use (":
			in = true
		case in && line == ")":
			in = false
		case in && line != "":
			dirs = append(dirs, line)
		case strings.HasPrefix(line, "use "):
			dirs = append(dirs, strings.TrimSpace(strings.TrimPrefix(line, "use ")))
		}
	}
	return dirs
}

func binderNames() []string {
	return []string{bind.Std.Name(), jsonv2.Binder.Name(), segmentio.Binder.Name()}
}

// TestRepository_OneLexer_NoBinderNames runs the check on every non-test
// Go file of every module in the repository.
func TestRepository_OneLexer_NoBinderNames(t *testing.T) {
	top := root(t)
	fset := token.NewFileSet()
	found := map[string][]finding{}
	read := map[string]bool{}
	err := filepath.WalkDir(top, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path != top && (strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") || name == "testdata" || name == "vendor") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(top, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fs, err := inspect(fset, rel, src, binderNames())
		if err != nil {
			return err
		}
		read[rel] = true
		found[rel] = append(found[rel], fs...)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(read) < 50 {
		t.Fatalf("only %d files read from %s: the walk missed the repository", len(read), top)
	}
	for rel, fs := range found {
		for _, f := range fs {
			switch {
			case f.rule == "lexer" && notJSON[rel] != "":
			default:
				fix := "read JSON with internal/jsonlex"
				if f.rule != "lexer" {
					fix = "ask the binder's capabilities (internal/bindcap), never its name"
				}
				t.Errorf("%s (%s)", f, fix)
			}
		}
	}
	for rel, why := range notJSON {
		n := 0
		for _, f := range found[rel] {
			if f.rule == "lexer" {
				n++
			}
		}
		switch {
		case !read[rel]:
			t.Errorf("%s is listed, but there is no such file: take it off the list", rel)
		case n == 0:
			t.Errorf("%s is listed, but reads no byte by hand: take it off the list", rel)
		}
		t.Logf("%s: %d byte comparisons, listed: %s", rel, n, why)
	}
}

// TestInspect_FindsEachShape runs the check on small files: each
// violation is found, in the file it is in, and the same code is let be
// where the rule does not hold (the lexer's own files, bind's own).
func TestInspect_FindsEachShape(t *testing.T) {
	names := binderNames()
	for _, c := range []struct {
		name, file, src string
		want            []string // the findings' rule and what, in order
	}{
		{"an indexed quote", "x/a.go", `package a; func f(d []byte, i int) bool { return d[i] == '"' }`,
			[]string{`lexer: an indexed byte compared with '"'`}},
		{"white space, either side, !=", "x/a.go", `package a; func f(d []byte) bool { return '\t' != d[0] || (d[1]) == ' ' }`,
			[]string{`lexer: an indexed byte compared with '\t'`, `lexer: an indexed byte compared with ' '`}},
		{"a switch on an indexed byte", "x/a.go", `package a; func f(d []byte) int { switch d[0] { case '{', 'x': return 1; case ']': return 2 }; return 0 }`,
			[]string{`lexer: a switch on an indexed byte with case '{'`, `lexer: a switch on an indexed byte with case ']'`}},
		{"a byte named first", "x/a.go", `package a; func f(d []byte, i int) bool { c := d[i]; return c == ',' }`,
			[]string{`lexer: an indexed byte compared with ','`}},
		{"a byte of a range", "x/a.go", `package a; func f(d []byte) { for _, b := range d { switch b { case '\\': } } }`,
			[]string{`lexer: a switch on an indexed byte with case '\\'`}},
		{"a name's byte in another function", "x/a.go", `package a; func f(d []byte) byte { c := d[0]; return c }; func g(c rune) bool { return c == ' ' }`,
			nil},
		{"a byte that is no JSON character", "x/a.go", `package a; func f(d []byte) bool { return d[0] == 'x' || d[0] == '-' }`,
			nil},
		{"a search for a quote", "x/a.go", `package a; import "bytes"; func f(d []byte) bool { return bytes.IndexByte(d, '\\') >= 0 }`,
			[]string{`lexer: bytes.IndexByte for '\\'`}},
		{"a skip of JSON's white space", "x/a.go", `package a; import "bytes"; func f(d []byte) []byte { return bytes.TrimLeft(d, " \t\r\n") }`,
			[]string{`lexer: bytes.TrimLeft for " \t\r\n"`}},
		{"text split on commas, trimmed of spaces", "x/a.go", `package a; import "strings"; func f(s string) []string { return strings.Split(strings.TrimRight(s, " "), ",") }`,
			nil},
		{"the lexer's own file", "internal/jsonlex/a.go", `package a; func f(d []byte) bool { return d[0] == '"' }`,
			nil},
		{"Name() against a string", "refuse/a.go", `package a; func f(b interface{ Name() string }) bool { return b.Name() == "mine" }`,
			[]string{`binder name: Name() compared with "mine"`}},
		{"a switch on Name()", "x/a.go", `package a; func f(b interface{ Name() string }) int { switch b.Name() { case "std": return 1 }; return 0 }`,
			[]string{`binder name: a switch on Name() with case "std"`}},
		{"a binder's name held in a field", "refuse/a.go", `package a; type w struct{ binder string }; func f(x w) bool { return x.binder == "v2" || "segmentio" != x.binder }`,
			[]string{`binder name: a value compared with the binder name "v2"`, `binder name: a value compared with the binder name "segmentio"`}},
		{"a binder by identity", "refuse/a.go", `package a; import "bind"; func f(b bind.Binder) int { if b == jsonv2.Binder { return 1 }; switch b { case segmentio.Binder: return 2 }; return 0 }`,
			[]string{`binder name: a value compared with the binder jsonv2.Binder`, `binder name: a switch with case segmentio.Binder`}},
		{"a binder by its old name", "refuse/a.go", `package a; import "bind"; func f(b bind.Binder) int { if b == bind.V2 { return 1 }; switch b { case bind.SegmentIO: return 2 }; return 0 }`,
			[]string{`binder name: a value compared with the binder bind.V2`, `binder name: a switch with case bind.SegmentIO`}},
		{"bench picks its rival by binder", "bench/a.go", `package a; import "bind"; func f(b bind.Binder) bool { return b == bind.Std }`,
			nil},
		{"reflect's Name() against the empty string", "x/a.go", `package a; import "reflect"; func f(t reflect.Type) bool { return t.Name() == "" }`,
			nil},
		{"bind's own files", "bind/a.go", `package a; func f(b interface{ Name() string }) bool { return b.Name() == "v2" }`,
			nil},
		{"bind's own files, but not the lexer rule", "bind/a.go", `package a; func f(d []byte) bool { return d[0] == ':' }`,
			[]string{`lexer: an indexed byte compared with ':'`}},
	} {
		fs, err := inspect(token.NewFileSet(), c.file, []byte(c.src), names)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var got []string
		for _, f := range fs {
			got = append(got, f.rule+": "+f.what)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: found %q, want %q", c.name, got, c.want)
		}
	}
}

// TestInspect_FindsTheOldCode: the code this check was written against,
// as it stood before: refuse's words by binder name, contain's V2 test,
// warnings.IsObject's loop.
func TestInspect_FindsTheOldCode(t *testing.T) {
	for _, c := range []struct{ file, src string }{
		{"refuse/words.go", `package refuse; func (w words) f(t int) bool { return t == 1 && w.binder == "v2" }`},
		{"internal/contain/decode.go", `package contain; func Decode(b Binder) bool { return b.Name() == "v2" }`},
		{"mcpguard/internal/warnings/warnings.go", `package warnings
func IsObject(data []byte) bool {
	for _, b := range data {
		switch b {
		case ' ', '\t', '\n', '\r':
			continue
		case '{':
			return true
		default:
			return false
		}
	}
	return false
}`},
	} {
		fs, err := inspect(token.NewFileSet(), c.file, []byte(c.src), binderNames())
		if err != nil {
			t.Fatal(err)
		}
		if len(fs) == 0 {
			t.Errorf("%s: the old code passes the check", c.file)
		}
	}
}
