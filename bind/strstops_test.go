package bind

import (
	"encoding/binary"
	"testing"
)

// TestStrStops: the eight-byte test of str says a word holds a byte that
// ends a string's plain run exactly when one of its bytes does, for every
// byte at every position, among plain bytes of every kind (ASCII, past
// ASCII, the largest and the smallest plain ones).
func TestStrStops(t *testing.T) {
	for _, fill := range []byte{'a', 0x20, 0x7f, 0x80, 0xff, '"' + 1, '\\' - 1, '\\' + 1, '#', '!'} {
		for b := range 256 {
			for p := range 8 {
				w := [8]byte{}
				for i := range w {
					w[i] = fill
				}
				w[p] = byte(b)
				got := strStops(binary.LittleEndian.Uint64(w[:])) != 0
				if want := !strPlain[b]; got != want {
					t.Fatalf("fill %#x, byte %#x at %d: strStops says %v, want %v", fill, b, p, got, want)
				}
			}
		}
	}
}
