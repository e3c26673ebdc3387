package bind

import (
	"reflect"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// filterShapes are structs whose names the filter must not lose: case
// folds past ASCII (K, the Kelvin sign, and ſ fold to ASCII letters),
// names alike but for their ends, an empty name, V2's case:ignore fields,
// whose folds drop '_' and '-', and a name of 63 bytes and more.
type filterShapes struct {
	A     int `json:"counts"`
	B     int `json:"Kelvin"`
	C     int `json:"\u212aelvin2"`
	D     int `json:"ſize"`
	E     int `json:"x"`
	F     int `json:""`
	G     int `json:"snake_case,case:ignore"`
	H     int `json:"-dash-,case:ignore"`
	I     int `json:"__,case:ignore"`
	J     int `json:"é"`
	Long  int `json:"a_name_of_seventy_bytes_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaz"`
	Long2 int `json:"a_name_of_sixty_three_bytes_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaay"`
}

// filterFolds has a case:ignore field and no name that starts or ends
// with '_' or '-', which V2's fold drops from a key.
type filterFolds struct {
	A int `json:"counts"`
	G int `json:"Snake_Case,case:ignore"`
}

// filterKeys returns keys near the names of fs: each name as is, in
// other cases, with '_' and '-' at its ends and inside, with letters
// swapped for the runes past ASCII that fold to them, escaped, cut and
// lengthened; and keys like no name.
func filterKeys(fs *fieldSet) []string {
	keys := []string{"", "k00000", "_", "-", "__", "z", "é", "É", "\u212a", "ſ", strings.Repeat("a", 70)}
	for _, p := range fs.params {
		n := p.Name
		vs := []string{n, strings.ToUpper(n), strings.ToLower(n), "_" + n, n + "-", "-" + n + "_",
			strings.ReplaceAll(n, "_", ""), strings.ReplaceAll(n, "_", "-"), strings.ReplaceAll(n, "-", ""),
			strings.ReplaceAll(strings.ToUpper(n), "K", "\u212a"), strings.ReplaceAll(strings.ToUpper(n), "S", "ſ"),
			n + "x", "x" + n}
		if len(n) > 1 {
			vs = append(vs, n[1:], n[:len(n)-1], n[:1]+"_"+n[1:])
		}
		keys = append(keys, vs...)
	}
	return keys
}

// quoteKey writes key as a JSON string: as is (only '"' and '\\'
// escaped), or with every ASCII letter escaped as \u00XX.
func quoteKey(key string, escapeAll bool) []byte {
	b := []byte{'"'}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case escapeAll && c < utf8.RuneSelf:
			b = append(b, `\u00`...)
			b = append(b, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

// lookupBoth returns fs's lookup of the key raw with the field set's
// filter and with a filter that lets every key through. got is the
// lookup's, or where lookupNext, guessing any field, answers otherwise
// than the lookup, lookupNext's: of raw alone, and of raw in an array
// that goes on past it, as the arguments do (lookupNext reads a short
// name's key as one or two words, past the key's end), with the bytes of
// each field's name after it.
func lookupBoth(fs *fieldSet, raw []byte) (got, want [2]any) {
	_, f, _ := jsonlex.String(raw, 0)
	esc, hi := f&jsonlex.Escaped != 0, f&jsonlex.NonASCII != 0
	i, folded := fs.lookupKey(raw, esc, hi)
	in := [][]byte{raw[:len(raw):len(raw)]}
	for _, p := range fs.params {
		for _, tail := range []string{p.Name + p.Name, `:"` + p.Name + `"`, "\x00\x00\x00\x00\x00\x00\x00\x00"} {
			in = append(in, append(raw[:len(raw):len(raw)], tail...)[:len(raw)])
		}
	}
guesses:
	for _, raw := range in {
		for guess := range len(fs.params) + 1 {
			if k, kfolded := fs.lookupNext(raw, esc, hi, guess); k != i || kfolded != folded {
				i, folded = k, kfolded
				break guesses
			}
		}
	}
	open := *fs
	open.names = nameFilter{lens: ^uint64(0), longest: -1}
	for b := range open.names.ends {
		open.names.ends[b] = firstByte | lastByte
	}
	j, jfolded := open.lookupKey(raw, esc, hi)
	return [2]any{i, folded}, [2]any{j, jfolded}
}

func filterFieldSets(t testing.TB) map[string]*fieldSet {
	sets := map[string]*fieldSet{}
	for _, b := range []Binder{Std, V2, SegmentIO} {
		for _, typ := range []reflect.Type{reflect.TypeFor[filterShapes](), reflect.TypeFor[filterFolds]()} {
			p, err := b.Compile(typ)
			if err != nil {
				t.Fatalf("%s: %v", b.Name(), err)
			}
			sets[b.Name()+" "+typ.Name()] = p.root.fields
		}
	}
	return sets
}

// TestNameFilter_KeepsEveryMatch: for every binder's field set, the
// lookup with the filter binds every key exactly as the lookup without
// it, by name, by encoding/json's folding and by V2's case:ignore.
func TestNameFilter_KeepsEveryMatch(t *testing.T) {
	for name, fs := range filterFieldSets(t) {
		matched := 0
		for _, key := range filterKeys(fs) {
			for _, escapeAll := range []bool{false, true} {
				raw := quoteKey(key, escapeAll)
				got, want := lookupBoth(fs, raw)
				if got != want {
					t.Errorf("%s: key %s: lookup %v, without the filter %v", name, raw, got, want)
				}
				if want[0].(int) >= 0 {
					matched++
				}
			}
		}
		if matched < 2*len(fs.params) {
			t.Errorf("%s: %d keys matched: the corpus misses the names", name, matched)
		}
	}
}

// FuzzNameFilter_KeepsEveryMatch is TestNameFilter_KeepsEveryMatch on any
// key text.
func FuzzNameFilter_KeepsEveryMatch(f *testing.F) {
	for _, fs := range filterFieldSets(f) {
		for _, key := range filterKeys(fs) {
			f.Add(key, false)
		}
	}
	f.Add("\xff", true)
	sets := filterFieldSets(f)
	f.Fuzz(func(t *testing.T, key string, escapeAll bool) {
		raw := quoteKey(key, escapeAll)
		if end, _, ok := jsonlex.String(raw, 0); !ok || end != len(raw) {
			return
		}
		for name, fs := range sets {
			if got, want := lookupBoth(fs, raw); got != want {
				t.Errorf("%s: key %s: lookup %v, without the filter %v", name, raw, got, want)
			}
		}
	})
}

// TestNameFilter_UnknownKeysSkipTheLookup: a call of many top-level keys
// unlike any name costs the lookup no hash and no fold of any of them,
// with every binder, however many keys; keys that differ from a name in
// their case only are all looked up (and bind, where the binder folds).
func TestNameFilter_UnknownKeysSkipTheLookup(t *testing.T) {
	type tool struct {
		Counts map[string]int `json:"counts"`
		Name   string         `json:"name"`
	}
	keyLookups = new(atomic.Int64)
	defer func() { keyLookups = nil }()
	for _, b := range []Binder{Std, V2, SegmentIO} {
		p, err := b.Compile(reflect.TypeFor[tool]())
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{100, 1000, 10000} {
			var sb strings.Builder
			sb.WriteByte('{')
			for i := range n {
				if i > 0 {
					sb.WriteByte(',')
				}
				sb.WriteString(`"k` + strconv.Itoa(100000+i) + `":1`)
			}
			sb.WriteByte('}')
			keyLookups.Store(0)
			p.Check([]byte(sb.String()), nil)
			if got := keyLookups.Load(); got != 0 {
				t.Errorf("%s: %d unknown keys: %d looked up", b.Name(), n, got)
			}
			args := []byte(`{` + rep(`"NAME":"a"`, n, ",") + `}`)
			keyLookups.Store(0)
			p.Check(args, nil)
			if got := keyLookups.Load(); got < int64(n) {
				t.Errorf("%s: %d keys in another case: %d looked up", b.Name(), n, got)
			}
		}
	}
}

func rep(s string, n int, sep string) string {
	return strings.TrimSuffix(strings.Repeat(s+sep, n), sep)
}

// TestNextSlot_NamedAsTheString: a field's order slot tells its name from
// every other key token, read as a word (a key in an array that goes on
// past it, eight bytes after its opening quote) or as a string: for names
// of every length around the word's, keys one byte off, and bytes past
// the key that would complete the name.
func TestNextSlot_NamedAsTheString(t *testing.T) {
	for _, name := range []string{"", "a", "count", "cursor1", "windows8", "windows9x", "a\x00", "ab\x00\x00", "hours_back_", "sixteen_is_past", "sixteen_bytes_xx", "a_name_of_twenty_b"} {
		s := newNextSlot(name, 0)
		keys := []string{name, name + "x", name + "\x00"}
		if name != "" {
			keys = append(keys, name[:len(name)-1], name[:len(name)-1]+"y", "z"+name[1:])
		}
		for _, key := range keys {
			raw := []byte(`"` + key + `"`)
			for _, tail := range []string{"", name, name[min(len(name), len(key)):] + `":1}`, "\x00\x00\x00\x00\x00\x00\x00\x00"} {
				in := append(raw[:len(raw):len(raw)], tail...)[:len(raw)]
				if got, want := s.named(in), key == name; got != want {
					t.Errorf("name %q, key %q followed by %q: named = %v, want %v", name, key, tail, got, want)
				}
			}
		}
	}
}
