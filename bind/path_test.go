package bind

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// cutKey keeps the first 40 characters of a key, as paths did before
// they read only as much of a key as they show.
func cutKey(key []byte) string {
	s := string(key)
	n := 0
	for i := range s {
		if n == 40 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// keyStepWhole is the step to the member of key raw as it was written
// before the bound: the whole key read, then cut.
func keyStepWhole(raw []byte) string {
	key := keyText(nil, raw)
	if isIdent(key) {
		return "." + string(key)
	}
	return "[" + strconv.Quote(cutKey(key)) + "]"
}

// TestAppendKeyStep_ReadsOnlyWhatItShows: the step to a member reads at
// most 82 characters' worth of its key, and is what reading the whole key
// and cutting it gives, for plain keys, escapes, surrogate pairs across the
// cut, invalid UTF-8 and lone surrogates.
func TestAppendKeyStep_ReadsOnlyWhatItShows(t *testing.T) {
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
		`"\u006eame"`,
	} {
		got := string(appendKeyStep(nil, []byte(raw)))
		if want := keyStepWhole([]byte(raw)); got != want {
			t.Errorf("%.60q: %q, want %q", raw, got, want)
		}
	}
}

func FuzzAppendKeyStep(f *testing.F) {
	for _, s := range []string{"name", "a b", strings.Repeat("é", 50), strings.Repeat("😀", 45), "\xff\xfe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		raw, _ := json.Marshal(s) // a valid JSON string, escapes and all
		if got, want := string(appendKeyStep(nil, raw)), keyStepWhole(raw); got != want {
			t.Errorf("%q: %q, want %q", raw, got, want)
		}
	})
}
