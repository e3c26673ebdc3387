package bind_test

import (
	"reflect"
	"strconv"
	"testing"

	"github.com/bindguard/bindguard/bind"
	"github.com/bindguard/bindguard/bind/segmentio"
)

// segUintptrs holds uintptrs, plain and under ,string, and segUint64s
// the same fields of uint64.
type segUintptrs struct {
	U uintptr  `json:"u"`
	Q uintptr  `json:"q,string"`
	P *uintptr `json:"p,string"`
	N struct {
		U uintptr `json:"u,string"`
	} `json:"n"`
}

type segUint64s struct {
	U uint64  `json:"u"`
	Q uint64  `json:"q,string"`
	P *uint64 `json:"p,string"`
	N struct {
		U uint64 `json:"u,string"`
	} `json:"n"`
}

// TestSegmentIO_Uintptr: segmentio reads a uintptr as a uint64
// (decodeUintptr is decodeUint64: parseUint; under ,string
// decodeFromStringToInt), so the pass reads one, plain or under ,string,
// as a uint64: its verdict is the trial check's, held to segmentio's own
// decode of the same call into uint64 fields (it fails on it exactly when
// on the uintptr one, and reads the same number).
func TestSegmentIO_Uintptr(t *testing.T) {
	plan, err := segmentio.Binder.Compile(reflect.TypeFor[segUintptrs]())
	if err != nil {
		t.Fatal(err)
	}
	var calls []string
	for _, v := range genInts {
		q := strconv.Quote(v)
		calls = append(calls, `{"u":`+v+`}`, `{"q":`+q+`}`, `{"q":`+v+`}`, `{"p":`+q+`}`, `{"n":{"u":`+q+`}}`, `{"n":{"u":`+v+`}}`)
	}
	for _, args := range calls {
		checkProven(t, plan, []byte(args))
		if _, _, ok := bind.NativeVerdict(plan, []byte(args)); !ok {
			t.Errorf("%s: the pass declines", args)
		}
		var a segUintptrs
		var b segUint64s
		errA := segmentio.Binder.Unmarshal([]byte(args), &a)
		errB := segmentio.Binder.Unmarshal([]byte(args), &b)
		if (errA == nil) != (errB == nil) || uint64(a.U) != b.U || uint64(a.Q) != b.Q || uint64(a.N.U) != b.N.U {
			t.Errorf("%s: segmentio reads a uintptr (%v) not as a uint64 (%v)", args, errA, errB)
		}
	}
}
