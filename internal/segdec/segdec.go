// Package segdec is bind's SegmentIO binder's use of
// github.com/segmentio/encoding/json and github.com/segmentio/asm: its
// Valid, Parse and Decoder as go-sdk sets them, and the keyset its struct
// decoder looks names up with. It installs itself into internal/decoders
// when it initializes, and imports no package of bindguard's but that
// one, so bind links segmentio only for a program that imports
// bind/segmentio.
package segdec

import (
	"bytes"

	"github.com/segmentio/asm/keyset"
	segjson "github.com/segmentio/encoding/json"

	"github.com/bindguard/bindguard/internal/decoders"
)

func init() {
	decoders.SegmentIO = &decoders.SegmentIODecoder{
		Valid: segjson.Valid,
		Parse: func(data []byte, v any) error {
			_, err := segjson.Parse(data, v, segjson.DontMatchCaseInsensitiveStructFields)
			return err
		},
		Decode: func(data []byte, v any) (int64, error) {
			dec := segjson.NewDecoder(bytes.NewReader(data))
			dec.DontMatchCaseInsensitiveStructFields()
			err := dec.Decode(v)
			return dec.InputOffset(), err
		},
		KeysetFirst: func(keys [][]byte) bool { return len(keyset.New(keys)) != 0 },
	}
}
