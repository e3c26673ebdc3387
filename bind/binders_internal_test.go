package bind

import (
	// bind's own tests cannot import bind/jsonv2 or bind/segmentio (they
	// import bind): they install the decoders those packages install.
	_ "github.com/bindguard/bindguard/internal/segdec"
	_ "github.com/bindguard/bindguard/internal/v2dec"
)

// V2 and SegmentIO are jsonv2.Binder and segmentio.Binder, for the tests
// inside package bind.
var (
	V2        Binder = v2Binder{}
	SegmentIO Binder = segmentioBinder{}
)
