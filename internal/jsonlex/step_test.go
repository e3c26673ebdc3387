package jsonlex

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// walk reads the one JSON text d with KindAt, Open, Key and Next, each
// scalar with Skip, keeping its own stack, as a walker that reads each
// value itself does; split, it reads each key with String and Colon and
// opens each object and array with First, as a walker that acts on a key
// before its colon and reads the opening byte itself does. It returns the
// text rebuilt compacted, and where it found d invalid (-1: valid), in
// errorAt's terms.
func walk(d []byte, split bool) (out []byte, errAt int) {
	var stack []Kind // the objects and arrays open
	i := Space(d, 0)
	for {
		// A value (or, in an object, a member's key) starts at d[i].
		if n := len(stack); n > 0 && stack[n-1] == KindObject {
			key, v, ok := Span{Start: i}, 0, false
			switch {
			case !split:
				key, _, v, ok = Key(d, i)
			case KindAt(d, i) != KindString:
				v = i
			default:
				if key.End, _, ok = String(d, i); !ok {
					v = key.End
				} else {
					v, ok = Colon(d, key.End)
				}
			}
			if !ok {
				return out, v
			}
			out = append(append(out, d[key.Start:key.End]...), ':')
			i = v
		}
		switch k := KindAt(d, i); k {
		case KindObject, KindArray:
			if len(stack) >= MaxDepth {
				return out, i
			}
			next, more, ok := Open(d, i)
			if split {
				next, more, ok = First(d, i+1, k)
			}
			if !ok {
				return out, next
			}
			out = append(out, byte(k))
			i = next
			if more {
				stack = append(stack, k)
				continue
			}
			out = append(out, closer(k))
		default:
			end, err := Skip(d, i, MaxDepth)
			if err != nil {
				return out, err.Offset
			}
			out = append(out, d[i:end]...)
			i = end
		}
		// A value ended just before d[i]: close what it completes.
		for {
			n := len(stack)
			if n == 0 {
				if j := Space(d, i); j != len(d) {
					return out, j
				}
				return out, -1
			}
			next, more, ok := Next(d, i, stack[n-1])
			if !ok {
				return out, next
			}
			i = next
			if more {
				out = append(out, ',')
				break
			}
			out = append(out, closer(stack[n-1]))
			stack = stack[:n-1]
		}
	}
}

// stepAgrees checks walk on d, either way, against Skip and encoding/json.
func stepAgrees(t *testing.T, d []byte) {
	t.Helper()
	for _, split := range []bool{false, true} {
		got, at := walk(d, split)
		if want := errorAt(d); at != want {
			t.Fatalf("%q (split %v): walking finds an error at %d, Skip at %d (-1: valid)", d, split, at, want)
		}
		if at != -1 {
			continue
		}
		var want bytes.Buffer
		if err := json.Compact(&want, d); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Fatalf("%q (split %v): walked %s, want %s", d, split, got, want.Bytes())
		}
	}
}

func TestStep_WalksAsSkipReads(t *testing.T) {
	for _, c := range append(syntaxCases,
		` [ 1 , { "a" : [ ] , "b" : { } } , "x" ] `, `{"a":[1,2}`, `[{"a":1}}`, `{"a" 1}`, `{"a":1,"b"}`,
		strings.Repeat("[", MaxDepth)+strings.Repeat("]", MaxDepth),
		strings.Repeat("[", MaxDepth+1)+strings.Repeat("]", MaxDepth+1),
	) {
		stepAgrees(t, []byte(c))
	}
}

func TestKindAt(t *testing.T) {
	for c, want := range map[string]Kind{
		`null`: KindNull, `false`: KindFalse, `true`: KindTrue, `"x"`: KindString, `-1`: KindNumber, `7`: KindNumber,
		`{}`: KindObject, `[]`: KindArray, ``: KindInvalid, ` {}`: KindInvalid, `+1`: KindInvalid, `}`: KindInvalid,
	} {
		if got := KindAt([]byte(c), 0); got != want {
			t.Errorf("KindAt(%q) = %q, want %q", c, got, want)
		}
	}
	// Every byte: a value's first byte names its kind, no other byte does.
	for b := range 256 {
		want := KindInvalid
		switch c := byte(b); {
		case strings.IndexByte(`nft"{[`, c) >= 0:
			want = Kind(c)
		case c == '-' || '0' <= c && c <= '9':
			want = KindNumber
		}
		if got := KindAt([]byte{byte(b)}, 0); got != want {
			t.Errorf("KindAt(%#x) = %q, want %q", b, got, want)
		}
	}
}

// FuzzStep_WalksAsSkipReads: on any text, a walker built on Open, Key and
// Next finds it invalid where Skip does (so where encoding/json does, by
// FuzzLexer_AgreesWithEncodingJSON), and rebuilds a valid text as
// json.Compact writes it.
func FuzzStep_WalksAsSkipReads(f *testing.F) {
	for _, c := range syntaxCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, d []byte) { stepAgrees(t, d) })
}
