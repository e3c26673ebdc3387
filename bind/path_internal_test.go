package bind

import (
	"strings"
	"testing"

	"github.com/bindguard/bindguard/internal/jsonpath"
)

// TestPathStack_ArgumentAloneAsTheBuilderWritesIt: the path to an
// argument's own value, which pathStack gives without a builder, is the
// path a builder writes for the key alone (its token), for plain,
// escaped, non-ASCII and over-long keys, readable and as a pointer; and
// a stack with no argument gives the zero path.
func TestPathStack_ArgumentAloneAsTheBuilderWritesIt(t *testing.T) {
	for _, key := range []string{`"a"`, `""`, `"count"`, `"a\"b"`, `"\u00e9t\u00e9"`, `"日本"`, `"a/b~c"`,
		`"` + strings.Repeat("k", 200) + `"`, `"` + strings.Repeat(`\u00e9`, 60) + `"`, "\"\xff\""} {
		data := []byte(`{` + key + `:1}`)
		p := pathStack{arg: step{1, 1 + len(key)}}
		got := p.path(data, "")
		var b jsonpath.Builder
		b.Arg(data[1 : 1+len(key)])
		want := Path{b.Path()}
		if got.String() != want.String() || got.Pointer() != want.Pointer() || got.p != want.p {
			t.Errorf("key %s: path %q %q, the builder's %q %q", key, got.String(), got.Pointer(), want.String(), want.Pointer())
		}
	}
	var none pathStack
	if got := none.path([]byte(`{}`), ""); got != (Path{}) {
		t.Errorf("no argument: %+v, want the zero path", got)
	}
}
