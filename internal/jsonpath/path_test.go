package jsonpath

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

func build(arg string, steps ...any) Path {
	var b Builder
	if arg != "" {
		b.Arg([]byte(arg))
	}
	for _, s := range steps {
		switch s := s.(type) {
		case int:
			b.Index(s)
		case string:
			b.Key([]byte(s))
		case nil:
			b.Elide()
		}
	}
	return b.Path()
}

func TestPath_ReadableAndPointer(t *testing.T) {
	long := strings.Repeat("a", 41)
	for _, tc := range []struct {
		name          string
		p             Path
		text, pointer string
	}{
		{"zero", Path{}, "", ""},
		{"argument", build(`"hours_back"`), "", "/hours_back"},
		{"folded argument as sent", build(`"HOURS_BACK"`, 2), "[2]", "/HOURS_BACK/2"},
		{"plain keys", build(`"a"`, `"b"`, 0, `"c_1"`), ".b[0].c_1", "/a/b/0/c_1"},
		{"slash and tilde escaped", build(`"a/b"`, `"m~n"`, `"x/~y"`), `["m~n"]["x/~y"]`, "/a~1b/m~0n/x~1~0y"},
		{"escapes decoded", build(`"\u00e9"`, `"\u00e9"`, `"a\"b"`), `["é"]["a\"b"]`, `/é/é/a"b`},
		{"quote and ellipsis escaped", build(`"a"`, `"it's"`, `"x…"`), `["it\u0027s"]["x\u2026"]`, "/a/it's/x…"},
		{"key of exactly 40 kept whole", build(`"a"`, `"`+long[:40]+`"`), "." + long[:40], "/a/" + long[:40]},
		{"key of 41 cut", build(`"a"`, `"`+long+`"`), `["` + long[:40] + `…"]`, ""},
		{"argument key cut", build(`"`+long+`"`, 1), "[1]", ""},
		{"elided", build(`"a"`, 0, nil, 1), "[0][…][1]", ""},
		{"no argument key", build("", 1), "[1]", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.p.String(); got != tc.text {
				t.Errorf("String() = %s, want %s", got, tc.text)
			}
			if got := tc.p.Pointer(); got != tc.pointer {
				t.Errorf("Pointer() = %q, want %q", got, tc.pointer)
			}
		})
	}
}

func TestPath_ExtendStaysBounded(t *testing.T) {
	p := build(`"a"`)
	want := ""
	for i := range 30 {
		p = p.Name("k")
		if i < MaxSteps {
			want += ".k"
		} else {
			want = strings.Repeat(".k", Head) + Elided + strings.Repeat(".k", Tail)
		}
		if got := p.String(); got != want {
			t.Fatalf("after %d steps: %s, want %s", i+1, got, want)
		}
		if (i < MaxSteps) != (p.Pointer() != "") {
			t.Fatalf("after %d steps: pointer %q", i+1, p.Pointer())
		}
	}
	if got := build(`"a"`, 1).Key([]byte(`"x/y"`)).Pointer(); got != "/a/1/x~1y" {
		t.Errorf("Key: %s", got)
	}
}

func TestBuilder_KeyReadsBoundedBytes(t *testing.T) {
	var b Builder
	b.Key([]byte(`"` + strings.Repeat("a", 1<<20) + `"`))
	if b.Read > 100 {
		t.Errorf("read %d bytes of a 1 MB key", b.Read)
	}
}

// keyStepWhole is the step to the member of key raw as bind wrote it
// before the bound: the whole key read, then cut; with ' and … escaped.
func keyStepWhole(raw []byte) string {
	key, _ := jsonlex.Unquote(nil, raw)
	s := string(key)
	if isIdent(s) {
		return "." + s
	}
	n, cut := 0, false
	for i := range s {
		if n == MaxKey {
			s, cut = s[:i], true
			break
		}
		n++
	}
	q := strings.NewReplacer("'", `\u0027`, "…", `\u2026`).Replace(strconv.Quote(s))
	if cut {
		q = q[:len(q)-1] + `…"`
	}
	return "[" + q + "]"
}

func keyStep(raw []byte) string {
	var b Builder
	b.Arg([]byte(`"a"`))
	b.Key(raw)
	return b.Path().String()
}

// TestKey_ReadsOnlyWhatItShows: the step to a member reads at most 82
// characters' worth of its key, and is what reading the whole key and
// cutting it gives, for plain keys, escapes, surrogate pairs across the
// cut, invalid UTF-8 and lone surrogates.
func TestKey_ReadsOnlyWhatItShows(t *testing.T) {
	for _, raw := range []string{
		`"name"`, `"a b"`, `""`, `"` + strings.Repeat("k", 40) + `"`, `"` + strings.Repeat("k", 41) + `"`,
		`"` + strings.Repeat("k", 1<<20) + `"`,
		`"` + strings.Repeat(`\u00e9`, 100) + `"`,
		`"` + strings.Repeat(`\ud83d\ude00`, 100) + `"`,
		`"` + strings.Repeat("k", 39) + `\ud83d\ude00xyz"`,
		`"` + strings.Repeat(`\ud83d`, 100) + `"`,
		"\"" + strings.Repeat("\xff", 100) + "\"",
		"\"" + strings.Repeat("é", 100) + "\"",
		`"` + strings.Repeat(`\n`, 100) + `"`,
		`"\u006eame"`, `"it's…"`,
	} {
		if got, want := keyStep([]byte(raw)), keyStepWhole([]byte(raw)); got != want {
			t.Errorf("%.60q: %q, want %q", raw, got, want)
		}
	}
}

func FuzzKey(f *testing.F) {
	for _, s := range []string{"name", "a b", strings.Repeat("é", 50), strings.Repeat("😀", 45), "\xff\xfe", "a/b~c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, _ := json.Marshal(s) // a valid JSON string, escapes and all
		if got, want := keyStep(raw), keyStepWhole(raw); got != want {
			t.Errorf("%q: %q, want %q", raw, got, want)
		}
		// A whole key's pointer token is its decoded text, escaped.
		var b Builder
		b.Arg(raw)
		text, _ := jsonlex.Unquote(nil, raw)
		if p := b.Path().Pointer(); utf8.RuneCount(text) <= MaxKey && p != "/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(string(text)) {
			t.Errorf("%q: pointer %q", raw, p)
		}
	})
}

// TestBuilder_AllocatesOnce: a path costs one allocation, its string,
// however many keys it reads; a path to an argument's own value none.
func TestBuilder_AllocatesOnce(t *testing.T) {
	raw := []byte(`"` + strings.Repeat(`\u00e9`, 100) + `"`)
	if n := testing.AllocsPerRun(100, func() {
		var b Builder
		b.Arg(raw)
		for range MaxSteps {
			b.Key(raw)
		}
		_ = b.Path()
	}); n != 1 {
		t.Errorf("a path of %d keys: %v allocations, want 1", MaxSteps, n)
	}
	if n := testing.AllocsPerRun(100, func() {
		var b Builder
		b.Arg(raw)
		_ = b.Path()
	}); n != 0 {
		t.Errorf("a path to an argument: %v allocations, want 0", n)
	}
}

// TestPointer_AllocatesOnce: a pointer costs its string alone.
func TestPointer_AllocatesOnce(t *testing.T) {
	p := build(`"a/b"`, `"m~n"`, 1, `"x"`)
	if n := testing.AllocsPerRun(100, func() { _ = p.Pointer() }); n != 1 {
		t.Errorf("Pointer: %v allocations, want 1", n)
	}
}
