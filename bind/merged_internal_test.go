package bind

import (
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestDecimal_ReadsAsStrconv: the merged reading tells an integer map
// key by decimal, which reads what strconv.ParseInt(text, 10, 64) and
// ParseUint read, to the same value ("01" and "1" are one key, "+1" one
// too for a signed key), and fails where they fail (a key they do not
// read is told by its text).
func TestDecimal_ReadsAsStrconv(t *testing.T) {
	texts := []string{
		"", "+", "-", "0", "-0", "+0", "00", "01", "+1", "-1", "1_0", "0x10", "1e3", " 1", "1 ", "١",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
		"18446744073709551615", "18446744073709551616", "+18446744073709551615", "99999999999999999999",
		"000000000000000000000000000018446744073709551615", "-000000000000000000000009223372036854775808",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, rng.IntN(22))
		for i := range b {
			b[i] = "+-0123456789_x"[rng.IntN(14)]
		}
		texts = append(texts, string(b))
	}
	for _, s := range texts {
		decimalAsStrconv(t, s)
	}
}

// decimalAsStrconv fails t where decimal reads s otherwise than
// strconv.ParseInt and ParseUint (base 10, 64 bits) do.
func decimalAsStrconv(t *testing.T, s string) {
	t.Helper()
	iv, ierr := strconv.ParseInt(s, 10, 64)
	if v, ok := decimal([]byte(s), true); ok != (ierr == nil) || ok && int64(v) != iv {
		t.Errorf("%q signed: %d %v, strconv %d %v", s, int64(v), ok, iv, ierr)
	}
	uv, uerr := strconv.ParseUint(s, 10, 64)
	if v, ok := decimal([]byte(s), false); ok != (uerr == nil) || ok && v != uv {
		t.Errorf("%q unsigned: %d %v, strconv %d %v", s, v, ok, uv, uerr)
	}
}

// FuzzDecimal_ReadsAsStrconv is TestDecimal_ReadsAsStrconv on any text:
// the checker reads an integer map key's text by decimal too (mapKey,
// readKey, segKeyIdentity).
func FuzzDecimal_ReadsAsStrconv(f *testing.F) {
	for _, s := range []string{"", "+1", "-0", "01", "9223372036854775808", "-9223372036854775809", "18446744073709551616", "1_0", "x"} {
		f.Add(s)
	}
	f.Fuzz(decimalAsStrconv)
}
