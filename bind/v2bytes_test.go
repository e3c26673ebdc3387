package bind_test

import (
	"reflect"
	"testing"

	"github.com/bindguard/bindguard/bind/jsonv2"
)

type v2ByteLists struct {
	B  []uint8  `json:"B"`
	BA [2]uint8 `json:"BA"`
	BP *[]uint8 `json:"BP"`
	S  string   `json:"S"`
}

// v2ByteListCalls send an array to a byte list or array, which V2 reads
// from a string only: it validates the array as it skips it, and fails
// first on a repeated name or invalid text there. The trial check types
// such a failure by the Go type its path leads to: in an element itself,
// the list's element type (uint8); deeper, none.
var v2ByteListCalls = []string{
	`{"B":[{"v":1,"v":1}]}`,
	`{"B":[1,{"a":1,"a":2}],"B":null}`,
	`{"BA":[{"v":1,"v":1}]}`,
	`{"BP":null,"BP":[{"v":1,"v":1}]}`,
	`{"B":["\ud800"]}`,
	`{"BA":[1,"\ud800",2]}`,
	`{"B":[{"\ud800":1}]}`,
	`{"B":[[{"v":1,"v":1}]]}`,
	`{"B":[{"x":{"v":1,"v":1}}]}`,
	`{"S":[{"v":1,"v":1}]}`,
	`{"B":{"a":{"v":1,"v":1}}}`,
	`{"B":[1,2]}`,
}

// TestV2_FailureInAByteListElement: the pass decides each call as the
// trial check does, the failure's type included. FuzzNativeValues found
// it typing a failure in such an element as none (50cba7e33ad74f49; every
// row that sends a failure in an element itself failed so before).
func TestV2_FailureInAByteListElement(t *testing.T) {
	plan, err := jsonv2.Binder.Compile(reflect.TypeFor[v2ByteLists]())
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range v2ByteListCalls {
		decidedProven(t, plan, []byte(args))
	}
}
