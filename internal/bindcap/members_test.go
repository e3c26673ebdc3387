package bindcap

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/bindguard/bindguard/internal/jsonlex"
)

// TestMembers_AllocateBoundedly: however many members are added, a
// Members holds the first MaxMembers, in order, says it was cut, and
// allocates at most once (none for the first fixedMembers, none once
// Release hands the room back); Find
// finds each member by any offset in its key or value, and none between.
func TestMembers_AllocateBoundedly(t *testing.T) {
	for _, n := range []int{0, 1, fixedMembers, fixedMembers + 1, 1000, MaxMembers, MaxMembers + 1, 100000} {
		fill := func() *Members {
			ms := new(Members)
			for i := range n {
				at := 10 * i
				ms.Add(Member{Key: jsonlex.Span{Start: at, End: at + 3}, Value: jsonlex.Span{Start: at + 4, End: at + 9}, Param: int32(i)})
			}
			return ms
		}
		ms := fill()
		if ms.Len() != min(n, MaxMembers) || ms.Cut != (n > MaxMembers) {
			t.Fatalf("%d added: %d held, cut %v", n, ms.Len(), ms.Cut)
		}
		for i := range ms.Len() {
			if m := ms.At(i); m.Param != int32(i) || ms.Find(m.Key.Start) != i || ms.Find(m.Value.End-1) != i || ms.Find(m.Value.End) != -1 {
				t.Fatalf("%d added: member %d is %+v, found at %d", n, i, *m, ms.Find(m.Key.Start))
			}
		}
		// Past fixedMembers the room for the rest comes whole from a
		// pool: one allocation where nobody hands it back, none where
		// Release does.
		want := 0.0
		if n > fixedMembers {
			want = 1
		}
		var local Members
		if a := testing.AllocsPerRun(10, func() {
			local = Members{}
			for i := range n {
				local.Add(Member{Param: int32(i)})
			}
		}); a > want {
			t.Errorf("%d added: %v allocations, want at most %v", n, a, want)
		}
		if a := testing.AllocsPerRun(10, func() {
			local = Members{}
			for i := range n {
				local.Add(Member{Param: int32(i)})
			}
			local.Release()
		}); a != 0 {
			t.Errorf("%d added and released: %v allocations, want 0", n, a)
		}
	}
}

// TestMembers_ReleasedRoomIsReused: members added after a Release of
// another list hold what was added, not what the room held before.
func TestMembers_ReleasedRoomIsReused(t *testing.T) {
	for round := range 3 {
		var ms Members
		for i := range MaxMembers {
			ms.Add(Member{Param: int32(round*MaxMembers + i)})
		}
		for i := range ms.Len() {
			if p := ms.At(i).Param; p != int32(round*MaxMembers+i) {
				t.Fatalf("round %d: member %d holds %d", round, i, p)
			}
		}
		ms.Release()
	}
}

// TestMembers_ResetLeavesNothingToRead: after Reset, every field of a
// Members but the members held in place (each filled in whole by the Next
// that hands it back) reads as a new one's, whatever fields the type
// grows: each is set first, through reflection.
func TestMembers_ResetLeavesNothingToRead(t *testing.T) {
	var ms Members
	for range fixedMembers + 2 { // into the room past the first fixedMembers
		*ms.Next() = Member{Key: jsonlex.Span{Start: 1, End: 2}, Param: 3}
	}
	v := reflect.ValueOf(&ms).Elem()
	for i := range v.NumField() {
		f := v.Type().Field(i)
		if f.Name == "fixed" || f.Name == "more" || f.Name == "n" {
			continue // set by Next
		}
		setNonZero(t, reflect.NewAt(f.Type, unsafe.Pointer(v.Field(i).UnsafeAddr())).Elem(), f.Name)
	}
	ms.Reset()
	for i := range v.NumField() {
		if f := v.Type().Field(i); f.Name != "fixed" && !v.Field(i).IsZero() {
			t.Errorf("after Reset, %s = %v, want its zero value", f.Name, v.Field(i))
		}
	}
	if ms.Next(); ms.Len() != 1 {
		t.Errorf("after Reset, Next gives member %d, want the first", ms.Len())
	}
}

// setNonZero sets v, of a kind Members' fields are, to a value that is not
// its zero value.
func setNonZero(t *testing.T, v reflect.Value, name string) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int32, reflect.Int64:
		v.SetInt(1)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
	case reflect.Struct:
		setNonZero(t, v.Field(0), name)
	default:
		t.Fatalf("field %s: no non-zero value for kind %s (extend setNonZero)", name, v.Kind())
	}
}
