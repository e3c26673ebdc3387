package bind

import (
	"encoding/base32"
	"encoding/base64"
	"encoding/hex"
	"math/rand"
	"testing"
)

// TestV2EncodedLen: v2EncodedLen, decoding in chunks on the stack, agrees
// with V2's decode of the whole text (the encoding's AppendDecode, then
// the length check that rejects the line breaks the decoder skips) on
// random texts of each encoding's alphabet, padding and line breaks.
func TestV2EncodedLen(t *testing.T) {
	type enc struct {
		id     int
		decode func([]byte) ([]byte, error)
		encLen func(int) int
		chars  string
	}
	encs := []enc{
		{bytesBase64, func(s []byte) ([]byte, error) { return base64.StdEncoding.AppendDecode(nil, s) }, base64.StdEncoding.EncodedLen, "AZaz09+/=\n-_"},
		{bytesBase64URL, func(s []byte) ([]byte, error) { return base64.URLEncoding.AppendDecode(nil, s) }, base64.URLEncoding.EncodedLen, "AZaz09-_=\n+/"},
		{bytesBase32, func(s []byte) ([]byte, error) { return base32.StdEncoding.AppendDecode(nil, s) }, base32.StdEncoding.EncodedLen, "AZ27=\r0a"},
		{bytesBase32Hex, func(s []byte) ([]byte, error) { return base32.HexEncoding.AppendDecode(nil, s) }, base32.HexEncoding.EncodedLen, "09AV=\nWa"},
		{bytesBase16, func(s []byte) ([]byte, error) { return hex.AppendDecode(nil, s) }, hex.EncodedLen, "09afAFg=\n"},
	}
	r := rand.New(rand.NewSource(1))
	n := 20000
	if testing.Short() {
		n = 4000
	}
	for _, e := range encs {
		for range n {
			var s []byte
			if r.Intn(2) == 0 { // a valid text, then perhaps one byte changed
				raw := make([]byte, r.Intn(400))
				r.Read(raw)
				switch e.id {
				case bytesBase64:
					s = base64.StdEncoding.AppendEncode(nil, raw)
				case bytesBase64URL:
					s = base64.URLEncoding.AppendEncode(nil, raw)
				case bytesBase32:
					s = base32.StdEncoding.AppendEncode(nil, raw)
				case bytesBase32Hex:
					s = base32.HexEncoding.AppendEncode(nil, raw)
				default:
					s = hex.AppendEncode(nil, raw)
				}
				if len(s) > 0 && r.Intn(2) == 0 {
					s[r.Intn(len(s))] = e.chars[r.Intn(len(e.chars))]
				}
			} else {
				s = make([]byte, r.Intn(24))
				for i := range s {
					s[i] = e.chars[r.Intn(len(e.chars))]
				}
			}
			b, err := e.decode(s)
			want := err == nil && len(s) == e.encLen(len(b))
			got, ok := v2EncodedLen(s, e.id)
			if ok != want || ok && got != len(b) {
				t.Fatalf("encoding %d %q: v2EncodedLen %d, %v; V2 decodes %d bytes, %v", e.id, s, got, ok, len(b), want)
			}
		}
	}
}
