package jsonpath

import (
	"strings"
	"testing"
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
